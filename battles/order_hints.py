"""What the order form shows beside a rule set's generic fields: legal ranges, fixed choices, suggestions.

The order form is generated from ``RuleSet.order_types`` (see :mod:`battles.order_forms`); this module asks
the rule set what it says about one ship's current state that the field specs cannot:
:meth:`rules.base.RuleSet.order_hints` (field name -> :class:`rules.hints.FieldHint`) and
:meth:`rules.base.RuleSet.standing_orders`. The hints themselves live in the rules package, one module per
rule set (``rules/rulesets/<key>/hints.py``); nothing here knows a rule set. Nothing here decides legality
either: the rules do, through ``validate_orders``; a hint only helps the player pick a legal value first time.

Hints never raise: a rule set whose hints fail (an odd state, a renamed helper after a merge) yields no hint
and the form falls back to the field specs.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from rules.hints import MAX_SUGGESTIONS, FieldHint, Hints
from rules.model import JSON, BattleState, ShipState
from rules.registry import get_ruleset

__all__ = ["MAX_SUGGESTIONS", "FieldHint", "Hints", "hints_for", "standing_from_state"]

logger = logging.getLogger(__name__)


def hints_for(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the field hints for ``ship`` with the order ``data`` being edited (empty when none apply)."""
    try:
        return dict(get_ruleset(state.ruleset).order_hints(state, ship, data))
    except Exception:  # a hint must never take the order form down
        logger.exception("order hints failed for %s %s", state.ruleset, ship.id)
        return {}


def standing_from_state(ruleset: str, ship: ShipState) -> dict[str, JSON]:
    """Return the standing orders the rules keep on the ship's sheet, by order field name."""
    try:
        return dict(get_ruleset(ruleset).standing_orders(ship))
    except Exception:
        logger.exception("standing orders failed for %s %s", ruleset, ship.id)
        return {}
