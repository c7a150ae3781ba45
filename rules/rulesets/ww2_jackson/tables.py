"""The charts of ``ww2_jackson``, as data. Source: ``seeds/000_6c8b418afcdd1c2b.txt`` (line numbers below).

Every chart is one constant, named as the rule book names it. Rulings of ``../shared/rulings.md`` (W..) and
``docs/rulings.md`` (NW-WW2-..) that changed a cell are noted beside it. Damage is kept in **half boxes**
(W32): a 6-inch shell does 3 halves (1-1/2 hits).
"""

from __future__ import annotations

from typing import Final, Literal

Band = Literal["short", "medium", "long"]
BANDS: Final[tuple[Band, ...]] = ("short", "medium", "long")

# --- 2. GUNNERY ------------------------------------------------------------------------------

# Lines 29-43: MFN chart, BFN 1..20 per gun size. W03: 9" uses the 10" row, 7" the 8" row. W04: a BFN above 20
# is split into parts of 20 or less and their MFNs added. W05: the 18" cell at BFN 16 is kept as printed (7).
# W06: 3" guns (against small craft only) use the 4" row.
MFN_CHART: Final[dict[str, tuple[int, ...]]] = {
    "18": (1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8),
    "16": (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10),
    "15": (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10),
    "14": (1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 10, 11, 11, 12),
    "13": (1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 10, 11, 11, 12),
    "12new": (1, 2, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 10, 11, 12, 13, 14, 14, 15, 16),
    "12old": (1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 10, 11, 11, 12),
    "11": (1, 2, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 10, 11, 12, 13, 14, 14, 15, 16),
    "10": (1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13, 14, 15, 16, 17, 18),
    "8": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
    "6new": (1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 21, 22, 24, 25, 27, 28, 30),
    "6old": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
    "5": (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40),
    "4": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
}
MFN_MAX_BFN: Final = 20

# Lines 89-103: RANGES FOR GUNS, inches: (short, medium, long). W07: close = short. W08: each figure is an
# inclusive upper limit; beyond long no fire. W09: the 8" short range is 18". W06: 3" uses the 4" ranges.
RANGE_TABLE: Final[dict[str, tuple[float, float, float]]] = {
    "18": (24, 48, 72),
    "15-16": (24, 48, 72),
    "13-14": (22, 44, 68),
    "11-12": (21, 42, 65),
    "12old": (18, 36, 54),
    "9-10": (18, 38, 56),
    "8": (18, 36, 54),
    "7": (16, 34, 50),
    "6new": (16, 32, 48),
    "6old": (14, 26, 42),
    "5": (12, 24, 36),
    "4": (10, 20, 30),
}

# Lines 53-57: a D20 hits at close (short) range on 6+, medium 11+, long 16+ (W07). W10: the modified roll is
# compared with the number; no automatic hits or misses.
TO_HIT: Final[dict[str, int]] = {"short": 6, "medium": 11, "long": 16}

# Lines 63-72: cumulative modifiers to the die. (key, value, label as printed). W10 (c): "25 knots or more".
GUN_MODIFIERS: Final[dict[str, tuple[int, str]]] = {
    "firer_fast": (-1, "firing ship at high speed (25 knots or more)"),
    "target_fast": (-1, "target ship at high speed (25 knots or more)"),
    "large_vs_small": (-1, "large ship firing at destroyer-size target with 7-inch or greater guns"),
    "firer_turned": (-1, "firing ship changed course more than 90 degrees this turn"),
    "target_turned": (-1, "target ship changed course more than 90 degrees this turn"),
    "no_fire_control": (-2, "firing with no fire control"),
    "first_fired_on": (-3, "target just acquired this turn (first time fired on, A6)"),
    "target_slow": (1, "target ship at low speed (6 knots or less)"),
    "spotting_aircraft": (1, "long or medium range aided by spotting aircraft (W01, W10)"),
}
HIGH_SPEED_KNOTS: Final = 25
LOW_SPEED_KNOTS: Final = 6
LARGE_VS_SMALL_MIN_CALIBRE: Final = 7.0
TURNED_DEG: Final = 90.0

# Lines 74-83: night modifiers, NOT cumulative: the best (smallest penalty, W10 b) applies. Lines 85-87: no
# fire at night without one of them.
NIGHT_MODIFIERS: Final[dict[str, tuple[int, str]]] = {
    "searchlight": (-1, "target illuminated by searchlight beam"),
    "radar_very_good": (-1, "very good fire control radar"),
    "radar_adequate": (-2, "adequate fire control radar"),
    "radar_poor": (-3, "poor fire control radar"),
    "target_on_fire": (-2, "target on fire, no other illumination"),
    "star_shell": (-2, "target illuminated by star shell"),
    "gun_flashes": (-5, "only the target's gun flashes as aiming point"),
    "bright_moon": (-5, "only bright moonlight as illumination"),
    "dim_moon": (-7, "only dim moonlight as illumination"),
}
# A2: at night a ship is in sight within 20 inches, or when illuminated, on fire or when it fired this turn.
NIGHT_SIGHT_IN: Final = 20.0

# --- DAMAGE ----------------------------------------------------------------------------------

# Lines 237-245 and the DAMAGE DONE column (lines 91-103), in HALF boxes (W32). W33: 5" = 1 hit, 4" = 1/2 hit,
# no collateral. W06: 3" = 4" damage. The first whole box goes where the location table says; the rest is
# collateral.
DAMAGE_HALVES: Final[dict[str, int]] = {
    "18": 10,
    "13-16": 8,
    "11-12": 6,
    "9-10 & old 12": 5,
    "7-8": 4,
    "6": 3,
    "5": 2,
    "4": 1,
}

# Lines 107-134: HIT LOCATION TABLES for shell fire (W40: the "DAC"). (low, high, location) on a D20.
HIT_LOCATION_LONG: Final[tuple[tuple[int, int, str], ...]] = (
    (1, 4, "main"),
    (5, 7, "secondary"),
    (8, 9, "aa"),
    (10, 13, "above"),
    (14, 16, "underwater"),
    (17, 18, "engine"),
    (19, 19, "specialized"),
    (20, 20, "critical"),
)
HIT_LOCATION_MEDIUM: Final[tuple[tuple[int, int, str], ...]] = (
    (1, 4, "main"),
    (5, 8, "secondary"),
    (9, 10, "aa"),
    (11, 16, "above"),
    (17, 18, "underwater"),
    (19, 19, "specialized"),
    (20, 20, "critical"),
)
HIT_LOCATION_SHORT: Final[tuple[tuple[int, int, str], ...]] = (
    (1, 4, "main"),
    (5, 8, "secondary"),
    (9, 10, "aa"),
    (11, 18, "above"),
    (19, 19, "specialized"),
    (20, 20, "critical"),
)
HIT_LOCATION: Final[dict[str, tuple[tuple[int, int, str], ...]]] = {
    "long": HIT_LOCATION_LONG,
    "medium": HIT_LOCATION_MEDIUM,
    "short": HIT_LOCATION_SHORT,
}

# Lines 272-287: PENETRATION table: D20 needed per armour letter; 0 = NO (cannot), 1 = ALL (automatic).
# W27: 10' and 8' read as inches. W28: 4" and smaller penetrate no letter-coded box (W06: 3" too). W31: +5 at
# short range, but NO stays impossible and ALL automatic. W29: a non-penetrating shell does nothing,
# collateral included.
NO: Final = 0
ALL: Final = 1
PENETRATION: Final[dict[str, dict[str, int]]] = {
    "16-18": {"A": 11, "B": 5, "C": ALL, "D": ALL, "E": ALL},
    "15": {"A": 12, "B": 6, "C": 3, "D": ALL, "E": ALL},
    "13-14": {"A": 17, "B": 9, "C": 5, "D": ALL, "E": ALL},
    "11-12": {"A": NO, "B": 14, "C": 9, "D": ALL, "E": ALL},
    "9-10": {"A": NO, "B": NO, "C": 17, "D": 11, "E": ALL},
    "7-8": {"A": NO, "B": NO, "C": NO, "D": 11, "E": 6},
    "6": {"A": NO, "B": NO, "C": NO, "D": NO, "E": 9},
    "5": {"A": NO, "B": NO, "C": NO, "D": NO, "E": 14},
    "4": {"A": NO, "B": NO, "C": NO, "D": NO, "E": NO},
}
SHORT_RANGE_PENETRATION_BONUS: Final = 5
ARMOUR_LETTERS: Final[tuple[str, ...]] = ("A", "B", "C", "D", "E")

# Lines 252-254: extra flooding once the general underwater boxes are gone (W34): D20 per further underwater
# hit, 16+ marks one remaining underwater box (an engine room).
EXTRA_FLOODING_NEEDED: Final = 16

# Lines 382-386: progressive flooding after torpedo damage (W35): each turn after, D20 1-16 lose one general
# underwater box, 17+ the chance is eliminated. A damage control box eliminates it.
PROGRESSIVE_FLOODING_STOP: Final = 17

# Lines 297-299 / 319-321: ship on fire: lose 1 general above-water box each turn (2 once intensified); out on
# 16+; a 1 intensifies. W39: every recovery roll is once per turn, at the end of the turn, from the turn
# after.
FIRE_LOSS: Final[dict[str, int]] = {"normal": 1, "intense": 2}
RECOVERY_NEEDED: Final = 16

# Lines 290-299 with W24: SPECIALIZED HITS. 11-15 cannot be recovered: re-roll. 16-20 = ship on fire.
SPECIALIZED_HITS: Final[tuple[tuple[int, int, str], ...]] = (
    (1, 5, "radar"),
    (6, 10, "torpedo_tubes"),
    (11, 15, "reroll"),
    (16, 20, "fire"),
)
# W24: the torpedo-tube sub-roll: 1-2 warhead explosion, 3-20 lose all torpedo boxes including reloads.
TORPEDO_TUBE_HIT: Final[tuple[tuple[int, int, str], ...]] = ((1, 2, "warhead"), (3, 20, "lose_all"))
WARHEAD_UNDERWATER_HITS: Final = 2

# --- Critical hits. Each entry: (low, high, effect dict). Effect keys:
#   effect: the code; boxes: {area: n} boxes lost with it ("underwater" = general underwater, W19);
#   fc: "one" | "all" fire control boxes; turns: duration; fail / fail_on: what a low recovery roll does.
Effect = dict[str, object]
CritRow = tuple[int, int, Effect]

_FLOOD = "flooding"

# Lines 301-312: Critical Hits - Shellfire on Destroyers and Cruisers (W25 entries split, W26 which ships).
CRITICAL_DD_CRUISER: Final[tuple[CritRow, ...]] = (
    (1, 5, {"effect": "bridge"}),
    (6, 9, {"effect": "fire_control", "fc": "all"}),
    (10, 11, {"effect": "dc_wiped"}),
    (12, 13, {"effect": "steering", "turns": None}),
    (14, 15, {"effect": "ammo"}),
    (
        16,
        19,
        {
            "effect": _FLOOD,
            "now": 1,
            "per_turn": 1,
            "now_fast": 2,
            "per_turn_fast": 2,
            "fail": "capsize",
            "fail_on": 1,
        },
    ),
    (20, 20, {"effect": "magazine", "table": "shell"}),
)

# Lines 314-332: Critical Hits - Shellfire on Capital Ships. W23: "16-20 Ship on fire" is the fire definition
# that 5-6 points to, not a die band.
CRITICAL_CAPITAL: Final[tuple[CritRow, ...]] = (
    (1, 2, {"effect": "bridge"}),
    (3, 4, {"effect": "electrical", "turns": 2}),
    (5, 6, {"effect": "aircraft"}),
    (7, 9, {"effect": "fire_control", "fc": "one", "boxes": {"above": 2}}),
    (10, 11, {"effect": "dc_wiped", "boxes": {"above": 3}}),
    (12, 13, {"effect": "steering", "turns": 2}),
    (14, 15, {"effect": "boiler"}),
    (
        16,
        19,
        {
            "effect": _FLOOD,
            "now": 2,
            "per_turn": 1,
            "now_fast": 3,
            "per_turn_fast": 2,
            "fail": "list",
            "fail_on": 2,
        },
    ),
    (20, 20, {"effect": "magazine", "table": "shell"}),
)

# Lines 334-380: Critical Hits - Torpedo, by underwater protection. W20: no protection uses E. W21: 16-18
# flooding, 19-20 magazine (21" or larger, otherwise re-roll).
CRITICAL_TORPEDO_E: Final[tuple[CritRow, ...]] = (
    (1, 1, {"effect": "keel"}),
    (2, 9, {"effect": "fire_control", "fc": "all", "boxes": {"main": 1, "underwater": 3}}),
    (10, 11, {"effect": "dc_wiped", "boxes": {"engine": 1, "underwater": 1}}),
    (12, 13, {"effect": "steering", "turns": None, "boxes": {"underwater": 2}}),
    (14, 15, {"effect": "ammo", "boxes": {"underwater": 2}}),
    (
        16,
        18,
        {
            "effect": _FLOOD,
            "now": 3,
            "per_turn": 1,
            "now_fast": 3,
            "per_turn_fast": 2,
            "fail": "capsize",
            "fail_on": 1,
        },
    ),
    (19, 20, {"effect": "magazine", "table": "torpedo_e"}),
)
CRITICAL_TORPEDO_CD: Final[tuple[CritRow, ...]] = (
    (1, 9, {"effect": "fire_control", "fc": "all", "boxes": {"main": 1, "underwater": 3}}),
    (10, 11, {"effect": "dc_wiped", "boxes": {"underwater": 2}}),
    (12, 13, {"effect": "steering", "turns": None, "boxes": {"underwater": 2}}),
    (14, 15, {"effect": "ammo", "boxes": {"underwater": 2}}),
    (
        16,
        18,
        {
            "effect": _FLOOD,
            "now": 2,
            "per_turn": 1,
            "now_fast": 3,
            "per_turn_fast": 2,
            "fail": "capsize",
            "fail_on": 1,
        },
    ),
    (19, 20, {"effect": "magazine", "table": "torpedo_cd"}),
)
CRITICAL_TORPEDO_B: Final[tuple[CritRow, ...]] = (
    (1, 9, {"effect": "fire_control", "fc": "one", "boxes": {"main": 1, "underwater": 3}}),
    (10, 11, {"effect": "dc_wiped", "boxes": {"underwater": 3}}),
    (12, 13, {"effect": "steering", "turns": None, "boxes": {"underwater": 3}}),
    (14, 15, {"effect": "ammo", "boxes": {"underwater": 2}}),
    (
        16,
        18,
        {
            "effect": _FLOOD,
            "now": 2,
            "per_turn": 1,
            "now_fast": 3,
            "per_turn_fast": 2,
            "fail": "list",
            "fail_on": 2,
        },
    ),
    (19, 20, {"effect": "magazine", "table": "torpedo_b"}),
)
CRITICAL_TORPEDO_A: Final[tuple[CritRow, ...]] = (
    (1, 9, {"effect": "fire_control", "fc": "one", "boxes": {"main": 1, "underwater": 3}}),
    (10, 11, {"effect": "dc_wiped", "boxes": {"underwater": 3}}),
    (12, 12, {"effect": "steering", "turns": "game", "boxes": {"underwater": 3}}),
    (13, 13, {"effect": "electrical", "turns": 2}),
    (14, 15, {"effect": "fuel"}),
    (
        16,
        18,
        {
            "effect": _FLOOD,
            "now": 2,
            "per_turn": 1,
            "now_fast": 3,
            "per_turn_fast": 2,
            "fail": "list",
            "fail_on": 2,
        },
    ),
    (19, 20, {"effect": "magazine", "table": "torpedo_a"}),
)
CRITICAL_TABLES: Final[dict[str, tuple[CritRow, ...]]] = {
    "shell_dd_cruiser": CRITICAL_DD_CRUISER,
    "shell_capital": CRITICAL_CAPITAL,
    "torpedo_e": CRITICAL_TORPEDO_E,
    "torpedo_cd": CRITICAL_TORPEDO_CD,
    "torpedo_b": CRITICAL_TORPEDO_B,
    "torpedo_a": CRITICAL_TORPEDO_A,
}
# W20: which torpedo critical table for which underwater protection ("" = none -> E).
TORPEDO_CRITICAL_FOR: Final[dict[str, str]] = {
    "": "torpedo_e",
    "E": "torpedo_e",
    "D": "torpedo_cd",
    "C": "torpedo_cd",
    "B": "torpedo_b",
    "A": "torpedo_a",
}

# Magazine sub-tables (lines 307-312, 327-332, 339-344, 351-356, 363-368, 375-380). W22 for shellfire.
MagRow = tuple[int, int, Effect]
MAGAZINE_SHELL: Final[tuple[MagRow, ...]] = (
    (1, 2, {"effect": "explodes"}),
    (3, 4, {"effect": "main_half"}),
    (5, 14, {"effect": "half_guns"}),
    (15, 20, {"effect": "all_guns"}),
)
MAGAZINE_TORPEDO_E: Final[tuple[MagRow, ...]] = (
    (1, 3, {"effect": "explodes"}),
    (4, 4, {"effect": "main_half", "no_power_turns": 6, "capsize_knots": 20, "capsize_on": 11}),
    (5, 14, {"effect": "half_guns"}),
    (15, 20, {"effect": "all_guns"}),
)
MAGAZINE_TORPEDO_CD: Final[tuple[MagRow, ...]] = (
    (1, 2, {"effect": "explodes"}),
    (3, 4, {"effect": "main_half"}),
    (5, 14, {"effect": "half_guns"}),
    (15, 20, {"effect": "all_guns"}),
)
MAGAZINE_TORPEDO_B: Final[tuple[MagRow, ...]] = (
    (1, 1, {"effect": "explodes"}),
    (2, 4, {"effect": "main_half"}),
    (5, 14, {"effect": "half_guns"}),
    (15, 20, {"effect": "all_guns"}),
)
MAGAZINE_TORPEDO_A: Final[tuple[MagRow, ...]] = (
    (1, 1, {"effect": "flood_all", "boxes": {"underwater": 2}}),
    (2, 4, {"effect": "one_main", "boxes": {"underwater": 2}}),
    (5, 14, {"effect": "half_guns", "boxes": {"underwater": 2}}),
    (15, 20, {"effect": "guns_two_turns", "turns": 2, "boxes": {"underwater": 2}}),
)
MAGAZINE_TABLES: Final[dict[str, tuple[MagRow, ...]]] = {
    "shell": MAGAZINE_SHELL,
    "torpedo_e": MAGAZINE_TORPEDO_E,
    "torpedo_cd": MAGAZINE_TORPEDO_CD,
    "torpedo_b": MAGAZINE_TORPEDO_B,
    "torpedo_a": MAGAZINE_TORPEDO_A,
}

# --- 3. TORPEDOES ----------------------------------------------------------------------------

# Lines 143-146: one D20 per torpedo: long 16+, medium 11+, close (short, W07) 6+.
TORPEDO_TO_HIT: Final[dict[str, int]] = {"short": 6, "medium": 11, "long": 16}
# Lines 148-155, W13 (21-26 knots -1, 27+ -2 as bands), W14 (halve dice rounding up), W15 (radical manoeuvre =
# course change over 90 degrees in the turn it strikes).
TORPEDO_MODIFIERS: Final[dict[str, tuple[int, str]]] = {
    "stationary": (1, "target stationary"),
    "target_21": (-1, "target moving 21-26 knots (W13)"),
    "target_27": (-2, "target moving 27 knots or more (W13)"),
    "no_fire_control": (-4, "firing ship has no fire control remaining"),
    "fixed_tubes": (-3, "battleship firing from fixed tubes"),
    "agile": (-2, "very agile target (destroyer or sub-chaser)"),
}
# A6 / W12: torpedo range bands, inches: (short, medium, long) by torpedo calibre.
TORPEDO_RANGES: Final[dict[int, tuple[float, float, float]]] = {
    18: (6, 12, 18),
    21: (8, 16, 24),
    24: (12, 24, 48),
}
# Lines 157-160: turns after launch at which a torpedo of each band strikes.
TORPEDO_DELAY: Final[dict[str, int]] = {"short": 1, "medium": 1, "long": 2}

# Lines 164-186: which Torpedo Table by torpedo calibre and underwater protection ("" = none / merchant).
TORPEDO_TABLE_FOR: Final[dict[int, dict[str, int]]] = {
    18: {"": 3, "E": 4, "D": 5, "C": 6, "B": 7, "A": 8},
    21: {"": 2, "E": 3, "D": 4, "C": 5, "B": 6, "A": 7},
    24: {"": 1, "E": 2, "D": 3, "C": 4, "B": 5, "A": 6},
}

# Lines 188-235: Torpedo Tables 1-8. W19: general = general underwater box; engine = 1 engine box; "all" =
# every remaining engine box; steering = the critical steering effect. W16: Table 3 "0 =" is 20. W17: Table 5
# third band is 14-19. W18: Tables 6 and 8 kept as printed.
TorpRow = tuple[int, int, dict[str, object]]
TORPEDO_TABLES: Final[dict[int, tuple[TorpRow, ...]]] = {
    1: (
        (1, 6, {"general": 4, "engine": 1, "steering": True}),
        (7, 13, {"general": 4, "engine": 2}),
        (14, 18, {"general": 5, "engine": "all"}),
        (19, 20, {"critical": True}),
    ),
    2: (
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "engine": 2}),
        (14, 19, {"general": 4, "engine": "all"}),
        (20, 20, {"critical": True}),
    ),
    3: (
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "engine": 2}),
        (14, 19, {"general": 4, "engine": 2}),
        (20, 20, {"critical": True}),
    ),
    4: (
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 4, "engine": 1}),
        (14, 19, {"general": 4}),
        (20, 20, {"critical": True}),
    ),
    5: (
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "steering": True}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ),
    6: (
        (1, 6, {"general": 2, "engine": 1}),
        (7, 13, {"general": 3}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ),
    7: (
        (1, 6, {"general": 2}),
        (7, 10, {"general": 1, "engine": 1}),
        (11, 14, {"general": 2}),
        (15, 19, {"general": 1, "steering": True}),
        (20, 20, {"critical": True}),
    ),
    8: (
        (1, 6, {"engine": 1}),
        (7, 13, {"general": 2}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ),
}

# --- 5. MOVEMENT -----------------------------------------------------------------------------

# Line 395: 1/4 inch per knot; subtract 2 knots from speeds over 20, 1 knot from speeds under 20 (W36: applied
# in play; W37: exactly 20 knots loses 1).
INCHES_PER_KNOT: Final = 0.25
COMBAT_REDUCTION: Final[dict[str, float]] = {"over_20": 2.0, "up_to_20": 1.0}
# Lines 397-399 with W38: speed = max x intact engines / engines x (1 - u) x (1/2 while a half-speed critical
# is in force); u = 1/4 when half the general underwater boxes are gone, 1/2 when all are (not added).
UNDERWATER_SPEED_LOSS: Final[dict[str, float]] = {"half": 0.25, "all": 0.5}
HALF_SPEED_FACTOR: Final = 0.5
# Lines 401-407: turning circle radius in inches.
TURNING_RADIUS: Final[dict[str, float]] = {"destroyer": 3.0, "cruiser": 4.5, "capital": 6.0}
# Progressive flooding in a critical: "moving at 20+ knots".
FAST_FLOODING_KNOTS: Final = 20

# A5: arcs, degrees either side of bow and stern.
ARC_FORWARD_DEG: Final = 30.0
ARC_AFT_DEG: Final = 30.0

# A4 house heuristic for bundled record sheets.
HEURISTIC_TONS_PER_ABOVE_BOX: Final[dict[str, int]] = {"capital": 2500, "cruiser": 1000, "destroyer": 500}
HEURISTIC_ENGINES: Final[dict[str, int]] = {"capital": 4, "cruiser": 4, "destroyer": 2}
HEURISTIC_DC: Final[dict[str, int]] = {"capital": 3, "cruiser": 2, "destroyer": 1}
HEURISTIC_FC: Final[dict[str, int]] = {"capital": 2, "cruiser": 1, "destroyer": 1}
HEURISTIC_AA_BARRELS_PER_BOX: Final = 8

# Radar grades on the class (A6) -> night modifier key.
RADAR_GRADES: Final[tuple[str, ...]] = ("none", "poor", "adequate", "very_good")

# Damage allocation: the standing preference the ship's player sets (order field ``damage_preference``) for
# collateral damage and substituted hits (lines 139-141: "target ship's choice"). The sheet never chooses the
# last underwater box while any other box is left (NW-WW2-06). The default keeps the ship afloat: underwater
# and engine boxes last, since marking them all sinks the ship (A6).
DAMAGE_PREFERENCES: Final[dict[str, tuple[str, ...]]] = {
    "keep_afloat": (
        "above",
        "above_armoured",
        "aa",
        "torpedo",
        "secondary",
        "main",
        "fire_control",
        "damage_control",
        "underwater",
        "engine",
    ),
    "spare_main": (
        "above",
        "above_armoured",
        "aa",
        "torpedo",
        "secondary",
        "fire_control",
        "damage_control",
        "underwater",
        "engine",
        "main",
    ),
    "spare_guns": (
        "above",
        "above_armoured",
        "aa",
        "torpedo",
        "fire_control",
        "damage_control",
        "underwater",
        "engine",
        "secondary",
        "main",
    ),
    "spare_torpedoes": (
        "above",
        "above_armoured",
        "aa",
        "secondary",
        "main",
        "fire_control",
        "damage_control",
        "underwater",
        "engine",
        "torpedo",
    ),
}
DEFAULT_PREFERENCE: Final = "keep_afloat"
