"""First Memphis, 6 June 1862 under ``acw_river``: played from the historical start with fixed seeds."""

from __future__ import annotations

import pytest

from rules.dice import SeededDice
from rules.model import BattleState, Hex
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state
from tests.rules import scenario_play

RS = get_ruleset("acw_river")


def play(seed: int, turns: int | None = None) -> tuple[BattleState, list[str]]:
    return scenario_play.play("first_memphis_1862", seed, turns, one_ship_per_hex="NW-ACW-08")


def test_memphis_opening_state() -> None:
    """Scenario 08: five ironclads in line abreast dropping down stern-first, Ellet's two rams behind them,
    eight River Defense rams in a double line 6 hexes below."""
    sc = bundled_scenarios()["first_memphis_1862"]
    state, _ = scenario_state(sc, SeededDice(1))
    benton = state.ship("benton")
    assert benton.sheet["astern"] is True and benton.heading == 0 and "astern" in benton.flags
    assert (benton.sheet["resistance"], benton.stats["protection"]) == (24, "ironclad")
    queen = state.ship("queen_of_the_west")
    assert queen.stats["ram"] is True and queen.heading == 180 and queen.sheet["resistance"] == 18
    assert sum(1 for s in state.ships if s.side == "confederate") == 8
    assert sum(1 for s in state.ships if s.side == "union") == 7
    assert isinstance(benton.position, Hex)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_memphis_plays_and_replays(seed: int) -> None:
    """A fixed seed plays the whole scenario without error, and the same seed gives the same battle."""
    a, log_a = play(seed)
    b, log_b = play(seed)
    assert a == b and log_a == log_b
    assert a.turn > 1


def test_memphis_default_orders_always_legal() -> None:
    """A7: every default order (hold, fire_nearest, captain) is legal, turn after turn."""
    scenario_play.assert_default_orders_legal("first_memphis_1862", seed=5)


def test_memphis_ironclads_drop_down_stern_first() -> None:
    """Scenario 08: the ironclads "kept under way with bows upstream, dropping down stern-first with the
    current". With the River Defense Fleet 6 hexes astern of them, the automatic captain (A7) keeps the
    engines astern and backs one hex towards it (Speed Back 1), the rear guns bearing."""
    sc = bundled_scenarios()["first_memphis_1862"]
    state, _ = scenario_state(sc, SeededDice(1))
    for sid in ("benton", "louisville", "carondelet", "st_louis", "cairo"):
        order = RS.default_order(state, state.ship(sid), "captain")
        assert (order.data["course"], order.data["astern"]) == ("F", True), sid
        assert "fire_rear" in order.data, sid
