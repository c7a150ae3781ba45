"""``ultra_simple``'s arcs of fire and gun ranges, as the map draws them (:meth:`rules.base.RuleSet.arcs`).

Source: seed 003 (``seeds/003_cc4ad023c2c48590.txt``) 3.0 Shooting, U03 (no fire beyond 6 hexes), A5 and
U07 (arcs 30 degrees either side of bow and stern, campaign options ``arc_forward`` / ``arc_aft`` widen
them).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...arcs import A5_AFT_DEG, A5_FORWARD_DEG, ArcSpec, a5_arcs, gun_rows, mapping, num
from ...model import BattleState, ShipState


def ship_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the arcs of ``ship``: forward, aft and each broadside, out to 6 hexes with bands at 2 and 4.

    ``tables`` is the rule set's ``tables()`` JSON: ``arcs_deg`` (forward / aft half-widths, degrees),
    ``max_range_hexes`` and ``range_bands`` (``max_hexes`` of each band). The options ``arc_forward`` /
    ``arc_aft`` override the half-widths (U07). An arc in which no gun row of the class bears (its
    ``forward`` / ``aft`` / ``broadside`` count 0) has range 0 when it is an end arc (it still owns the
    hexes on its boundary, where no gun fires: NW-US-ARC-01) and is left out when it is the broadside; a class
    without gun rows bears everywhere.
    """
    arcs = mapping(tables.get("arcs_deg"))
    fwd = num(state.options.get("arc_forward"), num(arcs.get("forward"), A5_FORWARD_DEG))
    aft = num(state.options.get("arc_aft"), num(arcs.get("aft"), A5_AFT_DEG))
    max_r = num(tables.get("max_range_hexes"), 6.0)
    raw = tables.get("range_bands")
    bands = (
        [num(mapping(b).get("max_hexes")) for b in raw if isinstance(b, Mapping)]
        if isinstance(raw, list)
        else []
    )
    rows = gun_rows(ship)
    ranges = {}
    for arc in ("forward", "aft", "broadside"):
        bearing = any(num(r.get(arc)) > 0 for r in rows) if rows else True
        ranges[arc] = max_r if bearing else 0.0
    return a5_arcs(fwd, aft, ranges, {k: bands for k in ("forward", "aft", "broadside")}, silent_ends=True)
