"""Seed 001 (Naval Wargame Rules 1700-1830): every chart and stated number, as DATC-style cases.

Each case's id names the seed section, its ``quote`` the line of ``../shared/seeds/001_bb5ec6dbb79b532f.txt``
it checks (with the line number); rulings S01-S46 (``../shared/rulings.md``) and NW-SAIL-n
(``docs/rulings.md``) are cited in ids. Values are exact.
"""

from __future__ import annotations

import json

import pytest

from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import core as C
from rules.rulesets.sail_1700 import tables as T

RS = get_ruleset("sail_1700")


# --- 3. Wind Direction --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "d100, name, deg, quote",
    [
        pytest.param(1, "North", 0.0, "L39 '1 - 13 Wind from North'", id="003-wind-01-north-low"),
        pytest.param(13, "North", 0.0, "L39 '1 - 13 Wind from North'", id="003-wind-13-north-high"),
        pytest.param(14, "North East", 45.0, "L39 '14 - 25 Wind from North East'", id="003-wind-14-ne"),
        pytest.param(25, "North East", 45.0, "L39 '14 - 25'", id="003-wind-25-ne"),
        pytest.param(26, "East", 90.0, "L39 '26 - 38 Wind from East'", id="003-wind-26-east"),
        pytest.param(38, "East", 90.0, "L39 '26 - 38'", id="003-wind-38-east"),
        pytest.param(39, "South East", 135.0, "L39 '39 - 50 Wind from South East'", id="003-wind-39-se"),
        pytest.param(50, "South East", 135.0, "L39 '39 - 50'", id="003-wind-50-se"),
        pytest.param(51, "South", 180.0, "L41 '51- 63 Wind from South'", id="003-wind-51-south"),
        pytest.param(63, "South", 180.0, "L41 '51- 63'", id="003-wind-63-south"),
        pytest.param(64, "South West", 225.0, "L41 '64 - 75 Wind from South West'", id="003-wind-64-sw"),
        pytest.param(
            75, "South West", 225.0, "L41 '64 - 75' (S01: 74-75 are South West)", id="003-wind-75-sw-S01"
        ),
        pytest.param(
            74, "South West", 225.0, "L41 '74 - 88 Wind from West' overlaps (S01)", id="003-wind-74-sw-S01"
        ),
        pytest.param(76, "West", 270.0, "L41 S01: West = 76-88", id="003-wind-76-west-S01"),
        pytest.param(88, "West", 270.0, "L41 '74 - 88 Wind from West'", id="003-wind-88-west"),
        pytest.param(89, "North West", 315.0, "L41 '89 - 100 Wind from North West'", id="003-wind-89-nw"),
        pytest.param(99, "North West", 315.0, "L41 '89 - 100'", id="003-wind-99-nw"),
        pytest.param(0, "North West", 315.0, "L41 '89 - 100' (S02: 00 = 100)", id="003-wind-00-is-100-S02"),
    ],
)
def test_wind_direction(d100: int, name: str, deg: float, quote: str) -> None:
    """Line 37: 'Throw two Decimal dice and consult the table below'."""
    assert C.wind_from_roll(d100) == (name, deg)


def test_wind_table_covers_1_100_once_S01() -> None:
    """S01: 'The bands alternate 13 and 12 numbers wide ... covers 1-100 exactly once'."""
    covered = [n for lo, hi, _, _ in T.WIND_DIRECTION for n in range(lo, hi + 1)]
    assert covered == list(range(1, 101))
    assert [hi - lo + 1 for lo, hi, _, _ in T.WIND_DIRECTION] == [13, 12, 13, 12, 13, 12, 13, 12]


@pytest.mark.parametrize(
    "cur, target, sense, expected",
    [
        pytest.param(0.0, 90.0, "veer", 45.0, id="003-wind-shift-veer-S03"),
        pytest.param(45.0, 90.0, "veer", 90.0, id="003-wind-shift-veer-arrives-S03"),
        pytest.param(0.0, 90.0, "back", 315.0, id="003-wind-shift-back-long-way-S03"),
        pytest.param(337.5, 0.0, "veer", 0.0, id="003-wind-shift-last-step-shorter-S03"),
        pytest.param(90.0, 90.0, "veer", 90.0, id="003-wind-shift-none"),
    ],
)
def test_wind_shift(cur: float, target: float, sense: str, expected: float) -> None:
    """Line 43: 'Wind will shift one point every subsequent move until it is in the new quarter. Throw one
    average dice: 2 or 3 veers, 4 or 5 backs.' S03: one table direction (45 degrees) per move."""
    assert C.wind_step(cur, target, sense) == expected
    assert T.WIND_SENSE == {2: "veer", 3: "veer", 4: "back", 5: "back"}
    assert T.WIND_CHANGE_EVERY_MOVES == 10


# --- 4. Weather ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, expected",
    [
        pytest.param(1, ("fog", "calm", 200), id="004-weather-01-fog-calm-200"),
        pytest.param(3, ("fog", "calm", 200), id="004-weather-03-fog-calm-200"),
        pytest.param(4, ("fog", "light", 200), id="004-weather-04-fog-light-200"),
        pytest.param(5, ("fog", "calm", 500), id="004-weather-05-fog-calm-500"),
        pytest.param(7, ("fog", "calm", 500), id="004-weather-07"),
        pytest.param(8, ("fog", "light", 500), id="004-weather-08"),
        pytest.param(9, ("fog", "calm", 1500), id="004-weather-09"),
        pytest.param(10, ("fog", "light", 1500), id="004-weather-10"),
        pytest.param(11, ("clear", "calm", 1500), id="004-weather-11-clear-calm-1500"),
        pytest.param(12, ("clear", "calm", 1500), id="004-weather-12"),
        pytest.param(13, ("clear", "light", 1500), id="004-weather-13"),
        pytest.param(14, ("clear", "light", 1500), id="004-weather-14"),
        pytest.param(15, ("clear", "moderate", 1500), id="004-weather-15"),
        pytest.param(16, ("clear", "moderate", 1500), id="004-weather-16"),
        pytest.param(17, ("clear", "strong", 1500), id="004-weather-17"),
        pytest.param(18, ("clear", "strong", 1500), id="004-weather-18"),
        pytest.param(19, ("clear", "calm", None), id="004-weather-19-clear-calm-unlimited"),
        pytest.param(27, ("clear", "calm", None), id="004-weather-27"),
        pytest.param(28, ("clear", "light", None), id="004-weather-28"),
        pytest.param(38, ("clear", "light", None), id="004-weather-38"),
        pytest.param(39, ("clear", "moderate", None), id="004-weather-39"),
        pytest.param(50, ("clear", "moderate", None), id="004-weather-50"),
        pytest.param(51, ("clear", "strong", None), id="004-weather-51"),
        pytest.param(59, ("clear", "strong", None), id="004-weather-59"),
        pytest.param(60, ("rain", "strong", None), id="004-weather-60-rain"),
        pytest.param(61, ("rain", "strong", None), id="004-weather-61"),
        pytest.param(62, ("rain", "moderate", None), id="004-weather-62"),
        pytest.param(63, ("rain", "moderate", None), id="004-weather-63"),
        pytest.param(64, ("rain", "light", None), id="004-weather-64"),
        pytest.param(65, ("rain", "light", None), id="004-weather-65"),
        pytest.param(66, ("rain", "gale", 1500), id="004-weather-66-rain-gale-S04"),
        pytest.param(69, ("rain", "gale", 1500), id="004-weather-69-S04"),
        pytest.param(70, ("rain", "strong", 1500), id="004-weather-70"),
        pytest.param(74, ("rain", "strong", 1500), id="004-weather-74"),
        pytest.param(75, ("rain", "moderate", 1500), id="004-weather-75"),
        pytest.param(78, ("rain", "moderate", 1500), id="004-weather-78"),
        pytest.param(79, ("rain", "light", 1500), id="004-weather-79"),
        pytest.param(83, ("rain", "light", 1500), id="004-weather-83"),
        pytest.param(84, ("rain", "gale", 500), id="004-weather-84-S04"),
        pytest.param(85, ("rain", "gale", 500), id="004-weather-85-S04"),
        pytest.param(86, ("rain", "strong", 500), id="004-weather-86"),
        pytest.param(87, ("rain", "strong", 500), id="004-weather-87"),
        pytest.param(88, ("rain", "moderate", 500), id="004-weather-88"),
        pytest.param(89, ("rain", "light", 500), id="004-weather-89"),
        pytest.param(90, ("storm", "moderate", 1500), id="004-weather-90-gale-row-S04-S05"),
        pytest.param(91, ("storm", "strong", 1500), id="004-weather-91-S04"),
        pytest.param(92, ("storm", "gale", 1500), id="004-weather-92-S04"),
        pytest.param(93, ("storm", "gale", 1500), id="004-weather-93-S04"),
        pytest.param(94, ("storm", "moderate", 500), id="004-weather-94-S04"),
        pytest.param(95, ("storm", "strong", 500), id="004-weather-95-S04"),
        pytest.param(96, ("storm", "gale", 500), id="004-weather-96-S04"),
        pytest.param(97, ("storm", "gale", 500), id="004-weather-97-S04"),
        pytest.param(98, ("storm", "strong", 200), id="004-weather-98-S04"),
        pytest.param(99, ("storm", "gale", 200), id="004-weather-99-S04"),
        pytest.param(100, ("storm", "gale", 200), id="004-weather-00-is-100-S02-S04"),
    ],
)
def test_weather_chart(n: int, expected: tuple[str, str, int | None]) -> None:
    """Lines 53-57 (the weather chart), cleaned by S04; S05: the 'Gale' weather is the effects table's
    Storm."""
    assert C.weather_from_number(n) == expected


def test_weather_chart_covers_1_100_once_S04() -> None:
    """S04: 'The cleaned table then covers 1-100 exactly once.'"""
    covered = sorted(n for lo, hi, *_ in T.WEATHER_CHART for n in range(lo, hi + 1))
    assert covered == list(range(1, 101))


@pytest.mark.parametrize(
    "cur, target, expected",
    [
        pytest.param(44, 70, 54, id="004-weather-step-up-10-S06"),
        pytest.param(44, 20, 34, id="004-weather-step-down-10-S06"),
        pytest.param(44, 50, 50, id="004-weather-step-last-shorter-S06"),
        pytest.param(44, 54, 54, id="004-weather-step-exactly-10-S06"),
    ],
)
def test_weather_steps(cur: int, target: int, expected: int) -> None:
    """Line 51: 'Any change is made in steps of ten points per move until the new conditions reached'
    (S06)."""
    assert C.weather_step(cur, target) == expected


@pytest.mark.parametrize(
    "base, night, expected",
    [
        pytest.param(1500, False, 1500.0, id="004-visibility-day"),
        pytest.param(1500, True, 750.0, id="004-visibility-halved-at-night-A2"),
        pytest.param(200, True, 100.0, id="004-visibility-fog-night"),
        pytest.param(None, True, None, id="004-visibility-unlimited-stays"),
    ],
)
def test_visibility(base: int | None, night: bool, expected: float | None) -> None:
    """Line 49: 'Visibility is halved at night.' (A2)"""
    assert C.visibility_mm(base, night) == expected


# --- 5. Effects of weather ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cond, wind, firing, speed",
    [
        pytest.param("storm", "gale", "none", 0.5, id="005-storm-gale-no-firing-half-speed-S05"),
        pytest.param("storm", "strong", "rated_two_thirds", 1.0, id="005-storm-strong-third-of-guns-S05"),
        pytest.param("rain", "gale", "all", 0.5, id="005-rain-gale-half-speed"),
        pytest.param("storm", "moderate", "rated", 1.0, id="005-storm-moderate-no-unrated-S05"),
        pytest.param("rain", "strong", "rated", 1.0, id="005-rain-strong-no-unrated"),
        pytest.param("clear", "strong", "all", 1.0, id="005-clear-strong-normal"),
        pytest.param("fog", "moderate", "all", 1.0, id="005-fog-moderate-normal"),
        pytest.param("rain", "moderate", "all", 1.0, id="005-rain-moderate-normal"),
        pytest.param("clear", "light", "all", 0.5, id="005-light-half-speed"),
        pytest.param("fog", "light", "all", 0.5, id="005-fog-light-half-speed"),
        pytest.param("clear", "calm", "all", 0.0, id="005-calm-no-movement"),
        pytest.param("fog", "calm", "all", 0.0, id="005-fog-calm-no-movement"),
    ],
)
def test_weather_effects(cond: str, wind: str, firing: str, speed: float) -> None:
    """Lines 61-70: the effects of weather (S05: Storm = the Gale weather; Fog and Mist one condition)."""
    assert C.weather_effect(cond, wind) == (firing, speed)


@pytest.mark.parametrize(
    "guns, rate, firing, allowed",
    [
        pytest.param(37, "3rd", "rated_two_thirds", 25, id="005-third-of-37-floor-12-S44"),
        pytest.param(30, "3rd", "rated_two_thirds", 20, id="005-third-of-30-S44"),
        pytest.param(2, "5th", "rated_two_thirds", 2, id="005-third-of-2-floor-0-S44"),
        pytest.param(9, "unrated", "rated_two_thirds", 0, id="005-unrated-storm-strong"),
        pytest.param(9, "unrated", "rated", 0, id="005-unrated-rain-strong"),
        pytest.param(9, "6th", "rated", 9, id="005-rated-rain-strong"),
        pytest.param(40, "1st", "none", 0, id="005-storm-gale-nobody"),
        pytest.param(40, "1st", "all", 40, id="005-normal"),
    ],
)
def test_weather_guns(guns: int, rate: str, firing: str, allowed: int) -> None:
    """Line 63: 'one third of guns on rated vessels may not fire' (S44: floor(guns/3) may not)."""
    assert C.weather_guns_allowed(guns, rate, firing) == allowed


# --- 6. Sailing speeds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate, sector, mm",
    [
        pytest.param(r, s, mm, id=f"006-speed-{r}-{s}")
        for r, row in (
            ("1st", (160, 120, 80)),
            ("2nd", (160, 120, 80)),
            ("3rd", (160, 120, 80)),
            ("4th", (200, 160, 120)),
            ("5th", (200, 160, 120)),
            ("6th", (240, 200, 160)),
            ("unrated", (240, 200, 160)),
        )
        for s, mm in zip(("beam_quarter", "aft", "bow"), row, strict=True)
    ],
)
def test_sailing_speeds(rate: str, sector: str, mm: int) -> None:
    """Lines 76-79: 'Beam or Quarter 160mm 200mm 240mm / Aft 120mm 160mm 200mm / Bow 80mm 120mm 160mm'.
    S07: 6th rates use 'Others'."""
    assert C.base_speed(rate, sector) == mm


@pytest.mark.parametrize(
    "heading, sector",
    [
        pytest.param(0.0, "irons", id="006-S08-head-to-wind-irons"),
        pytest.param(22.4, "irons", id="006-S08-22.4-irons"),
        pytest.param(22.5, "bow", id="006-S08-22.5-bow"),
        pytest.param(67.4, "bow", id="006-S08-67.4-bow"),
        pytest.param(67.5, "beam_quarter", id="006-S08-67.5-beam"),
        pytest.param(157.4, "beam_quarter", id="006-S08-157.4-quarter"),
        pytest.param(157.5, "aft", id="006-S08-157.5-aft"),
        pytest.param(180.0, "aft", id="006-S08-180-aft"),
        pytest.param(-67.5 % 360, "beam_quarter", id="006-S08-port-side-symmetric"),
    ],
)
def test_points_of_sailing_S08(heading: float, sector: str) -> None:
    """S08: 'theta < 22.5 not allowed; 22.5 <= theta < 67.5 = Bow; 67.5 <= theta < 157.5 = Beam or Quarter;
    theta >= 157.5 = Aft' (wind from 0)."""
    assert C.point_of_sailing(heading, 0.0)[0] == sector


@pytest.mark.parametrize(
    "masts, severe, pct",
    [
        pytest.param(1, False, 25, id="013-S11-one-mast-25"),
        pytest.param(2, False, 50, id="013-S11-two-masts-50"),
        pytest.param(4, False, 100, id="013-S11-four-masts-100-dismasted"),
        pytest.param(0, True, 50, id="013-S11-severe-underwater-50"),
        pytest.param(2, True, 100, id="013-S11-masts-and-underwater-add"),
    ],
)
def test_cumulative_reductions_S11(masts: int, severe: bool, pct: int) -> None:
    """Line 203: 'all sailing speed reductions are cumulative' (S11: the percentages add)."""
    assert C.speed_reduction_pct(masts, severe) == pct


@pytest.mark.parametrize(
    "heading, turn, wind, forbidden",
    [
        pytest.param(90.0, -67.5, 0.0, False, id="007-S43-turn-to-22.5-allowed"),
        pytest.param(90.0, -68.0, 0.0, True, id="007-S43-turn-into-fore-forbidden"),
        pytest.param(90.0, -180.0, 0.0, True, id="007-S43-turn-through-fore-forbidden"),
        pytest.param(90.0, 180.0, 0.0, False, id="007-S43-wear-round-the-stern-allowed"),
        pytest.param(90.0, 250.0, 0.0, True, id="007-S43-wear-too-far-into-fore"),
        pytest.param(90.0, 240.0, 0.0, False, id="007-S43-wear-to-30-off"),
        pytest.param(90.0, 225.0, 0.0, False, id="007-S43-wear-to-22.5-other-tack"),
        pytest.param(10.0, 30.0, 0.0, False, id="007-NW-SAIL-2-in-irons-turn-away"),
        pytest.param(10.0, -30.0, 0.0, True, id="007-NW-SAIL-2-in-irons-turn-through"),
    ],
)
def test_fore_section_S43(heading: float, turn: float, wind: float, forbidden: bool) -> None:
    """Line 97: 'Except when tacking vessels may not move through the 'Fore' section of the turning circle.'
    S43: within 22.5 degrees either side of the wind's eye. Line 83: 'cannot sail closer than 22 1/2
    degrees'."""
    assert C.crosses_fore(heading, turn, wind) is forbidden


def test_manoeuvre_numbers() -> None:
    """Line 81 'at least 50% of the distance moved from the previous move'; line 85 'If 50% ... lost all
    course changes are at half speed' (S10); line 87 '25% Aft speed', 'After two moves a temporary mast', '25%
    of Normal speed' (S09); lines 462-464 '6cm diameter' / '4.75 cm diameter' (NW-SAIL-1); line 104 '45
    degrees from the wind on the tack'."""
    assert T.MIN_MOVE_FRACTION == 0.5
    assert T.HALF_SPEED_TURN_LOSS_FRACTION == 0.5
    assert T.DRIFT_FRACTION_OF_AFT == 0.25 and T.JURY_MAST_AFTER_MOVES == 2 and T.JURY_MAST_FRACTION == 0.25
    assert C.turning_radius("1st") == 30.0 and C.turning_radius("3rd") == 30.0
    assert C.turning_radius("4th") == 23.75 and C.turning_radius("unrated") == 23.75
    assert T.TACK_END_OFF_WIND_DEG == 45.0 and T.TACK_FORBIDDEN_WINDS == ("strong", "gale")


# --- 8. Efficiency, 9. towing, 10. rowing -------------------------------------------------------------------


@pytest.mark.parametrize(
    "d6, grade",
    [
        pytest.param(1, "poor", id="008-grade-1-poor"),
        pytest.param(2, "poor", id="008-grade-2-poor"),
        pytest.param(3, "average", id="008-grade-3-average"),
        pytest.param(4, "average", id="008-grade-4-average"),
        pytest.param(5, "good", id="008-grade-5-good"),
        pytest.param(6, "good", id="008-grade-6-good"),
    ],
)
def test_efficiency_grades(d6: int, grade: str) -> None:
    """Lines 112-114: '5 or 6 Good / 3 or 4 Average / 1 or 2 Poor'."""
    assert C.efficiency_grade(d6) == grade


@pytest.mark.parametrize(
    "points, ok",
    [
        pytest.param(99, True, id="010-row-99-points"),
        pytest.param(100, False, id="010-row-100-no-S40"),
        pytest.param(20, True, id="010-row-cutter"),
    ],
)
def test_rowing(points: int, ok: bool) -> None:
    """Line 126: 'Only vessels of 99 Damage points or less can be rowed, maximum move is 50 mm'."""
    assert C.can_row(points) is ok
    assert T.ROW_MAX_MM == 50.0


def test_towing_numbers() -> None:
    """Line 120: 'It takes two moves to secure a tow rope. 25% of the towing vessels move distance is the
    maximum'."""
    assert T.TOW_SECURE_MOVES == 2 and T.TOW_SPEED_FRACTION == 0.25


# --- 11. Gunnery ranges and arcs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "d, rate, double, band",
    [
        pytest.param(0, "3rd", False, "short", id="011-rated-0-short"),
        pytest.param(100, "3rd", False, "short", id="011-rated-100-short"),
        pytest.param(100.5, "3rd", False, "medium", id="011-rated-101-medium"),
        pytest.param(200, "3rd", False, "medium", id="011-rated-200-medium"),
        pytest.param(201, "6th", False, "long", id="011-rated-201-long"),
        pytest.param(300, "1st", False, "long", id="011-rated-300-long"),
        pytest.param(300.5, "1st", False, None, id="011-rated-beyond-300"),
        pytest.param(50, "unrated", False, "short", id="011-unrated-50-short"),
        pytest.param(51, "unrated", False, "medium", id="011-unrated-51-medium"),
        pytest.param(100, "unrated", False, "medium", id="011-unrated-100-medium"),
        pytest.param(101, "unrated", False, "long", id="011-unrated-101-long"),
        pytest.param(150, "unrated", False, "long", id="011-unrated-150-long"),
        pytest.param(151, "unrated", False, None, id="011-unrated-beyond-150"),
        pytest.param(50, "3rd", True, "short", id="011-double-rated-50-short"),
        pytest.param(51, "3rd", True, "medium", id="011-double-rated-51-medium"),
        pytest.param(150, "3rd", True, "long", id="011-double-rated-150-long"),
        pytest.param(151, "3rd", True, None, id="011-double-rated-151-out"),
        pytest.param(75, "unrated", True, "long", id="011-double-unrated-75-long"),
    ],
)
def test_ranges(d: float, rate: str, double: bool, band: str | None) -> None:
    """Lines 134-136: 'All Rated Vessels 0mm - 100mm 101mm - 200mm 201mm - 300mm / All Unrated Vessels 0mm -
    50mm 51mm - 100mm 101mm - 150mm'; line 146: 'When firing double shot all ranges are halved.'"""
    assert C.range_band(d, rate, double) == band


@pytest.mark.parametrize(
    "rel, ok",
    [
        pytest.param(90.0, True, id="011-S12-abeam"),
        pytest.param(68.0, True, id="011-S12-68"),
        pytest.param(112.0, True, id="011-S12-112"),
        pytest.param(67.9, False, id="011-S12-67.9-out"),
        pytest.param(112.1, False, id="011-S12-112.1-out"),
        pytest.param(-90.0, True, id="011-S12-port-beam"),
        pytest.param(0.0, False, id="011-S12-ahead-out"),
    ],
)
def test_arc_of_fire_S12(rel: float, ok: bool) -> None:
    """Line 142: 'The possible angle of fire is 22 degrees from the centre of each vessel.' (S12: either side
    of the beam)."""
    assert C.in_arc_of_fire(rel) is ok


@pytest.mark.parametrize(
    "rel, rake",
    [
        pytest.param(0.0, "bow", id="011-S13-dead-ahead-bow-rake"),
        pytest.param(22.5, "bow", id="011-S13-22.5-bow-NW-SAIL-3"),
        pytest.param(23.0, None, id="011-S13-23-no-rake"),
        pytest.param(180.0, "stern", id="011-S13-astern-stern-rake"),
        pytest.param(-157.5, "stern", id="011-S13-157.5-stern"),
        pytest.param(90.0, None, id="011-S13-abeam-no-rake"),
    ],
)
def test_rake_S13(rel: float, rake: str | None) -> None:
    """Line 144: a rake: 'part of the vessel's broadside must ... overlap the whole of an opponent's stern or
    bow' (S13; NW-SAIL-3: within 22.5 degrees of the target's keel line)."""
    assert C.rake_of(rel) == rake


# --- 12. Firing factor --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw, expected",
    [
        pytest.param({"rake": "stern"}, 4, id="012-stern-rake-plus-4-S13"),
        pytest.param({"rake": "bow"}, 2, id="012-bow-rake-plus-2"),
        pytest.param({"land_based": True}, 1, id="012-land-based-plus-1"),
        pytest.param({"grade": "good"}, 1, id="012-good-plus-1"),
        pytest.param({"nation": "Britain"}, 1, id="012-british-plus-1"),
        pytest.param({"nation": "USA"}, 1, id="012-american-plus-1"),
        pytest.param({"range_name": "short"}, 1, id="012-short-plus-1"),
        pytest.param({"first_time": True}, 1, id="012-first-time-plus-1-S15"),
        pytest.param({"wind_force": "calm"}, 1, id="012-calm-plus-1"),
        pytest.param({"wind_force": "light"}, 1, id="012-light-plus-1"),
        pytest.param({"wind_force": "gale"}, -2, id="012-gale-minus-2"),
        pytest.param({"merchant": True}, -1, id="012-merchant-minus-1-S15"),
        pytest.param({"grade": "poor"}, -1, id="012-poor-minus-1"),
        pytest.param({"nation": "Spain"}, -1, id="012-spain-minus-1"),
        pytest.param({"nation": "Dutch"}, 0, id="012-dutch-0"),
        pytest.param({"nation": "Denmark"}, 0, id="012-danish-0"),
        pytest.param({"nation": "France"}, 0, id="012-french-0"),
        pytest.param({"range_name": "long"}, -1, id="012-long-minus-1"),
        pytest.param({"wind_force": "strong"}, -1, id="012-strong-minus-1"),
        pytest.param({"range_name": "medium"}, 0, id="012-medium-0"),
    ],
)
def test_firing_factor_modifiers(kw: dict[str, object], expected: int) -> None:
    """Lines 156-163: '+4 Stren Rake -2 Gale / +2 Bow rake -1 Merchantman or Transport / +1 Guns land based -1
    Efficiency Grade Poor / +1 Efficiency Grade Good -1 Nationalities other than British, American, Dutch,
    Danish or French / +1 British or American -1 Long Range / +1 Short Range -1 Strong Breeze / +1 First Time
    Fired / +1 Calm or Light Breeze'."""
    base: dict[str, object] = {
        "grade": "average",
        "nation": "France",
        "range_name": "medium",
        "wind_force": "moderate",
    }
    base.update(kw)
    mods = C.firing_factor_modifiers(**base)  # type: ignore[arg-type]
    assert sum(v for _, v in mods) == expected


def test_firing_factor_extremes_S14() -> None:
    """S14: 'The modifiers run from -6 ... to +10 ... So FF runs from -2 to 20'."""
    lo = C.firing_factor_modifiers(
        grade="poor", nation="Spain", range_name="long", wind_force="gale", merchant=True
    )
    hi = C.firing_factor_modifiers(
        grade="good",
        nation="Britain",
        range_name="short",
        rake="stern",
        land_based=True,
        first_time=True,
        wind_force="light",
    )
    assert sum(v for _, v in lo) == -6 and sum(v for _, v in hi) == 10
    assert sum(v for _, v in lo) + 2 + 2 == -2 and sum(v for _, v in hi) + 5 + 5 == 20


# --- 28. Gunnery chart --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "guns, ff, cell",
    [
        pytest.param(1, 1, (0, 0), id="028-chart-1-1-dot"),
        pytest.param(1, 5, (1, 0), id="028-chart-1-5"),
        pytest.param(1, 19, (3, 1), id="028-chart-1-19"),
        pytest.param(5, 1, (1, 0), id="028-chart-5-1"),
        pytest.param(10, 10, (15, 3), id="028-chart-10-10"),
        pytest.param(20, 10, (30, 6), id="028-chart-20-10"),
        pytest.param(30, 10, (54, 11), id="028-chart-30-10"),
        pytest.param(30, 19, (90, 20), id="028-chart-30-19-kept-S21"),
        pytest.param(18, 2, (5, 1), id="028-chart-18-2-corrected-S16"),
        pytest.param(21, 6, (19, 4), id="028-chart-21-6-corrected-S17"),
        pytest.param(27, 11, (48, 10), id="028-chart-27-11-corrected-S17"),
        pytest.param(30, 16, (80, 16), id="028-chart-30-16-corrected-S17"),
        pytest.param(24, 18, (65, 13), id="028-chart-24-18-parenthesis-S18"),
        pytest.param(25, 1, (4, 1), id="028-chart-25-1-bracket-S19"),
        pytest.param(14, 10, (21, 4), id="028-chart-14-10-bracket-S19"),
        pytest.param(19, 2, (3, 1), id="028-chart-19-2-kept-S20"),
        pytest.param(23, 4, (18, 4), id="028-chart-23-4-kept-S20"),
        pytest.param(25, 4, (15, 3), id="028-chart-25-4-kept-S20"),
        pytest.param(7, 15, (14, 3), id="028-chart-7-15-flat-kept-S21"),
        pytest.param(25, 19, (71, 14), id="028-chart-25-19-flat-kept-S21"),
        pytest.param(4, 12, (7, 2), id="028-chart-4-12-bracket-kept-S21"),
        pytest.param(22, 18, (59, 11), id="028-chart-22-18-59-11-kept-S21"),
    ],
)
def test_gunnery_chart_cells(guns: int, ff: int, cell: tuple[int, int]) -> None:
    """Section 28 (lines 418-448): 'Cross reference the Number of Guns Firing ... with the Firing Factors';
    corrected cells S16-S19, suspect cells kept as printed S20-S21."""
    assert C.chart_cell(guns, ff) == cell


def test_chart_corrections_listed() -> None:
    """S16-S19: every corrected cell is in GUNNERY_CHART_CORRECTIONS and the chart uses the corrected
    value."""
    assert set(T.GUNNERY_CHART_CORRECTIONS) == {
        (18, 2),
        (21, 6),
        (27, 11),
        (30, 16),
        (24, 18),
        (25, 1),
        (14, 10),
    }
    for (g, f), (_, used, _) in T.GUNNERY_CHART_CORRECTIONS.items():
        assert T.GUNNERY_CHART[g - 1][f - 1] == used
    assert len(T.GUNNERY_CHART) == 30 and all(len(r) == 19 for r in T.GUNNERY_CHART)


def test_corrected_rows_monotonic_S17() -> None:
    """S17: 'A higher firing factor must not do less damage' holds along the corrected rows 21, 27 and 30."""
    for g in (21, 27, 30):
        row = [c[0] for c in T.GUNNERY_CHART[g - 1]]
        assert row == sorted(row)


@pytest.mark.parametrize(
    "ff, cell",
    [
        pytest.param(0, (0, 0), id="028-S14-ff-0-no-effect"),
        pytest.param(-2, (0, 0), id="028-S14-ff-minus-2-no-effect"),
        pytest.param(20, (90, 20), id="028-S14-ff-20-column-19"),
        pytest.param(25, (90, 20), id="028-S14-ff-25-column-19"),
    ],
)
def test_chart_outside_columns_S14(ff: int, cell: tuple[int, int]) -> None:
    """S14: 'FF <= 0 -> no effect; FF >= 20 -> column 19.'"""
    assert C.chart_cell(30, ff) == cell


@pytest.mark.parametrize(
    "count, ff, expected",
    [
        pytest.param(40, 10, (69, 14), id="028-S22-40-guns-ff10-30+10"),
        pytest.param(37, 8, (36 + 8, 7 + 2), id="028-S22-37-guns-30+7"),
        pytest.param(65, 19, (90 + 90 + 14, 20 + 20 + 3), id="028-S22-65-guns-30+30+5"),
        pytest.param(60, 1, (8, 2), id="028-S22-60-30+30"),
        pytest.param(30, 10, (54, 11), id="028-S22-30-no-split"),
    ],
)
def test_split_above_30_S22(count: int, ff: int, expected: tuple[int, int]) -> None:
    """Line 450: 'If the number of guns firing ... exceeds the number on the chart split the number ... then
    add together' (S22: as many 30s as possible, then the remainder; 40 guns at FF 10: 30 + 10 -> 69 (14))."""
    assert C.chart_result(count, ff) == expected


def test_double_shot_doubles() -> None:
    """Line 170: '(Double result when firing double shot)'."""
    assert C.chart_result(20, 10, double=True) == (60, 12)


# --- 13. Damage chart ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pts, rolls",
    [
        pytest.param(0, 0, id="013-S24-0-points-0-rolls"),
        pytest.param(1, 1, id="013-S24-1-point-1-roll"),
        pytest.param(50, 1, id="013-S24-50-points-1-roll"),
        pytest.param(51, 2, id="013-S24-51-points-2-rolls"),
        pytest.param(100, 2, id="013-S24-100-points-2-rolls"),
        pytest.param(101, 3, id="013-S24-101-points-3-rolls"),
    ],
)
def test_damage_roll_count_S24(pts: int, rolls: int) -> None:
    """Line 172: 'For every 50 Damage points removed from the vessel, or part thereof, throw two Decimal
    dice'."""
    assert C.damage_rolls(pts) == rolls


@pytest.mark.parametrize(
    "roll, code",
    [
        pytest.param(0, "admiral_killed", id="013-dc-00-admiral-killed-S02"),
        pytest.param(1, "captain_killed", id="013-dc-01-captain-killed"),
        pytest.param(2, "admiral_wounded", id="013-dc-02-admiral-wounded"),
        pytest.param(3, "captain_wounded", id="013-dc-03-captain-wounded"),
        pytest.param(4, "mast_damage", id="013-dc-04-mast"),
        pytest.param(8, "mast_damage", id="013-dc-08-mast"),
        pytest.param(9, "one_fire", id="013-dc-09-fire"),
        pytest.param(13, "one_fire", id="013-dc-13-fire"),
        pytest.param(14, "boat_destroyed", id="013-dc-14-boat"),
        pytest.param(18, "boat_destroyed", id="013-dc-18"),
        pytest.param(19, "nothing", id="013-dc-19-nothing"),
        pytest.param(23, "nothing", id="013-dc-23"),
        pytest.param(24, "two_fires", id="013-dc-24-two-fires"),
        pytest.param(28, "two_fires", id="013-dc-28"),
        pytest.param(29, "mast_damage", id="013-dc-29-mast"),
        pytest.param(33, "mast_damage", id="013-dc-33"),
        pytest.param(34, "boat_destroyed", id="013-dc-34-boat"),
        pytest.param(38, "boat_destroyed", id="013-dc-38"),
        pytest.param(39, "one_fire", id="013-dc-39-fire"),
        pytest.param(43, "one_fire", id="013-dc-43"),
        pytest.param(44, "nothing", id="013-dc-44"),
        pytest.param(48, "nothing", id="013-dc-48"),
        pytest.param(49, "wheel_port", id="013-dc-49-wheel-port"),
        pytest.param(50, "wheel_starboard", id="013-dc-50-wheel-starboard"),
        pytest.param(51, "anchor_cable", id="013-dc-51-anchor-cable"),
        pytest.param(52, "severe_underwater", id="013-dc-52-severe-S23"),
        pytest.param(53, "pumps_destroyed", id="013-dc-53-pumps"),
        pytest.param(54, "boat_destroyed", id="013-dc-54-boat"),
        pytest.param(58, "boat_destroyed", id="013-dc-58"),
        pytest.param(59, "nothing", id="013-dc-59"),
        pytest.param(63, "nothing", id="013-dc-63"),
        pytest.param(64, "mast_damage", id="013-dc-64-mast"),
        pytest.param(68, "mast_damage", id="013-dc-68"),
        pytest.param(69, "one_fire", id="013-dc-69-fire"),
        pytest.param(73, "one_fire", id="013-dc-73"),
        pytest.param(74, "two_fires", id="013-dc-74-two-fires"),
        pytest.param(78, "two_fires", id="013-dc-78"),
        pytest.param(79, "mast_damage", id="013-dc-79-mast"),
        pytest.param(83, "mast_damage", id="013-dc-83"),
        pytest.param(84, "nothing", id="013-dc-84"),
        pytest.param(88, "nothing", id="013-dc-88"),
        pytest.param(89, "boat_destroyed", id="013-dc-89-boat"),
        pytest.param(93, "boat_destroyed", id="013-dc-93"),
        pytest.param(94, "one_fire", id="013-dc-94-fire"),
        pytest.param(98, "one_fire", id="013-dc-98"),
        pytest.param(99, "magazine_explodes", id="013-dc-99-magazine"),
    ],
)
def test_damage_chart(roll: int, code: str) -> None:
    """Lines 174-201: the damage chart, 00-99 (S02: 00 = 0 here)."""
    assert C.damage_result(roll) == code


def test_damage_chart_covers_00_99() -> None:
    """Lines 174-201 cover 00-99 exactly once."""
    assert sorted(n for lo, hi, _ in T.DAMAGE_CHART for n in range(lo, hi + 1)) == list(range(100))


def test_damage_effect_numbers() -> None:
    """Lines 174-177, 187-191: 'no singles for next six moves' / 'next two moves' / 'next three moves' / 'next
    move' (S23 signals); 'turns 90 degrees'; 'will sink in four moves'."""
    assert T.NO_SIGNALS_MOVES == {"admiral_killed": 6, "admiral_wounded": 3}
    assert T.NO_COURSE_CHANGE_MOVES == {"captain_killed": 2, "captain_wounded": 1}
    assert T.WHEEL_TURN_DEG == {"wheel_port": -90.0, "wheel_starboard": 90.0}
    assert T.PUMPS_SINK_MOVES == 4


@pytest.mark.parametrize(
    "lost, sb, pt, split",
    [
        pytest.param(6, 10, 10, (3, 3), id="013-S26-rake-even-split"),
        pytest.param(5, 10, 12, (2, 3), id="013-S26-odd-gun-from-fuller-port-NW-SAIL-6"),
        pytest.param(5, 12, 10, (3, 2), id="013-S26-odd-gun-from-fuller-starboard"),
        pytest.param(1, 7, 7, (1, 0), id="013-S26-odd-gun-tie-starboard"),
    ],
)
def test_rake_gun_split_S26(lost: int, sb: int, pt: int, split: tuple[int, int]) -> None:
    """Line 172: 'If the fire is a rake, an equal number of guns are destroyed on each side' (S26: split the
    bracketed total evenly)."""
    assert C.rake_gun_split(lost, sb, pt) == split


# --- 14. Fires ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "attempt, exact, expected",
    [
        pytest.param(1, False, (4, False), id="014-S27-attempt-1-needs-4"),
        pytest.param(2, False, (4, False), id="014-S27-attempt-2-needs-4"),
        pytest.param(3, False, (4, False), id="014-S27-attempt-3-needs-4"),
        pytest.param(4, False, (5, False), id="014-S27-attempt-4-needs-5"),
        pytest.param(3, True, (4, True), id="014-S27-option-attempt-3-exactly-4"),
    ],
)
def test_fire_thresholds_S27(attempt: int, exact: bool, expected: tuple[int, bool]) -> None:
    """Line 207: 'a four or a five is needed on the first two attempts, four on the third and five on the
    fourth.'"""
    assert C.fire_needed(attempt, exact) == expected


def test_fire_numbers() -> None:
    """Lines 209-213: 'two Average dice. A score of ten and the vessel explodes'; 'within 75 millimetres'; '40
    Damage points per move'."""
    assert T.FIRE_EXPLOSION_DICE == 2 and T.FIRE_EXPLOSION_SCORE == 10
    assert T.EXPLOSION_RADIUS_MM == 75.0 and T.FIRE_OUT_OF_CONTROL_DAMAGE == 40


# --- 15., 16. Boarding, prize crews; 19. entanglement; 20. boats --------------------------------------------


@pytest.mark.parametrize(
    "rate, decks",
    [
        pytest.param("1st", 3, id="015-S30-1st-3-decks"),
        pytest.param("2nd", 3, id="015-S30-2nd-3-decks"),
        pytest.param("3rd", 2, id="015-S30-3rd-2-decks"),
        pytest.param("4th", 2, id="015-S30-4th-2-decks"),
        pytest.param("5th", 2, id="015-S30-5th-2-decks"),
        pytest.param("6th", 1, id="015-S30-6th-1-deck"),
        pytest.param("unrated", 1, id="015-S30-others-1-deck"),
    ],
)
def test_decks_S30(rate: str, decks: int) -> None:
    """Line 227: '1st and 2nd and Rates have three decks, 3rd, 4th and 5th Rates have two decks and other
    vessels one deck.' (S30)"""
    assert C.decks(rate) == decks


def test_boarding_numbers() -> None:
    """Line 219: 'the attacker must leave 20% of their crew on their own vessel'; line 241: 'The prize crew
    must equal 10% of the full crew'; S29: D6 +1 Good/-1 Poor, nationality as the firing factor; roll <= 0 no
    casualties."""
    assert C.boarding_party(620) == 496 and C.boarding_party(280) == 224
    assert C.prize_crew(700) == 70 and C.prize_crew(275) == 28
    assert sum(v for _, v in C.boarding_modifiers("good", "Britain")) == 2
    assert sum(v for _, v in C.boarding_modifiers("poor", "Spain")) == -2
    assert sum(v for _, v in C.boarding_modifiers("average", "France")) == 0
    assert C.melee_casualties(30, 0) == 0
    assert C.melee_casualties(30, 6) == 5
    assert C.melee_casualties(496, 7) == 16 * 6 + 4  # S22/S29: 16 x row 30 (31 (6)) + row 16 (18 (4))


@pytest.mark.parametrize(
    "same, b2b, total",
    [
        pytest.param(True, False, 1, id="019-S33-same-side-plus-1"),
        pytest.param(False, True, -1, id="019-broadside-to-broadside-minus-1"),
        pytest.param(True, True, 0, id="019-both"),
        pytest.param(False, False, 0, id="019-neither"),
    ],
)
def test_separation_modifiers(same: bool, b2b: bool, total: int) -> None:
    """Line 267: '+1 Vessels on same side -1 Vessels broadside to broadside'; line 268 (S32): 4 or over
    separates."""
    assert sum(v for _, v in C.separation_modifiers(same, b2b)) == total
    assert T.ENTANGLE_SEPARATE_NEEDED == 4


def test_entangled_motion_average() -> None:
    """Line 261: 'direction and speed ... taken as the average of the combined direction and speed' (S34:
    whole mm)."""
    h, d = C.entangled_motion(90.0, 160.0, 180.0, 121.0)
    assert round(h, 6) == 135.0 and d == 140
    assert C.broadside_to_broadside(90.0, 270.0) and C.broadside_to_broadside(90.0, 120.0)
    assert not C.broadside_to_broadside(90.0, 0.0)


@pytest.mark.parametrize(
    "rate, boats",
    [
        pytest.param("1st", 8, id="020-1st-8-boats"),
        pytest.param("2nd", 8, id="020-2nd-8-boats"),
        pytest.param("3rd", 8, id="020-3rd-8-boats"),
        pytest.param("4th", 4, id="020-4th-4-boats"),
        pytest.param("5th", 4, id="020-5th-4-boats"),
        pytest.param("6th", 4, id="020-6th-4-boats"),
        pytest.param("unrated", 1, id="020-unrated-1-boat"),
    ],
)
def test_boats(rate: str, boats: int) -> None:
    """Lines 276-278: '1st/2nd/3rd Rates Eight boats / 4th/5th/6th Rates Four boats / Unrated One boat'."""
    assert C.ships_boats(rate) == boats


# --- 21. Shoals ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate, guns, fathoms",
    [
        pytest.param("1st", 120, 5, id="021-1st-5-fathoms"),
        pytest.param("2nd", 98, 5, id="021-2nd-5"),
        pytest.param("3rd", 74, 5, id="021-3rd-5"),
        pytest.param("4th", 50, 4, id="021-4th-4-fathoms"),
        pytest.param("5th", 38, 4, id="021-5th-4"),
        pytest.param("6th", 28, 4, id="021-6th-4"),
        pytest.param("unrated", 25, 3, id="021-25-gunner-3-fathoms"),
        pytest.param("unrated", 13, 3, id="021-13-gunner-3-fathoms"),
        pytest.param("unrated", 12, 2, id="021-12-gunner-2-fathoms"),
        pytest.param("unrated", 5, 2, id="021-5-gunner-2-fathoms"),
        pytest.param("unrated", 4, 1, id="021-4-gunner-1-fathom"),
        pytest.param("unrated", 0, 1, id="021-0-gunner-1-fathom"),
        pytest.param("unrated", 26, 4, id="021-S36-26-gunner-4-fathoms"),
    ],
)
def test_grounding_depth(rate: str, guns: int, fathoms: int) -> None:
    """Lines 286-290: 'Five fathoms and below 1st/2nd/3rd Rates / Four ... 4th/5th/6th / Three ... 13 - 25
    Gunners / Two ... 5 - 12 / One ... 0 - 4' (S36: 26+ unrated in 4 fathoms)."""
    assert C.grounding_depth(rate, guns) == fathoms


def test_grounding_numbers() -> None:
    """Line 292: '10% of its damage points' (S37: of the start, rounded); line 296: '5 Vessel floats off next
    move, otherwise 20 damage points'; line 297 (S35: +1 per assisting vessel); line 299: 'not move more than
    60 millimetres'."""
    assert C.grounding_damage(620) == 62 and C.grounding_damage(275) == 28 and C.grounding_damage(35) == 4
    assert C.refloat_total(4, 0) == 4 and C.refloat_total(4, 1) == 5 and C.refloat_total(3, 2) == 5
    assert T.REFLOAT_NEEDED == 5 and T.REFLOAT_FAIL_DAMAGE == 20 and T.CAST_LOG_MAX_MOVE_MM == 60.0


def test_anchoring_numbers() -> None:
    """Lines 303-305: 'less than 300 fathoms'; 'drop anchor takes one move, to raise it takes five moves or
    the cable may be cut which takes one move. It takes two moves to man the mast and a further two moves to
    set the sails.'"""
    assert (
        T.ANCHOR_MAX_DEPTH_FATHOMS,
        T.ANCHOR_DROP_MOVES,
        T.ANCHOR_RAISE_MOVES,
        T.ANCHOR_CUT_MOVES,
        T.MAN_MASTS_MOVES,
        T.SET_SAILS_MOVES,
    ) == (300, 1, 5, 1, 2, 2)


# --- 23. Mortars --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "d100, result",
    [
        pytest.param(1, ("short", 0.1), id="023-ranging-01-short"),
        pytest.param(10, ("short", 0.1), id="023-ranging-10-short"),
        pytest.param(11, ("over", 0.1), id="023-ranging-11-over"),
        pytest.param(20, ("over", 0.1), id="023-ranging-20-over"),
        pytest.param(21, ("left", 0.1), id="023-ranging-21-left"),
        pytest.param(30, ("left", 0.1), id="023-ranging-30-left"),
        pytest.param(31, ("right", 0.1), id="023-ranging-31-right"),
        pytest.param(40, ("right", 0.1), id="023-ranging-40-right"),
        pytest.param(41, ("on_target", 0.0), id="023-ranging-41-on-target"),
        pytest.param(0, ("on_target", 0.0), id="023-ranging-00-is-100-S02"),
    ],
)
def test_mortar_ranging(d100: int, result: tuple[str, float]) -> None:
    """Lines 321-325: '1 - 10 Short by 10% ... 11 - 20 Over ... 21 - 30 Left ... 31 - 40 Right ... 41 - 100 In
    target area' (S02: 00 = 100)."""
    assert C.mortar_ranging(d100) == result


def test_mortar_numbers() -> None:
    """Line 311: 'destructive vale of 50' (S38: 50 points, one damage roll); line 313: 'four moves to load';
    line 315: 'Minimum range is 100 mm - maximum range is 500 mm'; line 474: spider '13 cm' (S39 3 x 3
    grid)."""
    assert T.MORTAR_DAMAGE == 50 and C.damage_rolls(T.MORTAR_DAMAGE) == 1
    assert T.MORTAR_LOAD_MOVES == 4 and T.MORTAR_RANGE_MM == (100.0, 500.0)
    assert T.MORTAR_SPIDER_SIZE_MM == 130.0 and len(T.MORTAR_SPIDER) == 9 and T.MORTAR_SPIDER[5] == (0, 0)


# --- 24.-26. Batteries, marines, merchants ------------------------------------------------------------------


@pytest.mark.parametrize(
    "guns, construction, pts",
    [
        pytest.param(6, "open", 60, id="024-open-10-a-gun"),
        pytest.param(6, "earth", 180, id="024-earth-30-a-gun"),
        pytest.param(6, "stone", 240, id="024-stone-40-a-gun"),
    ],
)
def test_battery_points(guns: int, construction: str, pts: int) -> None:
    """Line 335: 'each two millimetres section is worth ten points if open, 30 points if earth and 40 points
    if stone.'"""
    assert C.battery_points(guns, construction) == pts


def test_battery_numbers() -> None:
    """Lines 337-341: '20 men ten moves ... fifteen men five moves ... ten men ten moves'; 'six men per gun
    plus 50%'; 'arc of fire ... 70 degrees (35 degrees either side of the perpendicular)'."""
    assert T.BATTERY_WORKS == {
        "prepare_gun_position": (20, 10),
        "position_gun": (15, 5),
        "earthworks_2mm": (10, 10),
    }
    assert C.battery_garrison(10) == 90 and T.SHORE_BATTERY_ARC_DEG == 35.0


@pytest.mark.parametrize(
    "points, guns, marines",
    [
        pytest.param(102, 18, 18, id="025-S40-102-points-marines"),
        pytest.param(101, 18, 0, id="025-S40-101-points-none"),
        pytest.param(100, 16, 0, id="025-S40-100-points-none"),
        pytest.param(620, 74, 74, id="025-74-gun-ship"),
    ],
)
def test_marines_S40(points: int, guns: int, marines: int) -> None:
    """Line 347: 'Vessels of over 101 damage points carry one marine for every gun on board.'"""
    assert C.marines(points, guns) == marines


def test_merchants_and_transports_S41() -> None:
    """Line 353: 'Merchant vessels have a crew of 10% ... Transports ... 50% of their guns removed and only
    10% of the normal crew' (S41: the one pool is 10%)."""
    assert C.merchant_points(280) == 28
    assert C.transport_from(38, 280) == (19, 28)
    assert C.transport_from(74, 620) == (37, 62)


@pytest.mark.parametrize(
    "guns, split",
    [
        pytest.param(74, (37, 37), id="002-S42-74-even"),
        pytest.param(3, (2, 1), id="002-S42-3-odd-to-starboard"),
        pytest.param(1, (1, 0), id="002-S42-1"),
    ],
)
def test_guns_per_side_S42(guns: int, split: tuple[int, int]) -> None:
    """Line 26: 'Guns starboard (right) and port (left)' (S42: odd gun to starboard)."""
    assert C.guns_per_side(guns) == split


# --- 27. Ship definitions and the tables command ------------------------------------------------------------


def test_reference_classes_every_row() -> None:
    """Lines 359-410: the whole ship definitions table, every row, as reference classes that validate."""
    refs = RS.reference_classes()
    assert len(refs) == 51 == len(T.SHIP_DEFINITIONS)
    by_key = {r["key"]: r for r in refs}
    assert len(by_key) == 51
    usa44 = by_key["sail_usa_4th_44"]["stats"]
    assert usa44 == {
        "nation": "USA",
        "rate": "4th",
        "type": "4th",
        "service": "warship",
        "guns": 44,
        "guns_starboard": 22,
        "guns_port": 22,
        "points": 440,
        "mortars": 0,
    }
    assert by_key["sail_britain_bomb_4"]["stats"]["mortars"] == 2  # type: ignore[index]
    assert by_key["sail_france_gun_vessel_3"]["stats"]["guns_starboard"] == 2  # type: ignore[index]
    assert by_key["sail_spain_1st_130"]["source"].endswith("line 360")  # type: ignore[union-attr]
    assert by_key["sail_france_gun_vessel_3"]["source"].endswith("line 410")  # type: ignore[union-attr]
    for r in refs:
        assert RS.validate_class(r["stats"]) == {}, r["key"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "stats, field",
    [
        pytest.param({"nation": "USA", "rate": "4th", "points": 440}, "guns", id="002-class-missing-guns"),
        pytest.param(
            {"nation": "USA", "rate": "4th", "guns": -1, "points": 440}, "guns", id="002-class-negative-guns"
        ),
        pytest.param(
            {"nation": "USA", "rate": "4th", "guns": 44, "points": 99999}, "points", id="002-class-absurd"
        ),
        pytest.param(
            {"nation": "Mars", "rate": "4th", "guns": 44, "points": 440}, "nation", id="002-class-nation"
        ),
        pytest.param(
            {"nation": "USA", "rate": "7th", "guns": 44, "points": 440}, "rate", id="002-class-rate"
        ),
        pytest.param(
            {
                "nation": "USA",
                "rate": "4th",
                "guns": 44,
                "guns_starboard": 30,
                "guns_port": 30,
                "points": 440,
            },
            "guns_starboard",
            id="002-class-more-guns-per-side-than-aboard",
        ),
        pytest.param(
            {"nation": "USA", "rate": "4th", "guns": 44, "guns_starboard": 22, "points": 440},
            "guns_port",
            id="002-class-one-side-only-S42",
        ),
    ],
)
def test_validate_class(stats: dict[str, object], field: str) -> None:
    """Line 20-27 (Info Chart): name, type, grade, nationality, guns starboard and port, crew/damage
    points."""
    assert field in RS.validate_class(stats)  # type: ignore[arg-type]


def test_tables_json_has_every_chart() -> None:
    """'Each chart is one data constant that python -m rules tables sail_1700 prints' (issue 5)."""
    tables = RS.tables()
    text = json.dumps(tables)
    assert json.loads(text) == tables
    for key in (
        "wind_direction",
        "weather_chart",
        "weather_effects",
        "sailing_speeds_mm",
        "efficiency_grades",
        "gunnery_ranges_mm",
        "firing_factor_modifiers",
        "gunnery_chart",
        "gunnery_chart_corrections",
        "damage_chart",
        "fires",
        "boarding",
        "entanglement",
        "ships_boats",
        "grounding_depth_by_rate",
        "grounding_depth_by_guns",
        "anchoring",
        "mortar_ranging",
        "mortar_spider",
        "shore_batteries",
        "marines",
        "merchants",
        "ship_definitions",
        "towing",
        "rowing",
        "manoeuvre",
    ):
        assert key in tables, key
    assert tables["gunnery_chart"][17][1] == [5, 1]  # type: ignore[index]
    assert len(tables["ship_definitions"]) == 51  # type: ignore[arg-type]
