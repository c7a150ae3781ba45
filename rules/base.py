"""The rule-set interface every rule set implements, and what they share.

A rule set is a :class:`RuleSet` subclass registered in :mod:`rules.registry`. The engine calls:

- :meth:`RuleSet.setup` to turn a scenario into the opening :class:`~rules.model.BattleState`;
- :meth:`RuleSet.phase_plan` for the phases of a turn and the sides that order in each (A1);
- :meth:`RuleSet.validate_orders` for submission-time errors, *invalid* vs *illegal*;
- :meth:`RuleSet.default_order` for ships whose player gave none (A7);
- :meth:`RuleSet.resolve_phase` to adjudicate one phase (pure: state, orders and dice in, result out);
- :meth:`RuleSet.view_for` / :meth:`RuleSet.visible_ship_ids` for fog of war (A2);
- :meth:`RuleSet.tables` for every chart, exactly as the engine uses it.

The web side also asks, for the map and the order panel (never for adjudication):

- :meth:`RuleSet.arcs` for a ship's arcs of fire and gun ranges (:class:`~rules.arcs.ArcSpec`; A5 default);
- :meth:`RuleSet.order_hints` for what one ship may be ordered now (:class:`~rules.hints.FieldHint`);
- :meth:`RuleSet.standing_orders` for the standing orders the rules keep on a ship's sheet.
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import ClassVar, Literal

from . import memo
from .arcs import ArcSpec, default_arcs
from .dice import Dice, DieKind
from .hints import FieldHint
from .model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    FieldErrors,
    FieldSpec,
    Geometry,
    OrderErrors,
    OrderType,
    PhaseResult,
    PhaseSpec,
    ShipOrder,
    ShipState,
    _ship_index,
)

DefaultPolicy = Literal["hold", "fire_nearest", "captain"]
"""A7: keep course and speed and hold fire; ... and fire at the nearest enemy; the automatic captain."""

DEFAULT_POLICIES: tuple[DefaultPolicy, ...] = ("hold", "fire_nearest", "captain")


def validate_fields(specs: Sequence[FieldSpec], data: Mapping[str, JSON], prefix: str = "") -> FieldErrors:
    """Check ``data`` against field specs: presence, type, bounds, choices, inline rows.

    Return errors keyed by field name (``rows`` fields report ``name.<i>.<sub>``). Unknown keys are
    reported under ``__all__``.
    """
    # Written for speed (every order of a phase is checked while it is resolved): most data is valid, and
    # _plainly_valid says so for a tuple of specs without building anything; else no closure, the common
    # field types first; the errors and their order are those of the plain checks, field by field.
    if _plainly_valid(specs, data):
        return {}
    errors: FieldErrors = {}
    known = _field_names(specs)
    if not known.issuperset(data):
        _add(errors, prefix + "__all__", f"unknown fields: {', '.join(sorted(set(data) - known))}")
    get = data.get
    for spec in specs:
        name = spec.name
        value = get(name)
        if value is None or value == "":
            if spec.required:
                _add(errors, prefix + name, "This field is required.")
            continue
        kind = spec.type
        if kind == "str" or kind == "choice":
            if not isinstance(value, str):
                _add(errors, prefix + name, "Enter text.")
                continue
            if kind == "choice" and value not in spec.choices:
                _add(errors, prefix + name, f"Select a valid choice: {', '.join(spec.choices)}.")
            if spec.max is not None and len(value) > spec.max:
                _add(errors, prefix + name, f"At most {int(spec.max)} characters.")
            continue
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                else:
                    _add(errors, prefix + name, "Enter a whole number.")
                    continue
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
                _add(errors, prefix + name, "Enter a number.")
                continue
        elif kind == "bool":
            if not isinstance(value, bool):
                _add(errors, prefix + name, "Enter true or false.")
            continue
        elif kind == "rows":
            if not isinstance(value, list):
                _add(errors, prefix + name, "Enter a list of rows.")
                continue
            if spec.min is not None and len(value) < spec.min:
                _add(errors, prefix + name, f"At least {int(spec.min)} row(s).")
            if spec.max is not None and len(value) > spec.max:
                _add(errors, prefix + name, f"At most {int(spec.max)} rows.")
            for i, row in enumerate(value):
                if not isinstance(row, dict):
                    _add(errors, f"{prefix}{name}.{i}", "Each row must be an object.")
                    continue
                for k, v in validate_fields(spec.fields, row, prefix=f"{prefix}{name}.{i}.").items():
                    errors.setdefault(k, []).extend(v)
            continue
        assert isinstance(value, (int, float))
        if spec.min is not None and value < spec.min:
            _add(errors, prefix + name, f"Must be at least {spec.min:g}{_unit(spec)}.")
        if spec.max is not None and value > spec.max:
            _add(errors, prefix + name, f"Must be at most {spec.max:g}{_unit(spec)}.")
    return errors


_NAMES: dict[int, tuple[tuple[FieldSpec, ...], frozenset[str]]] = memo.table({})
_NAMES_SIZE = 64


def _field_names(specs: Sequence[FieldSpec]) -> frozenset[str] | set[str]:
    """Return the names of ``specs``, remembered for a tuple (every order of a phase is checked against one).

    An entry holds the tuple itself, so its id() cannot be reused while the entry lives.
    """
    if type(specs) is not tuple:
        return {s.name for s in specs}
    entry = _NAMES.get(id(specs))
    if entry is not None and entry[0] is specs:
        return entry[1]
    names = frozenset(s.name for s in specs)
    if len(_NAMES) >= _NAMES_SIZE:
        _NAMES.clear()
    _NAMES[id(specs)] = (specs, names)
    return names


_Check = tuple[str, tuple[str, ...], float | None, float | None]
"""A field's type, choices, min and max, for :func:`_plainly_valid`."""
_Plain = tuple[
    tuple[str, ...],
    dict[str, tuple[float, float]],
    dict[str, float],
    dict[str, _Check],
]
"""What :func:`_plain_ok` checks a payload against, worked out once per tuple of specs
(:func:`_plain_checks`): the required fields, the bounds of each ``float`` field, the greatest
length of each ``str`` field, and each field's :data:`_Check`."""
_CHECKS: dict[int, tuple[tuple[FieldSpec, ...], _Plain | None]] = memo.table({})

_FLOAT_MAX = sys.float_info.max


def _finite(value: float) -> bool:
    """Return True if ``value`` (an int or a float) is a finite float or an int a float can hold: a whole
    number of 400 digits is no number of a float field (``float()`` of it raises OverflowError)."""
    if type(value) is int:
        return -_FLOAT_MAX <= value <= _FLOAT_MAX
    return math.isfinite(value)


def _plain_checks(specs: Sequence[FieldSpec]) -> _Plain | None:
    """Return the checks of :func:`_plain_ok` for a tuple of specs of distinct names, remembered by the tuple
    (as :func:`_field_names`); None for anything else (a name twice: each spec is checked on its own).

    A ``float`` field's bounds stand in for three tests: a missing (or infinite) bound is the greatest finite
    float (so ``lo <= value <= hi`` is False for an infinite value and for NaN, as ``math.isfinite`` and the
    bounds are together); a ``str`` field without ``max`` has no greatest length (infinity).
    """
    if type(specs) is not tuple:
        return None
    entry = _CHECKS.get(id(specs))
    if entry is not None and entry[0] is specs:
        return entry[1]
    checks = {s.name: (s.type, s.choices, s.min, s.max) for s in specs}
    floats = {
        s.name: (
            -_FLOAT_MAX if s.min is None else max(s.min, -_FLOAT_MAX),
            _FLOAT_MAX if s.max is None else min(s.max, _FLOAT_MAX),
        )
        for s in specs
        if s.type == "float"
    }
    texts = {s.name: math.inf if s.max is None else s.max for s in specs if s.type == "str"}
    required = tuple(s.name for s in specs if s.required)
    plain = (required, floats, texts, checks) if len(checks) == len(specs) else None
    if len(_CHECKS) >= _NAMES_SIZE:
        _CHECKS.clear()
    _CHECKS[id(specs)] = (specs, plain)
    return plain


def _plainly_valid(specs: Sequence[FieldSpec], data: Mapping[str, JSON]) -> bool:
    """Return True if :func:`validate_fields` finds no error in ``data``; False if it may find one.

    Only for a tuple of specs of distinct names (:func:`_plain_checks`); see :func:`_plain_ok`.
    """
    plain = _plain_checks(specs)
    return plain is not None and _plain_ok(plain, data)


def _plain_ok(plain: _Plain, data: Mapping[str, JSON]) -> bool:
    """Return True if :func:`validate_fields` finds no error in ``data`` by the specs of ``plain``
    (:func:`_plain_checks`); False if it may find one.

    True when every required field is present, no key is unknown and each value is of the plain type of its
    field (text, true or false, a whole number, a finite number) within its choices and bounds. Anything
    else (a float for an int, rows...) is left to the full checks.
    """
    required, floats, texts, by_name = plain
    if required:
        get = data.get
        for name in required:
            value = get(name)
            if value is None or value == "":
                return False
    # an unknown key finds no check: no set comparison of the keys first
    try:
        for name, value in data.items():
            # most order fields are numbers and names: a float of a float field (finite, within its bounds:
            # one chained comparison, see _plain_checks) and a text of a text field (not too long)
            if type(value) is float:
                lo, hi = floats[name]  # (KeyError: not a float field)
                if not lo <= value <= hi:
                    return False
            elif type(value) is str and name in texts:
                if len(value) > texts[name]:
                    return False
            elif not _plain_value(by_name[name], value):  # (KeyError: no such field)
                return False
    except KeyError:
        return False  # a float for a field of another type, or an unknown field
    return True


def _plain_value(check: _Check, value: JSON) -> bool:
    """Return True if a value of a field of ``check`` is plainly valid (see :func:`_plainly_valid`)."""
    kind, choices, lo, hi = check
    if type(value) is float:
        if kind != "float" or not _isfinite(value) or (lo is not None and value < lo):
            return False
        return hi is None or value <= hi
    if value is None or value == "":
        return True
    if kind == "str" or kind == "choice":
        if not isinstance(value, str) or (kind == "choice" and value not in choices):
            return False
        return hi is None or len(value) <= hi
    if isinstance(value, bool):
        return kind == "bool"
    if kind == "int":
        if not isinstance(value, int):
            return False
    elif kind != "float" or not isinstance(value, (int, float)) or not _finite(value):
        return False  # rows, or not a number
    return not ((lo is not None and value < lo) or (hi is not None and value > hi))


_isfinite = math.isfinite


def side_list(value: str) -> tuple[str, ...]:
    """Return the side keys of an option written as a comma-separated list (spaces around a key ignored)."""
    return tuple(key for key in (x.strip() for x in value.split(",")) if key)


def _add(errors: FieldErrors, name: str, msg: str) -> None:
    errors.setdefault(name, []).append(msg)


def _unit(spec: FieldSpec) -> str:
    return " " + spec.unit if spec.unit else ""


class RuleSet(ABC):
    """One rule book made executable. Subclasses set the class attributes and the abstract methods."""

    key: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    source: ClassVar[str]
    """The seed file, for example ``seeds/003_cc4ad023c2c48590.txt``."""
    geometry: ClassVar[Geometry]
    unit: ClassVar[str]
    """``inches``, ``millimetres`` or ``hexes``."""
    dice: ClassVar[tuple[DieKind, ...]]
    order_types: ClassVar[tuple[OrderType, ...]]
    terrain_kinds: ClassVar[tuple[str, ...]] = ()
    impassable_terrain: ClassVar[tuple[str, ...]] = ()
    """The terrain kinds no ship afloat ever stands on (land, a fort...): :func:`rules.check_state` refuses a
    state with an active ship on one (NW-CAMP-08)."""
    options: ClassVar[tuple[FieldSpec, ...]] = ()
    """Campaign / battle settings the rule set reads from ``BattleState.options``."""
    option_sheet_keys: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Sheet keys :meth:`setup` works out from an option when the sheet lacks them (option name -> keys), for
    example ultra_simple's ``protection`` from ``belt_armour`` (7.0). A campaign carries a ship's sheet from
    battle to battle without these keys, so each new battle works them out again from the options it starts
    with (docs/rulings.md NW-CAMP-01)."""
    battle_only_sheet_keys: ClassVar[tuple[str, ...]] = ()
    """Sheet keys that hold the state of one battle, not damage (a searchlight on, a helm order queued, turn
    numbers of that battle...): a campaign carries a ship's sheet to her next battle without them, so that
    battle's :meth:`setup` gives them a new sheet's values, or the scenario's (docs/rulings.md NW-CAMP-17).
    Values that need more than dropping are seen to by :meth:`sheet_between_battles`."""
    option_side_lists: ClassVar[tuple[str, ...]] = ()
    """Options whose value is a comma-separated list of side keys, for example ww2_jackson's
    ``spotting_aircraft`` (W01, W10: a boolean input per side). :meth:`option_side_errors` refuses a key that
    is not a side (docs/rulings.md NW-CAMP-10)."""
    condition_choices: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {}
    """The condition texts the rules read (``wind_force``, ``weather``: fields of
    :class:`~rules.model.Conditions`), each with its choices as (value, label). :meth:`condition_errors`
    refuses any other value, the set-up form offers only these and the pages show the label. A text not named
    here is display-only (a scenario's "north-westerly gale, heavy sea") and stays free (docs/rulings.md
    NW-SAIL-35)."""
    course_fields: ClassVar[tuple[str, ...]] = ()
    """Order fields that hold a hex course of the letters F, L and R (``course`` in acw_river and
    memoir_sea): :meth:`canonical_order` writes them in capitals (docs/rulings.md NW-ACW-21, NW-MEM-08)."""
    default_map: ClassVar[tuple[float, float]] = (24, 18)
    stacking: ClassVar[bool] = False
    """True when two ships afloat may share one position (one hex, or one table point). The conformance test
    checks that no two active ships ever share a position of a rule set that sets it False."""

    # --- options ---------------------------------------------------------------------------

    def option_side_errors(self, options: Mapping[str, JSON], sides: Sequence[str]) -> FieldErrors:
        """Return, per option of :attr:`option_side_lists`, an error naming the side keys it holds that are
        not in ``sides`` (empty when none; a value that is no text is left to :func:`validate_fields`).
        NW-CAMP-10: such a key was silently ignored, so a typo took the aircraft away unseen."""
        errors: FieldErrors = {}
        for name in self.option_side_lists:
            value = options.get(name)
            if not isinstance(value, str):
                continue
            unknown = [key for key in side_list(value) if key not in sides]
            if unknown:
                known = ", ".join(sides) or "none"
                errors[name] = [f"Unknown side key(s): {', '.join(unknown)}. The sides are: {known}."]
        return errors

    # --- conditions --------------------------------------------------------------------------

    def condition_errors(self, conditions: Conditions) -> list[str]:
        """Return one message per condition text of :attr:`condition_choices` that holds no value of its
        choices (exact text: the rules compare it as written), naming the known ones; empty when none.
        None (not given: the set-up rolls it where the rules say so) passes. Docs/rulings.md NW-SAIL-35."""
        out: list[str] = []
        for name, choices in self.condition_choices.items():
            value = getattr(conditions, name)
            if value is not None and all(value != v for v, _ in choices):
                known = ", ".join(v for v, _ in choices)
                shown = value if len(value) <= 40 else value[:40] + "..."
                out.append(f"{name} {shown!r} is not one of {self.key}'s: {known} (NW-SAIL-35)")
        return out

    def condition_label(self, name: str, value: str | None) -> str:
        """Return how the pages show condition ``name``'s ``value``: its label among
        :attr:`condition_choices`, else the text as given ("" for None)."""
        for v, label in self.condition_choices.get(name, ()):
            if v == value:
                return label
        return value or ""

    def options_for_sides(self, options: Mapping[str, JSON], sides: Sequence[str]) -> dict[str, JSON]:
        """Return ``options`` with the lists of :attr:`option_side_lists` kept to ``sides``: a campaign's
        option may name a side that is not in one of its battles (NW-CAMP-10)."""
        out = dict(options)
        for name in self.option_side_lists:
            value = out.get(name)
            if isinstance(value, str):
                out[name] = ",".join(key for key in side_list(value) if key in sides)
        return out

    def order_type_applies(self, ship: ShipState, order_type: str) -> bool:
        """Return whether the order type keyed ``order_type`` is one ``ship`` can ever give (the order page
        leaves out the others: a torpedo launch for a ship with no tubes). Its fields stay in the order's
        schema: left out, they take their defaults. Default: every order type applies."""
        return True

    def sheet_texts(self, ship: ShipState, names: Mapping[str, str] | None = None) -> dict[str, str]:
        """Return, by sheet key, the words the pages show for a value of ``ship.sheet`` that reads wrong as
        bare JSON (a list of box numbers as the boxes' names); the keys left out are shown as their values.
        ``names``: ship id -> name, for values that name ships. Default: none."""
        return {}

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """Return what in ``ship.sheet`` is not of the shape this rule set's sheets have (one message each;
        empty when none): a value the engine would read as something else, such as a fire of no intensity
        or a box the class does not have. :func:`rules.check_state` asks it of every ship, so the umpire's
        edit of a sheet is refused with it (docs/rulings.md NW-WW2-27). Default: none (the engine's own
        checks of sheet numbers, NW-CAMP-04, still apply)."""
        return []

    # --- campaigns -------------------------------------------------------------------------

    def sheet_between_battles(self, sheet: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return the part of a ship's sheet at the end of a battle that her next battle starts with: her
        damage and losses, without the keys of :attr:`battle_only_sheet_keys` (that battle's own state) and of
        :attr:`option_sheet_keys` (worked out again from that battle's options). :meth:`setup` fills what is
        left out. A rule set overrides it for values that need more than dropping (NW-CAMP-01, NW-CAMP-17)."""
        drop = set(self.battle_only_sheet_keys)
        for keys in self.option_sheet_keys.values():
            drop.update(keys)
        return {k: v for k, v in sheet.items() if k not in drop}

    # --- ship classes ----------------------------------------------------------------------

    @abstractmethod
    def class_schema(self) -> tuple[FieldSpec, ...]:
        """Return the fields a ship class needs for this rule set."""

    def validate_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        """Return field-level errors in a ship class's stats (empty when valid).

        The schema checks types and bounds; :meth:`check_class` adds the rule set's cross-field checks.
        """
        errors = validate_fields(self.class_schema(), stats)
        if not errors:
            for k, v in self.check_class(stats).items():
                errors.setdefault(k, []).extend(v)
        return errors

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        """Return cross-field errors in valid-typed stats (for example more guns in an arc than aboard)."""
        return {}

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        """Return bundled reference classes beyond the scenarios' (for example seed 001's whole table).

        Each is ``{"key", "name", "nation", "type", "stats", "source", "heuristic"}`` as in a scenario's
        ``classes``; the fleets app loads them with the scenarios' classes.
        """
        return ()

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return derived values shown on the class page (dice, protection points...)."""
        return {}

    # --- battle ----------------------------------------------------------------------------

    @abstractmethod
    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        """Complete an opening state built from a scenario: fill sheets, roll what the rules roll before
        play (wind, weather, crew grades...). Return the state and the events of the set-up."""

    def phase_plan(self, state: BattleState) -> tuple[PhaseSpec, ...]:
        """Return the phases of the current turn (A1). Default: one phase, all sides."""
        return (PhaseSpec(name="turn", sides=state.side_keys()),)

    def ordering_sides(self, state: BattleState) -> tuple[str, ...]:
        """Return the sides that give orders for the current phase."""
        plan = self.phase_plan(state)
        return plan[min(state.phase, len(plan) - 1)].sides

    def orderable_ships(self, state: BattleState, side: str) -> tuple[ShipState, ...]:
        """Return the ships of ``side`` that take orders this phase."""
        if side not in self.ordering_sides(state):
            return ()
        # (s.status == "active" is ShipState.active, without the property's call: 200 ships a phase)
        return tuple([s for s in state.ships if s.side == side and s.status == "active"])  # (no generator)

    def validate_orders(self, state: BattleState, side: str, orders: Sequence[ShipOrder]) -> OrderErrors:
        """Return the errors of ``side``'s orders for the current phase.

        Checks done here for every rule set: the ship exists, belongs to ``side``, is afloat and takes
        orders this phase; one order per ship. Then :meth:`check_order` does the rule set's checks.
        """
        invalid: dict[str, FieldErrors] = {}
        illegal: dict[str, FieldErrors] = {}
        if not orders:
            return OrderErrors(invalid=invalid, illegal=illegal)
        ships = _ship_index(state.ships)  # read only: no copy
        seen: set[str] = set()
        gives = side in self.ordering_sides(state)  # (the same for every order)
        fields = self.order_fields()
        plain = _plain_checks(fields)  # (for _plain_ok(): worked out once for the orders)
        check = self.order_checker(state)
        for order in orders:
            sid = order.ship_id
            ship = ships.get(sid)
            if ship is None:
                msg = f"No ship {sid!r} in this battle."
                invalid.setdefault(sid, {}).setdefault("ship_id", []).append(msg)
                continue
            if ship.side != side:
                illegal.setdefault(sid, {}).setdefault("ship_id", []).append(f"{ship.name} is not your ship.")
                continue
            if sid in seen:
                invalid.setdefault(sid, {}).setdefault("ship_id", []).append("Two orders for one ship.")
                continue
            seen.add(sid)
            if ship.status != "active":  # not ship.active
                illegal.setdefault(sid, {}).setdefault("ship_id", []).append(
                    f"{ship.name} is {ship.status} and takes no orders."
                )
                continue
            if not gives:
                msg = "Your side gives no orders this phase."
                illegal.setdefault(sid, {}).setdefault("__all__", []).append(msg)
                continue
            data = order.data
            # validate_fields(), without its call for the plainly valid (most orders)
            inv = None if plain is not None and _plain_ok(plain, data) else validate_fields(fields, data)
            if inv:
                invalid[sid] = inv
                continue
            ill = check(ship, order)  # self.check_order(state, ship, order)
            if ill:
                illegal[sid] = ill
        return OrderErrors(invalid=invalid, illegal=illegal)

    def order_fields(self) -> tuple[FieldSpec, ...]:
        """Return the field specs of an order payload: the union of the order types' fields."""
        return tuple(f for ot in self.order_types for f in ot.fields)

    def canonical_order(self, order: ShipOrder) -> ShipOrder:
        """Return ``order`` written as the rule book writes it: each of :attr:`course_fields` in capitals
        (``"ffr"`` -> ``"FFR"``, :func:`course_text`), the rest as given. ``order`` itself when nothing
        changes. An order is stored and resolved in this form, so every page, the log and the JSON show one
        spelling of it (docs/rulings.md NW-ACW-21, NW-MEM-08)."""
        changed: dict[str, JSON] = {}
        for name in self.course_fields:
            value = order.data.get(name)
            if isinstance(value, str) and value:
                text = course_text(value)
                if text != value:
                    changed[name] = text
        if not changed:
            return order
        return replace(order, data={**order.data, **changed})

    @abstractmethod
    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        """Return what the rules forbid in a well-formed order of one ship (empty when legal)."""

    def order_checker(self, state: BattleState) -> Callable[[ShipState, ShipOrder], FieldErrors]:
        """Return a function of a ship and her order that does :meth:`check_order` for ``state``.

        :meth:`validate_orders` asks for it once for the orders of a phase, so a rule set may work out in it
        what their checks share (sail_1700 does). Default: :meth:`check_order` itself.
        """
        return partial(self.check_order, state)

    def top_speed(self, ship: ShipState) -> float | None:
        """Return the most ``ship.speed`` may be for this ship, in the rule set's unit of speed (hexes a
        turn, knots, millimetres a move...): what her class makes undamaged, or None when the rule set sets
        no bound. The umpire's ship edit refuses a speed above it (docs/rulings.md NW-CAMP-29). Default:
        None."""
        return None

    @abstractmethod
    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        """Return the order a ship follows when its player gave none (A7). Must be legal."""

    @abstractmethod
    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        """Adjudicate the current phase from legal ``orders`` (ship id -> order, one per ordering ship).

        Return the state after the phase (with ``turn``/``phase`` still those of the phase resolved:
        the engine advances them) and the events. Pure: no clock, no global random, no I/O.
        """

    def outcome(self, state: BattleState) -> tuple[bool, str | None]:
        """Return (finished, winner): finished when at most one side has a ship able to fight."""
        # the sides of the ships able to fight (s.status == "active" is s.active, without the call), up to the
        # second one found: the battle goes on as soon as two sides have one
        winner: str | None = None
        for s in state.ships:
            if s.status == "active":
                if winner is None:
                    winner = s.side
                elif s.side != winner:
                    return False, None
        return True, winner

    def sheet_refreshed(self, state: BattleState, ship: ShipState, given: Collection[str] = ()) -> ShipState:
        """Return ``ship`` with the sheet entries the engine works out from the rest of her sheet worked out
        again, but those named in ``given`` (the umpire's ship edit: an entry typed is checked by
        :meth:`sheet_errors`, the others follow the boxes marked). Default: ``ship`` as she is. ww2_jackson:
        ``max_speed`` (W38; docs/rulings.md NW-WW2-28)."""
        return ship

    def die_needed(self, event: Event) -> int | None:
        """Return what the die itself must show for ``event``'s roll to succeed (the turn log's Needed
        column), or None when the event needs no number. Default: ``event.needed``, for a rule set whose
        modifiers change the number of dice or the points a hit scores, not the score a die needs
        (ultra_simple's 10% a calibre inch, acw_river's hits on a ship going astern)."""
        return event.needed

    # --- fog of war (A2) -------------------------------------------------------------------

    def visible_ship_ids(self, state: BattleState, side: str) -> set[str]:
        """Return the ids of the ships ``side`` can see. Default: every ship (by day, A2)."""
        return {s.id for s in state.ships}

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        """Return what an opponent may see of a ship's sheet (A2). Default: nothing.

        ``side`` is the viewer (:data:`OBSERVER` for an observer) and ``state`` the battle: a rule set whose
        sheet records who scored each hit shows a side only the hits its side scored (NW-CAMP-15,
        :func:`scored_visibility`), and one whose sheet keeps a bare tally shows it only when the battle has
        two sides. Without them (None), every hit: what either side of a two-side battle sees.
        """
        return {}

    def view_for(self, state: BattleState, side: str | None) -> BattleState:
        """Return the state as ``side`` may see it (A2); ``None`` is the umpire, who sees everything.

        Enemy ships out of sight are removed; enemy sheets are reduced to :meth:`public_sheet`;
        terrain and pending effects hidden from ``side`` are removed.
        """
        if side is None:
            return state
        if side == OBSERVER:
            return self._observer_view(state)
        seen = self.visible_ship_ids(state, side)
        ships = []
        for s in state.ships:
            if s.side == side:
                ships.append(s)
            elif s.id in seen:
                ships.append(s.replace(sheet=self.public_sheet(s, side, state)))
        terrain = tuple(t for t in state.terrain if t.visible_to is None or side in t.visible_to)
        pending = tuple(p for p in state.pending if p.visible_to is None or side in p.visible_to)
        return replace(state, ships=tuple(ships), terrain=terrain, pending=pending)

    def _observer_view(self, state: BattleState) -> BattleState:
        """Return what an observer sees (NW-CAMP-13): what every side sees, the intersection of the sides'
        views. A ship is shown when every side has it in sight (its own side always does), with its
        :meth:`public_sheet` (no side's full sheet); terrain and pending effects only when every side sees
        them.
        """
        sides = state.side_keys()
        seen: set[str] | None = None
        for k in sides:
            sees = self.visible_ship_ids(state, k) | {s.id for s in state.ships if s.side == k}
            seen = sees if seen is None else seen & sees
        ships = tuple(
            s.replace(sheet=self.public_sheet(s, OBSERVER, state))
            for s in state.ships
            if seen is None or s.id in seen
        )
        terrain = tuple(t for t in state.terrain if _seen_by_all(t.visible_to, sides))
        pending = tuple(p for p in state.pending if _seen_by_all(p.visible_to, sides))
        return replace(state, ships=ships, terrain=terrain, pending=pending)

    # --- reference -------------------------------------------------------------------------

    @abstractmethod
    def tables(self) -> dict[str, JSON]:
        """Return every chart of the rule set as JSON, exactly as the engine uses it."""

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        """Return lines describing what an order would do (shown beside the order form)."""
        return []

    # --- the map and the order panel ------------------------------------------------------

    def arcs(self, state: BattleState, ship: ShipState) -> list[ArcSpec]:
        """Return ``ship``'s arcs of fire and gun ranges, as the map draws them (never used to adjudicate).

        Each :class:`~rules.arcs.ArcSpec` runs from ``start`` to ``end`` degrees relative to the bow,
        clockwise, out to ``range`` with band edges ``bands``, in the rule set's unit (hexes, inches or
        millimetres). Default: A5 (``../shared/rulings-product.md``): forward and aft within 30 degrees of
        bow and stern, each broadside the rest, all at the tables' ``max_range_hexes`` / ``max_range``
        (else 6 hexes or 24 units; :func:`rules.arcs.default_arcs`). An arc the ship's guns cannot fire
        into is left out; a ship with no guns has none. Rule sets override it with their own arcs.
        """
        return default_arcs(self.tables(), state, ship)

    def order_hints(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> dict[str, FieldHint]:
        """Return hints for the order fields of ``ship`` now, by field name, while ``data`` is being edited.

        ``data`` is the order as typed so far (well-formed values only): a hint may depend on it (the turns
        offered after a number of hexes). Hints never decide legality (:meth:`validate_orders` does).
        Default: none, and the form keeps the field specs' bounds.
        """
        return {}

    def standing_orders(self, ship: ShipState) -> dict[str, JSON]:
        """Return the standing orders the rules keep on ``ship``'s sheet, by order field name (the form
        starts from them). Default: none."""
        return {}

    def describe(self) -> dict[str, JSON]:
        """Return the rule set's declared metadata as JSON."""
        from .serial import to_json

        return {
            "key": self.key,
            "title": self.title,
            "version": self.version,
            "source": self.source,
            "geometry": self.geometry,
            "unit": self.unit,
            "dice": list(self.dice),
            "order_types": to_json(self.order_types),
            "terrain_kinds": list(self.terrain_kinds),
            "options": to_json(self.options),
            "class_schema": to_json(self.class_schema()),
        }


OBSERVER = ""
"""The fog-of-war key of an observer, a member of no side: sees what every side sees (NW-CAMP-13)."""


def _seen_by_all(visible_to: Sequence[str] | None, sides: Sequence[str]) -> bool:
    """Return True if every side of ``sides`` is in ``visible_to`` (None: every side)."""
    return visible_to is None or all(k in visible_to for k in sides)


def event_visible(event: Event, side: str | None, sides: Sequence[str] = ()) -> bool:
    """Return True if ``side`` may see ``event`` (None = the umpire).

    ``""`` (:data:`OBSERVER`) sees an event every side of ``sides`` (the battle's) sees (NW-CAMP-13); without
    ``sides``, only the events every side sees by their ``visible_to`` of None.
    """
    return seen_by(event.visible_to, side, sides)


def seen_by(visible_to: Sequence[str] | None, side: str | None, sides: Sequence[str] = ()) -> bool:
    """Return True if ``side`` may see what is ``visible_to`` those sides (None: every side), as
    :func:`event_visible`: None is the umpire, :data:`OBSERVER` sees what every side of ``sides`` sees."""
    if side is None or visible_to is None:
        return True
    if side == OBSERVER:
        return bool(sides) and all(k in visible_to for k in sides)
    return side in visible_to


def tally_shown(side: str | None, state: BattleState | None) -> bool:
    """Return True if ``side`` may see a ship's bare tally of hits (damage points that name no scorer) in
    its public sheet: always in a battle of two sides, where each hit is the viewer's side's or seen by
    it; with three or more the tally mixes the hits of sides the viewer is not, so it is left out and a
    side reads the hits it scored in its log (NW-CAMP-15). None (either): every hit, as before."""
    return side is None or state is None or len(state.sides) <= 2


_SCORED_VIS: dict[tuple[str, str, tuple[str, ...]], tuple[str, ...] | None] = memo.table({})


def scored_visibility(scorer_side: str, target_side: str, sides: Sequence[str]) -> tuple[str, ...] | None:
    """Return the ``visible_to`` of a hit ``scorer_side`` scored on a ship of ``target_side`` (A2,
    NW-CAMP-15): the scorer's side and the target's; None when those are every side of ``sides`` (the
    battle's: in a two-side battle every side sees every hit, as before). A third side sees the ship and
    its visible state, not the hits another side scored on her.
    """
    if len(sides) == 2 and scorer_side != target_side:
        # two sides (most battles): every hit one side scores on the other is every side's (the same answer as
        # below, without the key's tuples and the table)
        first, second = sides
        if (scorer_side == first and target_side == second) or (
            scorer_side == second and target_side == first
        ):
            return None
    key = (scorer_side, target_side, tuple(sides))
    if key in _SCORED_VIS:
        return _SCORED_VIS[key]
    pair = (scorer_side,) if scorer_side == target_side else (scorer_side, target_side)
    out = None if all(k in pair for k in sides) else pair
    _SCORED_VIS[key] = out
    return out


SheetKind = Literal["whole", "bool", "whole?", "bool?", "ship?"]
"""What a sheet entry holds, for :func:`sheet_kind_errors`: a whole number (0 or more), true or false, either
of them or null, a ship of the battle (not herself) or null."""

_KIND_TEXT: dict[str, str] = {
    "whole": "a whole number, 0 or more",
    "bool": "true or false",
    "whole?": "a whole number, 0 or more, or null",
    "bool?": "true, false or null",
    "ship?": "a ship of the battle (not herself) or null",
}


def sheet_kind_errors(
    sheet: Mapping[str, JSON], kinds: Mapping[str, SheetKind], ship_id: str, ships: Collection[str]
) -> list[str]:
    """Return one message per entry of ``sheet`` named in ``kinds`` that does not hold its kind (the rule
    sets' :meth:`RuleSet.sheet_errors`, docs/rulings.md NW-WW2-27): ``"lost must be a whole number, 0 or
    more"``.
    Entries not in ``kinds``, and kinds of entries the sheet lacks, are not checked. ``ships``: the ship ids
    of the battle (``ship?``)."""
    out: list[str] = []
    for key, kind in kinds.items():
        if key not in sheet:
            continue
        v = sheet[key]
        if v is None and kind.endswith("?"):
            continue
        base = kind.rstrip("?")
        if base == "whole":
            ok = type(v) is int and v >= 0
        elif base == "bool":
            ok = type(v) is bool
        else:  # ship
            ok = isinstance(v, str) and v in ships and v != ship_id
        if not ok:
            out.append(f"{key} must be {_KIND_TEXT[kind]}")
    return out


def plural(n: int, one: str, many: str) -> str:
    """Return ``n`` with its noun: ``plural(1, "hex", "hexes")`` -> ``"1 hex"``, ``4`` -> ``"4 hexes"``."""
    return f"{n} {one if n == 1 else many}"


def round_half_up(x: float) -> int:
    """Round to the nearest whole number, halves up (U01, U05 and the seeds' examples)."""
    return math.floor(x + 0.5 + 1e-9)


_COURSE_CAPITALS = str.maketrans("flr", "FLR")


def course_text(value: object) -> str:
    """Return an order's hex ``course`` (letters F, L, R) as the rules read it: ``f``, ``l`` and ``r`` as the
    capitals they stand for (``"ffr"`` -> ``"FFR"``), the rest as it is; ``""`` for none (NW-ACW-20,
    NW-MEM-07). Only these three: ``str.upper`` would also make ``"\ufb00"``, the "ff" ligature, two hexes."""
    if not value:
        return ""
    return (value if type(value) is str else str(value)).translate(_COURSE_CAPITALS)


def course_extras(course: str) -> str:
    """Return what a course (as :func:`course_text` gives it) has besides the letters F, L and R, for its
    message: ``"a space"``, ``"spaces"``, ``"'X'"``, joined with "and" (``"a space and 'X'"``); ``""`` when it
    has nothing else (NW-ACW-20, NW-MEM-07)."""
    if not course.strip("FLR"):  # (the common case: letters only, no set built)
        return ""
    spaces = sum(c.isspace() for c in course)
    has = ["a space" if spaces == 1 else "spaces"] if spaces else []
    has += [f"'{c}'" for c in sorted(set(course) - {"F", "L", "R"}) if not c.isspace()]
    return has[0] if len(has) == 1 else f"{', '.join(has[:-1])} and {has[-1]}"


def roll_initiative(
    sides: Sequence[str],
    dice: Dice,
    events: list[Event],
    turn: int,
    *,
    high_first: bool,
    rule: str,
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """Roll a D6 per side and return the sides (keys) in acting order, re-rolling ties among tied sides.

    ``high_first``: the high roller acts first (``ultra_simple``, ``acw_river``) or the lowest
    (``memoir_sea``). One event per round of rolls, its data the roll of each side by key; its text and the
    rolls' purposes name each side by ``names`` (key -> display name; the key for a side it lacks).
    """
    named = names or {}
    order: list[str] = []
    # the groups still to settle, the next on top: a tie is settled, its own ties first, before the groups
    # after it (depth first; a loop, not a nested function calling itself, which would be a reference
    # cycle left for the garbage collector each phase: rules/gcpause.py)
    todo: list[list[str]] = [list(sides)]
    while todo:
        group = todo.pop()
        if len(group) <= 1:
            order.extend(group)
            continue
        start = len(dice.rolls)
        scores = {s: dice.roll("D6", f"initiative {named.get(s, s)}") for s in group}
        rolled = ", ".join(f"{named.get(s, s)} rolls {v}" for s, v in scores.items())
        events.append(
            Event(
                kind="initiative",
                turn=turn,
                text=f"Initiative: {rolled} ({'high' if high_first else 'low'} moves first, {rule}).",
                rolls=tuple(dice.rolls[start:]),
                data={k: v for k, v in scores.items()},
            )
        )
        values = sorted(set(scores.values()), reverse=high_first)
        todo.extend([s for s in group if scores[s] == value] for value in reversed(values))
    return order
