"""Seed 001 played: phases resolved with scripted dice, exact events and sheets.

Each test's docstring quotes the line of ``../shared/seeds/001_bb5ec6dbb79b532f.txt`` it plays; ids and
docstrings cite the S-rulings and NW-SAIL rulings (``docs/rulings.md``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import BattleState, ScriptedDice, ShipOrder
from rules.geometry import distance
from rules.model import JSON, Conditions, Event, MapSpec, Point, ShipState, SideInfo, TerrainFeature
from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import ships as S
from rules.serial import from_json, to_json
from tests.rules.sail_1700.sail_helpers import ship

RS = get_ruleset("sail_1700")

SEVENTY_FOUR_GB: dict[str, JSON] = {"nation": "Britain", "rate": "3rd", "guns": 74, "points": 620}
SEVENTY_FOUR_FR: dict[str, JSON] = {"nation": "France", "rate": "3rd", "guns": 74, "points": 700}
FRIGATE_US: dict[str, JSON] = {"nation": "USA", "rate": "4th", "guns": 44, "points": 440}
FRIGATE_GB: dict[str, JSON] = {"nation": "Britain", "rate": "5th", "guns": 38, "points": 280}
CUTTER_GB: dict[str, JSON] = {
    "nation": "Britain",
    "rate": "unrated",
    "type": "Cutter",
    "guns": 4,
    "points": 20,
}
BOMB_GB: dict[str, JSON] = {
    "nation": "Britain",
    "rate": "unrated",
    "type": "Bomb",
    "guns": 4,
    "mortars": 2,
    "points": 70,
}
BOMB_US: dict[str, JSON] = {  # line 398: 'Bomb 12 (plus 1 mortar) 80'
    "nation": "USA",
    "rate": "unrated",
    "type": "Bomb",
    "guns": 12,
    "mortars": 1,
    "points": 80,
}


def battle(
    *ships: ShipState,
    wind: float = 0.0,
    number: int = 44,
    night: bool = False,
    terrain: tuple[TerrainFeature, ...] = (),
    options: dict[str, JSON] | None = None,
) -> BattleState:
    """Return a state after set-up; no dice rolled (initiative, wind, weather and grades given)."""
    st = BattleState(
        ruleset="sail_1700",
        map=MapSpec(geometry="table_mm", width=2400, height=1800),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        conditions=Conditions(wind_from=wind, night=night, extra={"weather_number": number}),
        terrain=terrain,
        initiative=("a", "b"),
        options=options or {},
    )
    dice = ScriptedDice([])
    state, _ = RS.setup(st, dice)
    assert dice.rolls == []
    return state


def play(
    state: BattleState,
    orders: dict[str, dict[str, JSON]],
    dice: list[int],
    phase: int | None = None,
    turn: int | None = None,
) -> tuple[BattleState, list[Event]]:
    """Resolve one phase with scripted dice; every scripted value must be used."""
    if phase is not None or turn is not None:
        state = replace(
            state, phase=state.phase if phase is None else phase, turn=state.turn if turn is None else turn
        )
    d = ScriptedDice(dice)
    res = RS.resolve_phase(state, {k: ShipOrder(ship_id=k, data=v) for k, v in orders.items()}, d)
    assert d.remaining == 0, f"{d.remaining} scripted dice unused"
    return res.state, list(res.events)


def errs(state: BattleState, sid: str, data: dict[str, JSON]) -> dict[str, list[str]]:
    return RS.check_order(state, state.ship(sid), ShipOrder(ship_id=sid, data=data))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


# --- set-up -------------------------------------------------------------------------------------------------


def _night_frigates() -> BattleState:
    """A US 4th rate (x) and a British 5th rate (y) at night, before the set-up's rolls."""
    return BattleState(
        ruleset="sail_1700",
        map=MapSpec(geometry="table_mm", width=2400, height=1800),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=(
            ShipState(id="x", name="X", side="a", position=Point(x=100, y=100), stats=FRIGATE_US),
            ShipState(id="y", name="Y", side="b", position=Point(x=900, y=900), stats=FRIGATE_GB),
        ),
        conditions=Conditions(night=True),
    )


def test_002_setup_rolls_initiative_wind_weather_grades() -> None:
    """Lines 29-31: 'Establish wind direction / Establish the weather condition / Moves are alternate'; line
    110 'Throw one ordinary dice' (grades); A1: a die per side, the higher moves first (re-roll ties)."""
    st = _night_frigates()
    # initiative 3, 3 (tie), 2, 5 -> b first; wind 76 -> West (S01); weather 70 -> rain strong 1500; grades 6,
    # 1
    state, events = RS.setup(st, ScriptedDice([3, 3, 2, 5, 76, 70, 6, 1]))
    assert state.initiative == ("b", "a")
    assert [p.sides for p in RS.phase_plan(state)] == [("b",), ("a",)]
    assert state.conditions.wind_from == 270.0
    assert (state.conditions.weather, state.conditions.wind_force) == ("rain", "strong")
    assert state.conditions.visibility == 750.0  # halved at night (A2)
    assert state.ship("x").sheet["grade"] == "good" and state.ship("y").sheet["grade"] == "poor"
    y = state.ship("y").sheet
    assert y["guns"] == {"starboard": 19, "port": 19} and y["boats"] == 4 and y["marines"] == 38
    assert y["decks"] == 2 and y["points"] == 280 and y["sails"] == "set"
    assert kinds(list(events))[:2] == ["initiative", "initiative"]


def test_002_unlimited_visibility_stays_unlimited_at_night_NW_SAIL_39() -> None:
    """Line 49: "Visibility is halved at night." and the chart's "Clear 1500 Unlimited ... 28 - 38" (light
    breeze): weather number 30 at night is clear with unlimited visibility, which halving leaves unlimited
    (NW-SAIL-39); the log says unlimited, not "unlimited (halved at night)"."""
    st = _night_frigates()
    state, events = RS.setup(st, ScriptedDice([3, 3, 2, 5, 76, 30, 6, 1]))
    assert (state.conditions.weather, state.conditions.wind_force) == ("clear", "light")
    assert state.conditions.visibility is None
    assert [e.text for e in events if e.kind == "weather" and not e.rolls] == [
        "Weather clear, a light breeze; wind from 270 degrees; visibility unlimited (4., 5., A2)."
    ]


# --- 6., 7. sailing and manoeuvring -------------------------------------------------------------------------


def test_006_beam_reach_full_speed_and_minimum_move_S46() -> None:
    """Line 77: 'Beam or Quarter ... 200mm' (4th-5th); line 81: 'Vessels must move at least 50% of the
    distance moved from the previous move' (S46)."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=90.0, speed=200.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
    )
    plan = S.plan_move(st, st.ship("f"), {})
    assert (plan.max_distance, plan.min_distance) == (200.0, 100.0)
    assert errs(st, "f", {"speed": 99.0}) == {
        "speed": ["At least 100 mm: a vessel must move 50% of its last move (200 mm; 6., S46)."]
    }
    assert errs(st, "f", {"speed": 201.0}) == {"speed": ["At most 200 mm this move (6., 7.)."]}
    assert errs(st, "f", {"speed": 0.0, "anchor": "drop"}) == {}  # anchoring overrides the minimum (S46)
    new, _events = play(st, {"f": {}}, [])
    f = new.ship("f")
    assert isinstance(f.position, Point) and round(f.position.x, 6) == 700.0 and f.speed == 200.0


def test_007_turn_uses_lesser_speed_and_half_after_losses_S10() -> None:
    """Line 93: 'Use the lesser of the speeds for the old or the new course for the whole move.' Line 85: 'If
    50% of the Crew or Damage points have been lost all course changes are at half speed.' (S10)"""
    st = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=90.0, speed=0.0), ship("e", "b", FRIGATE_GB, 2000, 1500)
    )
    assert S.plan_move(st, st.ship("f"), {"turn": 90.0}).max_distance == 160.0  # beam 200, aft 160
    hurt = replace(st.ship("f"), sheet={**st.ship("f").sheet, "points": 140})
    assert S.plan_move(st, hurt, {"turn": 90.0}).max_distance == 80.0
    assert S.plan_move(st, hurt, {"turn": 0.0}).max_distance == 200.0
    merchant = replace(st.ship("f"), stats={**FRIGATE_GB, "service": "merchant"})
    assert S.plan_move(st, merchant, {"turn": 90.0}).max_distance == 80.0  # line 95


def test_007_turning_circle_path() -> None:
    """Line 93 / 29.: 'place it along side the vessel centre mast and measure movement off' -- a 4.75 cm
    circle for a 5th rate (NW-SAIL-1): a 90 degree turn covers 37.3 mm of arc, then straight."""
    st = battle(ship("f", "a", FRIGATE_GB, 500, 500, heading=90.0), ship("e", "b", FRIGATE_GB, 2000, 1500))
    plan = S.plan_move(st, st.ship("f"), {"turn": 90.0, "speed": 160.0})
    assert plan.end_heading == 180.0
    # arc of radius 23.75 to (523.75, 523.75), then 160 - 37.31 mm south
    assert round(plan.end.x, 2) == 523.75 and round(plan.end.y, 2) == round(
        523.75 + 160 - 23.75 * 3.14159265 / 2, 2
    )
    assert plan.samples[-1][0] == plan.end


def test_007_no_turn_through_fore_S43() -> None:
    """Line 97: 'Except when tacking vessels may not move through the 'Fore' section' (S43: 22.5 degrees)."""
    st = battle(ship("f", "a", FRIGATE_GB, 500, 500, heading=90.0), ship("e", "b", FRIGATE_GB, 2000, 1500))
    assert errs(st, "f", {"turn": -80.0}) == {
        "turn": [
            "That turn passes through or ends in the 'Fore' section, within 22.5 degrees of the wind's eye "
            "(6., 7., S43); tack instead."
        ]
    }
    assert errs(st, "f", {"turn": -67.5}) == {}


def test_007_tacking() -> None:
    """Lines 99-104: 'Tacking may only be carried out by vessels that have suffered no mast damage - in all
    wind strengths except strong breeze and gales. This manoeuvre takes a full move ... pointing 45 degrees
    from the wind on the tack.'"""
    st = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=300.0, speed=120.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
    )
    new, events = play(st, {"f": {"tack": True}}, [])
    f = new.ship("f")
    assert f.heading == 45.0 and f.speed == 0.0  # wind from 0: from 300 (wind on the starboard bow) to 45
    assert "tacks" in events[0].text
    masted = replace(
        st, ships=(replace(st.ship("f"), sheet={**st.ship("f").sheet, "mast_hits": 1}), st.ship("e"))
    )
    assert errs(masted, "f", {"tack": True}) == {"tack": ["Only vessels with no mast damage may tack (7.)."]}
    strong = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=300.0), ship("e", "b", FRIGATE_GB, 2000, 1500), number=55
    )
    assert errs(strong, "f", {"tack": True}) == {"tack": ["No tacking in a strong breeze (7.)."]}


def test_007_a_tack_takes_no_turn_of_its_own_NW_SAIL_41() -> None:
    """Line 103: "Using turning circle, turn vessel into wind": the tack's turn is the rules'. A turn given
    with it was ignored without a word (fresh-user check: tack and turn 45 gave the tack alone); it is now
    refused at the turn, and the tack with no turn stands."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=300.0, speed=120.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
    )
    assert errs(st, "f", {"tack": True, "turn": 45.0}) == {
        "turn": ["A tack turns her into the wind by itself (7.): leave the turn at 0."]
    }
    assert errs(st, "f", {"tack": True, "turn": 0.0}) == {}


@pytest.mark.parametrize(
    "number, expected",
    [
        pytest.param(30, 100.0, id="005-light-breeze-half-speed"),
        pytest.param(20, 0.0, id="005-calm-no-movement"),
        pytest.param(96, 100.0, id="005-storm-gale-half-speed"),
        pytest.param(45, 200.0, id="005-moderate-normal"),
    ],
)
def test_005_weather_speed(number: int, expected: float) -> None:
    """Lines 62-70: 'speed reduced by half' (light breeze, storm/rain in a gale), 'No movement' (calm)."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 500, 500, heading=90.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        number=number,
    )
    assert S.plan_move(st, st.ship("f"), {}).max_distance == expected


# --- 11.-13. gunnery ----------------------------------------------------------------------------------------


def duel(**kw: Any) -> BattleState:
    # a British 74 heading north; the French 74 90 mm to starboard, heading north (broadside to broadside)
    return battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=0.0, grade="good"),
        ship("fr", "b", SEVENTY_FOUR_FR, 1090, 1000, heading=0.0),
        wind=270.0,
        **kw,
    )


def test_012_broadside_exact() -> None:
    """Lines 152-164 and 170-172: guns fired x firing factor on the chart; FF = +1 Good +1 British +1 short +1
    first time + two average dice (3 + 4) = 11; 37 guns = 30 + 7 (S22): 58 (12) + 11 (2) = 69 points, 14 guns,
    lost from the side fired at; two damage-chart rolls (S24)."""
    st = duel()
    new, events = play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45])
    fire = next(e for e in events if e.kind == "fire")
    assert [m.value for m in fire.modifiers] == [1, 1, 1, 1]
    assert fire.data["ff"] == 11 and fire.data["points"] == 69 and fire.data["guns_destroyed"] == 14
    assert fire.data["side"] == "starboard" and fire.data["band"] == "short"
    fr = new.ship("fr").sheet
    assert fr["points"] == 631 and fr["guns"] == {
        "starboard": 37,
        "port": 23,
    }  # French port side faces the Briton
    assert [e.outcome for e in events if e.kind == "damage_chart"] == ["nothing", "nothing"]
    gb = new.ship("gb").sheet
    assert gb["broadsides"]["starboard"] == {"ready_turn": 3, "shot": "round"}  # type: ignore[index]
    assert gb["fired_once"] is True


def test_011_reload_one_move() -> None:
    """Line 140: 'it can be seen in the next move to be reloading, which takes one move'."""
    st, _ = play(duel(), {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45])
    st2 = replace(st, turn=2)
    assert errs(st2, "gb", {"speed": 0.0, "target": "fr"}) == {
        "target": ["No loaded broadside bears on Fr within range during this move (11., S12)."]
    }
    st3 = replace(st, turn=3)
    assert errs(st3, "gb", {"speed": 0.0, "target": "fr"}) == {}


def test_011_double_shot_two_moves_halved_ranges_doubled() -> None:
    """Line 146: 'To load double shot takes two moves. When firing double shot all ranges are halved.' Line
    170: '(Double result when firing double shot)'."""
    st, _ev = play(duel(), {"gb": {"speed": 0.0, "load_double": "starboard"}}, [])
    assert st.ship("gb").sheet["broadsides"]["starboard"] == {"ready_turn": 3, "shot": "double"}  # type: ignore
    assert errs(replace(st, turn=2), "gb", {"speed": 0.0, "target": "fr"}) != {}
    st3 = replace(st, turn=3)
    _new, events = play(st3, {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45, 45])
    fire = next(e for e in events if e.kind == "fire")
    # 90 mm is medium with double shot (short is 0-50): +1 Good +1 British +1 first time = 3 + 7 = 10
    assert fire.data["band"] == "medium" and fire.data["ff"] == 10 and fire.data["double"] is True
    assert fire.data["points"] == 2 * (54 + 10) and fire.data["guns_destroyed"] == 2 * (11 + 2)
    assert len([e for e in events if e.kind == "damage_chart"]) == 3  # 128 points -> 3 rolls (S24)


def test_011_stern_rake_splits_guns_S13_S26() -> None:
    """Line 144 / 156: a stern rake (+4, S13); line 172: 'If the fire is a rake, an equal number of guns are
    destroyed on each side' (S26)."""
    st = battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=0.0, grade="good"),
        ship("fr", "b", SEVENTY_FOUR_FR, 1090, 1000, heading=90.0),
        wind=180.0,
    )
    new, events = play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45])
    fire = next(e for e in events if e.kind == "fire")
    assert fire.data["rake"] == "stern" and fire.data["ff"] == 15
    assert fire.data["points"] == 76 + 14 and fire.data["guns_destroyed"] == 15 + 3
    assert new.ship("fr").sheet["guns"] == {"starboard": 28, "port": 28}


def test_011_out_of_arc_S12() -> None:
    """Line 142: 'The possible angle of fire is 22 degrees from the centre' (S12): a target 45 degrees off the
    bow does not bear."""
    st = battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1070, 930, heading=0.0),
        wind=270.0,
    )
    assert "target" in errs(st, "gb", {"speed": 0.0, "target": "fr"})


def test_011_broadside_not_split() -> None:
    """Line 132: 'Broadside fire cannot be split between targets.'"""
    st = duel()
    assert errs(st, "gb", {"speed": 0.0, "target": "fr", "target_2": "fr"}) == {
        "target_2": ["Broadside fire cannot be split: pick another target (11.)."]
    }


def test_005_storm_strong_third_of_guns_S44() -> None:
    """Line 63: 'No firing from unrated vessels, one third of guns on rated vessels may not fire' (S44:
    floor)."""
    st = duel(number=95)  # storm, strong breeze, 500 mm
    _new, events = play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20])
    fire = next(e for e in events if e.kind == "fire")
    assert fire.data["guns"] == 25  # 37 - 12
    assert fire.data["ff"] == 4 - 1 + 7  # strong breeze -1


# --- 13. damage chart results -------------------------------------------------------------------------------


def hit_with(roll: int, **sheet: Any) -> tuple[BattleState, list[Event]]:
    """A 1-gun volley with FF 7 at 90 mm (1 point, one damage-chart roll = ``roll``)."""
    st = battle(
        ship("gb", "a", {**CUTTER_GB, "guns": 2}, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1045, 1000, heading=0.0, **sheet),
        wind=270.0,
    )
    # cutter (unrated): 45 mm short; FF +1 British +1 short +1 first = 3 + 2 + 2 = 7 -> 1 gun: (1, 0)
    return play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [2, 2, roll])


def test_013_captain_killed_no_course_change() -> None:
    """Line 175: 'Captain killed, no course changes for next two moves'."""
    st, _ev = hit_with(1)
    fr = st.ship("fr")
    assert fr.sheet["no_turn_moves"] == 2 and fr.sheet["points"] == 699
    assert errs(replace(st, phase=1), "fr", {"turn": 10.0}) == {
        "turn": ["No course changes this move: captain killed or wounded (13.)."]
    }
    st2, _ = play(replace(st, phase=1), {"fr": {"speed": 0.0}}, [])
    assert st2.ship("fr").sheet["no_turn_moves"] == 1


def test_013_admiral_only_if_aboard() -> None:
    """Line 174: 'Admiral killed if aboard, no singles for next six moves' (S23 signals)."""
    st, ev = hit_with(0)
    assert st.ship("fr").sheet["no_signals_moves"] == 0 and "No admiral aboard" in ev[-1].text
    st, ev = hit_with(0, admiral=True)
    assert st.ship("fr").sheet["no_signals_moves"] == 6
    st, ev = hit_with(2, admiral=True)
    assert st.ship("fr").sheet["no_signals_moves"] == 3


def test_013_wheel_crew() -> None:
    """Line 187: 'Wheel crew hit, vessel turns 90 degrees to port, all further course changes at half
    speed'."""
    st, _ev = hit_with(49)
    fr = st.ship("fr")
    assert fr.heading == 270.0 and fr.sheet["wheel_hit"] is True and S.half_speed_turns(fr)
    st, _ev = hit_with(50)
    assert st.ship("fr").heading == 90.0


def test_013_masts_to_dismasted_S11() -> None:
    """Line 178: 'Mast damage, sailing speed reduced by 25%'; line 203: cumulative (S11); line 87: '100%
    reduction ... drift'."""
    st, _ev = hit_with(4, mast_hits=3)
    fr = st.ship("fr")
    assert fr.sheet["mast_hits"] == 4 and fr.sheet["dismasted"] is True and "dismasted" in fr.flags
    assert fr.sheet["speed_reduction_pct"] == 100
    st, _ev = hit_with(64)
    assert st.ship("fr").sheet["speed_reduction_pct"] == 25


def test_NW_SAIL_28_mast_damage_carries_away_the_temporary_mast() -> None:
    """Line 178: 'Mast damage, sailing speed reduced by 25%' on a vessel under a temporary mast (line 87):
    NW-SAIL-28, it goes by the board and another may be raised only two moves later."""
    st, ev = hit_with(4, dismasted=True, mast_hits=4, jury_mast=True, dismasted_moves=5)
    fr = st.ship("fr")
    assert fr.sheet["jury_mast"] is False and fr.sheet["dismasted"] is True and fr.sheet["mast_hits"] == 5
    assert fr.sheet["dismasted_moves"] == 0 and "goes by the board (NW-SAIL-28)" in ev[-1].text
    assert errs(replace(st, phase=1), "fr", {"jury_rig": True}) == {
        "jury_rig": ["A temporary mast may be raised after two moves (6.)."]
    }


def test_013_fires_boats_anchor() -> None:
    """Lines 179-180, 182, 190: 'One fire started', 'One ships boat destroyed', 'Two fires started', 'Anchor
    cable hit if laid, vessel will drift downwind next move'."""
    st, _ = hit_with(9)
    assert st.ship("fr").sheet["fires"] == [0] and "on_fire" in st.ship("fr").flags
    st, _ = hit_with(24)
    assert st.ship("fr").sheet["fires"] == [0, 0]
    st, _ = hit_with(14)
    assert st.ship("fr").sheet["boats"] == 7
    st, ev = hit_with(51)
    assert "No anchor laid" in ev[-1].text
    st, _ = hit_with(51, anchored=True)
    fr = st.ship("fr")
    assert fr.sheet["anchored"] is False and fr.sheet["drift_moves"] == 1
    _st2, ev2 = play(replace(st, phase=1), {"fr": {}}, [])
    assert ev2[0].data["kind"] == "drift" and round(ev2[0].data["distance"], 6) == 30.0  # 25% of Aft 120 mm


def test_013_pumps_and_underwater_sink_in_four_S25() -> None:
    """Lines 190-191: 'Sever underwater damage ...' / 'Pumps destroyed - if sever underwater damage sustained
    ... vessel will sink in four moves' (S25: in either order)."""
    st, _ = hit_with(53, severe_underwater=True)
    assert st.ship("fr").sheet["sink_in"] == 4 and "sinking" in st.ship("fr").flags
    st, _ = hit_with(52, pumps_destroyed=True)
    assert st.ship("fr").sheet["sink_in"] == 4
    assert S.reduction_pct(st.ship("fr")) == 50
    for left in (3, 2, 1):
        st, _ = play(replace(st, phase=1), {"fr": {"speed": 0.0}}, [])
        assert st.ship("fr").sheet["sink_in"] == left
    st, _ev = play(replace(st, phase=1), {"fr": {"speed": 0.0}}, [])
    assert st.ship("fr").status == "sunk"


def test_013_magazine_explodes_and_sets_fires_within_75mm() -> None:
    """Line 201: 'Magazine explodes'; line 211: 'all vessels within 75 millimetres must test for fires, throw
    one Normal dice for each vessel' (S28)."""
    st = battle(
        ship("gb", "a", {**CUTTER_GB, "guns": 2}, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1045, 1000, heading=0.0),
        ship("far", "b", SEVENTY_FOUR_FR, 1045, 1200, heading=0.0),
        wind=270.0,
    )
    new, _events = play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [2, 2, 99, 3])
    assert new.ship("fr").status == "sunk" and "exploded" in new.ship("fr").flags
    assert new.ship("gb").sheet["fires"] == [0, 0, 0]  # 45 mm away: D6 = 3 fires
    assert new.ship("far").sheet["fires"] == []


# --- 14. fires ----------------------------------------------------------------------------------------------


def test_014_fire_sequence_out_of_control_abandon() -> None:
    """Lines 207-213: attempts need 4+, 4+, 4+, 5 (S27); each failure an explosion check on two average dice;
    not out by the fourth: out of control, abandon ship the following move, drift as if dismasted; 40 points a
    move."""
    st = battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 1000, 1000, heading=90.0, fires=[0]),
        ship("gb", "b", SEVENTY_FOUR_GB, 2000, 1500),
        wind=0.0,
    )
    order = {"fr": {"speed": 0.0}}
    for attempt, roll in ((1, 3), (2, 2), (3, 3)):
        st, ev = play(st, order, [roll, 2, 3], phase=0)
        assert st.ship("fr").sheet["fires"] == [attempt] and ev[0].needed == 4
    st, ev = play(st, order, [4, 3, 3], phase=0)  # fourth attempt needs 5
    assert ev[0].needed == 5 and st.ship("fr").sheet["fires_out_of_control"] == 1
    assert st.ship("fr").sheet["abandon_next"] is True
    st, ev = play(st, order, [2, 3], phase=0)
    fr = st.ship("fr")
    assert fr.status == "struck" and "abandoned" in fr.flags and fr.sheet["points"] == 660
    assert kinds(ev)[:3] == ["abandoned", "fire_damage", "explosion_check"]


def test_NW_SAIL_29_fire_damage_rolls_no_damage_chart() -> None:
    """Line 213: 'such fires cause 40 Damage points per move' come off the pool without the damage chart of
    line 172 ('For every 50 Damage points removed'), which is rolled for shot (NW-SAIL-29)."""
    st = battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=90.0, fires_out_of_control=1),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
    )
    new, ev = play(st, {"gb": {"speed": 0.0}}, [2, 3])  # the explosion check: 5, safe
    assert new.ship("gb").sheet["points"] == 580
    assert "fire_damage" in kinds(ev) and "damage_chart" not in kinds(ev)


def test_014_fire_put_out_and_explosion() -> None:
    """Line 207: 'Throw one Average dice, a four or a five is needed'; line 209: 'A score of ten and the
    vessel explodes and sinks next move.'"""
    st = battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 1000, 1000, heading=90.0, fires=[0, 0]),
        ship("gb", "b", SEVENTY_FOUR_GB, 1050, 1000, heading=90.0),
        wind=0.0,
    )
    new, ev = play(st, {"fr": {"speed": 0.0}}, [4, 3, 5, 5, 5])
    assert new.ship("fr").status == "sunk" and new.ship("gb").sheet["fires"] == [0, 0, 0, 0, 0]
    assert [e.kind for e in ev][:3] == ["fire_fight", "fire_fight", "explosion_check"]
    ev_roll = next(e for e in ev if e.kind == "fire_started")
    assert ev_roll.rolls[0].value == 5


def test_014_option_third_attempt_exactly_four_S27() -> None:
    """S27: 'Make exactly 4 on the third attempt a configurable alternative.'"""
    st = battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 1000, 1000, heading=90.0, fires=[2]),
        ship("gb", "b", SEVENTY_FOUR_GB, 2000, 1500),
        options={"fire_third_exact": True},
    )
    new, _ev = play(st, {"fr": {"speed": 0.0}}, [5, 2, 2])
    assert new.ship("fr").sheet["fires"] == [3]


# --- 19. entanglement, 15. boarding -------------------------------------------------------------------------


def test_019_contact_entangles_and_pair_moves_S34() -> None:
    """Line 259: 'If vessels come into contact, they become entangled.' Line 261: average direction and speed,
    halved each move, then stationary, then drift downwind (S34)."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, speed=200.0),
        ship("fr", "b", FRIGATE_GB, 1100, 1000, heading=90.0, speed=100.0),
        wind=0.0,
    )
    new, _ev = play(st, {"gb": {}}, [])
    gb, fr = new.ship("gb"), new.ship("fr")
    assert gb.sheet["entangled_with"] == "fr" and fr.sheet["entangled_with"] == "gb"
    assert isinstance(gb.position, Point) and isinstance(fr.position, Point)
    assert 15.0 <= distance(gb.position, fr.position) < 15.1
    assert gb.sheet["entangle_distance"] == 150 and "entangled" in gb.flags
    st2, ev2 = play(replace(new, turn=2), {"gb": {}}, [], phase=0)
    assert ev2[0].kind == "entangled_move" and ev2[0].data["distance"] == 150
    assert st2.ship("gb").sheet["entangle_distance"] == 75


def test_019_contact_with_two_hulls_stops_against_the_nearer_NW_SAIL_4() -> None:
    """NW-SAIL-4: 'A moving vessel stops at first contact'. When one point of the track comes within 15 mm of
    two vessels, it is the nearer she runs into (ties: the one listed first in the battle), not whichever a
    lookup happens to give first: at x = 1090 Fb (y 993) is 12.2 mm off and Fa (y 1005) 11.2 mm."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, speed=200.0),
        ship("fb", "b", FRIGATE_GB, 1100, 993, heading=90.0),
        ship("fa", "b", FRIGATE_GB, 1100, 1005, heading=90.0),
        wind=0.0,
    )
    new, ev = play(st, {"gb": {}}, [])
    assert new.ship("gb").sheet["entangled_with"] == "fa"
    assert new.ship("fb").sheet["entangled_with"] is None
    assert [e.target_id for e in ev if e.kind == "entangled"] == ["fa"]


def test_019_separation_S32_S33() -> None:
    """Lines 265-268: 'Throw one Average dice: +1 Vessels on same side -1 Vessels broadside to broadside ... 4
    or over separates' (S32)."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr"),
        ship("fr", "b", FRIGATE_GB, 1000, 1014, heading=90.0, entangled_with="gb"),
        wind=0.0,
    )
    new, ev = play(st, {"gb": {"cast_off": True}}, [4])
    assert ev[-1].outcome == "entangled" and [m.value for m in ev[-1].modifiers] == [-1]
    new, ev = play(st, {"gb": {"cast_off": True}}, [5])
    assert ev[-1].outcome == "separated" and new.ship("fr").sheet["entangled_with"] is None


def test_015_boarding_melee_decks_capture() -> None:
    """Lines 219-233: 20% left aboard; one die each modified (S29); the chart's bracket figure is the
    casualties; deck by deck (S30: a 5th rate has two decks); lines 241: prize crew 10%."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr", grade="good"),
        ship(
            "fr",
            "b",
            {**FRIGATE_GB, "nation": "Spain"},
            1000,
            1014,
            heading=90.0,
            entangled_with="gb",
            grade="poor",
        ),
        wind=0.0,
    )
    new, ev = play(st, {"gb": {"board": "fr"}}, [4, 3])
    melee = next(e for e in ev if e.kind == "melee")
    # GB 224 men (280 - 56), roll 4 +1 good +1 British = 6; Spain 280 men, 3 -1 poor -1 Spain = 1
    # 224 = 7 x 30 + 14: 7 x 5 + 2 = 37 casualties; 280 = 9 x 30 + 10: 9 x 1 + 0 = 9
    assert melee.data["casualties_defender"] == 37 and melee.data["casualties_attacker"] == 9
    assert melee.outcome == "attacker" and new.ship("fr").sheet["melee"] == {
        "attacker": "gb",
        "defender": "fr",
        "deck": 2,
    }
    assert new.ship("fr").sheet["points"] == 243 and new.ship("gb").sheet["points"] == 271
    assert errs(replace(new, phase=1), "fr", {"speed": 0.0, "target": "gb"}) == {
        "target": ["No firing in a continuing melee (15.)."]
    }
    # the melee continues in the other side's move
    new2, ev2 = play(replace(new, phase=1), {"fr": {}}, [6, 1])
    assert new2.ship("fr").status == "captured" and new2.ship("fr").sheet["prize_crew"] == 28
    assert "captured" in kinds(ev2)


def test_015_boarders_pushed_back() -> None:
    """Line 231: 'The side actually boarding in a melee may, if defeated, be pushed back to their own
    vessel.'"""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr"),
        ship("fr", "b", FRIGATE_GB, 1000, 1014, heading=90.0, entangled_with="gb"),
        wind=0.0,
    )
    new, ev = play(st, {"gb": {"board": "fr"}}, [1, 6])
    assert "pushed_back" in kinds(ev) and new.ship("gb").sheet["melee"] is None
    assert new.ship("gb").sheet["entangled_with"] == "fr"


def test_015_tie_continues_S29() -> None:
    """S29: 'On a tie nobody wins and the melee continues next move.'"""
    spain: dict[str, JSON] = {**FRIGATE_GB, "nation": "Spain"}
    st = battle(
        ship("gb", "a", spain, 1000, 1000, heading=90.0, entangled_with="fr", grade="poor"),
        ship("fr", "b", spain, 1000, 1014, heading=90.0, entangled_with="gb", grade="poor"),
        wind=0.0,
    )
    new, ev = play(st, {"gb": {"board": "fr"}}, [1, 1])  # 1 - 1 poor - 1 Spain = -1: no casualties either way
    melee = next(e for e in ev if e.kind == "melee")
    assert melee.data["casualties_defender"] == 0 and melee.data["casualties_attacker"] == 0
    assert melee.outcome == "tie" and new.ship("fr").sheet["melee"] == {
        "attacker": "gb",
        "defender": "fr",
        "deck": 1,
    }
    # 224 British men at 2 vs 280 at 2: 7 x 2 + 1 = 15 against 9 x 2 + 1 = 19: the defenders win
    st2 = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr"),
        ship("fr", "b", FRIGATE_GB, 1000, 1014, heading=90.0, entangled_with="gb"),
        wind=0.0,
    )
    new, ev = play(st2, {"gb": {"board": "fr"}}, [1, 1])
    melee = next(e for e in ev if e.kind == "melee")
    assert (melee.data["casualties_defender"], melee.data["casualties_attacker"]) == (15, 19)


# --- 17., 18. sinking and striking --------------------------------------------------------------------------


def test_018_compulsory_strike_S31() -> None:
    """Line 253: 'striking is compulsory when damage points fall below 20% and the vessel cannot escape
    without coming under further fire' (S31, NW-SAIL-10)."""
    st = battle(
        ship("fr", "a", FRIGATE_GB, 1000, 1000, heading=90.0, points=55),
        ship("gb", "b", FRIGATE_GB, 1200, 1000, heading=90.0),
        wind=0.0,
    )
    new, _ev = play(st, {"fr": {"speed": 0.0}}, [])
    assert new.ship("fr").status == "struck"
    far = battle(
        ship("fr", "a", FRIGATE_GB, 1000, 1000, heading=90.0, points=55),
        ship("gb", "b", FRIGATE_GB, 1400, 1400, heading=90.0),
        wind=0.0,
    )
    new, _ev = play(far, {"fr": {"speed": 0.0}}, [])
    assert new.ship("fr").status == "active"
    new, _ev = play(far, {"fr": {"speed": 0.0, "strike": True}}, [])
    assert new.ship("fr").status == "struck"


def test_017_sinks_at_zero_points() -> None:
    """Line 247: 'a vessel will sink when all its Damaged points have been eliminated'."""
    st = battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=0.0, grade="good"),
        ship("fr", "b", FRIGATE_GB, 1090, 1000, heading=0.0, points=60),
        wind=270.0,
    )
    new, _ev = play(st, {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4])
    assert new.ship("fr").status == "sunk" and new.ship("fr").sheet["points"] == 0


# --- 21. shoals, 22. anchoring ------------------------------------------------------------------------------

SHOAL = TerrainFeature(kind="shoal", position=Point(x=1150, y=1000), props={"depth": 4, "radius": 30})


def test_021_grounding_refloating_S35_S37() -> None:
    """Lines 284-297: a 5th rate grounds in four fathoms, loses 10% (S37: 28 of 280); refloat on a 5 with +1
    per assisting vessel (S35); otherwise 20 points."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        terrain=(SHOAL,),
        wind=0.0,
    )
    new, _ev = play(st, {"f": {}}, [])
    f = new.ship("f")
    assert f.sheet["aground"] is True and f.sheet["points"] == 252 and isinstance(f.position, Point)
    assert 1119 <= f.position.x <= 1121
    help_ = replace(new, ships=(*new.ships, ship("h", "a", CUTTER_GB, 1100, 1040, heading=90.0)))
    help_ = replace(
        help_,
        ships=tuple(
            s if s.id != "h" else replace(s, sheet={**RS.new_sheet(s, s.sheet), "grade": "average"})
            for s in help_.ships
        ),
    )
    st2, ev2 = play(help_, {"f": {"refloat": True}, "h": {"assist": "f", "speed": 0.0}}, [3])
    assert next(e for e in ev2 if e.kind == "refloat").outcome == "fast"
    assert st2.ship("f").sheet["points"] == 232
    st3, _ev3 = play(help_, {"f": {"refloat": True}, "h": {"assist": "f", "speed": 0.0}}, [4])
    assert st3.ship("f").sheet["aground"] is False and st3.ship("f").sheet["refloat_next"] is True


def test_021_cast_log() -> None:
    """Line 299: 'it may cast a log, providing it does not move more than 60 millimetres that move'."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        terrain=(SHOAL,),
        wind=0.0,
    )
    assert errs(st, "f", {"speed": 100.0, "cast_log": True}) == {
        "cast_log": ["Cast the log only when moving 60 mm or less (21.)."]
    }
    _new, ev = play(st, {"f": {"speed": 0.0, "cast_log": True}}, [])
    assert ev[-1].data["depth"] == 50.0


def test_022_anchor_drop_raise_make_sail() -> None:
    """Line 305: 'To drop anchor takes one move, to raise it takes five moves ... It takes two moves to man
    the mast and a further two moves to set the sails.'"""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0, speed=200.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    st, _ev = play(st, {"f": {"anchor": "drop"}}, [])
    f = st.ship("f")
    assert f.sheet["anchored"] is True and f.sheet["sails"] == "furled" and f.speed == 0.0
    st, _ = play(st, {"f": {"anchor": "raise", "sails": "make"}}, [])
    for _ in range(3):
        st, _ = play(st, {"f": {}}, [])
    f = st.ship("f")
    assert f.sheet["sails"] == "set" and f.sheet["anchored"] is True and f.sheet["anchor_raise_left"] == 1
    st, _ = play(st, {"f": {}}, [])
    assert st.ship("f").sheet["anchored"] is False
    deep = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        options={"sea_depth_fathoms": 2000.0},
    )
    assert errs(deep, "f", {"anchor": "drop"}) == {
        "anchor": ["Vessels may only anchor in less than 300 fathoms (22.)."]
    }


# --- 6. dismasted drift and jury masts; 9. towing; 10. rowing -----------------------------------------------


def test_006_dismasted_drift_and_jury_mast_S09() -> None:
    """Line 87: 'vessels that have suffered 100% reduction in speed drift downward at 25% Aft speed. After two
    moves a temporary mast may be raised which will permit the vessel to move at 25% of Normal speed.'
    (S09)"""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0, dismasted=True, mast_hits=4),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    st, _ev = play(st, {"f": {}}, [])
    f = st.ship("f")
    assert isinstance(f.position, Point) and round(f.position.y, 6) == 1040.0  # 25% of 160 downwind (south)
    assert errs(st, "f", {"jury_rig": True}) == {
        "jury_rig": ["A temporary mast may be raised after two moves (6.)."]
    }
    st, _ = play(st, {"f": {}}, [])
    st, _ev = play(st, {"f": {"jury_rig": True}}, [])
    f = st.ship("f")
    assert f.sheet["jury_mast"] is True
    assert S.plan_move(st, f, {}).max_distance == 50.0  # 25% of the beam speed 200 (S09)


def test_009_towing() -> None:
    """Line 120: 'It takes two moves to secure a tow rope. 25% of the towing vessels move distance is the
    maximum'."""
    st = battle(
        ship("t", "a", FRIGATE_GB, 1000, 1000, heading=90.0),
        ship("d", "a", FRIGATE_GB, 970, 1000, heading=90.0, dismasted=True, mast_hits=4, anchored=True),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    st, _ev = play(st, {"t": {"speed": 0.0, "tow": "d"}, "d": {}}, [])
    assert st.ship("t").sheet["tow_secure_left"] == 1
    st, _ev = play(st, {"t": {"speed": 0.0, "tow": "d"}, "d": {}}, [])
    assert st.ship("t").sheet["towing"] == "d" and st.ship("d").sheet["towed_by"] == "t"
    assert S.plan_move(st, st.ship("t"), {}).max_distance == 50.0
    st, _ev = play(st, {"t": {}, "d": {}}, [])
    t, d = st.ship("t"), st.ship("d")
    assert isinstance(t.position, Point) and isinstance(d.position, Point)
    assert round(t.position.x, 6) == 1050.0 and round(d.position.x, 6) == 1020.0


def test_010_rowing() -> None:
    """Line 126: 'Only vessels of 99 Damage points or less can be rowed, maximum move is 50 mm'."""
    st = battle(
        ship("c", "a", CUTTER_GB, 1000, 1000, heading=0.0),
        ship("f", "a", FRIGATE_GB, 500, 500),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    assert S.plan_move(st, st.ship("c"), {"row": True}).max_distance == 50.0
    assert errs(st, "c", {"row": True}) == {}  # rowing goes straight into the wind
    assert errs(st, "f", {"row": True}) == {"row": ["Only vessels of 99 points or less can be rowed (10.)."]}


def test_013_captain_killed_no_course_change_under_oars() -> None:
    """Line 175: 'Captain killed, no course changes for next two moves' holds for a vessel rowed (10.) as for
    one under sail: her oars may take her straight on, not round."""
    st = battle(
        ship("c", "a", CUTTER_GB, 1000, 1000, heading=90.0, no_turn_moves=2),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
    )
    assert errs(st, "c", {"row": True, "turn": 30.0}) == {
        "turn": ["No course changes this move: captain killed or wounded (13.)."]
    }
    assert errs(st, "c", {"row": True}) == {}
    new, _ev = play(st, {"c": {"row": True, "turn": 30.0}}, [])
    assert new.ship("c").heading == 90.0


# --- 23. mortars, 24. batteries -----------------------------------------------------------------------------


def test_023_mortar_ranging_and_spider_S38_S39() -> None:
    """Lines 311-331: ranging on two decimal dice, then the spider (one decimal die; S39 3 x 3 grid, 0 = dud);
    a hit does 50 points (S38: one damage-chart roll); four moves to load."""
    st = battle(
        ship("b", "a", BOMB_US, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 700),
        wind=90.0,
    )
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [50, 5, 20])
    mortar = next(e for e in ev if e.kind == "mortar")
    assert mortar.outcome == "hit" and new.ship("fr").sheet["points"] == 650
    assert new.ship("b").sheet["mortar_ranged_on"] == "fr" and new.ship("b").sheet["mortar_ready_turn"] == 6
    # short: aim 30 mm short (10% of 300); spider 2 = one step (43.3 mm) over -> 13.3 mm beyond the target: a
    # hit
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [5, 2, 20])
    assert next(e for e in ev if e.kind == "mortar").outcome == "hit"
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [50, 10])
    assert next(e for e in ev if e.kind == "mortar").outcome == "dud"
    assert errs(replace(new, turn=2), "b", {"speed": 0.0, "mortar_target": "fr"}) == {
        "mortar_target": ["The mortar is loading until turn 6 (23.)."]
    }


def test_A2_023_mortar_needs_its_target_in_sight() -> None:
    """Line 49: 'Visibility is halved at night' (A2: in sight within the weather's visibility): a mortar (23.)
    is aimed, as the guns are, only at a vessel her side can see."""
    st = battle(
        ship("b", "a", BOMB_US, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 700),
        wind=90.0,
        number=5,  # fog, calm, 500 mm; at night 250 mm
        night=True,
    )
    assert errs(st, "b", {"mortar_target": "fr"}) == {
        "mortar_target": ["Fr cannot be seen (visibility 250 mm, A2)."]
    }
    assert (
        errs(replace(st, conditions=replace(st.conditions, visibility=500.0)), "b", {"mortar_target": "fr"})
        == {}
    )


def test_027_023_bomb_with_two_mortars_fires_two_shells() -> None:
    """Line 390: 'Bomb 4 (plus 2 mortars) 70' (Britain): both mortars fire, each shell spidered (23., S39) and
    worth 50 points (S38); line 327: 'Once ranged in on target the above procedure need not be repeated', so
    the second shell of a load needs no ranging when the first ranged in; both then take four moves."""
    st = battle(
        ship("b", "a", BOMB_GB, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 700),
        wind=90.0,
    )
    # shell 1: ranging 50 on target, spider 5 hit, damage chart 20 nothing; shell 2: spider 5 hit, chart 44
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [50, 5, 20, 5, 44])
    shells = [e for e in ev if e.kind == "mortar"]
    assert [e.outcome for e in shells] == ["hit", "hit"]
    assert shells[0].text.startswith("B fires her mortar (mortar 1 of 2) at Fr (ranging 50: on target)")
    assert shells[1].text.startswith("B fires her mortar (mortar 2 of 2) at Fr (ranged in)")
    assert new.ship("fr").sheet["points"] == 600 and new.ship("b").sheet["mortar_ready_turn"] == 6
    # off target: the second mortar ranges again (ranging 5 short, spider 5: a miss; then 50, spider 10: dud)
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [5, 5, 50, 10])
    assert [e.outcome for e in ev if e.kind == "mortar"] == ["miss", "dud"]
    assert new.ship("b").sheet["mortar_ranged_on"] == "fr"


@pytest.mark.parametrize(
    ("number", "dist"),
    [(90, 300.0), (99, 150.0)],
    ids=["storm-moderate-no-unrated", "storm-gale-no-vessel"],
)
def test_005_023_mortar_obeys_the_weather_S05(number: int, dist: float) -> None:
    """Line 62: 'Storm Gale No firing from any vessel'; line 65: 'Storm Moderate Breeze No firing from unrated
    vessels' (S05: Storm = the Gale weather, 90-00). A bomb's mortar (23.) is firing too: it stays silent."""
    st = battle(
        ship("b", "a", BOMB_GB, 1000, 1000, heading=0.0),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 1000 - dist),
        wind=90.0,
        number=number,
    )
    assert errs(st, "b", {"speed": 0.0, "mortar_target": "fr"}) == {
        "mortar_target": ["No firing in this weather for this vessel (5., S05)."]
    }
    new, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fr"}}, [])
    assert "mortar" not in kinds(ev) and new.ship("fr").sheet["points"] == 700
    assert new.ship("b").sheet["mortar_ready_turn"] == 1


def test_015_023_no_mortar_in_a_continued_melee() -> None:
    """Line 237: 'Melees take place after al firing, firing does not take place in continued melees.' A bomb
    fighting a melee fires neither her guns nor her mortar (23.)."""
    fight: dict[str, JSON] = {"attacker": "b", "defender": "c", "deck": 1}
    st = battle(
        ship("b", "a", BOMB_GB, 1000, 1000, heading=0.0, entangled_with="c", melee=dict(fight)),
        ship("c", "b", CUTTER_GB, 1000, 1012, heading=0.0, entangled_with="b", melee=dict(fight)),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 700),
        wind=90.0,
    )
    assert errs(st, "b", {"mortar_target": "fr"}) == {
        "mortar_target": ["No firing in a continuing melee (15.)."]
    }
    new, ev = play(st, {"b": {"mortar_target": "fr"}}, [3, 3])  # the melee's two dice, no mortar's
    assert "mortar" not in kinds(ev) and "melee" in kinds(ev)
    assert new.ship("fr").sheet["points"] == 700 and new.ship("b").sheet["mortar_ready_turn"] == 1


def test_NW_SAIL_27_battery_fires_in_a_storm_with_the_gale_modifier() -> None:
    """Line 62: 'Storm Gale No firing from any vessel, speed reduced by half' binds vessels; a shore battery
    (24.) fires every gun (NW-SAIL-27), and line 156's '-2 Gale' still counts."""
    bat = TerrainFeature(
        kind="battery",
        position=Point(x=1000, y=1200),
        props={"id": "fort", "name": "Fort", "side": "a", "guns": 10, "facing": 0.0, "nation": "France"},
    )
    st = battle(
        ship("x", "a", FRIGATE_GB, 200, 200),
        ship("fr", "b", SEVENTY_FOUR_GB, 1000, 1050, heading=90.0),
        terrain=(bat,),
        number=99,  # storm (S05), gale, visibility 200 mm
    )
    assert (st.conditions.weather, st.conditions.wind_force) == ("storm", "gale")
    new, ev = play(st, {"x": {"speed": 0.0}}, [3, 3, 20])
    fire = next(e for e in ev if e.kind == "fire")
    # +1 land based +1 first time -2 gale (medium, 150 mm) + 6 = 6: 10 guns -> 9 (2)
    assert [(m.label, m.value) for m in fire.modifiers] == [
        ("guns land based (12.)", 1),
        ("first time fired (12., S15)", 1),
        ("gale (12.)", -2),
    ]
    assert fire.data["ff"] == 6 and fire.data["points"] == 9 and new.ship("fr").sheet["points"] == 611


def test_024_shore_battery_fires_land_based() -> None:
    """Lines 335-341: battery points by construction; '+1 Guns land based'; arc 35 degrees either side of the
    perpendicular."""
    bat = TerrainFeature(
        kind="battery",
        position=Point(x=1000, y=1200),
        props={
            "id": "fort",
            "name": "Fort",
            "side": "a",
            "guns": 10,
            "construction": "stone",
            "facing": 0.0,
            "nation": "France",
        },
    )
    st = battle(
        ship("x", "a", FRIGATE_GB, 200, 200),
        ship("fr", "b", SEVENTY_FOUR_GB, 1000, 1050, heading=90.0),
        terrain=(bat,),
    )
    assert st.terrain[0].props["points"] == 400
    new, ev = play(st, {"x": {"speed": 0.0}}, [3, 3, 20])
    fire = next(e for e in ev if e.kind == "fire")
    # +1 land based +1 first time (medium, 150 mm) + 6 = 8: 10 guns -> 12 (2)
    assert fire.data["ff"] == 8 and fire.data["points"] == 12
    assert new.ship("fr").sheet["points"] == 608


# --- 3., 4. wind and weather change; A2 visibility ----------------------------------------------------------


def test_003_wind_and_weather_change_every_ten_moves_S03_S06() -> None:
    """Line 43: 'Wind direction is changed by a dice throw every ten move'; line 51: weather every ten moves,
    'steps of ten points per move' (S03, S06)."""
    st = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000, heading=90.0),
        ship("e", "b", FRIGATE_GB, 2000, 1500),
        wind=0.0,
        number=44,
    )
    st11, ev = play(replace(st, turn=11), {"f": {"speed": 0.0}}, [30, 2, 70], phase=0)
    assert st11.conditions.extra["wind_target"] == 90.0 and st11.conditions.extra["wind_sense"] == "veer"
    weather = next(e.text for e in ev if e.kind == "weather")  # "a strong breeze" (NW-SAIL-35)
    assert weather.startswith("Weather change roll 70: rain, a strong breeze, visibility 1500 mm;")
    assert st11.conditions.wind_from == 0.0 and st11.conditions.extra["weather_target"] == 70
    st12, _ev = play(replace(st11, turn=12), {"f": {"speed": 0.0}}, [], phase=0)
    assert st12.conditions.wind_from == 45.0 and st12.conditions.extra["weather_number"] == 54
    st13, _ev = play(replace(st12, turn=13), {"f": {"speed": 0.0}}, [], phase=0)
    assert st13.conditions.wind_from == 90.0 and st13.conditions.extra["weather_number"] == 64
    assert (st13.conditions.weather, st13.conditions.wind_force) == ("rain", "light")


def test_A2_visibility_fog_and_night() -> None:
    """Line 49: 'Visibility is halved at night.' (A2: in sight within the weather's visibility)."""
    st = battle(ship("f", "a", FRIGATE_GB, 1000, 1000), ship("e", "b", FRIGATE_GB, 1000, 1180), number=5)
    assert st.conditions.visibility == 500.0
    assert RS.visible_ship_ids(st, "a") == {"f", "e"}
    night = battle(
        ship("f", "a", FRIGATE_GB, 1000, 1000), ship("e", "b", FRIGATE_GB, 1000, 1300), number=5, night=True
    )
    assert night.conditions.visibility == 250.0 and RS.visible_ship_ids(night, "a") == {"f"}
    assert errs(night, "f", {"speed": 0.0, "target": "e"}) == {
        "target": ["E cannot be seen (visibility 250 mm, A2)."]
    }
    view = RS.view_for(night, "a")
    assert [s.id for s in view.ships] == ["f"]


# --- engine-level properties --------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["hold", "fire_nearest", "captain"])
def test_A7_default_orders_are_legal(policy: str) -> None:
    """A7: default orders must always be legal."""
    st = duel()
    for sid in ("gb", "fr"):
        o = RS.default_order(st, st.ship(sid), policy)  # type: ignore[arg-type]
        assert RS.check_order(st, st.ship(sid), o) == {}
    assert RS.default_order(st, st.ship("gb"), "fire_nearest").data.get("target") == "fr"  # type: ignore[arg-type]


def test_json_round_trip_after_play() -> None:
    """The state after a phase round-trips losslessly through JSON."""
    st, _ = play(duel(), {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45])
    assert from_json(BattleState, to_json(st)) == st


def test_public_sheet_A2() -> None:
    """A2: of an enemy ship a player sees the points their side scored, not its boxes."""
    st, _ = play(duel(), {"gb": {"speed": 0.0, "target": "fr"}}, [3, 4, 20, 45])
    assert RS.public_sheet(st.ship("fr")) == {"damage_scored": 69}
    assert RS.view_for(st, "a").ship("fr").sheet == {"damage_scored": 69}


def test_preview_lines() -> None:
    """The order form shows what an order would do."""
    lines = RS.preview(
        duel(), duel().ship("gb"), ShipOrder(ship_id="gb", data={"speed": 0.0, "target": "fr"})
    )
    assert lines[0].startswith("Sail: 0 mm")
    assert lines[-1] == (
        "Starboard broadside, 37 guns at Fr: 90 mm short; FF +4 + 2 average dice -> 44/69/86 "
        "points (low/average/high)."
    )


# --- NW-SAIL rulings (docs/rulings.md) ----------------------------------------------------------------------


def test_NW_SAIL_12_leaving_the_table_withdraws() -> None:
    """NW-SAIL-12: 'A vessel whose move ends off the table leaves the battle (withdrawn).'"""
    st = battle(ship("f", "a", FRIGATE_GB, 2350, 1000, heading=90.0), ship("e", "b", FRIGATE_GB, 500, 500))
    new, ev = play(st, {"f": {}}, [])
    assert new.ship("f").status == "withdrawn" and ev[-1].kind == "withdrawn"


def test_NW_SAIL_13_unfought_fire_is_a_failed_attempt() -> None:
    """NW-SAIL-13: 'a fire not fought counts as a failed attempt, with its explosion check.'"""
    st = battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 1000, 1000, heading=90.0, fires=[0]),
        ship("gb", "b", SEVENTY_FOUR_GB, 2000, 1500),
    )
    new, ev = play(st, {"fr": {"speed": 0.0, "fight_fires": False}}, [2, 2])
    assert new.ship("fr").sheet["fires"] == [1] and kinds(ev)[:2] == ["fire_fight", "explosion_check"]


def test_NW_SAIL_16_prize_crew_cannot_be_mustered() -> None:
    """Line 241: 'If these cannot be mustered, the vessel must be turned loose.' (NW-SAIL-16: struck, not
    captured)"""
    st = battle(
        ship(
            "gb",
            "a",
            {**CUTTER_GB, "points": 60},
            1000,
            1000,
            heading=90.0,
            entangled_with="fr",
            grade="good",
        ),
        ship(
            "fr",
            "b",
            {**CUTTER_GB, "nation": "Spain", "points": 600},
            1000,
            1014,
            heading=90.0,
            entangled_with="gb",
            grade="poor",
            points=200,
        ),
        wind=0.0,
    )
    # 48 men at 6 + 2 = 8: 30 -> 36 (7) + 18 -> 23 (5) = 12 casualties; 200 men at 1 - 2 = -1: none (S29).
    # The single deck is carried; the prize crew is 60 (10% of 600) and the cutter has only 60 points.
    new, ev = play(st, {"gb": {"board": "fr"}}, [6, 1])
    melee = next(e for e in ev if e.kind == "melee")
    assert (melee.data["casualties_defender"], melee.data["casualties_attacker"]) == (12, 0)
    assert new.ship("fr").status == "struck" and "turned loose" in ev[-1].text


def test_NW_SAIL_15_battery_takes_points_and_guns() -> None:
    """NW-SAIL-15: a battery hit takes points and guns only; at 0 it is silenced."""
    bat = TerrainFeature(
        kind="battery",
        position=Point(x=1090, y=1000),
        props={"id": "fort", "name": "Fort", "side": "b", "guns": 2, "construction": "open", "facing": 270.0},
    )
    st = battle(
        ship("gb", "a", SEVENTY_FOUR_GB, 1000, 1000, heading=0.0, grade="good"),
        ship("e", "b", FRIGATE_GB, 2000, 1700),
        terrain=(bat,),
        wind=270.0,
    )
    new, ev = play(st, {"gb": {"speed": 0.0, "target": "fort"}}, [3, 4])
    assert new.terrain[0].props["silenced"] is True and new.terrain[0].props["points"] == 0
    assert "damage_chart" not in kinds(ev)


def test_NW_SAIL_17_pair_stationary_then_drifts() -> None:
    """Line 261 / S34 / NW-SAIL-17: halved to 0, stationary for one move, then drift downwind at 25% of the
    lesser Aft speed."""
    st = battle(
        ship("gb", "a", FRIGATE_GB, 1000, 1000, heading=90.0, entangled_with="fr", entangle_distance=1),
        ship("fr", "b", SEVENTY_FOUR_FR, 1000, 1015, heading=90.0, entangled_with="gb", entangle_distance=1),
        wind=0.0,
    )
    st, ev = play(replace(st, turn=2), {"gb": {}}, [], phase=0)
    assert ev[0].data["distance"] == 1
    st, ev = play(replace(st, turn=3), {"gb": {}}, [], phase=0)
    assert "stationary" in ev[0].text
    st, ev = play(replace(st, turn=4), {"gb": {}}, [], phase=0)
    assert ev[0].data["distance"] == 30 and ev[0].data["heading"] == 180.0  # 25% of the 74's Aft 120


def test_NW_SAIL_4_already_entangled_stops_alongside() -> None:
    """NW-SAIL-4: a vessel meeting one already entangled with another stops alongside without entangling."""
    st = battle(
        ship("m", "a", FRIGATE_GB, 900, 1000, heading=90.0, speed=200.0),
        ship("x", "b", FRIGATE_GB, 1000, 1000, heading=0.0, entangled_with="y"),
        ship("y", "b", FRIGATE_GB, 1000, 1015, heading=0.0, entangled_with="x"),
        wind=0.0,
    )
    new, ev = play(st, {"m": {}}, [])
    assert new.ship("m").sheet["entangled_with"] is None and "contact" in kinds(ev)
