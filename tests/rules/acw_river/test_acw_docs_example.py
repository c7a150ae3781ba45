"""``docs/examples/acw_river/state.json`` is First Memphis's opening state with one Confederate mine laid.

The worked example in ``docs/rules-json.md`` says so; the mine cannot come from ``python -m rules scenario``
(the umpire lays it, A3), so this test checks the file instead of the doc's command.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules.dice import SeededDice
from rules.model import Hex
from rules.rulesets.acw_river import place_mine
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import to_json

ROOT = Path(__file__).resolve().parents[3]


def test_docs_state_is_the_memphis_opening_with_a_secret_mine() -> None:
    """A3: "mines are placed secretly by the side that laid them": the mine at (8,3) is seen by the
    Confederates only."""
    state, _ = scenario_state(bundled_scenarios()["first_memphis_1862"], SeededDice(0))
    state = place_mine(state, feature_id="m1", side="confederate", position=Hex(q=8, r=3))
    doc = json.loads((ROOT / "docs" / "examples" / "acw_river" / "state.json").read_text(encoding="utf-8"))
    assert doc == to_json(state)
    assert doc["terrain"][-1]["visible_to"] == ["confederate"]
