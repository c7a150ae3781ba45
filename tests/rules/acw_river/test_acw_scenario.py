"""First Memphis, 6 June 1862 under ``acw_river``: played from the historical start with fixed seeds."""

from __future__ import annotations

import pytest

from rules.dice import SeededDice
from rules.engine import resolve_turn
from rules.model import BattleState, Hex
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import from_json, to_json

RS = get_ruleset("acw_river")


def play(seed: int, turns: int | None = None) -> tuple[BattleState, list[str]]:
    sc = bundled_scenarios()["first_memphis_1862"]
    state, _ = scenario_state(sc, SeededDice(seed))
    dice = SeededDice(seed)
    log: list[str] = []
    for _ in range(turns or sc.turns):
        res = resolve_turn(state, [], dice)
        assert from_json(BattleState, to_json(res.state)) == res.state
        log.extend(e.text for e in res.events)
        state = res.state
        afloat = [s.position for s in state.ships if s.active]
        assert len(afloat) == len(set(afloat)), "two ships afloat in one hex (NW-ACW-08)"
        if state.finished:
            break
    return state, log


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
    sc = bundled_scenarios()["first_memphis_1862"]
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
