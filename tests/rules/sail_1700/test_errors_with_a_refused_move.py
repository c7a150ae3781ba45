"""A move the rules refuse no longer hides what is wrong with the targets (docs/rulings.md NW-CAMP-30): the
fire plan needs the move's track, so a broadside's bearing and range still wait for a legal move, but a target
that is none wherever she sails (unknown, her own side's, struck, unseen: ``Sail1700.target_of``) is said
with the move's error, at its field."""

from __future__ import annotations

import pytest

from rules import SeededDice
from rules.model import JSON, ShipOrder
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state

RS = get_ruleset("sail_1700")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            {"turn": 0, "speed": 290, "target": "nosuch"},
            {
                "speed": ["At most 120 mm this move (6., 7.)."],
                "target": ["No ship or battery 'nosuch' in this battle."],
            },
            id="too-far-and-unknown-target",
        ),
        pytest.param(
            {"turn": 0, "speed": 290, "target": "constitution"},
            {"speed": ["At most 120 mm this move (6., 7.)."]},
            id="too-far-and-a-target-that-waits-for-the-move",
        ),
    ],
)
def test_a_refused_move_and_a_target_that_is_none_are_both_said(
    data: dict[str, JSON], expected: dict[str, list[str]]
) -> None:
    state, _ = scenario_state(bundled_scenarios()["sail_constitution_vs_guerriere_1812"], SeededDice(1))
    assert RS.ordering_sides(state) == ("britain",)

    errors = RS.validate_orders(state, "britain", [ShipOrder(ship_id="guerriere", data=data)])

    assert errors.invalid == {}
    assert errors.illegal == {"guerriere": expected}
