"""``sail_1700``'s order-panel hints (:meth:`rules.base.RuleSet.order_hints`).

Source: seed 001 (``seeds/001_bb5ec6dbb79b532f.txt``) sailing and manoeuvre (:func:`.ships.plan_move`):
the distance a vessel may sail this move, in millimetres, for the turn, tack or rowing being ordered.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...hints import FieldHint, Hints
from ...model import JSON, BattleState, ShipState
from . import core as C
from .ships import plan_move, points, points_start


def ship_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the ``speed`` hint: the least and most millimetres (rounded) the vessel may sail this move
    with the ``turn`` / ``tack`` / ``row`` in ``data`` (none when that manoeuvre is illegal); and the
    ``land_party`` hint: 0 to the most men she may land now (all but 20% of her starting points stay aboard,
    NW-SAIL-23), not the field's bound of 2,000."""
    most = C.works_party_max(points(ship), points_start(ship))
    note = f"At most {most} men now: 20% of her {points_start(ship)} points stay aboard."
    hints: Hints = {"land_party": FieldHint(min=0, max=most, note=note)}
    plan = plan_move(state, ship, {k: v for k, v in data.items() if k in ("turn", "tack", "row")})
    if plan.error:
        return hints
    lo, hi = round(plan.min_distance), round(plan.max_distance)
    hints["speed"] = FieldHint(
        min=lo, max=hi, note=f"{plan.kind.capitalize()}: between {lo} and {hi} mm this move on this turn."
    )
    return hints
