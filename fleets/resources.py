"""django-import-export resources: ship classes to and from JSON and CSV.

Columns: ``ruleset, key, name, nation, type, stats, source_note, heuristic``. In CSV the ``stats`` column
holds the stats as JSON text; in JSON it is an object. A row is identified by (ruleset, key): importing a
class that exists updates it. Each row is validated by the model's ``full_clean()``, so by the rule set's
``validate_class``: a row the rule set refuses is reported with its errors and not saved.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from import_export import fields, resources, widgets

from navalwar.text import check_json_text, name_problem

from .models import Nation, ShipClass
from .reference import canonical_navy, navy_style

COLUMNS = ("ruleset", "key", "name", "nation", "type", "stats", "source_note", "heuristic")


class NationWidget(widgets.ForeignKeyWidget):
    """A nation by name; an unknown one is made on save (with its navy's colour), not before."""

    def __init__(self) -> None:
        super().__init__(Nation, field="name")

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Nation | None:
        if value is None or str(value).strip() == "":
            return None
        name = canonical_navy(str(value))
        problem = name_problem(name)  # made on save, not checked by the class's full_clean (NW-CAMP-24)
        if problem:
            raise ValueError(f"{problem[0].upper()}{problem[1:]}.")
        nation = Nation.objects.filter(name=name).first()
        if nation is None:
            short, colour = navy_style(name)
            nation = Nation(name=name, short_name=short, colour=colour)
        return nation

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return value.name if value is not None else ""


def check_characters(value: Any) -> None:
    """Raise ValueError when a value read from JSON holds a lone surrogate escape (``"\\ud800"``): a class
    saved with one made every page showing it fail with a 500 (no UTF-8 page can hold it); or a NUL character
    (``"\\u0000"``), which PostgreSQL refuses (a 500 there; navalwar.text, docs/rulings.md NW-CAMP-18)."""
    check_json_text(value)


class StatsWidget(widgets.Widget):
    """The stats object: a JSON object in a JSON file, JSON text in a CSV cell."""

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> dict[str, Any]:
        if value is None or value == "":
            return {}
        if isinstance(value, str):
            try:
                value = json.loads(value)
                check_characters(value)
            except ValueError as exc:
                raise ValueError(f"The stats are not valid JSON ({exc}).") from exc
        if not isinstance(value, dict):
            raise ValueError('The stats must be a JSON object, like {"tonnage": 36000, ...}.')
        return value

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return json.dumps(value if isinstance(value, dict) else {}, ensure_ascii=False)


class StrictBooleanWidget(widgets.BooleanWidget):
    """true/false, 1/0, yes/no; blank is false; anything else is an error, not a silent false."""

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> bool:
        if isinstance(value, str):
            value = value.strip().lower()
        if value in (True, 1, "1", "true", "yes", "y"):
            return True
        if value in (False, 0, "0", "false", "no", "n", "", None):
            return False
        raise ValueError(f"Enter true or false, not {value!r}.")


class TextWidget(widgets.CharWidget):
    """Text; a missing value is blank (the text columns are NOT NULL)."""

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> str:
        return "" if value is None else str(value).strip()


class ShipClassResource(resources.ModelResource):
    ruleset = fields.Field(attribute="ruleset", column_name="ruleset", widget=TextWidget())
    key = fields.Field(attribute="key", column_name="key", widget=TextWidget())
    name = fields.Field(attribute="name", column_name="name", widget=TextWidget())
    nation = fields.Field(attribute="nation", column_name="nation", widget=NationWidget())
    type = fields.Field(attribute="type", column_name="type", widget=TextWidget())
    stats = fields.Field(attribute="stats", column_name="stats", widget=StatsWidget())
    source_note = fields.Field(attribute="source_note", column_name="source_note", widget=TextWidget())
    heuristic = fields.Field(attribute="heuristic", column_name="heuristic", widget=StrictBooleanWidget())

    class Meta:
        model = ShipClass
        fields = COLUMNS
        export_order = COLUMNS
        import_id_fields = ("ruleset", "key")
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True
        use_transactions = True

    def validate_instance(
        self, instance: ShipClass, import_validation_errors: Any = None, validate_unique: bool = True
    ) -> None:
        unreadable = list((import_validation_errors or {}).get("stats", []))
        try:
            super().validate_instance(instance, import_validation_errors, validate_unique)
        except ValidationError as exc:
            errors = exc.update_error_dict({})
            if unreadable:
                # Stats that are not a JSON object: say that, not what the rule set thinks of "{}".
                errors["stats"] = unreadable
            raise ValidationError(errors) from exc

    def before_save_instance(self, instance: ShipClass, row: Any, **kwargs: Any) -> None:
        nation = instance.nation
        if nation is not None and nation.pk is None:
            nation.save()
            instance.nation = nation
        if not instance.type and isinstance(instance.stats.get("type"), str):
            instance.type = instance.stats["type"]
