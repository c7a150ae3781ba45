"""``memoir_sea``'s order-panel hints (:meth:`rules.base.RuleSet.order_hints`).

Source: seed 004 (``seeds/004_bf15dcab1aef5b0d.txt``) "Movement", M10: a course is ``F`` (a hex ahead),
``L`` / ``R`` (60 degrees, costing a hex, after a hex ahead), no longer than the class speed; M08 /
NW-MEM-02: a ship breaking off is steered by the rules.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...hints import MAX_SUGGESTIONS, FieldHint, Hints, hexes_text, number
from ...model import JSON, BattleState, ShipState


def ship_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the ``course`` hint: at most ``speed`` moves (the class's ``speed`` in hexes), the legal
    courses as suggestions (longest first, at most :data:`rules.hints.MAX_SUGGESTIONS`); a note only when the
    ship is breaking off (M08)."""
    from .ruleset import legal_courses  # the rule set imports this module

    if ship.sheet.get("breaking_off"):
        return {"course": FieldHint(note=f"{ship.name} is breaking off (M08): leave the course empty.")}
    speed = int(number(ship.stats.get("speed"), 1))
    courses = legal_courses(speed)
    return {
        "course": FieldHint(
            max=speed,
            suggestions=tuple(c for c in courses if c)[:MAX_SUGGESTIONS],
            note=f"F = one hex ahead, L / R = turn 60 degrees (costs a hex, after a hex ahead); "
            f"{ship.name} moves up to {hexes_text(speed)}.",
        )
    }
