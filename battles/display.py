"""Ship sheets and orders as readable text, for the map's ship card, the ship sheet page and the turn log.

One place for the wording: ``value_text`` turns a JSON value of a sheet or an order into short words (yes/no,
numbers without noise such as ``310`` for ``310.0``, ship keys as ship names, objects as "key value" pairs);
``sheet_rows`` and ``order_rows`` give (label, value) rows. Order labels and units come from the rule set's
``order_types`` field specs (rules.model.FieldSpec); the rule sets have no labels for their sheet keys, so a
sheet key is shown as words (``guns_lost`` -> ``Guns lost``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from fleets.presentation import Block, Cell, json_block
from rules.base import RuleSet
from rules.hints import FieldHint
from rules.model import JSON, FieldSpec

_KEYWORD = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")
"""A value written as a key (``keep_afloat``): shown as words."""

EMPTY: tuple[JSON, ...] = (None, "", [], {})
"""Values that say nothing: the rows of these are left out."""


_CLASS_WORD = re.compile(r"\bclass\b", re.IGNORECASE)


def class_label(name: str) -> str:
    """Return a ship class's name as a label: ``Admiral`` -> ``Admiral class``; a name that says "class"
    already is kept as it is (``City class ironclad``, not ``City class ironclad class``)."""
    return name if _CLASS_WORD.search(name) else f"{name} class"


def key_label(key: str) -> str:
    """Return a sheet or order key as a label: ``guns_lost`` -> ``Guns lost``."""
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def speed_unit(ruleset: RuleSet) -> str:
    """Return the unit of a ship's speed (``ShipState.speed``) in ``ruleset``, for a label: the unit of its
    ``speed`` order field (ww2_jackson ``knots``, sail_1700 ``mm``, a move's distance), else ``hexes per
    turn`` on a hex map (rules.model: speeds of the hex sets are hexes per turn), else the rule set's unit."""
    spec = next((f for f in ruleset.order_fields() if f.name == "speed"), None)
    if spec is not None and spec.unit:
        return spec.unit
    return "hexes per turn" if ruleset.geometry.startswith("hex") else ruleset.unit


def value_text(value: JSON, names: Mapping[str, str] | None = None, depth: int = 0) -> str:
    """Return a sheet or order value as short text.

    ``True``/``False`` -> ``yes``/``no``; ``None`` -> ``-``; floats with ``:g`` (``27.0`` -> ``27``); a string
    that is a key of ``names`` (ship id -> ship name) -> the ship's name, one written as a key in words
    (``keep_afloat`` -> ``keep afloat``); objects as ``"key value"`` pairs sorted by key
    without their empty values (keys that are ship ids named too); lists joined with ", " (``"; "`` when
    they hold objects), at most 12 items then `` ...``.
    """
    names = names or {}
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(
            f"{names.get(k) or k.replace('_', ' ')} {value_text(v, names, depth + 1)}"
            for k, v in sorted(value.items())  # sorted: PostgreSQL's jsonb keeps no key order
            if v not in EMPTY
        )
    if isinstance(value, list):
        sep = "; " if any(isinstance(v, (dict, list)) for v in value) else ", "
        more = " ..." if len(value) > 12 else ""
        return sep.join(value_text(v, names, depth + 1) for v in value[:12]) + more
    if isinstance(value, str):
        if value in names:
            return names[value]
        return value.replace("_", " ") if _KEYWORD.fullmatch(value) else value
    return str(value)


def sheet_rows(
    sheet: Mapping[str, JSON],
    names: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Return a ship's sheet as (label, value) rows, sorted by key, empty values left out: the rows that say
    something first, then those at nought or "no" (the pages show these folded). ``texts``: the rule set's
    words for some keys' values (``RuleSet.sheet_texts``: ww2_jackson's box numbers as the boxes' names),
    shown in place of the bare value."""
    rows: list[tuple[str, str]] = []
    quiet: list[tuple[str, str]] = []
    texts = texts or {}
    for key in sorted(sheet):
        value = sheet[key]
        if value in EMPTY:
            continue
        target = quiet if value is False or (isinstance(value, (int, float)) and value == 0) else rows
        target.append((key_label(key), texts.get(key) or value_text(value, names)))
    return rows, quiet


def _field_text(
    spec: FieldSpec | None, value: JSON, names: Mapping[str, str], labels: Mapping[str, str] | None = None
) -> str:
    if labels and not isinstance(value, (bool, dict, list)) and value is not None:
        # the words the order form offered for this value (a choice of RuleSet.order_hints: "30 degrees to
        # starboard", "0: port mount 1"), read by the value's text as the form posts it
        key = f"{value:g}" if isinstance(value, float) else str(value)
        if key in labels:
            return labels[key]
    if spec is not None and spec.default_text and value == spec.default and not isinstance(value, bool):
        return spec.default_text
    text = value_text(value, names)
    if spec is None:
        return text
    if spec.unit and isinstance(value, (int, float)) and not isinstance(value, bool):
        text = f"{text} {spec.unit}"
    return text


def field_rows(
    fields: tuple[FieldSpec, ...],
    data: Mapping[str, JSON],
    names: Mapping[str, str] | None = None,
    choices: Mapping[str, Mapping[str, str]] | None = None,
) -> list[tuple[str, str]]:
    """Return ``data`` as (label, value) rows in the order of ``fields`` (rules.model.FieldSpec), empty
    values left out: the spec's label, the value with its unit (``27 knots``), ship ids as ship names, and a
    value of a field with ``choices`` (field name -> value's text -> words, see :func:`hint_choices`) as its
    words. Keys without a spec follow, sorted and labelled from the key."""
    names = names or {}
    choices = choices or {}
    specs = {f.name: f for f in fields}
    keys = [k for k in specs if k in data] + sorted(k for k in data if k not in specs)
    return [
        (
            specs[k].label if k in specs else key_label(k),
            _field_text(specs.get(k), data[k], names, choices.get(k)),
        )
        for k in keys
        if data[k] not in EMPTY
    ]


def hint_choices(hints: Mapping[str, FieldHint]) -> dict[str, dict[str, str]]:
    """Return the choices of a ship's order hints (``RuleSet.order_hints``) as field name -> value's text ->
    words, for :func:`order_rows`: the log shows an order as the form offered it ("60 degrees to port", not
    ``-60``; ww2_jackson's torpedo mount by its name, not its index)."""
    return {name: dict(h.choices) for name, h in hints.items() if h.choices}


def _rows_block(spec: FieldSpec, rows: list[JSON], names: Mapping[str, str]) -> Block:
    """Return a ``rows`` field's value (a gun mount or battery a row) as a table: a column per field of the
    row spec that some row fills, headed by its label and unit."""
    dicts = [r for r in rows if isinstance(r, dict)]
    cols = [f for f in spec.fields if any(r.get(f.name) not in EMPTY for r in dicts)]
    cols += [
        FieldSpec(name=k, label=key_label(k), type="str")
        for k in sorted({k for r in dicts for k in r} - {f.name for f in spec.fields})
        if any(r.get(k) not in EMPTY for r in dicts)
    ]
    return Block(
        kind="table",
        headers=tuple(f"{f.label} ({f.unit})" if f.unit else f.label for f in cols),
        rows=tuple(
            tuple(
                Cell(text="-" if r.get(f.name) in EMPTY else value_text(r.get(f.name), names)) for f in cols
            )
            for r in dicts
        ),
    )


def class_rows(
    fields: tuple[FieldSpec, ...],
    data: Mapping[str, JSON],
    summary: Mapping[str, JSON],
    names: Mapping[str, str] | None = None,
) -> list[tuple[str, str, Block | None]]:
    """Return a ship's class stats, then its derived values (``RuleSet.class_summary``), as (label, text,
    table) rows: :func:`field_rows` for a plain value (the table ``None``); a ``rows`` field (armament,
    torpedo mounts) as a table with a row per mount or battery and a column per field the rows fill; a
    derived value that is a list or an object (ww2_jackson's arcs) as tables by
    :func:`fleets.presentation.json_block`, not one long paragraph."""
    names = names or {}
    specs = {f.name: f for f in fields}
    out: list[tuple[str, str, Block | None]] = []
    for key in [k for k in specs if k in data] + sorted(k for k in data if k not in specs):
        value, spec = data[key], specs.get(key)
        if value in EMPTY:
            continue
        label = spec.label if spec is not None else key_label(key)
        if spec is not None and spec.type == "rows" and isinstance(value, list):
            out.append((label, "", _rows_block(spec, value, names)))
        else:
            out.append((label, _field_text(spec, value, names), None))
    for key, value in summary.items():
        if isinstance(value, (dict, list)) and value:
            out.append((key_label(key), "", json_block(value)))
        else:
            out.append((key_label(key), value_text(value, names), None))
    return out


def _is_default(spec: FieldSpec, value: JSON) -> bool:
    return value in EMPTY or value == spec.default


def order_rows(
    ruleset: RuleSet,
    data: Mapping[str, JSON],
    names: Mapping[str, str] | None = None,
    choices: Mapping[str, Mapping[str, str]] | None = None,
) -> list[tuple[str, str]]:
    """Return an order's payload as (label, value) rows by the rule set's order fields (``order_fields()``),
    e.g. ww2_jackson ``{"speed": 27.0}`` -> ``[("Speed", "27 knots")]``; see :func:`field_rows`.

    Only what means something is shown: an order type whose fields are all empty or at their defaults is
    left out (no torpedo mount ``-1`` when no torpedo is fired, no damage control action ``none``), but for
    the standing orders, which hold from turn to turn; a field whose ``needs`` field is empty or at its
    default (or is left out itself) is left out; a default with a ``default_text`` is shown as that text
    (mount ``-1`` -> "every loaded mount that bears"); a value among ``choices`` (:func:`hint_choices` of the
    ship's hints when the order was given) as the form's words for it.
    """
    specs = {f.name: f for f in ruleset.order_fields()}
    quiet: set[str] = set()
    for ot in ruleset.order_types:
        if ot.key != "standing" and all(_is_default(f, data.get(f.name)) for f in ot.fields):
            quiet.update(f.name for f in ot.fields)
    for f in specs.values():  # a field's ``needs`` comes before it, so a chain is left out as a whole
        if f.needs in specs and (f.needs in quiet or _is_default(specs[f.needs], data.get(f.needs))):
            quiet.add(f.name)
    shown = {k: v for k, v in data.items() if k not in quiet}
    return field_rows(ruleset.order_fields(), shown, names, choices)


def change_rows(
    before: Mapping[str, JSON], after: Mapping[str, JSON], names: Mapping[str, str] | None = None
) -> list[tuple[str, str, str]]:
    """Return what an edit changed as (label, before, after) rows, sorted by key: the keys whose values
    differ (a key only on one side, or an empty value, shows ``-``). A repair record's
    ``{"status": ..., "sheet": {...}}`` is read with the sheet's keys at the top level, so
    ``{"sheet": {"hull": 3}}`` -> ``[("Hull", "3", ...)]``.
    """

    def flat(record: Mapping[str, JSON]) -> dict[str, JSON]:
        out = {k: v for k, v in record.items() if k != "sheet"}
        sheet = record.get("sheet")
        if isinstance(sheet, dict):
            out.update(sheet)
        return out

    old, new = flat(before), flat(after)
    return [
        (key_label(k), value_text(old.get(k), names) or "-", value_text(new.get(k), names) or "-")
        for k in sorted(old.keys() | new.keys())
        if old.get(k) != new.get(k)
    ]
