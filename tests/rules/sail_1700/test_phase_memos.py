"""The memo helpers of sail_1700's phase: each gives what the computation it stands for gives, warm or cold,
for any value a sheet may hold."""

from __future__ import annotations

import pytest

from rules import memo
from rules.rulesets.sail_1700 import core as C
from rules.rulesets.sail_1700.phase import volley_outcome


@pytest.mark.parametrize(
    "guns, ff, double, end",
    [
        pytest.param(25, 10, False, " = 10 -> {pts} points, {lost} gun(s) (28.).", id="plain"),
        pytest.param(12, 0, False, " = 0 (no effect, S14) -> 0 points, 0 gun(s) (28.).", id="no-effect"),
        pytest.param(12, -3, True, " = -3 (no effect, S14) -> 0 points, 0 gun(s) (28., doubled).", id="neg"),
        pytest.param(12, 22, False, " = 22 (column 19, S14) -> {pts} points, {lost} gun(s) (28.).", id="c19"),
        pytest.param(44, 9, True, " = 9 -> {pts} points, {lost} gun(s) (28., S22, doubled).", id="S22"),
    ],
)
def test_volley_outcome(guns: int, ff: int, double: bool, end: str) -> None:
    pts, lost = C.chart_result(guns, ff, double)
    memo.clear_all()
    for _ in range(2):  # cold, then warm
        assert volley_outcome(guns, ff, double) == (pts, lost, end.format(pts=pts, lost=lost))
