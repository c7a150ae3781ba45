"""Helpers of the fleets tests: a rule set's sample class, and its stats as the admin form posts them."""

from __future__ import annotations

import copy
from typing import Any

import rules
from fleets.reference import ReferenceClass, reference_classes
from rules.model import FieldSpec


def sample_class(ruleset: str) -> ReferenceClass:
    """Return the first bundled class of a rule set (every rule set bundles at least one scenario)."""
    for ref in reference_classes():
        if ref.ruleset == ruleset:
            return ref
    raise AssertionError(f"rule set {ruleset} bundles no class")


def sample_stats(ruleset: str) -> dict[str, Any]:
    return copy.deepcopy(sample_class(ruleset).stats)


def reference_stats(ruleset: str, key: str) -> dict[str, Any]:
    """Return a copy of the stats of the registered rule set's reference class ``key``."""
    for entry in rules.get_ruleset(ruleset).reference_classes():
        if entry["key"] == key:
            stats = entry["stats"]
            assert isinstance(stats, dict)
            return copy.deepcopy(stats)
    raise AssertionError(f"rule set {ruleset} has no reference class {key}")


def _encode(spec: FieldSpec, value: Any, name: str, data: dict[str, str]) -> None:
    if spec.type == "bool":
        if value is True:
            data[name] = "on"
        return
    data[name] = "" if value is None else str(value)


def stats_post(ruleset: str, stats: dict[str, Any], prefix: str = "stats") -> dict[str, str]:
    """Return the POST data of the generated stats form for ``stats`` (every row as a new row)."""
    data: dict[str, str] = {}
    for spec in rules.get_ruleset(ruleset).class_schema():
        if spec.type == "rows":
            rows = stats.get(spec.name) or []
            p = f"{prefix}-{spec.name}"
            data.update(
                {
                    f"{p}-TOTAL_FORMS": str(len(rows)),
                    f"{p}-INITIAL_FORMS": "0",
                    f"{p}-MIN_NUM_FORMS": "0",
                    f"{p}-MAX_NUM_FORMS": "1000",
                }
            )
            for i, row in enumerate(rows):
                for sub in spec.fields:
                    _encode(sub, row.get(sub.name), f"{p}-{i}-{sub.name}", data)
        elif spec.name in stats:
            _encode(spec, stats[spec.name], f"{prefix}-{spec.name}", data)
    return data


def class_post(ruleset: str, stats: dict[str, Any], **fields: Any) -> dict[str, str]:
    """Return the whole admin add/change POST of a class (model fields, stats, empty ships inline)."""
    data = {
        "ruleset": ruleset,
        "name": fields.get("name", "Test class"),
        "key": fields.get("key", "test_class"),
        "nation": fields.get("nation", ""),
        "type": fields.get("type", ""),
        "source_note": fields.get("source_note", "Made in a test."),
        "ships-TOTAL_FORMS": "0",
        "ships-INITIAL_FORMS": "0",
        "ships-MIN_NUM_FORMS": "0",
        "ships-MAX_NUM_FORMS": "1000",
    }
    if fields.get("heuristic"):
        data["heuristic"] = "on"
    data.update(stats_post(ruleset, stats))
    return data
