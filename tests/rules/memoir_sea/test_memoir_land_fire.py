"""NW-MEM-06 (docs/rulings.md): land between the firer and the target blocks guns and torpedoes.

The seed has no terrain (NW-MEM-05 adds land hexes for the coasts of historical scenarios); these tests show a
line of fire across a land hex refused by the order check, skipped by the automatic captain and held at
resolution, and a line along a hex edge blocked only when land lies on both sides of it.
"""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.model import Hex, ShipOrder, TerrainFeature
from rules.rulesets.memoir_sea.ruleset import land_across
from tests.rules.memoir_sea.memoir_helpers import DESTROYER, LIGHT_CRUISER, RS, at, battle, ship

C = at(8, 8)  # Hex(q=8, r=4); heading 0: east is abeam
FIVE_EAST = Hex(q=13, r=2)  # 5 hexes abeam; the line: (9,4) (10,3) (11,3) (12,2)
FOUR_EAST = Hex(q=12, r=2)  # 4 hexes abeam along hex edges: (9,4)|(9,3), (10,3), (11,3)|(11,2)


def land(*hexes: Hex) -> tuple[TerrainFeature, ...]:
    return tuple(TerrainFeature(kind="land", position=h) for h in hexes)


def test_land_across_the_line_is_found_and_a_clear_line_is_none() -> None:
    assert land_across({Hex(q=10, r=3)}, C, FIVE_EAST) == Hex(q=10, r=3)
    assert land_across({Hex(q=10, r=4)}, C, FIVE_EAST) is None  # beside the line
    # the firer's and the target's own hexes never count
    assert land_across({C, FIVE_EAST}, C, FIVE_EAST) is None


def test_a_line_along_a_hex_edge_is_blocked_only_with_land_on_both_sides() -> None:
    assert land_across({Hex(q=9, r=4)}, C, FOUR_EAST) is None  # the line passes the other side of the edge
    assert land_across({Hex(q=9, r=3)}, C, FOUR_EAST) is None
    assert land_across({Hex(q=9, r=4), Hex(q=9, r=3)}, C, FOUR_EAST) == Hex(q=9, r=4)
    assert land_across({Hex(q=10, r=3)}, C, FOUR_EAST) == Hex(q=10, r=3)  # on the line both ways


def test_the_order_check_refuses_guns_across_land() -> None:
    state = battle(
        ship("iowa", "a", C, 0),
        ship("teresa", "b", FIVE_EAST, 0, LIGHT_CRUISER),
        terrain=land(Hex(q=11, r=3)),
    )
    errors = RS.check_order(state, state.ship("iowa"), ShipOrder(ship_id="iowa", data={"target": "teresa"}))
    assert errors == {
        "target": ["Teresa is behind land: the line of fire crosses the land at (11,3) (NW-MEM-06)."]
    }


def test_guns_across_land_hold_fire_and_roll_nothing() -> None:
    state = battle(
        ship("iowa", "a", C, 0),
        ship("teresa", "b", FIVE_EAST, 0, LIGHT_CRUISER),
        terrain=land(Hex(q=11, r=3)),
    )
    dice = ScriptedDice([1, 2])  # the initiative only: no gun die may be rolled
    orders = {
        "iowa": ShipOrder(ship_id="iowa", data={"target": "teresa"}),
        "teresa": ShipOrder(ship_id="teresa"),
    }
    res = RS.resolve_phase(state, orders, dice)
    (held,) = [e for e in res.events if e.kind == "no_shot"]
    assert held.text == (
        "Iowa holds fire: Teresa is behind land: the line of fire crosses the land at (11,3) (NW-MEM-06)."
    )
    assert not [e for e in res.events if e.kind == "fire"] and dice.remaining == 0
    assert res.state.ship("teresa").sheet["damage"] == 0


def test_land_beside_the_line_does_not_stop_the_guns() -> None:
    """The same shot with the land a hex off the line: four dice at five
    hexes abeam (line 17), as without it."""
    state = battle(
        ship("iowa", "a", C, 0),
        ship("teresa", "b", FIVE_EAST, 0, LIGHT_CRUISER),
        terrain=land(Hex(q=11, r=4)),
    )
    orders = {
        "iowa": ShipOrder(ship_id="iowa", data={"target": "teresa"}),
        "teresa": ShipOrder(ship_id="teresa"),
    }
    res = RS.resolve_phase(state, orders, ScriptedDice([1, 2, 1, 2, 4, 6]))
    fire = next(e for e in res.events if e.kind == "fire")
    assert (fire.data["dice"], fire.data["points"]) == (4, 3)


def test_a_torpedo_across_land_is_refused() -> None:
    target = Hex(q=11, r=3)  # 3 hexes abeam of a destroyer heading 0; the line: (9,4) (10,3)
    state = battle(
        ship("furor", "b", C, 0, DESTROYER),
        ship("iowa", "a", target, 0),
        terrain=land(Hex(q=10, r=3)),
    )
    msg = RS.torpedo_target_error(state, state.ship("furor"), state.ship("iowa"), "iowa")
    assert msg == "Iowa is behind land: the torpedo's run crosses the land at (10,3) (NW-MEM-06)."
    clear = battle(ship("furor", "b", C, 0, DESTROYER), ship("iowa", "a", target, 0))
    assert RS.torpedo_target_error(clear, clear.ship("furor"), clear.ship("iowa"), "iowa") is None


def test_the_automatic_captain_picks_no_target_behind_land() -> None:
    """A7: 'fire at the nearest' and the captain's best target skip the nearer ship behind the island."""
    state = battle(
        ship("iowa", "a", C, 0),
        ship("teresa", "b", FOUR_EAST, 0, LIGHT_CRUISER),  # 4 hexes abeam to the east, 5 dice, behind land
        # 5 hexes abeam to the west, 4 dice, in open sea
        ship("oquendo", "b", Hex(q=3, r=7), 0, LIGHT_CRUISER),
        terrain=land(Hex(q=10, r=3)),
    )
    iowa = state.ship("iowa")
    assert RS.nearest_gun_target(state, iowa).id == "oquendo"  # type: ignore[union-attr]
    assert RS.best_gun_target(state, iowa).id == "oquendo"  # type: ignore[union-attr]
    open_sea = battle(*state.ships)
    assert RS.nearest_gun_target(open_sea, open_sea.ship("iowa")).id == "teresa"  # type: ignore[union-attr]
    assert RS.best_gun_target(open_sea, open_sea.ship("iowa")).id == "teresa"  # type: ignore[union-attr]


def test_the_automatic_captain_does_not_steer_bows_on_into_land() -> None:
    """A ship in a one-hex channel (Santiago's harbour mouth) must not end her move facing the bank: a turn
    needs a hex forward first (Movement), so bows on to land she could never move again. Land on both banks;
    the captain's course ends with open water ahead."""
    from rules.rulesets.memoir_sea.ruleset import step

    bank = {Hex(q=C.q + dq, r=C.r + dr) for dq in (-1, 1) for dr in range(-3, 6)}
    state = battle(
        ship("pluton", "b", C, 180, DESTROYER),
        ship("iowa", "a", Hex(q=C.q - 3, r=C.r + 2), 0),  # off the west bank: FFR would turn to her
        terrain=land(*sorted(bank, key=lambda h: (h.q, h.r))),
    )
    course = RS._captain_course(state, state.ship("pluton"))
    end, heading, _, why = RS.run_course(
        state, state.ship("pluton"), course, RS._blocked(state, state.ship("pluton"))
    )
    assert why == "" and step(end, heading) not in bank


def test_the_order_preview_says_the_target_is_behind_land() -> None:
    state = battle(
        ship("iowa", "a", C, 0),
        ship("teresa", "b", FIVE_EAST, 0, LIGHT_CRUISER),
        terrain=land(Hex(q=11, r=3)),
    )
    lines = RS.preview(state, state.ship("iowa"), ShipOrder(ship_id="iowa", data={"target": "teresa"}))
    assert lines[0] == "Guns: Teresa at 5 hexes abeam is behind land at (11,3): no fire (NW-MEM-06)."
    open_sea = battle(*state.ships)
    lines = RS.preview(open_sea, open_sea.ship("iowa"), ShipOrder(ship_id="iowa", data={"target": "teresa"}))
    assert lines[0] == "Guns: Teresa at 5 hexes abeam -> 4 Memoir dice (full effect, M04-M06)."


def test_NW_MEM_07_course_letters_in_either_case_and_a_clear_message() -> None:
    """NW-MEM-07: "ffr" is the course FFR in the check, the preview and the move (the log says FFR); a
    course with a space or another letter is told what a course is, with an example."""
    from rules.base import course_text
    from rules.rulesets.memoir_sea.ruleset import course_errors

    assert course_text("ffr") == "FFR" and course_text("\ufb00") == "\ufb00"  # not the ligature
    state = battle(ship("iowa", "a", C, 0), ship("teresa", "b", Hex(q=2, r=2), 0, LIGHT_CRUISER))
    iowa = state.ship("iowa")
    assert RS.check_order(state, iowa, ShipOrder(ship_id="iowa", data={"course": "ffr"})) == {}
    res = RS.resolve_phase(
        state,
        {"iowa": ShipOrder(ship_id="iowa", data={"course": "ffr"}), "teresa": ShipOrder(ship_id="teresa")},
        ScriptedDice([1, 2]),
    )
    (move,) = [e for e in res.events if e.kind == "move" and e.ship_id == "iowa"]
    assert move.text.startswith("Iowa moves FFR to ")
    assert course_errors(course_text("F F"), 3) == [
        "Write the course as letters only, F (a hex forward), L and R (a 60-degree turn to port or "
        "starboard, after a hex forward), for example FFRF; this one has a space (NW-MEM-07)."
    ]
    assert course_errors("FX-", 3)[0].endswith("this one has '-' and 'X' (NW-MEM-07).")
