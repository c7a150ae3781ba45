"""Helpers of the scenario tests of the rule sets: play a bundled scenario from its historical start with
fixed seeds and default orders only (A7), checking each turn as it goes. Pure Python, like the rules."""

from __future__ import annotations

from rules.dice import SeededDice
from rules.engine import resolve_turn
from rules.model import BattleState
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import from_json, to_json

DEFAULT_POLICIES = ("hold", "fire_nearest", "captain")


def play(
    scenario_key: str, seed: int, turns: int | None = None, *, one_ship_per_hex: str = ""
) -> tuple[BattleState, list[str]]:
    """Play ``scenario_key`` for ``turns`` turns (default: the scenario's length, stopping when it ends) with
    no orders, set-up and turns both rolled with ``SeededDice(seed)``; return the last state and the texts of
    every event. Each state must survive a JSON round trip; with ``one_ship_per_hex`` (the ruling's id, for
    the message) no two ships afloat may share a hex."""
    sc = bundled_scenarios()[scenario_key]
    state, _ = scenario_state(sc, SeededDice(seed))
    dice = SeededDice(seed)
    log: list[str] = []
    for _ in range(turns or sc.turns):
        res = resolve_turn(state, [], dice)
        assert from_json(BattleState, to_json(res.state)) == res.state
        log.extend(e.text for e in res.events)
        state = res.state
        if one_ship_per_hex:
            afloat = [s.position for s in state.ships if s.active]
            assert len(afloat) == len(set(afloat)), f"two ships afloat in one hex ({one_ship_per_hex})"
        if state.finished:
            break
    return state, log


def assert_default_orders_legal(scenario_key: str, seed: int, turns: int = 8) -> None:
    """A7: every default order (hold, fire_nearest, captain) of every active ship is legal under the
    scenario's rule set, turn after turn for ``turns`` turns (or until the battle ends)."""
    sc = bundled_scenarios()[scenario_key]
    rs = get_ruleset(sc.ruleset)
    state, _ = scenario_state(sc, SeededDice(seed))
    dice = SeededDice(seed)
    for _ in range(turns):
        for ship in state.ships:
            if not ship.active:
                continue
            for policy in DEFAULT_POLICIES:
                order = rs.default_order(state, ship, policy)  # type: ignore[arg-type]
                errors = rs.validate_orders(state, ship.side, [order])
                assert errors.ok, (ship.id, policy, order, errors)
        state = resolve_turn(state, [], dice).state
        if state.finished:
            break
