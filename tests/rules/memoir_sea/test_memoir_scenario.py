"""Santiago de Cuba, 3 July 1898 under ``memoir_sea``: played from the historical start with fixed seeds."""

from __future__ import annotations

import pytest

from rules.dice import SeededDice
from rules.engine import resolve_turn
from rules.model import BattleState, Hex
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import from_json, to_json

RS = get_ruleset("memoir_sea")


def play(seed: int, turns: int | None = None) -> tuple[BattleState, list[str]]:
    sc = bundled_scenarios()["santiago_de_cuba_1898"]
    state, _ = scenario_state(sc, SeededDice(seed))
    dice = SeededDice(seed)
    log: list[str] = []
    for _ in range(turns or sc.turns):
        res = resolve_turn(state, [], dice)
        assert from_json(BattleState, to_json(res.state)) == res.state
        log.extend(e.text for e in res.events)
        state = res.state
        afloat = [s.position for s in state.ships if s.active]
        assert len(afloat) == len(set(afloat)), "two ships afloat in one hex (NW-MEM-04)"
        if state.finished:
            break
    return state, log


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
    sc = bundled_scenarios()["santiago_de_cuba_1898"]
    state, _ = scenario_state(sc, SeededDice(5))
    dice = SeededDice(5)
    for _ in range(8):
        for ship in state.ships:
            if not ship.active:
                continue
            for policy in ("hold", "fire_nearest", "captain"):
                order = RS.default_order(state, ship, policy)  # type: ignore[arg-type]
                errors = RS.validate_orders(state, ship.side, [order])
                assert errors.ok, (ship.id, policy, order, errors)
        state = resolve_turn(state, [], dice).state
        if state.finished:
            break
