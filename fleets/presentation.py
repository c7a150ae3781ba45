"""What the class pages and the quick reference draw, built from the rules API only (no rules copied here).

- :func:`json_block` turns any JSON chart (``RuleSet.tables()``, ``class_summary()``) into nested blocks a
  template draws as tables: an object of numbers is a two-column table, a list of objects a table with
  headers, an object of objects a matrix, anything deeper sections.
- :func:`sheet_view` lays a class's stats out as its card or record sheet from the rule set's class schema:
  counted box fields (their label says "boxes") become rows of empty boxes; ``rows`` fields with an ``area``,
  an ``armour`` letter or "boxes" in their label become one box per row, grouped by area, with the guns,
  armour letter and arcs written in; other ``rows`` fields become small tables; the rest is a key-value card.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules.base import RuleSet
from rules.model import JSON, FieldSpec

# --- JSON charts as tables -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    text: str = ""
    block: Block | None = None
    header: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    title: str
    code: str
    block: Block


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    """A drawable piece of JSON: ``text``, ``table`` (optional headers, rows of cells) or ``sections``."""

    kind: Literal["text", "table", "sections"]
    text: str = ""
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = ()
    sections: tuple[Section, ...] = ()
    kv: bool = False


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def format_value(value: Any, unit: str = "") -> str:
    """Return a JSON scalar as text: yes/no, a dash for null, numbers without trailing zeros; one of a unit is
    singular (``1 hex``, ``1 inch``)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        text = f"{value:,.4g}" if abs(value) >= 10_000 else f"{value:g}"
    elif isinstance(value, int):
        text = f"{value:,}" if abs(value) >= 10_000 else str(value)
    else:
        text = str(value)
    if unit and value == 1 and unit.endswith("s") and len(unit) > 3:
        unit = unit[:-2] if unit.endswith(("xes", "ches")) else unit[:-1]
    return f"{text} {unit}" if unit else text


def humanize(key: str) -> str:
    """Return a chart or column key as words: ``HIT_LOCATION_LONG`` -> ``Hit location long``, ``MFN_CHART`` ->
    ``MFN chart`` and ``d6_needed`` -> ``D6 needed`` (a word without vowels or with a digit is an
    abbreviation), ``capital`` -> ``Capital``; other short keys (``A``, ``15in``) are kept."""
    if "_" not in key and not (key.isupper() and len(key) > 3):
        if key.isalpha() and key.islower():
            word = _word(key)
            return word[:1].upper() + word[1:]
        return key
    text = " ".join(_word(w) for w in key.replace("_", " ").split())
    return text[:1].upper() + text[1:]


def _word(word: str) -> str:
    if any(c.isdigit() for c in word) or not re.search(r"[aeiouy]", word, re.IGNORECASE):
        return word.upper()
    return word.lower()


def _cell(value: Any) -> Cell:
    if _scalar(value) or (isinstance(value, list) and all(_scalar(v) for v in value)):
        return Cell(
            text=", ".join(format_value(v) for v in value) if isinstance(value, list) else format_value(value)
        )
    return Cell(block=json_block(value))


def json_block(value: Any) -> Block:
    """Return a JSON value as a :class:`Block` (see the module docstring for the layouts)."""
    if isinstance(value, list):
        if not value or all(_scalar(v) for v in value):
            return Block(kind="text", text=", ".join(format_value(v) for v in value) or "—")
        if all(isinstance(v, dict) for v in value):
            headers: list[str] = []
            for row in value:
                headers.extend(k for k in row if k not in headers)
            return Block(
                kind="table",
                headers=tuple(humanize(h) for h in headers),
                rows=tuple(tuple(_cell(row.get(h)) for h in headers) for row in value),
            )
        return Block(
            kind="table",
            rows=tuple(tuple(_cell(v) for v in (row if isinstance(row, list) else [row])) for row in value),
        )
    if isinstance(value, dict):
        if not value:
            return Block(kind="text", text="—")
        values = list(value.values())
        if all(_scalar(v) for v in values):
            return Block(
                kind="table",
                kv=True,
                rows=tuple((Cell(text=humanize(str(k)), header=True), _cell(v)) for k, v in value.items()),
            )
        if all(
            isinstance(v, dict) and all(_scalar(x) or isinstance(x, list) for x in v.values()) for v in values
        ):
            inner: list[str] = []
            for v in values:
                inner.extend(k for k in v if k not in inner)
            if len(inner) <= 14:
                return Block(
                    kind="table",
                    headers=("", *(humanize(k) for k in inner)),
                    rows=tuple(
                        (Cell(text=humanize(str(k)), header=True), *(_cell(v.get(i)) for i in inner))
                        for k, v in value.items()
                    ),
                )
        if all(isinstance(v, list) and all(_scalar(x) for x in v) for v in values):
            return Block(
                kind="table",
                kv=True,
                rows=tuple(
                    (Cell(text=humanize(str(k)), header=True), *(Cell(text=format_value(x)) for x in v))
                    for k, v in value.items()
                ),
            )
        scalars = {k: v for k, v in value.items() if _scalar(v)}
        sections = [Section(title="", code="", block=json_block(scalars))] if scalars else []
        sections += [
            Section(title=humanize(str(k)), code=str(k), block=json_block(v))
            for k, v in value.items()
            if not _scalar(v)
        ]
        return Block(kind="sections", sections=tuple(sections))
    return Block(kind="text", text=format_value(value))


def chart_sections(tables: Mapping[str, JSON]) -> tuple[Section, ...]:
    """Return one section per chart of ``RuleSet.tables()``, titled in words with the chart's own name."""
    return tuple(Section(title=humanize(k), code=k, block=json_block(v)) for k, v in tables.items())


# --- status sheet / card -----------------------------------------------------------------------------------

ARCS = ("forward", "aft", "broadside", "bow", "stern", "port", "starboard")
ARC_SHORT = {
    "forward": "fwd",
    "aft": "aft",
    "broadside": "brd",
    "bow": "bow",
    "stern": "stern",
    "port": "port",
    "starboard": "stbd",
}
UNIT_SHORT = {"inches": "in", "millimetres": "mm", "pounds": "pdr", "knots": "kn", "tons": "t"}
_ARMOUR_WORDS = ("armour", "armor", "letter", "protection")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetItem:
    label: str
    value: str
    help: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetBox:
    """One box of a record sheet: a turret, mount or tube set, or a plain box (empty title)."""

    title: str = ""
    detail: str = ""
    armour: str = ""
    arcs: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetArea:
    """A row of the sheet; ``armour`` is the letter its boxes carry, when an armour field names the area."""

    label: str
    boxes: tuple[SheetBox, ...]
    armour: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetTable:
    label: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    help: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetView:
    """A class's card (key values, tables) and, when its schema has boxes, its record sheet (areas)."""

    ruleset_key: str
    ruleset_title: str
    items: tuple[SheetItem, ...]
    armour: tuple[SheetItem, ...]
    areas: tuple[SheetArea, ...]
    tables: tuple[SheetTable, ...]
    summary: Block | None
    errors: tuple[str, ...] = ()

    @property
    def is_record_sheet(self) -> bool:
        return bool(self.areas)

    @property
    def total_boxes(self) -> int:
        return sum(len(a.boxes) for a in self.areas)


def _words(key: str) -> str:
    """Return a choice value as words with a capital: ``above_armoured`` -> ``Above armoured``."""
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _short_unit(unit: str) -> str:
    return UNIT_SHORT.get(unit, unit)


def _is_boxes(spec: FieldSpec) -> bool:
    return "box" in spec.label.lower() or "box" in spec.name.lower()


def _is_armour(spec: FieldSpec, value: Any) -> bool:
    """An armour letter: a short choice or text whose label speaks of armour, a letter or protection."""
    return (
        spec.type in ("choice", "str")
        and isinstance(value, str)
        and len(value) <= 2
        and any(w in spec.label.lower() for w in _ARMOUR_WORDS)
    )


def _row_box(row: Mapping[str, Any], specs: Sequence[FieldSpec], index: int, fallback: str) -> SheetBox:
    by_name = {s.name: s for s in specs}
    used = {"name", "area", "armour"}
    detail = ""
    cal_spec = by_name.get("calibre")
    for count_name in ("guns", "tubes", "barrels", "count"):
        if count_name in row and cal_spec is not None and "calibre" in row:
            noun = "" if count_name == "guns" else f" {count_name}"
            detail = (
                f"{format_value(row[count_name])}{noun} \u00d7 "
                f"{format_value(row['calibre'])} {_short_unit(cal_spec.unit)}"
            ).strip()
            used |= {count_name, "calibre"}
            break
    arcs: list[str] = []
    for arc in ARCS:
        spec = by_name.get(arc)
        if spec is None or arc not in row:
            continue
        used.add(arc)
        value = row[arc]
        if spec.type == "bool" and value is True:
            arcs.append(ARC_SHORT[arc])
        elif spec.type in ("int", "float") and not isinstance(value, bool) and value:
            arcs.append(f"{format_value(value)} {ARC_SHORT[arc]}")
    extra = []
    for spec in specs:
        if spec.name in used or spec.name not in row:
            continue
        value = row[spec.name]
        if value in ("", None) or value == spec.default:
            continue
        extra.append(f"{spec.label}: {format_value(value, _short_unit(spec.unit))}")
    title = str(row.get("name") or "") or f"{fallback} {index + 1}"
    return SheetBox(
        title=title, detail=detail, armour=str(row.get("armour") or ""), arcs=tuple(arcs), extra=tuple(extra)
    )


def _area_armour(spec: FieldSpec | None, armour: Sequence[tuple[FieldSpec, str]]) -> str:
    """Return the letter of the armour field whose first word names this counted area (``belt`` in "boxes with
    the belt letter", ``underwater`` in "General underwater boxes"), or ""."""
    if spec is None:
        return ""
    words = set(re.findall(r"[a-z]+", f"{spec.name} {spec.label}".lower()))
    for armour_spec, letter in armour:
        if armour_spec.name.split("_")[0].lower() in words:
            return letter
    return ""


def sheet_view(ruleset: RuleSet, stats: Mapping[str, Any]) -> SheetView:
    """Return the card / record sheet of a class with these (valid) stats under ``ruleset``."""
    items: list[SheetItem] = []
    armour: list[SheetItem] = []
    areas: dict[str, list[SheetBox]] = {}
    counted: dict[str, FieldSpec] = {}
    armour_specs: list[tuple[FieldSpec, str]] = []
    tables: list[SheetTable] = []
    for spec in ruleset.class_schema():
        value = stats.get(spec.name, spec.default)
        if spec.type == "rows":
            rows = [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []
            sub_names = {s.name for s in spec.fields}
            if "area" in sub_names or "armour" in sub_names or _is_boxes(spec):
                for i, row in enumerate(rows):
                    area = _words(str(row.get("area") or "")) if "area" in sub_names else ""
                    areas.setdefault(area or spec.label, []).append(
                        _row_box(row, spec.fields, i, area or "Box")
                    )
            else:
                tables.append(
                    SheetTable(
                        label=spec.label,
                        help=spec.help,
                        headers=tuple(
                            f"{s.label} ({_short_unit(s.unit)})" if s.unit else s.label for s in spec.fields
                        ),
                        rows=tuple(
                            tuple(format_value(r.get(s.name, s.default)) for s in spec.fields) for r in rows
                        ),
                    )
                )
        elif spec.type == "int" and _is_boxes(spec):
            count = value if isinstance(value, int) and not isinstance(value, bool) else 0
            if count > 0:
                areas.setdefault(spec.label, []).extend(SheetBox() for _ in range(min(count, 200)))
                counted[spec.label] = spec
        elif _is_armour(spec, value):
            if value:
                armour.append(SheetItem(label=spec.label, value=str(value), help=spec.help))
                armour_specs.append((spec, str(value)))
        else:
            if spec.type == "choice" and isinstance(value, str):
                text = value.replace("_", " ") or "—"
            else:
                text = format_value(value, _short_unit(spec.unit) if spec.type in ("int", "float") else "")
            items.append(SheetItem(label=spec.label, value=text, help=spec.help))
    summary: Block | None = None
    errors: list[str] = []
    try:
        derived = ruleset.class_summary(stats)
        summary = json_block(derived) if derived else None
    except Exception as exc:  # the page must show the stats even if a rule set cannot summarise them
        errors.append(f"The rule set could not work out derived values: {exc}")
    return SheetView(
        ruleset_key=ruleset.key,
        ruleset_title=ruleset.title,
        items=tuple(items),
        armour=tuple(armour),
        areas=tuple(
            SheetArea(label=k, boxes=tuple(v), armour=_area_armour(counted.get(k), armour_specs))
            for k, v in areas.items()
        ),
        tables=tuple(tables),
        summary=summary,
        errors=tuple(errors),
    )
