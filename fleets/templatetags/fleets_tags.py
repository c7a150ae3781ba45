"""Template filters of the fleets pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def words(value: object) -> str:
    """Return a key as words: ``heavily_armored`` -> ``heavily armored``."""
    return str(value or "").replace("_", " ")
