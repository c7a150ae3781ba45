"""Memo tables: the rules engine's caches of pure computations, and one switch to empty them all.

A memo table is a ``dict`` from the inputs of a pure computation (a hex offset and a heading, a course,
a ship-class stats object kept alongside its ``id``, ...) to its result. Its owner bounds it (emptied when
it grows past a limit) and keys it so that a hit returns exactly what the computation would: no result
depends on whether a table is warm (``tests/rules/test_golden_resolution.py`` resolves every case with
the tables emptied first and again warm).

:func:`clear_all` empties every table. ``bench/rules_bench.py`` calls it before each timed run, and times
each run on a fresh copy of the state read from JSON, as a worker reads a phase from the database: no
figure profits from the work of an earlier run of the same phase.
"""

from __future__ import annotations

from typing import Any, TypeVar

_Table = TypeVar("_Table", bound=dict[Any, Any])

_TABLES: list[dict[Any, Any]] = []


def table(empty: _Table) -> _Table:
    """Register ``empty`` (a new dict) as a memo table and return it:
    ``_ARCS: dict[tuple[int, int, float], str] = memo.table({})``."""
    _TABLES.append(empty)
    return empty


def clear_all() -> None:
    """Empty every memo table (the next calls work everything out again)."""
    for t in _TABLES:
        t.clear()
