"""``ww2_jackson``'s order-panel hints and standing orders (:meth:`rules.base.RuleSet.order_hints`,
:meth:`rules.base.RuleSet.standing_orders`).

Source: the record sheet (:mod:`.record`): ``max_speed`` is what the damaged ship can make now (W38);
``preference`` and ``cleared`` are the standing orders the rules keep on the sheet; searchlights and star
shell are night actions only (A6).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...hints import FieldHint, Hints, number
from ...model import JSON, BattleState, ShipState


def ship_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the hints for ``ship``'s order now.

    ``course``: a note with the heading now (degrees clockwise from north). ``speed``: 0 to the sheet's
    ``max_speed`` knots (no hint when the sheet has none). ``torpedo_mount``: the choices ``-1`` (every
    loaded mount that bears) and each mount's index with its name, when the class has torpedoes.
    ``searchlight`` / ``star_shell``: a note by day that they are night actions only (A6).
    """
    cap = number(ship.sheet.get("max_speed"), -1.0)
    hints: Hints = {
        "course": FieldHint(note=f"Degrees clockwise from north; now {ship.heading:g}."),
    }
    if cap >= 0:
        hints["speed"] = FieldHint(
            min=0, max=cap, note=f"{ship.name} can make {cap:g} knots now; now at {ship.speed:g}."
        )
    mounts = ship.stats.get("torpedoes")
    if isinstance(mounts, list) and mounts:
        choices = [("-1", "every loaded mount that bears")]
        for i, row in enumerate(mounts):
            name = row.get("name") if isinstance(row, dict) else None
            choices.append((str(i), f"{i}: {name}" if name else f"mount {i}"))
        hints["torpedo_mount"] = FieldHint(choices=tuple(choices))
    if not state.conditions.night:
        for key in ("searchlight", "star_shell"):
            hints[key] = FieldHint(note="Night actions only (A6).")
    return hints


def standing_orders(ship: ShipState) -> dict[str, JSON]:
    """Return the standing orders on ``ship``'s sheet: ``damage_preference`` (the sheet's ``preference``,
    when set) and ``cleared_for_action`` (the sheet's ``cleared``, when a boolean).

    The campaign carries the sheet from battle to battle, so the standing orders follow the ship.
    """
    out: dict[str, JSON] = {}
    pref = ship.sheet.get("preference")
    if isinstance(pref, str) and pref:
        out["damage_preference"] = pref
    cleared = ship.sheet.get("cleared")
    if isinstance(cleared, bool):
        out["cleared_for_action"] = cleared
    return out
