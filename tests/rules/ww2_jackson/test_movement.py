"""Seed 000 section 5, movement (lines 395-407), with W36-W38 and NW-WW2-09, -10, -19."""

from __future__ import annotations

import math

import pytest
from ww2_helpers import ship, state, stats

from rules.dice import ScriptedDice
from rules.model import Point, ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson.movement import combat_speed, inches, max_speed, move, turning_radius
from rules.rulesets.ww2_jackson.record import Cond, Sheet, parse_class


@pytest.mark.parametrize(
    ("rated", "combat", "move_in"),
    [
        pytest.param(33, 31, 7.75, id="000-move-33kn-31kn-7.75in-line395"),
        pytest.param(32, 30, 7.5, id="W36-32kn-moves-7.5in"),
        pytest.param(20, 19, 4.75, id="W37-exactly-20kn-loses-1"),
        pytest.param(21, 19, 4.75, id="000-move-21kn-loses-2"),
        pytest.param(19, 18, 4.5, id="000-move-19kn-loses-1"),
    ],
)
def test_combat_speed(rated: float, combat: float, move_in: float) -> None:
    """Line 395: "We subtract 2 knots from any ship speed over 20 knots, and one knot for speeds under 20
    knots. A ship ... able to do 33 knots ... would achieve 31 knots or 7-3/4" maximum speed"."""
    assert combat_speed(rated) == combat and inches(combat) == move_in


def test_quarter_inch_per_knot() -> None:
    """Line 395: "Each ship may move 1/4" for each knot ... A ship that could do 32 knots ... may move 8""
    (W36: the conversion only)."""
    assert inches(32) == 8.0


@pytest.mark.parametrize(
    ("engines", "lost", "fraction"),
    [
        pytest.param(2, 1, 0.5, id="000-move-two-engines-one-lost-half"),
        pytest.param(2, 2, 0.0, id="000-move-two-engines-both-lost"),
        pytest.param(3, 1, 2 / 3, id="000-move-three-engines-lose-third"),
        pytest.param(4, 3, 0.25, id="000-move-four-engines-three-lost"),
    ],
)
def test_engine_losses(engines: int, lost: int, fraction: float) -> None:
    """Line 397: "A ship with two engine boxes will lose 1/2 of it's speed if one box is checked off ... a
    ship with three engine boxes would lose 1/3 of its speed when the first box was checked off" (W38)."""
    cd = parse_class(stats(speed=22, engine=engines))
    sh = Sheet(marked={"engine": lost})
    assert max_speed(cd, sh, 1) == pytest.approx(20 * fraction, abs=1e-3)


@pytest.mark.parametrize("speed", [20.5, 30, 45.5, 50, 1e6], ids=lambda v: f"W38-{v:g}-knots")
def test_any_speed_over_what_the_ship_can_make_gets_the_one_message(speed: float) -> None:
    """W38: the ship makes what her damage leaves her (20 knots here: 22 rated, two knots off over 20). Every
    speed above it is refused with that top; 50 knots was "Must be at most 45 knots" (the field's own top)
    while 30 was "at most 20", two tops for one order."""
    f = ship("f", "blue", stats(speed=22), 50, 50)
    st = state(f, ship("t", "red", stats(), 80, 50))

    errors = RULESET.validate_orders(st, "blue", [ShipOrder(ship_id="f", data={"course": 0, "speed": speed})])

    assert errors.invalid == {}
    assert errors.illegal == {"f": {"speed": ["F can make at most 20 knots now (W38)."]}}


@pytest.mark.parametrize(
    ("uw_lost", "boiler", "expected"),
    [
        pytest.param(1, False, 20, id="000-move-underwater-below-half"),
        pytest.param(2, False, 15, id="000-move-underwater-half-quarter-speed-lost"),
        pytest.param(4, False, 10, id="000-move-underwater-all-half-speed-lost"),
        pytest.param(4, True, 5, id="W38-underwater-all-and-boiler"),
        pytest.param(0, True, 10, id="000-crit-boiler-half-speed"),
    ],
)
def test_underwater_losses_combine(uw_lost: int, boiler: bool, expected: float) -> None:
    """Line 399: "when 1/2 of the general underwater hit boxes have been checked off, the ship loses 1/4
    speed. If all ... the ship loses 1/2 speed" and W38: the losses multiply, u is not added."""
    cd = parse_class(stats(speed=22, underwater=4))
    sh = Sheet(marked={"underwater": uw_lost})
    if boiler:
        sh.conditions["boiler"] = Cond(since=1)
    assert max_speed(cd, sh, 2) == pytest.approx(expected)
    # Three engines of four intact as well: x 3/4.
    sh.marked["engine"] = 1
    assert max_speed(cd, sh, 2) == pytest.approx(expected * 0.75)


@pytest.mark.parametrize(
    ("ship_type", "radius"),
    [
        pytest.param("destroyer", 3.0, id="000-move-turning-destroyer-3in"),
        pytest.param("cruiser", 4.5, id="000-move-turning-cruiser-4.5in"),
        pytest.param("battleship", 6.0, id="000-move-turning-capital-6in"),
        pytest.param("carrier", 6.0, id="000-move-turning-carrier-capital"),
    ],
)
def test_turning_circles(ship_type: str, radius: float) -> None:
    """Lines 401-407: "Destroyers - 3" radius ... Cruisers - 4.5" radius ... Capitol ships - 6" radius"."""
    assert turning_radius(parse_class(stats(ship_type))) == radius


def test_turn_on_circle_partial() -> None:
    """NW-WW2-09: a 6-inch-radius ship moving 4.71 inches turns 45 degrees at most; the rest of a 90-degree
    order is lost."""
    _end, heading, turned, _ = move(Point(x=50, y=50), 0.0, 90.0, 6 * math.pi, 6.0)  # 6 pi knots = 4.712 in
    assert turned == pytest.approx(45.0, abs=0.01) and heading == pytest.approx(45.0, abs=0.01)


def test_dead_in_the_water() -> None:
    """Line 397: with every engine box checked off the ship loses all speed: it cannot be ordered to move."""
    s = ship("a", "blue", stats(engine=2), 50, 50, sheet={"marked": {"engine": 2}}, speed=0)
    st = state(s, ship("b", "red", stats(), 10, 10))
    errs = RULESET.check_order(st, s, ShipOrder(ship_id="a", data={"course": 0, "speed": 5}))
    assert "speed" in errs
    new, _ = RULESET.setup(st, ScriptedDice([]))
    assert "dead_in_water" in new.ship("a").flags


def test_move_resolution_and_course_change() -> None:
    """A1 (1), NW-WW2-09: a destroyer at 20 knots (5 inches) on its 3-inch circle turns 5/3 radian = 95.5
    degrees of a 180-degree order: more than 90 degrees, so the course-change modifiers apply."""
    s = ship("a", "blue", stats("destroyer"), 50, 50, heading=0, speed=20)
    st = state(s, ship("b", "red", stats(), 10, 10))
    res = RULESET.resolve_phase(
        st,
        {"a": ShipOrder(ship_id="a", data={"course": 180, "speed": 20, "turn_direction": "starboard"})},
        ScriptedDice([]),
    )
    a = res.state.ship("a")
    assert a.heading == pytest.approx(95.493, abs=0.01) and a.sheet["turned"] == pytest.approx(
        95.493, abs=0.01
    )


def test_leaving_the_table_withdraws() -> None:
    """NW-WW2-10: a ship whose move ends off the table withdraws (not sunk)."""
    s = ship("a", "blue", stats(), 95, 30, heading=90, speed=20)
    st = state(s, ship("b", "red", stats(), 10, 10))
    res = RULESET.resolve_phase(
        st, {"a": ShipOrder(ship_id="a", data={"course": 90, "speed": 20})}, ScriptedDice([])
    )
    assert res.state.ship("a").status == "withdrawn"
