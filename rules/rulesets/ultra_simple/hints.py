"""``ultra_simple``'s order-panel hints (:meth:`rules.base.RuleSet.order_hints`).

Source: seed 003 (``seeds/003_cc4ad023c2c48590.txt``) 2.0 Movement: 1-2 hexes a turn, one course
alteration of 30 or 60 degrees (:data:`.tables.MOVE_HEXES`, :data:`.tables.TURNS_DEG`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...hints import FieldHint, Hints, hexes_text, number
from ...model import JSON, BattleState, ShipState
from . import tables as T


def turn_label(deg: int) -> str:
    """Return ``"no turn"`` or ``"<n> degrees to starboard|port"`` (positive = starboard)."""
    if deg == 0:
        return "no turn"
    return f"{abs(deg)} degrees to {'starboard' if deg > 0 else 'port'}"


def ship_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the fixed choices of a move: ``hexes`` (1 or 2), ``turn`` (-60, -30, 0, 30, 60 degrees) and
    ``turn_after`` (before moving, or after each hex of the ``hexes`` in ``data``, 2 when not given)."""
    hexes = int(number(data.get("hexes"), max(T.MOVE_HEXES)))
    return {
        "hexes": FieldHint(choices=tuple((str(n), hexes_text(n)) for n in T.MOVE_HEXES)),
        "turn": FieldHint(choices=tuple((str(d), turn_label(d)) for d in T.TURNS_DEG)),
        "turn_after": FieldHint(
            choices=tuple((str(n), "before moving" if n == 0 else f"after hex {n}") for n in range(hexes + 1))
        ),
    }
