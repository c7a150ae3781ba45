"""NW-SAIL-40: ``Sail1700.sheet_errors`` (``sheetcheck.sheet_problems``) refuses a sheet the engine could not
have written, and passes the shapes it writes. What the ship edit on the site cannot reach (its own check
keeps an entry's kind: a number for a number) is tested here, as ``python -m rules`` would be given it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import BattleState, SeededDice, check_state
from rules.model import Point, TerrainFeature
from rules.registry import get_ruleset
from rules.rulesets.sail_1700.sheetcheck import sheet_problems
from rules.scenario import bundled_scenarios, scenario_state

RS = get_ruleset("sail_1700")
SHIPS = {"constitution": "4th", "guerriere": "5th"}
"""The ships of the Constitution scenario, by id, with their rates."""


def _opening(key: str = "sail_constitution_vs_guerriere_1812") -> BattleState:
    return scenario_state(bundled_scenarios()[key], SeededDice(7))[0]


def _with(state: BattleState, ship_id: str, **sheet: Any) -> BattleState:
    s = state.ship(ship_id)
    return state.with_ships({ship_id: replace(s, sheet={**s.sheet, **sheet})})


@pytest.mark.parametrize("key", ["sail_constitution_vs_guerriere_1812", "sail_nile_1798_van_action"])
def test_a_new_sheet_has_no_problem(key: str) -> None:
    state = _opening(key)
    assert all(RS.sheet_errors(state, s) == [] for s in state.ships)


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        pytest.param({"dismasted": 1}, "dismasted must be true or false", id="flag-as-number"),
        pytest.param({"points": "400"}, "points must be a whole number, 0 or more", id="points-as-text"),
        pytest.param({"shot": "chain"}, "shot must be one of: round, double (11.)", id="preset-shot"),
        pytest.param(
            {"sink_reason": 3},
            "sink_reason must be text (why she sinks, as the log says it)",
            id="sink-reason",
        ),
        pytest.param(
            {"guns": {"starboard": 27, "port": "27"}},
            "guns must give the guns left on each side: starboard and port (whole numbers)",
            id="guns-text",
        ),
        pytest.param(
            {"fires": [True]},
            "fires must be a list of the attempts made to put out each fire, 0 to 3 (14., S27)",
            id="fire-true",
        ),
        pytest.param(
            {"melee": {}},
            "melee must be null or an attacker and a defender (ships of the battle) and a deck "
            "(whole number)",
            id="melee-empty",
        ),
        pytest.param(
            {"melee": {"attacker": "constitution", "defender": "guerriere", "deck": 0}},
            "melee: deck must be from 1 to 2 (the defender's decks: 15., S30), not 0",
            id="melee-deck-0",
        ),
        pytest.param(
            {"mortar_ranged_on": "constitution"},
            "mortar_ranged_on must be a ship or shore battery of the battle, or null (23.)",
            id="mortar-on-herself",
        ),
    ],
)
def test_a_sheet_the_engine_could_not_have_written_is_named(sheet: dict[str, Any], message: str) -> None:
    assert sheet_problems(sheet, "constitution", SHIPS) == [message]


@pytest.mark.parametrize(
    "sheet",
    [
        pytest.param({"mortar_ranged_on": "fort"}, id="mortar-on-a-battery"),
        pytest.param({"captured_by": "java"}, id="captor-of-an-earlier-battle"),  # carried: NW-CAMP-17
        pytest.param({"entangle_heading": 360.0}, id="heading-rounded-to-360"),
        pytest.param({"sink_in": 0, "sink_reason": ""}, id="sunk"),
        pytest.param({"melee": {"attacker": "constitution", "defender": "guerriere", "deck": 2}}, id="melee"),
        pytest.param({"tow_target": "", "towed_by": None}, id="no-tow"),
    ],
)
def test_the_engines_own_shapes_pass(sheet: dict[str, Any]) -> None:
    assert sheet_problems(sheet, "constitution", SHIPS, {"fort"}) == []


def test_check_state_names_the_ship_and_a_battery_of_the_battle_may_be_ranged_on() -> None:
    """The messages come through ``rules.check_state`` (``python -m rules``) prefixed with the ship; a shore
    battery's id is read from the terrain (23.: ``mortar_ranged_on`` of a shell that hit it)."""
    state = _with(_opening(), "constitution", grade="nonsense", mortar_ranged_on="fort")
    assert check_state(state) == [
        "ship 'constitution': sheet grade must be one of: good, average, poor (8.)",
        "ship 'constitution': sheet mortar_ranged_on must be a ship or shore battery of the battle, "
        "or null (23.)",
    ]

    fort = TerrainFeature(kind="battery", position=Point(x=100, y=100), props={"id": "fort", "guns": 4})
    state = _with(replace(_opening(), terrain=(fort,)), "constitution", mortar_ranged_on="fort")
    assert RS.sheet_errors(state, state.ship("constitution")) == []
