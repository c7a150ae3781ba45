"""What the order panel shows beside a rule set's order fields: legal ranges, fixed choices, suggestions.

A rule set's order fields (:attr:`rules.base.RuleSet.order_types`) say what an order may hold in general;
:meth:`rules.base.RuleSet.order_hints` says what one ship may be ordered now (a damaged ship's top speed,
the courses its speed allows, the distance a vessel may sail this move), as :class:`FieldHint` per field
name. :meth:`rules.base.RuleSet.standing_orders` returns the standing orders the rules keep on a ship's
sheet, to fill the form with. Nothing here decides legality: ``validate_orders`` does; a hint only helps
the player pick a legal value first time. Each rule set's hints live in ``rules/rulesets/<key>/hints.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SUGGESTIONS = 60
"""At most this many suggested values per field (a datalist longer than this helps nobody)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldHint:
    """What to show for one order field of one ship now.

    ``min`` / ``max``: the legal range from the ship's state, in the field's unit (knots, hexes,
    millimetres; for a text field ``max`` is the number of moves the text may spell), shown and used as the
    input's bounds. ``choices``: the only values that make sense, as (value, label): the field becomes a
    select. ``suggestions``: values offered in a datalist (free text stays allowed). ``note``: a line of help.
    """

    min: float | None = None
    max: float | None = None
    choices: tuple[tuple[str, str], ...] | None = None
    suggestions: tuple[str, ...] = ()
    note: str = ""


Hints = dict[str, FieldHint]
"""Order field name -> its hint."""


def number(value: object, default: float = 0.0) -> float:
    """Return ``value`` as a float when it is an int or a float (not a bool), else ``default``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


def hexes_text(n: int) -> str:
    """Return ``"1 hex"`` or ``"<n> hexes"``."""
    return f"{n} hex" if n == 1 else f"{n} hexes"
