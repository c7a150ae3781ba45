"""Gunnery of ``ww2_jackson`` (seed 000 section 2, lines 25-105): BFN, MFN, range bands, to-hit modifiers.

Pure functions over numbers; the rule set gathers the inputs from the state.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from ...base import round_half_up
from . import tables as T
from .record import ClassData, GunBox, Sheet


@dataclass(frozen=True, slots=True, kw_only=True)
class GunRow:
    """Which row of each chart a gun uses: MFN, range, damage (half boxes) and penetration."""

    size: int
    mfn: str
    range: str
    damage: str
    penetration: str
    small_craft_only: bool = False

    @property
    def damage_halves(self) -> int:
        """Return the damage one shell does, in half boxes (W32)."""
        return T.DAMAGE_HALVES[self.damage]


def gun_size(calibre: float) -> int:
    """Return the chart size of a calibre in inches: the nearest whole inch, halves up (NW-WW2-01).

    5.25 -> 5, 5.5 -> 6, 5.9 -> 6, 4.1 -> 4, 3.9 -> 4, 18.1 -> 18 (the scenarios' notes).
    """
    return round_half_up(calibre)


@cache  # pure, and GunRow is frozen: every gun of a calibre shares one
def gun_row(calibre: float, kind: str = "standard") -> GunRow:
    """Return the chart rows for a gun of ``calibre`` inches; ``kind`` "new"/"old" picks the 12" and 6" rows.

    W03: 9" uses the 10" MFN row and 7" the 8" row. W06: 3" and smaller use the 4" rows, against small craft
    only. 17" and above use the 18" rows. A 6" or 12" gun of kind "standard" is "new" (NW-WW2-01).
    """
    s = gun_size(calibre)
    old = kind == "old"
    if s >= 17:
        return GunRow(size=18, mfn="18", range="18", damage="18", penetration="16-18")
    if s == 16:
        return GunRow(size=16, mfn="16", range="15-16", damage="13-16", penetration="16-18")
    if s == 15:
        return GunRow(size=15, mfn="15", range="15-16", damage="13-16", penetration="15")
    if s in (13, 14):
        return GunRow(size=s, mfn=str(s), range="13-14", damage="13-16", penetration="13-14")
    if s == 12:
        if old:
            return GunRow(size=12, mfn="12old", range="12old", damage="9-10 & old 12", penetration="11-12")
        return GunRow(size=12, mfn="12new", range="11-12", damage="11-12", penetration="11-12")
    if s == 11:
        return GunRow(size=11, mfn="11", range="11-12", damage="11-12", penetration="11-12")
    if s in (9, 10):
        return GunRow(size=s, mfn="10", range="9-10", damage="9-10 & old 12", penetration="9-10")
    if s == 8:
        return GunRow(size=8, mfn="8", range="8", damage="7-8", penetration="7-8")
    if s == 7:
        return GunRow(size=7, mfn="8", range="7", damage="7-8", penetration="7-8")
    if s == 6:
        if old:
            return GunRow(size=6, mfn="6old", range="6old", damage="6", penetration="6")
        return GunRow(size=6, mfn="6new", range="6new", damage="6", penetration="6")
    if s == 5:
        return GunRow(size=5, mfn="5", range="5", damage="5", penetration="5")
    if s == 4:
        return GunRow(size=4, mfn="4", range="4", damage="4", penetration="4")
    return GunRow(size=3, mfn="4", range="4", damage="4", penetration="4", small_craft_only=True)


def mfn(bfn: int, row: str) -> int:
    """Return the MFN (D20 rolled) for ``bfn`` guns on MFN chart row ``row`` (lines 29-43).

    W04: a BFN above 20 is split into parts of 20 or less and their MFNs added (BFN 0 gives 0).
    """
    if bfn <= 0:
        return 0
    cells = T.MFN_CHART[row]
    total = 0
    while bfn > T.MFN_MAX_BFN:
        total += cells[T.MFN_MAX_BFN - 1]
        bfn -= T.MFN_MAX_BFN
    return total + cells[bfn - 1]


def halve(n: int) -> int:
    """Halve a number of dice or boxes, rounding up (W14): 1 -> 1, 5 -> 3."""
    return math.ceil(n / 2)


def range_band(distance: float, row: str) -> str | None:
    """Return "short", "medium" or "long" for a range in inches on the range-table row, None beyond long.

    W08: each figure is an inclusive upper limit. W07: short = close.
    """
    short, medium, long_ = T.RANGE_TABLE[row]
    if distance <= short + 1e-9:
        return "short"
    if distance <= medium + 1e-9:
        return "medium"
    if distance <= long_ + 1e-9:
        return "long"
    return None


def box_bears(box: GunBox, arc: str, side: str) -> bool:
    """Return True if a gun box bears on a target in ``arc`` (forward/aft/broadside) on ``side`` (A5).

    A mount on one side (``port``/``starboard``) bears only on targets on that side (NW-WW2-02).
    """
    if box.side in ("port", "starboard") and box.side != side:
        return False
    if arc == "forward":
        return box.forward
    if arc == "aft":
        return box.aft
    return box.broadside


def bfn_by_calibre(
    cd: ClassData, sheet: Sheet, area: str, arc: str, side: str
) -> list[tuple[float, str, int]]:
    """Return (calibre, kind, BFN) for each calibre of a battery bearing in the target's arc (lines 25, 29).

    Guns lost with their boxes do not count. Calibres are listed largest first. The result depends only on
    the class and the boxes lost: it is remembered on the class data (``ClassData.bfn_memo``).
    """
    memo_key = (area, arc, side, tuple(sheet.guns_lost))
    hit = cd.bfn_memo.get(memo_key)
    if hit is None:
        groups: dict[tuple[float, str], int] = {}
        for box in cd.guns:
            if box.area != area or box.index in sheet.guns_lost or not box_bears(box, arc, side):
                continue
            key = (box.calibre, "old" if box.kind == "old" else "new")
            groups[key] = groups.get(key, 0) + box.guns
        hit = tuple((c, k, n) for (c, k), n in sorted(groups.items(), key=lambda kv: -kv[0][0]))
        if len(cd.bfn_memo) > 256:
            cd.bfn_memo.clear()
        cd.bfn_memo[memo_key] = hit
    return list(hit)


def night_modifier(available: Collection[str]) -> tuple[str, int] | None:
    """Return the best night modifier among those available (W10 b: the smallest penalty), None if none."""
    best: tuple[str, int] | None = None
    for key in T.NIGHT_MODIFIERS:
        if key in available:
            value = T.NIGHT_MODIFIERS[key][0]
            if best is None or value > best[1]:
                best = (key, value)
    return best
