"""Santiago de Cuba, 3 July 1898 under ``memoir_sea``: played from the historical start with fixed seeds."""

from __future__ import annotations

import pytest

from rules.dice import SeededDice
from rules.model import BattleState, Hex
from rules.scenario import bundled_scenarios, scenario_state
from tests.rules import scenario_play


def play(seed: int, turns: int | None = None) -> tuple[BattleState, list[str]]:
    return scenario_play.play("santiago_de_cuba_1898", seed, turns, one_ship_per_hex="NW-MEM-04")


def test_santiago_opening_state() -> None:
    """Scenario 11: the Spanish column in the channel heading out; the US semicircle 4-8 hexes off."""
    sc = bundled_scenarios()["santiago_de_cuba_1898"]
    state, _ = scenario_state(sc, SeededDice(1))
    teresa = state.ship("teresa")
    assert teresa.heading == 180 and teresa.sheet["flotation"] == 14 and teresa.sheet["critical_point"] == 5
    iowa = state.ship("iowa")
    assert iowa.stats["gun_dice"] == 8 and iowa.sheet["torpedoes_left"] == 4
    assert isinstance(teresa.position, Hex)
    assert {s.side for s in state.ships} == {"spain", "usa"} and len(state.ships) == 12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_santiago_plays_and_replays(seed: int) -> None:
    """A fixed seed plays the whole scenario without error, and the same seed gives the same battle."""
    a, log_a = play(seed)
    b, log_b = play(seed)
    assert a == b and log_a == log_b
    assert a.turn > 1


def test_santiago_default_orders_always_legal() -> None:
    """A7: every default order (hold, fire_nearest, captain) is legal, turn after turn."""
    scenario_play.assert_default_orders_legal("santiago_de_cuba_1898", seed=5)
