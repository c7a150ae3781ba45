"""Exceptions of the rules engine.

Invalid, illegal and what happened are three different things: a malformed document or order raises
:class:`InvalidDocument` / :class:`InvalidOrder`; an order the rules forbid raises :class:`IllegalOrder`
(or is reported by ``validate_orders``); what happens in resolution is an event, never an exception.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the rules package raises."""


class UnknownRuleset(RulesError, KeyError):
    """No rule set is registered under the key asked for. The message names the known keys."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown rule set"


class InvalidDocument(RulesError, ValueError):
    """A JSON document (state, orders, scenario) does not have the shape the model needs."""


class InvalidOrder(RulesError, ValueError):
    """An order is malformed: unknown ship, wrong types, missing keys."""


class IllegalOrder(RulesError, ValueError):
    """An order is well formed but the rules forbid it."""


class DiceExhausted(RulesError, RuntimeError):
    """A :class:`rules.dice.ScriptedDice` ran out of values."""


class BadDieValue(RulesError, ValueError):
    """A scripted value cannot come from the die asked for."""
