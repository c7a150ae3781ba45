"""NW-CAMP-17: what a campaign ship's sheet at the end of a battle gives her next battle's opening sheet, per
rule set (``RuleSet.sheet_between_battles``, then the rule set's ``setup``): damage and losses carried, the
state of one battle started afresh (the new sheet's value, or the scenario's), derived values worked out
again."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import get_ruleset
from rules.dice import SeededDice
from rules.model import JSON, ShipState
from rules.scenario import bundled_scenarios, scenario_state


def _next_battle(scenario_key: str, ship_id: str, end_sheet: dict[str, JSON]) -> ShipState:
    """Return ``ship_id`` at the start of a battle of ``scenario_key`` after a battle she ended with a sheet
    of the scenario's opening sheet updated with ``end_sheet``."""
    scenario = bundled_scenarios()[scenario_key]
    rs = get_ruleset(scenario.ruleset)
    first, _ = scenario_state(scenario, SeededDice(1))
    ship = next(s for s in first.ships if s.id == ship_id)
    carried = rs.sheet_between_battles({**ship.sheet, **end_sheet})
    ships = tuple(replace(s, sheet={**s.sheet, **carried}) if s.id == ship_id else s for s in scenario.ships)
    second, _ = scenario_state(replace(scenario, ships=ships), SeededDice(2))
    return next(s for s in second.ships if s.id == ship_id)


def _subset(sheet: dict[str, Any], keys: dict[str, Any]) -> dict[str, Any]:
    return {k: sheet[k] for k in keys}


def test_ww2_jackson_carries_damage_and_fixed_conditions_not_the_last_battles_state() -> None:
    damage = {
        "guns_lost": [1],
        "torpedo_lost": [1],
        "loaded": [0, 2],
        "reloads": 0,
        "wrecked_engines": 1,
        "half": 1,
        "preference": "keep_firing",
    }
    battle_only = {
        "last_marks": [{"area": "engine", "index": None}],
        "fires": [{"intensity": 2, "since": 5}],
        "floods": [
            {
                "kind": "critical",
                "per_turn": 1,
                "per_turn_fast": 2,
                "fail": "capsize",
                "fail_on": 1,
                "since": 4,
            }
        ],
        "helm": {"course": 270.0, "speed": 20.0},
        "cleared": False,
        "last_targets": {"main": "bismarck"},
        "fired": True,
        "turned": 90.0,
        "searchlight": "bismarck",
        "star_shell": "prinz_eugen",
        "hits": [{"turn": 2, "by": "bismarck", "calibre": 15.0, "location": "main", "penetrated": True}],
    }
    conditions = {
        "steering": {"since": 1, "until": 2, "fixed": False},  # lasts two turns: over
        "bridge": {"since": 3, "until": None, "fixed": False},  # a recovery roll ends it (W39)
        "radar_out": {"since": 3, "until": None, "fixed": False},  # damage control repairs it (A6)
        "electrical": {"since": 4, "until": 6, "fixed": False},
        "list": {"since": 5, "until": None, "fixed": True},  # for the rest of the game
        "aircraft_wrecked": {"since": 2, "until": None, "fixed": False},  # nothing in a battle ends it
    }
    marked = {"aa": 0, "above": 3, "above_armoured": 1, "underwater": 0, "engine": 3, "damage_control": 1}
    marked["fire_control"] = 0

    hood = _next_battle(
        "denmark_strait_1941",
        "hood",
        {**damage, **battle_only, "conditions": conditions, "marked": marked, "max_speed": 27.0},
    )

    sheet = hood.sheet
    assert _subset(sheet, damage) == damage
    assert sheet["marked"] == marked
    assert _subset(sheet, battle_only) == {
        "last_marks": [],
        "fires": [],
        "floods": [],
        "helm": None,
        "cleared": True,
        "last_targets": {},
        "fired": False,
        "turned": 0.0,
        "searchlight": "",
        "star_shell": "",
        "hits": [],
    }
    assert sheet["conditions"] == {
        "aircraft_wrecked": {"since": 0, "until": None, "fixed": False},
        "list": {"since": 0, "until": None, "fixed": True},
    }
    # max_speed is worked out again from the engine boxes left (3 of 6 marked), and caps her starting speed
    assert sheet["max_speed"] < 27.0
    assert hood.speed == sheet["max_speed"]
    assert not {"fired", "searchlight", "on_fire"} & set(hood.flags)


def test_sail_1700_carries_damage_not_the_last_battles_state() -> None:
    damage = {
        "grade": "poor",
        "points": 180,
        "guns": {"starboard": 12, "port": 9},
        "mast_hits": 1,
        "severe_underwater": True,
        "pumps_destroyed": False,
        "speed_reduction_pct": 75,
        "wheel_hit": True,
        "boats": 1,
        "marines": 20,
        "mortars": 0,
    }
    battle_only = {
        "damage_scored": 120,
        "broadsides": {
            "starboard": {"ready_turn": 9, "shot": "double"},
            "port": {"ready_turn": 8, "shot": "double"},
        },
        "fired_once": True,
        "fires": [2],
        "fires_out_of_control": 1,
        "abandon_next": True,
        "no_signals_moves": 2,
        "no_turn_moves": 1,
        "sails": "furled",
        "make_sail_left": 2,
        "anchored": True,
        "anchor_raise_left": 1,
        "drift_moves": 3,
        "aground": True,
        "refloat_next": True,
        "entangled_with": "guerriere",
        "entangle_heading": 90.0,
        "entangle_distance": 30,
        "entangle_still": True,
        "melee": {"attacker": "constitution", "defender": "guerriere", "deck": 1},
        "towing": "guerriere",
        "towed_by": None,
        "tow_target": "guerriere",
        "tow_secure_left": 1,
        "mortar_ready_turn": 7,
        "mortar_ranged_on": "guerriere",
    }

    ship = _next_battle("sail_constitution_vs_guerriere_1812", "constitution", {**damage, **battle_only})

    assert _subset(ship.sheet, damage) == damage
    assert _subset(ship.sheet, battle_only) == {
        "damage_scored": 0,
        "broadsides": {
            "starboard": {"ready_turn": 1, "shot": "round"},
            "port": {"ready_turn": 1, "shot": "round"},
        },
        "fired_once": False,
        "fires": [],
        "fires_out_of_control": 0,
        "abandon_next": False,
        "no_signals_moves": 0,
        "no_turn_moves": 0,
        "sails": "set",
        "make_sail_left": 0,
        "anchored": False,
        "anchor_raise_left": 0,
        "drift_moves": 0,
        "aground": False,
        "refloat_next": False,
        "entangled_with": None,
        "entangle_heading": 0.0,
        "entangle_distance": 0,
        "entangle_still": False,
        "melee": None,
        "towing": None,
        "towed_by": None,
        "tow_target": None,
        "tow_secure_left": 0,
        "mortar_ready_turn": 1,
        "mortar_ranged_on": None,
    }
    assert not {"on_fire", "anchored", "aground", "entangled", "boarding", "towing"} & set(ship.flags)


def test_sail_1700_at_anchor_in_the_scenario_is_at_anchor_in_the_rematch() -> None:
    ship = _next_battle("sail_nile_1798_van_action", "guerrier", {"anchored": False, "sails": "set"})

    assert (ship.sheet["anchored"], ship.sheet["sails"]) == (True, "furled")


def test_acw_river_carries_damage_and_starts_the_scenarios_way() -> None:
    damage = {"lost": 5, "speed_forward": 1, "speed_back": 1, "troops": 0}
    end = {"astern": False, "aground": True, "aground_turn": 4, "embedded_in": "cairo", "struck_turn": 5}

    ship = _next_battle("first_memphis_1862", "benton", {**damage, **end})

    assert _subset(ship.sheet, damage) == damage
    # the scenario has her astern (first_memphis_1862); the last battle's state does not override it
    assert _subset(ship.sheet, end) == {
        "astern": True,
        "aground": False,
        "aground_turn": None,
        "embedded_in": None,
        "struck_turn": None,
    }
    assert "aground" not in ship.flags


def test_memoir_sea_carries_damage_and_gives_four_torpedoes_a_battle() -> None:
    scenario = bundled_scenarios()["santiago_de_cuba_1898"]
    first, _ = scenario_state(scenario, SeededDice(1))
    fitted = next(s for s in first.ships if s.sheet["torpedoes_left"] > 0)
    flotation, cp = fitted.sheet["flotation"], fitted.sheet["critical_point"]
    assert isinstance(flotation, int) and isinstance(cp, int)

    crippled = _next_battle(
        scenario.key, fitted.id, {"damage": flotation - cp, "torpedoes_left": 0, "breaking_off": True}
    )
    repaired = _next_battle(scenario.key, fitted.id, {"damage": 1, "torpedoes_left": 0, "breaking_off": True})

    assert (crippled.sheet["damage"], crippled.sheet["torpedoes_left"]) == (
        flotation - cp,
        fitted.sheet["torpedoes_left"],
    )
    # at her Critical Point she breaks off from the start; repaired above it, she does not (M07)
    assert (crippled.sheet["breaking_off"], "breaking_off" in crippled.flags) == (True, True)
    assert (repaired.sheet["breaking_off"], "breaking_off" in repaired.flags) == (False, False)


def test_ultra_simple_has_no_battle_only_state() -> None:
    ship = _next_battle("bismarck_last_battle_1941", "kgv", {"damage": 3})

    assert ship.sheet["damage"] == 3
    assert get_ruleset("ultra_simple").battle_only_sheet_keys == ()
