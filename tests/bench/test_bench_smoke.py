"""The benchmarks (bench/) still import and run: the rules part with tiny sizes, the table and wrk parsing,
and the battle builder against the test database. Not timed: the figures are bench/run_all.py's job."""

from __future__ import annotations

import importlib

import pytest

from bench import builders, run_all
from rules.geometry import hex_to_offset
from rules.model import Hex


@pytest.mark.parametrize(
    "module", ["bench.run_all", "bench.rules_bench", "bench.map_bench", "bench.builders"]
)
def test_bench_modules_import(module: str) -> None:
    assert importlib.import_module(module).__doc__


def test_rules_part_runs_with_tiny_sizes() -> None:
    rows = run_all.rules_rows(ships=4, runs=1, only="ultra_simple")

    assert len(rows) == 1
    row = rows[0]
    assert (row.bench, row.case) == ("rules", "ultra_simple: one 4-ship phase")
    assert row.median.endswith(" ms") and float(row.median.split()[0]) > 0
    assert "dice" in row.notes


def test_every_rule_set_gets_a_row() -> None:
    from rules import all_rulesets

    rows = run_all.rules_rows(ships=2, runs=1)

    assert [r.case.split(":")[0] for r in rows] == [rs.key for rs in all_rulesets()]


@pytest.mark.parametrize(
    ("values", "pct", "expected"),
    [
        pytest.param([5.0], 95, 5.0, id="one"),
        pytest.param([float(i) for i in range(1, 21)], 95, 19.0, id="20-values-p95"),
        pytest.param([float(i) for i in range(1, 21)], 50, 10.0, id="20-values-p50"),
        pytest.param([3.0, 1.0, 2.0], 100, 3.0, id="max"),
    ],
)
def test_percentile_is_nearest_rank(values: list[float], pct: float, expected: float) -> None:
    assert run_all.percentile(values, pct) == expected


def test_format_table_is_markdown() -> None:
    table = run_all.format_table([run_all.Row("web", "bare", "1.00 ms", "2.00 ms", "ok")])

    assert table.splitlines() == [
        "| Bench | Case | Median  | p95     | Notes |",
        "|-------|------|---------|---------|-------|",
        "| web   | bare | 1.00 ms | 2.00 ms | ok    |",
    ]


def test_parse_wrk_reads_the_lua_report() -> None:
    output = (
        "Running 10s test @ http://127.0.0.1:1/\n"
        'WRK_JSON {"requests": 120, "duration_us": 10000000, "status_errors": 0, "socket_errors": 1, '
        '"p50_us": 1500, "p95_us": 4200, "p99_us": 5000, "max_us": 9000}\n'
    )

    assert run_all.parse_wrk(output)["p95_us"] == 4200
    with pytest.raises(ValueError, match="no WRK_JSON line"):
        run_all.parse_wrk("Running 10s test\n")


def test_the_bench_refuses_a_database_without_bench_in_its_name() -> None:
    with pytest.raises(SystemExit, match="must contain 'bench'"):
        run_all.recreate_database("postgres://postgres@127.0.0.1:5432/navalwar")


@pytest.mark.django_db
def test_builder_makes_a_started_battle_in_contact() -> None:
    game = builders.big_battle(4, gap=3)

    phase = game.open_phase()
    assert phase is not None and phase.number == 1
    assert game.battle.status == "active"
    assert sorted(game.battle.ships.values_list("ship_key", flat=True)) == [
        "north0",
        "north1",
        "south0",
        "south1",
    ]
    assert set(game.players) == {"north", "south"}
    # The two fleets' front rows are ``gap`` offset rows apart, same column: in gun range from phase 1.
    rows = {s["id"]: hex_to_offset(Hex(**s["position"])) for s in game.battle.state["ships"]}
    assert rows["north0"] == (1, 1)
    assert rows["south0"] == (1, 4)
    assert rows["north1"] == (3, 1)


def test_machine_lines_without_services() -> None:
    lines = run_all.machine_lines((8.1, 5.3, 4.5))

    assert [line.split(":")[0] for line in lines] == ["Date", "Machine", "Software"]
    assert lines[1].endswith("load average before the run 8.1 5.3 4.5")
