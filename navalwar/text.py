"""Text no column can store: the NUL character and lone UTF-16 surrogates; what no name may hold: Unicode
direction controls and invisible characters; and what no reason or description may hold: the direction
controls that turn the text after them.

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


INVISIBLE = frozenset(
    "\u00ad\u180e\u200b\u2060\u2061\u2062\u2063\u2064\u206a\u206b\u206c\u206d\u206e\u206f\ufeff"
    "\ufff9\ufffa\ufffb"
)
"""Unicode format characters that show nothing: the soft hyphen, the Mongolian vowel separator, the zero
width space, the word joiner and invisible operators (U+2060-U+2064), the deprecated format controls
(U+206A-U+206F), the zero width no-break space (the byte order mark) and the interlinear annotation controls.
A name holding one looks like the name without it and is another name (``"Hood\\u200b"`` beside
``"Hood"``; docs/rulings.md NW-CAMP-33). The zero width joiner and non-joiner (U+200D, U+200C) are not here:
Persian and the Indic scripts need them to spell words, and emoji sequences to draw a flag or a ship."""

SPILLING_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The direction controls that turn the text after them (the embeddings, overrides and isolates): refused in a
reason or a description, where the marks (U+200E, U+200F, U+061C) of :data:`BIDI_CONTROLS` stay allowed,
since a note in Arabic or Hebrew may need one (docs/rulings.md NW-CAMP-34)."""


def _char_name(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; a control character (which Unicode names none) ``U+0009 a control
    character``."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'a control character')}"


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
                f"a name may not hold a Unicode direction control (here {_char_name(char)}): it makes the "
                "name read otherwise than it is written; type the name without it"
            )
        if char in INVISIBLE or (char < "\xa0" and (char < " " or char >= "\x7f")):
            return (
                f"a name may not hold an invisible character (here {_char_name(char)}): it would look like "
                "another name and be a different one; type the name without it"
            )
    return None


def prose_problem(text: str) -> str | None:
    """Return why ``text`` cannot be a reason or a description (what a user writes for others to read), or
    None: what :func:`text_problem` refuses, or a direction control that turns the text after it
    (:data:`SPILLING_CONTROLS`; docs/rulings.md NW-CAMP-34)."""
    problem = text_problem(text)
    if problem:
        return problem
    for char in text:
        if char in SPILLING_CONTROLS:
            return (
                f"the text may not hold a Unicode direction control (here {_char_name(char)}): it turns the "
                "order of the text after it, on the page around it too; write it without it"
            )
    return None


def validate_name(value: Any) -> None:
    """Django validator of a name field (forms, models: the admin): raise ValidationError with
    :func:`name_problem`'s reason, capitalised, code ``bad_name``."""
    problem = name_problem(str(value))
    if problem:
        raise ValidationError(f"{problem[0].upper()}{problem[1:]}.", code="bad_name")


def validate_prose(value: Any) -> None:
    """Django validator of a reason or a description field: raise ValidationError with
    :func:`prose_problem`'s reason, capitalised, code ``bad_text``."""
    problem = prose_problem(str(value))
    if problem:
        raise ValidationError(f"{problem[0].upper()}{problem[1:]}.", code="bad_text")
