"""Numbers typed into forms: plain ASCII digits only.

Python's ``int()`` and ``float()`` (and so Django's ``IntegerField`` and ``FloatField``) also take digit
group underscores (``1_0`` -> 10), other scripts' digits (``٣`` -> 3), exponents and padding, so a typo
became a course or a speed without a word. These take an optional sign, digits and a decimal point, with
blanks around, and nothing else (a form error otherwise).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

PLAIN_INT = re.compile(r"\s*[+-]?[0-9]+(?:\.0*)?\s*", re.ASCII)
"""A whole number: ``27``, ``-1``, ``+3``; ``27.0`` too, as Django's IntegerField reads it."""

PLAIN_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*", re.ASCII)
"""A number with an optional decimal point: ``27``, ``-0.5``, ``.25``, ``6.``; no exponent."""


def plain_int(text: str) -> int | None:
    """Return ``text`` as an int if it is a plain whole number (see :data:`PLAIN_INT`), else None (and for
    one of more digits than ``int()`` reads, 4,300: its ValueError failed a page with a 500)."""
    if not PLAIN_INT.fullmatch(text):
        return None
    try:
        return int(text.strip().split(".")[0])
    except ValueError:
        return None


def plain_float(text: str) -> float | None:
    """Return ``text`` as a float if it is a plain number (see :data:`PLAIN_NUMBER`), else None."""
    return float(text) if PLAIN_NUMBER.fullmatch(text) else None


EXPONENT = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+\s*", re.ASCII)
"""A number written with an exponent (``1e9``, ``-2.5E3``): refused, with a message that says why."""


def _invalid(field: forms.Field, value: str) -> forms.ValidationError:
    """The field's "Enter a number." error; for a number with an exponent, one that names it (a fresh-user
    check typed -1e9 and was told only to enter a number)."""
    if EXPONENT.fullmatch(value):
        return forms.ValidationError(
            "Enter the number in plain digits: %(value)s has an exponent.",
            code="invalid",
            params={"value": value.strip()[:20]},
        )
    return forms.ValidationError(field.error_messages["invalid"], code="invalid")


class PlainIntegerField(forms.IntegerField):
    """An IntegerField that takes plain ASCII whole numbers only ("Enter a whole number." otherwise)."""

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value not in self.empty_values and not PLAIN_INT.fullmatch(value):
            raise _invalid(self, value)
        return super().to_python(value)


class PlainFloatField(forms.FloatField):
    """A FloatField that takes plain ASCII numbers only ("Enter a number." otherwise)."""

    def to_python(self, value: Any) -> float | None:
        if isinstance(value, str) and value not in self.empty_values and not PLAIN_NUMBER.fullmatch(value):
            raise _invalid(self, value)
        return super().to_python(value)
