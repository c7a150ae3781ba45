"""``sail_1700``'s order-panel hints (:meth:`rules.base.RuleSet.order_hints`).

Source: seed 001 (``seeds/001_bb5ec6dbb79b532f.txt``) sailing and manoeuvre (:func:`.ships.plan_move`):
the distance a vessel may sail this move, in millimetres, for the turn, tack or rowing being ordered.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...hints import FieldHint, Hints
from ...model import JSON, BattleState, ShipState
from .ships import plan_move


def ship_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the ``speed`` hint: the least and most millimetres (rounded) the vessel may sail this move
    with the ``turn`` / ``tack`` / ``row`` in ``data``; none when that manoeuvre is illegal."""
    plan = plan_move(state, ship, {k: v for k, v in data.items() if k in ("turn", "tack", "row")})
    if plan.error:
        return {}
    lo, hi = round(plan.min_distance), round(plan.max_distance)
    return {
        "speed": FieldHint(
            min=lo, max=hi, note=f"{plan.kind.capitalize()}: between {lo} and {hi} mm this move on this turn."
        )
    }
