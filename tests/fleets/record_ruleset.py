"""A test rule set whose class schema looks like a ``ww2_jackson`` record sheet (A4): gun boxes by area with
armour letters and arcs, torpedo mount boxes, counted boxes and armour letters. It stands in for the rule sets
not merged yet, so the generic forms, import and sheet drawing are tested on every schema type."""

from __future__ import annotations

from collections.abc import Mapping

from rules.model import JSON, FieldErrors, FieldSpec
from tests.rules.fake_ruleset import Fake

LETTERS = ("", "A", "B", "C", "D", "E")

GUN_ROW = (
    FieldSpec(name="name", label="Box", type="str", required=False, max=40),
    FieldSpec(name="area", label="Area", type="choice", choices=("main", "secondary"), default="main"),
    FieldSpec(name="calibre", label="Calibre", type="float", min=3, max=20, unit="inches"),
    FieldSpec(name="guns", label="Guns in the box", type="int", min=1, max=12),
    FieldSpec(
        name="armour", label="Armour letter", type="choice", required=False, choices=LETTERS, default=""
    ),
    FieldSpec(name="forward", label="Bears forward", type="bool", required=False, default=False),
    FieldSpec(name="aft", label="Bears aft", type="bool", required=False, default=False),
    FieldSpec(name="broadside", label="Bears on the broadside", type="bool", required=False, default=True),
)
TORPEDO_ROW = (
    FieldSpec(name="calibre", label="Torpedo calibre", type="int", min=18, max=24, unit="inches"),
    FieldSpec(name="tubes", label="Tubes", type="int", min=1, max=12),
)
SCHEMA = (
    FieldSpec(
        name="type",
        label="Type",
        type="choice",
        choices=("battleship", "cruiser", "destroyer"),
        default="cruiser",
    ),
    FieldSpec(name="tonnage", label="Standard displacement", type="int", min=50, max=100_000, unit="tons"),
    FieldSpec(name="speed", label="Rated speed", type="float", min=0, max=45, unit="knots"),
    FieldSpec(
        name="belt", label="Belt armour letter", type="choice", required=False, choices=LETTERS, default=""
    ),
    FieldSpec(
        name="guns",
        label="Armament boxes",
        type="rows",
        min=0,
        max=40,
        fields=GUN_ROW,
        required=False,
        default=[],
    ),
    FieldSpec(
        name="torpedoes",
        label="Torpedo mount boxes",
        type="rows",
        min=0,
        max=12,
        fields=TORPEDO_ROW,
        required=False,
        default=[],
    ),
    FieldSpec(
        name="underwater_protection",
        label="Underwater protection class",
        type="choice",
        required=False,
        choices=LETTERS,
        default="",
    ),
    FieldSpec(name="above", label="General above-water boxes", type="int", min=0, max=80, default=0),
    FieldSpec(name="underwater", label="General underwater boxes", type="int", min=1, max=40),
    FieldSpec(name="engine", label="Engine boxes", type="int", min=1, max=12),
    FieldSpec(
        name="heuristic",
        label="Authored with the A4 house heuristic",
        type="bool",
        required=False,
        default=False,
    ),
)

HOOD: dict[str, JSON] = {
    "type": "battleship",
    "tonnage": 42100,
    "speed": 31,
    "belt": "B",
    "guns": [
        {
            "name": "A",
            "area": "main",
            "calibre": 15,
            "guns": 2,
            "armour": "B",
            "forward": True,
            "aft": False,
            "broadside": True,
        },
        {
            "name": "Y",
            "area": "main",
            "calibre": 15,
            "guns": 2,
            "armour": "B",
            "forward": False,
            "aft": True,
            "broadside": True,
        },
        {
            "name": "S1",
            "area": "secondary",
            "calibre": 4,
            "guns": 2,
            "armour": "",
            "forward": False,
            "aft": False,
            "broadside": True,
        },
    ],
    "torpedoes": [{"calibre": 21, "tubes": 2}],
    "above": 8,
    "underwater": 3,
    "underwater_protection": "C",
    "engine": 4,
    "heuristic": True,
}


class Record(Fake):
    key = "record"
    title = "Record sheet rules (test)"

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        errors: FieldErrors = {}
        guns = stats.get("guns") or []
        assert isinstance(guns, list)
        for i, row in enumerate(guns):
            if isinstance(row, dict) and not any(row.get(k) is True for k in ("forward", "aft", "broadside")):
                errors.setdefault(f"guns.{i}.broadside", []).append("The box bears in no arc.")
        if stats.get("type") == "battleship" and not stats.get("belt"):
            errors.setdefault("belt", []).append("A battleship has a belt letter.")
        return errors

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        guns = stats.get("guns") or []
        assert isinstance(guns, list)
        return {
            "main_guns": sum(
                int(str(g.get("guns"))) for g in guns if isinstance(g, dict) and g.get("area") == "main"
            )
        }

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        return (
            {
                "key": "hood",
                "name": "Hood",
                "nation": "Great Britain",
                "type": "battlecruiser",
                "stats": HOOD,
                "source": "Test data after rulings-product A4.",
                "heuristic": True,
            },
        )

    def tables(self) -> dict[str, JSON]:
        return {
            "PENETRATION": {"15": {"A": 1, "B": 2}, "8": {"A": "NO", "B": 1}},
            "HIT_LOCATION_LONG": [
                {"low": 1, "high": 10, "result": "above"},
                {"low": 11, "high": 20, "result": "main"},
            ],
            "ARCS_DEG": {"forward": 30, "aft": 30},
        }


RULESET = Record()
