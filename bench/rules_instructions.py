"""Instruction count of one cold 200-ship phase per rule set, under valgrind's callgrind (not a test).

Wall-clock figures on a shared VM drift by 2x from minute to minute; instruction counts are exact from run
to run, so they show whether a change to the engine made a phase cheaper. For each rule set, run the
benchmark's phase (``bench/rules_bench.py``: same battle, same default orders, cold) ``1`` and ``1 + K``
times under callgrind, and the same with nothing but the set-up (memo emptied, state read from JSON); the
differences over ``K`` give the cost of one phase, without start-up and set-up.
The bare dice of that phase are counted the same way, and the ratio printed beside them.

Run: ``python bench/rules_instructions.py [--only KEY] [-k 2]`` from the project's root (needs valgrind).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys
sys.path.insert(0, {root!r})
from bench.rules_bench import ColdPhase, big_battle, default_orders, roll_bare, GAPS
from rules import SeededDice, get_ruleset, resolve_turn
from rules.scenario import bundled_scenarios, scenario_state
rs = get_ruleset({key!r})
sc = list(bundled_scenarios(rs.key).values())[0]
best = None
for gap in GAPS[sc.map.geometry]:
    state, _ = scenario_state(big_battle(sc, 200, gap), SeededDice(1))
    orders = default_orders(rs, state)
    n = len(resolve_turn(state, orders, SeededDice(1)).rolls)
    if best is None or n > best[0]:
        best = (n, state, orders)
_, state, orders = best
rolls = resolve_turn(state, orders, SeededDice(1)).rolls
phase = ColdPhase(state, orders, 1)
bare = roll_bare(rolls, 1)
for _ in range({times}):
    phase.prepare()
    {what}
"""


def instructions(key: str, times: int, what: str) -> int:
    code = CHILD.format(root=str(ROOT), key=key, times=times, what=what)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        text = Path(out).read_text()
    match = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    if match is None:
        raise RuntimeError("no instruction total in callgrind's output")
    return int(match.group(1))


def per_run(counts: dict[tuple[str, int], int], what: str, k: int) -> float:
    """Return the instructions of one run of ``what``: (count of ``1 + k`` runs - count of one) / k."""
    return (counts[what, 1 + k] - counts[what, 1]) / k


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from rules import all_rulesets

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", metavar="KEY", help="one rule set")
    parser.add_argument("-k", type=int, default=2, help="extra phases to count (default 2)")
    args = parser.parse_args(argv)
    print(f"{'ruleset':<14} {'phase Minstr':>12} {'dice Minstr':>11} {'ratio':>6}")
    for rs in all_rulesets():
        if args.only and rs.key != args.only:
            continue
        jobs = {
            (what, times): (rs.key, times, what)
            for what in ("pass", "phase.resolve()", "bare()")
            for times in (1, 1 + args.k)
        }
        with ThreadPoolExecutor(max_workers=2) as pool:
            counts = dict(zip(jobs, pool.map(lambda job: instructions(*job), jobs.values()), strict=True))

        setup = per_run(counts, "pass", args.k)
        per = {
            "phase": per_run(counts, "phase.resolve()", args.k) - setup,
            "dice": per_run(counts, "bare()", args.k) - setup,
        }
        print(
            f"{rs.key:<14} {per['phase'] / 1e6:>12.2f} {per['dice'] / 1e6:>11.3f} "
            f"{per['phase'] / per['dice']:>5.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
