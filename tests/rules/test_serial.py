"""JSON round trip of every model class: lossless, and a malformed document names the bad value's path."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import model
from rules.errors import InvalidDocument
from rules.model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    FieldSpec,
    Hex,
    MapSpec,
    Modifier,
    OrderErrors,
    OrderType,
    PendingEffect,
    PhaseResult,
    PhaseSpec,
    Point,
    Roll,
    ShipOrder,
    ShipState,
    SideInfo,
    TerrainFeature,
)
from rules.scenario import Scenario, ScenarioClass, ScenarioShip
from rules.serial import from_json, to_json

SHIP = ShipState(
    id="hood",
    name="Hood",
    side="britain",
    class_name="Admiral",
    position=Point(x=12.5, y=30.0),
    heading=205.0,
    speed=28.0,
    status="active",
    flags=("on_fire",),
    offset=1,
    stats={"tonnage": 42_000, "guns": [{"calibre": 15.0, "count": 8}], "radar": None},
    sheet={"boxes": {"engine": [True, False]}, "fires": 1, "note": "é"},
)
ROLL = Roll(die="D20", value=17, purpose="gunnery")
EVENT = Event(
    kind="fire",
    text="Hood fires",
    turn=3,
    phase=1,
    ship_id="hood",
    target_id="bismarck",
    rolls=(ROLL,),
    modifiers=(Modifier(label="long range", value=-1.5),),
    needed=16,
    outcome="hit",
    data={"hits": 1},
    visible_to=("britain",),
)
STATE = BattleState(
    ruleset="ww2_jackson",
    turn=3,
    phase=0,
    map=MapSpec(geometry="table_in", width=96.0, height=72.0),
    sides=(SideInfo(key="britain", name="Royal Navy", colour="#1f4e9c"), SideInfo(key="germany", name="KM")),
    ships=(
        SHIP,
        dataclasses.replace(
            SHIP, id="bismarck", side="germany", position=Point(x=40.0, y=2.0), status="sunk", flags=()
        ),
    ),
    conditions=Conditions(
        night=True,
        moon="dim",
        wind_from=270.0,
        wind_force="fresh",
        weather="squalls",
        visibility=20.0,
        extra={"sea": 4},
    ),
    terrain=(
        TerrainFeature(
            kind="mine", position=Point(x=1.0, y=2.0), props={"laid_by": "germany"}, visible_to=("germany",)
        ),
    ),
    pending=(
        PendingEffect(
            id="t1", kind="torpedo", ship_id="hood", due_turn=4, data={"band": "long"}, visible_to=None
        ),
    ),
    initiative=("germany", "britain"),
    options={"belt_armour": True},
    extra={"log": [1, "two", None]},
    finished=False,
    winner=None,
)
HEX_STATE = dataclasses.replace(
    STATE,
    ruleset="ultra_simple",
    map=MapSpec(geometry="hex12", width=24, height=18),
    ships=tuple(dataclasses.replace(s, position=Hex(q=i, r=-i)) for i, s in enumerate(STATE.ships)),
    terrain=(),
)
SPEC = FieldSpec(
    name="guns",
    label="Guns",
    type="rows",
    required=False,
    min=1,
    max=4,
    unit="",
    help="h",
    default=None,
    fields=(
        FieldSpec(name="calibre", label="Calibre", type="float", min=4, max=20),
        FieldSpec(name="kind", label="Kind", type="choice", choices=("a", "b"), default="a"),
    ),
)
SCENARIO = Scenario(
    ruleset="ultra_simple",
    key="k",
    name="n",
    description="d",
    date="1941-05-27",
    sources=("s",),
    map=MapSpec(geometry="hex12", width=24, height=18),
    sides=STATE.sides,
    classes=(
        ScenarioClass(
            key="c",
            name="C",
            nation="X",
            type="battleship",
            stats={"tonnage": 40000},
            source="src",
            heuristic=True,
        ),
    ),
    ships=(
        ScenarioShip(
            id="s",
            name="S",
            class_key="c",
            side="britain",
            position=Hex(q=1, r=2),
            heading=30.0,
            speed=2.0,
            sheet={"damage": 1},
        ),
    ),
    options={"belt_armour": False},
    turns=9,
)

EXAMPLES: list[Any] = [
    Point(x=1.5, y=-2.0),
    Hex(q=3, r=-4),
    SHIP,
    MapSpec(geometry="hex6", width=10.0, height=8.0),
    STATE.terrain[0],
    STATE.conditions,
    Conditions(),
    STATE.pending[0],
    STATE.sides[0],
    STATE,
    HEX_STATE,
    ShipOrder(ship_id="hood", data={"speed": 24, "target": "bismarck", "turn": -30.5}, default=True),
    ROLL,
    Modifier(label="x", value=2.0),
    EVENT,
    Event(kind="sunk", text="t", turn=1),
    PhaseResult(state=STATE, events=(EVENT,), rolls=(ROLL,)),
    PhaseSpec(name="british move", sides=("britain",)),
    SPEC,
    OrderType(key="move", label="Move", fields=(SPEC,), help="h"),
    OrderErrors(invalid={"hood": {"speed": ["Enter a number."]}}, illegal={"x": {"__all__": ["no"]}}),
    SCENARIO,
    SCENARIO.classes[0],
    SCENARIO.ships[0],
]


def test_every_model_class_has_an_example() -> None:
    classes = {
        c
        for c in vars(model).values()
        if isinstance(c, type)
        and dataclasses.is_dataclass(c)
        and c.__module__ == "rules.model"
        and not c.__name__.startswith("_")  # (the private twins model builds objects in: never serialised)
    }
    assert classes <= {type(e) for e in EXAMPLES}


def test_model_classes_are_frozen_keyword_only_slots() -> None:
    for cls in {type(e) for e in EXAMPLES}:
        params = cls.__dataclass_params__
        assert params.frozen, cls
        assert hasattr(cls, "__slots__"), cls
        assert all(f.kw_only for f in dataclasses.fields(cls)), cls


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: type(o).__name__)
def test_round_trip_is_lossless(obj: Any) -> None:
    text = json.dumps(to_json(obj), allow_nan=False)
    back = from_json(type(obj), json.loads(text))
    assert back == obj
    # a second trip writes the same text (the first may turn an int given to a float field into a float)
    again = json.dumps(to_json(back), allow_nan=False)
    assert json.dumps(to_json(from_json(type(obj), json.loads(again))), allow_nan=False) == again


def test_a_float_field_written_as_an_integer_reads_as_a_float() -> None:
    doc = to_json(SHIP)
    doc["heading"] = 120
    ship = from_json(ShipState, doc)
    assert ship.heading == 120.0 and type(ship.heading) is float
    # but an int field does not take a float, nor a bool
    doc = to_json(Hex(q=1, r=2))
    with pytest.raises(InvalidDocument, match=r"\$\.q: expected an integer"):
        from_json(Hex, {**doc, "q": 1.5})
    with pytest.raises(InvalidDocument, match=r"\$\.q: expected an integer"):
        from_json(Hex, {**doc, "q": True})


@pytest.mark.parametrize(
    ("cls", "doc", "message"),
    [
        pytest.param(Point, [1, 2], r"\$: expected an object for Point", id="not-an-object"),
        pytest.param(Point, {"x": 1}, r"\$: missing key 'y' for Point", id="missing-key"),
        pytest.param(
            Point, {"x": 1, "y": 2, "z": 3}, r"\$: unknown keys \['z'\] for Point", id="unknown-key"
        ),
        pytest.param(Point, {"x": "1", "y": 2}, r"\$\.x: expected a number", id="string-for-number"),
        pytest.param(Point, {"x": True, "y": 2}, r"\$\.x: expected a number", id="bool-for-number"),
        pytest.param(
            ShipState,
            {**to_json(SHIP), "status": "afloat"},
            r"\$\.status: 'afloat' is not one of",
            id="literal",
        ),
        pytest.param(
            ShipState, {**to_json(SHIP), "flags": "on_fire"}, r"\$\.flags: expected a list", id="tuple"
        ),
        pytest.param(
            ShipState,
            {**to_json(SHIP), "position": {"q": 1}},
            r"\$\.position: no alternative fits",
            id="union",
        ),
        pytest.param(ShipState, {**to_json(SHIP), "stats": []}, r"\$\.stats: expected an object", id="dict"),
        pytest.param(
            BattleState, {**to_json(STATE), "winner": 3}, r"\$\.winner: no alternative fits", id="optional"
        ),
        pytest.param(
            BattleState,
            {**to_json(STATE), "ships": [{"id": "x"}]},
            r"\$\.ships\[0\]: missing key",
            id="path-into-a-list",
        ),
        pytest.param(
            Event,
            {**to_json(EVENT), "rolls": [{"die": "D20", "value": "17"}]},
            r"\$\.rolls\[0\]\.value: expected an integer",
            id="nested-path",
        ),
    ],
)
def test_a_malformed_document_names_the_path(cls: type, doc: Any, message: str) -> None:
    with pytest.raises(InvalidDocument, match=message):
        from_json(cls, doc)


def test_json_values_are_checked_in_sheets_and_payloads() -> None:
    doc = to_json(SHIP)
    with pytest.raises(InvalidDocument, match=r"\$\.sheet\.x\[1\]\.a: set is not a JSON value"):
        from_json(ShipState, {**doc, "sheet": {"x": [1, {"a": {1, 2}}]}})
    with pytest.raises(InvalidDocument, match=r"\$\.sheet\.x: nan is not a JSON number"):
        from_json(ShipState, {**doc, "sheet": {"x": math.nan}})
    with pytest.raises(InvalidDocument, match=r"\$\.x: expected a number"):
        from_json(Point, {"x": math.inf, "y": 0})


json_values: st.SearchStrategy[JSON] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=20,
)


@given(st.dictionaries(st.text(), json_values))
def test_any_json_in_a_sheet_round_trips(sheet: dict[str, JSON]) -> None:
    ship = dataclasses.replace(SHIP, sheet=sheet)
    assert from_json(ShipState, json.loads(json.dumps(to_json(ship)))) == ship
