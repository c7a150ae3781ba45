"""Seed 001, 4. and 5. (the weather chart's wind forces and conditions) and 10. (rowing), with NW-SAIL-35 to
NW-SAIL-37 (``docs/rulings.md``)."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from rules import BattleState, ScriptedDice, SeededDice, ShipOrder, check_state, to_json
from rules.cli import main
from rules.errors import InvalidDocument
from rules.model import JSON, Conditions, MapSpec, Point, ShipState, SideInfo
from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import ships as S
from rules.scenario import bundled_scenarios, load_scenario, scenario_state
from rules.serial import from_json

RS = get_ruleset("sail_1700")
FRIGATE_GB: dict[str, JSON] = {"nation": "Britain", "rate": "5th", "guns": 38, "points": 280}
CUTTER_GB: dict[str, JSON] = {
    "nation": "Britain",
    "rate": "unrated",
    "type": "Cutter",
    "guns": 4,
    "points": 20,
}
KNOWN = "calm, light, moderate, strong, gale"


def _ship(sid: str, side: str, stats: dict[str, JSON], x: float, heading: float = 0.0) -> ShipState:
    return ShipState(
        id=sid,
        name=sid.title(),
        side=side,
        position=Point(x=x, y=1000.0),
        heading=heading,
        speed=0.0,
        stats=dict(stats),
        sheet={"grade": "average"},
    )


def _battle(*ships: ShipState, conditions: Conditions) -> BattleState:
    return BattleState(
        ruleset="sail_1700",
        map=MapSpec(geometry="table_mm", width=2400, height=1800),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        conditions=conditions,
        initiative=("a", "b"),
    )


def _set_up(*ships: ShipState, number: int = 44) -> BattleState:
    dice = ScriptedDice([])
    state, _ = RS.setup(
        _battle(*ships, conditions=Conditions(wind_from=0.0, extra={"weather_number": number})), dice
    )
    assert dice.rolls == []
    return state


def _opening() -> BattleState:
    return _set_up(_ship("f", "a", FRIGATE_GB, 1000.0), _ship("e", "b", FRIGATE_GB, 1500.0))


# --- NW-SAIL-35: the chart's wind forces and conditions -----------------------------------------------------


BAD = [
    pytest.param(
        {"wind_force": "Gale", "weather": "storm"},
        f"wind_force 'Gale' is not one of sail_1700's: {KNOWN} (NW-SAIL-35)",
        id="NW-SAIL-35-capital-Gale-is-no-gale",
    ),
    pytest.param(
        {"wind_force": "gael", "weather": "storm"},
        f"wind_force 'gael' is not one of sail_1700's: {KNOWN} (NW-SAIL-35)",
        id="NW-SAIL-35-typo",
    ),
    pytest.param(
        {"wind_force": "moderate", "weather": "squalls"},
        "weather 'squalls' is not one of sail_1700's: fog, clear, rain, storm (NW-SAIL-35)",
        id="NW-SAIL-35-unknown-weather",
    ),
    pytest.param(
        {"wind_force": "gale", "weather": "clear", "extra": {}},
        "the weather chart (4.; S04, S05) has no clear with a gale; clear comes with calm, light, "
        "moderate, strong (NW-SAIL-35)",
        id="NW-SAIL-35-no-clear-gale-on-the-chart",
    ),
    pytest.param(
        {"wind_force": "gale", "weather": "storm"},
        "weather number 44 is clear with a moderate breeze (4.; S04), not storm with a gale (NW-SAIL-35)",
        id="NW-SAIL-35-pair-not-the-weather-numbers",
    ),
    pytest.param(
        {"wind_force": None, "weather": "fog"},
        "give both the wind force and the weather, or neither (the set-up rolls them: 4.) (NW-SAIL-35)",
        id="NW-SAIL-35-weather-without-wind-force",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_check_state_refuses_a_wind_or_weather_off_the_chart(change: dict[str, JSON], message: str) -> None:
    """Line 55 (4.): the chart's forces are Calm, Light, Moderate, Strong Breeze and Gale; its conditions Fog
    and Mist, Clear, Rain, Gale (S05: the effects table's Storm). An unknown text counted as fair weather."""
    state = _opening()
    bad = replace(state, conditions=replace(state.conditions, **change))  # type: ignore[arg-type]
    assert check_state(bad) == [message]


def test_the_engines_states_pass() -> None:
    """Every pair the weather chart gives passes, as set up from its number (4.; S04)."""
    for number in range(1, 101):
        state = _set_up(
            _ship("f", "a", FRIGATE_GB, 1000.0), _ship("e", "b", FRIGATE_GB, 1500.0), number=number
        )
        assert check_state(state) == [], number


def test_set_up_refuses_an_unknown_wind_force_instead_of_rolling_afresh() -> None:
    """Before NW-SAIL-35 the set-up found no chart band for "Gale" and rolled the weather, saying nothing."""
    st = _battle(
        _ship("f", "a", FRIGATE_GB, 1000.0),
        _ship("e", "b", FRIGATE_GB, 1500.0),
        conditions=Conditions(wind_from=0.0, wind_force="Gale", weather="storm"),
    )
    with pytest.raises(ValueError, match="wind_force 'Gale' is not one of sail_1700's"):
        RS.setup(st, ScriptedDice([50]))
    given = replace(st, conditions=replace(st.conditions, wind_force="gale"))
    state, _ = RS.setup(given, ScriptedDice([]))
    # the middle of the storm-gale band of the best visibility: 92-93 at 1500 mm (4., S04)
    assert (
        state.conditions.weather,
        state.conditions.wind_force,
        state.conditions.extra["weather_number"],
    ) == (
        "storm",
        "gale",
        92,
    )


def test_a_scenario_with_an_unknown_weather_is_refused_and_the_bundled_ones_load() -> None:
    sc = bundled_scenarios("sail_1700")["sail_constitution_vs_guerriere_1812"]
    doc = json.loads(json.dumps(to_json(sc)))
    doc["conditions"]["wind_force"] = "Moderate"
    with pytest.raises(InvalidDocument, match="conditions: wind_force 'Moderate' is not one of sail_1700's"):
        load_scenario(doc)
    for key, scenario in bundled_scenarios().items():
        state, _ = scenario_state(scenario, SeededDice(1))
        assert check_state(state) == [], key


def test_other_rule_sets_keep_free_weather_text() -> None:
    """Only sail_1700 reads the texts; ultra_simple's "north-westerly gale, heavy sea" is for the page."""
    sc = bundled_scenarios("ultra_simple")["bismarck_last_battle_1941"]
    state, _ = scenario_state(sc, SeededDice(1))
    assert state.conditions.weather == "north-westerly gale, heavy sea"
    odd = replace(state, conditions=replace(state.conditions, wind_force="Fresh", weather="squalls"))
    assert check_state(odd) == []
    assert get_ruleset("ultra_simple").condition_label("weather", "squalls") == "squalls"
    assert RS.condition_label("wind_force", "moderate") == "moderate breeze"
    assert RS.condition_label("weather", "fog") == "fog and mist"


@pytest.mark.parametrize(
    ("number", "text"),
    [
        pytest.param(20, "Weather clear, a calm; wind from 0 degrees", id="NW-SAIL-35-calm"),
        pytest.param(30, "Weather clear, a light breeze; wind from 0 degrees", id="NW-SAIL-35-light"),
        pytest.param(44, "Weather clear, a moderate breeze; wind from 0 degrees", id="NW-SAIL-35-moderate"),
        pytest.param(55, "Weather clear, a strong breeze; wind from 0 degrees", id="NW-SAIL-35-strong"),
        pytest.param(99, "Weather storm, a gale; wind from 0 degrees", id="NW-SAIL-35-gale"),
    ],
)
def test_the_set_ups_weather_text_names_the_wind_as_the_chart_does(number: int, text: str) -> None:
    """4.: the weather chart's winds are a calm, a light, moderate or strong breeze, and a gale
    (``WIND_FORCE_LABELS``, NW-SAIL-35); the set-up's text once wrote the key with "breeze" after it ("gale
    breeze", "calm breeze")."""
    _state, events = RS.setup(
        _battle(
            _ship("f", "a", FRIGATE_GB, 1000.0),
            _ship("e", "b", FRIGATE_GB, 1500.0),
            conditions=Conditions(wind_from=0.0, extra={"weather_number": number}),
        ),
        ScriptedDice([]),
    )
    (weather,) = [e.text for e in events if e.kind == "weather"]
    assert weather.startswith(text + "; visibility ")


def test_no_text_of_the_engine_writes_a_force_then_breeze() -> None:
    """Every force of the chart (4.) reads as its label with an article; none reads "<force> breeze"."""
    from rules.rulesets.sail_1700 import core as C

    assert [C.wind_force_text(f) for f in ("calm", "light", "moderate", "strong", "gale")] == [
        "a calm",
        "a light breeze",
        "a moderate breeze",
        "a strong breeze",
        "a gale",
    ]


def test_python_m_rules_refuses_an_unknown_wind_force(tmp_path: Path) -> None:
    state = _opening()
    doc = to_json(replace(state, conditions=replace(state.conditions, wind_force="Gale", weather="storm")))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    code = main(["view", str(path), "--side", "a"], stdout=out, stderr=err)
    assert (code, out.getvalue()) == (2, "")
    assert (
        err.getvalue()
        == f"error: {path}: wind_force 'Gale' is not one of sail_1700's: {KNOWN} (NW-SAIL-35)\n"
    )
    assert from_json(BattleState, to_json(state)) == state


# --- NW-SAIL-36: oars in any weather; NW-SAIL-37: rowing by size --------------------------------------------


@pytest.mark.parametrize(
    ("number", "sail", "row"),
    [
        pytest.param(19, 0.0, 50.0, id="NW-SAIL-36-calm-no-sailing-oars-50"),
        pytest.param(28, 120.0, 50.0, id="NW-SAIL-36-light-breeze-sails-halved-oars-50"),
        pytest.param(44, 240.0, 50.0, id="NW-SAIL-36-moderate-oars-50"),
        pytest.param(99, 120.0, 50.0, id="NW-SAIL-36-storm-gale-sails-halved-oars-50"),
    ],
)
def test_010_oars_are_not_slowed_by_the_weather(number: int, sail: float, row: float) -> None:
    """Line 126 (10.): 'maximum move is 50 mm'; lines 61-70 (5.): 'Calm: No movement', light breeze and
    storm-gale 'speed reduced by half'. NW-SAIL-36: 5. binds sailing; a cutter on the beam sails 240 mm in a
    moderate breeze (6.), none in a calm, and rows 50 mm in every weather."""
    st = _set_up(
        _ship("c", "a", CUTTER_GB, 1000.0, heading=90.0), _ship("e", "b", FRIGATE_GB, 2000.0), number=number
    )
    c = st.ship("c")
    assert S.plan_move(st, c, {}).max_distance == sail
    assert S.plan_move(st, c, {"row": True}).max_distance == row
    assert RS.check_order(st, c, ShipOrder(ship_id="c", data={"row": True})) == {}


def _merchant(mow_points: int, rate: str, vtype: str | None = None) -> dict[str, JSON]:
    stats: dict[str, JSON] = {
        "nation": "Britain",
        "rate": rate,
        "service": "merchant",
        "guns": 4,
        "points": (mow_points + 5) // 10,
        "man_of_war_points": mow_points,
    }
    if vtype:
        stats["type"] = vtype
    return stats


@pytest.mark.parametrize(
    ("stats", "may_row"),
    [
        pytest.param(
            _merchant(280, "5th"), False, id="NW-SAIL-37-merchant-size-of-a-5th-rate-28-points-no-oars"
        ),
        pytest.param(
            _merchant(20, "unrated", "Cutter"), True, id="NW-SAIL-37-merchant-size-of-a-cutter-rows"
        ),
        pytest.param(
            _merchant(100, "unrated", "Brig"), False, id="NW-SAIL-37-merchant-size-of-a-brig-100-no-oars"
        ),
        pytest.param(CUTTER_GB, True, id="NW-SAIL-37-warship-by-her-points-20"),
        pytest.param(FRIGATE_GB, False, id="NW-SAIL-37-warship-by-her-points-280"),
    ],
)
def test_010_rowing_is_by_the_hulls_size(stats: dict[str, JSON], may_row: bool) -> None:
    """Line 126: 'Only vessels of 99 Damage points or less can be rowed'. NW-SAIL-37: a merchantman's or
    transport's size is her comparable man of war's points (NW-SAIL-30), not her 10% crew pool (S41)."""
    assert RS.validate_class(stats) == {}
    st = _set_up(_ship("c", "a", stats, 1000.0, heading=90.0), _ship("e", "b", FRIGATE_GB, 2000.0))
    errors = RS.check_order(st, st.ship("c"), ShipOrder(ship_id="c", data={"row": True}))
    if may_row:
        assert errors == {}
    else:
        size = stats.get("man_of_war_points")
        by_mow = "" if size is None else f" (her comparable man of war's: {size}, NW-SAIL-37)"
        assert errors == {"row": [f"Only vessels of 99 points or less can be rowed (10.){by_mow}."]}
    assert RS.class_summary(stats)["can_row"] is may_row
