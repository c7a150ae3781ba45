"""Template filters for battle pages: positions, rolls, modifiers and sheets in words."""

from __future__ import annotations

from typing import Any

from django import template

from battles import display
from rules.model import Hex, Point

register = template.Library()


@register.filter
def class_label(name: str) -> str:
    """Return a ship class's name as a label (:func:`battles.display.class_label`)."""
    return display.class_label(name)


@register.filter
def position(value: Any) -> str:
    """Return a position as text: a hex as (q, r), a table point as (x, y) in the rule set's unit to a tenth
    (``(39.7, 10.7)``, not the engine's ``(39.6612, 10.6708)``; ``(44, 5.5)``)."""
    if isinstance(value, Hex):
        return f"({value.q}, {value.r})"
    if isinstance(value, Point):
        return f"({_tenth(value.x)}, {_tenth(value.y)})"
    return ""


def _tenth(v: float) -> str:
    """``39.6612`` -> ``39.7``, ``44.0`` -> ``44``, ``-0.04`` -> ``0``."""
    r = round(v, 1)
    return f"{r + 0.0:g}" if r else "0"


@register.filter
def rolls(event: Any) -> str:
    """Return an event's dice as text, e.g. ``D6 5, D6 2``."""
    return ", ".join(f"{r.die} {r.value}" for r in getattr(event, "rolls", ()))


@register.filter
def modifiers(event: Any) -> str:
    """Return an event's modifiers as text, e.g. ``long range -1; target at 25 kn -1``."""
    return "; ".join(f"{m.label} {m.value:+g}" for m in getattr(event, "modifiers", ()))


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key, key)
    except AttributeError:
        return key
