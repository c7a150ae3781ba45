"""``acw_river``'s order-panel hints (:meth:`rules.base.RuleSet.order_hints`).

Source: seed 002 (``seeds/002_715b56be87dfc13d.txt``) movement and section 9 (aground), rulings A09 and
NW-ACW-03 (the hexes a vessel may spend ahead or astern).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...hints import FieldHint, Hints, hexes_text
from ...model import JSON, BattleState, ShipState


def ship_hints(
    state: BattleState,
    ship: ShipState,
    data: Mapping[str, JSON],
    move_points: Callable[[ShipState, bool], int],
) -> Hints:
    """Return the ``course`` hint: a note with the hexes the vessel may spend this move ahead and astern
    (``move_points(ship, astern)``: the rule set's :meth:`~.ruleset.AcwRiver.move_points`), or that she is
    aground and cannot move (section 9)."""
    if ship.sheet.get("aground"):
        return {"course": FieldHint(note=f"{ship.name} is aground and cannot move (section 9).")}
    ahead = move_points(ship, False)
    astern = move_points(ship, True)
    return {
        "course": FieldHint(
            note=f"F = one hex, L / R = 30-degree turns (over 60 degrees in all costs hexes); "
            f"{hexes_text(ahead)} ahead or {astern} astern this move."
        )
    }
