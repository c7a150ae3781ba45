"""Scenario files: one JSON format for a battle set-up; bundled scenarios; malformed files are refused."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules import SeededDice, to_json
from rules.errors import InvalidDocument, UnknownRuleset
from rules.scenario import Scenario, bundled_scenarios, load_scenario, scenario_state

KEY = "bismarck_last_battle_1941"


def doc() -> Any:
    return copy.deepcopy(to_json(bundled_scenarios()[KEY]))


def test_bundled_scenarios_by_rule_set() -> None:
    every = bundled_scenarios()
    assert KEY in every
    assert list(bundled_scenarios("ultra_simple")) == [
        k for k, sc in every.items() if sc.ruleset == "ultra_simple"
    ]
    assert bundled_scenarios("no_such_rules") == {}
    for sc in every.values():
        assert sc.sources and all(c.source for c in sc.classes), f"{sc.key}: every class names its source"


def test_a_scenario_loads_from_text_or_values() -> None:
    assert load_scenario(json.dumps(doc())) == load_scenario(doc()) == bundled_scenarios()[KEY]


def test_the_opening_state() -> None:
    sc = bundled_scenarios()[KEY]
    state, events = scenario_state(sc, SeededDice(0))
    assert (state.ruleset, state.turn, state.phase) == ("ultra_simple", 1, 0)
    assert [s.id for s in state.ships] == ["kgv", "rodney", "bismarck"]
    assert state.ship("rodney").class_name == "Nelson"
    assert state.options == {"belt_armour": False, "default_orders": "captain"}
    assert events == ()


def test_the_opening_state_does_not_share_data_with_the_scenario() -> None:
    sc = bundled_scenarios()[KEY]
    state, _ = scenario_state(sc, SeededDice(0))
    guns = state.ship("kgv").stats["guns"]
    assert isinstance(guns, list)
    guns.clear()  # a rule set must never do this; if one did, the bundled scenario stays whole
    assert bundled_scenarios()[KEY].classes[1].stats["guns"] != []


def _set(d: Any, path: str, value: Any) -> Any:
    keys = path.split(".")
    target = d
    for k in keys[:-1]:
        target = target[int(k)] if k.isdigit() else target[k]
    last = keys[-1]
    target[int(last) if last.isdigit() else last] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        pytest.param("ships.0.class_key", "hood", "ship 'kgv': unknown class 'hood'", id="unknown-class"),
        pytest.param("ships.0.side", "france", "ship 'kgv': unknown side 'france'", id="unknown-side"),
        pytest.param("ships.1.id", "kgv", "duplicate ship keys: kgv", id="duplicate-ship"),
        pytest.param(
            "map.geometry",
            "table_in",
            "map geometry 'table_in' is not ultra_simple's geometry 'hex12'",
            id="wrong-geometry",
        ),
        pytest.param(
            "ships.0.position",
            {"x": 1.0, "y": 2.0},
            "ship 'kgv': position must be a hex",
            id="point-on-a-hex-map",
        ),
        pytest.param(
            "classes.0.stats.tonnage",
            -5,
            "class 'bismarck': tonnage: Must be at least 500 tons.",
            id="class-stats",
        ),
        pytest.param("ships.0.heading", "north", r"$.ships[0].heading: expected a number", id="bad-type"),
        pytest.param("ships.0.speed", -1, "ship 'kgv': speed must be 0 or more, not -1", id="negative-speed"),
        pytest.param(
            "ships.0.position", {"q": 500, "r": 0}, "ship 'kgv': hex (500, 0) is off the ", id="off-the-map"
        ),
        pytest.param("turns", 0, "turns must be at least 1, not 0", id="no-turns"),
        pytest.param(
            "ships.1.position",
            {"q": 10, "r": 3},  # kgv's
            "ship 'rodney': at the position of ship 'kgv'; two ships afloat may not share one hex "
            "(docs/rulings.md NW-CAMP-07)",
            id="two-ships-in-one-hex",
        ),
        pytest.param(
            "ships.0.heading",
            45,
            "ship 'kgv': heading 45 is not one of the 12 hex facings (multiples of 30 degrees)",
            id="between-hex-facings",
        ),
        pytest.param("ships.0.speed", 10**400, r"$.ships[0].speed: expected a number", id="400-digit-speed"),
        pytest.param(
            "ships.0.heading",
            360,
            "ship 'kgv': heading 360 is not from 0 up to 360 (360 is 0)",
            id="heading-360",
        ),
        pytest.param(
            "ships.0.speed", 2_000_000, "ship 'kgv': speed must be 1,000,000 or less", id="huge-speed"
        ),
    ],
)
def test_a_malformed_scenario_is_refused(path: str, value: Any, message: str) -> None:
    with pytest.raises(InvalidDocument) as exc:
        load_scenario(_set(doc(), path, value))
    assert message in str(exc.value)


def test_bad_json_and_unknown_rule_set() -> None:
    with pytest.raises(InvalidDocument, match="not valid JSON"):
        load_scenario("{")
    with pytest.raises(UnknownRuleset):
        load_scenario(_set(doc(), "ruleset", "ww3"))


def test_the_scenario_type_is_the_json_format() -> None:
    assert Scenario.__dataclass_fields__.keys() >= {
        "ruleset",
        "key",
        "name",
        "map",
        "sides",
        "classes",
        "ships",
        "conditions",
        "terrain",
        "options",
        "turns",
    }
