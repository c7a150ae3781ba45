"""The adjudicator's entry points: validate orders, resolve a phase, and views per side.

``resolve_turn(state, orders, dice)`` resolves the current phase of ``state`` (A1: a turn has one
phase in most rule sets, one per side in ``sail_1700``), then advances the phase and turn counters and
checks whether the battle is over.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

from .base import DEFAULT_POLICIES, DefaultPolicy, event_visible
from .dice import Dice
from .gcpause import gc_paused
from .geometry import is_facing, on_hex_map, on_table
from .model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    Hex,
    MapSpec,
    OrderErrors,
    PhaseResult,
    Position,
    ShipOrder,
)
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


SHEET_NUMBER_MAX = 1_000_000
"""The greatest number a ship's sheet may hold (:func:`check_state`; docs/rulings.md NW-CAMP-04)."""


def check_state(state: BattleState) -> list[str]:
    """Return what makes ``state`` one the engine could not have made (empty when none): one message each.

    Checked: the rule set is registered (else :class:`~rules.errors.UnknownRuleset` is raised); ship ids are
    unique and sides known; positions are of the rule set's geometry (hexes or points); an active ship is on
    the map (one off it has withdrawn: NW-US-02, NW-SAIL-12 and the like); headings are finite, from 0 up to
    360 (the engine never makes 360 or more), and one of the hex facings (6 or 12) on a hex map; speeds are
    from 0 to 1,000,000 (as sheet numbers); the stats pass the rule set's class
    schema (:meth:`RuleSet.validate_class`, as the admin's classes and the scenarios' do); every number in a
    sheet is finite, from 0 to :data:`SHEET_NUMBER_MAX` (NW-CAMP-04), and of the rule set's shape
    (:meth:`RuleSet.sheet_errors`, NW-WW2-27); no two active ships share one position
    unless the rule set allows stacking (:attr:`RuleSet.stacking`; NW-CAMP-07: the later ship in the state's
    order is named, with the other's id); no active ship stands on impassable terrain
    (:attr:`RuleSet.impassable_terrain`), the terrain is of the rule set's kinds, on the map and seen by sides
    of the battle (:func:`terrain_problems`) and the conditions are sound (:func:`condition_problems`; all
    NW-CAMP-08), and a condition text the rules read is one of the rule set's choices
    (:meth:`RuleSet.condition_errors`, NW-SAIL-35); an option that lists sides
    (:attr:`RuleSet.option_side_lists`) names sides of the battle (NW-CAMP-10); the turn is 1 or more and the
    phase one of the turn's (A1); a winner is a side of a finished battle. ``python -m rules`` refuses such a
    state, and the umpire's edit of a ship on the site is refused when it would make one.
    """
    rs = get_ruleset(state.ruleset)
    out: list[str] = []
    sides = state.side_keys()
    seen: set[str] = set()
    m = state.map
    classes: dict[int, list[str]] = {}
    afloat_at: dict[Position, str] = {}  # (positions are frozen dataclasses: equal points hash equal)
    for s in state.ships:
        where = f"ship {s.id!r}"
        if s.id in seen:
            out.append(f"two ships with one id: {s.id}")
        seen.add(s.id)
        if s.side not in sides:
            out.append(f"{where}: unknown side {s.side!r}")
        out.extend(placement_problems(where, s.position, s.heading, s.speed, m, on_map=s.status == "active"))
        if s.status == "active" and not rs.stacking:
            other = afloat_at.setdefault(s.position, s.id)
            if other != s.id:
                out.append(shared_position(where, s.position, other))
        stats_errors = classes.get(id(s.stats))
        if stats_errors is None:  # (ships of one class share their stats object when read from a scenario)
            stats_errors = classes[id(s.stats)] = [
                f"{k}: {' '.join(v)}" for k, v in rs.validate_class(s.stats).items()
            ]
        out.extend(f"{where}: stats: {e}" for e in stats_errors)
        bad = bad_sheet_number(s.sheet)
        if bad is not None:
            out.append(f"{where}: sheet {bad[0]} is {bad[1]!r}: a sheet holds numbers from 0 to 1,000,000")
        elif not stats_errors:  # (the sheet's shape against her class: only for stats that pass)
            out.extend(f"{where}: sheet {e}" for e in rs.sheet_errors(state, s))  # NW-WW2-27
    impassable = {t.position for t in state.terrain if t.kind in rs.impassable_terrain}
    for s in state.ships:
        if s.status == "active" and s.position in impassable:
            kinds = sorted({t.kind for t in state.terrain if t.position == s.position})
            out.append(f"ship {s.id!r}: on {' and '.join(kinds)}, where no ship afloat goes (NW-CAMP-08)")
    out.extend(terrain_problems(state, rs.terrain_kinds))
    out.extend(condition_problems(state.conditions))
    out.extend(rs.condition_errors(state.conditions))  # NW-SAIL-35
    for name, errors in rs.option_side_errors(state.options, sides).items():
        out.extend(f"option {name}: {e}" for e in errors)  # NW-CAMP-10
    if state.turn < 1:
        out.append(f"turn must be 1 or more, not {state.turn}")
    if not 0 <= state.phase < len(rs.phase_plan(state)):
        out.append(f"phase must be from 0 to {len(rs.phase_plan(state)) - 1}, not {state.phase}")
    if state.winner is not None:
        if state.winner not in sides:
            out.append(f"winner {state.winner!r} is not a side; sides: {', '.join(sides)}")
        elif not state.finished:
            out.append(f"a winner ({state.winner!r}) is named but the battle is not finished")
    return out


TEXT_MAX = 100
"""The longest condition text (wind force, weather) a state may hold, in characters (NW-CAMP-08)."""


def terrain_problems(state: BattleState, kinds: tuple[str, ...]) -> list[str]:
    """Return what is wrong with the terrain of ``state`` for a rule set of terrain ``kinds``, one message a
    feature (NW-CAMP-08): a kind the rule set does not have, a position of the wrong geometry or off the map,
    a side in ``visible_to`` that is not in the battle."""
    out: list[str] = []
    m = state.map
    sides = state.side_keys()
    hexes = m.geometry.startswith("hex")
    for i, t in enumerate(state.terrain):
        where = f"terrain {i + 1} ({t.kind})"
        if t.kind not in kinds:
            have = f"one of: {', '.join(kinds)}" if kinds else "none: this rule set has no terrain"
            out.append(f"{where}: unknown kind; terrain kinds are {have}")
        pos = t.position
        if hexes != isinstance(pos, Hex):
            out.append(f"{where}: position must be a {'hex {q, r}' if hexes else 'point {x, y}'}")
        elif not (
            on_hex_map(pos, m.width, m.height) if isinstance(pos, Hex) else on_table(pos, m.width, m.height)
        ):
            out.append(f"{where}: off the {m.width:g} x {m.height:g} map")
        unknown = [k for k in t.visible_to or () if k not in sides]
        if unknown:
            out.append(f"{where}: visible_to names no side of the battle: {', '.join(unknown)}")
    return out


def condition_problems(cond: Conditions) -> list[str]:
    """Return what is wrong with a battle's conditions (NW-CAMP-08): a wind direction not from 0 up to 360
    degrees, a visibility below 0 or not finite, a wind force or weather text over :data:`TEXT_MAX`
    characters."""
    out: list[str] = []
    if cond.wind_from is not None and not (math.isfinite(cond.wind_from) and 0 <= cond.wind_from < 360):
        out.append(f"wind_from {cond.wind_from:g} is not from 0 up to 360 degrees (360 is 0)")
    if cond.visibility is not None and not (math.isfinite(cond.visibility) and cond.visibility >= 0):
        out.append(f"visibility {cond.visibility:g} must be 0 or more")
    for name, text in (("wind_force", cond.wind_force), ("weather", cond.weather)):
        if text is not None and len(text) > TEXT_MAX:
            out.append(f"{name} has {len(text)} characters; at most {TEXT_MAX}")
    return out


def shared_position(where: str, position: Position, other: str) -> str:
    """Return the message for a ship ``where`` (``"ship 'kgv'"``) placed at ``position``, the position of
    ship ``other`` (an id), in a rule set without stacking (docs/rulings.md NW-CAMP-07)."""
    what = "hex" if isinstance(position, Hex) else "point"
    return (
        f"{where}: at the position of ship {other!r}; two ships afloat may not share one {what} "
        "(docs/rulings.md NW-CAMP-07)"
    )


def placement_problems(
    where: str, position: Position, heading: float, speed: float, m: MapSpec, *, on_map: bool = True
) -> list[str]:
    """Return what is wrong with a ship ``where`` (``"ship 'kgv'"``) at ``position`` on map ``m``, heading
    ``heading`` (degrees) at ``speed`` (the rule set's unit), one message each (empty when nothing):
    a position of the map's geometry (a hex, or a point in inches or millimetres), on the map when ``on_map``
    (a ship off it has withdrawn: NW-US-02, NW-SAIL-12 and the like), a heading from 0 up to 360 (the engine
    never makes 360 or more) and one of the hex facings (6 or 12) on a hex map, a speed from 0 to
    1,000,000. The checks of a scenario's ships (``rules.scenario``) and of a state's (:func:`check_state`).
    """
    out: list[str] = []
    hexes = m.geometry.startswith("hex")
    facings = 6 if m.geometry == "hex6" else 12
    if hexes != isinstance(position, Hex):
        out.append(
            f"{where}: position must be a {'hex {q, r}' if hexes else 'point {x, y}'} on a {m.geometry} map"
        )
    elif on_map and not (
        on_hex_map(position, m.width, m.height)
        if isinstance(position, Hex)
        else on_table(position, m.width, m.height)
    ):
        at = (
            f"hex ({position.q}, {position.r})"
            if isinstance(position, Hex)
            else f"({position.x:g}, {position.y:g})"
        )
        out.append(f"{where}: {at} is off the {m.width:g} x {m.height:g} map")
    if not math.isfinite(heading) or (hexes and not is_facing(heading, facings)):
        want = f"one of the {facings} hex facings (multiples of {360 // facings} degrees)"
        out.append(f"{where}: heading {heading:g} is not {want if hexes else 'a finite number'}")
    elif not 0 <= heading < 360:
        out.append(f"{where}: heading {heading:g} is not from 0 up to 360 (360 is 0)")
    if not (math.isfinite(speed) and speed >= 0):
        out.append(f"{where}: speed must be 0 or more, not {speed:g}")
    elif speed > SHEET_NUMBER_MAX:
        out.append(f"{where}: speed must be 1,000,000 or less, not {speed:g}")
    return out


def bad_sheet_number(value: JSON, path: str = "") -> tuple[str, JSON] | None:
    """Return (path, value) of the first number in a sheet (or a value of one, under ``path``) outside 0 to
    :data:`SHEET_NUMBER_MAX`, or None (docs/rulings.md NW-CAMP-04). The path joins keys and list indexes with
    dots: ``guns.port``."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, (int, float)):
        return None if 0 <= value <= SHEET_NUMBER_MAX else (path, value)  # (False for NaN)
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for k, v in items:
        bad = bad_sheet_number(v, f"{path}.{k}" if path else str(k))
        if bad is not None:
            return bad
    return None


def complete_orders(
    state: BattleState, orders: Iterable[ShipOrder]
) -> tuple[dict[str, ShipOrder], list[Event]]:
    """Return one legal order per ship that orders this phase, and events for what was filled in.

    A ship with no order, or whose order is invalid or illegal, gets the default order of the
    campaign's policy (A7: ``BattleState.options['default_orders']``), and the log says so.
    An order that stands is returned as the rule book writes it (``RuleSet.canonical_order``: a course
    in capitals, NW-ACW-21, NW-MEM-08).
    """
    rs = get_ruleset(state.ruleset)
    policy = _policy(state)
    given: dict[str, ShipOrder] = {}
    for o in orders:
        given.setdefault(o.ship_id, o)
    out: dict[str, ShipOrder] = {}
    events: list[Event] = []
    # (a rule set with no course fields writes every order as given: no call an order)
    canonical = rs.canonical_order if rs.course_fields else None
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
                    # for_ship would find nothing: the order stands, as the rule book writes it (NW-ACW-21)
                    out[sid] = order if canonical is None else canonical(order)
                    continue
                mine = errors.for_ship(sid)
                if not mine:
                    out[sid] = order if canonical is None else canonical(order)
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
    with gc_paused():  # (rules/gcpause.py: the collector would find nothing to free in a phase)
        return _resolve(state, orders, dice)


def _resolve(
    state: BattleState, orders: Iterable[ShipOrder] | Mapping[str, ShipOrder], dice: Dice
) -> PhaseResult:
    rs = get_ruleset(state.ruleset)
    order_list = list(orders.values()) if isinstance(orders, Mapping) else list(orders)
    start = len(dice.rolls)
    complete, pre_events = complete_orders(state, order_list)
    result = rs.resolve_phase(state, complete, dice)
    new = result.state
    plan = rs.phase_plan(new)
    if new.phase + 1 < len(plan):
        new = new.replace(phase=new.phase + 1)
    else:
        new = new.replace(phase=0, turn=new.turn + 1)
    finished, winner = rs.outcome(new)
    events = tuple(pre_events) + result.events
    if finished and not new.finished:
        new = new.replace(finished=True, winner=winner)
        events += (
            Event(
                kind="battle_over",
                text=(
                    f"The battle is over: {new.side_names().get(winner, winner)} holds the sea."
                    if winner
                    else "The battle is over."
                ),
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
        sides = obj.state.side_keys()
        events = tuple(e for e in obj.events if event_visible(e, side, sides))
        rolls = tuple(r for e in events for r in e.rolls) if side is not None else obj.rolls
        return PhaseResult(state=rs.view_for(obj.state, side), events=events, rolls=rolls)
    return get_ruleset(obj.ruleset).view_for(obj, side)


__all__ = ["DEFAULT_POLICIES", "complete_orders", "resolve_turn", "validate_orders", "view_for"]
