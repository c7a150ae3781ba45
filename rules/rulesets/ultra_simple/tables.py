"""The charts of ``ultra_simple``, as data. Source: ``seeds/003_cc4ad023c2c48590.txt``."""

from __future__ import annotations

from typing import Final

# 3.0 Shooting: "Range: 1-2 hexes: D6 score 4-6 to hit / 3-4 hexes: 5-6 / 5-6 hexes: 6 only".
# (max range in hexes, D6 score needed). U03: no fire beyond 6 hexes.
RANGE_BANDS: Final[tuple[tuple[int, int], ...]] = ((2, 4), (4, 5), (6, 6))
MAX_RANGE: Final = 6

# 3.0 Shooting: "Roll 1D6 per gun barrel firing PLUS or MINUS 10% per 1-inch difference from 15-inch".
BASE_CALIBRE_IN: Final = 15.0
PER_INCH: Final = 0.10

# 4.0 Damage: "tonnage, divided by 4000, and rounded". 7.0: "for each 4 inches (rounded) ... belt".
TONS_PER_POINT: Final = 4000
BELT_INCHES_PER_POINT: Final = 4

# 2.0 Movement: "1-2 hexes per Turn", "ONE course alteration of 30 or 60 degrees per Turn".
MOVE_HEXES: Final[tuple[int, ...]] = (1, 2)
TURNS_DEG: Final[tuple[int, ...]] = (-60, -30, 0, 30, 60)

# A5 / U07: arcs, degrees either side of the bow and of the stern (a parameter).
ARC_FORWARD_DEG: Final = 30.0
ARC_AFT_DEG: Final = 30.0
