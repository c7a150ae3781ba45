"""The model's written-out __init__ methods (rules.model._use_slot_init) behave as the dataclasses' own."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from rules.model import (
    BattleState,
    Event,
    Hex,
    MapSpec,
    Modifier,
    PendingEffect,
    Point,
    ShipOrder,
    ShipState,
    SideInfo,
    new_event,
)


def _ship(**kw: object) -> ShipState:
    args: dict[str, object] = {"id": "a", "name": "A", "side": "x", "position": Hex(q=1, r=2), **kw}
    return ShipState(**args)  # type: ignore[arg-type]


def test_defaults_and_fresh_factories() -> None:
    a, b = _ship(), _ship()
    assert (a.class_name, a.heading, a.speed, a.status, a.flags, a.offset) == ("", 0.0, 0.0, "active", (), 0)
    assert a.stats == {} and a.sheet == {}
    assert a.stats is not b.stats and a.sheet is not b.sheet
    o1, o2 = ShipOrder(ship_id="a"), ShipOrder(ship_id="a")
    assert o1.data == {} and o1.data is not o2.data
    assert PendingEffect(id="p", kind="fire").data == {}


def test_values_are_stored_as_given() -> None:
    sheet: dict[str, object] = {"damage": 1}
    s = _ship(sheet=sheet, heading=60, flags=("sinking",))
    assert s.sheet is sheet and s.heading == 60 and type(s.heading) is int and s.flags == ("sinking",)
    assert Point(x=1, y=2.5) == Point(x=1, y=2.5) and hash(Hex(q=1, r=2)) == hash(Hex(q=1, r=2))
    assert Modifier(label="m", value=-1).value == -1


def test_keyword_only_and_required() -> None:
    with pytest.raises(TypeError):
        ShipState(id="a", name="A", side="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Hex(1, 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Hex(q=1, r=2, s=-3)  # type: ignore[call-arg]


def test_still_frozen_and_replace_works() -> None:
    s = _ship()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.heading = 1.0  # type: ignore[misc]
    t = dataclasses.replace(s, heading=120.0, sheet={"damage": 2})
    assert t.heading == 120.0 and t.sheet == {"damage": 2} and t.position is s.position and t.stats is s.stats
    state = BattleState(
        ruleset="memoir_sea",
        map=MapSpec(geometry="hex6", width=10, height=10),
        sides=(SideInfo(key="x", name="X"),),
        ships=(s,),
    )
    assert dataclasses.replace(state, turn=2).ships == (s,) and state.options == {} and state.extra == {}


def test_signature_matches_the_fields() -> None:
    for cls in (Point, Hex, ShipState, BattleState, ShipOrder, Modifier, PendingEffect, Event):
        params = inspect.signature(cls).parameters
        assert list(params) == [f.name for f in dataclasses.fields(cls)]
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())


def test_ship_replace_is_dataclasses_replace() -> None:
    s = _ship(class_name="c", heading=60.0, speed=2.0, flags=("on_fire",), offset=1, stats={"a": 1}, sheet={})
    changes: list[dict[str, object]] = [
        {},
        {"sheet": {"damage": 3}},
        {"position": Hex(q=2, r=2), "heading": 120.0, "speed": 3.0, "status": "withdrawn"},
        {f.name: getattr(_ship(id="b", name="B", side="y"), f.name) for f in dataclasses.fields(ShipState)},
    ]
    for ch in changes:
        got, want = s.replace(**ch), dataclasses.replace(s, **ch)  # type: ignore[arg-type]
        assert got == want and type(got) is ShipState
        assert all(getattr(got, f.name) is getattr(want, f.name) for f in dataclasses.fields(ShipState))
    assert s.replace() is not s
    with pytest.raises(TypeError):
        s.replace(colour="red")  # type: ignore[call-arg]
    params = inspect.signature(ShipState.replace).parameters
    assert list(params)[1:] == [f.name for f in dataclasses.fields(ShipState)]


def test_state_replace_is_dataclasses_replace() -> None:
    state = BattleState(
        ruleset="r",
        map=MapSpec(geometry="table_in", width=10, height=10),
        sides=(SideInfo(key="x", name="X"),),
        ships=(_ship(),),
        options={"o": 1},
    )
    changes: list[dict[str, object]] = [
        {},
        {"phase": 1},
        {"phase": 0, "turn": 3},
        {"finished": True, "winner": "x"},
        {"ships": (), "terrain": (), "conditions": dataclasses.replace(state.conditions, night=True)},
    ]
    for ch in changes:
        got, want = state.replace(**ch), dataclasses.replace(state, **ch)  # type: ignore[arg-type]
        assert got == want and type(got) is BattleState
        assert all(getattr(got, f.name) is getattr(want, f.name) for f in dataclasses.fields(BattleState))
    assert state.replace() is not state
    with pytest.raises(TypeError):
        state.replace(colour="red")  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.replace(turn=2).turn = 3  # type: ignore[misc]
    params = inspect.signature(BattleState.replace).parameters
    assert list(params)[1:] == [f.name for f in dataclasses.fields(BattleState)]


def test_event_init_stores_as_given_and_stays_frozen() -> None:
    data: dict[str, object] = {"a": 1}
    e = Event(kind="hit", text="t", turn=2, rolls=(), data=data, visible_to=("x",))  # type: ignore[arg-type]
    assert type(e) is Event and e.data is data and e.visible_to == ("x",) and e.phase == 0
    assert Event(kind="k", text="t", turn=1).data == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.kind = "miss"  # type: ignore[misc]

    class Sub(Event):
        __slots__ = ()

    s = Sub(kind="hit", text="t", turn=2, outcome="hit")
    assert type(s) is Sub and s.outcome == "hit" and s.data == {}


def test_new_event_is_the_event_init_builds() -> None:
    data: dict[str, object] = {"a": 1}
    args = ("fire", "t", 3, 1, "s", "t2", (), (), 5, "hit", data, ("x",))
    e = new_event(*args)  # type: ignore[arg-type]
    names = [f.name for f in dataclasses.fields(Event)]
    assert type(e) is Event and e == Event(**dict(zip(names, args, strict=True)))  # type: ignore[arg-type]
    assert e.data is data
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.kind = "miss"  # type: ignore[misc]
