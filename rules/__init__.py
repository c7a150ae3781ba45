"""Navalwar's rules engine: a pure adjudicator of naval wargame rule sets.

No Django, no clock, no global random: ``resolve_turn(state, orders, dice)`` returns the new state
and the events. Rule sets are registered in :mod:`rules.registry`; the model is in :mod:`rules.model`;
dice in :mod:`rules.dice`; geometry in :mod:`rules.geometry`; ``python -m rules`` is the JSON
command-line adjudicator (see ``docs/rules-json.md``).
"""

from .base import RuleSet
from .dice import Dice, ScriptedDice, SeededDice
from .engine import check_state, complete_orders, resolve_turn, validate_orders, view_for
from .errors import IllegalOrder, InvalidDocument, InvalidOrder, RulesError, UnknownRuleset
from .model import BattleState, Event, OrderErrors, PhaseResult, ShipOrder, ShipState
from .registry import all_rulesets, get_ruleset, ruleset_keys
from .serial import from_json, to_json

__all__ = [
    "BattleState",
    "Dice",
    "Event",
    "IllegalOrder",
    "InvalidDocument",
    "InvalidOrder",
    "OrderErrors",
    "PhaseResult",
    "RuleSet",
    "RulesError",
    "ScriptedDice",
    "SeededDice",
    "ShipOrder",
    "ShipState",
    "UnknownRuleset",
    "all_rulesets",
    "check_state",
    "complete_orders",
    "from_json",
    "get_ruleset",
    "resolve_turn",
    "ruleset_keys",
    "to_json",
    "validate_orders",
    "view_for",
]
