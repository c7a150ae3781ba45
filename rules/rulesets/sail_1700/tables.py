"""The charts of ``sail_1700``, as data. Source: ``seeds/001_bb5ec6dbb79b532f.txt`` (Naval Wargame Rules
1700-1830), with the S-rulings of ``../shared/rulings.md`` and Navalwar's NW-SAIL rulings
(``docs/rulings.md``).

Every chart is one constant named after the seed's section. Distances are millimetres (1 mm = 10 m, A3),
angles degrees, dice: ``D100`` = two decimal dice, ``AVG`` = the average die (2,3,3,4,4,5), ``D6`` = the
ordinary die.
"""

from __future__ import annotations

from typing import Final

# --- 3. Wind Direction (line 39-41) -------------------------------------------------------------------
# (low, high, direction name, degrees the wind blows FROM). Two decimal dice, 00 = 100 (S02).
# S01: the printed "74 - 88 Wind from West" overlaps South West (64-75); West = 76-88.
WIND_DIRECTION: Final[tuple[tuple[int, int, str, float], ...]] = (
    (1, 13, "North", 0.0),
    (14, 25, "North East", 45.0),
    (26, 38, "East", 90.0),
    (39, 50, "South East", 135.0),
    (51, 63, "South", 180.0),
    (64, 75, "South West", 225.0),
    (76, 88, "West", 270.0),  # S01 (printed 74 - 88)
    (89, 100, "North West", 315.0),
)

# Line 43 / S03: every 10th move re-roll WIND_DIRECTION; one average die sets the sense, then the wind moves
# one table direction (45 degrees) per move until it reaches the new one.
WIND_CHANGE_EVERY_MOVES: Final = 10
WIND_SHIFT_PER_MOVE_DEG: Final = 45.0
WIND_SENSE: Final[dict[int, str]] = {2: "veer", 3: "veer", 4: "back", 5: "back"}  # veer = clockwise

# --- 4. Weather Condition (lines 53-57), cleaned by S04 --------------------------------------------------
# (low, high, condition, wind force, visibility in mm or None = unlimited). Two decimal dice, 00 = 100 (S02).
# S05: the "Fog and Mist" row is one condition ("fog"); the "Gale" weather row is the effects table's "Storm".
# S04: Gale row read by its numeric pattern (200 mm: -/98/99-00; 500 mm: 94/95/96-97; 1500 mm: 90/91/92-93);
# Rain-Gale: 500 mm 84-85, 1500 mm 66-69, unlimited none. The table covers 1-100 exactly once.
WEATHER_CHART: Final[tuple[tuple[int, int, str, str, int | None], ...]] = (
    (1, 3, "fog", "calm", 200),
    (4, 4, "fog", "light", 200),
    (5, 7, "fog", "calm", 500),
    (8, 8, "fog", "light", 500),
    (9, 9, "fog", "calm", 1500),
    (10, 10, "fog", "light", 1500),
    (11, 12, "clear", "calm", 1500),
    (13, 14, "clear", "light", 1500),
    (15, 16, "clear", "moderate", 1500),
    (17, 18, "clear", "strong", 1500),
    (19, 27, "clear", "calm", None),
    (28, 38, "clear", "light", None),
    (39, 50, "clear", "moderate", None),
    (51, 59, "clear", "strong", None),
    (60, 61, "rain", "strong", None),
    (62, 63, "rain", "moderate", None),
    (64, 65, "rain", "light", None),
    (66, 69, "rain", "gale", 1500),  # S04
    (70, 74, "rain", "strong", 1500),
    (75, 78, "rain", "moderate", 1500),
    (79, 83, "rain", "light", 1500),
    (84, 85, "rain", "gale", 500),  # S04
    (86, 87, "rain", "strong", 500),
    (88, 88, "rain", "moderate", 500),
    (89, 89, "rain", "light", 500),
    (90, 90, "storm", "moderate", 1500),  # S04
    (91, 91, "storm", "strong", 1500),
    (92, 93, "storm", "gale", 1500),
    (94, 94, "storm", "moderate", 500),  # S04 (printed under 200 mm)
    (95, 95, "storm", "strong", 500),
    (96, 97, "storm", "gale", 500),
    (98, 98, "storm", "strong", 200),
    (99, 100, "storm", "gale", 200),
)
WEATHER_CHANGE_EVERY_MOVES: Final = 10
WEATHER_STEP_PER_MOVE: Final = 10  # S06: the current weather number moves 10 toward the new roll each move
NIGHT_VISIBILITY_FACTOR: Final = 0.5  # line 49, A2: visibility is halved at night

WIND_FORCES: Final[tuple[str, ...]] = ("calm", "light", "moderate", "strong", "gale")
WEATHER_CONDITIONS: Final[tuple[str, ...]] = ("fog", "clear", "rain", "storm")
# The chart's column and row names (4.), as the pages show them: S05 reads the effects table's "Storm" as the
# chart's "Gale" weather, and "Fog and Mist" is one condition.
WIND_FORCE_LABELS: Final[dict[str, str]] = {
    "calm": "calm",
    "light": "light breeze",
    "moderate": "moderate breeze",
    "strong": "strong breeze",
    "gale": "gale",
}
WEATHER_CONDITION_LABELS: Final[dict[str, str]] = {
    "fog": "fog and mist",
    "clear": "clear",
    "rain": "rain",
    "storm": "storm (the chart's gale weather, S05)",
}

# --- 5. Effects of Weather Condition (lines 61-70), S05 (Storm = the Gale weather), S44 -------------------
# (condition, wind) -> (firing, speed factor). firing: "all" = normal, "none" = no vessel fires,
# "rated" = no firing from unrated vessels, "rated_two_thirds" = no firing from unrated vessels and one third
# of the guns of rated vessels (floor, S44) may not fire. Speed factor multiplies the sailing speed (0 = no
# movement). Combinations the seed does not list (fog/clear/rain in a gale, storm in calm/light) never come
# off WEATHER_CHART except rain + gale, which the chart lists.
WEATHER_EFFECTS: Final[dict[tuple[str, str], tuple[str, float]]] = {
    ("storm", "gale"): ("none", 0.5),
    ("storm", "strong"): ("rated_two_thirds", 1.0),
    ("rain", "gale"): ("all", 0.5),
    ("storm", "moderate"): ("rated", 1.0),
    ("rain", "strong"): ("rated", 1.0),
    ("clear", "strong"): ("all", 1.0),
    ("fog", "moderate"): ("all", 1.0),
    ("clear", "moderate"): ("all", 1.0),
    ("rain", "moderate"): ("all", 1.0),
    ("fog", "light"): ("all", 0.5),
    ("clear", "light"): ("all", 0.5),
    ("rain", "light"): ("all", 0.5),
    ("fog", "calm"): ("all", 0.0),
    ("clear", "calm"): ("all", 0.0),
    ("rain", "calm"): ("all", 0.0),
}

# --- 6. Sailing Speeds (lines 76-79), S07, S08 --------------------------------------------------------------
# Millimetres per move by rate group and point of sailing. S07: 6th rates use "Others".
SAILING_SPEEDS: Final[dict[str, dict[str, int]]] = {
    "1st-3rd": {"beam_quarter": 160, "aft": 120, "bow": 80},
    "4th-5th": {"beam_quarter": 200, "aft": 160, "bow": 120},
    "others": {"beam_quarter": 240, "aft": 200, "bow": 160},
}
RATE_SPEED_GROUP: Final[dict[str, str]] = {
    "1st": "1st-3rd",
    "2nd": "1st-3rd",
    "3rd": "1st-3rd",
    "4th": "4th-5th",
    "5th": "4th-5th",
    "6th": "others",
    "unrated": "others",
}
# S08: theta = angle between the heading and the direction the wind comes from.
# theta < 22.5 forbidden (except tacking, line 83); < 67.5 bow; < 157.5 beam or quarter; else aft.
POINTS_OF_SAILING: Final[tuple[tuple[float, str], ...]] = (
    (22.5, "irons"),
    (67.5, "bow"),
    (157.5, "beam_quarter"),
    (180.1, "aft"),
)
CLOSEST_TO_WIND_DEG: Final = (
    22.5  # line 83; S43: the turning circle's 'Fore' section is the same 22.5 degrees
)
MIN_MOVE_FRACTION: Final = 0.5  # line 81, S46: voluntary slowing only
HALF_SPEED_TURN_LOSS_FRACTION: Final = 0.5  # line 85, S10
MAST_DAMAGE_REDUCTION_PCT: Final = 25  # line 178 etc.; S11: reductions add up (percent of base speed)
SEVERE_UNDERWATER_REDUCTION_PCT: Final = 50  # line 190, S11
DRIFT_FRACTION_OF_AFT: Final = 0.25  # line 87, S09: dismasted vessels drift downwind at 25% of Aft speed
JURY_MAST_AFTER_MOVES: Final = 2  # line 87: after two moves a temporary mast may be raised
JURY_MAST_FRACTION: Final = 0.25  # line 87, S09: 25% of the speed for the current wind sector

# --- 7. Manoeuvring / 29. Turning Circle (lines 93-104, 462-464) --------------------------------------------
# Diameters in mm. NW-SAIL-1: 1st-3rd rates (ships of the line) use the 6 cm circle, every other vessel the
# 4.75 cm circle. Changes of course follow the circle (rules.geometry.turn_and_advance).
TURNING_CIRCLE_DIAMETER_MM: Final[dict[str, float]] = {"large": 60.0, "small": 47.5}
TURNING_CIRCLE_BY_RATE: Final[dict[str, str]] = {
    "1st": "large",
    "2nd": "large",
    "3rd": "large",
    "4th": "small",
    "5th": "small",
    "6th": "small",
    "unrated": "small",
}
TACK_END_OFF_WIND_DEG: Final = 45.0  # line 104: the bow ends 45 degrees from the wind on the new tack
TACK_FORBIDDEN_WINDS: Final[tuple[str, ...]] = ("strong", "gale")  # line 99

# --- 8. Crew Efficiency Gradings (lines 110-114): one ordinary die ------------------------------------------
EFFICIENCY_GRADES: Final[dict[int, str]] = {
    1: "poor",
    2: "poor",
    3: "average",
    4: "average",
    5: "good",
    6: "good",
}

# --- 9. Towing (line 120), 10. Rowing (line 126) ------------------------------------------------------------
TOW_SECURE_MOVES: Final = 2
TOW_SPEED_FRACTION: Final = 0.25
TOW_REACH_MM: Final = 50.0  # NW-SAIL-7: a tow can be passed to a vessel within 50 mm
TOW_LINE_MM: Final = 30.0  # NW-SAIL-7: the towed vessel follows 30 mm astern
ROW_MAX_POINTS: Final = 99  # "Only vessels of 99 Damage points or less can be rowed"
ROW_MAX_MM: Final = 50.0

# --- 11. Gunnery (lines 132-146) ----------------------------------------------------------------------------
# Range bands in mm, upper bounds inclusive: (short, medium, long). Rated = 1st-6th rates.
GUNNERY_RANGES: Final[dict[str, tuple[float, float, float]]] = {
    "rated": (100.0, 200.0, 300.0),
    "unrated": (50.0, 100.0, 150.0),
}
DOUBLE_SHOT_RANGE_FACTOR: Final = 0.5  # line 146: all ranges halved
DOUBLE_SHOT_LOAD_MOVES: Final = 2  # line 146
RELOAD_MOVES: Final = 1  # line 140: a broadside fired cannot fire in the next move
ARC_OF_FIRE_DEG: Final = 22.0  # line 142, S12: 22 degrees either side of the beam
RAKE_ARC_DEG: Final = 22.5  # NW-SAIL-3: the firer lies within 22.5 degrees of the target's keel line (S13)
SHORE_BATTERY_ARC_DEG: Final = 35.0  # line 341: 70 degrees, 35 either side of the perpendicular

# --- 12. Damage Calculation: firing factor (lines 156-164), S13, S14, S15 -----------------------------------
FIRING_FACTOR_MODIFIERS: Final[dict[str, int]] = {
    "stern_rake": 4,  # S13 "Stren Rake"
    "bow_rake": 2,
    "land_based": 1,
    "grade_good": 1,
    "british_american": 1,
    "short_range": 1,
    "first_time_fired": 1,  # S15: the firer's first broadside of the battle
    "calm_or_light": 1,
    "gale": -2,
    "merchant_or_transport": -1,  # S15: the firer is a merchantman or transport
    "grade_poor": -1,
    "other_nationality": -1,  # not British, American, Dutch, Danish or French
    "long_range": -1,
    "strong_breeze": -1,
}
FIRING_FACTOR_DICE: Final = 2  # "the sum of two Average dice"
FF_MIN_EFFECT: Final = 1  # S14: FF <= 0 has no effect
FF_MAX_COLUMN: Final = 19  # S14: FF >= 20 reads column 19
NATIONS: Final[tuple[str, ...]] = (
    "Britain",
    "USA",
    "France",
    "Spain",
    "Dutch",
    "Denmark",
    "Sweden",
    "Russia",
    "Portugal",
    "Naples",
    "Venice",
    "Ottoman",
    "Other",
)
NATION_BONUS: Final[tuple[str, ...]] = ("Britain", "USA")
NATION_NEUTRAL: Final[tuple[str, ...]] = ("Dutch", "Denmark", "France")
CHART_MAX_ROW: Final = 30  # S22: more than 30 guns or men: as many 30s as possible, then the remainder

# --- 28. Gunnery / Boarding Action Chart (lines 418-448) ----------------------------------------------------
# GUNNERY_CHART[guns - 1][ff - 1] = (crew/damage points, guns destroyed). Printed "." = (0, 0).
# Corrected cells: S16 (18/FF2), S17 (21/6, 27/11, 30/16), S18 (24/18), S19 (25/1, 14/10).
# Suspect cells kept as printed: S20 (19/2 = 3 (1); rows 17, 18, 23, 24, 25-30) and S21 (flat steps, odd
# brackets).
# fmt: off
GUNNERY_CHART: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    # 1 guns/men
    ((0, 0), (0, 0), (0, 0), (0, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0), (2, 0), (2, 0),
     (2, 0), (2, 0), (2, 0), (2, 0), (2, 0), (3, 1)),
    # 2 guns/men
    ((0, 0), (0, 0), (1, 0), (1, 0), (1, 0), (2, 0), (2, 0), (2, 0), (2, 0), (3, 1), (3, 1), (3, 1), (4, 1),
     (4, 1), (4, 1), (5, 1), (5, 1), (5, 1), (5, 1)),
    # 3 guns/men
    ((0, 0), (1, 0), (1, 0), (2, 0), (2, 0), (2, 0), (3, 1), (3, 1), (4, 1), (4, 1), (5, 1), (5, 1), (6, 1),
     (6, 1), (6, 1), (7, 1), (7, 1), (8, 2), (8, 2)),
    # 4 guns/men
    ((0, 0), (1, 0), (2, 0), (2, 0), (3, 1), (3, 1), (4, 1), (5, 1), (5, 1), (6, 1), (6, 1), (7, 2), (8, 2),
     (8, 2), (9, 2), (9, 2), (10, 2), (11, 2), (11, 2)),
    # 5 guns/men
    ((1, 0), (1, 0), (2, 0), (3, 1), (4, 1), (4, 1), (5, 1), (6, 1), (7, 1), (7, 1), (8, 2), (9, 2), (10, 2),
     (10, 2), (11, 2), (12, 2), (13, 3), (14, 3), (14, 3)),
    # 6 guns/men
    ((1, 0), (2, 0), (2, 0), (3, 1), (4, 1), (5, 1), (5, 1), (6, 1), (7, 1), (8, 2), (9, 2), (10, 2), (11, 2),
     (12, 2), (13, 3), (14, 3), (15, 3), (16, 3), (17, 3)),
    # 7 guns/men
    ((1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 2), (9, 2), (10, 2), (11, 2), (12, 2),
     (13, 3), (14, 3), (14, 3), (16, 3), (18, 4), (19, 4), (20, 4)),
    # 8 guns/men
    ((1, 0), (2, 0), (3, 1), (5, 1), (6, 1), (7, 1), (8, 2), (8, 2), (11, 2), (12, 2), (13, 2), (14, 3),
     (15, 3), (17, 3), (18, 4), (18, 4), (20, 4), (21, 4), (23, 5)),
    # 9 guns/men
    ((1, 0), (2, 0), (4, 1), (5, 1), (7, 1), (8, 2), (9, 2), (11, 2), (12, 2), (13, 3), (15, 3), (16, 3),
     (17, 3), (19, 4), (20, 4), (20, 4), (23, 5), (24, 5), (25, 5)),
    # 10 guns/men
    ((1, 0), (3, 1), (4, 1), (6, 1), (7, 1), (9, 2), (10, 2), (12, 2), (13, 3), (15, 3), (16, 3), (18, 3),
     (19, 4), (21, 4), (22, 4), (24, 5), (25, 5), (27, 5), (28, 6)),
    # 11 guns/men
    ((1, 0), (3, 1), (5, 1), (6, 1), (8, 1), (10, 2), (11, 2), (13, 3), (15, 3), (16, 3), (18, 4), (20, 4),
     (21, 4), (23, 5), (25, 5), (26, 5), (28, 6), (29, 6), (31, 6)),
    # 12 guns/men
    ((2, 0), (3, 1), (5, 1), (7, 1), (9, 2), (11, 2), (12, 2), (14, 3), (16, 3), (18, 4), (20, 4), (21, 4),
     (23, 5), (25, 5), (26, 5), (28, 6), (30, 6), (31, 6), (34, 7)),
    # 13 guns/men
    ((2, 0), (4, 1), (6, 1), (8, 2), (10, 2), (11, 2), (13, 3), (15, 3), (17, 3), (19, 4), (21, 4), (23, 5),
     (25, 5), (27, 6), (29, 6), (31, 6), (33, 7), (35, 7), (37, 7)),
    # 14 guns/men -- FF 10: S19: printed 21 (3)
    ((2, 0), (4, 1), (6, 1), (8, 2), (10, 2), (12, 2), (14, 3), (17, 3), (17, 3), (21, 4), (23, 4), (25, 5),
     (27, 5), (29, 6), (31, 6), (33, 7), (35, 7), (38, 8), (40, 8)),
    # 15 guns/men
    ((2, 0), (4, 1), (7, 1), (8, 2), (11, 2), (13, 3), (16, 3), (18, 4), (20, 4), (22, 4), (25, 5), (27, 5),
     (29, 6), (31, 6), (34, 7), (36, 7), (38, 8), (40, 8), (43, 9)),
    # 16 guns/men
    ((2, 0), (5, 1), (8, 2), (11, 2), (13, 3), (16, 3), (18, 4), (20, 4), (22, 4), (25, 5), (27, 5), (29, 6),
     (31, 6), (34, 7), (36, 7), (38, 8), (40, 8), (43, 9), (45, 9)),
    # 17 guns/men
    ((2, 0), (5, 1), (7, 1), (10, 2), (13, 3), (15, 3), (18, 4), (20, 4), (23, 5), (25, 5), (28, 6), (30, 6),
     (33, 7), (35, 7), (38, 8), (41, 8), (43, 9), (46, 9), (48, 10)),
    # 18 guns/men -- FF 2: S16: printed '(1)' with no damage figure
    ((2, 0), (5, 1), (10, 2), (13, 3), (15, 3), (18, 4), (20, 4), (23, 5), (25, 5), (28, 6), (30, 6), (33, 7),
     (35, 7), (38, 8), (41, 8), (43, 9), (46, 9), (48, 10), (51, 10)),
    # 19 guns/men
    ((3, 1), (3, 1), (8, 2), (11, 2), (14, 3), (17, 3), (20, 4), (23, 5), (25, 5), (28, 6), (31, 6), (34, 7),
     (37, 7), (40, 8), (43, 9), (45, 9), (48, 10), (51, 10), (56, 11)),
    # 20 guns/men
    ((3, 1), (6, 1), (9, 2), (12, 2), (15, 3), (18, 4), (21, 4), (24, 5), (27, 5), (30, 6), (33, 7), (36, 7),
     (39, 8), (42, 8), (45, 9), (48, 10), (51, 10), (54, 11), (57, 11)),
    # 21 guns/men -- FF 6: S17: printed 10 (4)
    ((3, 1), (6, 1), (9, 2), (12, 2), (16, 3), (19, 4), (22, 4), (25, 5), (28, 6), (31, 6), (36, 7), (38, 8),
     (41, 8), (44, 9), (47, 9), (50, 10), (53, 11), (56, 11), (60, 12)),
    # 22 guns/men
    ((3, 1), (6, 1), (10, 2), (13, 3), (18, 4), (20, 4), (23, 5), (27, 5), (29, 6), (33, 7), (38, 8), (41, 8),
     (43, 9), (47, 9), (50, 10), (53, 11), (56, 11), (59, 11), (62, 12)),
    # 23 guns/men
    ((3, 1), (7, 1), (10, 2), (18, 4), (20, 4), (23, 5), (27, 5), (29, 6), (33, 7), (36, 7), (41, 8), (43, 9),
     (47, 9), (50, 10), (53, 11), (56, 11), (59, 11), (62, 12), (65, 13)),
    # 24 guns/men -- FF 18: S18: printed '65 (13' (no closing parenthesis)
    ((3, 1), (7, 1), (11, 2), (20, 4), (23, 5), (27, 5), (29, 6), (33, 7), (36, 7), (38, 8), (43, 9), (47, 9),
     (50, 10), (53, 11), (56, 11), (59, 11), (62, 12), (65, 13), (68, 14)),
    # 25 guns/men -- FF 1: S19: printed 4 (0)
    ((4, 1), (7, 1), (11, 2), (15, 3), (19, 4), (22, 4), (26, 5), (30, 6), (34, 7), (41, 8), (45, 9),
     (47, 10), (52, 10), (56, 11), (60, 12), (64, 13), (67, 13), (71, 14), (71, 14)),
    # 26 guns/men
    ((4, 1), (8, 2), (11, 2), (15, 3), (19, 4), (23, 5), (27, 5), (31, 6), (35, 7), (43, 9), (47, 9),
     (50, 10), (54, 11), (58, 12), (62, 12), (66, 13), (70, 14), (76, 15), (77, 15)),
    # 27 guns/men -- FF 11: S17: printed 43 (10)
    ((4, 1), (8, 2), (12, 2), (16, 3), (20, 4), (24, 5), (28, 6), (32, 6), (36, 7), (44, 9), (48, 10),
     (52, 10), (56, 11), (61, 12), (65, 13), (67, 14), (73, 15), (77, 15), (80, 16)),
    # 28 guns/men
    ((4, 1), (8, 2), (12, 2), (17, 3), (21, 4), (25, 5), (29, 6), (33, 7), (38, 8), (46, 9), (52, 10),
     (56, 11), (61, 12), (65, 13), (67, 14), (71, 14), (75, 15), (80, 16), (82, 16)),
    # 29 guns/men
    ((4, 1), (8, 2), (13, 3), (17, 3), (22, 4), (26, 5), (30, 6), (35, 7), (39, 8), (52, 10), (54, 11),
     (61, 12), (65, 13), (69, 14), (74, 15), (78, 16), (82, 16), (85, 17), (88, 18)),
    # 30 guns/men -- FF 16: S17: printed 8 (16)
    ((4, 1), (9, 2), (14, 3), (18, 4), (25, 5), (27, 5), (31, 6), (36, 7), (40, 8), (54, 11), (58, 12),
     (63, 13), (67, 13), (72, 14), (76, 15), (80, 16), (85, 17), (88, 18), (90, 20)),
)
# fmt: on

# The cells GUNNERY_CHART changes from the printed chart: (guns, ff) -> (printed, corrected, ruling).
# Printed None = no figure printed.
GUNNERY_CHART_CORRECTIONS: Final[
    dict[tuple[int, int], tuple[tuple[int | None, int], tuple[int, int], str]]
] = {
    (18, 2): ((None, 1), (5, 1), "S16"),
    (21, 6): ((10, 4), (19, 4), "S17"),
    (27, 11): ((43, 10), (48, 10), "S17"),
    (30, 16): ((8, 16), (80, 16), "S17"),
    (24, 18): ((65, 13), (65, 13), "S18"),
    (25, 1): ((4, 0), (4, 1), "S19"),
    (14, 10): ((21, 3), (21, 4), "S19"),
}

# --- 13. Effects of Damage: the damage chart (lines 174-201), S02 (00 = 0), S23, S24, S25 -------------------
# (low, high, result code). One roll of two decimal dice (00-99) per 50 points removed "or part thereof" per
# volley (S24: ceil(points / 50)).
DAMAGE_POINTS_PER_ROLL: Final = 50
DAMAGE_CHART: Final[tuple[tuple[int, int, str], ...]] = (
    (0, 0, "admiral_killed"),  # no signals (S23) for the next six moves
    (1, 1, "captain_killed"),  # no course changes for the next two moves
    (2, 2, "admiral_wounded"),  # no signals for the next three moves
    (3, 3, "captain_wounded"),  # no course change next move
    (4, 8, "mast_damage"),
    (9, 13, "one_fire"),
    (14, 18, "boat_destroyed"),
    (19, 23, "nothing"),
    (24, 28, "two_fires"),
    (29, 33, "mast_damage"),
    (34, 38, "boat_destroyed"),
    (39, 43, "one_fire"),
    (44, 48, "nothing"),
    (49, 49, "wheel_port"),  # turns 90 degrees to port, all further course changes at half speed
    (50, 50, "wheel_starboard"),
    (51, 51, "anchor_cable"),  # if laid: drifts downwind next move
    (52, 52, "severe_underwater"),  # S23 "Sever"; all sailing speeds -50%
    (53, 53, "pumps_destroyed"),  # S25: with severe underwater damage, in either order: sinks in four moves
    (54, 58, "boat_destroyed"),
    (59, 63, "nothing"),
    (64, 68, "mast_damage"),
    (69, 73, "one_fire"),
    (74, 78, "two_fires"),
    (79, 83, "mast_damage"),
    (84, 88, "nothing"),
    (89, 93, "boat_destroyed"),
    (94, 98, "one_fire"),
    (99, 99, "magazine_explodes"),  # sinks next move
)
DAMAGE_RESULT_TEXT: Final[dict[str, str]] = {
    "admiral_killed": "Admiral killed if aboard: no signals for the next six moves",
    "captain_killed": "Captain killed: no course changes for the next two moves",
    "admiral_wounded": "Admiral wounded if aboard: no signals for the next three moves",
    "captain_wounded": "Captain wounded: no course change next move",
    "mast_damage": "Mast damage: sailing speed reduced by 25%",
    "one_fire": "One fire started",
    "two_fires": "Two fires started",
    "boat_destroyed": "One ship's boat destroyed",
    "nothing": "Nothing",
    "wheel_port": "Wheel crew hit: vessel turns 90 degrees to port, all further course changes at half speed",
    "wheel_starboard": (
        "Wheel crew hit: vessel turns 90 degrees to starboard, all further course changes at half speed"
    ),
    "anchor_cable": "Anchor cable hit if laid: vessel drifts downwind next move",
    "severe_underwater": "Severe underwater damage: all sailing speeds reduced by 50%",
    "pumps_destroyed": "Pumps destroyed: with severe underwater damage the vessel sinks in four moves (S25)",
    "magazine_explodes": "Magazine explodes: vessel sinks next move",
}
NO_SIGNALS_MOVES: Final[dict[str, int]] = {"admiral_killed": 6, "admiral_wounded": 3}
NO_COURSE_CHANGE_MOVES: Final[dict[str, int]] = {"captain_killed": 2, "captain_wounded": 1}
WHEEL_TURN_DEG: Final[dict[str, float]] = {"wheel_port": -90.0, "wheel_starboard": 90.0}
PUMPS_SINK_MOVES: Final = 4

# --- 14. Fires (lines 207-213), S27, S28 --------------------------------------------------------------------
# Average die needed on attempt 1, 2, 3, 4 (S27: "four" = 4 or more; option: exactly 4 on the third attempt).
FIRE_ATTEMPT_NEEDED: Final[tuple[int, ...]] = (4, 4, 4, 5)
FIRE_EXPLOSION_DICE: Final = 2  # two average dice after each failed attempt / each move out of control
FIRE_EXPLOSION_SCORE: Final = 10  # "A score of ten and the vessel explodes"
FIRE_OUT_OF_CONTROL_DAMAGE: Final = 40  # per move, per fire out of control
EXPLOSION_RADIUS_MM: Final = 75.0  # ships within 75 mm test for fires: one ordinary die of fires each (S28)

# --- 15. Boarding (lines 219-237), S29, S30; 16. Prize Crews (line 241) -------------------------------------
BOARDING_LEAVE_ABOARD_FRACTION: Final = 0.2  # the attacker leaves 20% of the crew aboard
BOARDING_MODIFIERS: Final[dict[str, int]] = {
    "grade_good": 1,
    "grade_poor": -1,
    "british_american": 1,
    "other_nationality": -1,
}
DECKS_BY_RATE: Final[dict[str, int]] = {
    "1st": 3,
    "2nd": 3,
    "3rd": 2,
    "4th": 2,
    "5th": 2,
    "6th": 1,
    "unrated": 1,
}
PRIZE_CREW_FRACTION: Final = 0.1

# --- 17. Sinking, 18. Striking Colours (lines 247, 253), S31 ------------------------------------------------
STRIKE_BELOW_FRACTION: Final = 0.2  # compulsory when below 20% of starting points and unable to escape fire

# --- 19. Vessels Becoming Entangled (lines 259-269), S32, S33, S34 ------------------------------------------
CONTACT_MM: Final = 15.0  # NW-SAIL-4: centres closer than a model's beam (1/1200) are in contact
ENTANGLE_SEPARATE_NEEDED: Final = 4  # S32: 4 or over separates (one average die)
ENTANGLE_MODIFIERS: Final[dict[str, int]] = {"same_side": 1, "broadside_to_broadside": -1}
BROADSIDE_TO_BROADSIDE_DEG: Final = 45.0  # NW-SAIL-5: keels within 45 degrees of parallel

# --- 20. Ships Boats (lines 276-278) ------------------------------------------------------------------------
SHIPS_BOATS: Final[dict[str, int]] = {
    "1st": 8,
    "2nd": 8,
    "3rd": 8,
    "4th": 4,
    "5th": 4,
    "6th": 4,
    "unrated": 1,
}

# --- 21. Shoals and Shallows (lines 284-299), S35, S36, S37 -------------------------------------------------
# Rated: depth in fathoms at or below which the vessel runs aground.
GROUNDING_DEPTH_BY_RATE: Final[dict[str, int]] = {"1st": 5, "2nd": 5, "3rd": 5, "4th": 4, "5th": 4, "6th": 4}
# Unrated, by guns: (min guns, max guns or None, fathoms). S36: 26+ guns ground in 4 fathoms.
GROUNDING_DEPTH_BY_GUNS: Final[tuple[tuple[int, int | None, int], ...]] = (
    (0, 4, 1),
    (5, 12, 2),
    (13, 25, 3),
    (26, None, 4),
)
GROUNDING_DAMAGE_FRACTION: Final = 0.1  # S37: 10% of starting points, rounded to the nearest point
REFLOAT_NEEDED: Final = 5  # one average die
REFLOAT_ASSIST_BONUS: Final = 1  # S35: +1 per assisting vessel
REFLOAT_FAIL_DAMAGE: Final = 20
REFLOAT_ASSIST_REACH_MM: Final = 100.0  # NW-SAIL-8
CAST_LOG_MAX_MOVE_MM: Final = 60.0

# --- 22. Anchoring (lines 303-305) --------------------------------------------------------------------------
ANCHOR_MAX_DEPTH_FATHOMS: Final = 300  # "less than 300 fathoms"
ANCHOR_DROP_MOVES: Final = 1
ANCHOR_RAISE_MOVES: Final = 5
ANCHOR_CUT_MOVES: Final = 1
MAN_MASTS_MOVES: Final = 2
SET_SAILS_MOVES: Final = 2

# --- 23. Mortars (lines 311-331), S38, S39; 30. Mortar Spider (line 474) ------------------------------------
MORTAR_DAMAGE: Final = 50  # S38: a hit does 50 damage points (one damage-chart roll)
MORTAR_LOAD_MOVES: Final = 4
MORTAR_RANGE_MM: Final[tuple[float, float]] = (100.0, 500.0)
# Two decimal dice, 00 = 100 (S02): (low, high, result, fraction of the distance).
MORTAR_RANGING: Final[tuple[tuple[int, int, str, float], ...]] = (
    (1, 10, "short", 0.1),
    (11, 20, "over", 0.1),
    (21, 30, "left", 0.1),
    (31, 40, "right", 0.1),
    (41, 100, "on_target", 0.0),
)
# S39: the spider's layout is a parameter; default a 3 x 3 grid over the 130 mm spider, one decimal die:
# 1 2 3 (over) / 4 5 6 / 7 8 9 (short), left to right across the line of fire; 0 = the shell fails to explode.
MORTAR_SPIDER_SIZE_MM: Final = 130.0
MORTAR_SPIDER: Final[dict[int, tuple[int, int]]] = {
    1: (-1, 1),
    2: (0, 1),
    3: (1, 1),
    4: (-1, 0),
    5: (0, 0),
    6: (1, 0),
    7: (-1, -1),
    8: (0, -1),
    9: (1, -1),
}  # (across: -1 left .. +1 right, along: +1 over .. -1 short), in steps of the spacing
MORTAR_SPIDER_SPACING_MM: Final = 130.0 / 3
MORTAR_HIT_RADIUS_MM: Final = 20.0  # NW-SAIL-9: a shell falling within 20 mm of a ship's centre hits it

# --- 24. Shore Batteries (lines 335-341) --------------------------------------------------------------------
BATTERY_GUN_SPACING_MM: Final = 2.0
BATTERY_POINTS_PER_GUN: Final[dict[str, int]] = {"open": 10, "earth": 30, "stone": 40}
BATTERY_WORKS: Final[dict[str, tuple[int, int]]] = {  # task -> (men, moves)
    "prepare_gun_position": (20, 10),
    "position_gun": (15, 5),
    "earthworks_2mm": (10, 10),
}
BATTERY_GARRISON_PER_GUN: Final = 6
BATTERY_GARRISON_TROOPS_FRACTION: Final = 0.5
# A ship's working party (24., line 337): the order's task -> the row of BATTERY_WORKS it works on.
WORKS_TASKS: Final[dict[str, str]] = {
    "prepare": "prepare_gun_position",
    "gun": "position_gun",
    "earthworks": "earthworks_2mm",
}
WORKS_TASK_TEXT: Final[dict[str, str]] = {
    "prepare": "prepare a gun position",
    "gun": "position a gun",
    "earthworks": "raise 2 mm of earthworks",
}
# NW-SAIL-23: a working party lands from a vessel at anchor whose boats can pull ashore within the move: the
# nearest dry land (a shoal of depth 0) within the rowing distance of 10. (50 mm).
WORKS_LANDING_REACH_MM: Final = 50.0
# NW-SAIL-23: the party leaves aboard at least 20% of the starting points (15.'s 20% left aboard; 18.: a
# vessel below 20% strikes), rounded up.
WORKS_KEEP_ABOARD_FRACTION: Final = 0.2
# NW-SAIL-25: a battery raised by a working party fires the guns its men can serve, six men a gun (24.).
WORKS_MEN_PER_GUN: Final = BATTERY_GARRISON_PER_GUN

# --- 25. Marines (line 347), S40; 26. Merchant Vessels and Transports (line 353), S41 -----------------------
MARINES_ABOVE_POINTS: Final = (
    101  # "over 101 damage points": one marine per gun aboard (part of the crew, S40)
)
MERCHANT_CREW_FRACTION: Final = 0.1
TRANSPORT_GUNS_FRACTION: Final = 0.5
TRANSPORT_CREW_FRACTION: Final = 0.1  # S41: the one pool of crew/damage points is 10%

# --- 27. Ship Definitions (lines 359-410) -------------------------------------------------------------------
# (country, vessel type, guns, mortars, crew/damage points). Every row of the seed's table.
SHIP_DEFINITIONS: Final[tuple[tuple[str, str, int, int, int], ...]] = (
    ("Spain", "1st", 130, 0, 1100),
    ("Spain", "1st", 112, 0, 900),
    ("Spain", "3rd", 80, 0, 660),
    ("Spain", "3rd", 74, 0, 600),
    ("Spain", "5th", 40, 0, 280),
    ("Spain", "6th", 34, 0, 275),
    ("Spain", "Corvette", 14, 0, 92),
    ("Spain", "Brig", 12, 0, 82),
    ("Spain", "Xebec", 12, 0, 65),
    ("Spain", "Galley", 4, 0, 50),
    ("Dutch", "3rd", 74, 0, 550),
    ("Dutch", "3rd", 64, 0, 460),
    ("Dutch", "4th", 50, 0, 360),
    ("Dutch", "5th", 36, 0, 250),
    ("Dutch", "6th", 26, 0, 180),
    ("Dutch", "Brig", 16, 0, 100),
    ("Dutch", "Schuyt", 3, 0, 40),
    ("Britain", "1st", 120, 0, 900),
    ("Britain", "1st", 100, 0, 850),
    ("Britain", "2nd", 98, 0, 750),
    ("Britain", "3rd", 80, 0, 730),
    ("Britain", "3rd", 74, 0, 620),
    ("Britain", "3rd", 64, 0, 500),
    ("Britain", "4th", 50, 0, 350),
    ("Britain", "5th", 38, 0, 280),
    ("Britain", "6th", 28, 0, 200),
    ("Britain", "Sloop", 18, 0, 120),
    ("Britain", "Brig", 18, 0, 100),
    ("Britain", "Schooner", 8, 0, 60),
    ("Britain", "Cutter", 4, 0, 20),
    ("Britain", "Bomb", 4, 2, 70),
    ("USA", "3rd", 74, 0, 640),
    ("USA", "4th", 44, 0, 440),
    ("USA", "5th", 36, 0, 350),
    ("USA", "6th", 28, 0, 280),
    ("USA", "Sloop", 18, 0, 120),
    ("USA", "Brig", 18, 0, 160),
    ("USA", "Schooner", 16, 0, 120),
    ("USA", "Bomb", 12, 1, 80),
    ("France", "1st", 120, 0, 1100),
    ("France", "1st", 110, 0, 1037),
    ("France", "3rd", 80, 0, 830),
    ("France", "3rd", 74, 0, 700),
    ("France", "4th", 44, 0, 370),
    ("France", "5th", 36, 0, 300),
    ("France", "6th", 24, 0, 230),
    ("France", "Corvette", 20, 0, 160),
    ("France", "Brig", 18, 0, 160),
    ("France", "Lugger", 16, 0, 75),
    ("France", "Xebec", 8, 0, 70),
    ("France", "Gun vessel", 3, 1, 35),
)
RATES: Final[tuple[str, ...]] = ("1st", "2nd", "3rd", "4th", "5th", "6th", "unrated")
SERVICES: Final[tuple[str, ...]] = ("warship", "merchant", "transport")
