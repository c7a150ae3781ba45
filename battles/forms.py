"""Forms of the battles pages. Validation of shapes only: the rules and the services decide the rest."""

from __future__ import annotations

import json
import math
import re
import zoneinfo
from collections.abc import Sequence
from datetime import timedelta
from functools import cache
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.html import escape

import rules
from battles.display import key_label, speed_unit
from battles.models import CAMPAIGN_DESCRIPTION_MAX, SIDES_MAX, Role, ShipStatus, Side, side_colour
from battles.sheet_edits import REASON_MAX, kind, shown
from fleets.models import ShipClass
from navalwar.errors import ApplicationError, add_to_form
from navalwar.numbers import PlainFloatField, PlainIntegerField
from navalwar.text import check_json_text, name_problem, validate_name, validate_prose
from rules.base import DEFAULT_POLICIES
from rules.engine import SHEET_NUMBER_MAX
from rules.model import JSON, BattleState, Conditions, FieldSpec, Hex


@cache
def _time_zones() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class ProfileForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label="E-mail",
        help_text="For turn e-mails and for resetting a forgotten password. Leave it empty for none.",
    )
    time_zone = forms.ChoiceField(choices=_time_zones, help_text="Deadlines are shown in this time zone.")
    email_notifications = forms.BooleanField(
        required=False,
        label="E-mail me when a phase opens or resolves, and before a deadline",
    )


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    email = forms.EmailField(required=False, label="E-mail (for turn notifications)")
    password = forms.CharField(
        widget=forms.PasswordInput, label="Password", help_text="At least 12 characters."
    )
    password_again = forms.CharField(widget=forms.PasswordInput, label="Password again")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices, initial=Role.PLAYER)
    side = forms.ModelChoiceField(queryset=Side.objects.none(), required=False)
    days = PlainIntegerField(min_value=1, max_value=60, initial=7, label="Valid for (days)")

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].queryset = Side.objects.filter(campaign=campaign)  # type: ignore[attr-defined]


class CampaignShipAddForm(forms.Form):
    """The umpire's "add a ship": a named ship of one of the rule set's classes joins a side
    (``services.campaign_ship_commission``)."""

    side = forms.ModelChoiceField(queryset=Side.objects.none())
    ship_class = forms.ModelChoiceField(queryset=ShipClass.objects.none(), label="Class")
    name = forms.CharField(
        max_length=120, help_text="The ship's name, e.g. HMS Hood.", validators=[validate_name]
    )
    pennant = forms.CharField(max_length=20, required=False, help_text="Optional pennant number.")

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].queryset = Side.objects.filter(campaign=campaign)  # type: ignore[attr-defined]
        classes = ShipClass.objects.filter(ruleset=campaign.ruleset).select_related("nation").order_by("name")
        self.fields["ship_class"].queryset = classes  # type: ignore[attr-defined]
        self.fields["ship_class"].label_from_instance = _class_label  # type: ignore[attr-defined]


def _class_label(ship_class: ShipClass) -> str:
    """A class in the add-a-ship list: its name and nation (the rule set is the campaign's)."""
    return f"{ship_class.name} ({ship_class.nation})" if ship_class.nation else ship_class.name


SETUP_FIRST_LABEL = "Open the set-up editor before starting"
SETUP_FIRST_HELP = (
    "The battle is created in set-up: move the ships, paint the terrain and set the conditions on the map, "
    "then start it there. Unticked, it starts at once and phase 1 opens (NW-CAMP-21)."
)
"""The creation forms' choice to create a battle in set-up (the scenario form and the battle form)."""


class ScenarioBattleForm(forms.Form):
    """The umpire's "battle from a scenario": only the bundled scenarios of the campaign's rule set whose
    sides the campaign has (by key) are offered; the others are named under the field with the sides they
    lack (``services.scenario_missing_sides``), and posting one of them is a form error giving that reason."""

    scenario = forms.ChoiceField(choices=())
    name = forms.CharField(
        max_length=120,
        required=False,
        help_text="Defaults to the scenario's name.",
        validators=[validate_name],
    )
    setup_first = forms.BooleanField(
        required=False, label=SETUP_FIRST_LABEL, help_text=escape(SETUP_FIRST_HELP)
    )

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from battles.services import scenario_missing_sides
        from rules.scenario import bundled_scenarios

        keys = [s.key for s in Side.objects.filter(campaign=campaign)]
        offered: list[tuple[str, str]] = []
        self.unavailable: dict[str, str] = {}
        for key, sc in bundled_scenarios(campaign.ruleset).items():
            missing = scenario_missing_sides(sc, keys)
            if missing:
                self.unavailable[key] = f"{sc.name}: the campaign has no side {' or '.join(missing)}."
            else:
                offered.append((key, sc.name))
        field = self.fields["scenario"]
        field.choices = offered  # type: ignore[attr-defined]
        notes = []
        if not offered:
            notes.append("No bundled scenario of this rule set fits the campaign's sides.")
        if self.unavailable:
            notes.append("Not offered: " + " ".join(self.unavailable.values()))
        field.help_text = escape(" ".join(notes))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        reason = self.unavailable.get(str(self.data.get("scenario", "")))
        if reason and "scenario" in self.errors:  # a known scenario, not offered: say why
            self.errors["scenario"] = self.error_class([f"Not available for this campaign. {reason}"])
        return data


# A7's default orders in the umpire's words (rules.base.DEFAULT_POLICIES gives only the keys; its docstring
# and /work/shared/rulings-product.md A7 the meanings). A policy missing here is shown as its key titled.
DEFAULT_ORDERS_LABELS = {
    "hold": "Keep course and speed, hold fire",
    "fire_nearest": "Keep course and speed, fire at the nearest enemy in range",
    "captain": "Automatic captain (closes, turns the broadside, fires, breaks off)",
}


def default_orders_label(policy: str) -> str:
    """Return the label of an A7 default-orders policy key: ``"hold"`` -> ``"Keep course and speed, hold
    fire"``; an unknown key titled (``"ram_nearest"`` -> ``"Ram nearest"``)."""
    return DEFAULT_ORDERS_LABELS.get(policy) or policy.replace("_", " ").capitalize()


def default_orders_choices() -> list[tuple[str, str]]:
    """Return the (key, label) choices of A7's default orders, in ``rules.base.DEFAULT_POLICIES`` order."""
    return [(p, default_orders_label(p)) for p in DEFAULT_POLICIES]


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120, validators=[validate_name])
    ruleset = forms.ChoiceField(choices=(), label="Rule set")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=CAMPAIGN_DESCRIPTION_MAX,
        validators=[validate_prose],
    )
    default_orders = forms.ChoiceField(
        choices=default_orders_choices,
        initial="fire_nearest",
        # radio buttons, not a select: the labels are sentences a narrow form's select cut off mid-word
        widget=forms.RadioSelect,
        help_text="A7: what a ship with no orders does at the deadline.",
    )
    deadline_hours = PlainIntegerField(
        min_value=1, max_value=720, initial=48, label="Hours to give orders in each phase"
    )
    sides = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "One side a line: key, name, colour (e.g. britain, Royal Navy, #1f4e9c). The key is written in "
            "lower case with _ for spaces (Royal Navy -&gt; royal_navy); a scenario's sides are matched by "
            "key. Without a colour a side gets one of its own from a fixed palette."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(rs.key, rs.title) for rs in rules.all_rulesets()]  # type: ignore[attr-defined]
        # "'Royal Navy' is saved under the key royal_navy." for each key written otherwise than typed
        self.key_notes: list[str] = []

    def clean_sides(self) -> list[dict[str, str]]:
        out = []
        notes = []
        lines = [line for line in self.cleaned_data["sides"].splitlines() if line.strip()]
        for line in lines:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) > 3:
                raise forms.ValidationError(
                    f"{line.strip()!r} has {len(parts)} fields; a side has at most 3: key, name, colour "
                    "(a name may not hold a comma)."
                )
            key = parts[0].lower().replace(" ", "_")
            if not key.replace("_", "").replace("-", "").isalnum():
                raise forms.ValidationError(f"{parts[0]!r} is not a usable key (letters, digits, _ and -).")
            if key != parts[0]:
                notes.append(f"{parts[0]!r} is saved under the key {key}.")
            name = parts[1] if len(parts) > 1 and parts[1] else key.title()
            colour = parts[2] if len(parts) > 2 and parts[2] else ""
            # What the database refuses (Side: key 40, name 80, colour 7 characters; one key per campaign)
            # is said here, not a 500.
            if len(key) > 40 or len(name) > 80:
                raise forms.ValidationError(
                    f"{parts[0]!r}: a side key has at most 40 characters and a name at most 80."
                )
            problem = name_problem(name)  # a direction control (NW-CAMP-24)
            if problem:
                raise forms.ValidationError(f"Side {key}: {problem}.")
            if colour:
                normal = side_colour(colour)
                if normal is None:
                    raise forms.ValidationError(f"{colour!r}: enter a CSS colour like #1f4e9c.")
                twin = next((side for side in out if side["colour"] == normal), None)
                if twin is not None:  # NW-CAMP-35: the map tells the sides apart by colour
                    raise forms.ValidationError(
                        f"Sides {twin['key']} and {key} have the same colour ({normal}): give each side its "
                        "own, or leave one out to be given a free one."
                    )
                colour = normal
            if any(side["key"] == key for side in out):
                raise forms.ValidationError(f"The side key {key!r} is used twice.")
            out.append({"key": key, "name": name, "colour": colour})
        if len(out) < 2:
            raise forms.ValidationError("A campaign needs at least two sides.")
        if len(out) > SIDES_MAX:
            raise forms.ValidationError(
                f"A campaign has at most {SIDES_MAX} sides (this has {len(out)}): each side needs a colour "
                "of its own on the map."
            )
        self.key_notes = notes
        return out


class ExtendDeadlineForm(forms.Form):
    deadline = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    side = forms.ModelChoiceField(queryset=Side.objects.none(), required=False, empty_label="All sides")

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["side"].queryset = Side.objects.filter(campaign=campaign)  # type: ignore[attr-defined]

    def clean_deadline(self) -> Any:
        # A deadline in the year 9999 cannot be shown in a time zone east of UTC (year 10000): a 500 on
        # every page that shows it. A year is more than any campaign waits.
        deadline = self.cleaned_data["deadline"]
        if deadline > timezone.now() + timedelta(days=366):
            raise forms.ValidationError("Give a deadline at most a year ahead.")
        return deadline


def json_loads_checked(text: str) -> Any:
    """Return the value of JSON ``text`` typed into a form; raise ValueError (with the reason) for text that
    is not JSON, for ``NaN``, ``Infinity`` and numbers too large for a float (1e400): no JSON column can
    store them, and a save failed with a 500; for nesting deeper than Python's recursion limit; for a
    string holding a lone surrogate escape (``"\\ud800"``): it was saved, and every page showing it then
    failed with a 500 (no UTF-8 page can hold it); and for ``"\\u0000"``, which PostgreSQL's jsonb refuses
    (a 500 there; navalwar.text, docs/rulings.md NW-CAMP-18)."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON can store")

    def number(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise ValueError(f"{literal} is too large a number")
        return value

    try:
        value = json.loads(text, parse_constant=constant, parse_float=number)
        json.dumps(value)  # what the save does
    except RecursionError as exc:
        raise ValueError("the JSON is nested too deeply") from exc
    check_json_text(value)
    return value


MOONS: tuple[str, ...] = ("none", "dim", "bright")
"""The moon choices: those of ``rules.model.Conditions.moon`` (A6: night with no moon, dim or bright)."""


class ConditionsForm(forms.Form):
    """A battle's conditions as the umpire gives them: night and moon (A6), the wind's direction (degrees
    clockwise from north, where the rule set uses wind), its force and the weather (sail_1700's from its
    weather chart, as choices: docs/rulings.md NW-SAIL-35). One form for the battle form (``battle_new``,
    no prefix) and the set-up editor's Conditions tool (docs/rulings.md NW-CAMP-20).

    Shapes and the rule set's choices only (:meth:`rules.base.RuleSet.condition_errors`); a wind from 720
    degrees or a weather of 5,000 characters is ``rules.check_state``'s to refuse, in the service
    (NW-CAMP-08). Valid, :attr:`conditions` holds the ``Conditions`` given (visibility and the rule set's
    ``extra`` are not the umpire's: the set-up works them out).
    """

    night = forms.BooleanField(required=False, label="Night")
    # text, not a choice: an unknown moon ("full") is named in the message
    moon = forms.CharField(
        required=False,
        strip=False,
        label="Moon (at night)",
        widget=forms.Select(choices=[(m, m) for m in MOONS]),
    )
    weather = forms.CharField(required=False, strip=False, label="Weather")
    wind_from = PlainFloatField(
        required=False,
        label="Wind from (degrees, where the rule set uses wind)",
        widget=forms.NumberInput(attrs={"step": "any"}),
    )
    wind_force = forms.CharField(required=False, strip=False, label="Wind force")

    def __init__(self, *args: Any, ruleset: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = rules.get_ruleset(ruleset)
        self.conditions: Conditions | None = None
        choices = self.ruleset.condition_choices
        for name in ("weather", "wind_force"):
            if choices.get(name):
                self.fields[name].widget = forms.Select(
                    choices=[("", "rolled at set-up"), *((v, label) for v, label in choices[name])]
                )
        if choices.get("weather"):
            self.fields["weather"].help_text = (
                "The weather chart's conditions and wind forces; give both or neither (then both are "
                "rolled). Not every pair is on the chart (a clear sky has no gale)."
            )

    def clean_moon(self) -> str:
        moon = self.cleaned_data.get("moon") or "none"
        if moon not in MOONS:  # "full" became "none" without a word
            raise forms.ValidationError(f"The moon is one of: {', '.join(MOONS)} (given: {moon[:20]!r}).")
        return moon

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        self.conditions = Conditions(
            night=bool(data.get("night")),
            moon=data["moon"],
            wind_from=data.get("wind_from"),
            wind_force=data.get("wind_force") or None,
            weather=data.get("weather") or None,
        )
        # a wind force or weather the rules read is one of the chart's: an unknown one ("Gale", a typo)
        # was rolled afresh at set-up without a word (docs/rulings.md NW-SAIL-35)
        for problem in self.ruleset.condition_errors(self.conditions):
            self.add_error(None, f"Wind and weather: {problem}.")
        if self.errors:
            self.conditions = None
        return data


class RepairForm(forms.Form):
    status = forms.ChoiceField(choices=(), required=False)
    sheet = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=(
            "The record sheet as JSON: what she carries to her next battle (her damage, losses and crew). "
            "Her last battle's own state and the values each battle works out from an option are not shown; "
            "they stay as they are (NW-CAMP-05)."
        ),
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=REASON_MAX, validators=[validate_prose]
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from battles.models import ShipStatus

        super().__init__(*args, **kwargs)
        self.fields["status"].choices = ShipStatus.choices  # type: ignore[attr-defined]

    def clean_sheet(self) -> dict[str, Any]:
        try:
            value = json_loads_checked(self.cleaned_data["sheet"])
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise forms.ValidationError("The sheet must be a JSON object.")
        return value


class CampaignSettingsForm(forms.Form):
    """The campaign's settings: A7's default orders, deadlines, reminders and the rule set's own options."""

    default_orders = forms.ChoiceField(
        choices=default_orders_choices,
        widget=forms.RadioSelect,  # (as on CampaignForm: whole sentences)
        help_text="A7: what a ship with no orders does at the deadline.",
    )
    deadline_hours = PlainIntegerField(min_value=1, max_value=720, label="Hours to give orders in each phase")
    reminder_hours = PlainIntegerField(
        min_value=0, max_value=240, label="Remind sides not ready this many hours before (0 = never)"
    )

    def __init__(self, *args: Any, ruleset: str, sides: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rs = rules.get_ruleset(ruleset)
        self.option_specs = rs.options
        for spec in self.option_specs:
            self.fields[spec.name] = field = _field_for(spec)
            if spec.name in rs.option_side_lists and sides:
                # side keys are typed, and no other page shows them (a fresh-user check typed "Royal Navy")
                # (escaped: Django shows a help text as it is, and a side's name is the umpire's text)
                keys = escape(", ".join(f"{s.key} ({s.name})" for s in sides))
                field.help_text = f"{field.help_text} The side keys of this campaign: {keys}.".strip()


def _field_for(spec: FieldSpec) -> forms.Field:
    label = spec.label + (f" ({spec.unit})" if spec.unit else "")
    common: dict[str, Any] = {"label": label, "required": False, "help_text": spec.help}
    if spec.type == "bool":
        return forms.BooleanField(**common)
    if spec.type == "choice":
        return forms.ChoiceField(choices=[(c, c) for c in spec.choices], **common)
    if spec.type == "int":
        return PlainIntegerField(min_value=spec.min, max_value=spec.max, **common)
    if spec.type == "float":
        return PlainFloatField(min_value=spec.min, max_value=spec.max, **common)
    return forms.CharField(**common)


# --- the umpire's ship edit (templates/battles/ship.html, services.battle_ship_edit) ----------------------

_SHEET_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*")
"""A sheet key that makes a plain field name (``sheet_guns_lost``); other keys are named by their place."""


def sheet_field_name(key: str, index: int) -> str:
    """Return the name of the ship edit's field for the sheet entry ``key``, the ``index``-th in key order:
    ``sheet_<key>`` (``sheet_damage``), or ``sheet__<index>`` for a key that is no plain word (a space, a
    dot...); no key makes the second, as a key starts with a letter or digit."""
    return f"sheet_{key}" if _SHEET_KEY.fullmatch(key) else f"sheet__{index}"


def _flat_numbers(value: JSON) -> bool:
    """Return True for a sheet object, not empty, of numbers and yes/no entries only (edited a field each)."""
    return (
        isinstance(value, dict)
        and bool(value)
        and len(value) <= 40
        and all(isinstance(v, (int, float)) for v in value.values())
    )


def _number_text(value: float) -> str:
    """Return a number as the form shows it: ``120`` for ``120.0``, ``0.25``; never an exponent, which
    the number fields refuse (navalwar.numbers)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = repr(value)
    return text if "e" not in text else f"{value:.12f}".rstrip("0").rstrip(".")


def _same(new: Any, current: Any) -> bool:
    """Return True when a value typed is the ship's ``current`` one: equal and of the same kind (``True`` is
    not ``1``); lists and objects compared as JSON, their keys sorted."""
    if isinstance(new, (dict, list)) or isinstance(current, (dict, list)):
        return json.dumps(new, sort_keys=True) == json.dumps(current, sort_keys=True)
    return kind(new) == kind(current) and new == current


class SheetJSONField(forms.CharField):
    """A sheet entry that holds a list, an object or null, typed as JSON: parsed as
    :func:`json_loads_checked` does, and of the entry's kind (an entry that is null takes any value; left
    empty, it stays null)."""

    def __init__(self, *, current: JSON, **kwargs: Any) -> None:
        self.current = current
        rows = 2 if len(str(kwargs.get("initial") or "")) <= 60 else 4
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": rows, "spellcheck": "false"}))
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            if self.current is None:
                return None
            raise forms.ValidationError(f"Enter {kind(self.current)} as JSON, such as {shown(self.current)}.")
        try:
            parsed = json_loads_checked(text)
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}.") from exc
        if self.current is not None and kind(parsed) != kind(self.current):
            raise forms.ValidationError(f"Must be {kind(self.current)}, not {shown(parsed)}.")
        return parsed


class ShipEditForm(forms.Form):
    """The umpire's edit of a ship in an active battle (``services.battle_ship_edit``), built from the ship
    as she stands: her status (the statuses a ship may have, ``battles.models.ShipStatus``), heading
    (degrees clockwise from north; a hex facing on a hex map), speed (the rule set's unit:
    :func:`battles.display.speed_unit`), position (q, r on a hex map; x, y in inches or millimetres on a
    table: the state's map geometry says which) and flags (text, separated by commas), then one field per
    entry of her record sheet, in key order, labelled as the sheet shows it
    (:func:`battles.display.key_label`) and filled with her value: a number field for a number (0 to
    1,000,000: NW-CAMP-04), a checkbox for true or false, a text field for text, and a small JSON box for a
    list, an object or null. And the reason, for the log.

    Every field carries the value it was shown with (``show_hidden_initial``), so :meth:`changes` holds only
    the values the umpire changed, and only those that differ from hers now: a phase resolved while the form
    was open keeps what it did to the fields left alone. Shapes only; the service and ``rules.check_state``
    judge the rest (a hex facing, on the map, two ships in one hex).
    """

    status = forms.ChoiceField(choices=ShipStatus.choices, label="Status", show_hidden_initial=True)
    heading = PlainFloatField(
        min_value=0, max_value=360, label="Heading (degrees from north)", show_hidden_initial=True
    )
    speed = PlainFloatField(min_value=0, max_value=SHEET_NUMBER_MAX, show_hidden_initial=True)
    flags = forms.CharField(
        required=False,
        label="Flags",
        help_text="What every side sees of her (such as on_fire, aground), separated by commas; empty: none.",
        show_hidden_initial=True,
    )
    reason = forms.CharField(
        label=f"Reason (logged, up to {REASON_MAX} characters)",
        widget=forms.TextInput(attrs={"maxlength": REASON_MAX}),
        error_messages={"required": "Give a reason for the edit."},
        validators=[validate_prose],
    )
    # the reason's length is the service's to check (its message says how long it is)

    def __init__(self, data: Any = None, *, state: BattleState, ship_key: str, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        ship = self.ship = state.ship(ship_key)
        geometry = state.map.geometry
        self.hexes = geometry.startswith("hex")
        fields = self.fields
        fields["status"].initial = ship.status
        fields["heading"].initial = _number_text(ship.heading)
        if self.hexes:
            fields["heading"].widget.attrs["step"] = 60 if geometry == "hex6" else 30
        fields["speed"].initial = _number_text(ship.speed)
        fields["speed"].label = f"Speed ({speed_unit(rules.get_ruleset(state.ruleset))})"
        fields["flags"].initial = ", ".join(ship.flags)
        self.position_names: tuple[str, str] = ("q", "r") if self.hexes else ("x", "y")
        pos = ship.position
        if isinstance(pos, Hex):
            here: tuple[float, float] = (pos.q, pos.r)
        else:
            here = (pos.x, pos.y)
        unit = "mm" if geometry == "table_mm" else "inches"
        labels = ("Hex q", "Hex r") if self.hexes else (f"x (east, {unit})", f"y (south, {unit})")
        for name, label, value in zip(self.position_names, labels, here, strict=True):
            field_class = PlainIntegerField if self.hexes else PlainFloatField
            fields[name] = field_class(label=label, initial=_number_text(value), show_hidden_initial=True)
        self.sheet_names: dict[str, str] = {}  # sheet key -> field name
        # an object of numbers and yes/no entries (ww2_jackson's damage boxes marked, sail_1700's guns a
        # side): a field per entry, not a JSON box; sheet key -> {entry -> field name}
        self.part_names: dict[str, dict[str, str]] = {}
        for index, key in enumerate(sorted(ship.sheet)):
            name = sheet_field_name(key, index)
            value = ship.sheet[key]
            if _flat_numbers(value):
                assert isinstance(value, dict)
                parts = self.part_names[key] = {}
                for j, sub in enumerate(value):
                    part = f"{name}__{j}"
                    parts[sub] = part
                    fields[part] = self._sheet_field(sub, value[sub])  # (its fieldset names the object)
                continue
            self.sheet_names[key] = name
            fields[name] = self._sheet_field(key, value)
        self.order_fields(
            [
                "status",
                "heading",
                "speed",
                *self.position_names,
                "flags",
                *self.sheet_names.values(),
                *(n for parts in self.part_names.values() for n in parts.values()),
            ]
        )

    @staticmethod
    def _sheet_field(key: str, value: JSON) -> forms.Field:
        common: dict[str, Any] = {"label": key_label(key), "show_hidden_initial": True}
        if isinstance(value, bool):
            return forms.BooleanField(required=False, initial=value, **common)
        if isinstance(value, int):
            return PlainIntegerField(min_value=0, max_value=SHEET_NUMBER_MAX, initial=value, **common)
        if isinstance(value, float):
            return PlainFloatField(
                min_value=0, max_value=SHEET_NUMBER_MAX, initial=_number_text(value), **common
            )
        if isinstance(value, str):
            return forms.CharField(required=False, strip=False, initial=value, **common)
        text = "" if value is None else json.dumps(value, ensure_ascii=False)
        help_text = "JSON; empty for none." if value is None else f"JSON: {kind(value)}."
        return SheetJSONField(current=value, initial=text, help_text=help_text, **common)

    def clean_flags(self) -> list[str]:
        return [f.strip() for f in self.cleaned_data["flags"].split(",") if f.strip()]

    # the groups the page lays out (BoundFields, in order)
    @property
    def ship_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in ("status", "heading", "speed", *self.position_names, "flags")]

    def _sheet_group(self, test: Any) -> list[forms.BoundField]:
        return [self[n] for k, n in self.sheet_names.items() if test(self.ship.sheet[k])]

    @property
    def sheet_values(self) -> list[forms.BoundField]:
        """The sheet's numbers and texts."""
        return self._sheet_group(lambda v: isinstance(v, (int, float, str)) and not isinstance(v, bool))

    @property
    def sheet_checks(self) -> list[forms.BoundField]:
        """The sheet's yes/no entries."""
        return self._sheet_group(lambda v: isinstance(v, bool))

    @property
    def sheet_json(self) -> list[forms.BoundField]:
        """The sheet's lists, objects and null entries, typed as JSON."""
        return self._sheet_group(lambda v: v is None or isinstance(v, (list, dict)))

    @property
    def sheet_parts(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The sheet's objects of numbers and yes/no entries: (label, a field per entry), in key order."""
        return [(key_label(k), [self[n] for n in parts.values()]) for k, parts in self.part_names.items()]

    def changes(self) -> dict[str, Any]:
        """Return the edit for ``services.battle_ship_edit(changes=...)``: each value the umpire changed from
        the one the form showed that differs from the ship's now (``{}`` if none: the service refuses it as
        nothing to change). ``position`` is both coordinates, ``sheet`` the entries changed. Call it on a
        valid form."""
        data, ship = self.cleaned_data, self.ship
        changed = set(self.changed_data)
        out: dict[str, Any] = {}
        for name, current in (
            ("status", ship.status),
            ("heading", ship.heading),
            ("speed", ship.speed),
            ("flags", list(ship.flags)),
        ):
            if name in changed and not _same(data[name], current):
                out[name] = data[name]
        a, b = self.position_names
        pos = ship.position
        here = [pos.q, pos.r] if isinstance(pos, Hex) else [pos.x, pos.y]
        if changed & {a, b} and not _same([data[a], data[b]], here):
            out["position"] = {a: data[a], b: data[b]}
        sheet = {
            key: data[name]
            for key, name in self.sheet_names.items()
            if name in changed and not _same(data[name], ship.sheet[key])
        }
        for key, parts in self.part_names.items():
            current = ship.sheet[key]
            assert isinstance(current, dict)
            edited = {
                sub: data[name]
                for sub, name in parts.items()
                if name in changed and not _same(data[name], current[sub])
            }
            if edited:
                sheet[key] = {**current, **edited}  # (the service merges the sheet's top level only)
        if sheet:
            out["sheet"] = sheet
        return out

    def add_refusal(self, error: ApplicationError, changes: dict[str, Any]) -> None:
        """Add the service's refusal of ``changes`` to the form: at its fields when it names fields the form
        has (the reason); at the field changed when the edit changed one value and its shape or the rules
        refused it (``bad_edit``, ``bad_status``: a heading between hex facings, a hex off the map, a
        position another ship holds); else above the form (nothing to change, a phase resolving...)."""
        if any(name in self.fields for name in error.fields):
            add_to_form(self, error)
            return
        names: list[str] = []
        for key, value in changes.items():
            if key == "sheet":
                for k in value:
                    # an object edited a field an entry: its first entry changed
                    names.append(
                        self.sheet_names[k]
                        if k in self.sheet_names
                        else next(
                            n
                            for sub, n in self.part_names[k].items()
                            if not _same(value[k].get(sub), self.ship.sheet[k].get(sub))  # type: ignore[index]
                        )
                    )
            else:
                names.append(self.position_names[0] if key == "position" else key)
        one = names[0] if len(names) == 1 and error.code in ("bad_edit", "bad_status") else None
        self.add_error(one, error.message)
