"""``memoir_sea``'s arcs of fire and gun ranges, as the map draws them (:meth:`rules.base.RuleSet.arcs`).

Source: seed 004 (``seeds/004_bf15dcab1aef5b0d.txt``) "Firing Guns", rulings M04-M06: a target abeam is
fired at with ``B`` dice at 1 hex, one die fewer every hex, so out to ``B`` hexes; ahead or astern (within
60 degrees of the line ahead or astern) with ``ceil(B / 2)`` dice, one fewer every two hexes, so out to
``2 * ceil(B / 2)`` hexes. M04: a hex the 60-degree line cuts is abeam.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...arcs import ArcSpec, a5_arcs, mapping, num
from ...model import BattleState, ShipState

LABELS = {"forward": "ahead", "aft": "astern", "starboard": "starboard abeam", "port": "port abeam"}
"""What the seed calls the arcs."""


def ship_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the arcs of ``ship``: abeam each side, then ahead and astern, in hexes, a band per hex.

    ``B`` is the sheet's ``gun_dice`` (what damage left), else the class's; no gun dice, no arcs. Abeam:
    ``B`` hexes, 60 to 120 degrees off the bow each side. Ahead / astern: ``2 * ceil(B / 2)`` hexes,
    within ``tables["arcs_deg"]["ahead_within"]`` / ``["astern_within"]`` (60) degrees of bow / stern.
    The beams come first so that the map gives them the hexes on the 60-degree lines (M04).
    """
    arcs = mapping(tables.get("arcs_deg"))
    ahead = num(arcs.get("ahead_within"), 60.0)
    astern = num(arcs.get("astern_within"), 60.0)
    beam = int(num(ship.sheet.get("gun_dice"), num(ship.stats.get("gun_dice"), 0)))
    if beam <= 0:
        return []
    end_r = 2 * -(-beam // 2)
    # one die fewer every hex abeam, every two hexes ahead and astern (M05): a band per hex
    ends = tuple(float(b) for b in range(1, end_r))
    bands = {"forward": ends, "aft": ends, "broadside": tuple(float(b) for b in range(1, beam))}
    return a5_arcs(
        ahead,
        astern,
        {"forward": end_r, "aft": end_r, "broadside": beam},
        bands,
        labels=LABELS,
        beam_first=True,
    )
