"""The order panel of one ship: a form generated from the rule set's order types, with the rules' verdict.

One fieldset per :class:`rules.model.OrderType`, one input per :class:`rules.model.FieldSpec`:

- ``int`` / ``float``: a number input (a select where the rule set has a fixed list), bounded by the ship's
  current legal range where the rule set exposes it (``RuleSet.order_hints``, through
  :mod:`battles.order_hints`; ``ww2_jackson``: the sheet's ``max_speed``), else by the field spec;
- ``str`` fields that name a ship (every ``str`` field but a course) become a select of the targets that are
  *legal now*: each candidate the ship's side can see is put in the order and the rules are asked
  (``RuleSet.validate_orders``; ``legal_targets`` where the rule set has it);
- ``choice``: a select; ``bool``: a checkbox (with a hidden ``false`` so "unchecked" and "not sent" differ);
  ``rows``: JSON in a text area.

Errors come back as the rules give them, marked *invalid* (malformed) or *illegal* (the rules forbid it), next
to their field; the preview is ``RuleSet.preview`` on the side's own view of the battle (A2: enemy sheets
reduced to what the side may see). Fields of an order type keyed ``standing`` are standing orders: when an
order is saved without them they take the ship's standing values (those the rules keep on its sheet, which
the campaign carries from battle to battle, else the field defaults).

Nothing here decides anything: the rules validate, the services save.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from django import forms
from django.utils import timezone

import rules
from battles.forms import json_loads_checked
from battles.models import BattleShip, Order, Phase, PhaseStatus
from battles.order_hints import FieldHint, hints_for, standing_from_state
from navalwar.errors import ApplicationError, ConflictError
from navalwar.numbers import PlainFloatField, PlainIntegerField
from rules.model import JSON, BattleState, FieldSpec, Hex, OrderType, Point, ShipOrder, ShipState

logger = logging.getLogger(__name__)

ErrorKind = Literal["invalid", "illegal"]
STANDING_TYPE = "standing"
NONE_LABEL = "none"
# Order types shown open (movement, gunfire, torpedoes, by the keys the rule sets use); the rest are special
# actions (damage control, lights, sails and anchor, towing, boarding, ramming, standing orders...) and fold
# away unless they hold a value or an error. The first order type is always open.
MAIN_ORDER_TYPES = ("move", "movement", "fire", "gunnery", "torpedo")
# The characters of an option a select in one column of the order fields shows whole: a 13rem column (its
# narrowest, static/css/navalwar.css) less the select's padding and arrow holds about 165 px, some 19
# characters of 16 px text. A select with a longer option spans two columns (FieldView.wide).
WIDE_OPTION_CHARS = 19


def is_reference(spec: FieldSpec) -> bool:
    """Return True for an order field that names a ship (or a battery, fort or mine): every ``str`` field but
    a course (``course`` in ``acw_river`` and ``memoir_sea`` is a string of letters)."""
    return spec.type == "str" and "course" not in spec.name


def standing_fields(order_types: Sequence[OrderType]) -> tuple[FieldSpec, ...]:
    """Return the fields of the rule set's standing-orders type (``OrderType.key == "standing"``)."""
    return tuple(f for ot in order_types if ot.key == STANDING_TYPE for f in ot.fields)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", text)


def _label(value: str) -> str:
    return value.replace("_", " ") if value else "-"


# --- the Django form -------------------------------------------------------------------------------------


class OrderForm(forms.Form):
    """Shapes only: numbers parse as numbers, text stays short. The rules judge the rest."""

    def __init__(self, *args: Any, specs: Sequence[FieldSpec], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in specs:
            self.fields[spec.name] = _form_field(spec)


class _PlainCheckboxInput(forms.CheckboxInput):
    """A checkbox whose posted text reaches its field as sent (Django's own reads any text but "false" as
    ticked: ``0`` and ``banana`` struck a ship's colours)."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name) if name in data else False

    @staticmethod
    def _ticked(value: Any) -> bool:
        """Whether the box shows ticked: True, or a text a ticked box sends (``on``, ``true``, ``1``). The
        text as sent reaches the widget too: the saved order's ``false`` must show the box clear."""
        return value is True or (isinstance(value, str) and value.strip().lower() in TICKED)

    def __init__(self, attrs: Any = None, check_test: Any = None) -> None:
        super().__init__(attrs, check_test=check_test or self._ticked)

    def format_value(self, value: Any) -> str | None:
        """No ``value`` attribute: a ticked box sends ``on``, whatever the value it was drawn with (drawn with
        ``value="false"``, ticking it sent "false" and left the order as it was)."""
        return None


TICKED = frozenset({"on", "true", "1"})
UNTICKED = frozenset({"", "off", "false", "0"})


class PlainBooleanField(forms.BooleanField):
    """A checkbox of an order: ``on`` (what a ticked box sends), ``true`` or ``1`` is ticked; nothing,
    ``false`` (the hidden input before it), ``off`` or ``0`` is not; any other text is a form error."""

    widget = _PlainCheckboxInput

    def to_python(self, value: Any) -> bool:
        if isinstance(value, str):
            text = value.strip().lower()
            if text in TICKED:
                return True
            if text in UNTICKED:
                return False
            raise forms.ValidationError(
                "Tick the box or leave it: %(value)s is neither.",
                code="invalid",
                params={"value": repr(value[:20])},
            )
        return bool(value)


def _form_field(spec: FieldSpec) -> forms.Field:
    label = spec.label + (f" ({spec.unit})" if spec.unit and spec.unit not in spec.label else "")
    common: dict[str, Any] = {"label": label, "required": False, "help_text": spec.help}
    if spec.type == "int":
        return PlainIntegerField(widget=forms.NumberInput(attrs={"step": "1"}), **common)
    if spec.type == "float":
        return PlainFloatField(widget=forms.NumberInput(attrs={"step": "any"}), **common)
    if spec.type == "bool":
        return PlainBooleanField(**common)
    if spec.type == "choice":
        return forms.ChoiceField(choices=[(c, _label(c)) for c in spec.choices], **common)
    if spec.type == "rows":
        return JSONRowsField(widget=forms.Textarea(attrs={"rows": 3}), **common)
    max_length = int(spec.max) if spec.max is not None else 200
    if is_reference(spec):
        return forms.CharField(max_length=max_length, widget=forms.Select(), **common)
    return forms.CharField(max_length=max_length, **common)


class JSONRowsField(forms.CharField):
    """A ``rows`` field: a JSON list of objects."""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            return None
        try:
            return json_loads_checked(text)
        except ValueError as exc:
            # NaN, a lone surrogate or "\u0000" (PostgreSQL refuses it: a 500 there, NW-CAMP-18) is no row
            raise forms.ValidationError(f"Enter a JSON list of rows ({exc}).") from exc

    def prepare_value(self, value: Any) -> Any:
        return json.dumps(value) if isinstance(value, (list, dict)) else value


def post_from_data(data: Mapping[str, JSON]) -> dict[str, str]:
    """Return an order payload as form data (the inverse of the form's parsing)."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, (list, dict)):
            out[key] = json.dumps(value)
        elif isinstance(value, float):
            out[key] = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
        else:
            out[key] = str(value)
    return out


# --- what the template renders ---------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class Candidate:
    """Something an order field may name: a ship the side can see, or a battery, fort or mine."""

    id: str
    name: str
    own: bool


@dataclass(slots=True, kw_only=True)
class FieldView:
    spec: FieldSpec
    bound: Any
    kind: str
    hint: FieldHint | None = None
    errors: list[tuple[ErrorKind, str]] = field(default_factory=list)
    range_text: str = ""
    datalist_id: str = ""
    suggestions: tuple[str, ...] = ()
    legal_count: int | None = None
    wide: bool = False
    """A select with an option longer than a grid column shows (:data:`WIDE_OPTION_CHARS`): the field takes
    two columns (``field--wide``), so "30 degrees to starboard" is not cut to "30 degrees to starboa"."""

    @property
    def help_id(self) -> str:
        return f"{self.bound.auto_id}-help"

    @property
    def errors_id(self) -> str:
        return f"{self.bound.auto_id}-errors"


@dataclass(slots=True, kw_only=True)
class FieldsetView:
    order_type: OrderType
    fields: list[FieldView]
    folded: bool = False

    @property
    def has_errors(self) -> bool:
        return any(f.errors for f in self.fields)


@dataclass(slots=True, kw_only=True)
class OrderPanel:
    """One ship's order form with its errors, preview and status (the ``ship_panel`` partial)."""

    phase: Phase
    bship: BattleShip
    ship: ShipState
    form: OrderForm
    fieldsets: list[FieldsetView]
    data: dict[str, JSON]
    preview: list[str]
    errors: list[tuple[ErrorKind, str]] = field(default_factory=list)
    saved: Order | None = None
    previous: Order | None = None
    bound: bool = False
    message: tuple[str, str] | None = None
    open: bool = True
    closed: bool = False
    """The ship's side's deadline has passed: its orders stand as saved (the form shows them, without the
    buttons that would be refused)."""
    folded: ClassVar[bool] = False

    @property
    def key(self) -> str:
        return self.bship.ship_key

    @property
    def dom_id(self) -> str:
        return f"ship-{_slug(self.bship.ship_key)}"

    @property
    def ok(self) -> bool:
        return not self.errors and not any(fs.has_errors for fs in self.fieldsets)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(f.errors) for fs in self.fieldsets for f in fs.fields)

    def add_error(self, error: ApplicationError) -> None:
        """Put a service's error on the panel: field messages next to their fields, the rest on top."""
        placed = False
        by_name = {f.spec.name: f for fs in self.fieldsets for f in fs.fields}
        for name, msgs in error.fields.items():
            target = by_name.get(name.split(".")[0])
            for msg in msgs:
                if target is not None:
                    target.errors.append(("illegal", msg))
                else:
                    self.errors.append(("illegal", msg))
                placed = True
        if not placed or error.code != "bad_orders":
            self.errors.insert(0, ("illegal", error.message))
        self.open = True


@dataclass(slots=True, kw_only=True)
class FoldedPanel:
    """A ship's orders folded away (the ``ship_folded`` partial): the name and whether orders are saved, and
    the URL its :class:`OrderPanel` loads from when the player opens it (``battles:order_panel``). Nothing of
    the rules is asked for it, which is what makes a big fleet's battle page cheap."""

    phase: Phase
    bship: BattleShip
    ship: ShipState
    saved: Order | None = None
    url: str = ""
    folded: ClassVar[bool] = True

    @property
    def key(self) -> str:
        return self.bship.ship_key

    @property
    def dom_id(self) -> str:
        return f"ship-{_slug(self.bship.ship_key)}"


# --- checks ----------------------------------------------------------------------------------------------


def _cache(phase: Phase) -> dict[Any, Any]:
    """Per-request memo on the phase row: its state and each side's view are read once for every panel."""
    cache: dict[Any, Any] = phase.__dict__.setdefault("_order_forms_cache", {})
    return cache


def phase_state(phase: Phase) -> BattleState:
    """Return the state the phase's orders are checked against (its ``state_before``), parsed once."""
    cache = _cache(phase)
    if "state" not in cache:
        cache["state"] = rules.from_json(BattleState, phase.state_before)
    return cache["state"]  # type: ignore[no-any-return]


def remember_state(phase: Phase, state: BattleState) -> None:
    """Let :func:`phase_state` answer ``state`` for this phase row: the caller read the same JSON already (the
    battle page: the battle's state, equal to an open phase's ``state_before``)."""
    _cache(phase).setdefault("state", state)


def side_view(phase: Phase, side: str) -> BattleState:
    """Return what ``side`` sees of the phase's state (A2), computed once per side."""
    cache = _cache(phase)
    key = ("view", side)
    if key not in cache:
        state = phase_state(phase)
        cache[key] = rules.get_ruleset(state.ruleset).view_for(state, side)
    return cache[key]  # type: ignore[no-any-return]


def check_phase_open(phase: Phase) -> None:
    """Raise the services' error for a phase that takes no orders (closed, rolled back or past its deadline
    for every side). The services check again under a lock; this answers a form that saves nothing."""
    refused = phase.orders_refused()
    if refused is not None:
        raise ConflictError(*refused)


def closed_side_ids(phase: Phase, phase_sides: Sequence[Any] | None = None) -> set[int]:
    """Return the ids of the sides of ``phase`` whose deadline (their own, else the phase's) has passed: their
    orders can no longer be saved (``services._ordering_side``). One query, none with ``phase_sides`` (the
    phase's ``PhaseSide`` rows, when the caller has read them)."""
    from battles.models import PhaseSide

    now = timezone.now()
    rows = phase_sides if phase_sides is not None else PhaseSide.objects.filter(phase=phase)
    return {ps.side_id for ps in rows if ps.deadline_passed(phase, now)}


def check_deadline(phase: Phase, side_id: int) -> None:
    """Raise ``deadline_passed`` when the side's deadline (its own, else the phase's) is past."""
    from battles.models import PhaseSide

    ps = PhaseSide.objects.filter(phase=phase, side_id=side_id).first()
    passed = (
        ps.deadline_passed(phase)
        if ps is not None
        else bool(phase.deadline and phase.deadline <= timezone.now())
    )
    if passed:
        raise ConflictError(
            "deadline_passed", "The deadline for this phase has passed: orders are no longer accepted."
        )


def orderable_ship(phase: Phase, bship: BattleShip) -> ShipState:
    """Return the ship's state for ``phase`` if it takes orders in it; raise ApplicationError otherwise."""
    state = phase_state(phase)
    ship = state.ship_map().get(bship.ship_key)
    if ship is None:
        raise ApplicationError("no_ship", "There is no such ship in this battle.", status=404)
    rs = rules.get_ruleset(state.ruleset)
    if not ship.active:
        raise ApplicationError("ship_not_orderable", f"{ship.name} is {ship.status} and takes no orders.")
    if ship.side not in rs.ordering_sides(state):
        raise ConflictError("side_not_ordering", "Your side gives no orders in this phase.")
    if ship.id not in {s.id for s in rs.orderable_ships(state, ship.side)}:
        raise ApplicationError("ship_not_orderable", f"{ship.name} takes no orders in this phase.")
    return ship


# --- building a panel ------------------------------------------------------------------------------------


def _distance(a: ShipState | Any, b: Any) -> float:
    from rules.geometry import distance, hex_distance

    pa, pb = a.position, b.position
    if isinstance(pa, Hex) and isinstance(pb, Hex):
        return float(hex_distance(pa, pb))
    if isinstance(pa, Point) and isinstance(pb, Point):
        return distance(pa, pb)
    return 0.0


def candidates_for(view: BattleState, ship: ShipState) -> list[Candidate]:
    """Return what the ship's side can see that an order may name: ships (enemies first, nearest first),
    then batteries, forts and mines with an ``id`` (``acw_river``)."""
    out = [
        Candidate(id=s.id, name=s.name, own=s.side == ship.side)
        for s in sorted(
            (s for s in view.ships if s.id != ship.id),
            key=lambda s: (s.side == ship.side, _distance(ship, s), s.name),
        )
    ]
    for t in view.terrain:
        tid = t.props.get("id")
        if isinstance(tid, str) and tid:
            name = t.props.get("name")
            out.append(Candidate(id=tid, name=str(name) if name else f"{t.kind} {tid}", own=False))
    return out


def _validate(
    rs: rules.RuleSet, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return the rules' (invalid, illegal) errors of one order, by field; a rule set that fails counts as
    an invalid order (and is logged) rather than a server error."""
    try:
        errs = rs.validate_orders(state, ship.side, [ShipOrder(ship_id=ship.id, data=dict(data))])
    except Exception:
        logger.exception("validate_orders failed for %s %s %r", state.ruleset, ship.id, data)
        return {"__all__": ["The rules could not check these orders; change them and try again."]}, {}
    return dict(errs.invalid.get(ship.id, {})), dict(errs.illegal.get(ship.id, {}))


def legal_candidates(
    rs: rules.RuleSet,
    state: BattleState,
    ship: ShipState,
    specs: Sequence[FieldSpec],
    data: Mapping[str, JSON],
    candidates: Sequence[Candidate],
) -> dict[str, list[Candidate]]:
    """Return, per reference field, the candidates the rules accept there with the rest of ``data``.

    The rest of the order (its movement first of all: fire is taken after the move in most rule sets) comes
    from ``data`` when that is a valid order, else from the rule set's "hold" default order (A7: keep course
    and speed), which is legal by contract.
    """
    refs = [s for s in specs if is_reference(s)]
    if not refs:
        return {}
    base = {k: v for k, v in data.items() if k not in {s.name for s in refs}}
    invalid, illegal = _validate(rs, state, ship, base)
    if invalid or illegal:
        try:
            default = rs.default_order(state, ship, "hold").data
        except Exception:
            logger.exception("default_order failed for %s %s", state.ruleset, ship.id)
            default = {}
        base = {k: v for k, v in default.items() if k not in {s.name for s in refs}}
    by_id = {c.id: c for c in candidates}
    out: dict[str, list[Candidate]] = {}
    helper = getattr(rs, "legal_targets", None)
    for spec in refs:
        if spec.name == "target" and callable(helper):
            try:
                ids = [t.id for t in helper(state, ship, base)]
            except Exception:
                logger.exception("legal_targets failed for %s %s", state.ruleset, ship.id)
            else:
                out[spec.name] = [by_id[i] for i in ids if i in by_id]
                continue
        legal = []
        for cand in candidates:
            inv, ill = _validate(rs, state, ship, {**base, spec.name: cand.id})
            if spec.name not in inv and spec.name not in ill and "__all__" not in inv:
                legal.append(cand)
        out[spec.name] = legal
    return out


def _is_default(spec: FieldSpec, value: Any) -> bool:
    return value in (None, "", spec.default) or (spec.type == "bool" and bool(value) == bool(spec.default))


def _empty_means_something(spec: FieldSpec) -> bool:
    """Return True for an optional number field without a default: left empty, the rules read it their own
    way (sail_1700's Distance: as far as she can), so the form starts it empty (NW-SAIL-38)."""
    return spec.type in ("int", "float") and not spec.required and spec.default is None


def initial_data(
    rs: rules.RuleSet,
    state: BattleState,
    ship: ShipState,
    saved: Order | None,
    standing: Mapping[str, JSON],
) -> dict[str, JSON]:
    """Return what an unbound form shows: the saved order, else the "hold" default (keep course and speed,
    hold fire; A7) without the numbers whose empty value means something of its own (an optional number
    field without a default: sail_1700's Distance, empty = as far as she can, NW-SAIL-38); standing orders
    fill what the order leaves out."""
    if saved is not None:
        data = dict(saved.data)
    else:
        try:
            data = dict(rs.default_order(state, ship, "hold").data)
        except Exception:
            logger.exception("default_order failed for %s %s", state.ruleset, ship.id)
            data = {}
        for spec in rs.order_fields():
            if _empty_means_something(spec):
                data.pop(spec.name, None)
            elif spec.name not in data and spec.default not in (None, ""):
                data[spec.name] = spec.default
    for key, value in standing.items():
        if saved is None or key not in data:
            data[key] = value
    return data


def standing_values(rs: rules.RuleSet, ship: ShipState, previous: Order | None) -> dict[str, JSON]:
    """Return the ship's standing orders: those the rules keep on its sheet, else the last order's, else the
    field defaults."""
    specs = standing_fields(rs.order_types)
    names = {s.name for s in specs}
    out: dict[str, JSON] = {s.name: s.default for s in specs if s.default is not None}
    if previous is not None:
        out.update({k: v for k, v in previous.data.items() if k in names})
    out.update({k: v for k, v in standing_from_state(rs.key, ship).items() if k in names})
    return out


def build_panel(
    *,
    phase: Phase,
    bship: BattleShip,
    ship: ShipState,
    saved: Order | None = None,
    previous: Order | None = None,
    post: Mapping[str, Any] | None = None,
    open_: bool = True,
) -> OrderPanel:
    """Return the order panel of one ship: unbound (the saved order, or the defaults) or bound to ``post``
    (a form post, or an order payload through :func:`post_from_data`), validated by the rules, with the
    legal targets and the preview."""
    state = phase_state(phase)
    rs = rules.get_ruleset(state.ruleset)
    specs = rs.order_fields()
    standing = standing_values(rs, ship, previous)
    prefix_id = f"o-{_slug(bship.ship_key)}-%s"
    bound = post is not None
    if post is None:
        post = post_from_data(initial_data(rs, state, ship, saved, standing))
    form = OrderForm(post, specs=specs, auto_id=prefix_id)
    form.is_valid()
    field_errors: dict[str, list[tuple[ErrorKind, str]]] = {
        name: [("invalid", str(m)) for m in msgs] for name, msgs in form.errors.items() if name != "__all__"
    }
    data: dict[str, JSON] = {}
    for spec in specs:
        name = spec.name
        if name in field_errors:
            continue
        if name not in post:
            if name in standing:
                data[name] = standing[name]
            continue
        value = form.cleaned_data.get(name)
        if spec.type == "bool":
            data[name] = bool(value)
        elif value is not None and value != "":
            data[name] = value
    view = side_view(phase, ship.side)
    candidates = candidates_for(view, ship)
    known = {c.id for c in candidates}
    for spec in specs:
        value = data.get(spec.name)
        if is_reference(spec) and isinstance(value, str) and value not in known:
            # Another side's hidden ship (or a made-up id) gets no word from the rules: nothing to learn.
            field_errors.setdefault(spec.name, []).append(("invalid", "Choose one of the listed targets."))
            data.pop(spec.name)
    invalid, illegal = _validate(rs, state, ship, data)
    panel_errors: list[tuple[ErrorKind, str]] = []
    said = set(field_errors)
    for kind, errs in (("invalid", invalid), ("illegal", illegal)):
        for name, msgs in errs.items():
            base = name.split(".")[0]
            if base in said:
                continue  # the form already said why (the value was dropped, so the rules see it missing)
            if base in form.fields:
                field_errors.setdefault(base, []).extend((kind, m) for m in msgs)  # type: ignore[misc]
            else:
                panel_errors.extend((kind, m) for m in msgs)  # type: ignore[misc]
    legal = legal_candidates(rs, state, ship, specs, data, candidates)
    # A value the rules call malformed (a forged hexes=10**24) goes no further: hints and previews walk the
    # move hex by hex, and the resolution would refuse the order anyway.
    malformed = {name.split(".")[0] for name in invalid}
    hints = hints_for(state, ship, {k: v for k, v in data.items() if k not in malformed})
    preview: list[str] = []
    try:
        if not invalid:
            view_ship = view.ship(ship.id)
            order = ShipOrder(ship_id=ship.id, data=data)
            preview = [str(line) for line in rs.preview(view, view_ship, order)]
    except Exception:
        # Some previews cannot describe an order the rules refuse (ultra_simple: a turn that is no hex
        # facing); that is no fault of the page. A preview failing on a legal order is a rules bug: log it.
        if invalid or illegal or field_errors:
            logger.info("no preview for refused orders of %s %s %r", state.ruleset, ship.id, data)
        else:
            logger.exception("preview failed for %s %s %r", state.ruleset, ship.id, data)
        preview = []
    names = {c.id: c.name for c in candidates}
    fieldsets = []
    for index, ot in enumerate(rs.order_types):
        if not rs.order_type_applies(ship, ot.key):
            continue  # (a torpedo launch for a ship with no tubes: its fields take their defaults)
        views = []
        for spec in ot.fields:
            views.append(
                _field_view(
                    form,
                    spec,
                    hints.get(spec.name),
                    field_errors.get(spec.name, []),
                    legal.get(spec.name),
                    names,
                    bship.ship_key,
                )
            )
        folded = (
            index > 0
            and ot.key not in MAIN_ORDER_TYPES
            and not any(v.errors for v in views)
            and all(_is_default(v.spec, data.get(v.spec.name)) for v in views)
        )
        fieldsets.append(FieldsetView(order_type=ot, fields=views, folded=folded))
    panel = OrderPanel(
        phase=phase,
        bship=bship,
        ship=ship,
        form=form,
        fieldsets=fieldsets,
        data=data,
        preview=preview,
        errors=panel_errors,
        saved=saved,
        previous=previous,
        bound=bound,
        open=open_ or bound,
    )
    if not panel.ok:
        panel.open = True
    return panel


def _field_view(
    form: OrderForm,
    spec: FieldSpec,
    hint: FieldHint | None,
    errors: list[tuple[ErrorKind, str]],
    legal: list[Candidate] | None,
    names: Mapping[str, str],
    ship_key: str,
) -> FieldView:
    """Decorate one bound field's widget for this ship now: bounds, options, datalist, descriptions."""
    bound = form[spec.name]
    widget = form.fields[spec.name].widget
    attrs: dict[str, Any] = {}
    kind = "text"
    range_text = ""
    suggestions: tuple[str, ...] = ()
    datalist_id = ""
    if spec.type == "bool":
        kind = "checkbox"
    elif spec.type == "rows":
        kind = "textarea"
    elif is_reference(spec):
        kind = "select"
        current = bound.value() or ""
        options = [("", NONE_LABEL)] + [(c.id, c.name) for c in legal or []]
        if current and current not in {o[0] for o in options}:
            label = names.get(current)
            options.append((current, f"{label} (not allowed now)" if label else f"{current} (unknown)"))
        widget.choices = options  # type: ignore[attr-defined]
        widget.attrs.pop("maxlength", None)
    elif hint is not None and hint.choices is not None:
        kind = "select"
        form.fields[spec.name].widget = widget = forms.Select(choices=list(hint.choices))
        bound = form[spec.name]
        current = bound.value()
        if current not in (None, "") and str(current) not in {c[0] for c in hint.choices}:
            widget.choices = [*hint.choices, (str(current), f"{current} (not allowed)")]  # type: ignore[attr-defined]
    elif spec.type == "choice":
        kind = "select"
    elif spec.type in ("int", "float"):
        kind = "number"
        lo = hint.min if hint is not None and hint.min is not None else spec.min
        hi = hint.max if hint is not None and hint.max is not None else spec.max
        if lo is not None:
            attrs["min"] = f"{lo:g}"
        if hi is not None:
            attrs["max"] = f"{hi:g}"
        unit = f" {spec.unit}" if spec.unit else ""
        now = hint is not None and (hint.min is not None or hint.max is not None)
        if lo is not None and hi is not None:
            range_text = f"{'Legal now: ' if now else 'From '}{lo:g} to {hi:g}{unit}."
        elif hi is not None:
            range_text = f"At most {hi:g}{unit}{' now' if now else ''}."
        elif lo is not None:
            range_text = f"At least {lo:g}{unit}{' now' if now else ''}."
        attrs["inputmode"] = "numeric" if spec.type == "int" else "decimal"
    else:
        if hint is not None and hint.suggestions:
            suggestions = hint.suggestions
            datalist_id = f"{bound.auto_id}-list"
            attrs["list"] = datalist_id
        if hint is not None and hint.max is not None:
            attrs["maxlength"] = str(int(hint.max) * 2 + 4)
        attrs["autocomplete"] = "off"
        attrs["spellcheck"] = "false"
    options = getattr(widget, "choices", ()) if kind == "select" else ()
    view = FieldView(
        spec=spec,
        bound=bound,
        kind=kind,
        hint=hint,
        errors=errors,
        range_text=range_text,
        suggestions=suggestions,
        datalist_id=datalist_id,
        legal_count=len(legal) if legal is not None else None,
        wide=any(len(str(label)) > WIDE_OPTION_CHARS for _, label in options),
    )
    attrs["aria-describedby"] = view.help_id
    if errors:
        attrs["aria-describedby"] = f"{view.help_id} {view.errors_id}"
        attrs["aria-invalid"] = "true"
    widget.attrs.update(attrs)
    return view


def _previous_orders(phase: Phase, bships: Sequence[BattleShip]) -> dict[int, Order]:
    """Return, per battle ship id, its order in the latest resolved phase before ``phase`` (one query; none
    in a battle's first phase)."""
    if phase.number <= 1 or not bships:
        return {}
    rows = (
        Order.objects.filter(
            battle_ship__in=list(bships),
            phase__battle_id=phase.battle_id,
            phase__superseded=False,
            phase__status=PhaseStatus.RESOLVED,
            phase__number__lt=phase.number,
        )
        .select_related("phase")
        .order_by("phase__number")
    )
    return {o.battle_ship_id: o for o in rows}


def panels_for(
    *,
    battle: Any,
    phase: Phase | None,
    viewer: Any,
    bound: Mapping[str, OrderPanel] | None = None,
    battle_ships: list[BattleShip] | None = None,
    fold_above: int | None = None,
    phase_sides: Sequence[Any] | None = None,
) -> list[OrderPanel | FoldedPanel]:
    """Return the order panels of every ship the viewer may order in ``phase`` (open phases only), with
    ``bound`` panels (a form just posted) in place of their ship's.

    With ``fold_above``, a viewer with more ships than that gets a :class:`FoldedPanel` for each (but the
    ``bound`` ones): the battle page loads a ship's form when it is opened. Without it every panel is built
    (and those of more than three ships are rendered closed)."""
    from battles import selectors

    if phase is None or phase.status != PhaseStatus.OPEN or phase.superseded:
        return []
    state = phase_state(phase)
    rs = rules.get_ruleset(state.ruleset)
    allowed = selectors.order_ships_for(battle=battle, viewer=viewer, battle_ships=battle_ships)
    sides = rs.ordering_sides(state)
    ships = [(allowed[s.id], s) for side in sides for s in rs.orderable_ships(state, side) if s.id in allowed]
    saved = {o.battle_ship.ship_key: o for o in selectors.orders_for_viewer(phase=phase, viewer=viewer)}
    fold = fold_above is not None and len(ships) > fold_above
    previous = {} if fold else _previous_orders(phase, [b for b, _ in ships])
    panels: list[OrderPanel | FoldedPanel] = []
    open_all = len(ships) <= 3
    closed = closed_side_ids(phase, phase_sides)
    side_ids = {b.pk: b.campaign_ship.side_id for b, _ in ships} if closed else {}
    for bship, ship in ships:
        if bound and bship.ship_key in bound:
            panels.append(bound[bship.ship_key])
            continue
        if fold:
            panels.append(FoldedPanel(phase=phase, bship=bship, ship=ship, saved=saved.get(bship.ship_key)))
            continue
        panel = build_panel(
            phase=phase,
            bship=bship,
            ship=ship,
            saved=saved.get(bship.ship_key),
            previous=previous.get(bship.pk),
            open_=open_all,
        )
        panel.closed = side_ids.get(bship.pk) in closed
        panels.append(panel)
    return panels


def panel_for(
    *, phase: Phase, viewer: Any, bship: BattleShip, post: Mapping[str, Any] | None = None
) -> OrderPanel:
    """Return one ship's panel (bound to ``post`` when given). Raise ApplicationError for a ship that takes
    no orders in the phase."""
    from battles import selectors

    ship = orderable_ship(phase, bship)
    saved = selectors.order_get(phase=phase, viewer=viewer, ship_key=bship.ship_key)
    previous = selectors.order_previous(phase=phase, battle_ship=bship)
    panel = build_panel(phase=phase, bship=bship, ship=ship, saved=saved, previous=previous, post=post)
    panel.closed = bship.campaign_ship.side_id in closed_side_ids(phase)
    return panel
