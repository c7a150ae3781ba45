"""The adjudicator's entry points: validate orders, resolve a phase, and views per side.

``resolve_turn(state, orders, dice)`` resolves the current phase of ``state`` (A1: a turn has one
phase in most rule sets, one per side in ``sail_1700``), then advances the phase and turn counters and
checks whether the battle is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from .base import DEFAULT_POLICIES, DefaultPolicy, event_visible
from .dice import Dice
from .model import BattleState, Event, OrderErrors, PhaseResult, ShipOrder
from .registry import get_ruleset


def _policy(state: BattleState) -> DefaultPolicy:
    value = state.options.get("default_orders", "fire_nearest")
    if value == "hold":
        return "hold"
    if value == "captain":
        return "captain"
    return "fire_nearest"


def validate_orders(state: BattleState, side: str, orders: Iterable[ShipOrder]) -> OrderErrors:
    """Return the errors in ``side``'s orders for the current phase, per ship and field.

    *invalid* errors are malformed orders; *illegal* are orders the rules forbid.
    Raise :class:`~rules.errors.UnknownRuleset` if the state's rule set is not registered.
    """
    return get_ruleset(state.ruleset).validate_orders(state, side, list(orders))


def complete_orders(
    state: BattleState, orders: Iterable[ShipOrder]
) -> tuple[dict[str, ShipOrder], list[Event]]:
    """Return one legal order per ship that orders this phase, and events for what was filled in.

    A ship with no order, or whose order is invalid or illegal, gets the default order of the
    campaign's policy (A7: ``BattleState.options['default_orders']``), and the log says so.
    """
    rs = get_ruleset(state.ruleset)
    policy = _policy(state)
    given: dict[str, ShipOrder] = {}
    for o in orders:
        given.setdefault(o.ship_id, o)
    out: dict[str, ShipOrder] = {}
    events: list[Event] = []
    for side in rs.ordering_sides(state):
        ships = rs.orderable_ships(state, side)
        # one call per side: rule sets can share per-phase work across the side's orders
        errors = rs.validate_orders(state, side, [given[s.id] for s in ships if s.id in given])
        invalid, illegal = errors.invalid, errors.illegal
        for ship in ships:
            sid = ship.id
            order = given.get(sid)
            if order is not None:
                if sid not in invalid and sid not in illegal:
                    out[sid] = order  # for_ship would find nothing: the order stands
                    continue
                mine = errors.for_ship(sid)
                if not mine:
                    out[sid] = order
                    continue
                msgs = "; ".join(f"{k}: {' '.join(v)}" for k, v in mine.items())
                events.append(
                    Event(
                        kind="order_rejected",
                        text=f"{ship.name}: order rejected ({msgs}); default orders used.",
                        turn=state.turn,
                        phase=state.phase,
                        ship_id=sid,
                        visible_to=(side,),
                    )
                )
            default = replace(rs.default_order(state, ship, policy), default=True)
            out[sid] = default
            text = (
                f"{ship.name} follows default orders ({policy}) instead."
                if order is not None
                else f"{ship.name} had no orders: default orders ({policy})."
            )
            events.append(
                Event(
                    kind="default_orders",
                    text=text,
                    turn=state.turn,
                    phase=state.phase,
                    ship_id=sid,
                    data={"policy": policy},
                    visible_to=(side,),
                )
            )
    return out, events


def resolve_turn(
    state: BattleState, orders: Iterable[ShipOrder] | Mapping[str, ShipOrder], dice: Dice
) -> PhaseResult:
    """Resolve the current phase of ``state`` with ``orders`` and ``dice``; return the new state and events.

    Orders missing or rejected are replaced by defaults (A7). The returned state has the phase and
    turn counters advanced, and ``finished``/``winner`` set when the battle is over. Every die rolled
    is in ``PhaseResult.rolls``. A finished battle resolves to itself with no events.
    """
    if state.finished:
        return PhaseResult(state=state, events=(), rolls=())
    rs = get_ruleset(state.ruleset)
    order_list = list(orders.values()) if isinstance(orders, Mapping) else list(orders)
    start = len(dice.rolls)
    complete, pre_events = complete_orders(state, order_list)
    result = rs.resolve_phase(state, complete, dice)
    new = result.state
    plan = rs.phase_plan(new)
    if new.phase + 1 < len(plan):
        new = replace(new, phase=new.phase + 1)
    else:
        new = replace(new, phase=0, turn=new.turn + 1)
    finished, winner = rs.outcome(new)
    events = tuple(pre_events) + result.events
    if finished and not new.finished:
        new = replace(new, finished=True, winner=winner)
        events += (
            Event(
                kind="battle_over",
                text=f"The battle is over: {winner} holds the sea." if winner else "The battle is over.",
                turn=state.turn,
                phase=state.phase,
                outcome=winner or "none",
            ),
        )
    return PhaseResult(state=new, events=events, rolls=tuple(dice.rolls[start:]))


def view_for(obj: BattleState | PhaseResult, side: str | None) -> BattleState | PhaseResult:
    """Return what ``side`` may see of a state or a phase result (A2); ``None`` is the umpire.

    For a result, the events are filtered to those the side may see and the rolls to those inside
    them.
    """
    if isinstance(obj, PhaseResult):
        rs = get_ruleset(obj.state.ruleset)
        events = tuple(e for e in obj.events if event_visible(e, side))
        rolls = tuple(r for e in events for r in e.rolls) if side is not None else obj.rolls
        return PhaseResult(state=rs.view_for(obj.state, side), events=events, rolls=rolls)
    return get_ruleset(obj.ruleset).view_for(obj, side)


__all__ = ["DEFAULT_POLICIES", "complete_orders", "resolve_turn", "validate_orders", "view_for"]
