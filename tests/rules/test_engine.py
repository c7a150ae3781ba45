"""The engine's plumbing: phases and turns advance, default orders (A7), rejections, outcome, views (A2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    BattleState,
    PhaseResult,
    ScriptedDice,
    SeededDice,
    ShipOrder,
    complete_orders,
    resolve_turn,
    validate_orders,
    view_for,
)
from rules.model import MapSpec, PendingEffect, Point, ShipState, SideInfo, TerrainFeature


def fake_state() -> BattleState:
    def ship(sid: str, side: str, y: float) -> ShipState:
        return ShipState(
            id=sid,
            name=sid.title(),
            side=side,
            position=Point(x=10, y=y),
            stats={"max_speed": 4},
            sheet={"hits": 0, "secret": "boxes"},
        )

    return BattleState(
        ruleset="fake",
        map=MapSpec(geometry="table_in", width=96, height=72),
        sides=(SideInfo(key="north", name="North"), SideInfo(key="south", name="South")),
        ships=(ship("n1", "north", 40), ship("n2", "north", 44), ship("s1", "south", 35)),
        terrain=(
            TerrainFeature(kind="mine", position=Point(x=1, y=1), visible_to=("south",)),
            TerrainFeature(kind="shoal", position=Point(x=2, y=2)),
        ),
        pending=(PendingEffect(id="p", kind="torpedo", visible_to=("north",)),),
    )


def test_phases_then_turns_advance(fake_ruleset: str) -> None:
    """A1: the phase counter walks the rule set's plan, then the turn advances and the phase restarts."""
    state = fake_state()
    dice = SeededDice(1)
    seen = []
    for _ in range(5):
        seen.append((state.turn, state.phase))
        state = resolve_turn(state, [], dice).state
    assert seen == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]


def test_missing_orders_get_the_campaign_default(fake_ruleset: str) -> None:
    state = replace(fake_state(), options={"default_orders": "hold"})
    result = resolve_turn(state, [ShipOrder(ship_id="n1", data={"speed": 3})], SeededDice(1))
    defaults = [e for e in result.events if e.kind == "default_orders"]
    assert [(e.ship_id, e.visible_to, e.data) for e in defaults] == [("n2", ("north",), {"policy": "hold"})]
    assert defaults[0].text == "N2 had no orders: default orders (hold)."
    ships = result.state.ship_map()
    assert ships["n1"].position == Point(x=10, y=37) and ships["n2"].position == Point(x=10, y=44)
    # the south does not order in the north's phase: its ship is neither moved nor defaulted
    assert ships["s1"].position == Point(x=10, y=35)


@pytest.mark.parametrize(
    ("option", "policy"),
    [(None, "fire_nearest"), ("hold", "hold"), ("captain", "captain"), ("nonsense", "fire_nearest")],
)
def test_the_default_policy_comes_from_the_options(
    fake_ruleset: str, option: str | None, policy: str
) -> None:
    state = fake_state()
    if option is not None:
        state = replace(state, options={"default_orders": option})
    orders, events = complete_orders(state, [])
    assert set(orders) == {"n1", "n2"}
    assert all(o.default for o in orders.values())
    assert {e.data["policy"] for e in events} == {policy}


def test_an_illegal_order_is_replaced_and_logged(fake_ruleset: str) -> None:
    state = fake_state()
    result = resolve_turn(
        state,
        {
            "n1": ShipOrder(ship_id="n1", data={"speed": 9}),
            "n2": ShipOrder(ship_id="n2", data={"speed": "fast"}),
        },
        SeededDice(1),
    )
    kinds = [(e.kind, e.ship_id) for e in result.events]
    assert kinds[:4] == [
        ("order_rejected", "n1"),
        ("default_orders", "n1"),
        ("order_rejected", "n2"),
        ("default_orders", "n2"),
    ]
    assert result.events[0].text == "N1: order rejected (speed: N1 can make 4 at most.); default orders used."
    assert result.events[1].text == "N1 follows default orders (fire_nearest) instead."
    assert result.events[2].text == "N2: order rejected (speed: Enter a whole number.); default orders used."
    assert result.events[0].visible_to == ("north",)
    assert result.state.ship("n1").position == Point(x=10, y=39)


def test_rolls_of_the_phase_only_and_the_outcome(fake_ruleset: str) -> None:
    state = fake_state()
    dice = ScriptedDice([6, 5, 6])
    dice.roll("D6", "before the phase")
    orders = [
        ShipOrder(ship_id="n1", data={"speed": 0, "target": "s1"}),
        ShipOrder(ship_id="n2", data={"speed": 0, "target": "s1"}),
    ]
    result = resolve_turn(state, orders, dice)
    assert [r.value for r in result.rolls] == [5, 6]
    assert result.state.ship("s1").status == "sunk"
    assert result.state.finished and result.state.winner == "north"
    assert result.events[-1].kind == "battle_over" and result.events[-1].outcome == "north"
    assert result.events[-1].text == "The battle is over: North holds the sea."  # the side's name
    # a finished battle resolves to itself
    again = resolve_turn(result.state, orders, ScriptedDice([]))
    assert again == PhaseResult(state=result.state, events=(), rolls=())


def test_validate_orders_invalid_versus_illegal(fake_ruleset: str) -> None:
    state = fake_state()
    state = state.with_ships({"n2": replace(state.ship("n2"), status="sunk")})
    errors = validate_orders(
        state,
        "north",
        [
            ShipOrder(ship_id="ghost", data={"speed": 1}),
            ShipOrder(ship_id="s1", data={"speed": 1}),
            ShipOrder(ship_id="n2", data={"speed": 1}),
            ShipOrder(ship_id="n1", data={"speed": 11, "colour": "red"}),
        ],
    )
    assert errors.invalid == {
        "ghost": {"ship_id": ["No ship 'ghost' in this battle."]},
        "n1": {"__all__": ["unknown fields: colour"], "speed": ["Must be at most 10."]},
    }
    assert errors.illegal == {
        "s1": {"ship_id": ["S1 is not your ship."]},
        "n2": {"ship_id": ["N2 is sunk and takes no orders."]},
    }
    assert not errors.ok
    assert errors.for_ship("n1") == {"__all__": ["unknown fields: colour"], "speed": ["Must be at most 10."]}
    twice = validate_orders(
        state,
        "north",
        [ShipOrder(ship_id="n1", data={"speed": 1}), ShipOrder(ship_id="n1", data={"speed": 2})],
    )
    assert twice.invalid == {"n1": {"ship_id": ["Two orders for one ship."]}}
    illegal = validate_orders(state, "north", [ShipOrder(ship_id="n1", data={"speed": 5, "target": "n2"})])
    assert illegal.illegal == {"n1": {"speed": ["N1 can make 4 at most."], "target": ["Not a target."]}}
    assert illegal.invalid == {}
    # the south gives no orders in the north's phase
    south = validate_orders(state, "south", [ShipOrder(ship_id="s1", data={"speed": 1})])
    assert south.illegal == {"s1": {"__all__": ["Your side gives no orders this phase."]}}
    assert validate_orders(state, "north", [ShipOrder(ship_id="n1", data={"speed": 4})]).ok


def test_views_per_side(fake_ruleset: str) -> None:
    """A2: own sheets in full, the enemy's public sheet, hidden terrain and effects gone, own events only."""
    state = fake_state()
    north = view_for(state, "north")
    assert isinstance(north, BattleState)
    assert north.ship("n1").sheet == {"hits": 0, "secret": "boxes"}
    assert north.ship("s1").sheet == {"hits": 0}
    assert [t.kind for t in north.terrain] == ["shoal"] and [p.id for p in north.pending] == ["p"]
    south = view_for(state, "south")
    assert isinstance(south, BattleState)
    assert [t.kind for t in south.terrain] == ["mine", "shoal"] and south.pending == ()
    assert view_for(state, None) == state

    result = resolve_turn(
        state, [ShipOrder(ship_id="n1", data={"speed": 0, "target": "s1"})], ScriptedDice([2])
    )
    seen_by_south = view_for(result, "south")
    assert isinstance(seen_by_south, PhaseResult)
    assert [e.kind for e in seen_by_south.events] == [
        "move",
        "move",
    ]  # the north's fire and defaults are hidden
    assert seen_by_south.rolls == ()
    seen_by_north = view_for(result, "north")
    assert isinstance(seen_by_north, PhaseResult)
    assert [e.kind for e in seen_by_north.events] == ["default_orders", "move", "move", "fire"]
    assert [r.value for r in seen_by_north.rolls] == [2]
    assert view_for(result, None) == result
