"""DATC-style cases for ``memoir_sea`` (seed ``004_bf15dcab1aef5b0d.txt``; rulings M01-M10, NW-MEM-*).

Each case quotes the seed line it checks. Memoir dice are scripted by face: 1 = major (2 points), 2-3 =
minor (1 point), 4-6 = miss (``rules.dice.memoir_face``).
"""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.geometry import hex_distance, hexes_within
from rules.model import JSON, Hex, ShipOrder, ShipStatus, TerrainFeature
from rules.rulesets.memoir_sea import tables as T
from rules.rulesets.memoir_sea.ruleset import (
    arc_by_corners,
    arc_for,
    course_errors,
    gun_dice,
    legal_courses,
    read_dice,
    torpedo_bears,
)
from tests.rules.memoir_sea.memoir_helpers import (
    DESTROYER,
    LIGHT_CRUISER,
    PRE_DREADNOUGHT,
    RS,
    at,
    battle,
    ship,
    with_sheet,
)

C = at(12, 9)  # the middle of the map: Hex(q=12, r=3)


def orders(**data: dict[str, object]) -> dict[str, ShipOrder]:
    return {k: ShipOrder(ship_id=k, data=dict(v)) for k, v in data.items()}  # type: ignore[arg-type]


# --- Firing Dice (lines 7-12) ------------------------------------------------------------------


def test_004_firing_dice_faces() -> None:
    """Line 10-12: "1 x Major hit (worth two Flotation Value points) ... 2 x Minor hit (worth one ...) ...
    3 x Miss"."""
    assert read_dice([1, 2, 3, 4, 5, 6]) == (1, 2, 3, 4)
    assert read_dice([1, 1]) == (2, 0, 0, 4)
    assert (
        T.MEMOIR_DIE[1] == ("major", 2) and T.MEMOIR_DIE[3] == ("minor", 1) and T.MEMOIR_DIE[6] == ("miss", 0)
    )


# --- Firing Guns (lines 14-21, M04-M06) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("beam", "arc", "expected"),
    [
        pytest.param(
            8, "abeam", [8, 7, 6, 5, 4, 3, 2, 1, 0], id="004-guns-countdown-abeam-pre-dreadnought-line17"
        ),
        pytest.param(
            8, "ahead", [4, 4, 3, 3, 2, 2, 1, 1, 0], id="004-guns-countdown-ahead-pre-dreadnought-line21"
        ),
        pytest.param(8, "astern", [4, 4, 3, 3, 2, 2, 1, 1, 0], id="004-guns-countdown-astern-line19"),
        pytest.param(7, "ahead", [4, 4, 3, 3, 2, 2, 1, 1, 0], id="004-guns-M06-odd-dice-round-up"),
        pytest.param(5, "astern", [3, 3, 2, 2, 1, 1, 0, 0, 0], id="004-guns-M06-five-dice-astern"),
        pytest.param(1, "ahead", [1, 1, 0, 0, 0, 0, 0, 0, 0], id="004-guns-M06-one-die-halved-is-one"),
        pytest.param(2, "abeam", [2, 1, 0, 0, 0, 0, 0, 0, 0], id="004-guns-M05-zero-dice-no-fire"),
    ],
)
def test_004_gun_countdowns(beam: int, arc: str, expected: list[int]) -> None:
    """Line 17: "counted down as follows: 8-7-6-5-4-3-2-1 ... at point-blank range (i.e. one hex) she
    'fires' (or throws) eight dice, but if it is five hexes away ... four dice." Line 21: "4-4-3-3-2-2-1-1
    ... five hexes away ... two dice." M05 follows the examples; M06 rounds half of an odd number up."""
    assert [gun_dice(beam, r, arc) for r in range(1, 10)] == expected  # type: ignore[arg-type]
    key = "abeam" if arc == "abeam" else "ahead_astern"
    assert list(T.GUN_DICE_COUNTDOWN[beam][key]) == [n for n in expected if n]


def test_004_pre_dreadnought_examples_exact() -> None:
    """Line 17: one hex abeam "eight dice", five hexes "four dice"; line 21: ahead one hex "four dice",
    five hexes "two dice"."""
    assert gun_dice(8, 1, "abeam") == 8
    assert gun_dice(8, 5, "abeam") == 4
    assert gun_dice(8, 1, "ahead") == 4
    assert gun_dice(8, 5, "ahead") == 2


@pytest.mark.parametrize(
    ("target", "heading", "arc"),
    [
        pytest.param(Hex(q=12, r=-2), 0, "ahead", id="004-arc-M04-dead-ahead"),
        pytest.param(Hex(q=13, r=1), 0, "ahead", id="004-arc-M04-30-degrees-wholly-within"),
        pytest.param(Hex(q=14, r=1), 0, "abeam", id="004-arc-M04-60-degree-row-is-cut-abeam"),
        pytest.param(Hex(q=14, r=0), 0, "ahead", id="004-arc-M04-inside-60-line"),
        pytest.param(Hex(q=15, r=2), 0, "abeam", id="004-arc-M04-beam"),
        pytest.param(Hex(q=14, r=3), 0, "abeam", id="004-arc-M04-120-degree-row-abeam"),
        pytest.param(Hex(q=12, r=6), 0, "astern", id="004-arc-M04-dead-astern"),
        pytest.param(Hex(q=11, r=5), 0, "astern", id="004-arc-M04-astern-quarter"),
        pytest.param(Hex(q=14, r=3), 120, "ahead", id="004-arc-M04-turned-ship"),
    ],
)
def test_004_arcs(target: Hex, heading: float, arc: str) -> None:
    """Line 15/19 with M04: "the target hex lies wholly within 60 degrees either side of the line ahead or
    astern. Everything else, including hexes cut by the boundary, is abeam"."""
    assert arc_for(C, heading, target) == arc
    assert arc_by_corners(C, heading, target) == arc


def test_004_arc_centre_test_equals_corner_test() -> None:
    """M04: the fast centre test gives the literal corner-by-corner answer for every hex within 9, every
    facing."""
    for heading in (0, 60, 120, 180, 240, 300):
        for h in hexes_within(C, 9):
            if h != C:
                assert arc_for(C, heading, h) == arc_by_corners(C, heading, h), (heading, h)


def test_004_guns_abeam_resolution_five_hexes() -> None:
    """Line 17: "if it is five hexes away, the pre-dreadnought 'fires' (or throws) four dice." Four Memoir
    dice 1, 2, 4, 6 = one major + one minor = 3 points."""
    target = Hex(q=17, r=1)
    assert hex_distance(C, target) == 5 and arc_for(C, 0, target) == "abeam"
    state = battle(ship("iowa", "a", C, 0), ship("teresa", "b", target, 0, LIGHT_CRUISER))
    dice = ScriptedDice([1, 2, 1, 2, 4, 6])  # initiative a=1, b=2; then the four gun dice
    res = RS.resolve_phase(state, orders(iowa={"target": "teresa"}, teresa={}), dice)
    fire = next(e for e in res.events if e.kind == "fire")
    assert fire.data == {
        "weapon": "guns",
        "dice": 4,
        "range": 5,
        "arc": "abeam",
        "major": 1,
        "minor": 1,
        "miss": 2,
        "points": 3,
    }
    assert [r.value for r in fire.rolls] == [1, 2, 4, 6]
    assert res.state.ship("teresa").sheet["damage"] == 3


def test_004_guns_ahead_resolution_five_hexes() -> None:
    """Line 21: ahead "if it is five hexes away, the pre-dreadnought 'fires' (or throws) two dice"."""
    target = Hex(q=12, r=-2)
    state = battle(ship("iowa", "a", C, 0), ship("teresa", "b", target, 0, LIGHT_CRUISER))
    dice = ScriptedDice([1, 2, 1, 1])
    res = RS.resolve_phase(state, orders(iowa={"target": "teresa"}, teresa={}), dice)
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.data["dice"], fire.data["arc"], fire.data["points"]) == (2, "ahead", 4)
    assert res.state.ship("teresa").sheet["damage"] == 4


def test_004_gun_target_beyond_countdown_is_illegal() -> None:
    """M05: "0 dice means no fire. For B = 8 the maximum range is 8 hexes either way." Nine hexes abeam:
    illegal."""
    far = Hex(q=21, r=-1)
    assert hex_distance(C, far) == 9
    state = battle(ship("iowa", "a", C, 0), ship("teresa", "b", far, 0, LIGHT_CRUISER))
    errors = RS.check_order(state, state.ship("iowa"), ShipOrder(ship_id="iowa", data={"target": "teresa"}))
    assert "no die left" in errors["target"][0]


# --- Firing Torpedoes (lines 23-28, M09) --------------------------------------------------------------


def test_004_torpedo_example_line28() -> None:
    """Line 28: "a destroyer fires a torpedo at a target ship that is three hexes away ... It throws three
    dice and scores one 'white', one 'blue', and one 'red'. The torpedo has therefore caused three points of
    damage"."""
    target = Hex(q=15, r=2)
    assert hex_distance(C, target) == 3 and arc_for(C, 0, target) == "abeam"
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", target, 0))
    dice = ScriptedDice([1, 2, 1, 2, 5])  # initiative; white (1), blue (2), red (5)
    res = RS.resolve_phase(state, orders(furor={"torpedo": "iowa"}, iowa={}), dice)
    torp = next(e for e in res.events if e.kind == "torpedo")
    assert (torp.data["dice"], torp.data["points"], torp.data["torpedoes_left"]) == (3, 3, 3)
    assert res.state.ship("iowa").sheet["damage"] == 3
    assert res.state.ship("furor").sheet["torpedoes_left"] == 3


def test_004_torpedo_range_is_three_hexes() -> None:
    """Line 26: "Torpedoes have a range of 3 hexes"."""
    target = Hex(q=16, r=2)
    assert hex_distance(C, target) == 4
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", target, 0))
    errors = RS.check_order(state, state.ship("furor"), ShipOrder(ship_id="furor", data={"torpedo": "iowa"}))
    assert errors["torpedo"] == ["Iowa is 4 hexes away: torpedoes reach 3 hexes."]


def test_004_torpedo_only_ships_so_equipped_and_four_a_battle() -> None:
    """Line 24: "Only ships equipped to fire torpedoes may do so. No ship may fire more than one torpedo each
    turn and a maximum of four torpedoes during a battle."""
    target = Hex(q=15, r=2)
    state = battle(
        ship("lc", "a", C, 0, LIGHT_CRUISER),
        ship("furor", "a", Hex(q=10, r=3), 0, DESTROYER),
        ship("iowa", "b", target, 0),
    )
    assert RS.check_order(state, state.ship("lc"), ShipOrder(ship_id="lc", data={"torpedo": "iowa"})) == {
        "torpedo": ["Lc carries no torpedoes (Firing Torpedoes)."]
    }
    spent = with_sheet(state, "furor", torpedoes_left=0)
    furor = spent.ship("furor")
    assert RS.check_order(spent, furor, ShipOrder(ship_id="furor", data={"torpedo": "iowa"})) == {
        "torpedo": ["Furor has fired all her torpedoes (four a battle)."]
    }
    assert state.ship("furor").sheet["torpedoes_left"] == 4


@pytest.mark.parametrize(
    ("fit", "heading", "target", "bears"),
    [
        pytest.param("fixed", 0, Hex(q=12, r=1), True, id="004-torpedo-M09-fixed-row-ahead"),
        pytest.param("fixed", 0, Hex(q=12, r=5), True, id="004-torpedo-M09-fixed-row-astern"),
        pytest.param("fixed", 0, Hex(q=14, r=1), True, id="004-torpedo-M09-fixed-row-60-abeam"),
        pytest.param("fixed", 0, Hex(q=10, r=5), True, id="004-torpedo-M09-fixed-row-240-abeam"),
        pytest.param("fixed", 0, Hex(q=14, r=2), False, id="004-torpedo-M09-fixed-off-row"),
        pytest.param("fixed", 0, Hex(q=13, r=1), False, id="004-torpedo-M09-fixed-30-off-bow"),
        pytest.param("trainable", 0, Hex(q=14, r=2), True, id="004-torpedo-M09-trainable-abeam"),
        pytest.param("trainable", 0, Hex(q=12, r=1), False, id="004-torpedo-M09-trainable-not-ahead"),
        pytest.param("trainable_bow", 0, Hex(q=12, r=1), True, id="004-torpedo-M09-bow-tubes-ahead"),
        pytest.param("trainable_bow", 0, Hex(q=12, r=5), False, id="004-torpedo-M09-bow-tubes-not-astern"),
        pytest.param("none", 0, Hex(q=14, r=2), False, id="004-torpedo-none"),
    ],
)
def test_004_torpedo_arcs(fit: str, heading: float, target: Hex, bears: bool) -> None:
    """Line 24: "Ships larger than destroyers are only able to fire torpedoes directly ahead, astern, or
    abeam ... Destroyers and torpedo boats with trainable torpedo tubes ... anywhere that is abeam of them
    (Only destroyers and torpedo boats with fixed bow tubes are also allowed to fire ahead)." M09."""
    assert torpedo_bears(fit, C, heading, target) is bears


# --- Damage and Sinking (lines 30-33, M07, M08) ---------------------------------------------------------


def test_004_light_cruiser_reaches_critical_point_line33() -> None:
    """Line 33: "a light cruiser has suffered three points of damages, and its Flotation Value has been
    reduced to three. It is hit again by gunfire and suffers a 'Minor' hit ... reduced to two, which is the
    ship's Critical Point. Next move it must break off from the battle"."""
    lc_hex = Hex(q=17, r=1)
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", lc_hex, 0, LIGHT_CRUISER, speed=4, damage=3))
    assert RS.remaining(state.ship("lc")) == 3
    dice = ScriptedDice([1, 2, 2, 4, 5, 6])  # initiative; one minor, three misses
    res = RS.resolve_phase(state, orders(iowa={"target": "lc"}, lc={"course": "FFFF"}), dice)
    lc = res.state.ship("lc")
    assert lc.sheet["damage"] == 4 and RS.remaining(lc) == 2
    assert lc.sheet["breaking_off"] is True and "breaking_off" in lc.flags
    assert lc.status == "active"
    assert [e.kind for e in res.events].count("break_off") == 1
    # "Next move": her plotted course is replaced; she sails away from the enemy (NW-MEM-03).
    move = next(e for e in res.events if e.kind == "move" and e.ship_id == "lc")
    assert "breaking off" in move.text
    assert isinstance(lc.position, Hex)
    assert hex_distance(lc.position, C) > hex_distance(lc_hex, C)
    # From now on her course is the rules', not the player's.
    errs = RS.check_order(res.state, lc, ShipOrder(ship_id="lc", data={"course": "F"}))
    assert "breaking off" in errs["course"][0]
    assert RS.check_order(res.state, lc, ShipOrder(ship_id="lc", data={})) == {}


def test_004_M08_major_hit_overshoots_critical_point() -> None:
    """M08: "The ship breaks off when its remaining Flotation Value <= its Critical Point" (a major hit can
    jump past it): 6 - 3 = 3, a major hit -> 1, below the Critical Point 2."""
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", Hex(q=17, r=1), 0, LIGHT_CRUISER, damage=3))
    res = RS.resolve_phase(state, orders(iowa={"target": "lc"}, lc={}), ScriptedDice([1, 2, 1, 4, 5, 6]))
    lc = res.state.ship("lc")
    assert (RS.remaining(lc), lc.sheet["breaking_off"], lc.status) == (1, True, "active")


def test_004_M07_sinks_at_zero_and_sunk_ship_still_fires() -> None:
    """Line 4: "Gunfire is deemed to be simultaneous, and a ship that has been hit and sunk may fire its guns
    ... that turn". M07: "The ship sinks when its remaining Flotation Value reaches 0"."""
    b_hex = Hex(q=13, r=2)
    assert hex_distance(C, b_hex) == 1 and arc_for(C, 0, b_hex) == "abeam"
    state = battle(ship("iowa", "a", C, 0, damage=20), ship("vizcaya", "b", b_hex, 0, damage=20))
    dice = ScriptedDice([1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3])
    res = RS.resolve_phase(state, orders(iowa={"target": "vizcaya"}, vizcaya={"target": "iowa"}), dice)
    assert [e.data["points"] for e in res.events if e.kind == "fire"] == [1, 1]
    assert res.state.ship("iowa").status == "sunk" and res.state.ship("vizcaya").status == "sunk"
    assert [e.ship_id for e in res.events if e.kind == "sunk"] == ["iowa", "vizcaya"]


def test_004_hits_are_cumulative_and_damage_hidden_from_enemy() -> None:
    """Line 31: "All hits are cumulative." A2: the enemy sees the hits scored, not the Flotation Value."""
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", Hex(q=17, r=1), 0, LIGHT_CRUISER, damage=1))
    res = RS.resolve_phase(state, orders(iowa={"target": "lc"}, lc={}), ScriptedDice([1, 2, 2, 4, 4, 4]))
    assert res.state.ship("lc").sheet["damage"] == 2
    dmg = next(e for e in res.events if e.kind == "damage")
    assert dmg.visible_to == ("b",) and dmg.data["flotation_left"] == 4
    seen = RS.view_for(res.state, "a").ship("lc")
    assert seen.sheet == {"damage": 2}


# --- Movement (lines 35-38, M10) ----------------------------------------------------------------------


def test_004_destroyer_move_with_two_turns_line38() -> None:
    """Line 38: "a destroyer has a movement rate of five hexes. It can move forward one hex, turn sixty
    degrees (= one hex of movement), move forward another one hex, turn sixty degrees again (= one more hex
    of movement), and move forward a third hex."."""
    assert course_errors("FRFRF", 5) == []
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", at(2, 16), 0))
    res = RS.resolve_phase(state, orders(furor={"course": "FRFRF"}, iowa={}), ScriptedDice([1, 2]))
    furor = res.state.ship("furor")
    assert furor.position == Hex(q=14, r=1) and furor.heading == 120
    move = next(e for e in res.events if e.ship_id == "furor" and e.kind == "move")
    assert move.data["path"] == [{"q": 12, "r": 3}, {"q": 12, "r": 2}, {"q": 13, "r": 1}, {"q": 14, "r": 1}]


@pytest.mark.parametrize(
    ("course", "speed", "ok"),
    [
        pytest.param("FFFFF", 5, True, id="004-move-M10-straight"),
        pytest.param("FFFFFF", 5, False, id="004-move-M10-over-speed"),
        pytest.param("FRFRFF", 5, False, id="004-move-M10-turns-cost-a-hex"),
        pytest.param("RF", 5, False, id="004-move-M10-turn-before-first-hex"),
        pytest.param("FRR", 5, False, id="004-move-M10-two-turns-in-a-row"),
        pytest.param("FLFR", 5, True, id="004-move-M10-ending-on-a-turn"),
        pytest.param("", 5, True, id="004-move-M10-unused-movement-lost"),
        pytest.param("FX", 5, False, id="004-move-bad-letter"),
    ],
)
def test_004_course_rules(course: str, speed: int, ok: bool) -> None:
    """Line 36: "Ships may turn sixty degrees after moving forward one hex, the turn 'costing' one hex of
    movement." M10: each turn needs a forward hex since the last; unused movement is lost."""
    assert (course_errors(course, speed) == []) is ok


def test_004_legal_courses_destroyer() -> None:
    """M10: every legal course of a 5-hex destroyer, full speed first; the seed's example is among them."""
    courses = legal_courses(5)
    assert courses[0] == "FFFFF" and "FRFRF" in courses and "" in courses
    assert all(course_errors(c, 5) == [] for c in courses)
    assert len(courses) == 42


# --- Turn Sequence (lines 3-4, M02, A1) -------------------------------------------------------------


def test_004_M02_lowest_moves_first_and_ties_reroll() -> None:
    """Line 4: "both sides throw a D6 die. The side with the lowest score moves first that turn." M02:
    re-roll ties. Both ships want hex (12, 3): the side that moves first takes it, the other stops
    (NW-MEM-04)."""
    state = battle(ship("a1", "a", Hex(q=12, r=4), 0), ship("b1", "b", Hex(q=12, r=2), 180))
    res = RS.resolve_phase(state, orders(a1={"course": "F"}, b1={"course": "F"}), ScriptedDice([3, 3, 5, 2]))
    assert res.state.initiative == ("b", "a")
    assert [e.kind for e in res.events][:2] == ["initiative", "initiative"]
    assert res.state.ship("b1").position == Hex(q=12, r=3)
    assert res.state.ship("a1").position == Hex(q=12, r=4)
    a_move = next(e for e in res.events if e.ship_id == "a1")
    assert "NW-MEM-04" in a_move.text


def test_004_guns_fire_before_movement() -> None:
    """Line 4: "both sides fire - guns first and then torpedoes - and then move their ships." A target
    that steams away this turn is fired at where it stood."""
    b_hex = Hex(q=13, r=2)
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", b_hex, 60, LIGHT_CRUISER))
    dice = ScriptedDice([1, 2] + [4] * 7 + [2])
    res = RS.resolve_phase(state, orders(iowa={"target": "lc"}, lc={"course": "FFFF"}), dice)
    assert next(e for e in res.events if e.kind == "fire").data["dice"] == 8
    kinds = [e.kind for e in res.events]
    assert kinds.index("fire") < kinds.index("move")
    assert res.state.ship("lc").sheet["damage"] == 1
    assert res.state.ship("lc").position == Hex(q=17, r=-2)


def test_004_NW_MEM_05_sailing_off_the_map_withdraws() -> None:
    """NW-MEM-05: a ship that sails off the map leaves the battle, withdrawn, not sunk."""
    state = battle(ship("a1", "a", at(0, 9), 300), ship("b1", "b", at(20, 9), 0))
    res = RS.resolve_phase(state, orders(a1={"course": "FF"}, b1={}), ScriptedDice([1, 2]))
    assert res.state.ship("a1").status == "withdrawn"


def test_004_NW_MEM_05_land_cannot_be_entered() -> None:
    """NW-MEM-05: land hexes cannot be entered; the ship stops before them."""
    land = (TerrainFeature(kind="land", position=Hex(q=12, r=1)),)
    state = battle(ship("a1", "a", C, 0), ship("b1", "b", at(20, 16), 0), terrain=land)
    res = RS.resolve_phase(state, orders(a1={"course": "FFF"}, b1={}), ScriptedDice([1, 2]))
    assert res.state.ship("a1").position == Hex(q=12, r=2)


# --- ship data (M03) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stats", "field"),
    [
        pytest.param({**PRE_DREADNOUGHT, "gun_dice": None}, "gun_dice", id="004-class-M03-missing-gun-dice"),
        pytest.param({**PRE_DREADNOUGHT, "flotation": -1}, "flotation", id="004-class-negative-flotation"),
        pytest.param({**PRE_DREADNOUGHT, "gun_dice": 40}, "gun_dice", id="004-class-absurd-gun-dice"),
        pytest.param(
            {**PRE_DREADNOUGHT, "critical_point": 21}, "critical_point", id="004-class-M08-cp-too-high"
        ),
        pytest.param(
            {**PRE_DREADNOUGHT, "torpedo_fit": "trainable"},
            "torpedo_fit",
            id="004-class-M09-big-ship-trainable",
        ),
        pytest.param(
            {**DESTROYER, "torpedo_fit": "fixed"}, "torpedo_fit", id="004-class-M09-destroyer-fixed"
        ),
        pytest.param({**LIGHT_CRUISER, "torpedoes": 2}, "torpedoes", id="004-class-no-fit-no-torpedoes"),
        pytest.param({**PRE_DREADNOUGHT, "torpedoes": 5}, "torpedoes", id="004-class-four-a-battle"),
        pytest.param({**PRE_DREADNOUGHT, "type": "dreadnought"}, "type", id="004-class-unknown-type"),
    ],
)
def test_004_class_validation(stats: dict[str, object], field: str) -> None:
    """M03: ship data as class stats (type, gun dice, Flotation Value, Critical Point, speed, torpedo fit)."""
    errors = RS.validate_class(stats)  # type: ignore[arg-type]
    assert field in errors


def test_004_reference_and_scenario_classes_valid() -> None:
    """M03: the bundled anchor classes pass the schema; the light cruiser keeps the seed's 6 / 2."""
    for c in RS.reference_classes():
        assert RS.validate_class(c["stats"]) == {}, c["key"]  # type: ignore[arg-type]
    lc = next(c for c in RS.reference_classes() if c["key"] == "memoir_light_cruiser")
    assert lc["stats"]["flotation"] == 6 and lc["stats"]["critical_point"] == 2  # type: ignore[index]


def test_004_tables_json() -> None:
    """Every chart is one constant printed by ``python -m rules tables memoir_sea``."""
    import json

    t = RS.tables()
    json.dumps(t)
    assert t["gun_dice_countdown"]["8"] == {
        "abeam": [8, 7, 6, 5, 4, 3, 2, 1],  # type: ignore[index]
        "ahead_astern": [4, 4, 3, 3, 2, 2, 1, 1],
    }
    assert t["torpedo_rules"] == {"range_hexes": 3, "dice": 3, "per_turn": 1, "per_battle": 4}
    assert t["memoir_die"]["1"] == {"result": "major", "points": 2}  # type: ignore[index]


def test_004_NW_MEM_02_breaking_off_ship_still_fires() -> None:
    """NW-MEM-02: a ship breaking off still fires her guns at a target that bears (NW-MEM-01: one target)."""
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", Hex(q=14, r=2), 0, LIGHT_CRUISER, damage=4))
    state = with_sheet(state, "lc", breaking_off=True)
    lc = state.ship("lc")
    assert RS.check_order(state, lc, ShipOrder(ship_id="lc", data={"target": "iowa"})) == {}
    res = RS.resolve_phase(state, orders(iowa={}, lc={"target": "iowa"}), ScriptedDice([1, 2, 1, 4, 4]))
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.ship_id, fire.data["dice"], fire.data["points"]) == ("lc", 3, 2)


@pytest.mark.parametrize(
    "policy",
    [
        pytest.param("fire_nearest", id="004-guns-M06-A7-fire-nearest-seven-dice-ahead-at-8"),
        pytest.param("captain", id="004-guns-M06-A7-captain-seven-dice-ahead-at-8"),
    ],
)
def test_004_default_orders_fire_as_far_as_the_half_countdown_reaches(policy: str) -> None:
    """Line 21: "The number of dice thrown is reduced by one for every two hexes"; M06: half of an odd number
    rounds up, so 7 beam dice throw 4-4-3-3-2-2-1-1 ahead and reach 8 hexes (M05), one hex beyond the abeam
    countdown. A7: the default orders fire at the nearest enemy in range, so a target dead ahead at 8 hexes
    is fired at with 1 die."""
    seven = {**PRE_DREADNOUGHT, "type": "armoured_cruiser", "gun_dice": 7}
    far = Hex(q=12, r=-5)
    assert hex_distance(C, far) == 8 and arc_for(C, 0, far) == "ahead" and gun_dice(7, 8, "ahead") == 1
    state = battle(ship("colon", "a", C, 0, seven), ship("iowa", "b", far, 0))
    colon = state.ship("colon")
    assert RS.check_order(state, colon, ShipOrder(ship_id="colon", data={"target": "iowa"})) == {}
    order = RS.default_order(state, colon, policy)  # type: ignore[arg-type]
    assert order.data.get("target") == "iowa"


@pytest.mark.parametrize(
    ("arc", "rng", "dice"),
    [
        *(
            pytest.param("abeam", r, n, id=f"004-guns-line17-pre-dreadnought-abeam-{r}-hexes-{n}-dice")
            for r, n in zip(range(1, 9), (8, 7, 6, 5, 4, 3, 2, 1), strict=True)
        ),
        *(
            pytest.param("ahead", r, n, id=f"004-guns-line21-pre-dreadnought-ahead-{r}-hexes-{n}-dice")
            for r, n in zip(range(1, 9), (4, 4, 3, 3, 2, 2, 1, 1), strict=True)
        ),
    ],
)
def test_004_pre_dreadnought_countdown_resolved(arc: str, rng: int, dice: int) -> None:
    """Line 17: abeam "counted down as follows: 8-7-6-5-4-3-2-1"; line 21: ahead "4-4-3-3-2-2-1-1". The
    pre-dreadnought at the centre, heading 0, fires at a target on the straight row at 120 degrees (abeam,
    M04: the cut row is abeam) or dead ahead; every die is rolled and logged."""
    target = Hex(q=12 + rng, r=3) if arc == "abeam" else Hex(q=12, r=3 - rng)
    assert hex_distance(C, target) == rng and arc_for(C, 0, target) == arc
    state = battle(ship("iowa", "a", C, 0), ship("teresa", "b", target, 0))
    script = ScriptedDice([1, 2] + [4] * dice)  # initiative a=1, b=2; then misses
    res = RS.resolve_phase(state, orders(iowa={"target": "teresa"}, teresa={}), script)
    assert script.remaining == 0
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.data["dice"], fire.data["arc"], fire.data["range"]) == (dice, arc, rng)
    assert len(fire.rolls) == dice
    assert all(r.die == "MEMOIR" for r in fire.rolls)


def test_004_guns_then_torpedoes_and_a_sinking_ship_still_fires_her_torpedo() -> None:
    """Line 4: "both sides fire - guns first and then torpedoes ... a ship that has been hit and sunk may fire
    its guns and/or torpedoes that turn - as it sinks - if a suitable target is in range." The destroyer (2
    points, 1 lost) is sunk by the pre-dreadnought's guns (6 dice at 3 hexes abeam, one minor hit) and still
    fires her torpedo: white, blue, red = 3 points (line 28)."""
    target = Hex(q=15, r=3)
    assert hex_distance(C, target) == 3 and arc_for(C, 0, target) == "abeam"
    assert arc_for(target, 0, C) == "abeam"
    state = battle(ship("furor", "a", C, 0, DESTROYER, damage=1), ship("iowa", "b", target, 0))
    # initiative a=1, b=2; the guns: one minor and five misses; the torpedo: white, blue, red
    script = ScriptedDice([1, 2, 2, 4, 4, 4, 4, 4, 1, 2, 5])
    res = RS.resolve_phase(state, orders(furor={"torpedo": "iowa"}, iowa={"target": "furor"}), script)
    assert script.remaining == 0
    kinds = [e.kind for e in res.events]
    assert kinds.index("fire") < kinds.index("torpedo") < kinds.index("damage") < kinds.index("sunk")
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.ship_id, fire.data["dice"], fire.data["points"]) == ("iowa", 6, 1)
    torp = next(e for e in res.events if e.kind == "torpedo")
    assert (torp.ship_id, torp.data["points"]) == ("furor", 3)
    assert res.state.ship("furor").status == "sunk" and res.state.ship("furor").sheet["torpedoes_left"] == 3
    assert res.state.ship("iowa").sheet["damage"] == 3


def test_004_A3_default_map_24_by_18() -> None:
    """A3: "Hex sets: default 24 x 18 hexes."; the seed's hexes with six side facings."""
    assert RS.default_map == (24, 18) and RS.geometry == "hex6"


def test_004_M10_the_preview_of_an_illegal_course_says_why_not_where_she_would_end() -> None:
    """M10: "the course costs ... hexes; the ship moves ..." - the order form's preview says what the check
    says, and shows no end hex for a course she cannot run (a legal one still shows it)."""
    st = battle(ship("pd", "a", C, stats=PRE_DREADNOUGHT), ship("lc", "b", at(3, 3), stats=LIGHT_CRUISER))
    pd = st.ship("pd")

    too_long = RS.preview(st, pd, ShipOrder(ship_id="pd", data={"course": "FFFF"}))
    turn_first = RS.preview(st, pd, ShipOrder(ship_id="pd", data={"course": "LF"}))
    legal = RS.preview(st, pd, ShipOrder(ship_id="pd", data={"course": "FF"}))

    assert too_long[-1] == (
        "Course FFFF: not allowed: The course costs 4 hexes; the ship moves 3 (Movement, M10)."
    )
    assert turn_first[-1] == "Course LF: not allowed: Turn 1 (L) needs a forward hex first (M10)."
    assert legal[-1].startswith("Course FF: costs 2 hexes of her 3 hexes; ends at (")


def test_004_A2_a_third_side_s_torpedo_is_not_told_by_the_count_left() -> None:
    """A2: "Of an enemy ship they see what a tabletop opponent would: the hits their side scored on it ...
    not its boxes"; NW-CAMP-15: with three sides a launch at one side is the firer's side's and that side's.
    Line 24: "a maximum of four torpedoes during a battle": the count a ship has left is her own sheet's.
    Furor (side a) fires at Hood (side c) in turn 1, then at Iowa (side b) in turn 2: side b, who never saw
    the first launch, must not read "torpedoes_left": 2 in the second (in two sides every launch is every
    side's, and the count stays in the event)."""
    from dataclasses import replace as dc_replace

    from rules.model import SideInfo

    iowa_hex, hood_hex = Hex(q=15, r=2), Hex(q=9, r=5)
    assert arc_for(C, 0, iowa_hex) == "abeam" and arc_for(C, 0, hood_hex) == "abeam"
    assert hex_distance(C, iowa_hex) == 3 and hex_distance(C, hood_hex) == 3
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", iowa_hex, 0))
    state = dc_replace(
        state,
        sides=(*state.sides, SideInfo(key="c", name="C")),
        ships=(*state.ships, ship("hood", "c", hood_hex, 0).replace(sheet=dict(state.ship("iowa").sheet))),
    )
    # initiative a, b, c = 1, 2, 3; three misses at Hood
    first = RS.resolve_phase(state, orders(furor={"torpedo": "hood"}), ScriptedDice([1, 2, 3, 4, 5, 6]))
    at_hood = next(e for e in first.events if e.kind == "torpedo")
    assert at_hood.visible_to == ("a", "c") and "torpedoes_left" not in at_hood.data
    assert first.state.ship("furor").sheet["torpedoes_left"] == 3
    second = RS.resolve_phase(
        first.state, orders(furor={"torpedo": "iowa"}), ScriptedDice([1, 2, 3, 4, 5, 6])
    )
    at_iowa = next(e for e in second.events if e.kind == "torpedo")
    assert at_iowa.visible_to == ("a", "b")
    assert at_iowa.data == {
        "weapon": "torpedo",
        "dice": 3,
        "range": 3,
        "major": 0,
        "minor": 0,
        "miss": 3,
        "points": 0,
    }
    assert second.state.ship("furor").sheet["torpedoes_left"] == 2


@pytest.mark.parametrize(
    "rng",
    [
        pytest.param(1, id="004-torpedo-line26-three-dice-at-1-hex"),
        pytest.param(2, id="004-torpedo-line26-three-dice-at-2-hexes"),
        pytest.param(3, id="004-torpedo-line26-three-dice-at-3-hexes"),
    ],
)
def test_004_torpedo_throws_three_dice_whatever_the_range(rng: int) -> None:
    """Line 26: "Torpedoes have a range of 3 hexes and throw three dice regardless of the number of hexes the
    target ship is distant from the firing ship." The destroyer's torpedo at 1, 2 and 3 hexes abeam: three
    Memoir dice each time, three whites = 6 points (line 10: a major hit is "worth two Flotation Value
    points")."""
    target = Hex(q=12 + rng, r=3)
    assert hex_distance(C, target) == rng and arc_for(C, 0, target) == "abeam"
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", target, 0))
    script = ScriptedDice([1, 2, 1, 1, 1])  # initiative a=1, b=2; then three whites
    res = RS.resolve_phase(state, orders(furor={"torpedo": "iowa"}, iowa={}), script)
    assert script.remaining == 0
    torp = next(e for e in res.events if e.kind == "torpedo")
    assert (torp.data["dice"], torp.data["range"], torp.data["major"], torp.data["points"]) == (3, rng, 3, 6)
    assert len(torp.rolls) == 3 and all(r.die == "MEMOIR" for r in torp.rolls)
    assert res.state.ship("iowa").sheet["damage"] == 6


def test_004_one_torpedo_a_turn_four_a_battle_played_out() -> None:
    """Line 24: "No ship may fire more than one torpedo each turn and a maximum of four torpedoes during a
    battle." Line 4: "At the beginning of each turn both sides throw a D6 die." The destroyer's order names
    one torpedo target (two are malformed); she fires one a turn for four turns (a D6 each side every turn,
    three misses each time), has none left, and a fifth is refused."""
    target = Hex(q=14, r=2)
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", target, 0))
    two = RS.validate_orders(state, "a", [ShipOrder(ship_id="furor", data={"torpedo": ["iowa", "iowa"]})])
    assert two.invalid == {"furor": {"torpedo": ["Enter text."]}} and two.illegal == {}
    left = []
    for _ in range(4):
        assert (
            RS.check_order(state, state.ship("furor"), ShipOrder(ship_id="furor", data={"torpedo": "iowa"}))
            == {}
        )
        script = ScriptedDice([1, 2, 4, 5, 6])
        res = RS.resolve_phase(state, orders(furor={"torpedo": "iowa"}, iowa={}), script)
        assert script.remaining == 0
        assert [e.kind for e in res.events].count("initiative") == 1
        assert [e.kind for e in res.events].count("torpedo") == 1
        state = res.state
        left.append(state.ship("furor").sheet["torpedoes_left"])
    assert left == [3, 2, 1, 0]
    assert RS.check_order(
        state, state.ship("furor"), ShipOrder(ship_id="furor", data={"torpedo": "iowa"})
    ) == {"torpedo": ["Furor has fired all her torpedoes (four a battle)."]}


@pytest.mark.parametrize(
    ("stats", "target", "message"),
    [
        pytest.param(
            PRE_DREADNOUGHT,
            Hex(q=13, r=1),
            "Teresa is not on a straight hex row ahead, astern or abeam of Iowa (M09).",
            id="004-torpedo-line24-larger-ship-30-degrees-off-the-bow",
        ),
        pytest.param(
            DESTROYER,
            Hex(q=12, r=1),
            "Teresa is not abeam of Iowa (M09).",
            id="004-torpedo-line24-trainable-tubes-not-ahead",
        ),
        pytest.param(
            {**DESTROYER, "torpedo_fit": "trainable_bow"},
            Hex(q=12, r=5),
            "Teresa is not abeam or ahead of Iowa (M09).",
            id="004-torpedo-line24-bow-tubes-not-astern",
        ),
        pytest.param(
            {**DESTROYER, "torpedo_fit": "trainable_bow"},
            Hex(q=12, r=1),
            None,
            id="004-torpedo-line24-bow-tubes-ahead",
        ),
        pytest.param(PRE_DREADNOUGHT, Hex(q=14, r=1), None, id="004-torpedo-line24-larger-ship-row-abeam"),
    ],
)
def test_004_torpedo_arcs_in_the_orders(stats: dict[str, object], target: Hex, message: str | None) -> None:
    """Line 24: "Ships larger than destroyers are only able to fire torpedoes directly ahead, astern, or abeam
    ... Destroyers and torpedo boats with trainable torpedo tubes are allowed to fire at targets that are
    anywhere that is abeam of them (Only destroyers and torpedo boats with fixed bow tubes are also allowed to
    fire ahead)." M09, as the order check says it."""
    state = battle(ship("iowa", "a", C, 0, stats), ship("teresa", "b", target, 0))  # type: ignore[arg-type]
    errors = RS.check_order(state, state.ship("iowa"), ShipOrder(ship_id="iowa", data={"torpedo": "teresa"}))
    assert errors == ({"torpedo": [message]} if message else {})


def test_004_M07_a_major_hit_past_the_last_point_sinks() -> None:
    """Line 31: "When a ship's Flotation Value is reached, it sinks." M07: "The ship sinks when its remaining
    Flotation Value reaches 0, i.e. damage >= its original value." The light cruiser (6) with 5 points lost
    takes a major hit (line 10: "worth two Flotation Value points"): 7 >= 6, she sinks; the log shows 0 left,
    not -1."""
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", Hex(q=13, r=2), 0, LIGHT_CRUISER, damage=5))
    script = ScriptedDice([1, 2, 1] + [4] * 7)  # initiative; one white, seven reds
    res = RS.resolve_phase(state, orders(iowa={"target": "lc"}, lc={}), script)
    assert script.remaining == 0
    lc = res.state.ship("lc")
    assert (lc.status, lc.sheet["damage"]) == ("sunk", 7)
    dmg = next(e for e in res.events if e.kind == "damage")
    assert (dmg.data["points"], dmg.data["damage"], dmg.data["flotation_left"]) == (2, 7, 0)
    assert [e.ship_id for e in res.events if e.kind == "sunk"] == ["lc"]


def test_004_line36_turns_to_port_as_to_starboard() -> None:
    """Line 36: "Ships may turn sixty degrees after moving forward one hex, the turn 'costing' one hex of
    movement." The line 38 destroyer turning to port instead: FLFLF, heading 0 -> 300 -> 240, three hexes
    entered for her five."""
    state = battle(ship("furor", "a", C, 0, DESTROYER), ship("iowa", "b", at(2, 16), 0))
    res = RS.resolve_phase(state, orders(furor={"course": "FLFLF"}, iowa={}), ScriptedDice([1, 2]))
    furor = res.state.ship("furor")
    assert (furor.position, furor.heading, furor.speed) == (Hex(q=10, r=3), 240, 5)
    move = next(e for e in res.events if e.ship_id == "furor" and e.kind == "move")
    assert move.data["path"] == [{"q": 12, "r": 3}, {"q": 12, "r": 2}, {"q": 11, "r": 2}, {"q": 10, "r": 3}]


def test_004_NW_MEM_01_one_gun_target() -> None:
    """NW-MEM-01: "A ship throws all her gun dice at one target a turn (and may fire her one torpedo at the
    same or another target)." Two gun targets in one order are malformed; guns and torpedo at two ships are
    legal."""
    state = battle(
        ship("furor", "a", C, 0, DESTROYER),
        ship("iowa", "b", Hex(q=14, r=2), 0),
        ship("texas", "b", Hex(q=10, r=4), 0),
    )
    two = RS.validate_orders(state, "a", [ShipOrder(ship_id="furor", data={"target": ["iowa", "texas"]})])
    assert two.invalid == {"furor": {"target": ["Enter text."]}}
    both = ShipOrder(ship_id="furor", data={"target": "texas", "torpedo": "iowa"})
    assert RS.check_order(state, state.ship("furor"), both) == {}


@pytest.mark.parametrize(
    ("where", "course", "end", "status"),
    [
        pytest.param(
            C, "FFFF", Hex(q=12, r=-1), "active", id="004-NW-MEM-03-farthest-from-the-nearest-enemy"
        ),
        pytest.param(
            at(12, 1), "FF", Hex(q=12, r=-6), "withdrawn", id="004-NW-MEM-03-off-the-map-if-she-can"
        ),
    ],
)
def test_004_NW_MEM_03_the_rules_steer_her_away(where: Hex, course: str, end: Hex, status: str) -> None:
    """Line 33: "Next move it must break off from the battle it is taking part in and sail to safety ... if
    it can." NW-MEM-03: "each move she sails the legal course, at full speed where she can, that ends farthest
    from the nearest enemy, leaving the map if she can (then withdrawn)". The light cruiser (speed 4) at her
    Critical Point (6 - 4 = 2) with the enemy 4 hexes astern: FFFF, 8 hexes from him (a course with a turn
    ends at most 7 away); two hexes from the north edge: FF, off the map."""
    enemy = Hex(q=where.q, r=where.r + 4)
    state = battle(ship("lc", "a", where, 0, LIGHT_CRUISER, damage=4), ship("iowa", "b", enemy, 0))
    assert state.ship("lc").sheet["breaking_off"] is True
    res = RS.resolve_phase(state, orders(iowa={}), ScriptedDice([1, 2]))
    lc = res.state.ship("lc")
    assert (lc.position, lc.status) == (end, status)
    move = next(e for e in res.events if e.kind == "move" and e.ship_id == "lc")
    assert move.data["course"] == course and "NW-MEM-03" in move.text
    if status == "active":
        assert hex_distance(end, enemy) == 8
        assert all(
            hex_distance(RS.run_course(state, state.ship("lc"), c, set())[0], enemy) < 8
            for c in legal_courses(4)
            if c != "FFFF"
        )


def test_004_NW_MEM_04_a_ship_sunk_this_turn_does_not_block() -> None:
    """NW-MEM-04: "Sunk ships go down and do not block." Line 4: fire comes before the move, so the
    light cruiser that Iowa sinks (5 of 6 points gone, a major hit) is gone from hex (12, 2) when Iowa steams
    into it."""
    state = battle(ship("iowa", "a", C, 0), ship("lc", "b", Hex(q=12, r=2), 0, LIGHT_CRUISER, damage=5))
    res = RS.resolve_phase(
        state, orders(iowa={"target": "lc", "course": "F"}, lc={}), ScriptedDice([1, 2, 1, 4, 4, 4])
    )
    assert res.state.ship("lc").status == "sunk"
    assert res.state.ship("iowa").position == Hex(q=12, r=2)


SINKS = "; set her status to sunk, or take less damage"


@pytest.mark.parametrize(
    ("sheet", "status", "problems"),
    [
        pytest.param({"damage": 20}, "active", [], id="one-point-left"),
        pytest.param(
            {"damage": 21},
            "active",
            ["damage (21) sinks her, with flotation 21 (M07): an active ship has taken at most 20" + SINKS],
            id="none-left",
        ),
        pytest.param({"damage": 21}, "sunk", [], id="none-left-sunk"),
        pytest.param(
            {"flotation": 0, "critical_point": 0},
            "active",
            ["critical_point (0) must be below her flotation (0)"],
            id="flotation-0",
        ),
    ],
)
def test_NW_MEM_10_a_sheet_no_afloat_ship_could_have(
    sheet: dict[str, JSON], status: ShipStatus, problems: list[str]
) -> None:
    """NW-MEM-10 (M07: "The ship sinks when its remaining Flotation Value reaches 0"): an umpire's edit
    that leaves an active ship with none of her flotation left is refused, as is a flotation of 0 (no
    critical point is below it); the pre-dreadnought has 21."""
    state = battle(ship("iowa", "a", C), ship("vizcaya", "b", at(3, 3)))
    iowa = state.ship("iowa")
    assert iowa.sheet["flotation"] == 21 and iowa.sheet["damage"] == 0
    edited = iowa.replace(sheet={**iowa.sheet, **sheet}, status=status)

    assert RS.sheet_errors(state, edited) == problems
