"""The memo helpers of sail_1700's phase: each gives what the computation it stands for gives, warm or cold,
for any value a sheet may hold."""

from __future__ import annotations

import pytest

from rules import memo
from rules.model import JSON
from rules.rulesets.sail_1700 import core as C
from rules.rulesets.sail_1700.phase import fire_modifiers, modifiers_of, volley_outcome


@pytest.mark.parametrize(
    "grade, nation, service, as_grade, as_nation, merchant",
    [
        pytest.param("crack", "British", "warship", "crack", "British", False, id="strs"),
        pytest.param(None, None, None, "average", "Other", False, id="missing"),
        pytest.param(1, True, 0, "average", "Other", False, id="not-strs"),
        pytest.param(["crack"], {"n": 1}, ["merchant"], "average", "Other", False, id="unhashable"),
        pytest.param("poor", "French", "merchant", "poor", "French", True, id="merchant"),
    ],
)
def test_fire_modifiers_of_sheet_values(
    grade: JSON, nation: JSON, service: JSON, as_grade: str, as_nation: str, merchant: bool
) -> None:
    mods = C.firing_factor_modifiers(
        grade=as_grade,
        nation=as_nation,
        range_name="short",
        rake="bow",
        first_time=True,
        wind_force="moderate",
        merchant=merchant,
    )
    expected = (modifiers_of(mods), sum(v for _, v in mods))
    memo.clear_all()
    for _ in range(2):  # cold, then warm
        got = fire_modifiers(grade, nation, "short", "bow", True, "moderate", service)
        assert (got[0], got[1]) == expected
        assert got[2] == f" mm (short, bow rake): FF {expected[1]:+d} + "


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
