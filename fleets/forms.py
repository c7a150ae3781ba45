"""Forms generated from a rule set's field specs (``rules.model.FieldSpec``), for any rule set.

:class:`StatsForm` turns a schema into real form fields: ``int`` and ``float`` become number inputs (with the
spec's bounds as HTML ``min``/``max``), ``choice`` a select, ``bool`` a checkbox, ``str`` a text input, and
each ``rows`` field an inline formset whose columns are the spec's sub-fields. The collected stats are
checked by the rule set's own validator (``RuleSet.validate_class``), and its errors (keys like ``tonnage``,
``guns.0.forward``, ``guns``, ``__all__``) are put next to the field, the row cell, the formset or the form.
The bounds are also checked by the rule set, never a second time here, so a player reads the rule set's
message.

Battles may reuse it for order payloads and campaign options: ``StatsForm(data, specs=..., validator=...)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.forms.formsets import BaseFormSet, formset_factory

import rules
from navalwar.numbers import PlainFloatField, PlainIntegerField
from rules.base import RuleSet, validate_fields
from rules.model import JSON, FieldErrors, FieldSpec

from .models import ShipClass

Validator = Callable[[Mapping[str, JSON]], FieldErrors]

_MISSING = object()


def _number_attr(x: float) -> str:
    return f"{x:g}"


def choice_label(value: str) -> str:
    """Return a readable label for a choice value (``pre_dreadnought`` -> ``Pre dreadnought``)."""
    if value == "":
        return "(none)"
    text = value.replace("_", " ")
    return text[:1].upper() + text[1:]


def spec_form_field(spec: FieldSpec) -> forms.Field:
    """Return the Django form field for one scalar field spec (not ``rows``)."""
    label = f"{spec.label} ({spec.unit})" if spec.unit else spec.label
    common: dict[str, Any] = {"label": label, "help_text": spec.help, "required": spec.required}
    if spec.default is not None:
        common["initial"] = spec.default
    attrs: dict[str, str] = {}
    if spec.min is not None:
        attrs["min"] = _number_attr(spec.min)
    if spec.max is not None:
        attrs["max"] = _number_attr(spec.max)
    if spec.type == "int":
        return PlainIntegerField(widget=forms.NumberInput(attrs={**attrs, "step": "1"}), **common)
    if spec.type == "float":
        return PlainFloatField(widget=forms.NumberInput(attrs={**attrs, "step": "any"}), **common)
    if spec.type == "bool":
        common["required"] = False  # a required checkbox would mean "must be ticked"
        return forms.BooleanField(**common)
    if spec.type == "choice":
        choices = [(c, choice_label(c)) for c in spec.choices]
        if not spec.required and "" not in spec.choices:
            choices.insert(0, ("", "---------"))
        return forms.ChoiceField(choices=choices, **common)
    if spec.type == "str":
        widget_attrs = {"maxlength": str(int(spec.max))} if spec.max is not None else {}
        return forms.CharField(widget=forms.TextInput(attrs=widget_attrs), **common)
    raise ValueError(f"no form field for a {spec.type!r} field ({spec.name})")


def _to_json(spec: FieldSpec, value: Any) -> Any:
    """Return the stats value of a cleaned form value, or ``_MISSING`` to leave the key out."""
    if spec.type == "bool":
        return bool(value)
    if value is None:
        return _MISSING
    if value == "":
        # An explicit "none" choice (an armour letter) is a value; any other blank is left to the default.
        return "" if spec.type == "choice" and "" in spec.choices else _MISSING
    if spec.type == "float":
        value = float(value)
        return int(value) if value.is_integer() else value
    return value


def _initial(spec: FieldSpec, stats: Mapping[str, Any] | None) -> Any:
    if stats is not None and spec.name in stats:
        return stats[spec.name]
    return spec.default


class RowForm(forms.Form):
    """One inline row of a ``rows`` field; subclasses get one field per sub-field spec."""

    specs: ClassVar[tuple[FieldSpec, ...]] = ()

    def row_value(self) -> dict[str, JSON]:
        """Return the row as stats JSON (keys of blank optional fields left out)."""
        out: dict[str, JSON] = {}
        for spec in self.specs:
            value = _to_json(spec, self.cleaned_data.get(spec.name))
            if value is not _MISSING:
                out[spec.name] = value
        return out


def row_form_class(spec: FieldSpec) -> type[RowForm]:
    """Return the form class of one row of a ``rows`` field spec."""
    attrs: dict[str, Any] = {"specs": tuple(s for s in spec.fields if s.type != "rows")}
    for sub in attrs["specs"]:
        attrs[sub.name] = spec_form_field(sub)
    return type(f"{spec.name.title().replace('_', '')}RowForm", (RowForm,), attrs)


class StatsForm(forms.Form):
    """A form for data described by field specs (a ship class's stats, an order, campaign options).

    ``formsets`` holds one formset per ``rows`` spec (prefix ``<prefix>-<name>``). After ``is_valid()``,
    ``stats`` is the validated JSON object; errors of ``validator`` are placed next to fields and row cells.
    """

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        specs: Sequence[FieldSpec],
        validator: Validator | None = None,
        initial_stats: Mapping[str, Any] | None = None,
        prefix: str = "stats",
        extra_rows: int = 2,
        **kwargs: Any,
    ) -> None:
        self.specs = tuple(specs)
        scalars = [s for s in self.specs if s.type != "rows"]
        initial = {s.name: _initial(s, initial_stats) for s in scalars}
        super().__init__(data, prefix=prefix, initial=initial, **kwargs)
        self.validator: Validator = validator or (lambda stats: validate_fields(self.specs, stats))
        self.stats: dict[str, JSON] | None = None
        self.formsets: dict[str, BaseFormSet] = {}
        self.row_specs: dict[str, FieldSpec] = {}
        self._row_forms: dict[str, list[forms.Form]] = {}
        for spec in self.specs:
            if spec.type == "rows":
                rows = _initial(spec, initial_stats)
                rows = [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
                formset_class = formset_factory(
                    row_form_class(spec),
                    extra=extra_rows,
                    can_delete=True,
                    max_num=int(spec.max) if spec.max is not None else 1000,
                    absolute_max=1000,
                )
                self.formsets[spec.name] = formset_class(
                    data if self.is_bound else None, initial=rows, prefix=f"{prefix}-{spec.name}"
                )
                self.row_specs[spec.name] = spec
            else:
                self.fields[spec.name] = spec_form_field(spec)

    @classmethod
    def for_ruleset(cls, ruleset: RuleSet, data: Mapping[str, Any] | None = None, **kwargs: Any) -> StatsForm:
        """Return the stats form of a ship class under ``ruleset`` (its class schema and validator)."""
        return cls(data, specs=ruleset.class_schema(), validator=ruleset.validate_class, **kwargs)

    @property
    def formset_items(self) -> list[tuple[FieldSpec, BaseFormSet]]:
        """Return (spec, formset) pairs in schema order, for templates."""
        return [(self.row_specs[name], fs) for name, fs in self.formsets.items()]

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        formsets_ok = [fs.is_valid() for fs in self.formsets.values()]  # every formset, for every error
        if self._errors or not all(formsets_ok):
            return
        stats = self._collect()
        errors = self.validator(stats)
        if errors:
            self._place(errors)
        else:
            self.stats = stats

    def is_valid(self) -> bool:
        return (
            super().is_valid()
            and all(fs.is_valid() for fs in self.formsets.values())
            and self.stats is not None
        )

    def error_count(self) -> int:
        """Return how many errors the form and its formsets hold."""
        return len(self.errors) + sum(fs.total_error_count() for fs in self.formsets.values())

    def _collect(self) -> dict[str, JSON]:
        stats: dict[str, JSON] = {}
        for spec in self.specs:
            if spec.type == "rows":
                formset = self.formsets[spec.name]
                kept: list[forms.Form] = []
                for i, form in enumerate(formset.forms):
                    if formset._should_delete_form(form):
                        continue
                    if i >= formset.initial_form_count() and not form.has_changed():
                        continue
                    kept.append(form)
                self._row_forms[spec.name] = kept
                stats[spec.name] = [f.row_value() for f in kept]  # type: ignore[attr-defined]
            else:
                value = _to_json(spec, self.cleaned_data.get(spec.name))
                if value is not _MISSING:
                    stats[spec.name] = value
        return stats

    def _place(self, errors: FieldErrors) -> None:
        """Put each validator error next to its field, row cell, formset, or on the form."""
        for key, messages in errors.items():
            name, _, rest = key.partition(".")
            if name in self.formsets:
                formset = self.formsets[name]
                index, _, sub = rest.partition(".")
                rows = self._row_forms.get(name, [])
                if index.isdigit() and int(index) < len(rows):
                    row = rows[int(index)]
                    for message in messages:
                        row.add_error(sub if sub in row.fields else None, message)
                else:
                    formset._non_form_errors.extend(messages)  # type: ignore[union-attr]
            elif name in self.fields and not rest:
                for message in messages:
                    self.add_error(name, message)
            else:
                for message in messages:
                    self.add_error(None, message if key == NON_FIELD_ERRORS else f"{key}: {message}")


# --- the admin's ship class form ---------------------------------------------------------------------------


class ShipClassForm(forms.ModelForm):
    """A ship class with its stats as real fields of its rule set (``ruleset_key`` set by
    :func:`shipclass_form`).

    The stats form is ``self.stats_form`` (prefix ``stats``); nothing is valid unless the rule set accepts the
    stats, and the model's ``clean()`` checks them once more before anything is saved.
    """

    ruleset_key: ClassVar[str] = ""

    class Meta:
        model = ShipClass
        fields = ("ruleset", "name", "key", "nation", "type", "heuristic", "source_note")
        widgets = {"ruleset": forms.HiddenInput, "source_note": forms.Textarea(attrs={"rows": 4, "cols": 80})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        key = self.ruleset_key or self.instance.ruleset
        self.ruleset = rules.get_ruleset(key)
        self.fields["ruleset"].initial = key
        self.fields["type"].help_text = "Shown in lists and filters; left blank, it is taken from the stats."
        saved = self.instance.stats if self.instance.pk or self.instance.stats else None
        self.stats_form = StatsForm.for_ruleset(
            self.ruleset, self.data if self.is_bound else None, initial_stats=saved, prefix="stats"
        )

    def clean_ruleset(self) -> str:
        value = self.cleaned_data.get("ruleset")
        if value != self.ruleset.key:
            raise ValidationError("The rule set of a class cannot change here; duplicate the class instead.")
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.stats_form.is_valid():
            assert self.stats_form.stats is not None
            self.instance.stats = self.stats_form.stats
            if not cleaned.get("type") and isinstance(self.stats_form.stats.get("type"), str):
                cleaned["type"] = self.stats_form.stats["type"]
        else:
            raise ValidationError("The stats have errors: see the fields below.", code="stats")
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        # The model's clean() reports stats errors under "stats", which this form shows through stats_form.
        # When the stats form has errors, the model checked stats it never got (a new class's {}): its
        # "type: This field is required." over a type chosen below is dropped; the fields carry the errors.
        if hasattr(errors, "error_dict") and "stats" in errors.error_dict:
            moved = dict(errors.error_dict)
            stats_errors = moved.pop("stats")
            if self.stats_form.is_valid():
                moved.setdefault(NON_FIELD_ERRORS, []).extend(stats_errors)
            errors = ValidationError(moved)
        super()._update_errors(errors)


def shipclass_form(ruleset_key: str) -> type[ShipClassForm]:
    """Return the ship class form for one rule set (raise UnknownRuleset for an unknown key)."""
    rules.get_ruleset(ruleset_key)
    return type(f"ShipClassForm_{ruleset_key}", (ShipClassForm,), {"ruleset_key": ruleset_key})


# --- other forms --------------------------------------------------------------------------------------------


class ImportForm(forms.Form):
    """Upload ship classes as JSON (a list of objects) or CSV (``stats`` column holding JSON)."""

    file = forms.FileField(help_text="A .json or .csv file exported from this site, or made by hand.")
    format = forms.ChoiceField(
        choices=[("", "From the file name"), ("json", "JSON"), ("csv", "CSV")], required=False
    )
    check_only = forms.BooleanField(required=False, label="Check only: report, import nothing")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None and not cleaned.get("format"):
            name = upload.name.lower()
            if name.endswith(".json"):
                cleaned["format"] = "json"
            elif name.endswith(".csv"):
                cleaned["format"] = "csv"
            else:
                self.add_error("format", "Choose the format: the file name ends neither in .json nor .csv.")
        return cleaned


class ClassFilterForm(forms.Form):
    """The filters of the players' class list."""

    ruleset = forms.ChoiceField(required=False, label="Rule set")
    nation = forms.ChoiceField(required=False)
    q = forms.CharField(required=False, label="Name", max_length=80)

    def __init__(self, *args: Any, nations: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [("", "All rule sets")] + [
            (rs.key, rs.title) for rs in rules.all_rulesets()
        ]
        self.fields["nation"].choices = [("", "All nations"), *nations]
