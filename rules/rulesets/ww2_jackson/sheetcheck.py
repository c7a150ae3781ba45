"""What an umpire's edit of a ``ww2_jackson`` record sheet may hold (docs/rulings.md NW-WW2-27).

The engine reads a sheet leniently (``record.sheet_from_json``: a value of the wrong shape reads as a fresh
one), so an edit such as ``fires: [{"x": 1}]`` was saved and then burned as a fire of intensity 1, and
``preference: "nonsense"`` was kept on the sheet. :func:`sheet_problems` says what in a sheet is not of the
shape of ``record``'s module docstring, against the ship's class (``ClassData``: her gun and torpedo boxes,
her counted areas) and the ships of the battle. Only the keys the sheet has are checked: a key left out
reads as fresh.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ...model import JSON
from . import tables as T
from .record import ALL_AREAS, CONDITIONS, COUNT_AREAS, GUN_AREAS, ClassData

FLOOD_KINDS: tuple[str, ...] = ("torpedo", "critical")
"""Kinds of progressive flooding: a torpedo hit's (W35) or a critical hit's."""
FLOOD_FAILS: tuple[str, ...] = ("", "capsize", "list")
"""What a failed flooding roll does (the critical-hit tables' ``fail``; none for a torpedo's)."""


def _int(v: JSON) -> bool:
    return type(v) is int


def _number(v: JSON) -> bool:
    return type(v) in (int, float)


def _indexes(name: str, v: JSON, size: int, what: str) -> list[str]:
    """Problems of a list of distinct box indexes from 0 to ``size - 1``."""
    if not isinstance(v, list) or not all(_int(i) for i in v):
        return [f"{name} must be a list of box numbers (whole numbers)"]
    if size == 0 and v:
        return [f"{name}: she has no {what}"]
    bad = [i for i in v if not 0 <= i < size]  # type: ignore[operator]
    if bad:
        return [f"{name}: {bad[0]} is not one of her {what} (0 to {size - 1})"]
    if len(set(v)) != len(v):
        return [f"{name} names a box twice"]
    return []


def _rows(name: str, v: JSON, keys: Mapping[str, str]) -> tuple[list[dict[str, JSON]], list[str]]:
    """The rows of a list of objects with exactly ``keys`` (key -> what it holds, for the message)."""
    want = ", ".join(f"{k} ({what})" for k, what in keys.items())
    if not isinstance(v, list) or not all(isinstance(r, dict) for r in v):
        return [], [f"{name} must be a list of objects of {want}"]
    rows: list[dict[str, JSON]] = [r for r in v if isinstance(r, dict)]
    for r in rows:
        if set(r) != set(keys):
            return [], [f"{name}: each entry has {want}, not {', '.join(map(str, r)) or 'nothing'}"]
    return rows, []


def sheet_problems(cd: ClassData, sheet: Mapping[str, JSON], ships: Collection[str]) -> list[str]:
    """Return what in ``sheet`` is not a ww2_jackson record sheet of a ship of class ``cd`` in a battle of
    ship ids ``ships``, one message each (empty when none). Shapes: ``record``'s module docstring."""
    out: list[str] = []
    get = sheet.get
    n_guns, n_torps = len(cd.guns), len(cd.torpedoes)
    if "guns_lost" in sheet:
        out += _indexes("guns_lost", get("guns_lost"), n_guns, "gun boxes (turrets and mounts)")
    if "torpedo_lost" in sheet:
        out += _indexes("torpedo_lost", get("torpedo_lost"), n_torps, "torpedo mounts")
    if "loaded" in sheet:
        v = get("loaded")
        if not isinstance(v, list) or not all(_int(i) for i in v):
            out.append("loaded must be a list of torpedoes in the tubes, a whole number a mount")
        elif len(v) > n_torps:
            out.append(f"loaded has {len(v)} mounts; she has {n_torps}")
        else:
            for t, n in zip(cd.torpedoes, v, strict=False):
                if not 0 <= n <= t.tubes:  # type: ignore[operator]
                    out.append(f"loaded: mount {t.index} ({t.name}) holds 0 to {t.tubes}, not {n}")
    if "marked" in sheet:
        v = get("marked")
        if not isinstance(v, dict) or not all(_int(n) for n in v.values()):
            out.append(f"marked must give whole numbers of boxes by area ({', '.join(COUNT_AREAS)})")
        else:
            unknown = [k for k in v if k not in COUNT_AREAS]
            if unknown:
                out.append(f"marked: {unknown[0]!r} is not an area; the areas: {', '.join(COUNT_AREAS)}")
            for area in COUNT_AREAS:
                n = v.get(area, 0)
                have = cd.counts.get(area, 0)
                if _int(n) and not 0 <= n <= have:  # type: ignore[operator]
                    out.append(f"marked: {area} has {have} boxes, not {n} to mark")
    for key in ("reloads", "wrecked_engines"):
        if key in sheet and not _int(get(key)):
            out.append(f"{key} must be a whole number")
    if "half" in sheet and (not _int(get("half")) or get("half") not in (0, 1)):
        out.append("half must be 0 or 1 (W32's half-box credit)")
    for key in ("cleared", "fired"):
        if key in sheet and type(get(key)) is not bool:
            out.append(f"{key} must be true or false")
    for key in ("turned", "max_speed"):
        if key in sheet and not _number(get(key)):
            out.append(f"{key} must be a number")
    if "preference" in sheet and get("preference") not in T.DAMAGE_PREFERENCES:
        out.append(f"preference must be one of: {', '.join(T.DAMAGE_PREFERENCES)} (lines 139-141)")
    for key in ("searchlight", "star_shell"):
        if key in sheet:
            v = get(key)
            if not isinstance(v, str) or (v and v not in ships):
                out.append(f"{key} must be a ship of the battle, or empty for none")
    if "last_targets" in sheet:
        v = get("last_targets")
        if not isinstance(v, dict):
            out.append(f"last_targets must give a ship by battery ({', '.join(GUN_AREAS)})")
        else:
            for battery, tid in v.items():
                if battery not in GUN_AREAS:
                    out.append(f"last_targets: {battery!r} is not a battery ({', '.join(GUN_AREAS)})")
                elif not isinstance(tid, str) or tid not in ships:
                    out.append(f"last_targets: {battery} names no ship of the battle")
    if "helm" in sheet:
        v = get("helm")
        if v is not None and not (
            isinstance(v, dict) and set(v) == {"course", "speed"} and all(map(_number, v.values()))
        ):
            out.append("helm must be null or a course and a speed (numbers)")
    if "fires" in sheet:
        rows, bad = _rows("fires", get("fires"), {"intensity": "1 or 2", "since": "a turn"})
        out += bad
        for r in rows:
            if r["intensity"] not in (1, 2) or type(r["intensity"]) is bool or not _int(r["since"]):
                out.append("fires: a fire has intensity 1 or 2 and the turn it began (since)")
                break
    if "floods" in sheet:
        keys = {
            "kind": "torpedo or critical",
            "since": "a turn",
            "per_turn": "boxes a turn",
            "per_turn_fast": "boxes a turn at speed",
            "fail": "capsize, list or empty",
            "fail_on": "a roll",
        }
        rows, bad = _rows("floods", get("floods"), keys)
        out += bad
        for r in rows:
            numbers = (r["since"], r["per_turn"], r["per_turn_fast"], r["fail_on"])
            if r["kind"] not in FLOOD_KINDS or r["fail"] not in FLOOD_FAILS or not all(map(_int, numbers)):
                out.append(f"floods: each entry has {', '.join(f'{k} ({w})' for k, w in keys.items())}")
                break
    if "conditions" in sheet:
        v = get("conditions")
        if not isinstance(v, dict):
            out.append("conditions must give each critical in effect: since, until, fixed")
        else:
            for name, c in v.items():
                if name not in CONDITIONS:
                    out.append(f"conditions: {name!r} is not a critical; they are: {', '.join(CONDITIONS)}")
                elif not (
                    isinstance(c, dict)
                    and set(c) == {"since", "until", "fixed"}
                    and _int(c["since"])
                    and (c["until"] is None or _int(c["until"]))
                    and type(c["fixed"]) is bool
                ):
                    out.append(
                        f"conditions: {name} has since (a turn), until (a turn, or null) and fixed "
                        "(true or false)"
                    )
    if "last_marks" in sheet:
        rows, bad = _rows("last_marks", get("last_marks"), {"area": "an area", "index": "a box or null"})
        out += bad
        for r in rows:
            if r["area"] not in ALL_AREAS or not (r["index"] is None or _int(r["index"])):
                out.append(f"last_marks: an area ({', '.join(ALL_AREAS)}) and a box number or null each")
                break
    if "hits" in sheet:
        keys = {
            "turn": "a turn",
            "by": "the firer",
            "calibre": "inches",
            "location": "the box area hit",
            "penetrated": "true or false",
        }
        rows, bad = _rows("hits", get("hits"), keys)
        out += bad
        for r in rows:
            if not (
                _int(r["turn"])
                and isinstance(r["by"], str)
                and _number(r["calibre"])
                and isinstance(r["location"], str)
                and type(r["penetrated"]) is bool
            ):
                out.append(f"hits: each hit has {', '.join(f'{k} ({w})' for k, w in keys.items())}")
                break
    return out


__all__ = ["FLOOD_FAILS", "FLOOD_KINDS", "sheet_problems"]
