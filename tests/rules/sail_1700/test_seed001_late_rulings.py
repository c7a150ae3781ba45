"""Seed 001: 26. merchant vessels and transports, half-speed turns under oars, separating in either side's
move, drift in light airs, the jury mast with severe underwater damage, the weather's visibility as it steps.

Each test quotes the line of ``../shared/seeds/001_bb5ec6dbb79b532f.txt`` it plays and cites NW-SAIL-30 to
NW-SAIL-34 (``docs/rulings.md``). Dice are scripted; every scripted value must be used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import BattleState, ScriptedDice, ShipOrder
from rules.model import JSON, Conditions, Event, MapSpec, Point, ShipState, SideInfo
from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import ships as S
from tests.rules.sail_1700.sail_helpers import ship

RS = get_ruleset("sail_1700")

FRIGATE_GB: dict[str, JSON] = {"nation": "Britain", "rate": "5th", "guns": 38, "points": 280}
CUTTER_GB: dict[str, JSON] = {
    "nation": "Britain",
    "rate": "unrated",
    "type": "Cutter",
    "guns": 4,
    "points": 20,
}


def battle(*ships: ShipState, wind: float = 0.0, number: int = 44, night: bool = False) -> BattleState:
    """Return a state after set-up; no dice rolled (initiative, wind, weather and grades given)."""
    st = BattleState(
        ruleset="sail_1700",
        map=MapSpec(geometry="table_mm", width=2400, height=1800),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        conditions=Conditions(wind_from=wind, night=night, extra={"weather_number": number}),
        initiative=("a", "b"),
    )
    dice = ScriptedDice([])
    state, _ = RS.setup(st, dice)
    assert dice.rolls == []
    return state


def play(
    state: BattleState, orders: dict[str, dict[str, JSON]], dice: list[int], phase: int | None = None
) -> tuple[BattleState, list[Event]]:
    """Resolve one phase with scripted dice; every scripted value must be used."""
    if phase is not None:
        state = replace(state, phase=phase)
    d = ScriptedDice(dice)
    res = RS.resolve_phase(state, {k: ShipOrder(ship_id=k, data=v) for k, v in orders.items()}, d)
    assert d.remaining == 0, f"{d.remaining} scripted dice unused"
    return res.state, list(res.events)


def errs(state: BattleState, sid: str, data: dict[str, JSON]) -> dict[str, list[str]]:
    return RS.check_order(state, state.ship(sid), ShipOrder(ship_id=sid, data=data))


# --- 26. merchant vessels and transports (NW-SAIL-30) -------------------------------------------------------


def _merchant(mow_points: int, points: int, rate: str = "5th") -> dict[str, JSON]:
    return {
        "nation": "Britain",
        "rate": rate,
        "service": "merchant",
        "guns": 20,
        "points": points,
        "man_of_war_points": mow_points,
    }


@pytest.mark.parametrize(
    ("mow_points", "points"),
    [
        pytest.param(280, 28, id="NW-SAIL-30-merchant-like-british-5th-280-is-28"),
        pytest.param(275, 28, id="NW-SAIL-30-merchant-like-spanish-6th-275-is-28-half-up"),
        pytest.param(620, 62, id="NW-SAIL-30-merchant-like-british-74-620-is-62"),
    ],
)
def test_026_merchant_points_are_a_tenth_of_the_comparable_man_of_war(mow_points: int, points: int) -> None:
    """Line 353: 'Merchant vessels have a crew of 10% that of a Man of War of comparative size.' NW-SAIL-30:
    the class names that man of war's points; her own (one pool, S41) must be 10% of them, halves up."""
    assert RS.validate_class(_merchant(mow_points, points)) == {}
    assert RS.validate_class(_merchant(mow_points, points + 1)) == {
        "points": [
            "A merchantman has 10% of the crew of a man of war of comparable size (26., S41): "
            f"{points} points for a man of war of {mow_points}."
        ]
    }
    assert RS.class_summary(_merchant(mow_points, points))["merchant_or_transport"] == {
        "man_of_war_points": mow_points,
        "points_10_percent": points,
    }


def test_026_merchant_needs_its_man_of_war_and_a_warship_has_none() -> None:
    """Line 353 (NW-SAIL-30): a merchantman's points come from the man of war of comparable size, so the class
    must name it; a warship's class has no comparable man of war nor, unless a transport, guns before
    conversion."""
    stats = _merchant(280, 28)
    del stats["man_of_war_points"]
    assert RS.validate_class(stats) == {
        "man_of_war_points": [
            "A merchantman has 10% of the crew of a man of war of comparable size (26.): give that man of "
            "war's points (NW-SAIL-30)."
        ]
    }
    assert RS.validate_class({**_merchant(280, 28), "man_of_war_guns": 38}) == {
        "man_of_war_guns": ["Only a transport converted from a man of war has these (26.)."]
    }
    warship = {**FRIGATE_GB, "man_of_war_points": 280, "man_of_war_guns": 38}
    assert RS.validate_class(warship) == {
        "man_of_war_points": ["Only merchantmen and transports have a comparable man of war (26.)."],
        "man_of_war_guns": ["Only a transport converted from a man of war has these (26.)."],
    }
    assert "merchant_or_transport" not in RS.class_summary(FRIGATE_GB)


@pytest.mark.parametrize(
    ("mow_guns", "mow_points", "guns", "points"),
    [
        pytest.param(44, 440, 22, 44, id="NW-SAIL-30-transport-from-usa-44-gun-frigate-440"),
        pytest.param(36, 300, 18, 30, id="NW-SAIL-30-transport-from-french-36-gun-5th-300"),
        pytest.param(3, 35, 1, 4, id="NW-SAIL-30-transport-from-french-gun-vessel-odd-gun-removed"),
    ],
)
def test_026_transport_keeps_half_her_guns_and_a_tenth_of_the_crew(
    mow_guns: int, mow_points: int, guns: int, points: int
) -> None:
    """Line 353: 'Transports converted from Men of War have 50% of their guns removed and only 10% of the
    normal crew for that size of vessel.' NW-SAIL-30: an odd gun is removed (half of 3 is 1.5, 2 removed)."""
    stats: dict[str, JSON] = {
        "nation": "USA",
        "rate": "4th",
        "service": "transport",
        "guns": guns,
        "points": points,
        "man_of_war_guns": mow_guns,
        "man_of_war_points": mow_points,
    }
    assert RS.validate_class(stats) == {}
    assert RS.class_summary(stats)["merchant_or_transport"] == {
        "man_of_war_points": mow_points,
        "points_10_percent": points,
        "man_of_war_guns": mow_guns,
        "guns_after_conversion": guns,
    }
    assert RS.validate_class({**stats, "guns": mow_guns, "points": mow_points}) == {
        "points": [
            "A transport has 10% of the crew of a man of war of comparable size (26., S41): "
            f"{points} points for a man of war of {mow_points}."
        ],
        "guns": [
            "A transport converted from a man of war has 50% of her guns removed (26.): "
            f"{guns} guns of her {mow_guns}."
        ],
    }
    no_guns = {k: v for k, v in stats.items() if k != "man_of_war_guns"}
    assert RS.validate_class(no_guns) == {
        "man_of_war_guns": [
            "A transport converted from a man of war has 50% of her guns removed (26.): give the guns she "
            "carried as a man of war."
        ]
    }


# --- 7., 10., 13.: half-speed turns under oars (NW-SAIL-31) -------------------------------------------------


@pytest.mark.parametrize(
    ("stats", "sheet", "most"),
    [
        pytest.param(CUTTER_GB, {}, 50.0, id="NW-SAIL-31-warship-rows-a-turn-at-50"),
        pytest.param(
            # NW-SAIL-37: a merchantman the size of a cutter (20 points, 27.) may be rowed
            {**CUTTER_GB, "service": "merchant", "man_of_war_points": 20, "points": 2},
            {},
            25.0,
            id="NW-SAIL-31-merchant-rows-a-turn-at-half",
        ),
        pytest.param(
            CUTTER_GB, {"points": 10}, 25.0, id="NW-SAIL-31-half-the-points-lost-rows-a-turn-at-half"
        ),
        pytest.param(CUTTER_GB, {"wheel_hit": True}, 25.0, id="NW-SAIL-31-wheel-hit-rows-a-turn-at-half"),
    ],
)
def test_007_half_speed_turns_under_oars(stats: dict[str, JSON], sheet: dict[str, Any], most: float) -> None:
    """Line 95: 'Merchant ships, transports and all vessels with 50% or more Crew or Damage points [lost, S10]
    perform all changes of course at half speed'; line 187: wheel crew hit, 'all further course changes at
    half speed'; line 126: rowed, 'maximum move is 50 mm'. NW-SAIL-31: all changes of course, under oars too:
    a rowed turn is at most 25 mm; rowing straight keeps the full 50 mm."""
    st = battle(
        ship("c", "a", stats, 1000, 1000, heading=90.0, **sheet), ship("e", "b", FRIGATE_GB, 2000, 1500)
    )
    c = st.ship("c")
    assert S.plan_move(st, c, {"row": True, "turn": 30.0}).max_distance == most
    assert S.plan_move(st, c, {"row": True}).max_distance == 50.0
    over = errs(st, "c", {"row": True, "turn": 30.0, "speed": most + 5.0})
    assert over == {"speed": [f"At most {most:.0f} mm this move (6., 7.)."]}
    assert errs(st, "c", {"row": True, "turn": 30.0, "speed": most}) == {}


# --- 19. separating: either commander, each in his own move (NW-SAIL-32) ------------------------------------


def test_019_the_side_moving_second_separates_in_its_own_move() -> None:
    """Line 263: 'At the end of a move either or both commanders may attempt to separate the vessels.'
    Line 235: a side pushed back 'have their own move next they may attempt to cast off'. NW-SAIL-32: each
    commander tries at the end of his own move, so B, rammed in A's move, tries in B's move of the same
    turn."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, speed=200.0),
        ship("fr", "b", FRIGATE_GB, 1100, 1000, heading=0.0),
        wind=0.0,
    )
    st, _ev = play(st, {"gb": {}}, [])  # A's move: she runs into Fr (broadsides not parallel: no -1)
    assert st.ship("fr").sheet["entangled_with"] == "gb"
    st = replace(st, phase=1)
    assert RS.ordering_sides(st) == ("b",)
    assert "fr" in {s.id for s in RS.orderable_ships(st, "b")}
    assert errs(st, "fr", {"cast_off": True}) == {}
    new, ev = play(st, {"fr": {"cast_off": True}}, [4])
    cast = ev[-1]
    assert (cast.kind, cast.ship_id, cast.outcome, cast.modifiers) == ("cast_off", "fr", "separated", ())
    assert new.ship("gb").sheet["entangled_with"] is None and new.ship("fr").sheet["entangled_with"] is None


def test_019_both_commanders_try_one_a_move() -> None:
    """Line 263 'either or both commanders' (NW-SAIL-32): A fails in her move, B tries again in his."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr"),
        ship("fr", "b", FRIGATE_GB, 1000, 1014, heading=90.0, entangled_with="gb"),
        wind=0.0,
    )
    st, ev = play(st, {"gb": {"cast_off": True}}, [4], phase=0)  # 4 - 1 broadside to broadside = 3
    assert ev[-1].outcome == "entangled" and st.ship("fr").sheet["entangled_with"] == "gb"
    st, ev = play(st, {"fr": {"cast_off": True}}, [5], phase=1)
    assert (ev[-1].ship_id, ev[-1].outcome) == ("fr", "separated")


# --- 5., 6.: drift in light airs (NW-SAIL-33); the jury mast with severe underwater damage (NW-SAIL-34) -----


@pytest.mark.parametrize(
    ("number", "drift"),
    [
        pytest.param(20, 0.0, id="NW-SAIL-33-calm-no-drift"),
        pytest.param(30, 20.0, id="NW-SAIL-33-light-breeze-half-drift"),
        pytest.param(44, 40.0, id="NW-SAIL-33-moderate-breeze-full-drift"),
    ],
)
def test_006_drift_follows_the_weathers_speed(number: int, drift: float) -> None:
    """Line 87: dismasted vessels 'drift downward at 25% Aft speed' (S09); line 69-70: light breeze 'Speed
    reduced by half', calm 'No movement'. NW-SAIL-33: the drift is a speed like any other: a 5th rate (Aft
    160 mm) drifts 40 mm in a moderate breeze, 20 in a light one, none in a calm."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0, dismasted=True, mast_hits=4),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
        number=number,
    )
    assert S.drift_distance(st, st.ship("f")) == drift
    new, _ev = play(st, {"f": {}}, [])
    f = new.ship("f")
    assert (
        isinstance(f.position, Point) and round(f.position.y - 1000.0, 6) == drift
    )  # wind from north: south


@pytest.mark.parametrize(
    ("severe", "most"),
    [
        pytest.param(False, 50.0, id="NW-SAIL-34-jury-mast-25-percent"),
        pytest.param(True, 25.0, id="NW-SAIL-34-jury-mast-halved-by-severe-underwater-damage"),
    ],
)
def test_006_jury_mast_with_severe_underwater_damage(severe: bool, most: float) -> None:
    """Line 87: a temporary mast 'will permit the vessel to move at 25% of Normal speed'; line 190: 'Sever
    underwater damage, all sailing speeds reduced by 50%'; line 203 'all sailing speed reductions are
    cumulative'. NW-SAIL-34: the jury mast's 25% is halved again: a 5th rate on the beam (200 mm) 50 -> 25."""
    st = battle(
        ship(
            "f",
            "a",
            FRIGATE_GB,
            1000,
            1000,
            heading=90.0,
            dismasted=True,
            jury_mast=True,
            mast_hits=4,
            severe_underwater=severe,
        ),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    f = st.ship("f")
    assert S.sail_speed(st, f, 90.0) == most
    assert S.plan_move(st, f, {}).max_distance == most
    assert errs(st, "f", {"speed": most + 1.0}) == {"speed": [f"At most {most:.0f} mm this move (6., 7.)."]}


# --- 4.: the weather's visibility as the weather steps ------------------------------------------------------


def test_004_weather_visibility_steps_with_the_weather_number() -> None:
    """Line 51: 'Any change is made in steps of ten points per move' (S06); line 49: 'Visibility is halved at
    night.' ``extra["weather_visibility"]`` is the weather number's own visibility, before the night halves
    it, and follows the number as it steps: 20 (clear, calm, unlimited) toward 5 -> 10 (fog, light breeze,
    1500 mm; 750 mm at night)."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0),
        ship("e", "b", FRIGATE_GB, 1300, 1000),
        number=20,
        night=True,
    )
    assert st.conditions.extra["weather_visibility"] is None and st.conditions.visibility is None
    cond = replace(st.conditions, extra={**st.conditions.extra, "weather_target": 5})
    new, ev = play(replace(st, turn=2, conditions=cond), {"f": {"speed": 0.0}}, [], phase=0)
    assert new.conditions.extra["weather_number"] == 10
    assert "Weather number 10: fog, a light breeze (4., S06)." in [e.text for e in ev]  # NW-SAIL-35
    assert (new.conditions.weather, new.conditions.wind_force) == ("fog", "light")
    assert new.conditions.extra["weather_visibility"] == 1500
    assert new.conditions.visibility == 750.0


# --- NW-CAMP-12: a ship's end with limited visibility (Phase.fate_sides) ---


def _limited(*ships: ShipState, visibility: float | None, night: bool = False) -> BattleState:
    st = battle(*ships, night=night)
    return replace(st, conditions=replace(st.conditions, visibility=visibility))


@pytest.mark.parametrize(
    ("visibility", "night", "b_x", "expected"),
    [
        pytest.param(None, False, 1500, None, id="NW-CAMP-12-unlimited-every-side"),
        pytest.param(750.0, True, 1500, ("a",), id="NW-CAMP-12-night-out-of-sight-own-side-only"),
        pytest.param(750.0, True, 1000, ("a", "b"), id="NW-CAMP-12-night-in-sight-both"),
        pytest.param(150.0, False, 750, ("a",), id="NW-CAMP-12-fog-out-of-sight-own-side-only"),
    ],
)
def test_nw_camp_12_striking_is_seen_by_the_sides_that_see_her(
    visibility: float | None, night: bool, b_x: float, expected: tuple[str, ...] | None
) -> None:
    """NW-CAMP-12: a ship that strikes by order (18.) at night or in fog is seen to strike by the sides that
    see her then (her own always); B's frigate is 500 mm off (within 750 mm at night), 1,000 mm (beyond it)
    or 250 mm, beyond the fog's 150 mm."""
    st = _limited(
        ship("a1", "a", FRIGATE_GB, 500, 900),
        ship("b1", "b", FRIGATE_GB, b_x, 900),
        visibility=visibility,
        night=night,
    )
    res = RS.resolve_phase(st, {"a1": ShipOrder(ship_id="a1", data={"strike": True})}, ScriptedDice([]))
    struck = [e for e in res.events if e.kind == "struck"]
    assert len(struck) == 1 and struck[0].visible_to == expected


def test_nw_camp_12_leaving_the_table_in_fog_is_seen_by_the_sides_that_see_her() -> None:
    """NW-CAMP-12, NW-SAIL-12: a ship that sails off the table (her default move takes her 200 mm, to x -205)
    leaves the battle; in fog (300 mm) with the enemy far off only her own side sees her go; with the enemy
    255 mm from where she went, both."""
    for b_x, expected in ((1500, ("a",)), (50, ("a", "b"))):
        st = _limited(
            ship("a1", "a", FRIGATE_GB, -5, 900, heading=270),
            ship("b1", "b", FRIGATE_GB, b_x, 900),
            visibility=300.0,
        )
        res = RS.resolve_phase(st, {}, ScriptedDice([]))
        left = [e for e in res.events if e.kind == "withdrawn"]
        assert len(left) == 1 and left[0].visible_to == expected, b_x


def test_nw_camp_12_a_sinking_in_fog_is_seen_by_the_side_whose_fire_sank_her() -> None:
    """NW-CAMP-12: B's frigate sinks out of A's sight in fog; A's fire did it (``by_side``), so A sees her go
    too; with nobody's fire, her own side alone."""
    from rules.rulesets.sail_1700.phase import Phase

    st = _limited(
        ship("a1", "a", FRIGATE_GB, 500, 900), ship("b1", "b", FRIGATE_GB, 1500, 900), visibility=300.0
    )
    for by_side, expected in (("a", ("a", "b")), (None, ("b",))):
        p = Phase(st, {}, ScriptedDice([]), "a")
        p.sink(p.recs["b1"], "test", by_side=by_side)
        assert [(e.kind, e.visible_to) for e in p.events] == [("sunk", expected)]
