"""``acw_river`` (seed ``002_715b56be87dfc13d.txt``, ACW riverine hex rules), with rulings A01-A14, NW-ACW-*.

Turn (A1): one phase, all sides. Each side rolls a D6, high moves first (re-roll ties); the ships move in
initiative order, one at a time, rams, collisions, groundings and mines resolved as they happen; then every
vessel, battery and fort fires, all at once: damage is applied after all fire, so a vessel lost to gunfire
this turn still fires.

Geometry: flat-topped hexes, 12 facings (hex sides and corners, headings in steps of 30 degrees). A vessel
of ``hexes`` > 1 occupies its bow hex and the hexes astern of it; ranges are taken between the nearest
occupied hexes (A14). Default map 24 x 18 (A3).

Movement (section 3, A08, A09): ``course`` letters ``F`` (one hex in the direction of travel), ``L`` /
``R`` (30 degrees to port / starboard), in either case, nothing else (NW-ACW-20). The move costs its
forward hexes plus the turning cost of the sum of its turns: 0-60 degrees free, 61-90 1 hex, 91-120 2,
121-150 3, 151-180 4 (NW-ACW-02). Ahead the vessel has Speed Forward hexes, astern (``astern: true``)
Speed Back; the move that switches the engines loses a hex (A09, NW-ACW-03). While moving astern each
gunfire hit removes 2 points (A09).

Fire (sections 4-5, A04-A07, A11, NW-ACW-01): four arcs (front and rear within 60 degrees of bow and
stern, port and starboard sides), each firing its Firepower in D6 once a turn at one target in it. 5-6 hits
at 1-7 hexes, 6 only at 8-10 (A05). Each 6 against a vessel is confirmed by a second die: 6 = the vessel is
lost, 2 or 4 = an ordinary hit, odd = ricochet (A06); once 3/4 of its resistance is gone any 6 destroys it
(A07). Each hit removes 1 resistance point; at 0 the vessel is lost (A11). Naval fire at a battery or fort
removes 2 points a hit (A13, option ``land_fire_multiplier``); batteries and forts fire at the nearest enemy
vessel they can hurt (field artillery cannot hurt chain-armoured or ironclad vessels) (NW-ACW-07).

Ramming and collision (sections 6-8, A10, NW-ACW-04/05/06): ``ram: <ship id>`` steers the vessel for the
target as it moves. A ram needs the movement to cross the target's hex and strikes its flank: two dice
multiplied are the target's loss, the ram loses 2 per odd die, and must reverse engines to draw off. Any
other vessel may collide: the difference of two dice (nothing against a higher resistance class), the
attacker loses 1 if the target is armoured, and the target turns 60 degrees towards the attacker's course,
running aground on the first shore hex ahead within its speed.

Grounding (section 9): a vessel whose course enters a shore hex runs aground there (deliberately, to avoid
being blown up, or carried by a collision): -2 resistance, no more movement, fires again from the turn
after. A grounded vessel may be captured by troops: an umpire action, :func:`capture_grounded` in
:mod:`.umpire`.

Mines (section 10, A12): terrain ``mine`` hidden from all but the side that laid it. An enemy vessel entering
the hex makes the miner roll a D6: even, the mine detonates (option ``mine_effect``: the vessel is lost, or
loses ``mine_damage`` points); odd, it is washed to the surface, visible to all, where gunfire detonates it on
a 5 or 6.

Class stats JSON (``ShipState.stats``)::

    {"type": "heavily_armored", "protection": "ironclad", "ram": false, "speed_forward": 2, "speed_back": 1,
     "fire_front": 2, "fire_side": 2, "fire_rear": 2, "resistance": 24, "hexes": 1, "troops": 0}

``type`` one of the seed's seven rows (``tables.SHIP_TYPES``); ``protection`` ``ironclad`` / ``chain`` /
``unprotected`` (defaults to the type's); ``ram`` the vessel mounts a ram (defaults to the type's);
speeds in hexes; firepower in D6; ``hexes`` 1-3 (A14); ``troops`` figures embarked (line 82).

Sheet JSON (``ShipState.sheet``, filled by ``setup``)::

    {"resistance": 24, "lost": 0, "speed_forward": 2, "speed_back": 1, "astern": false, "aground": false,
     "aground_turn": null, "embedded_in": null, "struck_turn": null, "loaded": null, "troops": 0}

``resistance`` is the power of resistance at the start (changed only by unloading a transport), ``lost`` the
points lost (remaining = resistance - lost), ``speed_forward`` / ``speed_back`` the current speeds (a
transport's change when it unloads), ``astern`` the engines are reversed, ``aground`` / ``aground_turn``
grounded and when, ``embedded_in`` the ship a ram's bow is in (it must reverse to draw off),
``struck_turn`` the turn it was last rammed, ``loaded`` true / false for transports (null otherwise),
``troops`` figures aboard. Opponents see ``{"lost": n}`` (A2). Visible flags: ``aground``, ``astern``,
``sinking``, ``captured``, ``blown_up``.

Order JSON (``ShipOrder.data``), every key optional::

    {"course": "FFRF", "astern": false, "ram": "<ship id>", "fire_front": "<target id>",
     "fire_port": "<target id>", "fire_starboard": "<target id>", "fire_rear": "<target id>"}

Fire targets are ship ids, or the ``id`` of a battery, a fort or a surfaced mine.

Terrain (``BattleState.terrain``, placed by the umpire, A3): ``land`` (no vessel may enter), ``shore``
(a vessel entering runs aground), ``battery`` / ``fort`` with props ``{"id", "side", "dice", "resistance",
"lost", "heavy", "range", "name"}`` (``heavy`` false = field artillery; forts default heavy), ``mine`` with
props ``{"id", "side", "surfaced"}`` and ``visible_to`` the laying side until it surfaces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from ... import memo
from ...arcs import ArcSpec
from ...base import (
    DefaultPolicy,
    RuleSet,
    SheetKind,
    course_text,
    plural,
    roll_initiative,
    scored_visibility,
    sheet_kind_errors,
    tally_shown,
)
from ...dice import Dice
from ...geometry import hex_distance, is_facing, norm_deg, on_hex_map, turn_between
from ...hints import FieldHint
from ...model import (
    JSON,
    BattleState,
    Event,
    FieldErrors,
    FieldSpec,
    Hex,
    Modifier,
    OrderType,
    PhaseResult,
    Roll,
    ShipOrder,
    ShipState,
    ShipStatus,
    TerrainFeature,
    new_event,
)
from . import tables as T
from .arcs import ship_arcs
from .hints import ship_hints
from .movement import (
    _ARC_MEMO,
    Pose,
    arc_of_target,
    course_cost,
    course_error,
    footprint,
    movement_points,
    nearest_distance,
    plan_ram,
    reachable,
    step_ahead,
    step_astern,
    turn,
)

ARCS: tuple[str, ...] = ("front", "port", "starboard", "rear")
FIRE_FIELDS: dict[str, str] = {a: f"fire_{a}" for a in ARCS}
_ARC_FIELDS: tuple[tuple[str, str], ...] = tuple(FIRE_FIELDS.items())
"""(arc, order field) of each arc, in the order of ARCS."""
_POINTS_PER_HIT_ASTERN: int = T.REVERSING["points_per_hit_astern"]
"""Points a gunfire hit removes from a vessel going astern (A09)."""
_SWITCH_COST: int = T.REVERSING["switch_cost_hexes"]
"""Hexes lost by the move that switches the engines (A09, NW-ACW-03)."""
ASTERN_PENALTY = 0.5
"""What the automatic captain (A7) gives up to move astern, where each gunfire hit costs 2 points (A09)."""

CLASS_SCHEMA: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="type",
        label="Type",
        type="choice",
        choices=tuple(T.SHIP_TYPES),
        default="unarmored_gunboat",
        help="The seed's ship type table (lines 17-25).",
    ),
    FieldSpec(
        name="protection",
        label="Protection class",
        type="choice",
        required=False,
        choices=tuple(T.PROTECTION_CLASSES),
        help="Ironclad, chain-armoured or unprotected (section 2); defaults to the type's.",
    ),
    FieldSpec(
        name="ram",
        label="Mounts a ram",
        type="bool",
        required=False,
        help="Rams ram (section 8); other vessels collide (section 7). Defaults to the type's.",
    ),
    FieldSpec(name="speed_forward", label="Speed forward", type="int", min=0, max=8, unit="hexes"),
    FieldSpec(name="speed_back", label="Speed back", type="int", min=0, max=8, unit="hexes"),
    FieldSpec(name="fire_front", label="Firepower front", type="int", min=0, max=8, unit="D6"),
    FieldSpec(name="fire_side", label="Firepower each side", type="int", min=0, max=8, unit="D6"),
    FieldSpec(name="fire_rear", label="Firepower rear", type="int", min=0, max=8, unit="D6"),
    FieldSpec(
        name="resistance",
        label="Resistance",
        type="int",
        min=1,
        max=60,
        unit="points",
        help="Hits the vessel can take (section 5; A11: lost at 0).",
    ),
    FieldSpec(
        name="hexes",
        label="Length",
        type="int",
        required=False,
        min=1,
        max=T.MAX_SHIP_HEXES,
        default=1,
        unit="hexes",
        help="Vessels may occupy one or more hexes (line 1, A14).",
    ),
    FieldSpec(
        name="troops",
        label="Troops embarked",
        type="int",
        required=False,
        min=0,
        max=40,
        default=0,
        unit="figures",
        help="Add 1 point per figure when the vessel is stormed aground (line 82).",
    ),
)

ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        key="move",
        label="Movement",
        help="Course letters: F = one hex (ahead, or astern with engines reversed), L / R = 30-degree turn. "
        "Turning: 0-60 degrees in the move free, 61-90 costs 1 hex, 91-120 2, 121-150 3, 151-180 4 "
        "(section 3, A08). Reversing engines costs 1 hex, then Speed Back applies (A09).",
        fields=(
            FieldSpec(name="course", label="Course", type="str", required=False, max=24, default=""),
            FieldSpec(name="astern", label="Engines astern", type="bool", required=False, default=False),
        ),
    ),
    OrderType(
        key="ram",
        label="Ram / collide",
        help="Steer for an enemy vessel and strike it this move if it can be reached (sections 6-8). "
        "Give no course with it.",
        fields=(FieldSpec(name="ram", label="Ram target", type="str", required=False, max=64),),
    ),
    OrderType(
        key="fire",
        label="Gunfire",
        help="Each arc fires its dice at one target in that arc after movement: ships, batteries, forts, "
        "surfaced mines (section 4, A04, A05). Any enemy in reach may be named for any arc: the move may "
        "bring her into it, and a target the move carries into another arc is fired at by that arc if it "
        "has guns and no target of its own (NW-ACW-10).",
        fields=tuple(
            FieldSpec(name=FIRE_FIELDS[a], label=f"Target {a}", type="str", required=False, max=64)
            for a in ARCS
        ),
    ),
)

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="mine_effect",
        label="Effect of a mine detonation",
        type="choice",
        required=False,
        choices=("lost", "resistance"),
        default="lost",
        help="A12: the vessel is lost (default), or loses the points below.",
    ),
    FieldSpec(
        name="mine_damage",
        label="Resistance lost to a mine",
        type="int",
        required=False,
        min=1,
        max=60,
        default=12,
        unit="points",
        help="Used when the mine effect is 'resistance' (A12).",
    ),
    FieldSpec(
        name="land_fire_multiplier",
        label="Naval fire at land targets: points per hit",
        type="int",
        required=False,
        min=1,
        max=4,
        default=T.LAND_FIRE_MULTIPLIER,
        help="Line 44: double the effectiveness of field artillery (A13).",
    ),
)


# --- pure helpers -------------------------------------------------------------------------------


def to_hit(range_hexes: int) -> int | None:
    """Return the lowest D6 score that hits at a range in hexes, or None beyond 10 hexes (A05)."""
    if 0 <= range_hexes < len(_TO_HIT):
        return _TO_HIT[range_hexes]
    if range_hexes < 0:
        return None
    for limit, needed in T.RANGE_TABLE:
        if range_hexes <= limit:
            return needed
    return None


_TO_HIT: tuple[int | None, ...] = tuple(
    next((needed for limit, needed in T.RANGE_TABLE if r <= limit), None) for r in range(T.MAX_RANGE + 2)
)
"""The score needed at each range from 0 to one beyond the longest, from ``T.RANGE_TABLE``."""


_FACING_TEXT: dict[float, str] = {float(d): f"{float(d):g}" for d in range(30, 360, 30)}
"""``f"{h:g}"`` of each facing but 0 (whose text depends on the sign of a zero), for the move events."""
_NUM_TEXT: tuple[str, ...] = tuple(str(v) for v in range(max(7, T.MAX_RANGE + 1)))
"""``str(v)`` of each score a D6 can show and each range a gun reaches (from 0), for the fire events
(hundreds a phase)."""
_NUM_TEXT_SIZE = len(_NUM_TEXT)


def no_confirm_threshold(resistance: int) -> int:
    """Return the points lost from which a 6 destroys the vessel without confirmation (A07)."""
    return T.NO_CONFIRM_LOST.get(resistance, math.ceil(T.NO_CONFIRM_FRACTION * resistance - 1e-9))


def ram_result(d1: int, d2: int) -> tuple[int, int]:
    """Return (target's loss, ram's own loss) for a ram's two dice (section 8): product; 2 per odd die."""
    odd = (d1 % 2) + (d2 % 2)
    return d1 * d2, cast(int, T.RAM["self_loss_per_odd_die"]) * odd


def collision_result(d1: int, d2: int, attacker_protection: str, target_protection: str) -> tuple[int, int]:
    """Return (target's loss, attacker's loss) for a collision by a vessel without a ram (section 7, A10).

    The difference of the dice, none against a higher resistance class; the attacker loses 1 if the
    target is armoured (lightly or heavily).
    """
    rank_a = cast(int, T.PROTECTION_CLASSES[attacker_protection]["rank"])
    rank_t = cast(int, T.PROTECTION_CLASSES[target_protection]["rank"])
    loss = 0 if rank_t > rank_a else abs(d1 - d2)
    own = 1 if T.PROTECTION_CLASSES[target_protection]["armored"] else 0
    return loss, own


def struck_heading(target_heading: float, attacker_heading: float) -> float:
    """Return the heading of a vessel struck by a gunboat: 60 degrees towards the attacker's course
    (line 62). Already on the attacker's course: unchanged; exactly opposite: to starboard."""
    d = turn_between(target_heading, attacker_heading)
    if abs(d) < 1e-6:
        return norm_deg(target_heading)
    return norm_deg(target_heading + (60.0 if d > 0 else -60.0))


def _num(v: JSON, default: float = 0.0) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def _int(v: JSON, default: int = 0) -> int:
    if type(v) is int and -_EXACT_INT <= v <= _EXACT_INT:
        return v  # what int(float(v)) gives, without the two conversions
    return int(_num(v, default))


_EXACT_INT = 2**53
"""Integers up to this size go through a float unchanged."""


def type_row(stats: Mapping[str, JSON]) -> dict[str, object]:
    """Return the seed table row of a class's type (unarmored gunboat if unknown)."""
    return T.SHIP_TYPES.get(str(stats.get("type")), T.SHIP_TYPES["unarmored_gunboat"])


def protection_of(stats: Mapping[str, JSON]) -> str:
    """Return the protection class of a class: its own, else its type's (section 2)."""
    p = stats.get("protection")
    return str(p) if isinstance(p, str) and p in T.PROTECTION_CLASSES else str(type_row(stats)["protection"])


def is_ram(stats: Mapping[str, JSON]) -> bool:
    """Return True if the class mounts a ram: its own flag, else its type's (line 11)."""
    r = stats.get("ram")
    return r if isinstance(r, bool) else bool(type_row(stats)["ram"])


def fire_dice(ship: ShipState, arc: str) -> int:
    """Return the D6 an arc fires (A04): front, either side (``fire_side``), rear."""
    return _int(ship.stats.get(FIRE_STATS.get(arc) or f"fire_{arc}"))


FIRE_STATS: dict[str, str] = {
    "front": "fire_front",
    "port": "fire_side",
    "starboard": "fire_side",
    "rear": "fire_rear",
}
"""The class stat of each arc's firepower (A04)."""


def arc_dice(stats: Mapping[str, JSON]) -> dict[str, int]:
    """Return arc -> the D6 it fires (A04), as :func:`fire_dice` gives them, from a class's stats."""
    front, side, rear = stats.get("fire_front"), stats.get("fire_side"), stats.get("fire_rear")
    if (
        type(front) is int
        and type(side) is int
        and type(rear) is int
        and -_EXACT_INT <= front <= _EXACT_INT
        and -_EXACT_INT <= side <= _EXACT_INT
        and -_EXACT_INT <= rear <= _EXACT_INT
    ):  # what _int gives each of them (min() and max() would cost more than the comparisons)
        return {"front": front, "port": side, "starboard": side, "rear": rear}
    return {"front": _int(front), "port": _int(side), "starboard": _int(side), "rear": _int(rear)}


def ship_length(stats: Mapping[str, JSON]) -> int:
    """Return the hexes a vessel of these stats occupies (A14): the ``hexes`` stat, 1 when absent."""
    return _int(stats.get("hexes"), 1)


@dataclass(frozen=True, slots=True)
class ClassFacts:
    """The figures of a class that fall back on its type's row, read once from its stats JSON (a stat read
    straight from the stats, such as the length or the firepower, costs no more than a look-up here)."""

    ram: bool
    """The vessel mounts a ram (:func:`is_ram`, line 11)."""
    protection: str
    """Protection class (:func:`protection_of`, section 2)."""


def class_facts(stats: Mapping[str, JSON]) -> ClassFacts:
    """Return the :class:`ClassFacts` of a class's stats, remembered by the stats object (by identity), and
    shared by value between stats objects alike.

    A ship's stats are not changed during a battle (a transport that unloads gets a new sheet, not new
    stats). An entry by identity holds the stats object itself, so its id() cannot be reused while the
    entry lives. A state read from JSON gives every ship her own stats dict: the facts are then found by
    the stats they are read from (:data:`_FACT_STATS`), each value with its type, so that a hit is what
    reading the facts again gives (``1``, ``1.0`` and ``True`` are equal in Python but read differently).
    """
    hit = _FACTS_CACHE.get(id(stats))
    if hit is not None and hit[0] is stats:
        return hit[1]
    values = tuple(map(stats.get, _FACT_STATS))
    key = (values, tuple(map(type, values)))
    try:
        facts = _FACTS_BY_VALUE.get(key)
    except TypeError:  # a value that does not hash (a list, a dict): read the facts, do not share them
        facts = _read_facts(stats)
    else:
        if facts is None:
            facts = _read_facts(stats)
            if len(_FACTS_BY_VALUE) > 256:
                _FACTS_BY_VALUE.clear()
            _FACTS_BY_VALUE[key] = facts
    if len(_FACTS_CACHE) > 2048:
        _FACTS_CACHE.clear()
    _FACTS_CACHE[id(stats)] = (stats, facts)
    return facts


def _read_facts(stats: Mapping[str, JSON]) -> ClassFacts:
    """Return the :class:`ClassFacts` read from a class's stats (only the stats in :data:`_FACT_STATS`)."""
    return ClassFacts(ram=is_ram(stats), protection=protection_of(stats))


_FACT_STATS = ("ram", "protection", "type")
"""The stats :func:`_read_facts` reads (``ram`` and ``protection`` fall back on ``type``'s row)."""

_FACTS_CACHE: dict[int, tuple[Mapping[str, JSON], ClassFacts]] = memo.table({})
_FACTS_BY_VALUE: dict[tuple[tuple[JSON, ...], tuple[type, ...]], ClassFacts] = memo.table({})
"""Facts by the values (and their types) of :data:`_FACT_STATS` read from the stats."""


def pose_of(ship: ShipState) -> Pose:
    """Return the ship's (bow hex, heading, offset)."""
    assert isinstance(ship.position, Hex)
    return ship.position, ship.heading, ship.offset


def hexes_of(ship: ShipState) -> list[Hex]:
    """Return the hexes the ship occupies (A14)."""
    return list(ship_hexes(ship))


def ship_hexes(ship: ShipState) -> tuple[Hex, ...]:
    """Return the hexes the ship occupies (A14), as :func:`hexes_of` but a tuple that may be shared."""
    length = _int(ship.stats.get("hexes"), 1)  # ship_length, written out
    if length <= 1:
        bow = ship.position
        assert isinstance(bow, Hex)
        return (bow,)  # pose_of(ship)[0]
    hit = _HEXES_CACHE.get(id(ship))
    if hit is not None and hit[0] is ship:
        return hit[1]
    out = tuple(footprint(pose_of(ship), length))
    if len(_HEXES_CACHE) > 2048:
        _HEXES_CACHE.clear()
    _HEXES_CACHE[id(ship)] = (ship, out)
    return out


_HEXES_CACHE: dict[int, tuple[ShipState, tuple[Hex, ...]]] = memo.table({})
"""Footprints by ShipState (immutable) of vessels longer than a hex: fire, arcs and order checks ask for each
ship's many times a phase. An entry holds the ship itself, so its id() cannot be reused while the entry
lives."""


def hex_gap(a: Sequence[Hex], b: Sequence[Hex]) -> int:
    """Return the distance in hexes between the nearest hexes of two footprints (A14), as
    :func:`.movement.nearest_distance`, one-hex vessels first."""
    if len(a) == 1 and len(b) == 1:
        x, y = a[0], b[0]
        dq = x.q - y.q
        dr = x.r - y.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    return nearest_distance(a, b)


def aim(pose: Pose, mine: Sequence[Hex], target: Sequence[Hex]) -> tuple[int, str]:
    """Return (range, arc) of a target from a vessel at ``pose`` occupying ``mine``: the range in hexes
    between the nearest occupied hexes (A14), and the arc (:func:`.movement.arc_of_target`, A04) of the
    target's hex nearest the bow (ties: lowest q, then r)."""
    bow = pose[0]
    if len(target) == 1:
        near = target[0]
        if len(mine) == 1:
            x = mine[0]
            dq = x.q - near.q
            dr = x.r - near.r
            rng = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        else:
            rng = nearest_distance(mine, target)
    else:
        near = min(target, key=lambda h: (hex_distance(bow, h), h.q, h.r))
        rng = nearest_distance(mine, target)
    return rng, arc_of_target(pose, near)


def _err(errors: FieldErrors, key: str, msg: str) -> None:
    """Add ``msg`` to the errors of field ``key``."""
    errors.setdefault(key, []).append(msg)


def _beyond_reach(gap: int, slack: int) -> str | None:
    """Return why a target ``gap`` hexes away cannot be fired at even after ``slack`` hexes of movement of
    both (A05: 10 hexes at most), or None."""
    if gap > T.MAX_RANGE + slack:
        return f"Target {gap} hexes away: beyond 10 hexes even after moving (A05)."
    return None


def _same_float(value: float, other: float) -> bool:
    """Return True if ``value`` is the float ``other``, sign of zero included (stored as is, never
    rewritten)."""
    return type(value) is float and value == other and math.copysign(1.0, value) == math.copysign(1.0, other)


def remaining(ship: ShipState) -> int:
    """Return the resistance points the vessel has left (section 5)."""
    return _int(ship.sheet.get("resistance"), 1) - _int(ship.sheet.get("lost"))


_GRID_CELL = T.MAX_RANGE + 1
"""Side of the squares (in q and r) of :meth:`AcwRiver._ship_grid`: a hex within the longest range of another
(A05) is at most that many hexes from it in q and in r."""
_GridEntry = tuple[int, str, str, tuple[Hex, ...]]
"""A vessel in a square of :meth:`AcwRiver._ship_grid`: her index in the ships, side, id and hexes."""
_GRID_CACHE: dict[int, tuple[tuple[ShipState, ...], dict[tuple[int, int], list[_GridEntry]]]] = memo.table({})


# --- per-phase context -----------------------------------------------------------------------------


_Sight = tuple[int, str]
"""The (range in hexes, arc) of a target from a vessel (:func:`aim`)."""
_Indexed = tuple[ShipState, tuple[Hex, ...], int, dict[str, int]]
"""A ship of :meth:`AcwRiver._ship_index`: the ship, her hexes (:func:`ship_hexes`), her Speed Forward, the D6
each arc fires (:func:`arc_dice`)."""


@dataclass(slots=True)
class _Ctx:
    """Mutable working copy of one phase's resolution (never escapes resolve_phase)."""

    state: BattleState
    dice: Dice
    ships: dict[str, ShipState]
    terrain: list[TerrainFeature]
    events: list[Event] = field(default_factory=list)
    land: frozenset[Hex] = frozenset()
    """Hexes no vessel may enter: land, batteries, forts (:meth:`AcwRiver._fixed_terrain`)."""
    shore: frozenset[Hex] = frozenset()
    """Shore hexes (section 9)."""
    occ: dict[tuple[int, int], str] = field(default_factory=dict)
    """(q, r) of each hex -> id of the vessel afloat there (keyed by coordinates: a tuple of two ints hashes
    in C, a Hex in Python, and the occupancy is asked about thousands of times a phase)."""
    hexes: dict[str, tuple[Hex, ...]] = field(default_factory=dict)
    """The hexes each ship in ``ships`` occupies (:func:`ship_hexes`), kept in step by :meth:`put`."""
    mine_hexes: frozenset[Hex] = frozenset()
    """Hexes with a mine at the start of the phase (mines go, none comes, during a phase)."""
    turn: int = 0
    """The turn resolved (``state.turn``)."""
    known: Mapping[str, _Indexed] = field(default_factory=dict)
    """Footprints already worked out (:meth:`AcwRiver._ship_index`), used for the ships they belong to."""
    rolls: list[Roll] = field(default_factory=list)
    """``dice.rolls``, read once: the recorder's own list of the rolls made, which grows as the dice fall."""
    points: dict[str, int] = field(default_factory=dict)
    """Fire (A1: applied after all fire): resistance points each vessel loses to gunfire."""
    outright: dict[str, str] = field(default_factory=dict)
    """Fire: vessels lost outright to a lucky 6 (A06, A07), and by whose fire."""
    land_points: dict[str, int] = field(default_factory=dict)
    """Fire: points each battery or fort loses (A13)."""
    land_scorers: dict[str, set[str]] = field(default_factory=dict)
    """Fire: the sides whose hits a battery or fort takes (A2, NW-CAMP-15: who sees its damage report)."""
    mines_hit: set[str] = field(default_factory=set)
    """Fire: surfaced mines detonated by gunfire (section 10)."""

    def __post_init__(self) -> None:
        self.turn = self.state.turn
        self.rolls = self.dice.rolls
        self.mine_hexes = frozenset(cast(Hex, t.position) for t in self.terrain if t.kind == "mine")
        for s in self.ships.values():
            entry = self.known.get(s.id)
            if entry is not None and entry[0] is s:
                hexes = entry[1]
            else:
                hexes = ship_hexes(s) if isinstance(s.position, Hex) else ()
            self.hexes[s.id] = hexes
            if s.status == "active":
                for h in hexes:
                    self.occ[h.q, h.r] = s.id

    def put(self, ship: ShipState) -> None:
        """Store a changed ship, keeping the occupancy map in step (sunk or gone ships leave it)."""
        sid = ship.id
        occ = self.occ
        old_hexes = self.hexes.get(sid, ())
        old = self.ships.get(sid)
        self.ships[sid] = ship
        afloat = ship.status == "active"
        if (
            afloat
            and old is not None
            and old_hexes
            and old.position is ship.position
            and old.heading == ship.heading
            and old.offset == ship.offset
            and old.stats is ship.stats
        ):
            # not moved, still afloat: the same footprint, hers (what clearing and claiming it comes to)
            for h in old_hexes:
                occ[h.q, h.r] = sid
            return
        for h in old_hexes:
            key = (h.q, h.r)
            if occ.get(key) == sid:
                del occ[key]
        pos = ship.position
        if len(old_hexes) == 1 and old is not None and old.stats is ship.stats and isinstance(pos, Hex):
            hexes: tuple[Hex, ...] = (pos,)  # a one-hex vessel still: what ship_hexes gives her
        else:
            hexes = ship_hexes(ship)
        self.hexes[sid] = hexes
        if afloat:
            for h in hexes:
                occ[h.q, h.r] = sid

    def taken(self, h: Hex, me: str) -> bool:
        """Return True if another vessel afloat occupies hex ``h`` (NW-ACW-08)."""
        sid = self.occ.get((h.q, h.r))
        return sid is not None and sid != me and self.ships[sid].status == "active"

    def feature(self, fid: str) -> TerrainFeature | None:
        """Return the battery, fort or mine with this id, if still on the map."""
        for t in self.terrain:
            if t.kind in ("battery", "fort", "mine") and t.props.get("id") == fid:
                return t
        return None


ACW_SHEET_KINDS: dict[str, SheetKind] = {
    "resistance": "whole",
    "lost": "whole",
    "speed_forward": "whole",
    "speed_back": "whole",
    "troops": "whole",
    "astern": "bool",
    "aground": "bool",
    "aground_turn": "whole?",
    "struck_turn": "whole?",
    "embedded_in": "ship?",
}
"""What each entry of the sheet holds (the module docstring's Sheet JSON; ``loaded`` is checked apart)."""


class AcwRiver(RuleSet):
    """ACW riverine hex rules: gunboats, rams, ironclads, transports and mortar boats (seed 002)."""

    key = "acw_river"
    title = "American Civil War river rules (hex)"
    version = "1.0"
    source = "seeds/002_715b56be87dfc13d.txt"
    geometry = "hex12"
    unit = "hexes"
    dice = ("D6",)
    order_types = ORDER_TYPES
    terrain_kinds = ("land", "shore", "battery", "fort", "mine")
    impassable_terrain = ("land", "battery", "fort")
    options = OPTIONS
    default_map = (24, 18)
    course_fields = ("course",)  # written in capitals when saved and resolved (NW-ACW-21)
    # NW-CAMP-17: carried (damage and losses): resistance, lost, speed_forward, speed_back, loaded, troops. A
    # new battle starts afresh (the new sheet's value, or the scenario's): engines ahead, afloat, no ram's bow
    # embedded, and no turn of the last battle.
    battle_only_sheet_keys = ("astern", "aground", "aground_turn", "embedded_in", "struck_turn")

    def __init__(self) -> None:
        self._terrain_cache: dict[int, tuple[tuple[TerrainFeature, ...], frozenset[Hex], frozenset[Hex]]] = (
            memo.table({})
        )
        self._occ_cache: tuple[tuple[ShipState, ...], dict[Hex, str]] | None = None
        self._index_cache: tuple[tuple[ShipState, ...], dict[str, _Indexed]] | None = None

    # --- ship classes ----------------------------------------------------------------------------

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return CLASS_SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        errors: FieldErrors = {}
        if _int(stats.get("speed_back")) > _int(stats.get("speed_forward")):
            errors.setdefault("speed_back", []).append(
                "Speed back cannot exceed speed forward (lines 17-25)."
            )
        typ = str(stats.get("type"))
        prot = protection_of(stats)
        if typ in ("lightly_armored", "heavily_armored") and prot == "unprotected":
            errors.setdefault("protection", []).append(
                "An armoured type needs chain armour or an ironclad's."
            )
        unarmoured = typ.startswith("unarmored") or typ in (
            "mortar_boat",
            "transport_empty",
            "transport_loaded",
        )
        if unarmoured and prot == "ironclad":
            errors.setdefault("protection", []).append("An unarmoured type cannot be an ironclad.")
        if typ == "transport_empty" and _int(stats.get("troops")):
            errors.setdefault("troops", []).append("An empty transport carries no troops.")
        return errors

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        res = _int(stats.get("resistance"), 1)
        return {
            "protection": protection_of(stats),
            "ram": is_ram(stats),
            "no_confirmation_after_lost": no_confirm_threshold(res),
            "stormed_as": str(T.PROTECTION_CLASSES[protection_of(stats)]["stormed_as"]),
        }

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        """Return one class per row of the seed's ship type table (lines 17-25)."""
        out: list[dict[str, JSON]] = []
        for key, row in T.SHIP_TYPES.items():
            stats: dict[str, JSON] = {
                "type": key,
                "protection": str(row["protection"]),
                "ram": bool(row["ram"]),
            }
            for f in ("speed_forward", "speed_back", "fire_front", "fire_side", "fire_rear", "resistance"):
                stats[f] = cast(int, row[f])
            stats["hexes"] = 1
            stats["troops"] = 0
            out.append(
                {
                    "key": f"acw_{key}",
                    "name": str(row["name"]),
                    "nation": "",
                    "type": key,
                    "stats": stats,
                    "source": "seed 002 ship type table, lines 17-25 (A03: Heavily Armored 24 as printed)",
                    "heuristic": False,
                }
            )
        return tuple(out)

    # --- set-up --------------------------------------------------------------------------------------

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        ships = []
        for s in state.ships:
            if not isinstance(s.position, Hex):
                raise TypeError(f"{s.name}: acw_river needs hex positions")
            if not is_facing(s.heading, 12):
                raise ValueError(
                    f"{s.name}: heading {s.heading} is not a hex facing (multiples of 30 degrees)"
                )
            typ = str(s.stats.get("type"))
            sheet = dict(s.sheet)
            sheet.setdefault("resistance", _int(s.stats.get("resistance"), 1))
            sheet.setdefault("lost", 0)
            sheet.setdefault("speed_forward", _int(s.stats.get("speed_forward")))
            sheet.setdefault("speed_back", _int(s.stats.get("speed_back")))
            sheet.setdefault("astern", False)
            sheet.setdefault("aground", False)
            sheet.setdefault("aground_turn", None)
            sheet.setdefault("embedded_in", None)
            sheet.setdefault("struck_turn", None)
            sheet.setdefault("loaded", (typ == "transport_loaded") if typ.startswith("transport") else None)
            sheet.setdefault("troops", _int(s.stats.get("troops")))
            flags = set(s.flags)
            if sheet["astern"]:
                flags.add("astern")
            if sheet["aground"]:
                flags.add("aground")
            ships.append(
                replace(
                    s,
                    sheet=sheet,
                    heading=norm_deg(s.heading),
                    flags=tuple(sorted(flags)),
                    speed=float(min(int(s.speed), _int(sheet["speed_forward"]))),
                )
            )
        return replace(state, ships=tuple(ships)), ()

    def _opt(self, state: BattleState, name: str) -> JSON:
        for spec in OPTIONS:
            if spec.name == name:
                return state.options.get(name, spec.default)
        raise KeyError(name)

    # --- queries ----------------------------------------------------------------------------------

    def _free_fn(
        self, state: BattleState, mover: ShipState, *, avoid_shore: bool = True
    ) -> Callable[[Hex], bool]:
        """Return whether ``mover`` may enter a hex: on the map, not land, a battery or a fort, no other
        vessel afloat there (NW-ACW-08) and, unless ``avoid_shore`` is false, not a shore hex."""
        land, shore = self._fixed_terrain(state.terrain)
        occ = self._occupancy(state.ships)
        w, h = state.map.width, state.map.height
        me = mover.id

        def free(x: Hex) -> bool:
            if x in land or (avoid_shore and x in shore):
                return False
            sid = occ.get(x)
            return (sid is None or sid == me) and on_hex_map(x, w, h)

        return free

    def _ship_index(self, ships: tuple[ShipState, ...]) -> dict[str, _Indexed]:
        """Return ship id -> (the first ship with that id, her hexes (:func:`ship_hexes`), her Speed Forward,
        her arcs' D6 (:func:`arc_dice`)), remembered for the last ships tuple seen (order checks look every
        target up; the phase reads the firepower of every ship that has not changed class)."""
        hit = self._index_cache
        if hit is not None and hit[0] is ships:
            return hit[1]
        index: dict[str, _Indexed] = {}
        for s in ships:
            sid = s.id
            if sid in index:
                continue
            pos = s.position
            stats = s.stats
            length = stats.get("hexes")
            if not isinstance(pos, Hex):
                hexes: tuple[Hex, ...] = ()
            elif length is None or (length <= 1 if type(length) is int else _int(length, 1) <= 1):
                hexes = (pos,)  # what ship_hexes gives a one-hex vessel (ship_length, written out)
            else:
                hexes = ship_hexes(s)
            speed = s.sheet.get("speed_forward")
            if type(speed) is not int or not -_EXACT_INT <= speed <= _EXACT_INT:
                speed = _int(speed)
            index[sid] = (s, hexes, speed, arc_dice(stats))
        self._index_cache = (ships, index)
        return index

    def _occupancy(self, ships: tuple[ShipState, ...]) -> dict[Hex, str]:
        """Return hex -> id of the vessel afloat there, remembered for the last ships tuple seen."""
        hit = self._occ_cache
        if hit is not None and hit[0] is ships:
            return hit[1]
        occ: dict[Hex, str] = {}
        for s in ships:
            if s.active:
                for x in ship_hexes(s):
                    occ[x] = s.id
        self._occ_cache = (ships, occ)
        return occ

    def _fixed_terrain(self, terrain: tuple[TerrainFeature, ...]) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """Return the hexes no vessel may enter (land, batteries, forts) and the shore hexes.

        They do not change during a battle (only mines come and go), so the sets are remembered for the
        last few terrain tuples seen (by identity; the tuple is kept, so the identity cannot be reused).
        """
        hit = self._terrain_cache.get(id(terrain))
        if hit is not None and hit[0] is terrain:
            return hit[1], hit[2]
        land = frozenset(cast(Hex, t.position) for t in terrain if t.kind in ("land", "battery", "fort"))
        shore = frozenset(cast(Hex, t.position) for t in terrain if t.kind == "shore")
        if len(self._terrain_cache) > 8:
            self._terrain_cache.clear()
        self._terrain_cache[id(terrain)] = (terrain, land, shore)
        return land, shore

    def embedded_target(self, state: BattleState, ship: ShipState) -> ShipState | None:
        """Return the vessel the ram's bow is in (it must reverse to draw off, section 8), if still there."""
        tid = ship.sheet.get("embedded_in")
        if not tid:
            return None
        ships = state.ship_map()
        t = ships.get(str(tid))
        if t is None or not t.active or nearest_distance(ship_hexes(ship), ship_hexes(t)) > 1:
            return None
        return t

    def move_points(self, ship: ShipState, astern: bool) -> int:
        """Return the hexes the ship may spend this move ahead or astern (A09, NW-ACW-03)."""
        return movement_points(
            _int(ship.sheet.get("speed_forward")),
            _int(ship.sheet.get("speed_back")),
            astern,
            bool(ship.sheet.get("astern")),
        )

    def ram_reach(self, ship: ShipState) -> int | None:
        """Return the farthest gap in hexes (nearest occupied hexes, A14) from which the vessel can ram this
        move, or None if she mounts no ram: her movement ahead (A09: less a hex if her engines are astern)
        less the 2 hexes she must have in hand to cross the enemy's hex (line 68), plus the hex of contact."""
        if not is_ram(ship.stats):
            return None
        need = cast(int, T.RAM["hexes_needed_beyond_contact"])
        return self.move_points(ship, False) - need + 1

    def target_of(self, state: BattleState, target_id: str) -> ShipState | TerrainFeature | None:
        """Return the ship or the battery, fort or mine with this id."""
        entry = self._ship_index(state.ships).get(target_id)
        if entry is not None:
            return entry[0]
        for t in state.terrain:
            if t.kind in ("battery", "fort", "mine") and t.props.get("id") == target_id:
                return t
        return None

    # --- orders -----------------------------------------------------------------------------------

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        # Written for speed (every order of a phase is checked while it is resolved): no closure, each
        # sheet value read once; the errors and their order are those of the checks one by one.
        errors: FieldErrors = {}
        data = order.data
        course = course_text(data.get("course"))  # in either case (NW-ACW-20)
        astern = bool(data.get("astern"))
        ram = data.get("ram")
        # something other than F, L, R somewhere: no course to cost or ram along, but the other fields are
        # checked as usual (NW-CAMP-30; the fire checks take the movement points, not the course)
        bad_course = bool(course.strip("FLR"))
        if bad_course:
            _err(errors, "course", course_error(course))
        sheet = ship.sheet
        known = self._index_cache  # self._ship_index(state.ships), its remembered index read in place
        index = known[1] if known is not None and known[0] is state.ships else self._ship_index(state.ships)
        own = index.get(ship.id)
        if own is None or own[0] is not ship:
            own = (ship, ship_hexes(ship), _int(sheet.get("speed_forward")), arc_dice(ship.stats))
        mp = 0
        aground_now = bool(sheet.get("aground"))
        was_astern = bool(sheet.get("astern"))
        if aground_now:
            if course or ram or astern != was_astern:
                _err(errors, "course", f"{ship.name} is aground and cannot move (section 9).")
        else:
            speed_back = _int(sheet.get("speed_back")) if astern else 0
            if astern and speed_back <= 0:
                _err(errors, "astern", f"{ship.name} has no speed astern (Speed Back 0).")
            embedded = self.embedded_target(state, ship) if sheet.get("embedded_in") else None
            if embedded is not None and not astern and (course or ram):
                _err(
                    errors,
                    "astern",
                    f"{ship.name}'s ram is in {embedded.name}: she must reverse engines to draw off "
                    "(section 8).",
                )
            # movement_points (self.move_points(ship, astern)), written out
            mp = speed_back if astern else own[2]
            if astern != was_astern:
                mp -= _SWITCH_COST
            if mp < 0:
                mp = 0
            if course and not bad_course and course_cost(course) > mp:
                rev_note = " after reversing engines (A09)" if astern != was_astern else ""
                _err(
                    errors,
                    "course",
                    f"The course costs {course_cost(course)} hexes (turning included, A08); "
                    f"{ship.name} has {mp} this move{rev_note}.",
                )
            if ram and not bad_course:
                self._check_ram(state, ship, course, astern, ram, errors)
        mp_any = 0 if aground_now else mp
        mine = own[1]
        dice = own[3]
        single = len(mine) == 1
        max_range = T.MAX_RANGE + mp_any
        side = ship.side
        for arc, key in _ARC_FIELDS:
            tid = data.get(key)
            if not tid:
                continue
            if dice[arc] <= 0:
                _err(errors, key, f"{ship.name} has no guns bearing {arc} (Firepower, A04).")
                continue
            entry = index.get(tid if type(tid) is str else str(tid))
            if entry is None:
                msg = self._target_error(state, ship, str(tid), mp_any, mine)
            else:  # a vessel: on the other side, afloat, and in reach after both move
                tgt, theirs, speed, _ = entry
                if tgt.side == side:
                    msg = f"{tgt.name} is on your side."
                elif tgt.status != "active":
                    msg = f"{tgt.name} is {tgt.status}."
                else:
                    if single and len(theirs) == 1:  # hex_gap of two one-hex vessels, written out
                        here, there = mine[0], theirs[0]
                        dq = here.q - there.q
                        dr = here.r - there.r
                        gap = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                    else:
                        gap = hex_gap(mine, theirs)
                    if gap <= max_range + speed:
                        continue  # _beyond_reach: in reach
                    msg = _beyond_reach(gap, mp_any + speed)
            if msg:
                _err(errors, key, msg)
        return errors

    def _check_ram(
        self, state: BattleState, ship: ShipState, course: str, astern: bool, ram: JSON, errors: FieldErrors
    ) -> None:
        """Add to ``errors`` what forbids ``ship``'s order to ram ``ram`` (sections 6-8)."""
        if course:
            _err(errors, "ram", "Give a course or a ram target, not both.")
        if astern:
            _err(errors, "ram", "A vessel rams going ahead, not astern.")
        tgt = state.ship_map().get(str(ram))
        if tgt is None:
            _err(errors, "ram", f"No ship {ram!r} in this battle.")
        elif tgt.side == ship.side:
            _err(errors, "ram", f"{tgt.name} is on your side.")
        elif not tgt.active:
            _err(errors, "ram", f"{tgt.name} is {tgt.status}.")
        else:
            gap = nearest_distance(ship_hexes(ship), ship_hexes(tgt))
            reach = self.move_points(ship, False) + _int(tgt.sheet.get("speed_forward"))
            if gap > reach:
                _err(errors, "ram", f"{tgt.name} is {gap} hexes away: out of reach this move.")

    def _target_error(
        self, state: BattleState, ship: ShipState, tid: str, mp: int, mine: tuple[Hex, ...]
    ) -> str | None:
        """Return why ``ship`` (on ``mine``, ``mp`` hexes to move) may not be ordered to fire at ``tid``,
        which is not a ship: a battery, a fort, a surfaced mine or nothing."""
        tgt = self.target_of(state, tid)
        if tgt is None:
            return f"No target {tid!r} in this battle."
        if isinstance(tgt, ShipState):
            if tgt.side == ship.side:
                return f"{tgt.name} is on your side."
            if tgt.status != "active":
                return f"{tgt.name} is {tgt.status}."
            gap = hex_gap(mine, ship_hexes(tgt))
            slack = mp + _int(tgt.sheet.get("speed_forward"))
        else:
            if tgt.visible_to is not None and ship.side not in tgt.visible_to:
                return f"No target {tid!r} in this battle."
            if tgt.kind == "mine" and not tgt.props.get("surfaced"):
                return "Only a mine washed to the surface can be fired at (section 10)."
            if tgt.kind != "mine" and tgt.props.get("side") == ship.side:
                return f"{tgt.props.get('name') or tid} is on your side."
            if tgt.kind != "mine" and self._silenced(tgt):
                return f"{tgt.props.get('name') or tid} is silenced."
            gap = min(hex_distance(h, cast(Hex, tgt.position)) for h in mine)
            slack = mp
        return _beyond_reach(gap, slack)

    @staticmethod
    def _silenced(t: TerrainFeature) -> bool:
        return _int(t.props.get("lost")) >= _int(t.props.get("resistance"), 1)

    # --- default orders (A7) ------------------------------------------------------------------------

    def _enemy_ships(self, state: BattleState, ship: ShipState) -> list[ShipState]:
        return [t for t in state.ships if t.side != ship.side and t.active]

    def _predict(self, state: BattleState, ship: ShipState, course: str, astern: bool) -> Pose:
        pose = pose_of(ship)
        for c in course:
            ahead = step_astern(pose) if astern else step_ahead(pose)
            pose = ahead if c == "F" else turn(pose, c)
        return pose

    def _keep_course(self, state: BattleState, ship: ShipState) -> dict[str, JSON]:
        """Keep course and speed (A7), stopping short of shore, land, ships and the map edge."""
        if ship.sheet.get("aground"):
            return {}
        astern = bool(ship.sheet.get("astern"))
        if self.embedded_target(state, ship) is not None and not astern:
            return {"course": "", "astern": False}
        mp = self.move_points(ship, astern)
        free = self._free_fn(state, ship)
        pose = pose_of(ship)
        n = 0
        length = ship_length(ship.stats)
        while n < min(int(ship.speed), mp):
            nxt = step_astern(pose) if astern else step_ahead(pose)
            if not all(free(h) for h in footprint(nxt, length)):
                break
            pose = nxt
            n += 1
        return {"course": "F" * n, "astern": astern}

    def _fire_choices(self, state: BattleState, ship: ShipState, pose: Pose) -> dict[str, JSON]:
        """Return, for each arc with guns, the nearest enemy in it within range from ``pose`` (ties: the
        lowest id), arcs in the order the enemies are first found in (ships in the state's order, then
        batteries and forts in the terrain's).

        Only the vessels in the squares of :meth:`_ship_grid` near ``pose`` are measured (the others are
        farther than the longest range), in the state's order, so the choice is that of a scan of them all.
        """
        out: dict[str, JSON] = {}
        length = ship_length(ship.stats)
        mine = footprint(pose, length)
        bow = pose[0]
        best: dict[str, tuple[int, str]] = {}
        dice = {arc: fire_dice(ship, arc) for arc in ARCS}
        grid = self._ship_grid(state.ships)
        reach = T.MAX_RANGE
        qs = [h.q for h in mine]
        rs = [h.r for h in mine]
        side = ship.side
        found: dict[int, tuple[str, tuple[Hex, ...]]] = {}
        for cq in range((min(qs) - reach) // _GRID_CELL, (max(qs) + reach) // _GRID_CELL + 1):
            for cr in range((min(rs) - reach) // _GRID_CELL, (max(rs) + reach) // _GRID_CELL + 1):
                for i, their_side, tid, hexes in grid.get((cq, cr), ()):
                    if their_side != side:
                        found[i] = (tid, hexes)
        candidates = [found[i] for i in sorted(found)]
        for t in state.terrain:
            if t.kind in ("battery", "fort") and t.props.get("side") != side and not self._silenced(t):
                candidates.append((str(t.props.get("id")), (cast(Hex, t.position),)))
        single = mine[0] if len(mine) == 1 else None
        heading = pose[1]
        for tid, hexes in candidates:
            if single is not None and len(hexes) == 1:  # hex_gap of two one-hex vessels, written out
                near = hexes[0]
                dq = single.q - near.q
                dr = single.r - near.r
                gap = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if gap > reach:
                    continue
            else:
                gap = hex_gap(mine, hexes)
                if gap > reach:
                    continue
                near = (
                    hexes[0]
                    if len(hexes) == 1
                    else min(hexes, key=lambda h: (hex_distance(bow, h), h.q, h.r))
                )
            known_arc = _ARC_MEMO.get((near.q - bow.q, near.r - bow.r, heading))
            arc = known_arc if known_arc is not None else arc_of_target(pose, near)
            if dice[arc] <= 0:
                continue
            key = (gap, tid)
            if arc not in best or key < best[arc]:
                best[arc] = key
        for arc, (_, tid) in best.items():
            out[FIRE_FIELDS[arc]] = tid
        return out

    def _ship_grid(self, ships: tuple[ShipState, ...]) -> dict[tuple[int, int], list[_GridEntry]]:
        """Return the squares of :data:`_GRID_CELL` x :data:`_GRID_CELL` hexes (q, r) -> the vessels afloat
        with a hex in the square (index in ``ships``, side, id, hexes), remembered for the last few ships
        tuples (by identity; the tuple is kept, so its id() cannot be reused while the entry lives)."""
        hit = _GRID_CACHE.get(id(ships))
        if hit is not None and hit[0] is ships:
            return hit[1]
        grid: dict[tuple[int, int], list[_GridEntry]] = {}
        for i, t in enumerate(ships):
            if not t.active or not isinstance(t.position, Hex):
                continue
            hexes = ship_hexes(t)
            entry = (i, t.side, t.id, hexes)
            for key in {(h.q // _GRID_CELL, h.r // _GRID_CELL) for h in hexes}:
                grid.setdefault(key, []).append(entry)
        if len(_GRID_CACHE) >= 8:
            _GRID_CACHE.clear()
        _GRID_CACHE[id(ships)] = (ships, grid)
        return grid

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """What in her sheet is not of the shape of the module docstring's Sheet JSON (docs/rulings.md
        NW-ACW-22): the counts whole numbers, the flags true or false, the turns whole or null, ``loaded``
        true or false for a transport and null for any other vessel, ``embedded_in`` another ship or null,
        and, afloat, no more points lost than her power of resistance."""
        sh = ship.sheet
        out = sheet_kind_errors(sh, ACW_SHEET_KINDS, ship.id, {s.id for s in state.ships})
        transport = str(ship.stats.get("type")).startswith("transport")
        if "loaded" in sh and (type(sh["loaded"]) is not bool if transport else sh["loaded"] is not None):
            out.append(
                "loaded must be true or false for a transport"
                if transport
                else "loaded must be null: she is no transport"
            )
        lost, resistance = sh.get("lost"), sh.get("resistance")
        if ship.status == "active" and type(lost) is int and type(resistance) is int and lost > resistance:
            out.append(f"lost ({lost}) must be at most her resistance ({resistance})")
        return out

    def top_speed(self, ship: ShipState) -> float | None:
        """Return her class's speed forward in hexes a turn (``speed_forward``, or her sheet's if more;
        NW-CAMP-29)."""
        return float(max(0, _int(ship.stats.get("speed_forward")), _int(ship.sheet.get("speed_forward"))))

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        data: dict[str, JSON] = self._keep_course(state, ship)
        if policy == "captain":
            data = self._captain_move(state, ship)
        if policy != "hold" and not (
            ship.sheet.get("aground") and ship.sheet.get("aground_turn") == state.turn
        ):
            if data.get("ram"):
                pose = pose_of(ship)
            else:
                pose = self._predict(state, ship, str(data.get("course") or ""), bool(data.get("astern")))
            data.update(self._fire_choices(state, ship, pose))
        order = ShipOrder(ship_id=ship.id, data=data)
        if self.check_order(state, ship, order):  # never hand out an illegal default
            data = {k: v for k, v in data.items() if not k.startswith("fire_")}
            order = ShipOrder(ship_id=ship.id, data=data)
            if self.check_order(state, ship, order):
                order = ShipOrder(
                    ship_id=ship.id,
                    data={"astern": bool(ship.sheet.get("astern"))} if not ship.sheet.get("aground") else {},
                )
        return order

    def _captain_move(self, state: BattleState, ship: ShipState) -> dict[str, JSON]:
        """A7's automatic captain: draw off after ramming, ram what can be reached, run aground when about to
        be lost, otherwise close to about 4 hexes with guns bearing, going ahead or astern (a vessel facing
        away from the enemy backs down on it, as the Memphis ironclads did)."""
        if ship.sheet.get("aground"):
            return {}
        enemies = self._enemy_ships(state, ship)
        if not enemies:
            return self._keep_course(state, ship)
        length = ship_length(ship.stats)
        was_astern = bool(ship.sheet.get("astern"))
        if self.embedded_target(state, ship) is not None:
            mp = self.move_points(ship, True)
            free = self._free_fn(state, ship)
            course = ""
            pose = pose_of(ship)
            for _ in range(mp):
                nxt = step_astern(pose)
                if not all(free(h) for h in footprint(nxt, length)):
                    break
                pose, course = nxt, course + "F"
            return {"course": course, "astern": True}
        here = pose_of(ship)
        my_hexes = ship_hexes(ship)
        near = sorted(enemies, key=lambda t: (nearest_distance(my_hexes, ship_hexes(t)), t.id))[:4]
        mp_ahead = self.move_points(ship, False)
        free = self._free_fn(state, ship)
        opts = reachable(here, mp_ahead, length, free)
        mine_now = ship_hexes(ship)
        wants_ram = is_ram(ship.stats) or (remaining(ship) > 6 and protection_of(ship.stats) != "unprotected")
        if wants_ram:
            for t in near:
                if nearest_distance(mine_now, ship_hexes(t)) > mp_ahead + 1:
                    continue
                ram_course = plan_ram(
                    here,
                    mp_ahead,
                    length,
                    free,
                    set(ship_hexes(t)),
                    t.heading,
                    need=2 if is_ram(ship.stats) else 1,
                    flank=is_ram(ship.stats),
                    options=opts,
                )
                if ram_course is not None:
                    return {"ram": t.id, "astern": False}
        if remaining(ship) <= 2:
            shore = self._fixed_terrain(state.terrain)[1]
            if shore:
                free_shore = self._free_fn(state, ship, avoid_shore=False)
                for pose, course in sorted(opts.items(), key=lambda pc: (len(pc[1]), pc[1])):
                    ahead = step_ahead(pose)[0]
                    if ahead in shore and free_shore(ahead) and course_cost(course + "F") <= mp_ahead:
                        return {"course": course + "F", "astern": False}
        dice_by_arc = {a: fire_dice(ship, a) for a in ARCS}
        i_ram = is_ram(ship.stats)
        # (hexes, how far an enemy ram can strike from, or None) of the nearest enemies, computed once
        near_data = [(ship_hexes(t), self.ram_reach(t)) for t in near]
        # Both ways: a vessel dropping down stern-first (the Memphis ironclads) closes the range by backing
        # on; the move that switches the engines loses a hex either way (A09, NW-ACW-03).
        choices: list[tuple[bool, dict[Pose, str]]] = [(False, opts)]
        if _int(ship.sheet.get("speed_back")) > 0:
            choices.append((True, reachable(here, self.move_points(ship, True), length, free, astern=True)))
        best: tuple[float, bool, str] | None = None
        for astern, options in choices:
            for pose, course in options.items():
                score = 0.25 * course.count("F")
                if astern:
                    score -= ASTERN_PENALTY  # A09: while astern every gunfire hit costs 2 points
                mine = footprint(pose, length)
                for i, (th, reach) in enumerate(near_data):
                    gap = nearest_distance(mine, th)
                    arc = arc_of_target(pose, min(th, key=lambda h: (hex_distance(pose[0], h), h.q, h.r)))
                    w = 1.0 if i == 0 else 0.3
                    if to_hit(gap) is not None:
                        score += w * dice_by_arc[arc] * (2.0 if gap <= 7 else 1.0)
                    if i_ram:
                        score -= w * gap
                    else:
                        score -= w * 0.3 * abs(gap - 4)
                    if reach is not None and gap <= reach and arc in ("port", "starboard"):
                        score -= 3.0  # never show a ram your flank (section 8, NW-ACW-05)
                # ties: keep the engines as they are (a switch loses a hex), then the first course
                key = (-score, astern != was_astern, course)
                if best is None or key < (-best[0], best[1] != was_astern, best[2]):
                    best = (score, astern, course)
        if best is None or not best[2]:
            return {"course": "", "astern": was_astern}
        return {"course": best[2], "astern": best[1]}

    # --- resolution --------------------------------------------------------------------------------

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        start = len(dice.rolls)
        land, shore = self._fixed_terrain(state.terrain)
        ctx = _Ctx(
            state=state,
            dice=dice,
            ships=state.ship_map(),
            terrain=list(state.terrain),
            land=land,
            shore=shore,
            known=self._ship_index(state.ships),
        )
        sides = [s for s in state.side_keys() if any(sh.side == s and sh.active for sh in state.ships)]
        # A1: initiative D6 per side, high moves first, re-roll ties.
        order_of_sides = roll_initiative(
            sides, dice, ctx.events, state.turn, high_first=True, rule="A1", names=state.side_names()
        )

        # Movement in initiative order, one ship at a time; rams, groundings and mines as they happen.
        ordered = [s.id for s in state.ships if s.id in orders]
        by_side: dict[str, list[str]] = {}
        for s in state.ships:
            if s.id in orders:
                by_side.setdefault(s.side, []).append(s.id)  # a ship's side never changes
        ships = ctx.ships
        for side in order_of_sides:
            for sid in by_side.get(side, ()):
                cur = ships[sid]
                if cur.status == "active":
                    self._move_ship(ctx, cur, orders[sid])

        # Fire, all at once: every hit is applied after all fire (A1), so the ships stay as they are until
        # _apply_fire (the points a target had lost before the fire are those on her sheet).
        known = ctx.known
        for sid in ordered:
            cur = ships[sid]
            if cur.status != "active":
                continue
            sheet = cur.sheet
            if sheet.get("aground") and sheet.get("aground_turn") == state.turn:
                continue  # section 9: fires again the turn after running aground
            entry = known.get(sid)
            guns = entry[3] if entry is not None and entry[0].stats is cur.stats else arc_dice(cur.stats)
            for arc, tid, sight in self._lay_guns(ctx, cur, orders[sid]):
                if sight is not None:
                    self._fire(ctx, cur, arc, tid, sight, guns[arc])
                else:
                    self._fire_elsewhere(ctx, cur, arc, tid)
        for t in list(ctx.terrain):
            if t.kind in ("battery", "fort") and not self._silenced(t):
                self._battery_fire(ctx, t)
        self._apply_fire(ctx)

        # A ram's bow stays in its target until it reverses (section 8): clear it when no longer in contact.
        for sid, s in list(ctx.ships.items()):
            if s.sheet.get("embedded_in") and self.embedded_target(state.with_ships(ctx.ships), s) is None:
                ctx.ships[sid] = replace(s, sheet={**s.sheet, "embedded_in": None})

        new = replace(  # state.with_ships(ctx.ships), with the terrain and initiative: one copy
            state,
            ships=tuple([ships.get(s.id, s) for s in state.ships]),
            terrain=tuple(ctx.terrain),
            initiative=tuple(order_of_sides),
        )
        return PhaseResult(state=new, events=tuple(ctx.events), rolls=tuple(ctx.rolls[start:]))

    # --- movement ------------------------------------------------------------------------------------

    def _lose(
        self,
        ctx: _Ctx,
        ship: ShipState,
        pts: int,
        why: str,
        *,
        lost_outright: bool = False,
        rolls: tuple[Roll, ...] = (),
    ) -> ShipState:
        """Apply a loss of resistance at once (movement step) and sink the vessel at 0 (A11)."""
        lost = _int(ship.sheet.get("lost")) + pts
        ship = ship.replace(sheet={**ship.sheet, "lost": lost})
        left = _int(ship.sheet.get("resistance"), 1) - lost
        if pts:
            ctx.events.append(
                new_event(
                    "damage",
                    f"{ship.name} loses {pts} resistance point(s) ({why}): {max(left, 0)} left.",
                    ctx.turn,
                    0,
                    ship.id,
                    None,
                    (),
                    (),
                    None,
                    "",
                    {"points": pts, "lost": lost, "remaining": max(left, 0)},
                    (ship.side,),
                )
            )
        if lost_outright or left <= 0:
            ship = self._sink(ctx, ship, why if lost_outright else f"resistance gone, A11 ({why})", rolls)
        ctx.put(ship)
        return ship

    def _sink(self, ctx: _Ctx, ship: ShipState, why: str, rolls: tuple[Roll, ...] = ()) -> ShipState:
        ctx.events.append(
            Event(
                kind="sunk",
                turn=ctx.turn,
                ship_id=ship.id,
                outcome="sunk",
                rolls=rolls,
                text=f"{ship.name} is lost: {why}.",
            )
        )
        return ship.replace(status="sunk", flags=tuple(sorted(set(ship.flags) | {"sinking"})))

    def _ground(self, ctx: _Ctx, ship: ShipState, where: Hex, why: str) -> ShipState:
        ship = replace(
            ship,
            position=where,
            sheet={**ship.sheet, "aground": True, "aground_turn": ctx.turn, "astern": False},
            flags=tuple(sorted((set(ship.flags) | {"aground"}) - {"astern"})),
            speed=0.0,
        )
        ctx.events.append(
            Event(
                kind="aground",
                turn=ctx.turn,
                ship_id=ship.id,
                outcome="aground",
                text=f"{ship.name} runs aground at ({where.q},{where.r}) ({why}; section 9: "
                f"-{T.AGROUND['resistance_lost']} resistance).",
            )
        )
        ctx.put(ship)
        return self._lose(ctx, ship, T.AGROUND["resistance_lost"], "running aground")

    def _move_ship(self, ctx: _Ctx, ship: ShipState, order: ShipOrder) -> None:
        sheet = ship.sheet
        if sheet.get("aground"):
            return
        data = order.data
        astern = bool(data.get("astern"))
        was = bool(sheet.get("astern"))
        ram_id = data.get("ram")
        course = course_text(data.get("course"))  # in either case (NW-ACW-20)
        sid = ship.id
        mine = ctx.hexes[sid]  # begins at her bow
        length = len(mine)  # ship_length(ship.stats) where it matters: more than one hex (footprint, A14)
        ram_target: ShipState | None = None
        note = ""
        if ram_id:
            astern = False
            length = ship_length(ship.stats)
            tgt = ctx.ships.get(str(ram_id))
            mp = self.move_points(ship, False)
            land_, shore_ = ctx.land, ctx.shore
            mw, mh = ctx.state.map.width, ctx.state.map.height

            def free(x: Hex) -> bool:
                return not (x in land_ or x in shore_ or ctx.taken(x, ship.id)) and on_hex_map(x, mw, mh)

            if tgt is not None and tgt.active:
                ram = class_facts(ship.stats).ram
                planned = plan_ram(
                    pose_of(ship),
                    mp,
                    length,
                    free,
                    set(ship_hexes(tgt)),
                    tgt.heading,
                    need=cast(int, (T.RAM if ram else T.COLLISION)["hexes_needed_beyond_contact"]),
                    flank=ram,
                )
                if planned is not None:
                    course, ram_target = planned, tgt
                else:
                    options = reachable(pose_of(ship), mp, length, free)
                    th = ship_hexes(tgt)
                    pick = min(
                        options.items(),
                        key=lambda pc: (
                            nearest_distance(footprint(pc[0], length), th),
                            course_cost(pc[1]),
                            pc[1],
                        ),
                    )
                    course = pick[1]
                    note = (
                        f"; cannot reach {tgt.name} to {'ram' if ram else 'collide'} this move: closes on her"
                    )
            else:
                note = "; ram target gone"
        switched = astern != was
        flags = ship.flags
        if len(flags) > 1 or ("astern" in flags) != astern:  # else already sorted, with "astern" if astern
            flag_set = set(flags) - {"astern"}
            if astern:
                flag_set.add("astern")
            flags = tuple(sorted(flag_set))
        # The new engines and flags go into the ship when she is next stored (none needed when unchanged).
        # She is stored where the move ends, or where a mine may lie (section 10), not at every hex: in
        # between only she asks about the hexes, and ctx.taken() ignores her own. Her hexes are claimed
        # now, as storing her with the new engines did.
        engines: tuple[dict[str, JSON], tuple[str, ...]] | None = None
        if not (
            sheet.get("astern") is astern
            and "astern" in sheet
            and (flags is ship.flags or flags == ship.flags)
        ):
            engines = ({**sheet, "astern": astern}, flags)
        occ = ctx.occ
        for h in mine:
            occ[h.q, h.r] = sid

        start_hex = mine[0]
        pose: Pose = (start_hex, ship.heading, ship.offset)  # pose_of(ship)
        path: list[JSON] = [{"q": start_hex.q, "r": start_hex.r}]
        land, shore = ctx.land, ctx.shore
        map_w, map_h = ctx.state.map.width, ctx.state.map.height
        taken = ctx.taken
        moved = 0
        ended = ""
        for c in course:
            if c in "LR":
                nxt_pose = turn(pose, c)
                if length > 1 and any(h in land or taken(h, sid) for h in footprint(nxt_pose, length)[1:]):
                    ended = "; stopped: no room to turn (NW-ACW-08)"
                    break
                old_pose, pose = pose, nxt_pose
                if length > 1 and ctx.mine_hexes:  # her stern swings onto new hexes (NW-ACW-17)
                    for h in self._entered(ctx, old_pose, pose, length):
                        ship = self._placed(ctx, sid, pose, engines)
                        engines = None
                        ctx.put(ship)
                        ship = self._mine_check(ctx, ship, h)
                        if not ship.active:
                            return
                continue
            nxt_pose = step_astern(pose) if astern else step_ahead(pose)
            bow = nxt_pose[0]
            if not on_hex_map(bow, map_w, map_h):
                ship = self._placed(ctx, sid, pose, engines, float(moved), "withdrawn")
                ctx.put(ship)
                ctx.events.append(
                    Event(
                        kind="move",
                        turn=ctx.turn,
                        ship_id=sid,
                        outcome="withdrawn",
                        text=f"{ship.name} leaves the map and the battle (NW-ACW-08).",
                        data={"path": path, "course": course, "default": order.default},
                    )
                )
                return
            if length > 1:
                blocked = any(h in land or taken(h, sid) for h in footprint(nxt_pose, length))
            else:
                blocked = bool(land and bow in land) or taken(bow, sid)
            if blocked:
                ended = "; stopped: next hex taken (NW-ACW-08)"
                break
            if shore and bow in shore:
                ship = self._placed(ctx, sid, pose, engines)
                path.append({"q": bow.q, "r": bow.r})
                ctx.events.append(
                    Event(
                        kind="move",
                        turn=ctx.turn,
                        ship_id=sid,
                        text=f"{ship.name} moves {course} onto the shore{note}.",
                        data={"path": path, "course": course, "default": order.default},
                    )
                )
                self._ground(ctx, ship, bow, "ordered onto the shore")
                return
            old_pose, pose = pose, nxt_pose
            moved += 1
            path.append({"q": bow.q, "r": bow.r})
            if ctx.mine_hexes:
                # section 10 "crosses the mined square": the hex her bow enters; a longer vessel's every new
                # hex (astern, her stern leads: NW-ACW-17)
                if length > 1:
                    entered = self._entered(ctx, old_pose, pose, length)
                else:
                    entered = [bow] if bow in ctx.mine_hexes else []
                for h in entered:
                    ship = self._placed(ctx, sid, pose, engines)
                    engines = None
                    ctx.put(ship)
                    ship = self._mine_check(ctx, ship, h)
                    if not ship.active:
                        return
        cur = ctx.ships[sid]
        if (
            engines is not None
            or pose[0] is not cur.position
            or pose[1] is not cur.heading
            or pose[2] is not cur.offset
            or not _same_float(cur.speed, float(moved))
        ):
            ship = self._placed(ctx, sid, pose, engines, float(moved))
            if moved or pose[0] is not cur.position or pose[1] != cur.heading or pose[2] != cur.offset:
                ctx.put(ship)
            else:  # where she was, afloat, her hexes claimed above: what ctx.put comes to
                ctx.ships[sid] = ship
        else:
            ship = cur  # the same ship in every field: storing her again would change nothing
        rev = " (engines reversed: -1 hex, A09)" if switched else ""
        heading = _FACING_TEXT.get(pose[1]) or f"{pose[1]:g}"
        ctx.events.append(
            new_event(
                "move",
                f"{ship.name} {'backs' if astern else 'moves'} {course or '(stays)'}{rev} to "
                f"({pose[0].q},{pose[0].r}) heading {heading}{note}{ended}.",
                ctx.turn,
                0,
                sid,
                None,
                (),
                (),
                None,
                "",
                {
                    "path": path,
                    "course": course,
                    "heading": pose[1],
                    "astern": astern,
                    "default": order.default,
                },
                None,
            )
        )
        if ram_target is not None and not ended and ram_target.active and ctx.ships[ram_target.id].active:
            self._ram(ctx, ctx.ships[ship.id], ctx.ships[ram_target.id])

    @staticmethod
    def _entered(ctx: _Ctx, before: Pose, after: Pose, length: int) -> list[Hex]:
        """Return the mined hexes a vessel of ``length`` hexes enters going from ``before`` to ``after``:
        those of her new footprint that were not in her old one (A14, NW-ACW-17), bow first."""
        old = footprint(before, length)
        return [h for h in footprint(after, length) if h in ctx.mine_hexes and h not in old]

    @staticmethod
    def _placed(
        ctx: _Ctx,
        sid: str,
        at: Pose,
        engines: tuple[dict[str, JSON], tuple[str, ...]] | None,
        speed: float | None = None,
        status: ShipStatus | None = None,
    ) -> ShipState:
        """Return ``ctx.ships``' copy of ship ``sid`` at pose ``at``, with ``engines`` (the sheet and flags of
        her new engine setting, A09) if given, and ``speed`` and ``status`` if given."""
        cur = ctx.ships[sid]
        sheet, flags = (cur.sheet, cur.flags) if engines is None else engines
        return cur.replace(
            sheet=sheet,
            flags=flags,
            position=at[0],
            heading=at[1],
            offset=at[2],
            speed=cur.speed if speed is None else speed,
            status=cur.status if status is None else status,
        )

    def _mine_check(self, ctx: _Ctx, ship: ShipState, at: Hex) -> ShipState:
        """Section 10: an enemy entering a mined hex makes the miner roll: even detonates, odd surfaces."""
        for i, t in enumerate(ctx.terrain):
            if t.kind != "mine" or t.position != at or t.props.get("side") == ship.side:
                continue
            miner = str(t.props.get("side"))
            mid = str(t.props.get("id"))
            first = len(ctx.rolls)
            v = ctx.dice.roll("D6", f"mine {mid} under {ship.name} (rolled by {miner})")
            rolls = tuple(ctx.rolls[first:])
            if v % 2 == 0:
                del ctx.terrain[i]
                effect = str(self._opt(ctx.state, "mine_effect"))
                ctx.events.append(
                    Event(
                        kind="mine",
                        turn=ctx.turn,
                        ship_id=ship.id,
                        rolls=rolls,
                        needed=2,
                        outcome="detonated",
                        text=f"A mine explodes under {ship.name} (D6 {v}, even: detonates, section 10).",
                        data={"mine": mid, "effect": effect},
                    )
                )
                ship = replace(ship, flags=tuple(sorted(set(ship.flags) | {"blown_up"})))
                ctx.put(ship)
                if effect == "lost":
                    ship = self._sink(ctx, ship, "blown up by a mine (A12)", rolls)
                    ctx.put(ship)
                    return ship
                return self._lose(ctx, ship, _int(self._opt(ctx.state, "mine_damage"), 12), "mine, A12")
            ctx.terrain[i] = replace(t, visible_to=None, props={**t.props, "surfaced": True})
            ctx.events.append(
                Event(
                    kind="mine",
                    turn=ctx.turn,
                    ship_id=ship.id,
                    rolls=rolls,
                    needed=2,
                    outcome="surfaced",
                    text=f"A mine is washed to the surface beside {ship.name} (D6 {v}, odd; "
                    f"gunfire detonates it on 5-6, section 10).",
                    data={"mine": mid, "q": at.q, "r": at.r},
                )
            )
            return ship
        return ship

    def _ram(self, ctx: _Ctx, rammer: ShipState, target: ShipState) -> None:
        """Resolve a ram (section 8) or a collision by a vessel without one (section 7, A10)."""
        first = len(ctx.rolls)
        ram = class_facts(rammer.stats).ram
        d1 = ctx.dice.roll("D6", f"{rammer.name} {'rams' if ram else 'collides with'} {target.name}")
        d2 = ctx.dice.roll("D6", f"{rammer.name} {'rams' if ram else 'collides with'} {target.name}")
        rolls = tuple(ctx.rolls[first:])
        if ram:
            loss, own = ram_result(d1, d2)
            text = (
                f"{rammer.name} rams {target.name} in the flank: {d1} x {d2} = {loss} point(s); "
                f"the ram loses {own} ({(d1 % 2) + (d2 % 2)} odd die/dice x 2, section 8)."
            )
            mods: tuple[Modifier, ...] = ()
        else:
            pa, pt = class_facts(rammer.stats).protection, class_facts(target.stats).protection
            loss, own = collision_result(d1, d2, pa, pt)
            mods = tuple(
                m
                for m in (
                    Modifier(
                        label=f"{target.name} is of a higher resistance class ({pt}): no loss (A10)", value=0
                    )
                    if loss == 0 and abs(d1 - d2)
                    else None,
                    Modifier(label=f"{target.name} is armoured: attacker loses 1 (section 7)", value=-1)
                    if own
                    else None,
                )
                if m is not None
            )
            text = (
                f"{rammer.name} collides with {target.name}: |{d1} - {d2}| = {abs(d1 - d2)} -> "
                f"{loss} point(s); {rammer.name} loses {own} (section 7)."
            )
        ctx.events.append(
            Event(
                kind="ram" if ram else "collision",
                turn=ctx.turn,
                ship_id=rammer.id,
                target_id=target.id,
                rolls=rolls,
                modifiers=mods,
                outcome="hit" if loss else "no_damage",
                text=text,
                data={"dice": [d1, d2], "target_loss": loss, "own_loss": own},
                # A2, NW-CAMP-15: a ram's or collision's damage is a hit: the two sides' (every side's if two)
                visible_to=scored_visibility(rammer.side, target.side, ctx.state.side_keys()),
            )
        )
        target = replace(target, sheet={**target.sheet, "struck_turn": ctx.turn})
        ctx.put(target)
        if ram:
            ctx.ships[rammer.id] = replace(rammer, sheet={**rammer.sheet, "embedded_in": target.id})
        else:
            new_heading = struck_heading(target.heading, rammer.heading)
            if new_heading != target.heading:
                target = replace(
                    target,
                    heading=new_heading,
                    offset=1 if turn_between(target.heading, new_heading) > 0 else 0,
                )
                ctx.put(target)
                ctx.events.append(
                    Event(
                        kind="turned",
                        turn=ctx.turn,
                        ship_id=target.id,
                        text=f"{target.name} is turned 60 degrees to {new_heading:g} towards "
                        f"{rammer.name}'s course (line 62).",
                    )
                )
        target = self._lose(
            ctx, ctx.ships[target.id], loss, f"{'rammed' if ram else 'collision'} by {rammer.name}"
        )
        self._lose(ctx, ctx.ships[rammer.id], own, f"{'ramming' if ram else 'colliding with'} {target.name}")
        if not ram and target.active and not target.sheet.get("aground"):
            self._carried_aground(ctx, target)

    def _carried_aground(self, ctx: _Ctx, ship: ShipState) -> None:
        """NW-ACW-06: a vessel turned by a collision runs aground on the first shore hex ahead within its
        speed; it may not reduce speed to avoid it (line 78)."""
        land, shore = ctx.land, ctx.shore
        pose = pose_of(ship)
        for _ in range(_int(ship.sheet.get("speed_forward"))):
            pose = step_ahead(pose)
            h = pose[0]
            if ctx.taken(h, ship.id):
                return  # another vessel (perhaps aground there already) stops her
            if h in shore:
                self._ground(ctx, ship, h, "carried by the collision; a vessel rammed may not reduce speed")
                return
            if h in land or not on_hex_map(h, ctx.state.map.width, ctx.state.map.height):
                return

    # --- fire -----------------------------------------------------------------------------------------

    @staticmethod
    def _roll_vessel_hits(
        ctx: _Ctx, n: int, needed: int, target: ShipState, purpose: str
    ) -> tuple[list[int], int, int, bool, list[JSON]]:
        """Roll ``n`` D6 at a vessel (as she was before the fire: nothing is applied until all have fired,
        A1); return (dice, hits, ricochets, lost outright, confirmation dice: a new list, for the event).
        :meth:`_fire` writes it out."""
        roll = ctx.dice.roll
        values: list[int] = []
        for _ in range(n):
            values.append(roll("D6", purpose))
        hits = sixes = 0
        for v in values:
            if v >= needed:
                if v < 6:
                    hits += 1
                else:
                    sixes += 1
        if not sixes:
            return values, hits, 0, False, []
        more, ricochets, lost, confirms = AcwRiver._confirm_sixes(ctx, sixes, target)
        return values, hits + more, ricochets, lost, confirms

    @staticmethod
    def _confirm_sixes(ctx: _Ctx, sixes: int, target: ShipState) -> tuple[int, int, bool, list[JSON]]:
        """Confirm the ``sixes`` 6s scored on a vessel, after all the dice of the shot (A06: 6 = lost, 2 or
        4 = a hit, odd = ricochet); once 3/4 of her resistance is gone (before the fire), every 6 destroys her
        unconfirmed (A07). Return (hits, ricochets, lost outright, confirmation dice: a new list)."""
        if _int(target.sheet.get("lost")) >= no_confirm_threshold(_int(target.sheet.get("resistance"), 1)):
            return 0, 0, True, []
        roll = ctx.dice.roll
        purpose = f"confirm the 6 on {target.name}"
        hits = ricochets = 0
        lost = False
        confirms: list[JSON] = []
        for _ in range(sixes):
            c = roll("D6", purpose)
            confirms.append(c)
            result = T.CONFIRMATION[c]
            if result == "lost":
                lost = True
            elif result == "hit":
                hits += 1
            else:
                ricochets += 1
        return hits, ricochets, lost, confirms

    def _lay_guns(self, ctx: _Ctx, ship: ShipState, order: ShipOrder) -> list[tuple[str, str, _Sight | None]]:
        """Return the (arc, target, sight) triples that fire (NW-ACW-10: the guns are laid on a target, not a
        bearing); the sight is the (range, arc) of a vessel afloat (:func:`aim`), None for any other target.

        A target still in the arc ordered is fired at by that arc. A target that the move has carried into
        another arc is fired at by that arc if it has guns and no target of its own; else it is not fired at
        (the order was for that arc) and goes to the arc ordered, which reports the miss of the target.
        """
        out: list[tuple[str, str, _Sight | None]] = []
        moved: list[tuple[str, str, str, _Sight | None]] | None = None  # made when a target has moved
        data = order.data
        ships, hexes = ctx.ships, ctx.hexes
        pose: Pose | None = None
        mine: tuple[Hex, ...] = ()
        for arc, key in _ARC_FIELDS:
            ordered = data.get(key)
            if not ordered:
                continue
            tid = ordered if type(ordered) is str else str(ordered)
            tgt = ships.get(tid)
            sight: _Sight | None = None
            if tgt is None:
                now = self._arc_now(ctx, ship, tid)
            elif tgt.status == "active":
                if pose is None:
                    mine = hexes[ship.id]
                    pose = mine[0], ship.heading, ship.offset  # pose_of(ship): her hexes begin at the bow
                theirs = hexes[tid]
                if len(mine) == 1 and len(theirs) == 1:  # aim() for two one-hex vessels, written out
                    x, near = mine[0], theirs[0]
                    bow = pose[0]
                    dq = x.q - near.q
                    dr = x.r - near.r
                    known_arc = _ARC_MEMO.get((near.q - bow.q, near.r - bow.r, pose[1]))
                    sight = (
                        (abs(dq) + abs(dr) + abs(dq + dr)) // 2,
                        known_arc if known_arc is not None else arc_of_target(pose, near),
                    )
                else:
                    sight = aim(pose, mine, theirs)
                now = sight[1]
            else:
                now = None
            if now is None or now == arc:
                out.append((arc, tid, sight))
            elif moved is None:
                moved = [(arc, tid, now, sight)]
            else:
                moved.append((arc, tid, now, sight))
        if moved is None:
            return out  # one per arc, in the order of ARCS
        taken = {a for a, _, _ in out}
        for arc, tid, now, sight in moved:
            if now not in taken and fire_dice(ship, now) > 0:
                taken.add(now)
                out.append((now, tid, sight))
                ctx.events.append(
                    Event(
                        kind="guns_follow",
                        turn=ctx.turn,
                        ship_id=ship.id,
                        target_id=tid,
                        text=f"{ship.name}'s {now} guns take {ships[tid].name if tid in ships else tid}, "
                        "which the move carried out of "
                        f"her {arc} arc (NW-ACW-10).",
                        visible_to=(ship.side,),
                    )
                )
            else:
                out.append((arc, tid, sight))
        order_of_arcs = {a: i for i, a in enumerate(ARCS)}
        return sorted(out, key=lambda p: order_of_arcs[p[0]])

    def _arc_now(self, ctx: _Ctx, ship: ShipState, tid: str) -> str | None:
        """Return the arc the terrain feature ``tid`` (not a ship) lies in, or None if it is gone."""
        feat = next((t for t in ctx.terrain if t.props.get("id") == tid), None)
        if feat is None:
            return None
        return arc_of_target(pose_of(ship), cast(Hex, feat.position))

    @staticmethod
    def _no_shot(ctx: _Ctx, ship: ShipState, arc: str, tid: str, name: str, why: str) -> None:
        """Log that ``ship``'s ``arc`` guns hold their fire at ``tid`` (called ``name``), and why."""
        ctx.events.append(
            new_event(
                "no_shot",
                f"{ship.name} holds her {arc} fire at {name}: {why}.",
                ctx.turn,
                0,
                ship.id,
                tid,
                (),
                (),
                None,
                "",
                {},
                (ship.side,),
            )
        )

    def _fire_elsewhere(self, ctx: _Ctx, ship: ShipState, arc: str, tid: str) -> None:
        """:meth:`_fire` at what is not a vessel afloat: a vessel sunk or gone (no shot), a battery, a fort or
        a surfaced mine (:meth:`_fire_at_feature`)."""
        tgt = ctx.ships.get(tid)
        if tgt is None:
            self._fire_at_feature(ctx, ship, arc, tid)
        else:
            self._no_shot(ctx, ship, arc, tid, tgt.name, f"she is {tgt.status}")

    def _fire(self, ctx: _Ctx, ship: ShipState, arc: str, tid: str, sight: _Sight, n: int) -> None:
        """Fire ``ship``'s ``arc`` guns (``n`` D6: :func:`fire_dice`) at the vessel afloat ``tid``, at
        ``sight`` (range, arc: :func:`aim`) (sections 4-5, A04-A07); the hits go to ``ctx.points`` /
        ``ctx.outright``, applied after all fire (A1)."""
        tgt = ctx.ships[tid]
        rng, actual_arc = sight
        if actual_arc != arc:
            self._needed(ctx, ship, arc, tid, tgt.name, rng, actual_arc)  # logs why the guns hold fire
            return
        needed = _TO_HIT[rng] if rng < len(_TO_HIT) else to_hit(rng)  # a range is never negative
        if needed is None:
            self._needed(ctx, ship, arc, tid, tgt.name, rng, actual_arc)
            return
        rolls = ctx.rolls
        first = len(rolls)
        # _roll_vessel_hits, written out (one call fewer a shot)
        roll = ctx.dice.roll
        purpose = f"{ship.name} {arc} guns at {tgt.name}"
        values: list[int] = []
        shown: list[str] = []  # the dice as the event's text shows them
        hits = sixes = 0
        for _ in range(n):
            v = roll("D6", purpose)
            values.append(v)
            shown.append(_NUM_TEXT[v])
            if v >= needed:
                if v < 6:
                    hits += 1
                else:
                    sixes += 1
        ric = 0
        lost = False
        confirms: list[JSON] = []
        if sixes:
            more, ric, lost, confirms = self._confirm_sixes(ctx, sixes, tgt)
            hits += more
        per_hit = _POINTS_PER_HIT_ASTERN if tgt.sheet.get("astern") else T.POINTS_PER_HIT
        pts = hits * per_hit
        mods: tuple[Modifier, ...] = ()
        if per_hit != 1 and hits:
            mods = (Modifier(label=f"{tgt.name} is going astern: 2 points a hit (A09)", value=per_hit),)
        if lost:
            after = _int(tgt.sheet.get("lost")) >= no_confirm_threshold(_int(tgt.sheet.get("resistance"), 1))
            how = "a 6 after 3/4 of her resistance was gone, A07" if after else "a 6 confirmed by a 6, A06"
            ctx.outright[tid] = f"a lucky hit from {ship.name} ({how})"
        if pts:
            points = ctx.points
            points[tid] = points.get(tid, 0) + pts
        outcome = "lost" if lost else ("hit" if hits else ("ricochet" if ric else "miss"))
        confirmed = f"; confirmation {' '.join(map(str, confirms))}" if confirms else ""
        ricochets = f", {ric} ricochet(s)" if ric else ""
        # The numbers as text from a table, not formatted (the range is 0-10 and the score 5-6 here; the dice
        # and the hits are as a rule fewer than ten): the text of hundreds of shots a phase.
        dice_text = _NUM_TEXT[n] if 0 <= n < _NUM_TEXT_SIZE else str(n)
        hits_text = _NUM_TEXT[hits] if hits < _NUM_TEXT_SIZE else str(hits)
        text = (
            f"{ship.name} fires {dice_text} D6 {arc} at {tgt.name}, {_NUM_TEXT[rng]} hexes, needing "
            f"{_NUM_TEXT[needed]}+: {' '.join(shown)}{confirmed} -> {hits_text} hit(s){ricochets}"
            f"{', the vessel is lost' if lost else ''}."
        )
        data: dict[str, JSON] = {
            "arc": arc,
            "range": rng,
            "dice": n,
            "hits": hits,
            "ricochets": ric,
            "lost": lost,
            "points": pts,
            "confirmations": confirms,  # a list of its own
        }
        ctx.events.append(
            new_event(
                "fire",
                text,
                ctx.turn,
                0,
                ship.id,
                tid,
                tuple(rolls[first:]),
                mods,
                needed,
                outcome,
                data,
                # A2, NW-CAMP-15: the firer's side's and the target's; every side's when they are two
                scored_visibility(ship.side, tgt.side, ctx.state.side_keys()),
            )
        )

    def _needed(
        self, ctx: _Ctx, ship: ShipState, arc: str, tid: str, name: str, rng: int, actual_arc: str
    ) -> int | None:
        """Return the score ``ship``'s ``arc`` guns need to hit ``tid`` (called ``name``), ``rng`` hexes away
        in her ``actual_arc`` (A05); or None, logged, when they cannot fire at it (NW-ACW-10, A05)."""
        if actual_arc != arc:
            self._no_shot(ctx, ship, arc, tid, name, f"after the move it lies in the {actual_arc} arc")
            return None
        needed = _TO_HIT[rng] if 0 <= rng < len(_TO_HIT) else to_hit(rng)
        if needed is None:
            self._no_shot(ctx, ship, arc, tid, name, f"{rng} hexes, beyond 10 (A05)")
        return needed

    def _fire_at_feature(self, ctx: _Ctx, ship: ShipState, arc: str, tid: str) -> None:
        """:meth:`_fire` at what is not a vessel: a surfaced mine (section 10), a battery or a fort (A13)."""
        tgt = ctx.feature(tid)
        if tgt is None:
            self._no_shot(ctx, ship, arc, tid, tid, "no longer there")
            return
        name = str(tgt.props.get("name") or tid)
        mines_hit, land_points = ctx.mines_hit, ctx.land_points
        if tgt.kind == "mine" and (not tgt.props.get("surfaced") or tid in mines_hit):
            self._no_shot(ctx, ship, arc, tid, name, "no mine to be seen")
            return
        if tgt.kind != "mine" and self._silenced(tgt):
            self._no_shot(ctx, ship, arc, tid, name, "silenced")
            return
        rng, actual_arc = aim(pose_of(ship), ctx.hexes[ship.id], (cast(Hex, tgt.position),))
        needed = self._needed(ctx, ship, arc, tid, name, rng, actual_arc)
        if needed is None:
            return
        n = fire_dice(ship, arc)
        first = len(ctx.rolls)
        purpose = f"{ship.name} {arc} guns at {name}"
        mods: list[Modifier]
        data: dict[str, JSON]
        if tgt.kind == "mine":
            values = [ctx.dice.roll("D6", purpose) for _ in range(n)]
            det = any(v in cast(list[int], T.MINES["surfaced_detonated_by_fire_on"]) for v in values)
            if det:
                mines_hit.add(tid)
            mods, outcome = [], "detonated" if det else "miss"
            text = (
                f"{ship.name} fires {n} D6 {arc} at the surfaced mine {tid}, {rng} hexes: "
                f"{' '.join(map(str, values))} -> {'detonated' if det else 'missed'} (5-6, section 10)."
            )
            needed = 5
            data = {"arc": arc, "range": rng, "dice": n, "detonated": det}
        else:
            values = [ctx.dice.roll("D6", purpose) for _ in range(n)]
            hits = sum(1 for v in values if v >= needed)
            mult = _int(self._opt(ctx.state, "land_fire_multiplier"), T.LAND_FIRE_MULTIPLIER)
            pts = hits * mult
            if pts:
                land_points[tid] = land_points.get(tid, 0) + pts
                ctx.land_scorers.setdefault(tid, set()).add(ship.side)
            mods = [Modifier(label=f"naval gunfire at a land target: x{mult} (line 44, A13)", value=mult)]
            outcome = "hit" if hits else "miss"
            text = (
                f"{ship.name} fires {n} D6 {arc} at {name}, {rng} hexes, needing {needed}+: "
                f"{' '.join(map(str, values))} -> {hits} hit(s) x {mult} = {pts} point(s)."
            )
            data = {"arc": arc, "range": rng, "dice": n, "hits": hits, "points": pts}
        owner = tgt.props.get("side")
        ctx.events.append(
            new_event(
                "fire",
                text,
                ctx.turn,
                0,
                ship.id,
                tid,
                tuple(ctx.rolls[first:]),
                tuple(mods),
                needed,
                outcome,
                data,
                # A2, NW-CAMP-15: the firer's side's and the battery's, fort's or mine-layer's; every side's
                # when they are two, or when the feature has no side
                scored_visibility(ship.side, owner, ctx.state.side_keys())
                if isinstance(owner, str) and owner
                else None,
            )
        )

    def _battery_fire(self, ctx: _Ctx, bat: TerrainFeature) -> None:
        """NW-ACW-07: a battery or fort fires its dice at the nearest enemy vessel it can hurt, in range."""
        side = bat.props.get("side")
        n = _int(bat.props.get("dice"))
        if n <= 0:
            return
        heavy = bat.props.get("heavy")
        heavy_b = bool(heavy) if isinstance(heavy, bool) else bat.kind == "fort"
        max_rng = min(_int(bat.props.get("range"), T.MAX_RANGE), T.MAX_RANGE)
        where = cast(Hex, bat.position)
        best: tuple[int, str] | None = None
        for s in ctx.ships.values():
            if not s.active or s.side == side:
                continue
            if not heavy_b and not T.PROTECTION_CLASSES[class_facts(s.stats).protection]["field_fire"]:
                continue
            gap = min(hex_distance(where, h) for h in ctx.hexes[s.id])
            if gap <= max_rng and (best is None or (gap, s.id) < best):
                best = (gap, s.id)
        if best is None:
            return
        rng, sid = best
        tgt = ctx.ships[sid]
        needed = to_hit(rng)
        assert needed is not None
        name = str(bat.props.get("name") or bat.props.get("id"))
        first = len(ctx.rolls)
        values, hits, ric, lost, confirms = self._roll_vessel_hits(
            ctx, n, needed, tgt, f"{name} at {tgt.name}"
        )
        points, outright = ctx.points, ctx.outright
        per_hit = T.REVERSING["points_per_hit_astern"] if tgt.sheet.get("astern") else T.POINTS_PER_HIT
        pts = hits * per_hit
        if pts:
            points[sid] = points.get(sid, 0) + pts
        if lost:
            outright[sid] = f"a lucky hit from {name} (A06/A07)"
        ctx.events.append(
            Event(
                kind="fire",
                turn=ctx.turn,
                ship_id=None,
                target_id=sid,
                rolls=tuple(ctx.rolls[first:]),
                needed=needed,
                outcome="lost" if lost else ("hit" if hits else "miss"),
                text=(
                    f"{name} ({'fortress' if heavy_b else 'field'} artillery) fires {n} D6 at {tgt.name}, "
                    f"{rng} hexes, needing {needed}+: {' '.join(map(str, values))}"
                    + (f"; confirmation {' '.join(map(str, confirms))}" if confirms else "")
                    + f" -> {hits} hit(s)"
                    + (", the vessel is lost" if lost else "")
                    + "."
                ),
                data={
                    "battery": str(bat.props.get("id")),
                    "range": rng,
                    "dice": n,
                    "hits": hits,
                    "ricochets": ric,
                    "lost": lost,
                    "points": pts,
                    "confirmations": list(confirms),
                },
                # A2, NW-CAMP-15: the battery's side's and the target's; every side's when they are two
                visible_to=scored_visibility(side, tgt.side, ctx.state.side_keys())
                if isinstance(side, str) and side
                else None,
            )
        )

    def _apply_fire(self, ctx: _Ctx) -> None:
        """Apply the fire's tallies in ``ctx`` (A1: after all fire): the vessels' losses, the batteries' and
        forts', the surfaced mines detonated."""
        points, outright, land_points, mines_hit = ctx.points, ctx.outright, ctx.land_points, ctx.mines_hit
        for s in ctx.state.ships:
            sid = s.id
            if sid not in points and sid not in outright:
                continue
            cur = ctx.ships[sid]
            if not cur.active:
                continue
            self._lose(ctx, cur, points.get(sid, 0), "gunfire", lost_outright=sid in outright)
            if sid in outright and ctx.ships[sid].status == "sunk":
                # replace the generic text with the lucky-hit story
                ev = ctx.events[-1]
                ctx.events[-1] = replace(
                    ev,
                    text=f"{cur.name} is lost: {outright[sid]} (shot through a gunport "
                    f"into the magazine, section 4).",
                )
        new_terrain: list[TerrainFeature] = []
        for t in ctx.terrain:
            tid = str(t.props.get("id"))
            if t.kind == "mine" and tid in mines_hit:
                ctx.events.append(
                    Event(
                        kind="mine",
                        turn=ctx.turn,
                        outcome="detonated",
                        text=f"The surfaced mine {tid} is detonated by gunfire (section 10).",
                        data={"mine": tid},
                    )
                )
                continue
            if t.kind in ("battery", "fort") and tid in land_points:
                lost = _int(t.props.get("lost")) + land_points[tid]
                res = _int(t.props.get("resistance"), 1)
                # the sides that have scored on it, for view_for (NW-ACW-19)
                before = t.props.get("hit_by")
                hit_by = {k for k in before if isinstance(k, str)} if isinstance(before, list) else set()
                hit_by |= ctx.land_scorers.get(tid, set())
                scored: list[JSON] = list(sorted(hit_by))
                t = replace(t, props={**t.props, "lost": lost, "hit_by": scored})
                name = str(t.props.get("name") or tid)
                owner = t.props.get("side")
                seen = None  # silenced (its guns fall quiet: visible state) or of no side: every side's
                if lost < res and isinstance(owner, str) and owner:
                    # A2, NW-CAMP-15: a hit is the scorer's side's and the target's (every side's if two)
                    pair = {owner, *ctx.land_scorers.get(tid, ())}
                    sides = ctx.state.side_keys()
                    seen = None if all(k in pair for k in sides) else tuple(k for k in sides if k in pair)
                ctx.events.append(
                    Event(
                        kind="damage",
                        turn=ctx.turn,
                        outcome="silenced" if lost >= res else "hit",
                        text=f"{name} loses {land_points[tid]} point(s): {max(res - lost, 0)} of "
                        f"{res} left" + (" - silenced." if lost >= res else "."),
                        data={"battery": tid, "lost": lost, "resistance": res},
                        visible_to=seen,
                    )
                )
            new_terrain.append(t)
        ctx.terrain[:] = new_terrain

    # --- views ----------------------------------------------------------------------------------------

    def view_for(self, state: BattleState, side: str | None) -> BattleState:
        """The base view (A2), and a battery's or fort's damage only for the sides that saw it scored: its own
        side's and those that hit it; every side sees it silenced (NW-ACW-16, NW-ACW-19). For a side (or an
        observer, NW-CAMP-13) that saw none of its hits, a battery still firing shows no damage: its props
        without ``lost`` and ``hit_by``."""
        view = super().view_for(state, side)
        if side is None or not any(t.kind in ("battery", "fort") for t in view.terrain):
            return view
        sides = state.side_keys()
        terrain = []
        for t in view.terrain:
            props = t.props
            owner = props.get("side")
            lost = _int(props.get("lost"))
            if t.kind in ("battery", "fort") and lost > 0 and lost < _int(props.get("resistance"), 1):
                hit_by = props.get("hit_by")
                saw = {owner, *(hit_by if isinstance(hit_by, list) else ())}
                if isinstance(owner, str) and owner and not all(k in saw for k in sides) and side not in saw:
                    t = replace(t, props={k: v for k, v in props.items() if k not in ("lost", "hit_by")})
            terrain.append(t)
        return replace(view, terrain=tuple(terrain))

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        if not tally_shown(side, state):
            return {}  # NW-CAMP-15: a bare tally mixes the sides' hits; with three sides each reads its log
        # A2: the hits scored on her are what an opponent knows.
        return {"lost": ship.sheet.get("lost", 0)}

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        lines: list[str] = []
        data = order.data
        names = {s.id: s.name for s in state.ships}  # (a target is named; a mine keeps its id)
        astern = bool(data.get("astern", False))
        course = course_text(data.get("course"))
        if ship.sheet.get("aground"):
            lines.append(f"{ship.name} is aground: she cannot move (section 9).")
        elif data.get("ram"):
            lines.append(
                f"Steers to {'ram' if is_ram(ship.stats) else 'collide with'} "
                f"{names.get(str(data.get('ram')), data.get('ram'))} if she "
                f"can reach her this move ({self.move_points(ship, False)} hexes)."
            )
        elif course.strip("FLR"):
            # no move to draw: the course field's error says why (a made-up end would mislead)
            lines.append(f"Course {course}: not a course of F, L and R, so no move to preview.")
        else:
            mp = self.move_points(ship, astern)
            pose = self._predict(state, ship, course, astern)
            cost = plural(course_cost(course), "hex", "hexes")
            lines.append(
                f"Course {course or '(none)'} {'astern' if astern else 'ahead'}: costs {cost} of her "
                f"{plural(mp, 'hex', 'hexes')}; ends at ({pose[0].q},{pose[0].r}) facing {pose[1]:g}."
            )
        # where each target lies from where she ends, as the ships stand now (they move too): an arc whose
        # target lies in another fires only if the moves bring it round (NW-ACW-10)
        ends = None
        if not ship.sheet.get("aground") and not data.get("ram") and not course.strip("FLR"):
            ends = self._predict(state, ship, course, astern)
        for arc in ARCS:
            tid = data.get(FIRE_FIELDS[arc])
            if tid:
                line = (
                    f"{arc.title()}: {fire_dice(ship, arc)} D6 at {names.get(str(tid), tid)} after movement; "
                    "5-6 hit at 1-7 hexes, 6 at 8-10; every 6 is confirmed (A05, A06)."
                )
                tgt = state.ship_map().get(str(tid))
                if ends is not None and tgt is not None and tgt.position is not None:
                    _, lies = aim(ends, footprint(ends, ship_length(ship.stats)), ship_hexes(tgt))
                    if lies != arc:
                        line += (
                            f" From where she ends, {tgt.name} lies in her {lies} arc as the ships stand "
                            f"now: these guns fire only if the moves bring her into the {arc} arc "
                            "(NW-ACW-10)."
                        )
                lines.append(line)
        return lines

    def arcs(self, state: BattleState, ship: ShipState) -> list[ArcSpec]:
        """The arcs the map draws (:func:`.arcs.ship_arcs`, from :meth:`tables`)."""
        return ship_arcs(self.tables(), state, ship)

    def order_hints(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> dict[str, FieldHint]:
        """The order panel's hints (:func:`.hints.ship_hints`)."""
        return ship_hints(state, ship, data, self.move_points)

    def tables(self) -> dict[str, JSON]:
        return {
            "ship_types": {k: {f: cast(JSON, v) for f, v in row.items()} for k, row in T.SHIP_TYPES.items()},
            "protection_classes": {
                k: {f: cast(JSON, v) for f, v in row.items()} for k, row in T.PROTECTION_CLASSES.items()
            },
            "turn_costs": [{"up_to_deg": d, "hexes_lost": c} for d, c in T.TURN_COSTS],
            "facing_step_deg": T.FACING_STEP_DEG,
            "reversing": dict(T.REVERSING),
            "range_table": [{"up_to_hexes": r, "d6_needed": n} for r, n in T.RANGE_TABLE],
            "max_range_hexes": T.MAX_RANGE,
            "confirmation": {str(k): v for k, v in T.CONFIRMATION.items()},
            "no_confirmation_after_lost": {str(k): v for k, v in T.NO_CONFIRM_LOST.items()},
            "points_per_hit": T.POINTS_PER_HIT,
            "land_fire_multiplier": T.LAND_FIRE_MULTIPLIER,
            "ram": {k: cast(JSON, v) for k, v in T.RAM.items()},
            "collision": {k: cast(JSON, v) for k, v in T.COLLISION.items()},
            "aground": dict(T.AGROUND),
            "mines": {k: cast(JSON, v) for k, v in T.MINES.items()},
            "arcs_deg": dict(T.ARCS_DEG),
            "max_ship_hexes": T.MAX_SHIP_HEXES,
        }


RULESET = AcwRiver()
