"""The JSON command line: ``python -m rules <command>``. Documented in ``docs/rules-json.md``.

Commands::

    list                                   the registered rule sets and their bundled scenarios
    describe KEY                           a rule set's metadata (geometry, dice, order types, class schema)
    tables KEY                             every chart of a rule set, as JSON, exactly as the engine uses it
    scenario KEY_OR_FILE [--seed N]        the opening state of a scenario (after its set-up rolls), as JSON
    resolve STATE ORDERS [--seed N | --dice 4,6,1]   resolve the current phase: state, events, rolls, seed
    validate STATE ORDERS [--side S]       the orders' errors per ship and field, invalid vs illegal
    view --side S STATE                    what one side may see of a state or a resolve output (A2)
    simulate SCENARIO --runs N --turns T   play a battle N times with the automatic captain (A7) on every ship

JSON goes to stdout. A bad document, an unknown rule set or scenario, or scripted dice that run out print
``error: ...`` on stderr and exit with status 2; ``validate`` exits 1 when the orders have errors. This is the
one module of :mod:`rules` allowed to use ``secrets`` (for a fresh seed, A8) and ``os`` (to count CPUs).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import secrets
import signal
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

from .base import DEFAULT_POLICIES, DefaultPolicy
from .dice import Dice, ScriptedDice, SeededDice
from .engine import check_state, resolve_turn, validate_orders, view_for
from .errors import RulesError
from .model import BattleState, FieldErrors, OrderErrors, PhaseResult, ShipOrder
from .registry import all_rulesets, get_ruleset
from .scenario import Scenario, bundled_scenarios, load_scenario, scenario_state
from .serial import from_json, to_json

SEED_BITS = 31
"""Fresh seeds are drawn from ``secrets`` below 2**31: short enough to read out, type and store."""

STATUSES: tuple[str, ...] = ("sunk", "struck", "captured", "withdrawn", "active")


class CliError(Exception):
    """A user error: printed as ``error: <message>`` on stderr, exit status 2."""


# --- reading documents --------------------------------------------------------------------------


def read_json(path: str) -> Any:
    """Return the JSON document in file ``path`` (``-``: stdin). Raise :class:`CliError` if unreadable, and
    for a number a float cannot hold (``1e999``) or ``NaN`` / ``Infinity``, naming where it is."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not UTF-8 text: {exc}") from exc
    not_finite: list[str] = []
    try:
        number, constant = partial(_finite_number, not_finite), partial(_no_constant, not_finite)
        doc = json.loads(text, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path}: not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise CliError(f"{path}: not valid JSON: nested too deeply") from exc
    except ValueError as exc:  # (JSONDecodeError is one too, caught above) a number of over 4,300 digits
        raise CliError(f"{path}: a number too long to read: {exc}") from exc
    if not_finite:  # (else the engine's checks said "inf is not a JSON number" or "expected a number")
        where, literal = _first_not_finite(doc, "$") or ("$", not_finite[0])
        if literal in ("NaN", "Infinity", "-Infinity"):
            raise CliError(f"{path}: {where}: {literal} is not a JSON number")
        too_large = "is too large: not finite (a float holds up to 1.8e308)"
        raise CliError(f"{path}: {where}: the number {literal} {too_large}")
    return doc


class _NotFinite(str):
    """The text of a number literal a float cannot hold (``1e999``), or of ``NaN`` / ``Infinity``, kept where
    :func:`read_json` parsed it so that it can say where it was."""


def _finite_number(seen: list[str], text: str) -> float | _NotFinite:
    """Return the float of a JSON number literal; its text as :class:`_NotFinite` (noted in ``seen``) when
    Python would read it as infinity: ``json.loads`` makes ``inf`` of ``1e999``, which is no JSON number."""
    value = float(text)
    if math.isfinite(value):
        return value
    seen.append(text)
    return _NotFinite(text)


def _no_constant(seen: list[str], text: str) -> _NotFinite:
    """Return ``NaN``, ``Infinity`` or ``-Infinity`` as :class:`_NotFinite` (noted in ``seen``): JavaScript's,
    not JSON's, which ``json.loads`` takes by default."""
    seen.append(text)
    return _NotFinite(text)


def _first_not_finite(doc: Any, where: str) -> tuple[str, str] | None:
    """Return the path (``$.ships[0].speed``) and text of the first :class:`_NotFinite` in ``doc``; None if
    there is none."""
    if isinstance(doc, _NotFinite):
        return where, str(doc)
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        found = _first_not_finite(value, f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}")
        if found is not None:
            return found
    return None


VIEW_KEY = "view_for_side"
"""The key ``view`` (and ``resolve --side``) adds to what it prints: the side whose view it is (A2). A view
lacks what that side may not see (enemy sheets, ships out of sight, hidden terrain), so it is refused where
the whole state is needed."""


def parse_state(doc: Any, where: str) -> BattleState:
    """Return the battle state in ``doc``: a state, or the output of ``resolve`` / ``scenario --events``.

    Check that its rule set is registered and that it is a state the engine could have made
    (:func:`rules.engine.check_state`: ships on the map, headings, stats by the class schema, sheets...).
    Raise :class:`CliError` for a side's view (:data:`VIEW_KEY`): its hidden values would silently read as
    defaults.
    """
    if isinstance(doc, dict) and "state" in doc and "ruleset" not in doc:
        refuse_view(doc, where)
        doc = doc["state"]
    refuse_view(doc, where)
    try:
        state = from_json(BattleState, doc)
    except RulesError as exc:
        raise CliError(f"{where}: not a battle state: {exc}") from exc
    problems = check_state(state)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CliError(f"{where}: {problems[0]}{more}")
    return state


def refuse_view(doc: Any, where: str) -> None:
    """Raise :class:`CliError` if ``doc`` is marked as one side's view (:data:`VIEW_KEY`)."""
    if isinstance(doc, dict) and VIEW_KEY in doc:  # (a marker of null or "" counts: only a view has the key)
        side = doc[VIEW_KEY]
        raise CliError(
            f"{where}: this is what side {side!r} may see (the output of view or resolve --side), not the "
            "whole battle; use the umpire's state (a resolve output without --side)"
        )


def parse_orders(doc: Any, where: str) -> list[ShipOrder]:
    """Return the orders in ``doc``, in one of three shapes.

    - a list of orders: ``[{"ship_id": "kgv", "data": {"hexes": 2, "target": "bismarck"}}, ...]``;
    - ``{"orders": [...]}`` with such a list;
    - an object of payloads keyed by ship id: ``{"kgv": {"hexes": 2, "target": "bismarck"}, ...}``.

    Raise :class:`CliError` for anything else, and for a battle state or a resolve output in their place.
    """
    if isinstance(doc, dict) and set(doc) == {"orders"} and isinstance(doc["orders"], list):
        doc = doc["orders"]
    if isinstance(doc, dict) and ({"ruleset", "ships"} <= doc.keys() or {"state", "events"} <= doc.keys()):
        # the state given twice, or the files swapped: its keys read as ship ids with malformed orders
        raise CliError(
            f"{where}: this is a battle state (or a resolve output), not orders; give the state first and "
            "the orders second: STATE.json ORDERS.json"
        )
    if isinstance(doc, list):
        try:
            return [from_json(ShipOrder, o, f"$[{i}]") for i, o in enumerate(doc)]
        except RulesError as exc:
            raise CliError(f"{where}: not a list of orders: {exc}") from exc
    if isinstance(doc, dict):
        orders = []
        for ship_id, data in doc.items():
            if not isinstance(data, dict):
                raise CliError(f"{where}: the orders of {ship_id!r} must be an object")
            try:
                orders.append(from_json(ShipOrder, {"ship_id": ship_id, "data": data}, f"$.{ship_id}"))
            except RulesError as exc:
                raise CliError(f"{where}: {exc}") from exc
        return orders
    raise CliError(f"{where}: orders must be a list of orders or an object keyed by ship id")


def find_scenario(name: str) -> Scenario:
    """Return a scenario from a file path, a bundled scenario key, or a rule set key (its first scenario)."""
    path = Path(name)
    if path.suffix == ".json" or path.is_file():
        doc = read_json(name)
        try:
            return load_scenario(doc)
        except RulesError as exc:
            raise CliError(f"{name}: not a valid scenario: {exc}") from exc
    bundled = bundled_scenarios()
    if name in bundled:
        return bundled[name]
    for sc in bundled.values():
        if sc.ruleset == name:
            return sc
    raise CliError(f"no scenario file or bundled scenario {name!r}; bundled: {', '.join(sorted(bundled))}")


def parse_dice(text: str) -> list[int]:
    """Return the values of ``--dice 4,6,1`` (commas or spaces; an empty item, ``4,,6``, is an error)."""
    items = [v.strip() for v in text.split(",")]
    values: list[int] = []
    try:
        for item in items:
            if not item:
                raise ValueError(item)
            values.extend(int(v) for v in item.split())
    except ValueError as exc:
        raise CliError(f"--dice: whole numbers separated by commas, not {text!r}") from exc
    return values


def check_side(state: BattleState, side: str | None) -> None:
    """Raise :class:`CliError` unless ``side`` is None or one of the state's sides."""
    if side is not None and side not in state.side_keys():
        raise CliError(f"unknown side {side!r}; sides: {', '.join(state.side_keys())}")


# --- output --------------------------------------------------------------------------------------


class Output:
    """Where a command writes: stdout for JSON and tables, stderr for notes."""

    def __init__(self, out: TextIO, err: TextIO, compact: bool = False) -> None:
        self.out = out
        self.err = err
        self.compact = compact

    def json(self, value: Any) -> None:
        """Write ``value`` as JSON (indented unless --compact) and a newline."""
        if self.compact:
            self.out.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")
        else:
            self.out.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")

    def line(self, text: str = "") -> None:
        """Write a line of text to stdout."""
        self.out.write(text + "\n")

    def note(self, text: str) -> None:
        """Write a note to stderr."""
        self.err.write(text + "\n")


def result_json(result: PhaseResult, seed: int | None) -> dict[str, Any]:
    """Return a phase result as ``resolve`` prints it: seed, state, events and rolls."""
    return {
        "seed": seed,
        "state": to_json(result.state),
        "events": to_json(result.events),
        "rolls": to_json(result.rolls),
    }


def view_json(result: PhaseResult, seed: int | None, side: str) -> dict[str, Any]:
    """Return what ``side`` may see of a phase result (already filtered, :func:`view_for`) as printed: marked
    as that side's view (:data:`VIEW_KEY`), and so is its state, which a user may take out of it. The seed is
    null unless the battle is over (docs/rulings.md NW-CAMP-03: with it, the side could roll the phase's dice
    again, those it may not see too)."""
    doc = result_json(result, seed if result.state.finished else None)
    doc["state"][VIEW_KEY] = side
    doc[VIEW_KEY] = side
    return doc


# --- commands ------------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, io: Output) -> int:
    """List the registered rule sets and their bundled scenarios."""
    scenarios = bundled_scenarios()
    rows = []
    for rs in all_rulesets():
        keys = [k for k, sc in scenarios.items() if sc.ruleset == rs.key]
        rows.append(
            {
                "key": rs.key,
                "title": rs.title,
                "version": rs.version,
                "geometry": rs.geometry,
                "dice": list(rs.dice),
                "scenarios": keys,
            }
        )
    if args.json:
        io.json(rows)
        return 0
    width = max([len(r["key"]) for r in rows] + [3])
    io.line(f"{'key':<{width}}  {'geometry':<9}  {'version':<7}  title")
    for r in rows:
        io.line(f"{r['key']:<{width}}  {r['geometry']:<9}  {r['version']:<7}  {r['title']}")
        for k in r["scenarios"]:
            io.line(f"{'':<{width}}  scenario: {k}")
    return 0


def cmd_describe(args: argparse.Namespace, io: Output) -> int:
    """Print a rule set's declared metadata."""
    rs = get_ruleset(args.key)
    doc: dict[str, Any] = dict(rs.describe())
    doc["stacking"] = rs.stacking
    doc["scenarios"] = sorted(bundled_scenarios(rs.key))
    io.json(doc)
    return 0


def cmd_tables(args: argparse.Namespace, io: Output) -> int:
    """Print every chart of a rule set, exactly as the engine uses it."""
    io.json(get_ruleset(args.key).tables())
    return 0


def _seed(args: argparse.Namespace) -> int:
    """Return ``--seed``, or a fresh one. Raise :class:`CliError` for a negative seed: ``random.Random`` seeds
    with its absolute value, so -7 would roll the dice of 7."""
    if args.seed is None:
        return secrets.randbelow(2**SEED_BITS)
    if args.seed < 0:
        raise CliError("--seed must be 0 or more")
    return int(args.seed)


def cmd_scenario(args: argparse.Namespace, io: Output) -> int:
    """Print the opening state of a scenario, after the rule set's set-up rolls."""
    sc = find_scenario(args.scenario)
    seed = _seed(args)
    dice = SeededDice(seed)
    state, events = scenario_state(sc, dice)
    if args.events:
        io.json(result_json(PhaseResult(state=state, events=events, rolls=tuple(dice.rolls)), seed))
    else:
        io.json(to_json(state))
        if dice.rolls:
            io.note(f"set-up seed {seed} ({len(dice.rolls)} dice rolled); --events shows them")
    return 0


def one_stdin(*paths: str) -> None:
    """Raise :class:`CliError` if more than one of ``paths`` is ``-`` (standard input is read once)."""
    if paths.count("-") > 1:
        raise CliError("only one of STATE.json and ORDERS.json may be '-' (standard input)")


def cmd_resolve(args: argparse.Namespace, io: Output) -> int:
    """Resolve the current phase of a state with orders and print the result."""
    one_stdin(args.state, args.orders)
    state = parse_state(read_json(args.state), args.state)
    if args.ruleset is not None and args.ruleset != state.ruleset:
        get_ruleset(args.ruleset)
        raise CliError(f"{args.state} is a battle of {state.ruleset}, not of {args.ruleset}")
    check_side(state, args.side)
    orders = parse_orders(read_json(args.orders), args.orders)
    ids = {s.id for s in state.ships}
    unknown = [o.ship_id for o in orders if o.ship_id not in ids]
    if unknown:
        raise CliError(f"{args.orders}: no ship {', '.join(map(repr, unknown))} in this battle")
    dice: Dice
    seed: int | None
    if args.dice is not None:
        dice, seed = ScriptedDice(parse_dice(args.dice)), None
    else:
        seed = _seed(args)
        dice = SeededDice(seed)
    if state.finished:
        winner = f"{state.winner} won" if state.winner else "no winner"
        io.note(f"note: the battle is over ({winner}): nothing to resolve; the state is printed unchanged")
    if not state.finished:
        rs = get_ruleset(state.ruleset)
        ordering = {s.id for side in rs.ordering_sides(state) for s in rs.orderable_ships(state, side)}
        unused = [o.ship_id for o in orders if o.ship_id not in ordering]
        if unused:
            io.note(
                f"note: not used, as these ships give no orders this phase (sunk, struck, withdrawn, or not "
                f"their side's phase, A1): {', '.join(unused)}"
            )
    result = resolve_turn(state, orders, dice)
    if isinstance(dice, ScriptedDice) and dice.remaining:
        io.note(f"note: {dice.remaining} scripted dice not used")
    if args.side:
        shown = view_for(result, args.side)
        assert isinstance(shown, PhaseResult)
        io.json(view_json(shown, seed, args.side))
    else:
        io.json(result_json(result, seed))
    return 0


def _merge(errors: OrderErrors, into: tuple[dict[str, FieldErrors], dict[str, FieldErrors]]) -> None:
    for src, dst in ((errors.invalid, into[0]), (errors.illegal, into[1])):
        for sid, fields in src.items():
            for name, msgs in fields.items():
                dst.setdefault(sid, {}).setdefault(name, []).extend(msgs)


def cmd_validate(args: argparse.Namespace, io: Output) -> int:
    """Print the errors of orders, per ship and field; exit 1 when there are any."""
    one_stdin(args.state, args.orders)
    state = parse_state(read_json(args.state), args.state)
    check_side(state, args.side)
    orders = parse_orders(read_json(args.orders), args.orders)
    if state.finished:
        winner = f"{state.winner} won" if state.winner else "no winner"
        io.note(f"note: the battle is over ({winner}): no ship takes orders, so none is checked")
    merged: tuple[dict[str, FieldErrors], dict[str, FieldErrors]] = ({}, {})
    if args.side is not None:
        _merge(validate_orders(state, args.side, orders), merged)
    else:
        # each order is checked for the side of the ship it names
        ships = state.ship_map()
        by_side: dict[str, list[ShipOrder]] = {}
        for o in orders:
            side = ships[o.ship_id].side if o.ship_id in ships else state.side_keys()[0]
            by_side.setdefault(side, []).append(o)
        for side, side_orders in by_side.items():
            _merge(validate_orders(state, side, side_orders), merged)
    invalid, illegal = merged
    io.json({"ok": not invalid and not illegal, "invalid": invalid, "illegal": illegal})
    return 0 if not invalid and not illegal else 1


def cmd_view(args: argparse.Namespace, io: Output) -> int:
    """Print what one side may see of a state, or of a resolve output."""
    doc = read_json(args.state)
    refuse_view(doc, args.state)
    if isinstance(doc, dict) and "events" in doc and "state" in doc:
        state = parse_state(doc["state"], args.state)
        check_side(state, args.side)
        try:
            result = from_json(PhaseResult, {k: doc[k] for k in ("state", "events", "rolls") if k in doc})
        except RulesError as exc:
            raise CliError(f"{args.state}: not a phase result: {exc}") from exc
        shown = view_for(result, args.side)
        assert isinstance(shown, PhaseResult)
        seed = doc.get("seed")
        io.json(view_json(shown, seed if isinstance(seed, int) else None, args.side))
        return 0
    state = parse_state(doc, args.state)
    check_side(state, args.side)
    io.json({**to_json(view_for(state, args.side)), VIEW_KEY: args.side})
    return 0


# --- simulate ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOutcome:
    """How one simulated battle ended: winner (None: draw or undecided), turns played, each ship's status."""

    seed: int
    finished: bool
    winner: str | None
    turns: int
    statuses: dict[str, str] = field(default_factory=dict)
    flags: dict[str, tuple[str, ...]] = field(default_factory=dict)


def play(scenario: Scenario, seed: int, turns: int, policy: DefaultPolicy) -> RunOutcome:
    """Play ``scenario`` for up to ``turns`` turns, ``policy`` (A7) on every ship, ``SeededDice(seed)``."""
    rs = get_ruleset(scenario.ruleset)
    dice = SeededDice(seed)
    state, _ = scenario_state(scenario, dice)
    state = replace(state, options={**state.options, "default_orders": policy})
    while not state.finished and state.turn <= turns:
        orders = [
            rs.default_order(state, ship, policy)
            for side in rs.ordering_sides(state)
            for ship in rs.orderable_ships(state, side)
        ]
        state = resolve_turn(state, orders, dice).state
    # turns begun: a battle may end part way through a turn of several phases
    played = state.turn if state.phase > 0 else state.turn - 1
    return RunOutcome(
        seed=seed,
        finished=state.finished,
        winner=state.winner,
        turns=played,
        statuses={s.id: s.status for s in state.ships},
        flags={s.id: s.flags for s in state.ships},
    )


_WORKER_SCENARIO: list[Scenario] = []
"""The scenario of a ``simulate`` worker process, given once when it starts (:func:`_start_worker`)."""


def _start_worker(scenario: Scenario) -> None:
    """Initializer of ``simulate``'s worker processes: keep the scenario (so a task is three numbers, not the
    scenario again) and leave Ctrl-C to the parent, which stops them."""
    _ignore_sigint()
    _WORKER_SCENARIO[:] = [scenario]


def _play_task(task: tuple[int, int, str]) -> RunOutcome:
    seed, turns, policy = task
    return play(_WORKER_SCENARIO[0], seed, turns, cast(DefaultPolicy, policy))


def simulate(
    scenario: Scenario,
    runs: int,
    turns: int,
    policy: DefaultPolicy = "captain",
    first_seed: int = 0,
    workers: int | None = None,
) -> dict[str, Any]:
    """Play ``runs`` battles with seeds ``first_seed`` .. ``first_seed + runs - 1``; return the frequencies.

    The result is the same whatever the number of worker processes.
    """
    n = workers if workers is not None else (os.cpu_count() or 1)
    outcomes: list[RunOutcome]
    if n <= 1 or runs < 2:
        outcomes = [play(scenario, first_seed + i, turns, policy) for i in range(runs)]
    else:
        tasks = [(first_seed + i, turns, str(policy)) for i in range(runs)]
        # chunks of a few hundred battles at most, so that the outcomes come back as they are played
        chunk = min(max(1, runs // (n * 4)), 256)
        # Ctrl-C while the pool starts is held, not lost and not let loose mid-start: the workers are forked
        # with a handler that only notes it (their initializer then ignores Ctrl-C: the parent stops them),
        # and the parent acts on a noted one as soon as the pool is up; a SIGINT that killed a worker still
        # starting, or interrupted the pool half made, left a pool that terminate() could not stop
        noted: list[int] = []
        parent_sigint = signal.signal(signal.SIGINT, lambda signum, _frame: noted.append(signum))
        try:
            pool = multiprocessing.Pool(min(n, runs), initializer=_start_worker, initargs=(scenario,))
        finally:
            signal.signal(signal.SIGINT, parent_sigint if parent_sigint is not None else signal.SIG_DFL)
        try:
            if noted:
                raise KeyboardInterrupt
            outcomes = pool.map(_play_task, tasks, chunksize=chunk)
        except KeyboardInterrupt:
            # Ctrl-C: stop the workers now (they ignore SIGINT), not after every battle already queued
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
    ships: dict[str, Any] = {}
    for s in scenario.ships:
        counts = Counter(o.statuses.get(s.id, "active") for o in outcomes)
        ships[s.id] = {"name": s.name, "side": s.side, **{st: counts.get(st, 0) for st in STATUSES}}
        flags = Counter(f for o in outcomes for f in o.flags.get(s.id, ()))
        ships[s.id]["flags"] = dict(sorted(flags.items()))
    wins = Counter(o.winner for o in outcomes if o.finished and o.winner)
    return {
        "scenario": scenario.key,
        "name": scenario.name,
        "ruleset": scenario.ruleset,
        "runs": runs,
        "turns": turns,
        "policy": policy,
        "seeds": [first_seed, first_seed + runs - 1],
        "ships": ships,
        "wins": {side.key: wins.get(side.key, 0) for side in scenario.sides},
        "draws": sum(1 for o in outcomes if o.finished and not o.winner),
        "undecided": sum(1 for o in outcomes if not o.finished),
        "mean_turns": round(sum(o.turns for o in outcomes) / runs, 2) if runs else 0,
    }


def _pct(count: int, runs: int) -> str:
    return f"{100.0 * count / runs:5.1f}%" if runs else "   - "


def format_simulation(report: dict[str, Any]) -> list[str]:
    """Return the lines of the text table ``simulate`` prints."""
    runs = int(report["runs"])
    ships: dict[str, dict[str, Any]] = report["ships"]
    cols = [st for st in STATUSES if st in ("sunk", "active") or any(v[st] for v in ships.values())]
    heads = {"active": "afloat"}
    name_w = max([len(v["name"]) for v in ships.values()] + [4])
    side_w = max([len(v["side"]) for v in ships.values()] + [len("undecided")])
    lines = [
        f"{report['name']} ({report['ruleset']}): {runs} runs of up to {report['turns']} turns, "
        f"policy {report['policy']}, seeds {report['seeds'][0]}-{report['seeds'][1]}",
        "",
        f"{'ship':<{name_w}}  {'side':<{side_w}}  " + "  ".join(f"{heads.get(c, c):>9}" for c in cols),
    ]
    for v in ships.values():
        lines.append(
            f"{v['name']:<{name_w}}  {v['side']:<{side_w}}  "
            + "  ".join(f"{_pct(v[c], runs):>9}" for c in cols)
        )
    lines.append("")
    lines.append(f"{'side':<{side_w}}  {'wins':>6}")
    for side, n in report["wins"].items():
        lines.append(f"{side:<{side_w}}  {_pct(n, runs):>6}")
    lines.append(
        f"{'draw':<{side_w}}  {_pct(report['draws'], runs):>6}  (the battle ended with no side able to fight)"
    )
    lines.append(
        f"{'undecided':<{side_w}}  {_pct(report['undecided'], runs):>6}  "
        f"(still fighting after {report['turns']} turns)"
    )
    lines.append(f"mean length: {report['mean_turns']} turns")
    flagged = [v for v in ships.values() if v.get("flags")]
    if flagged:
        lines.append("")
        lines.append("visible state at the end (share of runs):")
        for v in flagged:
            lines.append(
                f"  {v['name']}: " + ", ".join(f"{f} {_pct(n, runs).strip()}" for f, n in v["flags"].items())
            )
    return lines


MAX_RUNS = 100_000
"""Most battles one ``simulate`` plays: each keeps its outcome in memory until the report (a club's question
is answered to a per cent by a few thousand)."""
MAX_TURNS = 1_000
"""Most turns a battle of ``simulate`` lasts (the longest bundled scenario has a few dozen)."""
MAX_WORKERS = 256
"""Most worker processes of ``simulate``."""


def cmd_simulate(args: argparse.Namespace, io: Output) -> int:
    """Play a scenario many times with the automatic captain and print outcome frequencies."""
    sc = find_scenario(args.scenario)
    if args.first_seed < 0:
        raise CliError("--first-seed must be 0 or more")
    if not 1 <= args.runs <= MAX_RUNS:
        raise CliError(f"--runs must be from 1 to {MAX_RUNS:,}")
    turns = args.turns if args.turns is not None else sc.turns
    if not 1 <= turns <= MAX_TURNS:
        if args.turns is None:
            raise CliError(f"the scenario's turns ({turns:,}) are over {MAX_TURNS:,}: give --turns")
        raise CliError(f"--turns must be from 1 to {MAX_TURNS:,}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise CliError(f"--workers must be from 1 to {MAX_WORKERS}")
    report = simulate(sc, args.runs, turns, cast(DefaultPolicy, args.policy), args.first_seed, args.workers)
    if args.json:
        io.json(report)
    else:
        for line in format_simulation(report):
            io.line(line)
    return 0


# --- entry point ---------------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``error: ...`` with the command, and exit status 2, as
    every other user error of ``python -m rules`` (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message}\n")


class _Once(argparse.Action):
    """Store an option's value; refuse the option given twice (argparse would keep the last): ``--side``
    names one side in every command, and ``--side usa --side japan`` printed or checked for japan only."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        given = getattr(namespace, self.dest, None)
        if given is not None:
            parser.error(f"argument {option_string}: given twice ({given!r} and {values!r}); give one")
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m rules``."""
    common = Parser(add_help=False)
    common.add_argument("--compact", action="store_true", help="print JSON on one line")
    parser = Parser(
        prog="python -m rules",
        description="Navalwar's rules engine: a JSON "
        "adjudicator of naval wargame rule sets. See docs/rules-json.md.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("list", parents=[common], help="list the rule sets and their bundled scenarios")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("describe", parents=[common], help="print a rule set's metadata as JSON")
    p.add_argument("key", metavar="KEY")
    p.set_defaults(func=cmd_describe)

    p = sub.add_parser("tables", parents=[common], help="print every chart of a rule set as JSON")
    p.add_argument("key", metavar="KEY")
    p.set_defaults(func=cmd_tables)

    p = sub.add_parser("scenario", parents=[common], help="print the opening state of a scenario as JSON")
    p.add_argument(
        "scenario", metavar="KEY_OR_FILE", help="a scenario file, a bundled scenario key, or a rule set key"
    )
    p.add_argument("--seed", type=int, help="seed of the set-up rolls (default: a fresh one from secrets)")
    p.add_argument("--events", action="store_true", help="print {seed, state, events, rolls} as resolve does")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("resolve", parents=[common], help="resolve the current phase of a battle")
    p.add_argument(
        "state", metavar="STATE.json", help="a battle state, or a previous resolve's output ('-': stdin)"
    )
    p.add_argument("orders", metavar="ORDERS.json", help="the orders ('-': stdin)")
    p.add_argument("--ruleset", metavar="KEY", help="check that the state is a battle of this rule set")
    dice = p.add_mutually_exclusive_group()
    dice.add_argument(
        "--seed", type=int, help="seed of the dice (default: a fresh one from secrets, printed)"
    )
    dice.add_argument(
        "--dice", metavar="4,6,1,...", help="scripted dice values, in the order they are rolled"
    )
    p.add_argument("--side", metavar="SIDE", action=_Once, help="print only what this side may see (A2)")
    p.set_defaults(func=cmd_resolve)

    p = sub.add_parser("validate", parents=[common], help="check orders: errors per ship and field")
    p.add_argument("state", metavar="STATE.json")
    p.add_argument("orders", metavar="ORDERS.json")
    p.add_argument(
        "--side",
        metavar="SIDE",
        action=_Once,
        help="the side giving the orders (default: each ship's own side)",
    )
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("view", parents=[common], help="what one side may see of a state or a resolve output")
    p.add_argument("state", metavar="STATE.json")
    p.add_argument("--side", metavar="SIDE", action=_Once, required=True)
    p.set_defaults(func=cmd_view)

    p = sub.add_parser(
        "simulate", parents=[common], help="play a scenario many times; print outcome frequencies"
    )
    p.add_argument(
        "scenario", metavar="SCENARIO", help="a scenario file, a bundled scenario key, or a rule set key"
    )
    p.add_argument("--runs", type=int, default=100, help="battles to play (default 100); seeds 0 .. runs-1")
    p.add_argument("--turns", type=int, help="turns per battle at most (default: the scenario's)")
    p.add_argument(
        "--policy", choices=DEFAULT_POLICIES, default="captain", help="default orders (A7) of every ship"
    )
    p.add_argument("--first-seed", type=int, default=0, help="seed of the first battle (default 0)")
    p.add_argument("--workers", type=int, help="worker processes (default: one per CPU)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_simulate)
    return parser


def _join_dice(argv: Sequence[str]) -> list[str]:
    """Return ``argv`` with ``--dice VALUES`` written ``--dice=VALUES``, so scripted dice that begin with a
    minus sign (``--dice -1,2``) reach :func:`parse_dice` and the dice, which say what is wrong with them,
    instead of argparse taking them for an option."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--dice":
            value = next(it, None)
            out.append(arg if value is None else f"--dice={value}")
        else:
            out.append(arg)
    return out


def _ignore_sigint() -> None:
    """Initializer of ``simulate``'s worker processes: Ctrl-C is the parent's to handle (it stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run ``python -m rules`` with ``argv``; return the exit status (0 ok, 1 orders with errors, 2 error,
    3 the engine failed, 130 interrupted by Ctrl-C)."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    args = build_parser().parse_args(_join_dice(sys.argv[1:] if argv is None else argv))
    io = Output(out, err, compact=args.compact)
    func = cast(Callable[[argparse.Namespace, Output], int], args.func)
    try:
        return func(args, io)
    except (CliError, RulesError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly
        return 0
    except KeyboardInterrupt:
        # Ctrl-C (a long ``simulate``): one line, no traceback; 130 as a shell reports an interrupted command
        err.write("error: interrupted\n")
        return 130
    except Exception as exc:  # the engine failed: one line, 3 (not a user error the checks caught: 2)
        if os.environ.get("RULES_TRACEBACK"):
            raise
        err.write(
            f"error: the rules engine failed on this input ({type(exc).__name__}: {exc}). A state or "
            "scenario edited by hand may hold a value no check caught; if it came from the engine, this is a "
            "bug. RULES_TRACEBACK=1 shows where.\n"
        )
        return 3
