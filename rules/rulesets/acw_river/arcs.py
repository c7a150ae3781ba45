"""``acw_river``'s arcs of fire and gun ranges, as the map draws them (:meth:`rules.base.RuleSet.arcs`).

Source: seed 002 (``seeds/002_715b56be87dfc13d.txt``) section 4 Fire, rulings A04, A05 and NW-ACW-01
(``docs/rulings.md``): front and rear within 60 degrees of bow and stern, a hex on the 60-degree line is on
the side; hits on 5-6 out to 7 hexes, on 6 only at 8-10, no fire beyond 10: one band edge at 7 hexes.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...arcs import ArcSpec, a5_arcs, mapping, num
from ...model import BattleState, ShipState

LABELS = {"forward": "front", "aft": "rear"}
"""What the seed calls the end arcs (the beams stay ``starboard`` / ``port``)."""


def ship_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the arcs of ``ship``: each side, then front and rear, in hexes.

    ``tables`` is the rule set's ``tables()`` JSON: ``arcs_deg`` (``front_within`` / ``rear_within``,
    degrees), ``max_range_hexes`` (10) and ``range_table`` (``up_to_hexes`` of each row: 7 and 10; those
    below the range are the bands). An arc whose fire dice (class stats ``fire_front`` / ``fire_side`` /
    ``fire_rear``; 1 when absent) are 0 does not fire and is left out. The sides come first so that the
    map gives them the boundary hexes.
    """
    arcs = mapping(tables.get("arcs_deg"))
    front = num(arcs.get("front_within"), 60.0)
    rear = num(arcs.get("rear_within"), 60.0)
    rng = num(tables.get("max_range_hexes"), 10.0)
    raw = tables.get("range_table")
    bands = (
        [num(mapping(b).get("up_to_hexes")) for b in raw if isinstance(b, Mapping)]
        if isinstance(raw, list)
        else []
    )
    dice = {k: num(ship.stats.get(f"fire_{k}"), 1.0) for k in ("front", "side", "rear")}
    ranges = {
        "forward": rng if dice["front"] > 0 else 0.0,
        "aft": rng if dice["rear"] > 0 else 0.0,
        "broadside": rng if dice["side"] > 0 else 0.0,
    }
    return a5_arcs(
        front,
        rear,
        ranges,
        {k: bands for k in ("forward", "aft", "broadside")},
        labels=LABELS,
        beam_first=True,
    )
