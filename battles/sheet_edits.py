"""Checks of what an umpire types into a ship's edit (in a battle) or repair (between battles), in words.

The umpire types JSON; these say what is wrong with it in plain words (never a Python message), before
anything is saved. A sheet edit may only change the entries the ship's sheet already has, each to a value of
the same kind (a number for a number, true or false for true or false, text for text, a list for a list, an
object for an object; an entry that is null takes any value), and every number in it is from 0 to 1,000,000
(NW-CAMP-04). A repair sets the whole sheet (NW-CAMP-05).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from rules.engine import bad_sheet_number

REASON_MAX = 500
"""The longest reason for an umpire's edit or repair, in characters (the reason is shown in the log)."""

SHOWN_MAX = 40
"""The most characters of a typed value or key a message quotes."""


def shown(value: Any) -> str:
    """Return ``value`` as JSON for a message, cut to :data:`SHOWN_MAX` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # pragma: no cover - values come from json
        text = repr(value)
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 3] + "..."


def key_shown(key: str) -> str:
    """Return a key for a message, cut to :data:`SHOWN_MAX` characters."""
    return key if len(key) <= SHOWN_MAX else key[: SHOWN_MAX - 3] + "..."


def is_number(value: Any) -> bool:
    """Return True for a JSON number (an int or a float, not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def kind(value: Any) -> str:
    """Return the kind of a JSON value in words: ``"a number"``, ``"true or false"``, ``"text"``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if is_number(value):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - values come from json


def sheet_problems(current: Mapping[str, Any], new: Mapping[str, Any], *, numbers: bool = True) -> list[str]:
    """Return what is wrong with setting the entries of ``new`` on a sheet that is ``current``, in words.

    Each entry of ``new`` must be one ``current`` has, of the same kind (an entry that is null in
    ``current`` takes any value); with ``numbers``, every number in it is from 0 to 1,000,000 (NW-CAMP-04;
    in a battle, ``rules.check_state`` says so in the same words).
    """
    out: list[str] = []
    unknown = [k for k in new if k not in current]
    if unknown:
        names = ", ".join(key_shown(k) for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        has = ", ".join(key_shown(k) for k in sorted(current)) or "none"
        out.append(f"the sheet has no entry {names} (a sheet edit changes the entries it has: {has})")
    for key, value in new.items():
        if key not in current:
            continue
        old = current[key]
        if old is not None and kind(value) != kind(old):
            out.append(f"sheet {key_shown(key)} must be {kind(old)}, not {shown(value)}")
            continue
        bad = bad_sheet_number(value, key_shown(key)) if numbers else None
        if bad is not None:
            out.append(f"sheet {bad[0]} is {shown(bad[1])}: a sheet holds numbers from 0 to 1,000,000")
    return out


def flags_value(value: Any) -> tuple[str, ...]:
    """Return ``value`` as ship flags; raise ValueError (in words) unless it is a list of text."""
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise ValueError(f'flags must be a list of text, such as ["on fire"], not {shown(value)}')
    return tuple(value)


def number_value(name: str, value: Any) -> float:
    """Return ``value`` as a float; raise ValueError (in words) unless it is a finite JSON number."""
    if not is_number(value):
        raise ValueError(f"{name} must be a number, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large a number") from None
    if not math.isfinite(number):  # pragma: no cover - the JSON reader refuses NaN and infinities
        raise ValueError(f"{name} must be a finite number, not {shown(value)}")
    return number


def position_value(value: Any) -> tuple[int, int] | tuple[float, float]:
    """Return a position typed as ``{"q": 3, "r": 4}`` (a hex: whole numbers) or ``{"x": 10, "y": 5}`` (a
    point on a table: numbers) as (q, r) ints or (x, y) floats; raise ValueError in words otherwise."""
    want = 'position must be {"q": whole number, "r": whole number} for a hex or {"x": number, "y": number}'
    if not isinstance(value, dict) or set(value) not in ({"q", "r"}, {"x", "y"}):
        raise ValueError(f"{want}, not {shown(value)}")
    if "q" in value:
        whole: list[int] = []
        for name in ("q", "r"):
            v = value[name]
            if not is_number(v) or (isinstance(v, float) and not v.is_integer()):
                raise ValueError(f"position {name} must be a whole number (a hex), not {shown(v)}")
            whole.append(int(v))
        return whole[0], whole[1]
    return number_value("position x", value["x"]), number_value("position y", value["y"])
