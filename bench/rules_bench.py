"""Benchmark of the rules engine: one phase of a 200-ship battle per registered rule set (not a test).

For each registered rule set with a bundled scenario, clone the first scenario's ships into two facing lines
of 100 ships a side, in contact, on an enlarged map; give every ship the campaign's default orders (A7,
``fire_nearest``); then time ``resolve_turn`` on that phase (median of several runs, each cold: the engine's
memo tables emptied and the state read afresh from JSON first, untimed), count the dice rolled,
and time the bare cost of rolling the same dice with ``SeededDice``. Print, per rule set: milliseconds per
phase, dice rolled, and the ratio of resolution time to bare dice time. Targets (issue 3): under 50 ms a
phase, within 10x of the bare dice cost.

"In contact" does not mean the same distance in every rule set: the gap between the lines is chosen, from a
few candidates in the rule set's unit, as the one at which the phase rolls the most dice.

Run: ``python bench/rules_bench.py [--ships 200] [--runs 7] [--only KEY]`` from the project's root.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import (
    BattleState,
    RuleSet,
    SeededDice,
    ShipOrder,
    all_rulesets,
    from_json,
    memo,
    resolve_turn,
    to_json,
)
from rules.geometry import offset_to_hex
from rules.model import MapSpec, Point, Position, Roll
from rules.scenario import Scenario, ScenarioShip, bundled_scenarios, scenario_state

LEGEND = """
ms/phase: median time of resolve_turn on one phase, every ship's default orders given (best: the fastest run);
each run cold: the engine's memo tables emptied and the state read afresh from JSON (untimed) before it;
dice ms: the same dice rolled bare with SeededDice (median); ratio: resolution time over bare dice time,
timed in back-to-back pairs (median; best: fastest over fastest); defaults ms: computing every ship's default
orders (fire_nearest). Targets: under 50 ms a phase, within 10x of the dice."""

# Candidate gaps between the lines, and spacing of ships within a line, in each geometry's unit.
GAPS: dict[str, tuple[float, ...]] = {
    "hex6": (2, 3, 4),
    "hex12": (2, 3, 4),
    "table_in": (4, 8, 12, 18, 24),
    "table_mm": (100, 200, 300, 450, 600),
}
SPACING: dict[str, float] = {"hex6": 1, "hex12": 1, "table_in": 3, "table_mm": 40}
MARGIN: dict[str, float] = {"hex6": 4, "hex12": 4, "table_in": 12, "table_mm": 200}
# Headings of the two lines: broadside to broadside where the facings allow it.
HEADINGS: dict[str, tuple[float, float]] = {
    "hex6": (120, 300),
    "hex12": (90, 270),
    "table_in": (90, 270),
    "table_mm": (90, 270),
}


@dataclass(frozen=True)
class Row:
    key: str
    scenario: str
    ships: int
    gap: float
    ms: float
    best_ms: float
    dice: int
    dice_ms: float
    ratio: float | None
    best_ratio: float | None
    defaults_ms: float


def big_battle(sc: Scenario, ships: int, gap: float) -> Scenario:
    """Return ``sc`` with ``ships`` ships, half a side, in two facing lines ``gap`` apart, on a map to fit."""
    geometry = sc.map.geometry
    sides = [s.key for s in sc.sides][:2]
    if len(sides) < 2:
        raise ValueError("the scenario has fewer than two sides")
    per_side = ships // 2
    spacing, margin = SPACING[geometry], MARGIN[geometry]
    hex_map = geometry.startswith("hex")
    width = margin * 2 + spacing * per_side
    height = margin * 2 + gap
    out: list[ScenarioShip] = []
    for line, side in enumerate(sides):
        templates = [s for s in sc.ships if s.side == side]
        if not templates:
            raise ValueError(f"no ship of side {side!r} in the scenario")
        heading = HEADINGS[geometry][line]
        for i in range(per_side):
            t = templates[i % len(templates)]
            pos: Position
            if hex_map:
                pos = offset_to_hex(int(margin + i * spacing), int(margin + line * gap))
            else:
                pos = Point(x=margin + i * spacing, y=margin + line * gap)
            out.append(replace(t, id=f"{t.id}-{i}", name=f"{t.name} {i}", position=pos, heading=heading))
    return replace(
        sc, map=MapSpec(geometry=geometry, width=width, height=height), ships=tuple(out), terrain=()
    )


def default_orders(rs: RuleSet, state: BattleState) -> list[ShipOrder]:
    """Return the A7 default orders (``fire_nearest``) of every ship that orders this phase."""
    return [
        rs.default_order(state, ship, "fire_nearest")
        for side in rs.ordering_sides(state)
        for ship in rs.orderable_ships(state, side)
    ]


def timed_ms(
    fn: Callable[[], object], runs: int, setup: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Return the median and the best time of ``runs`` calls of ``fn``, in milliseconds; ``setup`` (untimed)
    runs before each call."""
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times), min(times)


class ColdPhase:
    """One phase to resolve, cold each time: :meth:`prepare` (untimed) empties the engine's memo tables
    (``rules.memo``) and reads the state and orders afresh from their JSON, as a worker reads a phase from
    the database; :meth:`resolve` resolves them. So no run profits from the work of the runs before it.
    """

    def __init__(self, state: BattleState, orders: list[ShipOrder], seed: int) -> None:
        self.doc, self.orders_doc, self.seed = to_json(state), [to_json(o) for o in orders], seed
        self.prepare()

    def prepare(self) -> None:
        memo.clear_all()
        self.state = from_json(BattleState, self.doc)
        self.orders = [from_json(ShipOrder, o) for o in self.orders_doc]

    def resolve(self) -> object:
        return resolve_turn(self.state, self.orders, SeededDice(self.seed))


def roll_bare(rolls: tuple[Roll, ...], seed: int) -> Callable[[], object]:
    """Return a function that rolls the same dice, same kinds and purposes, with ``SeededDice``."""

    def roll_all() -> None:
        dice = SeededDice(seed)
        for r in rolls:
            dice.roll(r.die, r.purpose)  # type: ignore[arg-type]

    return roll_all


def paired_ratio(phase: ColdPhase, bare: Callable[[], object], runs: int) -> tuple[float, float]:
    """Return the median, over ``runs`` pairs timed back to back, of resolution time over bare dice time, and
    the fastest resolution over the fastest bare roll. Timing the two together makes the median hold on a busy
    machine, where separate medians drift; the fastest runs are the ones nothing else disturbed.
    """
    ratios = []
    fastest = [math.inf, math.inf]
    for _ in range(runs):
        phase.prepare()
        t0 = time.perf_counter()
        bare()
        t1 = time.perf_counter()
        phase.resolve()
        t2 = time.perf_counter()
        ratios.append((t2 - t1) / max(t1 - t0, 1e-9))
        fastest = [min(fastest[0], t2 - t1), min(fastest[1], t1 - t0)]
    return statistics.median(ratios), fastest[0] / max(fastest[1], 1e-9)


def bench(rs: RuleSet, sc: Scenario, ships: int, runs: int, seed: int) -> Row:
    best: tuple[int, float, BattleState, list[ShipOrder]] | None = None
    for gap in GAPS[sc.map.geometry]:
        state, _ = scenario_state(big_battle(sc, ships, gap), SeededDice(seed))
        orders = default_orders(rs, state)
        dice = len(resolve_turn(state, orders, SeededDice(seed)).rolls)
        if best is None or dice > best[0]:
            best = (dice, gap, state, orders)
    assert best is not None
    _, gap, state, orders = best
    result = resolve_turn(state, orders, SeededDice(seed))
    phase = ColdPhase(state, orders, seed)
    bare = roll_bare(result.rolls, seed)
    ms, best_ms = timed_ms(phase.resolve, runs, setup=phase.prepare)
    dice_ms, _ = timed_ms(bare, runs)
    ratio, best_ratio = paired_ratio(phase, bare, runs) if result.rolls else (None, None)
    defaults_ms, _ = timed_ms(lambda: default_orders(rs, state), max(1, runs // 2))
    return Row(
        key=rs.key,
        scenario=sc.key,
        ships=len(state.ships),
        gap=gap,
        ms=ms,
        best_ms=best_ms,
        dice=len(result.rolls),
        dice_ms=dice_ms,
        ratio=ratio,
        best_ratio=best_ratio,
        defaults_ms=defaults_ms,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--ships", type=int, default=200, help="ships in the battle, half a side (default 200)"
    )
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure; the median is shown")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", metavar="KEY", help="one rule set")
    args = parser.parse_args(argv)

    print(
        f"{'ruleset':<14} {'scenario':<28} {'ships':>5} {'gap':>4} {'ms/phase':>8} {'best':>6} {'dice':>5} "
        f"{'dice ms':>7} {'ratio':>6} {'best':>6} {'defaults ms':>11}"
    )
    ok = True
    for rs in all_rulesets():
        if args.only and rs.key != args.only:
            continue
        scenarios = list(bundled_scenarios(rs.key).values())
        if not scenarios:
            print(f"{rs.key:<14} (no bundled scenario)")
            continue
        try:
            row = bench(rs, scenarios[0], args.ships, args.runs, args.seed)
        except Exception as exc:  # a benchmark reports every rule set, whatever one of them does
            print(f"{rs.key:<14} ERROR {type(exc).__name__}: {exc}")
            ok = False
            continue
        ratio = f"{row.ratio:.1f}x" if row.ratio is not None else "-"
        best_ratio = f"{row.best_ratio:.1f}x" if row.best_ratio is not None else "-"
        flags = []
        if row.ms > 50:
            flags.append("over 50 ms")
        if row.ratio is not None and row.ratio > 10:
            flags.append("over 10x dice")
        print(
            f"{row.key:<14} {row.scenario[:28]:<28} {row.ships:>5} {row.gap:>4g} "
            f"{row.ms:>8.2f} {row.best_ms:>6.2f} "
            f"{row.dice:>5} {row.dice_ms:>7.3f} {ratio:>6} {best_ratio:>6} {row.defaults_ms:>11.2f}"
            + (f"  <- {', '.join(flags)}" if flags else "")
        )
    print(LEGEND)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
