"""Bench the battle map: render a 200-ship map for a hex and a table rule set, print ms and bytes.

Run from the repository root:  /work/venv/bin/python bench/map_bench.py [--repeat 30]

Each bundled scenario's ships are cloned into two opposing lines of 100 (one per side), the last phase's
events (a move with a path and a salvo per ship) are added, and the map is rendered for one side with a ship
selected (arcs drawn). The figures are the median wall and CPU time of ``--repeat`` renders after a
warm-up; target: under 50 ms. Rule sets registered later get their scenarios benched too (one per rule set).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battles.mapsvg import render_map
from rules import SeededDice
from rules.geometry import offset_to_hex
from rules.model import BattleState, Event, Hex, MapSpec, Point, ShipState
from rules.scenario import bundled_scenarios, scenario_state

N_SHIPS = 200
ROW = "{:40} {:14} {:9} {:>5} {:>8} {:>7} {:>8}"


def two_lines(state: BattleState, n: int = N_SHIPS) -> tuple[BattleState, tuple[Event, ...]]:
    """Return the state with ``n`` ships in two facing lines, and a phase's events for them."""
    sides = state.side_keys()[:2]
    templates = {side: next(s for s in state.ships if s.side == side) for side in sides}
    hexes = state.map.geometry.startswith("hex")
    per_side = n // 2
    if hexes:
        cols = max(int(state.map.width), per_side // 4 + 2)
        rows = max(int(state.map.height), 16)
        spec = MapSpec(geometry=state.map.geometry, width=cols, height=rows)
    else:
        spec = state.map
    ships: list[ShipState] = []
    events: list[Event] = []
    for k, side in enumerate(sides):
        t = templates[side]
        for i in range(per_side):
            sid = f"{side}-{i:03d}"
            if hexes:
                # four rows of ships per side, 2 hexes apart, near the top or bottom of the map
                col = 1 + (i // 4) * 1 + 0
                row = (2 + (i % 4) * 2) if k == 0 else (spec.height - 3 - (i % 4) * 2)
                pos: Hex | Point = offset_to_hex(int(col), int(row))
                prev: Hex | Point = offset_to_hex(max(0, int(col) - 1), int(row))
                heading = 120.0 if k == 0 else 300.0
                path = [{"q": prev.q, "r": prev.r}, {"q": pos.q, "r": pos.r}]
            else:
                x = spec.width * (0.05 + 0.9 * (i // 2) / (per_side / 2))
                y = spec.height * ((0.3 + 0.05 * (i % 2)) if k == 0 else (0.7 - 0.05 * (i % 2)))
                pos = Point(x=x, y=y)
                prev = Point(x=max(0.0, x - spec.width * 0.02), y=y)
                heading = 90.0
                path = [{"x": prev.x, "y": prev.y}, {"x": x, "y": y}]
            ships.append(replace(t, id=sid, name=f"{t.name} {i + 1}", position=pos, heading=heading))
            events.append(Event(kind="move", text="", turn=1, ship_id=sid, data={"path": path}))
    for i in range(per_side):
        events.append(
            Event(
                kind="fire",
                text="",
                turn=1,
                ship_id=f"{sides[0]}-{i:03d}",
                target_id=f"{sides[1]}-{i:03d}",
                outcome="hit" if i % 3 == 0 else "miss",
                data={"hits": 1 if i % 3 == 0 else 0},
            )
        )
    return replace(state, map=spec, ships=tuple(ships)), tuple(events)


def bench(state: BattleState, events: tuple[Event, ...], repeat: int) -> tuple[float, float, int]:
    """Return the median wall and CPU milliseconds of one render, and the SVG's size in bytes."""
    viewer = state.side_keys()[0]
    selected = state.ships[0].id
    svg = render_map(state, viewer_side=viewer, events=events, selected=selected)  # warm-up
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        svg = render_map(state, viewer_side=viewer, events=events, selected=selected)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu), len(svg.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    done: set[str] = set()
    print(ROW.format("scenario", "rule set", "geometry", "ships", "wall ms", "cpu ms", "bytes"))
    for key, sc in bundled_scenarios().items():
        if sc.ruleset in done:
            continue
        done.add(sc.ruleset)
        state, _ = scenario_state(sc, SeededDice(1))
        big, events = two_lines(state)
        ms, cpu, size = bench(big, events, args.repeat)
        print(ROW.format(key, sc.ruleset, big.map.geometry, len(big.ships), f"{ms:.1f}", f"{cpu:.1f}", size))
    # a table map from the hex scenario if no table rule set is registered yet
    if not any(get_geometry(k).startswith("table") for k in done):
        sc = next(iter(bundled_scenarios().values()))
        state, _ = scenario_state(sc, SeededDice(1))
        table = replace(
            state,
            map=MapSpec(geometry="table_in", width=96, height=72),
            ships=tuple(replace(s, position=Point(x=10.0, y=10.0)) for s in state.ships),
        )
        big, events = two_lines(table)
        ms, cpu, size = bench(big, events, args.repeat)
        print(
            ROW.format(
                "(hex scenario on a 96 x 72 in table)",
                sc.ruleset,
                "table_in",
                len(big.ships),
                f"{ms:.1f}",
                f"{cpu:.1f}",
                size,
            )
        )


def get_geometry(ruleset: str) -> str:
    from rules import get_ruleset

    return get_ruleset(ruleset).geometry


if __name__ == "__main__":
    main()
