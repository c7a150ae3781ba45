"""Text no column can store: the NUL character and lone UTF-16 surrogates.

PostgreSQL refuses NUL (0x00) in a text column ("A string literal cannot contain NUL (0x00) characters") and
``\\u0000`` in a jsonb value ("unsupported Unicode escape sequence"): a save carrying either was a 500 there
(SQLite stores it). A lone surrogate (``"\\ud800"`` read from JSON) is stored by both, and then no UTF-8 page
can show it: every page showing it failed with a 500. Django's ``forms.CharField`` refuses a typed NUL; the
text read from JSON boxes, imported files and raw request data is checked here (docs/rulings.md NW-CAMP-18).
"""

from __future__ import annotations

from typing import Any

NUL = "\x00"
NUL_MESSAGE = "a NUL character (\\u0000) cannot be saved"


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
