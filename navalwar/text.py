"""Text no column can store: the NUL character and lone UTF-16 surrogates; and what no name may hold:
Unicode direction controls.

PostgreSQL refuses NUL (0x00) in a text column ("A string literal cannot contain NUL (0x00) characters") and
``\\u0000`` in a jsonb value ("unsupported Unicode escape sequence"): a save carrying either was a 500 there
(SQLite stores it). A lone surrogate (``"\\ud800"`` read from JSON) is stored by both, and then no UTF-8 page
can show it: every page showing it failed with a 500. Django's ``forms.CharField`` refuses a typed NUL; the
text read from JSON boxes, imported files and raw request data is checked here (docs/rulings.md NW-CAMP-18).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core.exceptions import ValidationError

NUL = "\x00"
NUL_MESSAGE = "a NUL character (\\u0000) cannot be saved"

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters of Unicode's Bidi_Control property: the embeddings and overrides (U+202A-U+202E), the
isolates (U+2066-U+2069) and the marks (U+200E, U+200F, U+061C). None is seen; each changes the order in
which the text around it is shown, so a name holding one reads otherwise than it is written (``"\u202eS.M.H"``
is shown "H.M.S") and spills that order onto the page around it (docs/rulings.md NW-CAMP-24)."""


def text_problem(text: str) -> str | None:
    """Return why ``text`` cannot be stored and shown (a NUL character, a lone surrogate), or None."""
    if NUL in text:
        return NUL_MESSAGE
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(exc.object[exc.start]):04x} is half of a UTF-16 surrogate pair, no character"
    return None


def check_json_text(value: Any) -> None:
    """Raise ValueError (with the reason) when a string or object key anywhere in the JSON ``value`` holds a
    NUL character or a lone surrogate. Walks the value without recursion: nesting is no limit here."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                raise ValueError(problem)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def name_problem(text: str) -> str | None:
    """Return why ``text`` cannot be a name (of a campaign, a side, a ship, a class, a nation, a battle), or
    None: what :func:`text_problem` refuses, or a Unicode direction control (:data:`BIDI_CONTROLS`, named with
    its code point: ``"U+202E RIGHT-TO-LEFT OVERRIDE"``; docs/rulings.md NW-CAMP-24)."""
    problem = text_problem(text)
    if problem:
        return problem
    for char in text:
        if char in BIDI_CONTROLS:
            return (
                f"a name may not hold a Unicode direction control (here U+{ord(char):04X} "
                f"{unicodedata.name(char)}): it makes the name read otherwise than it is written; type the "
                "name without it"
            )
    return None


def validate_name(value: Any) -> None:
    """Django validator of a name field (forms, models: the admin): raise ValidationError with
    :func:`name_problem`'s reason, capitalised, code ``bad_name``."""
    problem = name_problem(str(value))
    if problem:
        raise ValidationError(f"{problem[0].upper()}{problem[1:]}.", code="bad_name")
