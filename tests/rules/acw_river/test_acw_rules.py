"""DATC-style cases for ``acw_river`` (seed ``002_715b56be87dfc13d.txt``; rulings A01-A14, NW-ACW-*).

Each case quotes the seed line it checks. ``run`` scripts the initiative first (side a 6, side b 1), then
the dice of the phase in the order they are rolled.
"""

from __future__ import annotations

import pytest

from rules import view_for
from rules.base import OBSERVER
from rules.dice import ScriptedDice
from rules.errors import IllegalOrder
from rules.geometry import hex_distance
from rules.model import JSON, BattleState, Hex, PhaseResult, ShipOrder, SideInfo, TerrainFeature
from rules.rulesets.acw_river import (
    capture_grounded,
    place_battery,
    place_mine,
    storm_strength,
    unload_transport,
)
from rules.rulesets.acw_river import tables as T
from rules.rulesets.acw_river.movement import arc_of_target, course_cost, footprint, plan_ram, turn_cost
from rules.rulesets.acw_river.ruleset import (
    collision_result,
    hexes_of,
    no_confirm_threshold,
    ram_result,
    remaining,
    struck_heading,
    to_hit,
)
from tests.rules.acw_river.acw_helpers import RS, at, battle, kinds, run, ship, stats, with_sheet

C = at(12, 9)  # Hex(q=12, r=3), the middle of the map
AHEAD1, AHEAD2 = Hex(q=12, r=2), Hex(q=12, r=1)


def order(**data: object) -> ShipOrder:
    return ShipOrder(ship_id="x", data=dict(data))  # type: ignore[arg-type]


# --- ship types (lines 17-25, A03, A04) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typ", "row"),
    [
        pytest.param("unarmored_ram", (4, 3, 1, 0, 1, 18), id="002-types-line19-unarmored-ram"),
        pytest.param("unarmored_gunboat", (3, 2, 1, 1, 1, 18), id="002-types-line20-unarmored-gunboat"),
        pytest.param("lightly_armored", (3, 2, 1, 2, 1, 24), id="002-types-line21-lightly-armored"),
        pytest.param("heavily_armored", (2, 1, 2, 2, 2, 24), id="002-types-line22-heavily-armored-A03"),
        pytest.param("mortar_boat", (1, 0, 1, 0, 0, 6), id="002-types-line23-mortar-boat"),
        pytest.param("transport_empty", (3, 2, 0, 0, 0, 6), id="002-types-line24-transport-empty"),
        pytest.param("transport_loaded", (2, 1, 0, 0, 0, 12), id="002-types-line25-transport-loaded"),
    ],
)
def test_002_ship_type_table(typ: str, row: tuple[int, ...]) -> None:
    """Lines 17-25: "Type / Speed Forward / Speed Back / Firepower Front Side Rear / Resistance". A03 keeps
    Heavily Armored at 24. Every row is a reference class that passes the schema."""
    ref = next(c for c in RS.reference_classes() if c["type"] == typ)
    s = ref["stats"]
    assert isinstance(s, dict)
    got = tuple(
        s[k] for k in ("speed_forward", "speed_back", "fire_front", "fire_side", "fire_rear", "resistance")
    )
    assert got == row
    assert RS.validate_class(s) == {}
    assert len(RS.reference_classes()) == 7


@pytest.mark.parametrize(
    ("typ", "protection", "armored"),
    [
        pytest.param("heavily_armored", "ironclad", True, id="002-classes-line29-ironclad"),
        pytest.param("lightly_armored", "chain", True, id="002-classes-line31-chain-armour"),
        pytest.param("unarmored_gunboat", "unprotected", False, id="002-classes-line33-unprotected"),
        pytest.param("transport_loaded", "unprotected", False, id="002-classes-line33-transport"),
    ],
)
def test_002_protection_classes(typ: str, protection: str, armored: bool) -> None:
    """Section 2 (lines 27-33) with A10: ironclad > chain-armoured > unprotected; both armoured rows count as
    "armored"."""
    assert T.SHIP_TYPES[typ]["protection"] == protection
    assert T.PROTECTION_CLASSES[protection]["armored"] is armored


@pytest.mark.parametrize(
    ("over", "field"),
    [
        pytest.param({"speed_back": 5}, "speed_back", id="002-class-speed-back-above-forward"),
        pytest.param({"resistance": -1}, "resistance", id="002-class-negative-resistance"),
        pytest.param({"fire_side": 40}, "fire_side", id="002-class-absurd-firepower"),
        pytest.param({"protection": "ironclad"}, "protection", id="002-class-unarmoured-ironclad"),
        pytest.param({"type": "submarine"}, "type", id="002-class-unknown-type"),
        pytest.param({"hexes": 4}, "hexes", id="002-class-A14-too-long"),
        pytest.param({"resistance": None}, "resistance", id="002-class-missing-resistance"),
    ],
)
def test_002_class_validation(over: dict[str, object], field: str) -> None:
    """The schema rejects missing fields and absurd numbers; check_class the cross-field errors."""
    assert field in RS.validate_class({**stats("unarmored_gunboat"), **over})  # type: ignore[dict-item]


# --- movement (section 3, A08, A09, NW-ACW-02/03) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("deg", "cost"),
    [
        pytest.param(0, 0, id="002-turn-line37-straight"),
        pytest.param(30, 0, id="002-turn-line37-30"),
        pytest.param(60, 0, id="002-turn-line37-60-free"),
        pytest.param(90, 1, id="002-turn-line38-61-90-one-hex"),
        pytest.param(120, 2, id="002-turn-line39-91-120-two-hexes"),
        pytest.param(150, 3, id="002-turn-line40-121-150-three-hexes"),
        pytest.param(180, 4, id="002-turn-A08-151-180-four-hexes"),
        pytest.param(210, 5, id="002-turn-A08-plus-one-per-30"),
    ],
)
def test_002_turning_costs(deg: int, cost: int) -> None:
    """Lines 37-40: "A vessel can change direction over a range of 60 degrees without loss of speed. From 61
    degrees to 90 degrees it loses 1 hexagon / From 91 degrees to 120 ... 2 hexagons / From 121 degrees to 150
    ... 3 hexagons". A08: 151-180 costs 4."""
    assert turn_cost(deg) == cost


def test_002_turn_costs_in_a_course_NW_ACW_02() -> None:
    """NW-ACW-02: the change of direction of a move is the sum of its turns. FRRRF = 90 degrees: 2 + 1;
    FLFRF = 60 degrees: free."""
    assert course_cost("FRRRF") == 3
    assert course_cost("FLFRF") == 3
    assert course_cost("FFLLLLLL") == 2 + 4
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)))
    errs = RS.check_order(state, state.ship("x"), order(course="FRRRFF"))
    assert "costs 4 hexes" in errs["course"][0]
    assert RS.check_order(state, state.ship("x"), order(course="FRRRF")) == {}


def test_002_twelve_facings_move() -> None:
    """Line 42 / A08: positions at every 30 degrees; a corner heading alternates between the two flanking
    hexes. A gunboat at heading 30 moving FF goes N then NE."""
    state = battle(ship("x", "a", C, 30), ship("y", "b", at(2, 2)))
    res = run(state, [], x={"course": "FF"}, y={})
    assert res.state.ship("x").position == Hex(q=13, r=1)
    assert hex_distance(C, Hex(q=13, r=1)) == 2


def test_002_course_letters_in_either_case_NW_ACW_19() -> None:
    """NW-ACW-20: ``f``, ``l`` and ``r`` are read as F, L and R (the rule book has no course letters; ours
    have no small letter of another meaning): "frf" is checked, previewed and moved as FRF, and logged so."""
    state = battle(ship("x", "a", C, 30), ship("y", "b", at(2, 2)))
    x = state.ship("x")

    assert RS.check_order(state, x, order(course="fRf")) == {}
    assert RS.preview(state, x, order(course="frf")) == RS.preview(state, x, order(course="FRF"))
    low = run(state, [], x={"course": "ff"}, y={})
    caps = run(state, [], x={"course": "FF"}, y={})

    assert low.state.ship("x") == caps.state.ship("x")
    assert low.state.ship("x").position == Hex(q=13, r=1)
    assert [e.text for e in low.events] == [e.text for e in caps.events]
    assert "FF" in next(e.text for e in low.events if e.kind == "move")


@pytest.mark.parametrize(
    ("course", "has"),
    [
        pytest.param("F F", "a space", id="NW-ACW-20-a-space"),
        pytest.param("F  R F", "spaces", id="NW-ACW-20-spaces"),
        pytest.param("FX", "'X'", id="NW-ACW-20-another-letter"),
        pytest.param("F-1x", "'-', '1' and 'x'", id="NW-ACW-20-three-others"),
        pytest.param("\ufb00", "'\ufb00'", id="NW-ACW-20-a-ligature-is-no-ff"),
    ],
)
def test_002_a_malformed_course_says_what_a_course_is_with_an_example(course: str, has: str) -> None:
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)))

    errs = RS.check_order(state, state.ship("x"), order(course=course))

    assert errs == {
        "course": [
            "Write the course as letters only, F (one hex), L and R (a 30-degree turn to port or starboard), "
            f"for example FFRF; this one has {has}."
        ]
    }


def test_002_reversing_engines_A09() -> None:
    """Line 35: "A vessel reversing engines loses one hexagon". A09: the switching move costs 1 hex, then
    Speed Back applies: a gunboat (back 2) has 1 hex."""
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)))
    x = state.ship("x")
    assert RS.move_points(x, True) == 1
    errs = RS.check_order(state, x, order(course="FF", astern=True))
    assert "after reversing engines" in errs["course"][0]
    res = run(state, [], x={"course": "F", "astern": True}, y={})
    moved = res.state.ship("x")
    assert moved.position == Hex(q=12, r=4) and moved.heading == 0 and moved.sheet["astern"] is True
    assert "astern" in moved.flags
    # astern again next move: Speed Back, no switching cost
    assert RS.move_points(moved, True) == 2
    # NW-ACW-03: back to ahead costs a hex too
    assert RS.move_points(moved, False) == 2


def test_002_mortar_boat_cannot_go_astern() -> None:
    """Line 23: Mortar Boat, Speed Back 0."""
    state = battle(ship("x", "a", C, 0, "mortar_boat"), ship("y", "b", at(2, 2)))
    errs = RS.check_order(state, state.ship("x"), order(astern=True))
    assert errs["astern"] == ["X has no speed astern (Speed Back 0)."]


def test_002_A09_hit_while_astern_removes_two() -> None:
    """A09: "While moving astern each hit removes 2 points (the halving is temporary)"."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", Hex(q=12, r=-2), 0, astern=True))
    res = run(state, [5, 1], x={"fire_front": "y"}, y={"astern": True})
    assert res.state.ship("y").sheet["lost"] == 2


# --- fire (section 4-5, A04-A07, A11) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rng", "needed"),
    [
        pytest.param(1, 5, id="002-fire-A05-1-hex"),
        pytest.param(7, 5, id="002-fire-line46-7-hexes-5-6"),
        pytest.param(8, 6, id="002-fire-line46-8-hexes-6-only"),
        pytest.param(10, 6, id="002-fire-line46-10-hexes-6-only"),
        pytest.param(11, None, id="002-fire-A05-no-fire-beyond-10"),
    ],
)
def test_002_range_table(rng: int, needed: int | None) -> None:
    """Line 46: "limited to dice of 5 or 6 at 7 hexagons, 6 only at 8, 9, or 10 hexagons." A05: 1-7 5-6."""
    assert to_hit(rng) == needed


def test_002_fire_at_8_hexes_five_misses() -> None:
    """Line 46: at 8 hexes only a 6 hits; a 5 is a miss."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", Hex(q=12, r=-5), 0))
    res = run(state, [5, 4], x={"fire_front": "y"}, y={})
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.needed, fire.data["hits"], fire.data["range"]) == (6, 0, 8)


@pytest.mark.parametrize(
    ("confirm", "lost", "status", "outcome"),
    [
        pytest.param(6, 0, "sunk", "lost", id="002-fire-line48-confirmed-six-vessel-lost"),
        pytest.param(2, 1, "active", "hit", id="002-fire-A06-two-ordinary-hit"),
        pytest.param(4, 1, "active", "hit", id="002-fire-A06-four-ordinary-hit"),
        pytest.param(1, 0, "active", "ricochet", id="002-fire-line48-one-ricochet"),
        pytest.param(3, 0, "active", "ricochet", id="002-fire-line48-three-ricochet"),
        pytest.param(5, 0, "active", "ricochet", id="002-fire-line48-five-ricochet"),
    ],
)
def test_002_confirmation(confirm: int, lost: int, status: str, outcome: str) -> None:
    """Line 48: "each "6" rolled must be confirmed by a 6. If this happens the vessel, whatever its rank and
    strength is immediately lost ... an odd number, however, will indicate a ricochet and no damage."
    A01: the printed "11611" reads "6". A06: 2 or 4 = an ordinary hit."""
    state = battle(ship("x", "a", C, 0), ship("y", "b", Hex(q=12, r=-2), 0, "heavily_armored"))
    res = run(state, [6, confirm], x={"fire_front": "y"}, y={})
    y = res.state.ship("y")
    assert (y.sheet["lost"], y.status) == (lost, status)
    fire = next(e for e in res.events if e.kind == "fire")
    assert fire.outcome == outcome and [r.value for r in fire.rolls] == [6, confirm]


@pytest.mark.parametrize(
    ("res_", "threshold"),
    [
        pytest.param(24, 18, id="002-fire-A07-24-after-18"),
        pytest.param(18, 14, id="002-fire-A07-18-after-14"),
        pytest.param(12, 9, id="002-fire-A07-12-after-9"),
        pytest.param(6, 5, id="002-fire-A07-6-after-5"),
    ],
)
def test_002_no_confirmation_thresholds(res_: int, threshold: int) -> None:
    """Line 50: "It is not necessary to confirm if the vessel has lost 3/4 of its powers of resistance".
    A07."""
    assert no_confirm_threshold(res_) == threshold


def test_002_A07_six_destroys_without_confirmation() -> None:
    """A07: "Once 3/4 or more of the original resistance is lost, any 6 destroys the vessel outright": an 18
    that has lost 14 is lost to a 6, no second die."""
    state = battle(ship("x", "a", C, 0), ship("y", "b", Hex(q=12, r=-2), 0, lost=14))
    res = run(state, [6], x={"fire_front": "y"}, y={})
    assert res.state.ship("y").status == "sunk"
    assert next(e for e in res.events if e.kind == "fire").data["confirmations"] == []
    # one point short of the threshold: the 6 must be confirmed
    state = with_sheet(state, "y", lost=13)
    res = run(state, [6, 3], x={"fire_front": "y"}, y={})
    assert res.state.ship("y").status == "active"


def test_002_resistance_and_A11_lost_at_zero() -> None:
    """Line 54: "Each 5 or 6 reduces the resistance by 1 point." A11: at 0 the vessel is lost. Fire is
    simultaneous (A1): the vessel lost still fires."""
    state = battle(
        ship("x", "a", C, 0, "heavily_armored", lost=23), ship("y", "b", Hex(q=12, r=-2), 180, lost=16)
    )
    res = run(state, [5, 5, 5], x={"fire_front": "y"}, y={"fire_front": "x"})
    assert res.state.ship("y").status == "sunk" and res.state.ship("x").status == "sunk"
    assert remaining(res.state.ship("y")) == 0


def test_002_fire_arcs_A04() -> None:
    """A04: firepower is the D6 fired at a target in that arc; an Unarmored Ram has no side guns (line 19)."""
    state = battle(ship("x", "a", C, 0, "unarmored_ram"), ship("y", "b", Hex(q=14, r=2), 0))
    errs = RS.check_order(state, state.ship("x"), order(fire_starboard="y"))
    assert errs["fire_starboard"] == ["X has no guns bearing starboard (Firepower, A04)."]


def test_002_NW_ACW_10_guns_follow_the_target() -> None:
    """NW-ACW-10: a target the move carries out of the arc ordered is fired at by the arc it lies in, if that
    arc has guns and no other target."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", Hex(q=12, r=0), 0))
    # x turns 90 degrees to starboard (cost 1) and moves one hex: y is now off her port side.
    res = run(state, [5, 6, 2], x={"course": "RRRF", "fire_front": "y"}, y={})
    assert "guns_follow" in kinds(res)
    fire = next(e for e in res.events if e.kind == "fire")
    assert fire.data["arc"] == "port" and fire.data["hits"] == 2


def test_002_naval_fire_at_land_double_A13() -> None:
    """Line 44: "Naval gunnery firing at land targets has double the effectiveness of field artillery." Each
    hit on a battery removes 2 points (A13); a field battery cannot hurt an ironclad (line 31)."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", at(2, 2)))
    state = place_battery(state, feature_id="bat1", side="b", position=Hex(q=12, r=0), dice=2, resistance=4)
    res = run(state, [5, 6], x={"fire_front": "bat1"}, y={})
    fire = next(e for e in res.events if e.kind == "fire")
    assert fire.data == {"arc": "front", "range": 3, "dice": 2, "hits": 2, "points": 4}
    bat = next(t for t in res.state.terrain if t.props.get("id") == "bat1")
    assert bat.props["lost"] == 4
    assert any(e.outcome == "silenced" for e in res.events)


def test_002_fort_fires_at_ironclad_field_battery_at_gunboat() -> None:
    """A13 / NW-ACW-07: fortress artillery strikes vessels like naval guns (line 54); field artillery only
    vessels without protection (lines 31, 33)."""
    state = battle(
        ship("x", "a", C, 0, "heavily_armored"), ship("g", "a", Hex(q=16, r=-1), 0), ship("y", "b", at(2, 2))
    )
    state = place_battery(
        state, feature_id="fort1", side="b", position=Hex(q=12, r=0), dice=2, resistance=6, fort=True
    )
    state = place_battery(state, feature_id="bat1", side="b", position=Hex(q=12, r=-1), dice=1, resistance=3)
    res = run(state, [5, 3, 5], x={}, g={}, y={})
    fires = [e for e in res.events if e.kind == "fire"]
    assert [(e.data["battery"], e.target_id, e.data["hits"]) for e in fires] == [
        ("fort1", "x", 1),
        ("bat1", "g", 1),
    ]
    assert res.state.ship("x").sheet["lost"] == 1 and res.state.ship("g").sheet["lost"] == 1


# --- ramming and collision (sections 6-8, A10) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("d1", "d2", "loss", "own"),
    [
        pytest.param(3, 5, 15, 4, id="002-ram-line72-74-two-odd"),
        pytest.param(2, 4, 8, 0, id="002-ram-line72-74-two-even"),
        pytest.param(6, 3, 18, 2, id="002-ram-line72-74-one-odd"),
        pytest.param(6, 6, 36, 0, id="002-ram-line72-double-six"),
        pytest.param(1, 1, 1, 4, id="002-ram-line74-double-one"),
    ],
)
def test_002_ram_results(d1: int, d2: int, loss: int, own: int) -> None:
    """Line 72: "The Ram rolls two dice. The two are multiplied to obtain the degree of damage". Line 74: "The
    ram itself will suffer 2 pts loss of resistance per odd number coming up on two dice"."""
    assert ram_result(d1, d2) == (loss, own)


def test_002_ram_resolution() -> None:
    """Section 8: the ram crosses into the enemy's flank; 3 x 5 = 15 off the target, 4 off the ram; the ram's
    bow stays in the target until it reverses engines (line 68)."""
    state = battle(ship("ram", "a", C, 0, "unarmored_ram"), ship("y", "b", AHEAD2, 90))
    res = run(state, [3, 5], ram={"ram": "y"}, y={})
    assert kinds(res)[:2] == ["move", "ram"]
    assert res.state.ship("ram").position == AHEAD1
    assert res.state.ship("y").sheet["lost"] == 15 and res.state.ship("ram").sheet["lost"] == 4
    ram = res.state.ship("ram")
    assert ram.sheet["embedded_in"] == "y"
    errs = RS.check_order(res.state, ram, ShipOrder(ship_id="ram", data={"course": "F"}))
    assert "reverse engines to draw off" in errs["astern"][0]
    assert (
        RS.check_order(res.state, ram, ShipOrder(ship_id="ram", data={"course": "F", "astern": True})) == {}
    )


def test_002_ram_needs_movement_to_cross_line68() -> None:
    """Line 68: "To ram, a vessel must have the movement power to cross the hexagon occupied by the enemy
    vessel". A heavy ram (speed 2) two hexes off cannot: one hex to close leaves one in hand."""
    state = battle(
        ship("ram", "a", C, 0, "heavily_armored", stats_over={"ram": True}), ship("y", "b", AHEAD2, 90)
    )
    free = RS._free_fn(state, state.ship("ram"))
    assert plan_ram((C, 0, 0), 2, 1, free, {AHEAD2}, 90, need=2, flank=True) is None
    assert plan_ram((C, 0, 0), 3, 1, free, {AHEAD2}, 90, need=2, flank=True) == "F"
    # a collision (section 7) only needs to reach the hex
    assert plan_ram((C, 0, 0), 2, 1, free, {AHEAD2}, 90, need=1, flank=False) == "F"


def test_002_ram_strikes_the_flank_NW_ACW_05() -> None:
    """Line 68: the ram "places its ram directly against the flank of the attacked vessel" (NW-ACW-05): not
    bow to bow."""
    state = battle(
        ship("ram", "a", AHEAD1, 0, "heavily_armored", stats_over={"ram": True}), ship("y", "b", AHEAD2, 180)
    )
    free = RS._free_fn(state, state.ship("ram"))
    assert plan_ram((AHEAD1, 0, 0), 2, 1, free, {AHEAD2}, 180, need=2, flank=True) is None
    assert plan_ram((AHEAD1, 0, 0), 2, 1, free, {AHEAD2}, 90, need=2, flank=True) == ""


def test_002_collision_by_gunboat_A10() -> None:
    """Lines 60-64 with A10: a gunboat cannot damage an ironclad (higher class), loses 1 because the ironclad
    is armoured, and the ironclad turns 60 degrees towards the gunboat's course."""
    assert collision_result(5, 2, "unprotected", "ironclad") == (0, 1)
    assert collision_result(5, 2, "ironclad", "unprotected") == (3, 0)
    assert collision_result(5, 2, "chain", "chain") == (3, 1)
    assert struck_heading(90, 0) == 30 and struck_heading(90, 180) == 150 and struck_heading(0, 180) == 60
    state = battle(ship("gb", "a", C, 0), ship("ic", "b", AHEAD2, 90, "heavily_armored"))
    res = run(state, [5, 2], gb={"ram": "ic"}, ic={})
    assert res.state.ship("ic").sheet["lost"] == 0 and res.state.ship("gb").sheet["lost"] == 1
    assert res.state.ship("ic").heading == 30
    col = next(e for e in res.events if e.kind == "collision")
    assert col.data == {"dice": [5, 2], "target_loss": 0, "own_loss": 1}


def test_002_collision_carries_struck_vessel_aground_NW_ACW_06() -> None:
    """Line 76: "as a result of change of direction from collision a vessel may run aground and is placed on
    the first shore hexagon"; line 78: "A vessel rammed may not reduce speed to avoid running aground."
    Resistance -2 (line 76)."""
    shore = (TerrainFeature(kind="shore", position=AHEAD2),)
    state = battle(ship("ic", "a", C, 0, "heavily_armored"), ship("gb", "b", AHEAD1, 90), terrain=shore)
    res = run(state, [6, 1], ic={"ram": "gb"}, gb={})
    gb = res.state.ship("gb")
    assert gb.heading == 30
    assert gb.position == AHEAD2 and gb.sheet["aground"] is True
    assert gb.sheet["lost"] == 5 + 2


# --- running aground (section 9) ---------------------------------------------------------------------------


def test_002_running_aground_and_firing_the_turn_after() -> None:
    """Line 76: "a vessel may run aground and is placed on the first shore hexagon. This reduces resistance by
    2 points." Line 80: "If the vessel retains resistance points after running aground it continues to fire
    the turn after."."""
    shore = (TerrainFeature(kind="shore", position=AHEAD1),)
    state = battle(ship("x", "a", C, 0), ship("y", "b", Hex(q=12, r=-1), 180), terrain=shore)
    res = run(state, [], x={"course": "FF", "fire_front": "y"}, y={})
    x = res.state.ship("x")
    assert x.position == AHEAD1 and x.sheet["aground"] is True and "aground" in x.flags
    assert x.sheet["lost"] == 2 and x.speed == 0
    assert not any(e.kind == "fire" for e in res.events)
    errs = RS.check_order(res.state, x, ShipOrder(ship_id="x", data={"course": "F"}))
    assert errs["course"] == ["X is aground and cannot move (section 9)."]
    from dataclasses import replace

    nxt = replace(res.state, turn=2)
    res2 = run(nxt, [5], x={"fire_front": "y"}, y={})
    assert res2.state.ship("y").sheet["lost"] == 1


def test_002_capture_grounded_by_troops() -> None:
    """Line 82: "A vessel run aground may be taken by enemy troops, and if stormed has the power of
    resistance of a house if protected, a redoubt if armored. Troops embarked add 1 point per figure." An
    umpire action (A13)."""
    state = battle(
        ship("x", "a", C, 0, "transport_loaded", stats_over={"troops": 3}, aground=True),
        ship("ic", "a", at(5, 5), 0, "heavily_armored", aground=True),
        ship("y", "b", at(2, 2)),
    )
    assert storm_strength(state, "x") == {"as": "house", "troops_points": 3, "resistance_left": 12}
    assert storm_strength(state, "ic")["as"] == "redoubt"
    new, ev = capture_grounded(state, "x", "b")
    assert new.ship("x").status == "captured" and ev.kind == "captured" and ev.data["by_side"] == "b"
    with pytest.raises(IllegalOrder, match="not aground"):
        capture_grounded(state, "y", "a")
    with pytest.raises(IllegalOrder, match="own ship"):
        capture_grounded(state, "x", "a")
    with pytest.raises(IllegalOrder, match="captured"):
        capture_grounded(new, "x", "b")


def test_002_transport_loaded_and_empty() -> None:
    """Lines 24-25: Transport, Empty 3 / 2, resistance 6; Loaded 2 / 1, resistance 12. Unloading (umpire)
    keeps at most 6 points (NW-ACW-09)."""
    state = battle(ship("t", "a", C, 0, "transport_loaded", lost=4), ship("y", "b", at(2, 2)))
    assert state.ship("t").sheet["loaded"] is True
    new, _ = unload_transport(state, "t")
    t = new.ship("t")
    assert (t.sheet["speed_forward"], t.sheet["speed_back"], t.sheet["resistance"], remaining(t)) == (
        3,
        2,
        6,
        6,
    )
    assert RS.move_points(t, False) == 3
    with pytest.raises(IllegalOrder):
        unload_transport(new, "t")


# --- mines (section 10, A12) --------------------------------------------------------------------------------


def test_002_mine_even_detonates_vessel_lost() -> None:
    """Line 84: "When the enemy crosses the mined square, the "miner" rolls a die. If it comes up even the
    ship detonates the mine." A12: default, the vessel is lost."""
    state = place_mine(
        battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2))), feature_id="m1", side="b", position=AHEAD1
    )
    assert RS.view_for(state, "a").terrain == () and len(RS.view_for(state, "b").terrain) == 1
    res = run(state, [4], x={"course": "FF"}, y={})
    x = res.state.ship("x")
    assert x.status == "sunk" and x.position == AHEAD1
    assert not res.state.terrain
    assert next(e for e in res.events if e.kind == "mine").outcome == "detonated"


def test_002_mine_odd_surfaces_and_gunfire_detonates_it() -> None:
    """Line 84: "Otherwise the mine is washed to the surface and may be detonated by artillery (roll of
    5-6)."."""
    state = place_mine(
        battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2))), feature_id="m1", side="b", position=AHEAD1
    )
    res = run(state, [3], x={"course": "FF"}, y={})
    assert res.state.ship("x").position == AHEAD2 and res.state.ship("x").active
    mine = res.state.terrain[0]
    assert mine.visible_to is None and mine.props["surfaced"] is True
    # a ship of side b, 3 hexes off, fires at the surfaced mine: 5 detonates it
    state2 = battle(ship("z", "b", Hex(q=12, r=5), 0), ship("w", "a", at(2, 2)))
    from dataclasses import replace

    state2 = replace(state2, terrain=res.state.terrain)
    res2 = run(state2, [5], z={"fire_front": "m1"}, w={})
    assert res2.state.terrain == ()
    assert next(e for e in res2.events if e.kind == "fire").outcome == "detonated"


def test_002_own_mine_is_safe_and_A12_effect_option() -> None:
    """Line 84: the enemy crossing rolls; A12: the effect is a setting: 'resistance' with 12 points."""
    state = place_mine(
        battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)), mine_effect="resistance"),
        feature_id="m1",
        side="a",
        position=AHEAD1,
    )
    res = run(state, [], x={"course": "F"}, y={})
    assert res.state.ship("x").position == AHEAD1 and len(res.state.terrain) == 1
    state = place_mine(
        battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)), mine_effect="resistance"),
        feature_id="m1",
        side="b",
        position=AHEAD1,
    )
    res = run(state, [2], x={"course": "F"}, y={})
    assert res.state.ship("x").sheet["lost"] == 12 and res.state.ship("x").active


# --- ships on more than one hex (A14), initiative (A1) ----------------------------------------------------


def test_002_A14_multi_hex_ship() -> None:
    """Line 1: "Warships may occupy one or more hexagons." A14: "Measure from the nearest occupied hex."."""
    assert footprint((C, 0, 0), 2) == [C, Hex(q=12, r=4)]
    assert footprint((C, 30, 0), 3) == [C, Hex(q=11, r=4), Hex(q=11, r=5)]
    state = battle(
        ship("x", "a", C, 0, "heavily_armored", stats_over={"hexes": 2}), ship("y", "b", Hex(q=12, r=7))
    )
    assert hexes_of(state.ship("x")) == [C, Hex(q=12, r=4)]
    res = run(state, [5, 4], x={"fire_rear": "y"}, y={})
    assert next(e for e in res.events if e.kind == "fire").data["range"] == 3


def test_002_initiative_high_moves_first_A1() -> None:
    """A1: "initiative D6 per side (high moves first, re-roll ties)". Both want the hex between them."""
    from rules.dice import ScriptedDice

    state = battle(ship("a1", "a", Hex(q=12, r=4), 0), ship("b1", "b", AHEAD1, 180))
    orders = {
        "a1": ShipOrder(ship_id="a1", data={"course": "F"}),
        "b1": ShipOrder(ship_id="b1", data={"course": "F"}),
    }
    res = RS.resolve_phase(state, orders, ScriptedDice([4, 4, 2, 5]))
    assert res.state.initiative == ("b", "a")
    assert res.state.ship("b1").position == C and res.state.ship("a1").position == Hex(q=12, r=4)


def test_002_tables_json() -> None:
    """Every chart is one constant printed by ``python -m rules tables acw_river``."""
    import json

    t = RS.tables()
    json.dumps(t)
    assert t["turn_costs"] == [
        {"up_to_deg": 60, "hexes_lost": 0},
        {"up_to_deg": 90, "hexes_lost": 1},
        {"up_to_deg": 120, "hexes_lost": 2},
        {"up_to_deg": 150, "hexes_lost": 3},
        {"up_to_deg": 180, "hexes_lost": 4},
    ]
    assert t["confirmation"] == {
        "1": "ricochet",
        "2": "hit",
        "3": "ricochet",
        "4": "hit",
        "5": "ricochet",
        "6": "lost",
    }
    assert t["range_table"] == [{"up_to_hexes": 7, "d6_needed": 5}, {"up_to_hexes": 10, "d6_needed": 6}]


def test_002_NW_ACW_08_no_grounding_on_a_taken_shore_hex() -> None:
    """NW-ACW-06 / NW-ACW-08: a vessel carried towards a shore hex already held by a grounded vessel stops
    short; two vessels never share a hex."""
    shore = (TerrainFeature(kind="shore", position=AHEAD2),)
    state = battle(
        ship("ic", "a", C, 0, "heavily_armored"),
        ship("gb", "b", AHEAD1, 90),
        ship("wreck", "b", AHEAD2, 0, aground=True),
        terrain=shore,
    )
    res = run(state, [6, 1], ic={"ram": "gb"}, gb={}, wreck={})
    gb = res.state.ship("gb")
    assert gb.position == AHEAD1 and gb.sheet["aground"] is False and gb.heading == 30


def test_002_NW_ACW_11_ram_damage_not_doubled_astern() -> None:
    """NW-ACW-11: A09's 2 points a hit astern is for gunfire hits only: a ram's 2 x 4 = 8 stays 8 against a
    target going astern."""
    state = battle(ship("ram", "a", C, 0, "unarmored_ram"), ship("y", "b", AHEAD2, 90, astern=True))
    res = run(state, [2, 4], ram={"ram": "y"}, y={"astern": True})
    assert res.state.ship("y").sheet["lost"] == 8


def test_002_NW_ACW_12_three_quarters_judged_at_start_of_fire() -> None:
    """NW-ACW-12: the 3/4 test (A07) uses the points lost before the fire step: an 18 at 13 lost takes a 5
    (to 14) and a 6 in one volley; the 6 is still confirmed (3 = ricochet)."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", Hex(q=12, r=-2), 0, lost=13))
    res = run(state, [5, 6, 3], x={"fire_front": "y"}, y={})
    y = res.state.ship("y")
    assert (y.status, y.sheet["lost"]) == ("active", 14)
    assert next(e for e in res.events if e.kind == "fire").data["confirmations"] == [3]


# --- the seed's stated numbers, resolved (review against seed 002) ---------------------------------------


@pytest.mark.parametrize(
    ("deg", "cost"),
    [
        pytest.param(61, 1, id="002-turn-line38-band-edge-61-one-hex"),
        pytest.param(91, 2, id="002-turn-line39-band-edge-91-two-hexes"),
        pytest.param(121, 3, id="002-turn-line40-band-edge-121-three-hexes"),
        pytest.param(151, 4, id="002-turn-A08-band-edge-151-four-hexes"),
        pytest.param(181, 5, id="002-turn-A08-band-edge-181-five-hexes"),
    ],
)
def test_002_turning_cost_band_edges(deg: int, cost: int) -> None:
    """Lines 38-40: "From 61 degrees to 90 degrees it loses 1 hexagon / From 91 degrees to 120 degrees it
    loses 2 hexagons / From 121 degrees to 150 degrees it loses 3 hexagons"; A08: "151-180 costs 4 hexes
    (extending +1 per 30)". The first degree of each band costs the band's hexes."""
    assert turn_cost(deg) == cost


def test_002_turning_90_degrees_loses_a_hex_resolved() -> None:
    """Line 38: a 90-degree change of direction "loses 1 hexagon": an Unarmored Gunboat (Speed Forward 3)
    that turns 90 degrees to starboard moves 2 hexes, not 3 (FRRRF: 2 + 1)."""
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)))
    res = run(state, [], x={"course": "FRRRF"}, y={})
    x = res.state.ship("x")
    assert (x.position, x.heading, x.speed) == (Hex(q=13, r=2), 90, 2)
    move = next(e for e in res.events if e.kind == "move" and e.ship_id == "x")
    assert move.data["path"] == [{"q": 12, "r": 3}, {"q": 12, "r": 2}, {"q": 13, "r": 2}]
    assert "costs 4 hexes" in RS.check_order(state, state.ship("x"), order(course="FRRRFF"))["course"][0]


def test_002_range_table_nine_hexes_six_only() -> None:
    """Line 46: "6 only at 8, 9, or 10 hexagons"."""
    assert to_hit(9) == 6


@pytest.mark.parametrize(
    ("rng", "die", "hits"),
    [
        pytest.param(7, 5, 1, id="002-fire-line46-7-hexes-a-5-hits"),
        pytest.param(7, 4, 0, id="002-fire-line46-7-hexes-a-4-misses"),
        pytest.param(9, 5, 0, id="002-fire-line46-9-hexes-a-5-misses"),
        pytest.param(10, 5, 0, id="002-fire-line46-10-hexes-a-5-misses"),
    ],
)
def test_002_range_table_resolved(rng: int, die: int, hits: int) -> None:
    """Line 46: "limited to dice of 5 or 6 at 7 hexagons, 6 only at 8, 9, or 10 hexagons." An Unarmored
    Gunboat fires her 1 front die at a vessel dead ahead."""
    target = Hex(q=12, r=3 - rng)
    state = battle(ship("x", "a", C, 0), ship("y", "b", target, 0, "heavily_armored"))
    res = run(state, [die], x={"fire_front": "y"}, y={})
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.data["range"], fire.needed, fire.data["hits"]) == (rng, 5 if rng <= 7 else 6, hits)
    assert res.state.ship("y").sheet["lost"] == hits


def test_002_A09_confirmed_ordinary_hit_astern_removes_two() -> None:
    """Line 35 "reduced to half its powers of resistance" with A06 and A09: a 6 confirmed by a 4 is an
    ordinary hit, and against a vessel going astern every hit removes 2 points."""
    state = battle(ship("x", "a", C, 0), ship("y", "b", Hex(q=12, r=-2), 0, "heavily_armored", astern=True))
    res = run(state, [6, 4], x={"fire_front": "y"}, y={"astern": True})
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.data["hits"], fire.data["points"], fire.data["confirmations"]) == (1, 2, [4])
    assert res.state.ship("y").sheet["lost"] == 2


def test_002_ram_sinks_an_eighteen_and_loses_two() -> None:
    """Line 72: "The two are multiplied to obtain the degree of damage to the adversary"; line 74: "The ram
    itself will suffer 2 pts loss of resistance per odd number". 6 x 3 = 18 sinks an Unarmored Gunboat
    (resistance 18, A11); the one odd die costs the ram 2 of her 18."""
    state = battle(ship("ram", "a", C, 0, "unarmored_ram"), ship("y", "b", AHEAD2, 90))
    res = run(state, [6, 3], ram={"ram": "y"}, y={})
    ram_ev = next(e for e in res.events if e.kind == "ram")
    assert ram_ev.data == {"dice": [6, 3], "target_loss": 18, "own_loss": 2}
    assert [r.value for r in ram_ev.rolls] == [6, 3]
    y, ram = res.state.ship("y"), res.state.ship("ram")
    assert (y.status, y.sheet["lost"]) == ("sunk", 18)
    assert (ram.status, ram.sheet["lost"], remaining(ram)) == ("active", 2, 16)


@pytest.mark.parametrize(
    ("die", "outcome"),
    [
        pytest.param(1, "surfaced", id="002-mine-line84-miner-rolls-1-surfaces"),
        pytest.param(2, "detonated", id="002-mine-line84-miner-rolls-2-detonates"),
        pytest.param(3, "surfaced", id="002-mine-line84-miner-rolls-3-surfaces"),
        pytest.param(4, "detonated", id="002-mine-line84-miner-rolls-4-detonates"),
        pytest.param(5, "surfaced", id="002-mine-line84-miner-rolls-5-surfaces"),
        pytest.param(6, "detonated", id="002-mine-line84-miner-rolls-6-detonates"),
    ],
)
def test_002_mine_every_face_of_the_miners_die(die: int, outcome: str) -> None:
    """Line 84: "When the enemy crosses the mined square, the "miner" rolls a die. If it comes up even the
    ship detonates the mine. Otherwise the mine is washed to the surface". A12 default: the vessel is lost;
    a surfaced mine is seen by all (NW-ACW-13) and the vessel steams on."""
    state = place_mine(
        battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2))), feature_id="m1", side="b", position=AHEAD1
    )
    res = run(state, [die], x={"course": "FF"}, y={})
    mine = next(e for e in res.events if e.kind == "mine")
    assert (mine.outcome, [r.value for r in mine.rolls], mine.ship_id) == (outcome, [die], "x")
    x = res.state.ship("x")
    if outcome == "detonated":
        assert (x.status, x.position, res.state.terrain) == ("sunk", AHEAD1, ())
        assert "blown_up" in x.flags
    else:
        assert (x.status, x.position) == ("active", AHEAD2)
        assert res.state.terrain[0].props["surfaced"] is True and res.state.terrain[0].visible_to is None


@pytest.mark.parametrize(
    ("die", "detonated"),
    [
        pytest.param(4, False, id="002-mine-line84-surfaced-artillery-4-no"),
        pytest.param(5, True, id="002-mine-line84-surfaced-artillery-5-detonates"),
        pytest.param(6, True, id="002-mine-line84-surfaced-artillery-6-detonates"),
    ],
)
def test_002_surfaced_mine_detonated_by_artillery(die: int, detonated: bool) -> None:
    """Line 84: the surfaced mine "may be detonated by artillery (roll of 5-6)"; a 6 needs no confirmation
    (that is for vessels, line 48)."""
    mine = TerrainFeature(kind="mine", position=AHEAD2, props={"id": "m1", "side": "b", "surfaced": True})
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)), terrain=(mine,))
    res = run(state, [die], x={"fire_front": "m1"}, y={})
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.outcome, len(fire.rolls)) == ("detonated" if detonated else "miss", 1)
    assert (res.state.terrain == ()) is detonated


# --- the automatic captain (A7) --------------------------------------------------------------------------


def test_002_A7_captain_backs_down_on_an_enemy_astern() -> None:
    """A7: the automatic captain closes to the best range. A gunboat with her engines already astern and the
    enemy 8 hexes astern of her backs on towards him (Speed Back 2, no hex lost: A09), instead of
    switching to ahead (a hex lost) and steaming away."""
    state = battle(ship("x", "a", C, 0, astern=True), ship("y", "b", Hex(q=12, r=11), 0))
    x = state.ship("x")
    order = RS.default_order(state, x, "captain")
    assert (order.data["astern"], order.data["course"]) == (True, "FF")
    assert RS.check_order(state, x, order) == {}
    assert order.data["fire_rear"] == "y"
    res = run(state, [], x={"course": "FF", "astern": True}, y={})
    assert res.state.ship("x").position == Hex(q=12, r=5)
    assert hex_distance(res.state.ship("x").position, Hex(q=12, r=11)) == 6


@pytest.mark.parametrize(
    ("typ", "astern", "reach"),
    [
        pytest.param("unarmored_ram", False, 3, id="002-ram-line68-A7-reach-unarmored-ram-3"),
        pytest.param("unarmored_ram", True, 2, id="002-ram-line68-A09-A7-reach-after-reversing-2"),
        pytest.param("heavily_armored", False, 1, id="002-ram-line68-A7-reach-heavy-ram-1"),
    ],
)
def test_002_A7_captain_ram_threat_reach_matches_line68(typ: str, astern: bool, reach: int) -> None:
    """Line 68: "To ram, a vessel must have the movement power to cross the hexagon occupied by the enemy
    vessel". The captain's "never show a ram your flank" (A7) counts an enemy ram as a threat from as far as
    it can really ram: its movement ahead (less a hex if it must switch its engines, A09) less the 2 hexes in
    hand, plus the hex of contact. Checked against the ram planner: a target lying across her bow is reached
    from ``reach`` hexes, not from one more."""
    r = ship("r", "a", C, 0, typ, stats_over={"ram": True}, astern=astern)
    for gap in (reach, reach + 1):
        state = battle(r, ship("y", "b", Hex(q=12, r=3 - gap), 90))
        ram = state.ship("r")
        assert RS.ram_reach(ram) == reach
        free = RS._free_fn(state, ram)
        planned = plan_ram(
            (C, 0, 0), RS.move_points(ram, False), 1, free, {Hex(q=12, r=3 - gap)}, 90, need=2, flank=True
        )
        assert (planned is not None) is (gap == reach), gap
    assert RS.ram_reach(battle(ship("g", "a", C), ship("y", "b", at(2, 2))).ship("g")) is None


# --- project rulings and A1-A3 not cited above ------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "arc"),
    [
        pytest.param(Hex(q=12, r=2), "front", id="002-arcs-NW-ACW-01-dead-ahead-front"),
        pytest.param(Hex(q=13, r=1), "front", id="002-arcs-NW-ACW-01-30-degrees-front"),
        pytest.param(Hex(q=13, r=2), "starboard", id="002-arcs-NW-ACW-01-exactly-60-is-side"),
        pytest.param(Hex(q=14, r=2), "starboard", id="002-arcs-NW-ACW-01-abeam-side"),
        pytest.param(Hex(q=13, r=3), "starboard", id="002-arcs-NW-ACW-01-exactly-120-is-side"),
        pytest.param(Hex(q=13, r=4), "rear", id="002-arcs-NW-ACW-01-150-degrees-rear"),
        pytest.param(Hex(q=12, r=4), "rear", id="002-arcs-NW-ACW-01-dead-astern-rear"),
        pytest.param(Hex(q=11, r=3), "port", id="002-arcs-NW-ACW-01-exactly-300-is-port"),
    ],
)
def test_002_NW_ACW_01_four_fire_arcs(target: Hex, arc: str) -> None:
    """A04: "Arcs are front, side and rear relative to the hex facing." NW-ACW-01: front within 60 degrees of
    the bow, rear within 60 of the stern, the rest (exactly 60 and 120 included) port or starboard; bearings
    hex centre to centre."""
    assert arc_of_target((C, 0, 0), target) == arc


def test_002_NW_ACW_01_each_broadside_fires_at_its_own_target() -> None:
    """NW-ACW-01: "Each of the four arcs fires its Firepower (A04; the Side column for each side) once a turn
    at one target in it": a Heavily Armored vessel (2 / 2 / 2) fires 2 D6 to starboard and 2 D6 to port."""
    state = battle(
        ship("x", "a", C, 0, "heavily_armored"),
        ship("s", "b", Hex(q=14, r=2)),
        ship("p", "b", Hex(q=10, r=4)),
    )
    # arcs fire in the order front, port, starboard, rear: port 6 1 (the 6 confirmed by 3: a ricochet), then
    # starboard 5 2
    res = run(state, [6, 1, 3, 5, 2], x={"fire_starboard": "s", "fire_port": "p"}, s={}, p={})
    fires = [e for e in res.events if e.kind == "fire"]
    assert [(e.target_id, e.data["arc"], e.data["dice"], e.data["hits"]) for e in fires] == [
        ("p", "port", 2, 0),
        ("s", "starboard", 2, 1),
    ]
    assert fires[0].data["confirmations"] == [3] and fires[0].data["ricochets"] == 1
    assert res.state.ship("s").sheet["lost"] == 1 and res.state.ship("p").sheet["lost"] == 0


def test_002_NW_ACW_04_ram_steered_when_she_moves_closes_if_out_of_reach() -> None:
    """NW-ACW-04: "when the vessel moves (initiative order, A1) the rules steer it on the cheapest course that
    brings its bow against the target with the movement to cross (section 8); if that cannot be done it
    closes on the target." Side b wins the initiative and its gunboat steams three hexes away first: the
    ram cannot reach her flank and closes on her instead; no ram is rolled."""
    from rules.dice import ScriptedDice

    state = battle(ship("ram", "a", C, 0, "unarmored_ram"), ship("y", "b", AHEAD2, 60))
    before = hex_distance(C, AHEAD2)
    orders = {
        "ram": ShipOrder(ship_id="ram", data={"ram": "y"}),
        "y": ShipOrder(ship_id="y", data={"course": "FFF"}),
    }
    script = ScriptedDice([1, 6])
    res = RS.resolve_phase(state, orders, script)
    assert script.remaining == 0 and res.state.initiative == ("b", "a")
    assert "ram" not in kinds(res)
    move = next(e for e in res.events if e.kind == "move" and e.ship_id == "ram")
    assert "cannot reach Y to ram this move: closes on her" in move.text
    y_now, ram_now = res.state.ship("y").position, res.state.ship("ram").position
    assert hex_distance(AHEAD2, y_now) == 3
    assert hex_distance(ram_now, y_now) < hex_distance(C, y_now) and before == 2


def test_002_NW_ACW_14_aground_for_good() -> None:
    """NW-ACW-14: "A grounded vessel stays aground for the rest of the battle (no refloating rule), fires from
    the turn after (line 80)". Two turns later she still cannot move, ahead or astern, and her default orders
    (A7) give no course but fire."""
    from dataclasses import replace

    state = battle(ship("x", "a", C, 0, aground=True, aground_turn=1), ship("y", "b", Hex(q=12, r=-1), 180))
    state = replace(state, turn=3)
    x = state.ship("x")
    for data in ({"course": "F"}, {"astern": True}, {"ram": "y"}):
        assert RS.check_order(state, x, ShipOrder(ship_id="x", data=dict(data))) == {  # type: ignore[arg-type]
            "course": ["X is aground and cannot move (section 9)."]
        }
    order = RS.default_order(state, x, "captain")
    assert order.data == {"fire_front": "y"}
    res = run(state, [5], x=dict(order.data), y={})
    assert res.state.ship("x").position == C and res.state.ship("y").sheet["lost"] == 1


def test_002_NW_ACW_15_ram_must_back_off_until_out_of_contact() -> None:
    """NW-ACW-15: "After ramming, the ram's next move must be astern (or it stays) ... This lapses once the
    two are no longer in contact." With the rammed vessel 3 hexes off, the ram may go ahead again."""
    state = battle(ship("ram", "a", C, 0, "unarmored_ram", embedded_in="y"), ship("y", "b", AHEAD1, 90))
    ram = state.ship("ram")
    assert "reverse engines to draw off" in RS.check_order(state, ram, order(course="F"))["astern"][0]
    assert RS.check_order(state, ram, order(course="", astern=False)) == {}
    apart = battle(
        ship("ram", "a", C, 0, "unarmored_ram", embedded_in="y"), ship("y", "b", Hex(q=12, r=0), 90)
    )
    assert RS.embedded_target(apart, apart.ship("ram")) is None
    assert RS.check_order(apart, apart.ship("ram"), order(course="FF")) == {}


def test_002_A2_enemy_sees_the_hits_not_the_sheet() -> None:
    """A2: "A player sees the full status sheet of their own side's ships. Of an enemy ship they see ... the
    hits their side scored on it ... not its boxes." The damage report goes to the vessel's own side; the
    enemy's view of her sheet is the points lost."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", Hex(q=12, r=-2), 0))
    res = run(state, [5, 5], x={"fire_front": "y"}, y={})
    dmg = next(e for e in res.events if e.kind == "damage")
    assert (dmg.ship_id, dmg.visible_to, dmg.data["remaining"]) == ("y", ("b",), 16)
    assert next(e for e in res.events if e.kind == "fire").visible_to is None
    assert RS.view_for(res.state, "a").ship("y").sheet == {"lost": 2}
    assert RS.view_for(res.state, "b").ship("y").sheet["resistance"] == 18


def test_002_A3_default_map_24_by_18() -> None:
    """A3: "Hex sets: default 24 x 18 hexes."."""
    assert RS.default_map == (24, 18) and RS.geometry == "hex12"


# --- what each side sees of fire at batteries, forts and mines, and of rams (A2, NW-CAMP-15, NW-ACW-16) ----


def _with_side_c(state: BattleState) -> BattleState:
    """Return the battle with a third side ``c``: a gunboat in the far corner, out of everyone's range."""
    from dataclasses import replace

    state = replace(
        state,
        sides=(*state.sides, SideInfo(key="c", name="C")),
        ships=(*state.ships, ship("z", "c", at(22, 16), 0)),
    )
    return RS.setup(state, ScriptedDice([]))[0]


def _run_three(state: BattleState, dice: list[int], **orders: dict[str, JSON]) -> PhaseResult:
    """Resolve one phase of a three-side battle: initiative a 6, b 3, c 1 (a moves first), then ``dice``."""
    script = ScriptedDice([6, 3, 1, *dice])
    res = RS.resolve_phase(state, {k: ShipOrder(ship_id=k, data=v) for k, v in orders.items()}, script)
    assert script.remaining == 0, f"{script.remaining} scripted dice unused"
    return res


@pytest.mark.parametrize("third", [False, True], ids=["two-sides", "three-sides"])
def test_002_NW_ACW_16_fire_at_a_battery_is_seen_as_a_hit_is(third: bool) -> None:
    """A2: "each side sees its own rolls and what its observers could see of the enemy's"; NW-CAMP-15: a hit
    is the firer's side's and the target's (every side's when they are two). NW-ACW-16: naval fire at a
    battery or fort (line 44, 2 points a hit) and its damage report are side a's and the battery's side b's,
    not a third side's; a battery silenced is every side's (its guns fall quiet)."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", at(2, 2)))
    state = place_battery(state, feature_id="bat1", side="b", position=Hex(q=12, r=0), dice=0, resistance=6)
    state = place_battery(state, feature_id="bat2", side="b", position=Hex(q=13, r=4), dice=0, resistance=2)
    orders: dict[str, dict[str, JSON]] = {"x": {"fire_front": "bat1", "fire_rear": "bat2"}, "y": {}}
    if third:
        state = _with_side_c(state)
        res = _run_three(state, [5, 6, 5, 1], z={}, **orders)
    else:
        res = run(state, [5, 6, 5, 1], **orders)
    pair = ("a", "b") if third else None
    fire = {e.target_id: e for e in res.events if e.kind == "fire"}
    assert (fire["bat1"].data["points"], fire["bat1"].visible_to) == (4, pair)
    assert (fire["bat2"].data["points"], fire["bat2"].visible_to) == (2, pair)
    damage = {e.data["battery"]: e for e in res.events if e.kind == "damage"}
    assert (damage["bat1"].outcome, damage["bat1"].visible_to) == ("hit", pair)
    assert (damage["bat2"].outcome, damage["bat2"].visible_to) == ("silenced", None)
    if third:
        seen = view_for(res, "c").events  # type: ignore[union-attr]
        assert [e.outcome for e in seen if e.kind in ("fire", "damage")] == ["silenced"]
        assert not view_for(res, "c").rolls[3:]  # type: ignore[union-attr]


def test_NW_ACW_19_a_third_side_sees_no_damage_on_a_battery_still_firing() -> None:
    """NW-ACW-19 (A2, NW-ACW-16): the state's battery props carry its damage, which the map and the ship
    sheets draw from the view; a third side that saw none of the hits sees the battery as it stood, the firer
    and the owner see its points lost, and every side sees a battery silenced."""
    state = battle(ship("x", "a", C, 0, "heavily_armored"), ship("y", "b", at(2, 2)))
    state = place_battery(state, feature_id="bat1", side="b", position=Hex(q=12, r=0), dice=0, resistance=6)
    state = place_battery(state, feature_id="bat2", side="b", position=Hex(q=13, r=4), dice=0, resistance=2)
    res = _run_three(
        _with_side_c(state), [5, 6, 5, 1], x={"fire_front": "bat1", "fire_rear": "bat2"}, y={}, z={}
    )
    props = {str(t.props["id"]): t.props for t in res.state.terrain if t.kind == "battery"}
    assert (props["bat1"]["lost"], props["bat1"]["hit_by"]) == (4, ["a"])
    assert props["bat2"]["lost"] == 2  # silenced: resistance 2
    for side, bat1_lost in (("a", 4), ("b", 4), (None, 4), ("c", None), (OBSERVER, None)):
        seen = {
            str(t.props["id"]): t.props for t in RS.view_for(res.state, side).terrain if t.kind == "battery"
        }
        assert seen["bat1"].get("lost") == bat1_lost, side
        assert seen["bat2"]["lost"] == 2, side  # every side sees it silenced
    # with two sides, both saw every hit: nothing is hidden
    two = run(state, [5, 6, 5, 1], x={"fire_front": "bat1", "fire_rear": "bat2"}, y={})
    for side in ("a", "b", OBSERVER):
        seen = {
            str(t.props["id"]): t.props for t in RS.view_for(two.state, side).terrain if t.kind == "battery"
        }
        assert seen["bat1"]["lost"] == 4, side


@pytest.mark.parametrize("third", [False, True], ids=["two-sides", "three-sides"])
def test_002_NW_ACW_16_fire_at_a_surfaced_mine_is_the_firer_s_and_the_layer_s(third: bool) -> None:
    """Line 84: the surfaced mine "may be detonated by artillery (roll of 5-6)". NW-ACW-16 (A2, NW-CAMP-15):
    the shot's dice are side a's and the mine-layer b's; the explosion is every side's (the mine is in sight
    of all once surfaced, NW-ACW-13)."""
    mine = TerrainFeature(kind="mine", position=AHEAD2, props={"id": "m1", "side": "b", "surfaced": True})
    state = battle(ship("x", "a", C, 0), ship("y", "b", at(2, 2)), terrain=(mine,))
    if third:
        res = _run_three(_with_side_c(state), [6], x={"fire_front": "m1"}, y={}, z={})
    else:
        res = run(state, [6], x={"fire_front": "m1"}, y={})
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.outcome, fire.visible_to) == ("detonated", ("a", "b") if third else None)
    boom = next(e for e in res.events if e.kind == "mine")
    assert (boom.outcome, boom.visible_to) == ("detonated", None)


@pytest.mark.parametrize("third", [False, True], ids=["two-sides", "three-sides"])
def test_002_NW_ACW_16_a_ram_is_seen_as_a_hit_is(third: bool) -> None:
    """Line 72: "The Ram rolls two dice. The two are multiplied to obtain the degree of damage to the
    adversary (loss of resistance points)": 3 x 5 = 15. NW-ACW-16 (A2, NW-CAMP-15): the ram's dice and
    damage are the two sides'; a third side sees the move (the ram alongside her) but not the points."""
    state = battle(ship("ram", "a", C, 0, "unarmored_ram"), ship("y", "b", AHEAD2, 90))
    if third:
        res = _run_three(_with_side_c(state), [3, 5], ram={"ram": "y"}, y={}, z={})
    else:
        res = run(state, [3, 5], ram={"ram": "y"}, y={})
    ram = next(e for e in res.events if e.kind == "ram")
    assert (ram.data["target_loss"], ram.visible_to) == (15, ("a", "b") if third else None)
    assert res.state.ship("y").sheet["lost"] == 15
    if third:
        assert "ram" not in [e.kind for e in view_for(res, "c").events]  # type: ignore[union-attr]
        assert "move" in [e.kind for e in view_for(res, "c").events if e.ship_id == "ram"]  # type: ignore[union-attr]


# --- mines under a vessel of more than one hex (line 84, A14, NW-ACW-17) ------------------------------------


@pytest.mark.parametrize(
    ("course", "astern", "mine_at"),
    [
        pytest.param("F", True, Hex(q=12, r=5), id="002-mine-line84-A14-stern-leads-astern"),
        pytest.param("RR", False, Hex(q=11, r=4), id="002-mine-line84-A14-stern-swings-onto-it"),
    ],
)
def test_002_NW_ACW_17_a_longer_vessel_crosses_a_mine_with_any_hex(
    course: str, astern: bool, mine_at: Hex
) -> None:
    """Line 84: "When the enemy crosses the mined square, the "miner" rolls a die. If it comes up even the
    ship detonates the mine." Line 1: "Warships may occupy one or more hexagons" (A14). NW-ACW-17: a vessel
    of two hexes (bow C, stern astern of it) crosses the mine with her stern: backing one hex (A09: Speed
    Back 2, less the hex the switch loses), or turning 60 degrees, which swings her stern onto it. The miner
    rolls 4: detonated; A12 default, the vessel is lost."""
    state = place_mine(
        battle(ship("x", "a", C, 0, stats_over={"hexes": 2}), ship("y", "b", at(2, 2))),
        feature_id="m1",
        side="b",
        position=mine_at,
    )
    assert mine_at not in hexes_of(state.ship("x"))
    res = run(state, [4], x={"course": course, "astern": astern}, y={})
    mine = next(e for e in res.events if e.kind == "mine")
    assert (mine.outcome, [r.value for r in mine.rolls], mine.ship_id) == ("detonated", [4], "x")
    x = res.state.ship("x")
    assert x.status == "sunk" and mine_at in hexes_of(x) and res.state.terrain == ()


# --- the seed's worked example and stated numbers not resolved above ---------------------------------------


def test_002_line56_hartford_rammed_tennessee() -> None:
    """Line 56: "All rams may ram. Other vessels may collide voluntarily (e.g., Hartford rammed Tennessee.)"
    The example played: Hartford, a wooden gunboat without a ram, is ordered to ram the ironclad ram Tennessee
    (Heavily Armored, "Heavy Ram", line 22) lying across her bow. It is a collision by a gunboat (section 7):
    line 60 "A vessel may not damage significantly a vessel of a more powerful resistance class" (A10: no
    loss): |6 - 2| = 4 comes to nothing; line 64 "The Attacker loses a point if its adversary is armored":
    Hartford loses 1; line 62 Tennessee "changes direction 60 degrees towards the direction followed by the
    attacker": from 90 to 30."""
    hartford = ship("hartford", "a", C, 0, "unarmored_gunboat")
    tennessee = ship("tennessee", "b", AHEAD2, 90, "heavily_armored", stats_over={"ram": True})
    state = battle(hartford, tennessee)
    assert RS.check_order(state, state.ship("hartford"), order(ram="tennessee")) == {}
    res = run(state, [6, 2], hartford={"ram": "tennessee"}, tennessee={})
    col = next(e for e in res.events if e.kind == "collision")
    assert col.data == {"dice": [6, 2], "target_loss": 0, "own_loss": 1}
    h, t = res.state.ship("hartford"), res.state.ship("tennessee")
    assert (h.position, h.sheet["lost"], h.sheet["embedded_in"]) == (AHEAD1, 1, None)
    assert (t.position, t.heading, t.sheet["lost"]) == (AHEAD2, 30, 0)


def test_002_line31_chain_armour_proof_against_field_artillery() -> None:
    """Line 31: "Vessels Protected by Auxiliary Chain Armor: These are protected only against the fire of
    infantry and field artillery." Line 54: struck by "5 or 6 rolled against it by naval or fortress
    artillery". A field battery passes over the Lightly Armored vessel next to it and fires at the gunboat
    3 hexes off (5: a hit); a fort fires at the chain-armoured vessel, its nearest (5: a hit)."""
    state = battle(
        ship("lc", "a", Hex(q=12, r=1), 0, "lightly_armored"),
        ship("g", "a", C, 0),
        ship("y", "b", at(2, 2)),
    )
    state = place_battery(state, feature_id="bat1", side="b", position=Hex(q=12, r=0), dice=1, resistance=3)
    state = place_battery(
        state, feature_id="fort1", side="b", position=Hex(q=13, r=-1), dice=1, resistance=6, fort=True
    )
    res = run(state, [5, 5], lc={}, g={}, y={})
    fires = [e for e in res.events if e.kind == "fire"]
    assert [(e.data["battery"], e.target_id, e.data["range"], e.data["hits"]) for e in fires] == [
        ("bat1", "g", 3, 1),
        ("fort1", "lc", 2, 1),
    ]
    assert (res.state.ship("g").sheet["lost"], res.state.ship("lc").sheet["lost"]) == (1, 1)


@pytest.mark.parametrize(
    ("typ", "stormed_as"),
    [
        pytest.param("heavily_armored", "redoubt", id="002-aground-line82-NW-ACW-18-ironclad-redoubt"),
        pytest.param("lightly_armored", "redoubt", id="002-aground-line82-NW-ACW-18-chain-redoubt"),
        pytest.param("unarmored_gunboat", "house", id="002-aground-line82-NW-ACW-18-gunboat-house"),
        pytest.param("mortar_boat", "house", id="002-aground-line82-NW-ACW-18-mortar-boat-house"),
    ],
)
def test_002_NW_ACW_18_stormed_as_a_house_or_a_redoubt(typ: str, stormed_as: str) -> None:
    """Line 82: "if stormed has the power of resistance of a house if protected, a redoubt if armored. Troops
    embarked add 1 point per figure." NW-ACW-18: "armored" is both armoured rows of the table (as A10 reads
    it for section 7); every other vessel counts as a house. Two figures aboard add 2."""
    state = battle(
        ship("x", "a", C, 0, typ, stats_over={"troops": 2}, aground=True, troops=2), ship("y", "b", at(2, 2))
    )
    got = storm_strength(state, "x")
    assert (got["as"], got["troops_points"]) == (stormed_as, 2)


def test_preview_says_when_a_target_lies_in_another_arc_from_where_she_ends_NW_ACW_10() -> None:
    """Every arc may be ordered at one target (the moves decide which bears, NW-ACW-10); the preview no longer
    promises each arc's dice alike: from her end hex, as the ships stand now, Y lies astern, so the front
    guns fire only if the moves bring Y round (fresh-user check: four lots of dice promised, one fired)."""
    state = battle(ship("x", "a", C, 0, typ="heavily_armored"), ship("y", "b", Hex(q=12, r=6)))
    x = state.ship("x")

    lines = RS.preview(state, x, order(course="F", fire_front="y", fire_rear="y"))

    assert lines == [
        "Course F ahead: costs 1 hex of her 2 hexes; ends at (12,2) facing 0.",
        "Front: 2 D6 at Y after movement; 5-6 hit at 1-7 hexes, 6 at 8-10; every 6 is confirmed (A05, A06). "
        "From where she ends, Y lies in her rear arc as the ships stand now: these guns fire only if the "
        "moves bring her into the front arc (NW-ACW-10).",
        "Rear: 2 D6 at Y after movement; 5-6 hit at 1-7 hexes, 6 at 8-10; every 6 is confirmed (A05, A06).",
    ]


def test_preview_of_a_course_that_is_no_course_draws_no_move() -> None:
    """A course of other letters is refused at its field (NW-ACW-20); the preview made up an end for it
    ("ends at (4,6) facing 30"). It now says there is no move to preview."""
    state = battle(ship("x", "a", C, 30), ship("y", "b", at(2, 2)))

    assert RS.preview(state, state.ship("x"), order(course="X")) == [
        "Course X: not a course of F, L and R, so no move to preview."
    ]
