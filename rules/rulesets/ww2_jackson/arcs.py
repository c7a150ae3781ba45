"""``ww2_jackson``'s arcs of fire and gun ranges, as the map draws them (:meth:`rules.base.RuleSet.arcs`).

Source: seed 000 (``seeds/000_6c8b418afcdd1c2b.txt``) range table, rulings W03 (rows for 9-inch and
7-inch guns), A5 (forward / aft within 30 degrees of bow / stern, the broadside between) and NW-WW2-02 (a
mount on one beam bears only on that side). Ranges in inches.

Kept apart from the gunnery (:mod:`.gunnery`) on purpose: the map only reads the class's gun rows and the
published ``RANGE_TABLE``; nothing here is used to adjudicate a shot.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from ...arcs import A5_AFT_DEG, A5_FORWARD_DEG, ArcSpec, a5_arcs, gun_rows, mapping, num
from ...model import BattleState, ShipState

_RANGE_KEY_RE = re.compile(r"^(\d+)(?:-(\d+))?(old|new)?$")


def _row(values: object) -> tuple[float, ...] | None:
    if not isinstance(values, (list, tuple)) or not values:
        return None
    return tuple(num(v) for v in values)


def calibre_ranges(table: Mapping[str, object], calibre: float, kind: str) -> tuple[float, ...]:
    """Return the (short, medium, long) inches of the range-table row for a gun of ``calibre`` inches.

    ``table`` is ``RANGE_TABLE`` as JSON (row key -> [short, medium, long]: ``"15-16"``, ``"6old"``...).
    The calibre is rounded halves up and held to 4-18 inches; ``kind`` ``"old"`` prefers the ``old`` rows
    (``"12old"``, ``"6old"``), anything else the others. A calibre between rows takes the nearest larger
    row (the last row when none is larger); an empty table gives ``(0.0,)``.
    """
    size = math.floor(calibre + 0.5)
    size = min(max(size, 4), 18)
    old = kind == "old"
    best: tuple[int, tuple[float, ...]] | None = None
    keyed: list[tuple[int, str]] = []
    for key, values in table.items():
        m = _RANGE_KEY_RE.match(str(key))
        if m:
            keyed.append((int(m.group(1)), key))
        row = _row(values)
        if not m or row is None:
            continue
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        if not lo <= size <= hi:
            continue
        score = 2 if (m.group(3) == "old") == old else 0
        if best is None or score > best[0]:
            best = (score, row)
    if best is not None:
        return best[1]
    keyed.sort(key=lambda x: x[0])
    for lo, key in keyed:
        if lo >= size:
            return _row(table[key]) or ()
    return (_row(table[keyed[-1][1]]) or ()) if keyed else (0.0,)


def ship_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the arcs of ``ship``: forward, aft, starboard and port, each at the longest-ranged gun bearing
    in it, labelled with its calibre (``"forward 16in"``), its short and medium ranges as bands, in inches.

    ``tables`` is the rule set's ``tables()`` JSON: ``RANGE_TABLE`` and ``ARCS_DEG`` (forward / aft
    half-widths, degrees). A gun row bears where its ``forward`` / ``aft`` / ``broadside`` flags say; a
    broadside row with ``side`` port or starboard bears on that beam only (NW-WW2-02). Rows in the sheet's
    ``guns_lost`` (row indices), with no guns or no calibre are skipped. Without a range table a gun
    reaches 4 inches per inch of calibre. An arc no gun bears in is left out.
    """
    raw_table = tables.get("RANGE_TABLE")
    table = raw_table if isinstance(raw_table, Mapping) else {}
    arcs = mapping(tables.get("ARCS_DEG"))
    fwd = num(arcs.get("forward"), A5_FORWARD_DEG)
    aft = num(arcs.get("aft"), A5_AFT_DEG)
    lost = ship.sheet.get("guns_lost")
    lost_idx = {int(num(i)) for i in lost} if isinstance(lost, list) else set()
    best: dict[str, tuple[float, ...]] = {}
    labels: dict[str, str] = {}
    for i, row in enumerate(gun_rows(ship)):
        if i in lost_idx or num(row.get("guns"), 1) <= 0:
            continue
        cal = num(row.get("calibre"))
        if cal <= 0:
            continue
        rng = calibre_ranges(table, cal, str(row.get("kind", ""))) if table else (cal * 4.0,)
        side = str(row.get("side", "centre"))
        keys = []
        if row.get("forward"):
            keys.append("forward")
        if row.get("aft"):
            keys.append("aft")
        if row.get("broadside"):
            keys += [k for k in ("starboard", "port") if side in ("centre", k, "")]
        for k in keys:
            if rng[-1] > best.get(k, (0.0,))[-1]:
                best[k] = rng
                labels[k] = f"{k} {cal:g}in"
    ranges = {k: v[-1] for k, v in best.items()}
    return a5_arcs(fwd, aft, ranges, {k: v[:-1] for k, v in best.items()}, labels)
