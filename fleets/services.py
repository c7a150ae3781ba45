"""Writes of the fleets app: nations, ship classes (validated by their rule set), imports, reference data.

Every top-level service is one ``transaction.atomic()``. A class whose stats its rule set refuses is never
saved: :func:`shipclass_save` raises :class:`~navalwar.errors.ApplicationError` with the rule set's field
errors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import tablib
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from import_export.results import RowResult

from navalwar.errors import ApplicationError
from navalwar.text import NUL, check_json_text

from .models import Nation, Ship, ShipClass
from .reference import canonical_navy, navy_style, reference_classes
from .resources import COLUMNS, ShipClassResource

ExportFormat = Literal["json", "csv"]


def nation_ensure(*, name: str) -> Nation | None:
    """Return the nation of this name (canonical spelling), made with its navy's colour if new; None if
    blank."""
    name = canonical_navy(name)
    if not name:
        return None
    short, colour = navy_style(name)
    nation, _ = Nation.objects.get_or_create(name=name, defaults={"short_name": short, "colour": colour})
    return nation


def _validation_fields(exc: ValidationError) -> dict[str, list[str]]:
    if hasattr(exc, "error_dict"):
        return {
            ("__all__" if k == NON_FIELD_ERRORS else k): [str(m) for e in v for m in e]
            for k, v in exc.error_dict.items()
        }
    return {"__all__": [str(m) for m in exc.messages]}


def shipclass_save(*, ship_class: ShipClass) -> ShipClass:
    """Validate a ship class (its stats by its rule set, ``ShipClass.clean``) and save it.

    Raise ApplicationError ``invalid_class`` with the field errors, saving nothing, when it is not valid.
    """
    if (
        not ship_class.type
        and isinstance(ship_class.stats, dict)
        and isinstance(ship_class.stats.get("type"), str)
    ):
        ship_class.type = ship_class.stats["type"]
    try:
        ship_class.full_clean()
    except ValidationError as exc:
        raise ApplicationError(
            "invalid_class", f"{ship_class.name or 'The class'} is not valid.", fields=_validation_fields(exc)
        ) from exc
    with transaction.atomic():
        ship_class.save()
    return ship_class


def _free_key(ruleset: str, key: str) -> str:
    base = f"{key}_copy"[:72]
    candidate, n = base, 2
    while ShipClass.objects.filter(ruleset=ruleset, key=candidate).exists():
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def shipclass_duplicate(*, ship_class: ShipClass) -> ShipClass:
    """Return a saved copy of a class under a free key (``<key>_copy``, ``<key>_copy_2``...), named "...
    (copy)"."""
    with transaction.atomic():
        copy = ShipClass(
            ruleset=ship_class.ruleset,
            key=_free_key(ship_class.ruleset, ship_class.key),
            name=f"{ship_class.name} (copy)"[:120],
            nation=ship_class.nation,
            type=ship_class.type,
            stats=json.loads(json.dumps(ship_class.stats)),
            source_note=ship_class.source_note,
            heuristic=ship_class.heuristic,
        )
        return shipclass_save(ship_class=copy)


# --- export and import -------------------------------------------------------------------------------------


def shipclass_export(*, queryset: QuerySet[ShipClass], fmt: ExportFormat) -> str:
    """Return the classes as a JSON document (a list of objects, stats as objects) or CSV (stats as JSON
    text)."""
    dataset = ShipClassResource().export(queryset.select_related("nation"))
    if fmt == "csv":
        return str(dataset.csv)
    rows = []
    for row in dataset.dict:
        out = dict(row)
        out["stats"] = json.loads(out["stats"]) if out.get("stats") else {}
        out["heuristic"] = out.get("heuristic") in (True, 1, "1")
        rows.append(out)
    return json.dumps(rows, indent=1, ensure_ascii=False) + "\n"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportRow:
    """What happened to one row of an import file; ``number`` counts data rows from 1, as the file has
    them."""

    number: int
    key: str
    name: str
    outcome: Literal["new", "updated", "unchanged", "rejected"]
    errors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportReport:
    rows: tuple[ImportRow, ...] = ()
    file_errors: tuple[str, ...] = ()
    check_only: bool = False

    def count(self, outcome: str) -> int:
        return sum(1 for r in self.rows if r.outcome == outcome)

    @property
    def count_new(self) -> int:
        return self.count("new")

    @property
    def count_updated(self) -> int:
        return self.count("updated")

    @property
    def count_unchanged(self) -> int:
        return self.count("unchanged")

    @property
    def rejected(self) -> tuple[ImportRow, ...]:
        return tuple(r for r in self.rows if r.outcome == "rejected")

    @property
    def imported(self) -> int:
        return 0 if self.check_only else self.count("new") + self.count("updated")


def _load_dataset(content: str, fmt: ExportFormat) -> tuple[tablib.Dataset, list[int], list[ImportRow]]:
    """Return (dataset, file row number of each dataset row, rows rejected before import)."""
    rejected: list[ImportRow] = []
    if fmt == "csv":
        dataset = tablib.Dataset().load(content, format="csv")
        return dataset, list(range(1, len(dataset) + 1)), rejected
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise ApplicationError("bad_file", f"The file is not valid JSON: {exc}.") from exc
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ApplicationError("bad_file", "A JSON import is a list of ship class objects.")
    headers: list[str] = []
    objects: list[tuple[int, dict[str, Any]]] = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict):
            rejected.append(
                ImportRow(
                    number=number,
                    key="",
                    name="",
                    outcome="rejected",
                    errors=("The row is not a JSON object.",),
                )
            )
            continue
        objects.append((number, item))
        headers.extend(k for k in item if k not in headers)
    dataset = tablib.Dataset(headers=headers or list(COLUMNS))
    for _, item in objects:
        dataset.append([item.get(h) for h in headers])
    return dataset, [n for n, _ in objects], rejected


def _unfit_rows(
    dataset: tablib.Dataset, numbers: list[int]
) -> tuple[tablib.Dataset, list[int], list[ImportRow]]:
    """Return the dataset without the rows that cannot be imported, their file row numbers, and those rows
    rejected with the reason: a row with no value at all (it was reported "unchanged"); a row with a NUL
    character in a cell (PostgreSQL refuses it: in the key or rule set the import failed whole, and elsewhere
    it was a 500 there; docs/rulings.md NW-CAMP-18); and a row with a lone surrogate escape (``"\\ud800"``:
    no UTF-8 page can show it; until NW-CAMP-18 one refused the whole JSON file)."""
    headers = list(dataset.headers or [])
    kept = tablib.Dataset(headers=headers)
    kept_numbers: list[int] = []
    rejected: list[ImportRow] = []
    for number, row in zip(numbers, dataset, strict=True):
        values = dict(zip(headers, row, strict=False))
        errors: list[str] = []
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in values.values()):
            errors.append("The row is empty: a class has at least a ruleset, a key and a name.")
        for column, value in values.items():
            if column not in COLUMNS:
                continue  # not read, not saved
            try:
                check_json_text(value)
            except ValueError as exc:
                errors.append(f"{column}: {str(exc)[0].upper()}{str(exc)[1:]}.")
        if errors:
            # shown in the report: without what no page can hold
            shown = {
                k: str(values.get(k) or "").replace(NUL, "").encode("utf-8", "replace").decode()
                for k in ("key", "name")
            }
            rejected.append(
                ImportRow(
                    number=number,
                    key=shown["key"],
                    name=shown["name"],
                    outcome="rejected",
                    errors=tuple(errors),
                )
            )
        else:
            kept.append(row)
            kept_numbers.append(number)
    return kept, kept_numbers, rejected


def _row_errors(exc: ValidationError) -> tuple[str, ...]:
    out = []
    for name, messages in _validation_fields(exc).items():
        for message in messages:
            out.append(message if name == "__all__" else f"{name}: {message}")
    return tuple(out)


_OUTCOMES = {
    RowResult.IMPORT_TYPE_NEW: "new",
    RowResult.IMPORT_TYPE_UPDATE: "updated",
    RowResult.IMPORT_TYPE_SKIP: "unchanged",
}


def shipclass_import(*, content: str | bytes, fmt: ExportFormat, check_only: bool = False) -> ImportReport:
    """Import ship classes from a JSON or CSV document; return what happened to every row.

    Good rows are saved (new or updated by (ruleset, key)); a row the rule set refuses, or with a malformed
    value, is rejected with its reasons and nothing of it is saved. With ``check_only`` nothing is saved at
    all. Raise ApplicationError ``bad_file`` when the file cannot be read as a table of classes.
    """
    if isinstance(content, bytes):
        try:
            content = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ApplicationError("bad_file", "The file is not UTF-8 text.") from exc
    try:
        dataset, numbers, rejected = _load_dataset(content, fmt)
        dataset, numbers, unfit = _unfit_rows(dataset, numbers)
        rejected += unfit
    except ApplicationError:
        raise
    except Exception as exc:  # tablib's CSV and format errors
        raise ApplicationError("bad_file", f"The file cannot be read as {fmt.upper()}: {exc}.") from exc
    missing = [c for c in ("ruleset", "key") if c not in (dataset.headers or [])]
    if missing and len(dataset):
        raise ApplicationError("bad_file", f"The file has no {' or '.join(missing)} column.")
    rows = list(rejected)
    with transaction.atomic():
        result = ShipClassResource().import_data(dataset, dry_run=check_only, use_transactions=True)
        if result.has_errors():
            transaction.set_rollback(True)
            detail = "; ".join(str(e.error) for e in result.base_errors) or "; ".join(
                f"row {numbers[n - 1]}: {e.error}" for n, errs in result.row_errors() for e in errs
            )
            raise ApplicationError("import_failed", f"The import failed and nothing was saved: {detail}")
        for index, row_result in enumerate(result.rows):
            number = numbers[index]
            values = dict(zip(dataset.headers, dataset[index], strict=False))
            key, name = str(values.get("key") or ""), str(values.get("name") or "")
            if row_result.import_type == RowResult.IMPORT_TYPE_INVALID:
                rows.append(
                    ImportRow(
                        number=number,
                        key=key,
                        name=name,
                        outcome="rejected",
                        errors=_row_errors(row_result.validation_error),
                    )
                )
            else:
                rows.append(
                    ImportRow(
                        number=number,
                        key=key,
                        name=name,
                        outcome=_OUTCOMES.get(row_result.import_type, "unchanged"),
                    )
                )  # type: ignore[arg-type]
    return ImportReport(rows=tuple(sorted(rows, key=lambda r: r.number)), check_only=check_only)


# --- bundled reference data --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    ships_created: int = 0
    rejected: tuple[str, ...] = ()
    per_ruleset: dict[str, int] = field(default_factory=dict)


def reference_data_load() -> ReferenceReport:
    """Load every bundled class of every registered rule set (and its scenario ships); safe to run twice.

    A class is matched on (rule set, key) and updated only when its data changed. A bundled class its rule set
    refuses is not saved and is named in ``rejected`` (a test keeps that list empty).
    """
    created = updated = unchanged = ships_created = 0
    rejected: list[str] = []
    per_ruleset: dict[str, int] = {}
    with transaction.atomic():
        for ref in reference_classes():
            nation = nation_ensure(name=ref.nation) if ref.nation else None
            values = {
                "name": ref.name[:120],
                "nation": nation,
                "type": (ref.type or str(ref.stats.get("type") or ""))[:40],
                "stats": ref.stats,
                "source_note": ref.source,
                "heuristic": ref.heuristic,
            }
            ship_class = ShipClass.objects.filter(ruleset=ref.ruleset, key=ref.key).first()
            is_new = ship_class is None
            if ship_class is not None and all(getattr(ship_class, k) == v for k, v in values.items()):
                unchanged += 1
            else:
                if ship_class is None:
                    ship_class = ShipClass(ruleset=ref.ruleset, key=ref.key)
                for k, v in values.items():
                    setattr(ship_class, k, v)
                try:
                    with transaction.atomic():
                        shipclass_save(ship_class=ship_class)
                except ApplicationError as exc:
                    detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.fields.items())
                    rejected.append(f"{ref.ruleset}/{ref.key}: {detail}")
                    continue
                if is_new:
                    created += 1
                else:
                    updated += 1
            per_ruleset[ref.ruleset] = per_ruleset.get(ref.ruleset, 0) + 1
            for ship_name in ref.ships:
                _, made = Ship.objects.get_or_create(name=ship_name[:120], ship_class=ship_class)
                ships_created += made
    return ReferenceReport(
        created=created,
        updated=updated,
        unchanged=unchanged,
        ships_created=ships_created,
        rejected=tuple(rejected),
        per_ruleset=per_ruleset,
    )
