"""The data model of the adjudicator: battle state, orders, events and phase results.

Every class is a frozen, keyword-only dataclass that round-trips losslessly to JSON through
:mod:`rules.serial`. Change them with :func:`dataclasses.replace`, never in place (for a ship and a battle,
:meth:`ShipState.replace` and :meth:`BattleState.replace` do the same, faster).

Units: table positions are in the rule set's unit (inches for ``ww2_jackson``, millimetres for
``sail_1700``); hex positions are axial coordinates of flat-topped hexes (see :mod:`rules.geometry`).
Headings are degrees clockwise from north (0 = up the map). Speeds are in the rule set's unit
(knots for ``ww2_jackson``, millimetres per move for ``sail_1700``, hexes per turn for the hex sets).

Source: ``../shared/rulings-product.md`` A1 (phases), A2 (visibility), A8 (dice).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Literal, Union

from . import memo

# Union kept for this recursive alias: its forward references are strings ("JSON")
JSON = Union[None, bool, int, float, str, list["JSON"], dict[str, "JSON"]]  # noqa: UP007
"""Any JSON value. Rule sets keep their own sheet state and order payloads as JSON objects."""

ShipStatus = Literal["active", "sunk", "struck", "withdrawn", "captured"]
"""Where a ship stands in the battle. Only ``active`` ships move, fire or take orders."""

Geometry = Literal["table_in", "table_mm", "hex6", "hex12"]
"""How the table is measured: free movement in inches or millimetres, or hexes with 6 or 12 facings."""

_KEEP: Any = object()
"""Default of ``ShipState.replace``'s parameters: keep the field's value."""

_new = object.__new__
# A twin class (_slot_twin) is called, not given to _new(): its call (object's __new__ and __init__, through
# the type's own slots) costs less than object.__new__ called as a function.


@dataclass(frozen=True, slots=True, kw_only=True)
class Point:
    """A position on a free-movement table, in the rule set's unit (inches or millimetres)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Hex:
    """A hex in axial coordinates (q, r) of a flat-topped hex grid. See :mod:`rules.geometry`."""

    q: int
    r: int


Position = Point | Hex


@dataclass(frozen=True, slots=True, kw_only=True)
class ShipState:
    """One ship in a battle.

    ``stats`` is the ship class's data as the rule set's class schema describes it (copied into the
    battle so that a state is self-contained). ``sheet`` is the rule set's own record-sheet state
    (damage, boxes marked, fires, loaded guns...). ``flags`` is the visible state everyone may see
    (A2): for example ``on_fire``, ``dead_in_water``, ``sinking``, ``aground``, ``dismasted``.
    ``offset`` is used by hex rule sets when a ship faces a hex corner: which of the two flanking
    hexes it enters next (0 = the one to port, 1 = the one to starboard).
    """

    id: str
    name: str
    side: str
    class_name: str = ""
    position: Position
    heading: float = 0.0
    speed: float = 0.0
    status: ShipStatus = "active"
    flags: tuple[str, ...] = ()
    offset: int = 0
    stats: dict[str, JSON] = field(default_factory=dict)
    sheet: dict[str, JSON] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """Return True while the ship can still move, fire and take orders."""
        return self.status == "active"

    def replace(
        self,
        *,
        id: str = _KEEP,
        name: str = _KEEP,
        side: str = _KEEP,
        class_name: str = _KEEP,
        position: Position = _KEEP,
        heading: float = _KEEP,
        speed: float = _KEEP,
        status: ShipStatus = _KEEP,
        flags: tuple[str, ...] = _KEEP,
        offset: int = _KEEP,
        stats: dict[str, JSON] = _KEEP,
        sheet: dict[str, JSON] = _KEEP,
    ) -> ShipState:
        """Return a copy with the fields given changed: ``dataclasses.replace(self, ...)``, faster.

        Rule sets change ships hundreds of times a phase; this copies the slots directly, without the
        generic field loop and keyword unpacking of :func:`dataclasses.replace`.
        """
        new: Any = _SHIP_TWIN()  # plain stores, then the class (as Event.__init__)
        new.id = self.id if id is _KEEP else id
        new.name = self.name if name is _KEEP else name
        new.side = self.side if side is _KEEP else side
        new.class_name = self.class_name if class_name is _KEEP else class_name
        new.position = self.position if position is _KEEP else position
        new.heading = self.heading if heading is _KEEP else heading
        new.speed = self.speed if speed is _KEEP else speed
        new.status = self.status if status is _KEEP else status
        new.flags = self.flags if flags is _KEEP else flags
        new.offset = self.offset if offset is _KEEP else offset
        new.stats = self.stats if stats is _KEEP else stats
        new.sheet = self.sheet if sheet is _KEEP else sheet
        new.__class__ = ShipState
        ship: ShipState = new
        return ship


@dataclass(frozen=True, slots=True, kw_only=True)
class MapSpec:
    """The playing area: a table ``width`` x ``height`` in its unit, or a hex map of columns x rows."""

    geometry: Geometry
    width: float
    height: float


@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainFeature:
    """A piece of terrain: a land, shore or shoal hex, a battery, a fort, a mine.

    ``kind`` is one of the rule set's terrain kinds. ``props`` holds its data (shoal depth in fathoms,
    a battery's dice and resistance...). ``visible_to`` is None when every side sees it, else the
    sides that may (a mine is visible only to the side that laid it, A3).
    """

    kind: str
    position: Position
    props: dict[str, JSON] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Conditions:
    """Conditions of the battle: light, moon, wind and weather.

    ``wind_from`` is the direction the wind blows from, degrees clockwise from north (``sail_1700``).
    ``visibility`` is in the table's unit, or None for unlimited. ``extra`` holds rule-set specific
    conditions.
    """

    night: bool = False
    moon: Literal["none", "dim", "bright"] = "none"
    wind_from: float | None = None
    wind_force: str | None = None
    weather: str | None = None
    visibility: float | None = None
    extra: dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingEffect:
    """Something that will act in a later phase: a torpedo in the water, a fire, flooding, a mortar shell.

    ``due_turn`` is the turn in which it acts (None for effects that act every turn until removed).
    ``visible_to`` as for :class:`TerrainFeature`.
    """

    id: str
    kind: str
    ship_id: str | None = None
    due_turn: int | None = None
    data: dict[str, JSON] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SideInfo:
    """A side in the battle: key, display name and map colour (CSS hex)."""

    key: str
    name: str
    colour: str = "#888888"


@dataclass(frozen=True, slots=True, kw_only=True)
class BattleState:
    """The whole state of a battle between two phases.

    ``turn`` counts from 1; ``phase`` is the index into the rule set's phase plan for that turn
    (:meth:`rules.base.RuleSet.phase_plan`). ``initiative`` holds the sides in the order they act this
    turn, when the rule set rolls for it. ``options`` are campaign settings (for example the Ultra
    Simple belt-armour option). ``finished`` is set when the battle is over; ``winner`` names the side,
    if any.
    """

    ruleset: str
    turn: int = 1
    phase: int = 0
    map: MapSpec
    sides: tuple[SideInfo, ...]
    ships: tuple[ShipState, ...]
    conditions: Conditions = field(default_factory=Conditions)
    terrain: tuple[TerrainFeature, ...] = ()
    pending: tuple[PendingEffect, ...] = ()
    initiative: tuple[str, ...] = ()
    options: dict[str, JSON] = field(default_factory=dict)
    extra: dict[str, JSON] = field(default_factory=dict)
    finished: bool = False
    winner: str | None = None

    def replace(
        self,
        *,
        ruleset: str = _KEEP,
        turn: int = _KEEP,
        phase: int = _KEEP,
        map: MapSpec = _KEEP,
        sides: tuple[SideInfo, ...] = _KEEP,
        ships: tuple[ShipState, ...] = _KEEP,
        conditions: Conditions = _KEEP,
        terrain: tuple[TerrainFeature, ...] = _KEEP,
        pending: tuple[PendingEffect, ...] = _KEEP,
        initiative: tuple[str, ...] = _KEEP,
        options: dict[str, JSON] = _KEEP,
        extra: dict[str, JSON] = _KEEP,
        finished: bool = _KEEP,
        winner: str | None = _KEEP,
    ) -> BattleState:
        """Return a copy with the fields given changed: ``dataclasses.replace(self, ...)``, faster (as
        :meth:`ShipState.replace`: the slots copied directly, without the generic field loop and the keyword
        unpacking of a class call; the engine and rule sets rebuild the state several times a phase)."""
        new: Any = _STATE_TWIN()  # plain stores, then the class (as Event.__init__)
        new.ruleset = self.ruleset if ruleset is _KEEP else ruleset
        new.turn = self.turn if turn is _KEEP else turn
        new.phase = self.phase if phase is _KEEP else phase
        new.map = self.map if map is _KEEP else map
        new.sides = self.sides if sides is _KEEP else sides
        new.ships = self.ships if ships is _KEEP else ships
        new.conditions = self.conditions if conditions is _KEEP else conditions
        new.terrain = self.terrain if terrain is _KEEP else terrain
        new.pending = self.pending if pending is _KEEP else pending
        new.initiative = self.initiative if initiative is _KEEP else initiative
        new.options = self.options if options is _KEEP else options
        new.extra = self.extra if extra is _KEEP else extra
        new.finished = self.finished if finished is _KEEP else finished
        new.winner = self.winner if winner is _KEEP else winner
        new.__class__ = BattleState
        state: BattleState = new
        return state

    def ship(self, ship_id: str) -> ShipState:
        """Return the ship with this id; raise KeyError if there is none."""
        return _ship_index(self.ships)[ship_id]

    def ship_map(self) -> dict[str, ShipState]:
        """Return the ships keyed by id, in a new dict the caller may change."""
        return dict(_ship_index(self.ships))

    def with_ships(self, ships: dict[str, ShipState]) -> BattleState:
        """Return a copy with ships replaced by those in ``ships`` (by id), order kept."""
        return replace(self, ships=tuple(ships.get(s.id, s) for s in self.ships))

    def side_keys(self) -> tuple[str, ...]:
        """Return the keys of the sides in the battle."""
        return tuple([s.key for s in self.sides])  # (a list, not a generator: asked for every shot)

    def side_names(self) -> dict[str, str]:
        """Return each side's display name (as the log names it) by key; the key for a side without a name."""
        return {s.key: s.name or s.key for s in self.sides}


_INDEX_CACHE: dict[int, tuple[tuple[ShipState, ...], dict[str, ShipState]]] = memo.table({})
_INDEX_CACHE_SIZE = 8


def _ship_index(ships: tuple[ShipState, ...]) -> dict[str, ShipState]:
    """Return ``ships`` keyed by id, remembered for the last few tuples of ships (never to be changed).

    Rule sets look ships up by id many times a phase; the tuple is immutable, so its index can be kept. An
    entry holds the tuple itself, so its id() cannot be reused while the entry lives.
    """
    entry = _INDEX_CACHE.get(id(ships))
    if entry is not None and entry[0] is ships:
        return entry[1]
    index = {s.id: s for s in ships}
    if len(_INDEX_CACHE) >= _INDEX_CACHE_SIZE:
        _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)), None)
    _INDEX_CACHE[id(ships)] = (ships, index)
    return index


@dataclass(frozen=True, slots=True, kw_only=True)
class ShipOrder:
    """The orders of one ship for one phase.

    ``data`` is the rule set's order payload (its order types say which keys it takes; see
    ``RuleSet.order_types``). ``default`` is True when the order was filled in because the player
    gave none (A7); the log says so.
    """

    ship_id: str
    data: dict[str, JSON] = field(default_factory=dict)
    default: bool = False


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Roll:
    """One die rolled: its kind (``D6``, ``D20``, ``AVG``, ``D100``, ``MEMOIR``), the value, and what for."""

    die: str
    value: int
    purpose: str = ""

    def __init__(self, *, die: str, value: int, purpose: str = "") -> None:
        # Written out (the dataclass's own frozen __init__ is slower): a 200-ship phase rolls thousands.
        _ROLL_SET[0](self, die)
        _ROLL_SET[1](self, value)
        _ROLL_SET[2](self, purpose)


@dataclass(frozen=True, slots=True, kw_only=True)
class Modifier:
    """One modifier applied to a roll or a number of dice, with the rule it comes from."""

    label: str
    value: float


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Event:
    """Something that happened in a phase, as the turn log shows it.

    ``kind`` is a stable code (``move``, ``fire``, ``hit``, ``damage``, ``sunk``, ``initiative``...).
    ``rolls`` carries every die rolled for it, ``modifiers`` the modifiers applied, ``needed`` the
    number the roll had to reach, ``outcome`` a short result (``hit``, ``miss``, ``sunk``...).
    ``visible_to`` is None when every side may see the event, else the sides that may (A2); the
    umpire sees everything. ``data`` and what it holds are read-only, like a ship's sheet's nested values: a
    rule set may give one dict to several events (sail_1700's damage-chart data, a ship's point).
    """

    kind: str
    text: str
    turn: int
    phase: int = 0
    ship_id: str | None = None
    target_id: str | None = None
    rolls: tuple[Roll, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    needed: int | None = None
    outcome: str = ""
    data: dict[str, JSON] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None

    def __init__(
        self,
        *,
        kind: str,
        text: str,
        turn: int,
        phase: int = 0,
        ship_id: str | None = None,
        target_id: str | None = None,
        rolls: tuple[Roll, ...] = (),
        modifiers: tuple[Modifier, ...] = (),
        needed: int | None = None,
        outcome: str = "",
        data: dict[str, JSON] | None = None,
        visible_to: tuple[str, ...] | None = None,
    ) -> None:
        # Written out (the dataclass's own frozen __init__ is slower): a 200-ship phase logs thousands.
        # The stores go to the slots while the object is of its mutable twin class (same slots, plain
        # ``__setattr__``): twelve plain stores cost less than twelve descriptor calls (see _slot_twin).
        # ``data`` left out is a new empty dict, as the field's default_factory makes it.
        data = {} if data is None else data
        if self.__class__ is not Event:  # a subclass: its layout may differ from the twin's
            values = (kind, text, turn, phase, ship_id, target_id, rolls, modifiers, needed, outcome, data)
            for set_slot, value in zip(_EVENT_SET, (*values, visible_to), strict=True):
                set_slot(self, value)
            return
        _set_class(self, _EVENT_TWIN)
        me: Any = self
        me.kind = kind
        me.text = text
        me.turn = turn
        me.phase = phase
        me.ship_id = ship_id
        me.target_id = target_id
        me.rolls = rolls
        me.modifiers = modifiers
        me.needed = needed
        me.outcome = outcome
        me.data = data
        me.visible_to = visible_to
        me.__class__ = Event


def _slot_setters(cls: type) -> tuple[Callable[[object, object], None], ...]:
    """Return the setters of a frozen slotted dataclass's fields, in field order, for a written-out __init__.

    Each is the slot's own descriptor ``__set__``: it stores the value without the frozen ``__setattr__``.
    """
    return tuple(getattr(cls, f.name).__set__ for f in fields(cls))


_set_class: Callable[[object, type], None] = object.__dict__["__class__"].__set__
"""Set an object's class (``object.__class__``'s setter): a frozen dataclass's ``__setattr__`` forbids it."""


def _slot_twin(cls: type) -> type:
    """Return a mutable twin of the frozen slotted dataclass ``cls``, to build one in: a subclass of ``cls``
    with no slots of its own, the plain ``__setattr__`` and ``__delattr__`` and object's ``__init__`` (calling
    it makes an empty object).

    An object of ``cls`` is given the twin's class, its slots stored by plain attribute stores (which the
    interpreter specialises for slots, unlike the descriptor calls the frozen ``__setattr__`` leaves), and
    given back ``cls``. Python allows the class change because the twin adds nothing to the layout of ``cls``;
    and as a subclass of ``cls`` it is checked without a comparison of the two classes' slot names, which a
    separate class with the same slots needs (~300 instructions less each change). A value stored is the
    very object given, so nothing differs once the object is ``cls`` again.
    """
    twin = type(
        f"_{cls.__name__}Slots",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__init__": object.__init__,
        },
    )
    probe: object = _new(cls)
    _set_class(probe, twin)  # raises TypeError should the layouts ever differ
    _set_class(probe, cls)
    return twin


_ROLL_SET = _slot_setters(Roll)
_EVENT_SET = _slot_setters(Event)
_SHIP_SET = _slot_setters(ShipState)
_EVENT_TWIN = _slot_twin(Event)
_SHIP_TWIN = _slot_twin(ShipState)
_STATE_TWIN = _slot_twin(BattleState)
_POINT_TWIN = _slot_twin(Point)


def new_event(
    kind: str,
    text: str,
    turn: int,
    phase: int,
    ship_id: str | None,
    target_id: str | None,
    rolls: tuple[Roll, ...],
    modifiers: tuple[Modifier, ...],
    needed: int | None,
    outcome: str,
    data: dict[str, JSON],
    visible_to: tuple[str, ...] | None,
) -> Event:
    """Return ``Event(kind=kind, text=text, ...)`` from every field, given by position, in field order.

    The same object as :class:`Event`'s own ``__init__`` builds (stored in the twin class, then given back
    ``Event``), without the keyword call: a class called with keywords packs them into a dict and unpacks it
    again for its ``__init__``, which costs more than the stores (a 200-ship phase logs hundreds of events).
    For rule sets' hottest loops; ``data`` is required here (pass ``{}`` for none).
    """
    me: Any = _EVENT_TWIN()
    me.kind = kind
    me.text = text
    me.turn = turn
    me.phase = phase
    me.ship_id = ship_id
    me.target_id = target_id
    me.rolls = rolls
    me.modifiers = modifiers
    me.needed = needed
    me.outcome = outcome
    me.data = data
    me.visible_to = visible_to
    me.__class__ = Event
    event: Event = me
    return event


def new_point(x: float, y: float) -> Point:
    """Return ``Point(x=x, y=y)``: the same object, built as :func:`new_event` builds an event (stored in
    the twin class, then given back ``Point``), without the keyword call to the class
    (:func:`rules.geometry.advance` makes a point for every move)."""
    me: Any = _POINT_TWIN()
    me.x = x
    me.y = y
    me.__class__ = Point
    point: Point = me
    return point


def ship_after(
    ship: ShipState,
    position: Position,
    heading: float,
    speed: float,
    status: ShipStatus,
    flags: tuple[str, ...],
    sheet: dict[str, JSON],
) -> ShipState:
    """Return ``ship.replace(position=..., heading=..., speed=..., status=..., flags=..., sheet=...)``: a ship
    after a phase, every changing field given by position (its other fields kept).

    The same object as :meth:`ShipState.replace` builds, without the keyword call and the tests of the fields
    left out: a rule set rebuilds every ship of a 200-ship battle at the end of a phase.
    """
    new: Any = _SHIP_TWIN()
    new.id = ship.id
    new.name = ship.name
    new.side = ship.side
    new.class_name = ship.class_name
    new.position = position
    new.heading = heading
    new.speed = speed
    new.status = status
    new.flags = flags
    new.offset = ship.offset
    new.stats = ship.stats
    new.sheet = sheet
    new.__class__ = ShipState
    out: ShipState = new
    return out


_NO_ARG = object()
"""Default of a written-out __init__'s parameter whose field has a default_factory: the factory is called."""


_TWIN_MIN_FIELDS = 6
"""From this many fields, a written-out __init__ stores them in the class's twin (:func:`_slot_twin`): two
class changes cost less than that many descriptor calls."""


def _use_slot_init(cls: type) -> None:
    """Give a frozen slotted keyword-only dataclass an __init__ that stores through its slots' descriptors.

    The generated one has the dataclass's own signature, defaults and default factories (mypy still checks
    calls against the dataclass's); only the stores differ: each field is set by its slot's ``__set__``
    instead of ``object.__setattr__(self, name, value)``, which looks the name up again (or, for a class of
    many fields, by plain stores while the object is of its twin class). ``ShipState`` and
    ``BattleState`` are built thousands of times a phase, directly and by :func:`dataclasses.replace`
    (which calls ``__init__``), in every rule set.
    """
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__: keep the dataclass's own __init__")
    ns: dict[str, object] = {"_NO_ARG": _NO_ARG, "_cls": cls, "_set_class": _set_class}
    params: list[str] = []
    body: list[str] = []
    plain: list[str] = []
    for i, f in enumerate(fields(cls)):
        if not (f.init and f.kw_only):
            raise TypeError(f"{cls.__name__}.{f.name}: only keyword-only init fields are supported")
        ns[f"_set{i}"] = getattr(cls, f.name).__set__
        value = f.name
        if f.default_factory is not MISSING:
            ns[f"_factory{i}"] = f.default_factory
            params.append(f"{f.name}=_NO_ARG")
            value = f"_factory{i}() if {f.name} is _NO_ARG else {f.name}"
        elif f.default is not MISSING:
            ns[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        else:
            params.append(f.name)
        body.append(f"    _set{i}(self, {value})")
        plain.append(f"        self.{f.name} = {value}")
    if len(plain) >= _TWIN_MIN_FIELDS:
        # many fields: stored as Event.__init__ does, in the twin class (a subclass keeps the setters)
        ns["_twin"] = _slot_twin(cls)
        fast = ["    if self.__class__ is _cls:", "        _set_class(self, _twin)", *plain]
        body = [*fast, "        self.__class__ = _cls", "        return", *body]
    src = f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
    exec(src, ns)
    init = ns["__init__"]
    assert callable(init)
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    init.__annotations__ = dict(cls.__init__.__annotations__)  # type: ignore[misc]
    cls.__init__ = init  # type: ignore[misc]


for _cls in (Point, Hex, ShipState, BattleState, ShipOrder, Modifier, PendingEffect):
    _use_slot_init(_cls)


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseResult:
    """What resolving one phase produced: the new state, the events in order, and every die rolled."""

    state: BattleState
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseSpec:
    """One phase of a turn (A1): its name and the sides that give orders for it."""

    name: str
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldSpec:
    """One field of a ship-class schema or an order form.

    ``type`` is ``int``, ``float``, ``str``, ``bool``, ``choice`` or ``rows`` (a list of inline rows,
    each described by ``fields``). ``unit`` names the unit (``inches``, ``knots``, ``tons``...).
    ``default_text`` says in words what the default means where it stands for something (ww2_jackson's
    torpedo mount ``-1``: "every loaded mount that bears"); ``needs`` names the field this one is read with
    (a torpedo mount with the torpedo target): where that one is empty or at its default, this one says
    nothing. Both are for pages that show an order (battles/display.py); the rules do not read them.
    """

    name: str
    label: str
    type: Literal["int", "float", "str", "bool", "choice", "rows"]
    required: bool = True
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    help: str = ""
    default: JSON = None
    fields: tuple[FieldSpec, ...] = ()
    default_text: str = ""
    needs: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderType:
    """An order type a rule set accepts: its key (the key in ``ShipOrder.data``), label and fields."""

    key: str
    label: str
    fields: tuple[FieldSpec, ...] = ()
    help: str = ""


FieldErrors = dict[str, list[str]]
"""Errors keyed by field name (``__all__`` for errors of the whole object)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderErrors:
    """Errors in a side's orders, per ship and field.

    ``invalid`` are malformed orders (unknown ship, wrong types, missing keys); ``illegal`` are orders
    the rules forbid (speed above what the damaged ship can make, a target out of arc or range, a
    sunk or enemy ship, a forbidden turn). Both map ship id -> field -> messages.
    """

    invalid: dict[str, FieldErrors] = field(default_factory=dict)
    illegal: dict[str, FieldErrors] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Return True when there are no errors at all."""
        return not self.invalid and not self.illegal

    def for_ship(self, ship_id: str) -> FieldErrors:
        """Return every error for one ship, invalid and illegal together."""
        out: FieldErrors = {}
        for src in (self.invalid, self.illegal):
            for fname, msgs in src.get(ship_id, {}).items():
                out.setdefault(fname, []).extend(msgs)
        return out
