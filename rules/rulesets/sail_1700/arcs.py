"""``sail_1700``'s arcs of fire and gun ranges, as the map draws them (:meth:`rules.base.RuleSet.arcs`).

Source: seed 001 (``seeds/001_bb5ec6dbb79b532f.txt``) section 11. Gunnery and ruling S12: each broadside
fires within 22 degrees either side of its beam; ranges 100 / 200 / 300 mm for rated ships, 50 / 100 /
150 mm unrated.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...arcs import ArcSpec, mapping, num
from ...model import BattleState, ShipState

RATED_MM = (100.0, 200.0, 300.0)
"""Short / medium / long range edges of a rated ship, millimetres (used when the tables give none)."""
UNRATED_MM = (50.0, 100.0, 150.0)
"""The same for an unrated vessel."""


def ship_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the broadsides of ``ship`` that still have guns: ``starboard broadside`` 68 to 112 degrees
    off the bow, ``port broadside`` 248 to 292, out to the long range in millimetres, short and medium as
    bands.

    ``tables`` is the rule set's ``tables()`` JSON: ``gunnery_ranges_mm`` (``rated`` / ``unrated`` lists)
    and ``gunnery.arc_of_fire_deg`` (22; a top-level ``arc_of_fire_deg`` is read too). Guns per side come
    from the sheet's ``guns`` (``{"starboard", "port"}``), else the class's ``guns_starboard`` /
    ``guns_port``; a side with no count given is taken to have guns.
    """
    ranges = mapping(tables.get("gunnery_ranges_mm"))
    rated = str(ship.stats.get("rate", "")) != "unrated"
    given = ranges.get("rated" if rated else "unrated")
    raw = given if isinstance(given, list) and given else (RATED_MM if rated else UNRATED_MM)
    bands = [num(b) for b in raw]
    half = num(tables.get("arc_of_fire_deg"), 22.0)
    half = num(mapping(tables.get("gunnery")).get("arc_of_fire_deg"), half)
    guns = ship.sheet.get("guns")
    out = []
    for side, beam in (("starboard", 90.0), ("port", 270.0)):
        n = num(guns.get(side), 1) if isinstance(guns, Mapping) else num(ship.stats.get(f"guns_{side}"), 1)
        if n > 0:
            out.append(
                ArcSpec(
                    label=f"{side} broadside",
                    start=beam - half,
                    end=beam + half,
                    range=bands[-1],
                    bands=tuple(bands[:-1]),
                )
            )
    return out
