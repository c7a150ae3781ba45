"""``memoir_sea`` (seed ``004_bf15dcab1aef5b0d.txt``, Memoir of Battle at Sea), with rulings M01-M10.

Turn (A1, "Turn Sequence"): each side throws a D6, the lowest moves first (M02: re-roll ties); guns fire,
then torpedoes, all at once on the positions at the start of the turn (a ship sunk this turn still fires);
damage is applied; then the ships move, side by side in initiative order.

Geometry: flat-topped hexes, the six hex-side facings (headings 0, 60, ... 300 degrees). Default map
24 x 18 hexes (A3). Terrain kind ``land``: hexes no ship may enter (NW-MEM-05).

Gunfire ("Firing Guns", M04-M06): the Memoir die (one major = 2 points, two minor = 1, three miss). A
target abeam is fired at with full effect, ``B - (r - 1)`` dice at ``r`` hexes for a class of ``B`` beam
dice; ahead or astern (the target hex wholly within 60 degrees of the line ahead or astern) with half
effect, ``ceil(B / 2) - floor((r - 1) / 2)`` dice. No die left: no fire. One gun target a turn
(NW-MEM-01).

Torpedoes ("Firing Torpedoes", M09): only ships so fitted; one a turn, four a battle; range 3 hexes;
three dice whatever the range. Fit ``fixed`` (ships larger than destroyers): the six straight hex rows
from the ship; ``trainable`` (destroyers, torpedo boats): the abeam arcs; ``trainable_bow``: abeam and
ahead arcs.

Damage ("Damage and Sinking", M07, M08): hits are cumulative; the ship sinks when its remaining Flotation
Value reaches 0; when it is at or below the Critical Point it breaks off from the next move: it sails
away from the enemy, its course set by the rules, until it leaves the map (NW-MEM-02, NW-MEM-03).

Movement ("Movement", M10): an order's ``course`` is a string of ``F`` (one hex forward), ``L`` and
``R`` (60 degrees to port or starboard, costing one hex); each turn needs a forward hex since the last
turn or the start of the move; the cost may not exceed the class speed; unused movement is lost. A ship
whose next hex holds another ship afloat or land stops there (NW-MEM-04; wrecks sink and do not
block); a ship that sails
off the map leaves the battle, ``withdrawn`` (NW-MEM-05).

Class stats JSON (``ShipState.stats``, M03)::

    {"type": "pre_dreadnought", "gun_dice": 8, "flotation": 23, "critical_point": 8, "speed": 3,
     "torpedo_fit": "fixed", "torpedoes": 4}

``type`` one of ``tables.SHIP_TYPES``; ``gun_dice`` = dice abeam at 1 hex (1-12); ``flotation`` the
Flotation Value (1-60); ``critical_point`` (0 to flotation - 1); ``speed`` in hexes (1-8);
``torpedo_fit`` one of ``none``, ``fixed``, ``trainable``, ``trainable_bow``; ``torpedoes`` carried
(0-4, 0 when the fit is ``none``).

Sheet JSON (``ShipState.sheet``, filled by ``setup``)::

    {"flotation": 23, "critical_point": 8, "damage": 0, "torpedoes_left": 4, "breaking_off": false}

``flotation`` is the original Flotation Value, ``damage`` the points lost so far (remaining = flotation -
damage), ``torpedoes_left`` what the ship may still fire this battle, ``breaking_off`` true once it has
reached its Critical Point. Opponents see ``{"damage": n}`` only (A2). Visible flags: ``breaking_off``,
``sinking``.

Order JSON (``ShipOrder.data``)::

    {"course": "FLFRF", "target": "<ship id>", "torpedo": "<ship id>"}

every key optional (an empty or missing course: the ship stays where it is).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Container, Mapping
from dataclasses import replace
from functools import cache
from typing import Literal, cast

from ... import memo
from ...arcs import ArcSpec
from ...base import (
    DefaultPolicy,
    RuleSet,
    SheetKind,
    course_extras,
    course_text,
    plural,
    roll_initiative,
    scored_visibility,
    sheet_kind_errors,
    tally_shown,
)
from ...dice import Dice
from ...geometry import (
    HEX_SIDE_STEPS,
    bearing,
    hex_add,
    hex_bearing,
    hex_center,
    hex_distance,
    hex_line,
    hex_to_offset,
    is_facing,
    norm_deg,
    on_hex_map,
    relative_bearing,
)
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
    Point,
    ShipOrder,
    ShipState,
)
from . import tables as T
from .arcs import ship_arcs
from .hints import ship_hints

Arc = Literal["ahead", "astern", "abeam"]

TORPEDO_FITS: tuple[str, ...] = tuple(T.TORPEDO_ARCS)

CLASS_SCHEMA: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="type",
        label="Type",
        type="choice",
        choices=tuple(T.SHIP_TYPES),
        default="pre_dreadnought",
        help="M09: destroyers and torpedo boats may have trainable tubes; larger ships fire along rows.",
    ),
    FieldSpec(
        name="gun_dice",
        label="Gun dice abeam at 1 hex",
        type="int",
        min=1,
        max=T.MAX_GUN_DICE,
        help="A modern pre-dreadnought throws 8 (seed, Firing Guns; M03).",
    ),
    FieldSpec(
        name="flotation",
        label="Flotation Value",
        type="int",
        min=1,
        max=60,
        unit="points",
        help="Points of damage the ship can take before it sinks (M07).",
    ),
    FieldSpec(
        name="critical_point",
        label="Critical Point",
        type="int",
        min=0,
        max=59,
        unit="points",
        help="At or below this remaining Flotation Value the ship breaks off (M08).",
    ),
    FieldSpec(
        name="speed",
        label="Movement",
        type="int",
        min=1,
        max=8,
        unit="hexes",
        help="Hexes per move; a destroyer moves 5 (seed, Movement).",
    ),
    FieldSpec(
        name="torpedo_fit",
        label="Torpedo fit",
        type="choice",
        choices=TORPEDO_FITS,
        default="none",
        help="none; fixed (larger ships: straight rows ahead, astern, abeam); trainable (destroyers and "
        "torpedo boats: abeam arcs); trainable_bow (also ahead) (M09).",
    ),
    FieldSpec(
        name="torpedoes",
        label="Torpedoes carried",
        type="int",
        min=0,
        max=T.TORPEDO_RULES["per_battle"],
        required=False,
        default=0,
        help="At most four a battle (seed, Firing Torpedoes).",
    ),
)

ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        key="move",
        label="Movement",
        help="Course letters: F = forward one hex, L / R = turn 60 degrees to port / starboard "
        "(costs one hex, needs a forward hex first, M10). Example for a 5-hex destroyer: FLFRF.",
        fields=(FieldSpec(name="course", label="Course", type="str", required=False, max=16, default=""),),
    ),
    OrderType(
        key="fire",
        label="Gunfire",
        help="One target for the guns, fired at before anyone moves (Turn Sequence).",
        fields=(FieldSpec(name="target", label="Gun target", type="str", required=False, max=64),),
    ),
    OrderType(
        key="torpedo",
        label="Torpedo",
        help="One torpedo a turn at a target within 3 hexes in the tubes' arc (Firing Torpedoes, M09).",
        fields=(FieldSpec(name="torpedo", label="Torpedo target", type="str", required=False, max=64),),
    ),
)


# --- pure rules helpers --------------------------------------------------------------------------


def gun_dice(beam_dice: int, range_hexes: int, arc: Arc) -> int:
    """Return the Memoir dice thrown at a target ``range_hexes`` away in ``arc`` (M05, M06).

    Abeam: ``B - (r - 1)``; ahead or astern: ``ceil(B / 2) - floor((r - 1) / 2)``; never below 0
    (0 = no fire). The pre-dreadnought (B = 8) throws 8 abeam and 4 ahead at 1 hex, 4 and 2 at 5 hexes.
    """
    if range_hexes < 1 or beam_dice < 1:
        return 0
    if arc == "abeam":
        return max(0, beam_dice - (range_hexes - 1))
    return max(0, -(-beam_dice // 2) - (range_hexes - 1) // 2)


def max_gun_range(beam_dice: int, arc: Arc) -> int:
    """Return the longest range in hexes at which at least one die is thrown (M05)."""
    return beam_dice if arc == "abeam" else 2 * -(-beam_dice // 2)


def arc_for(pos: Hex, heading: float, target: Hex) -> Arc:
    """Return the arc the target hex lies in from a ship at ``pos`` facing ``heading`` (M04).

    Ahead (astern): the target hex lies wholly within 60 degrees either side of the line ahead (astern).
    On flat-topped hexes with side facings, the 60-degree lines run through hex centres, and a hex off
    the line is at least 0.5 hex-sizes clear of it, so a hex is cut by the line exactly when its centre
    is on it; cut hexes are abeam. :func:`arc_by_corners` checks the same thing corner by corner.
    """
    key = (target.q - pos.q, target.r - pos.r, heading)
    arc = _ARCS.get(key)
    if arc is None:
        rel = abs(relative_bearing(heading, hex_bearing(pos, target)))
        if rel < T.ARCS_DEG["ahead_within"] - 1e-6:
            arc = "ahead"
        elif rel > 180.0 - T.ARCS_DEG["astern_within"] + 1e-6:
            arc = "astern"
        else:
            arc = "abeam"
        if len(_ARCS) >= 1 << 14:
            _ARCS.clear()
        _ARCS[key] = arc
    return arc


_ARCS: dict[tuple[int, int, float], Arc] = memo.table({})
"""arc_for by (axial difference, heading), remembered: it depends on nothing else, and every ship asks it of
every enemy in reach, a few times a phase."""


def arc_by_corners(pos: Hex, heading: float, target: Hex) -> Arc:
    """Return the arc by testing every corner of the target hex (the literal M04 test; slower)."""
    c = hex_center(pos)
    t = hex_center(target)
    rels = []
    for k in range(6):
        a = math.radians(60 * k)
        corner = Point(x=t.x + math.cos(a), y=t.y + math.sin(a))
        rels.append(abs(relative_bearing(heading, bearing(c, corner))))
    if all(r <= T.ARCS_DEG["ahead_within"] + 1e-6 for r in rels):
        return "ahead"
    if all(r >= 180.0 - T.ARCS_DEG["astern_within"] - 1e-6 for r in rels):
        return "astern"
    return "abeam"


def read_dice(values: list[int]) -> tuple[int, int, int, int]:
    """Return (majors, minors, misses, Flotation points) for Memoir dice faces (Firing Dice)."""
    # memoir_face, counted: 1 is major, 2 and 3 minor, anything else a miss
    major = values.count(1)
    minor = values.count(2) + values.count(3)
    miss = len(values) - major - minor
    return major, minor, miss, major * T.HIT_POINTS["major"] + minor * T.HIT_POINTS["minor"]


def _straight_row(pos: Hex, target: Hex) -> int | None:
    """Return the side-facing index (0-5) of the straight hex row from ``pos`` through ``target``, or None."""
    dq, dr = target.q - pos.q, target.r - pos.r
    n = hex_distance(pos, target)
    if n == 0:
        return None
    for i, (sq, sr) in enumerate(HEX_SIDE_STEPS):
        if dq == sq * n and dr == sr * n:
            return i
    return None


def torpedo_bears(fit: str, pos: Hex, heading: float, target: Hex) -> bool:
    """Return True if a torpedo of this fit can be fired at ``target`` (M09), range aside.

    ``fixed``: the target lies on one of the six straight hex rows from the ship (ahead, astern, and the
    rows at 60 and 120 degrees each side, the rows closest to 90 degrees). ``trainable``: the target is
    abeam (M04). ``trainable_bow``: abeam or ahead.
    """
    if fit == "fixed":
        # _straight_row(pos, target) is not None: a row of hexes runs along q, r or s (= -q - r) constant
        dq, dr = target.q - pos.q, target.r - pos.r
        return (dq == 0 or dr == 0 or dq == -dr) and (dq != 0 or dr != 0)
    arc = arc_for(pos, heading, target)
    if fit == "trainable":
        return arc == "abeam"
    if fit == "trainable_bow":
        return arc in ("abeam", "ahead")
    return False


def land_across(land: Container[Hex], a: Hex, b: Hex) -> Hex | None:
    """Return the first land hex the line of fire from hex ``a`` to hex ``b`` crosses, or None (NW-MEM-06).

    The hexes strictly between the two count (a ship never lies in land, NW-MEM-05). A line running along a
    hex edge is blocked only when it is blocked on both sides of the edge: the line is drawn nudged each way
    (:func:`~rules.geometry.hex_line`) and is clear if either way is.
    """
    first: Hex | None = None
    for nudge in (1e-6, -1e-6):
        hit = next((h for h in hex_line(a, b, nudge=nudge)[1:-1] if h in land), None)
        if hit is None:
            return None
        if first is None:
            first = hit
    return first


def course_cost(course: str) -> int:
    """Return the hexes of movement a course costs: one per forward hex and one per turn (M10)."""
    return len(course)


def course_errors(course: str, speed: int) -> list[str]:
    """Return what M10 forbids in a course (empty when legal) for a ship of ``speed`` hexes; ``course`` as
    :func:`rules.base.course_text` gives it."""
    errors: list[str] = []
    listed = course_extras(course)
    if listed:
        return [
            "Write the course as letters only, F (a hex forward), L and R (a 60-degree turn to port or "
            f"starboard, after a hex forward), for example FFRF; this one has {listed} (NW-MEM-07)."
        ]
    if course_cost(course) > speed:
        errors.append(
            f"The course costs {plural(course_cost(course), 'hex', 'hexes')}; the ship moves {speed} "
            "(Movement, M10)."
        )
    since_turn = 0
    for i, c in enumerate(course):
        if c == "F":
            since_turn += 1
        elif since_turn == 0:
            errors.append(f"Turn {i + 1} ({c}) needs a forward hex first (M10).")  # each one (NW-CAMP-30)
        else:
            since_turn = 0
    return errors


class _Blocked:
    """The hexes a moving ship may not enter: land, and every hex another ship afloat holds (NW-MEM-04).

    ``held`` counts the ships afloat in each hex (the moving one included), kept up to date by the caller as
    ships move, so that each ship's move does not rebuild the set of every other ship's hex.
    """

    __slots__ = ("held", "land", "own")

    def __init__(self, land: set[Hex], held: dict[Hex, int], ship: ShipState) -> None:
        self.land = land
        self.held = held
        self.own = ship.position if ship.active else None

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, Hex):
            return False
        n = self.held.get(h)
        if n is not None and n > 0 and (n > 1 or h != self.own):
            return True
        return h in self.land


def _ship_or_none(state: BattleState, ship_id: str) -> ShipState | None:
    """Return the ship with this id, None if there is none (the state's index: no copy of it)."""
    try:
        return state.ship(ship_id)
    except KeyError:
        return None


@cache
def legal_courses(speed: int) -> tuple[str, ...]:
    """Return every legal course for a ship of ``speed`` hexes, full-length first (M10)."""
    out: list[str] = []
    # (course so far, straight hexes since its last turn), the next on top: a loop, not a nested function
    # calling itself (a reference cycle: rules/gcpause.py)
    todo: list[tuple[str, int]] = [("", 0)]
    while todo:
        prefix, since_turn = todo.pop()
        out.append(prefix)
        if len(prefix) < speed:
            if since_turn:
                todo.append((prefix + "R", 0))
                todo.append((prefix + "L", 0))
            todo.append((prefix + "F", since_turn + 1))
    return tuple(sorted(out, key=lambda c: (-len(c), c)))


@cache
def _courses_by_length(speed: int) -> tuple[str, ...]:
    """Return :func:`legal_courses` but the empty one, shortest first (each after its prefixes)."""
    return tuple(sorted((c for c in legal_courses(speed) if c), key=len))


def step(pos: Hex, heading: float) -> Hex:
    """Return the hex ahead along a side facing."""
    dq, dr = HEX_SIDE_STEPS[round(norm_deg(heading) / 60.0) % 6]
    return hex_add(pos, dq, dr)


def _num(v: JSON, default: float = 0.0) -> float:
    if type(v) is float:
        return v  # float(v) is v
    if type(v) is int:
        return float(v)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def _int(v: JSON, default: int = 0) -> int:
    if type(v) is int and -_EXACT <= v <= _EXACT:
        return v  # int(float(v)) is v itself: sheets and stats hold small whole numbers
    return int(_num(v, default))


_EXACT = 2**53
"""Every int up to this size is exactly a float."""


MEMOIR_SHEET_KINDS: dict[str, SheetKind] = {
    "flotation": "whole",
    "critical_point": "whole",
    "damage": "whole",
    "torpedoes_left": "whole",
    "breaking_off": "bool",
}
"""What each entry of the sheet holds (the module docstring's Sheet JSON)."""


class MemoirSea(RuleSet):
    """Memoir of Battle at Sea: pre-dreadnought fleets on a hex map, fought with the Memoir die (seed 004)."""

    key = "memoir_sea"
    title = "Memoir of Battle at Sea (hex)"
    version = "1.0"
    source = "seeds/004_bf15dcab1aef5b0d.txt"
    geometry = "hex6"
    unit = "hexes"
    dice = ("D6", "MEMOIR")
    order_types = ORDER_TYPES
    terrain_kinds = ("land",)
    impassable_terrain = ("land",)
    options = ()
    default_map = (24, 18)
    course_fields = ("course",)  # written in capitals when saved and resolved (NW-MEM-08)
    # NW-CAMP-17: carried (damage): flotation, critical_point, damage. A new battle starts afresh with four
    # torpedoes ("a maximum of four torpedoes during a battle"), and :meth:`setup` works breaking_off out
    # again from the damage carried (M07: at or below her Critical Point she breaks off).
    battle_only_sheet_keys = ("torpedoes_left", "breaking_off")

    # --- ship classes ----------------------------------------------------------------------------

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return CLASS_SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        errors: FieldErrors = {}
        flotation = _int(stats.get("flotation"))
        cp = _int(stats.get("critical_point"))
        if cp >= flotation:
            errors.setdefault("critical_point", []).append(
                f"The Critical Point ({cp}) must be below the Flotation Value ({flotation}) (M08)."
            )
        fit = str(stats.get("torpedo_fit") or "none")
        torps = _int(stats.get("torpedoes"))
        small = T.SHIP_TYPES.get(str(stats.get("type")), {}).get("small", False)
        if fit == "none" and torps:
            errors.setdefault("torpedoes", []).append("A ship without a torpedo fit carries no torpedoes.")
        if fit != "none" and not torps:
            errors.setdefault("torpedoes", []).append("A ship with a torpedo fit carries 1-4 torpedoes.")
        if fit in ("trainable", "trainable_bow") and not small:
            errors.setdefault("torpedo_fit", []).append(
                "Only destroyers and torpedo boats have trainable or bow tubes; larger ships fire along the "
                "straight rows (fit 'fixed', M09)."
            )
        if fit == "fixed" and small:
            errors.setdefault("torpedo_fit", []).append(
                "Destroyers and torpedo boats have trainable tubes ('trainable' or 'trainable_bow', M09)."
            )
        return errors

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        b = _int(stats.get("gun_dice"))
        return {
            "abeam_countdown": list(T.GUN_DICE_COUNTDOWN.get(b, {}).get("abeam", ())),
            "ahead_astern_countdown": list(T.GUN_DICE_COUNTDOWN.get(b, {}).get("ahead_astern", ())),
            "breaks_off_at": _int(stats.get("critical_point")),
        }

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        """Return the seed's anchors as classes (M03): the pre-dreadnought, light cruiser and destroyer."""
        return (
            {
                "key": "memoir_pre_dreadnought",
                "name": "Modern pre-dreadnought (seed anchor)",
                "nation": "",
                "type": "pre_dreadnought",
                "stats": {
                    "type": "pre_dreadnought",
                    "gun_dice": 8,
                    "flotation": 21,
                    "critical_point": 7,
                    "speed": 3,
                    "torpedo_fit": "fixed",
                    "torpedoes": 4,
                },
                "source": "seed 004 Firing Guns (8 dice abeam); flotation/critical/speed by the scenario-11 "
                "estimates (tons / 500, flotation / 3, knots / 6)",
                "heuristic": True,
            },
            {
                "key": "memoir_light_cruiser",
                "name": "Light cruiser (seed anchor)",
                "nation": "",
                "type": "light_cruiser",
                "stats": {
                    "type": "light_cruiser",
                    "gun_dice": 4,
                    "flotation": 6,
                    "critical_point": 2,
                    "speed": 4,
                    "torpedo_fit": "fixed",
                    "torpedoes": 4,
                },
                "source": "seed 004 Damage and Sinking (Flotation Value 6 less 3 = 3, Critical Point 2); "
                "gun dice and speed estimated",
                "heuristic": True,
            },
            {
                "key": "memoir_destroyer",
                "name": "Destroyer (seed anchor)",
                "nation": "",
                "type": "destroyer",
                "stats": {
                    "type": "destroyer",
                    "gun_dice": 2,
                    "flotation": 2,
                    "critical_point": 1,
                    "speed": 5,
                    "torpedo_fit": "trainable",
                    "torpedoes": 4,
                },
                "source": "seed 004 Movement (5 hexes) and Firing Torpedoes; the rest estimated",
                "heuristic": True,
            },
        )

    # --- set-up --------------------------------------------------------------------------------

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        ships = []
        for s in state.ships:
            if not isinstance(s.position, Hex):
                raise TypeError(f"{s.name}: memoir_sea needs hex positions")
            if not is_facing(s.heading, 6):
                raise ValueError(f"{s.name}: heading {s.heading} is not a hex-side facing (multiples of 60)")
            sheet = dict(s.sheet)
            sheet.setdefault("flotation", _int(s.stats.get("flotation"), 1))
            sheet.setdefault("critical_point", _int(s.stats.get("critical_point")))
            sheet.setdefault("damage", 0)
            sheet.setdefault("torpedoes_left", _int(s.stats.get("torpedoes")))
            # at or below her Critical Point from the start, a damaged ship breaks off (M07, NW-CAMP-17)
            sheet.setdefault(
                "breaking_off",
                _int(sheet["flotation"], 1) - _int(sheet["damage"]) <= _int(sheet["critical_point"]),
            )
            speed = max(0, min(int(s.speed), _int(s.stats.get("speed"), 1)))
            flags = s.flags
            if sheet["breaking_off"] and "breaking_off" not in flags:
                flags = tuple(sorted({*flags, "breaking_off"}))
            ships.append(s.replace(sheet=sheet, heading=norm_deg(s.heading), speed=float(speed), flags=flags))
        return replace(state, ships=tuple(ships)), ()

    # --- helpers ------------------------------------------------------------------------------

    def _land(self, state: BattleState) -> set[Hex]:
        return {t.position for t in state.terrain if t.kind == "land" and isinstance(t.position, Hex)}

    def _on_map(self, state: BattleState, h: Hex) -> bool:
        return on_hex_map(h, state.map.width, state.map.height)

    def remaining(self, ship: ShipState) -> int:
        """Return the ship's remaining Flotation Value (M07)."""
        return _int(ship.sheet.get("flotation"), 1) - _int(ship.sheet.get("damage"))

    def gun_target_error(
        self, state: BattleState, ship: ShipState, target: ShipState | None, target_id: str
    ) -> str | None:
        """Return why the guns cannot fire at the target from the ship's present hex, or None."""
        return self._gun_shot(ship, target, target_id, self._land(state))[0]

    def _gun_shot(
        self, ship: ShipState, target: ShipState | None, target_id: str, land: Collection[Hex] = ()
    ) -> tuple[str | None, int, Arc, int, int]:
        """Return :meth:`gun_target_error`'s answer, and the range, arc, beam dice and dice thrown (M05).

        ``land``: the battle's land hexes; a line of fire across one is refused (NW-MEM-06)."""
        if target is None:
            return f"No ship {target_id!r} in this battle.", 0, "abeam", 0, 0
        if target.side == ship.side:
            return f"{target.name} is on your side.", 0, "abeam", 0, 0
        if target.status != "active":
            return f"{target.name} is {target.status}.", 0, "abeam", 0, 0
        assert isinstance(ship.position, Hex) and isinstance(target.position, Hex)
        rng = hex_distance(ship.position, target.position)
        arc = arc_for(ship.position, ship.heading, target.position)
        b = _int(ship.stats.get("gun_dice"))
        n = gun_dice(b, rng, arc)
        if n <= 0:
            row = T.GUN_DICE_COUNTDOWN.get(b, {}).get("abeam" if arc == "abeam" else "ahead_astern", ())
            countdown = "-".join(map(str, row))
            return (
                f"{target.name} is {rng} hexes away {arc}: no die left at that range "
                f"(countdown {countdown}, M05).",
                rng,
                arc,
                b,
                n,
            )
        if land:
            across = land_across(land, ship.position, target.position)
            if across is not None:
                return (
                    f"{target.name} is behind land: the line of fire crosses the land at "
                    f"({across.q},{across.r}) (NW-MEM-06).",
                    rng,
                    arc,
                    b,
                    0,
                )
        return None, rng, arc, b, n

    def torpedo_target_error(
        self, state: BattleState, ship: ShipState, target: ShipState | None, target_id: str
    ) -> str | None:
        """Return why the ship cannot fire a torpedo at the target now, or None (M09)."""
        fit = str(ship.stats.get("torpedo_fit") or "none")
        if fit == "none":
            return f"{ship.name} carries no torpedoes (Firing Torpedoes)."
        if _int(ship.sheet.get("torpedoes_left")) <= 0:
            return f"{ship.name} has fired all her torpedoes (four a battle)."
        if target is None:
            return f"No ship {target_id!r} in this battle."
        if target.side == ship.side:
            return f"{target.name} is on your side."
        if not target.active:
            return f"{target.name} is {target.status}."
        assert isinstance(ship.position, Hex) and isinstance(target.position, Hex)
        rng = hex_distance(ship.position, target.position)
        if rng > T.TORPEDO_RULES["range_hexes"]:
            return f"{target.name} is {rng} hexes away: torpedoes reach 3 hexes."
        if not torpedo_bears(fit, ship.position, ship.heading, target.position):
            where = {
                "fixed": "on a straight hex row ahead, astern or abeam",
                "trainable": "abeam",
                "trainable_bow": "abeam or ahead",
            }[fit]
            return f"{target.name} is not {where} of {ship.name} (M09)."
        across = land_across(self._land(state), ship.position, target.position)
        if across is not None:
            return (
                f"{target.name} is behind land: the torpedo's run crosses the land at "
                f"({across.q},{across.r}) (NW-MEM-06)."
            )
        return None

    def run_course(
        self, state: BattleState, ship: ShipState, course: str, blocked: Container[Hex]
    ) -> tuple[Hex, float, list[Hex], str]:
        """Follow a course from the ship's hex; return end hex, heading, hexes entered and why it ended.

        The reason is ``""`` (course completed), ``"blocked"`` (next hex held by a ship afloat or land: stop,
        NW-MEM-04) or ``"off_map"`` (the ship sailed off the map: it leaves the battle, NW-MEM-05).
        """
        assert isinstance(ship.position, Hex)
        pos, heading = ship.position, ship.heading
        path: list[Hex] = []
        for c in course:
            if c == "L":
                heading = norm_deg(heading - 60)
            elif c == "R":
                heading = norm_deg(heading + 60)
            else:
                nxt = step(pos, heading)
                if not self._on_map(state, nxt):
                    return pos, heading, path, "off_map"
                if nxt in blocked:
                    return pos, heading, path, "blocked"
                pos = nxt
                path.append(pos)
        return pos, heading, path, ""

    # --- orders ---------------------------------------------------------------------------------

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        errors: FieldErrors = {}
        data = order.data
        course = course_text(data.get("course"))
        if course:
            if ship.sheet.get("breaking_off"):
                errors.setdefault("course", []).append(
                    f"{ship.name} is breaking off (M08): the rules steer her away; give no course."
                )
            else:
                for msg in course_errors(course, _int(ship.stats.get("speed"), 1)):
                    errors.setdefault("course", []).append(msg)
        target_id = data.get("target")
        if target_id:
            gun_msg = self.gun_target_error(state, ship, _ship_or_none(state, str(target_id)), str(target_id))
            if gun_msg:
                errors.setdefault("target", []).append(gun_msg)
        torp = data.get("torpedo")
        if torp:
            torp_msg = self.torpedo_target_error(state, ship, _ship_or_none(state, str(torp)), str(torp))
            if torp_msg:
                errors.setdefault("torpedo", []).append(torp_msg)
        return errors

    def _enemies(self, state: BattleState, ship: ShipState) -> list[ShipState]:
        side = ship.side
        return [t for t in state.ships if t.side != side and t.status == "active"]

    def best_gun_target(self, state: BattleState, ship: ShipState) -> ShipState | None:
        """Return the enemy the guns would throw most dice at now (nearest on ties), or None."""
        assert isinstance(ship.position, Hex)
        b = _int(ship.stats.get("gun_dice"))
        reach = max(max_gun_range(b, "abeam"), max_gun_range(b, "ahead"))  # odd B reaches B + 1 ahead (M06)
        best: tuple[int, int, str] | None = None
        pick = None
        land = self._land(state)
        for t in self._enemies(state, ship):
            assert isinstance(t.position, Hex)
            rng = hex_distance(ship.position, t.position)
            if rng > reach:
                continue
            n = gun_dice(b, rng, arc_for(ship.position, ship.heading, t.position))
            if n <= 0 or (land and land_across(land, ship.position, t.position) is not None):
                continue  # (NW-MEM-06: none behind land)
            key = (-n, rng, t.id)
            if best is None or key < best:
                best, pick = key, t
        return pick

    def nearest_gun_target(self, state: BattleState, ship: ShipState) -> ShipState | None:
        """Return the nearest enemy the guns can reach now (A7 'fire at the nearest'), or None."""
        assert isinstance(ship.position, Hex)
        b = _int(ship.stats.get("gun_dice"))
        reach = max(max_gun_range(b, "abeam"), max_gun_range(b, "ahead"))  # odd B reaches B + 1 ahead (M06)
        best: tuple[int, str] | None = None
        pick = None
        land = self._land(state)
        for t in self._enemies(state, ship):
            assert isinstance(t.position, Hex)
            rng = hex_distance(ship.position, t.position)
            if rng > reach or gun_dice(b, rng, arc_for(ship.position, ship.heading, t.position)) <= 0:
                continue
            if land and land_across(land, ship.position, t.position) is not None:
                continue  # (NW-MEM-06: none behind land)
            if best is None or (rng, t.id) < best:
                best, pick = (rng, t.id), t
        return pick

    def nearest_torpedo_target(self, state: BattleState, ship: ShipState) -> ShipState | None:
        """Return the nearest enemy a torpedo may be fired at now, or None."""
        if (
            str(ship.stats.get("torpedo_fit") or "none") == "none"
            or _int(ship.sheet.get("torpedoes_left")) <= 0
        ):
            return None
        assert isinstance(ship.position, Hex)
        best: tuple[int, str] | None = None
        pick = None
        for t in self._enemies(state, ship):
            assert isinstance(t.position, Hex)
            rng = hex_distance(ship.position, t.position)
            if rng > T.TORPEDO_RULES["range_hexes"]:
                continue
            if self.torpedo_target_error(state, ship, t, t.id) is None and (
                best is None or (rng, t.id) < best
            ):
                best, pick = (rng, t.id), t
        return pick

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """What in her sheet is not of the shape of the module docstring's Sheet JSON (docs/rulings.md
        NW-MEM-09): whole numbers, ``breaking_off`` true or false, and a critical point below her
        flotation (so a flotation of 1 or more), and an active ship with some of it left (M07: she sinks when
        it is gone; docs/rulings.md NW-MEM-10)."""
        sh = ship.sheet
        out = sheet_kind_errors(sh, MEMOIR_SHEET_KINDS, ship.id, ())
        flotation, critical, damage = sh.get("flotation"), sh.get("critical_point"), sh.get("damage")
        if type(flotation) is int and type(critical) is int and critical >= flotation:
            out.append(f"critical_point ({critical}) must be below her flotation ({flotation})")
        # (a flotation of 0 has no critical point below it: refused above)
        afloat = not out and ship.status == "active" and type(flotation) is int and type(damage) is int
        if afloat and cast(int, damage) >= cast(int, flotation):
            out.append(
                f"damage ({damage}) sinks her, with flotation {flotation} (M07): an active ship has taken at "
                f"most {cast(int, flotation) - 1}; set her status to sunk, or take less damage"
            )
        return out

    def top_speed(self, ship: ShipState) -> float | None:
        """Return her class's speed in hexes a turn (the class's ``speed``; NW-CAMP-29)."""
        return float(max(0, _int(ship.stats.get("speed"), 1)))

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        breaking = bool(ship.sheet.get("breaking_off"))
        speed = min(int(ship.speed), _int(ship.stats.get("speed"), 1))
        data: dict[str, JSON] = {"course": "" if breaking else "F" * speed}
        if policy == "captain" and not breaking:
            data["course"] = self._captain_course(state, ship)
        if policy != "hold":
            gun = (
                self.best_gun_target(state, ship)
                if policy == "captain"
                else self.nearest_gun_target(state, ship)
            )
            if gun is not None:
                data["target"] = gun.id
            torp = self.nearest_torpedo_target(state, ship)
            if torp is not None:
                data["torpedo"] = torp.id
        return ShipOrder(ship_id=ship.id, data=data)

    def _captain_course(self, state: BattleState, ship: ShipState) -> str:
        """A7's automatic captain: bring the broadside to bear at a range where our dice beat theirs."""
        enemies = self._enemies(state, ship)
        speed = _int(ship.stats.get("speed"), 1)
        if not enemies:
            return "F" * min(int(ship.speed), speed)
        blocked = self._blocked(state, ship)
        b = _int(ship.stats.get("gun_dice"))
        has_torp = (
            str(ship.stats.get("torpedo_fit") or "none") != "none"
            and _int(ship.sheet.get("torpedoes_left")) > 0
        )
        land = self._land(state)
        best: tuple[float, str] | None = None
        for course in legal_courses(speed):
            pos, heading, _, why = self.run_course(state, ship, course, blocked)
            if why:
                continue
            score = 0.3 * len(course)  # keep steam up: a stopped ship is a sitting duck
            if land and step(pos, heading) in land:
                # bows on to land: she can never turn again (a turn needs a hex forward first, Movement)
                score -= 20.0
            near = sorted(enemies, key=lambda t: (hex_distance(pos, cast(Hex, t.position)), t.id))[:3]
            for i, t in enumerate(near):
                assert isinstance(t.position, Hex)
                rng = hex_distance(pos, t.position)
                weight = 1.0 if i == 0 else 0.4
                if land and land_across(land, pos, t.position) is not None:
                    mine = theirs = 0  # NW-MEM-06: land between them hides both
                else:
                    mine = gun_dice(b, rng, arc_for(pos, heading, t.position))
                    theirs = gun_dice(_int(t.stats.get("gun_dice")), rng, arc_for(t.position, t.heading, pos))
                score += weight * (mine - 0.6 * theirs)
                if (
                    has_torp
                    and i == 0
                    and rng <= T.TORPEDO_RULES["range_hexes"]
                    and torpedo_bears(str(ship.stats.get("torpedo_fit")), pos, heading, t.position)
                ):
                    score += 1.5
            col, row = hex_to_offset(pos)
            if min(col, row, state.map.width - 1 - col, state.map.height - 1 - row) < 2:
                score -= 1.0
            key = (-score, course)
            if best is None or key < (-best[0], best[1]):
                best = (score, course)
        return best[1] if best else ""

    def _blocked(self, state: BattleState, ship: ShipState) -> set[Hex]:
        out = self._land(state)
        for s in state.ships:
            if s.id != ship.id and s.active and isinstance(s.position, Hex):
                out.add(s.position)
        return out

    def break_off_course(self, state: BattleState, ship: ShipState, blocked: Container[Hex]) -> str:
        """Return the course a ship breaking off sails (NW-MEM-03).

        The course, of full speed if possible, that ends farthest from the nearest enemy; sailing off the
        map beats everything (she has reached safety); ties go to the course nearer a map edge, then to the
        alphabetically first course.
        """
        enemies = [cast(Hex, t.position) for t in self._enemies(state, ship)]
        return self._break_off_course(state, ship, blocked, enemies)

    def _break_off_course(
        self, state: BattleState, ship: ShipState, blocked: Container[Hex], enemies: list[Hex]
    ) -> str:
        """:meth:`break_off_course` against the enemies afloat at ``enemies`` (their hexes, in any order)."""
        assert isinstance(ship.position, Hex)
        speed = _int(ship.stats.get("speed"), 1)
        # Every course ends within ``speed`` hexes of the ship, so an enemy more than 2 * speed hexes farther
        # than the nearest one is never the nearest to the end of a course: leave it out of the minimum.
        sq, sr = ship.position.q, ship.position.r
        near = [((abs(sq - e.q) + abs(sr - e.r) + abs(sq - e.q + sr - e.r)) // 2, e.q, e.r) for e in enemies]
        cut = min(near)[0] + 2 * speed if near else 0
        foes = [(eq, er) for d, eq, er in near if d <= cut]
        ends = self._course_ends(state, ship, speed, blocked)
        width, height = state.map.width, state.map.height
        best: tuple[tuple[float, float, int, str], str] | None = None
        nearest: dict[tuple[int, int], tuple[float, float]] = {}  # courses often end in the same hex
        for course in legal_courses(speed):
            pos, why = ends[course]
            if why == "off_map":
                key: tuple[float, float, int, str] = (-1e9, 0.0, len(course), course)
            else:
                q, r = pos.q, pos.r
                at = nearest.get((q, r))
                if at is None:
                    # hex_distance to every enemy near enough, inlined: this runs for every course end
                    far = min(
                        ((abs(q - eq) + abs(r - er) + abs(q - eq + r - er)) // 2 for eq, er in foes),
                        default=0,
                    )
                    col, row = hex_to_offset(pos)
                    edge = min(col, row, width - 1 - col, height - 1 - row)
                    at = nearest[q, r] = (-float(far), float(edge))
                key = (at[0], at[1], -len(course), course)
            if best is None or key < best[0]:
                best = (key, course)
        return best[1] if best else ""

    def _course_ends(
        self, state: BattleState, ship: ShipState, speed: int, blocked: Container[Hex]
    ) -> dict[str, tuple[Hex, str]]:
        """Return the end hex and :meth:`run_course`'s reason of every legal course (M10) of the ship.

        Each course is followed on from its one-letter-shorter prefix (a legal course's prefixes are legal
        courses): a course whose prefix has already stopped stops there too, as :meth:`run_course` does.
        """
        assert isinstance(ship.position, Hex)
        runs: dict[str, tuple[Hex, float, str]] = {"": (ship.position, ship.heading, "")}
        for course in _courses_by_length(speed):
            pos, heading, why = runs[course[:-1]]
            if not why:
                c = course[-1]
                if c == "L":
                    heading = norm_deg(heading - 60)
                elif c == "R":
                    heading = norm_deg(heading + 60)
                else:
                    nxt = step(pos, heading)
                    if not self._on_map(state, nxt):
                        why = "off_map"
                    elif nxt in blocked:
                        why = "blocked"
                    else:
                        pos = nxt
            runs[course] = (pos, heading, why)
        return {c: (pos, why) for c, (pos, _, why) in runs.items()}

    # --- resolution --------------------------------------------------------------------------------

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        turn = state.turn
        events: list[Event] = []
        start = len(dice.rolls)

        # Turn Sequence: each side throws a D6; the lowest moves first (M02: re-roll ties).
        sides = [s for s in state.side_keys() if any(sh.side == s and sh.active for sh in state.ships)]
        order_of_sides = roll_initiative(
            sides, dice, events, turn, high_first=False, rule="Turn Sequence, M02", names=state.side_names()
        )

        ships = state.ship_map()
        damage: dict[str, int] = {}
        # Guns first, then torpedoes, all at once on the positions at the start of the turn: damage is
        # applied only after every ship has fired, so a ship sunk this turn still fires (Turn Sequence).
        firing = [(s, o.data) for s in state.ships if s.status == "active" and (o := orders.get(s.id))]
        for s, data in firing:
            if data.get("target"):
                self._fire_guns(state, s, str(data["target"]), dice, events, damage)
        for s, data in firing:
            if data.get("torpedo"):
                ships[s.id] = self._fire_torpedo(
                    state, ships[s.id], str(data["torpedo"]), dice, events, damage
                )

        # Damage and Sinking (M07, M08).
        place = {s.id: k for k, s in enumerate(state.ships)}
        for sid in sorted(damage, key=place.__getitem__):
            ships[sid] = self._apply_damage(ships[sid], damage[sid], turn, events)

        # Movement, side by side in initiative order; a ship breaking off is steered by the rules.
        # Hexes held by ships afloat, counted, kept up to date as ships move (NW-MEM-04).
        land = self._land(state)
        held: dict[Hex, int] = {}
        for cur in ships.values():
            if cur.status == "active" and isinstance(cur.position, Hex):
                held[cur.position] = held.get(cur.position, 0) + 1
        for side in order_of_sides:
            for s in state.ships:
                if s.side != side:  # a ship's side never changes
                    continue
                cur = ships[s.id]
                if cur.status != "active":
                    continue
                order = orders.get(s.id)
                if order is None and not cur.sheet.get("breaking_off"):
                    continue
                moved = self._move(state, ships, cur, order, events, _Blocked(land, held, cur))
                ships[s.id] = moved
                assert isinstance(cur.position, Hex)
                held[cur.position] -= 1
                if moved.status == "active" and isinstance(moved.position, Hex):
                    held[moved.position] = held.get(moved.position, 0) + 1

        new = replace(state.with_ships(ships), initiative=tuple(order_of_sides))
        return PhaseResult(state=new, events=tuple(events), rolls=tuple(dice.rolls[start:]))

    def _fire_guns(
        self,
        state: BattleState,
        ship: ShipState,
        target_id: str,
        dice: Dice,
        events: list[Event],
        damage: dict[str, int],
    ) -> None:
        target = _ship_or_none(state, target_id)
        msg, rng, arc, b, n = self._gun_shot(ship, target, target_id, self._land(state))
        if msg or target is None:
            events.append(
                Event(
                    kind="no_shot",
                    turn=state.turn,
                    ship_id=ship.id,
                    target_id=target_id,
                    text=f"{ship.name} holds fire: {msg}",
                    visible_to=(ship.side,),
                )
            )
            return
        first = len(dice.rolls)
        purpose = f"{ship.name} guns at {target.name}"
        values = [dice.roll("MEMOIR", purpose) for _ in range(n)]
        major, minor, miss, points = read_dice(values)
        noun = "die" if n == 1 else "dice"
        mods: tuple[Modifier, ...]
        if arc == "abeam":
            mods = (
                Modifier(label=f"abeam, full effect: {b} dice, -1 a hex beyond the first (M05)", value=n - b),
            )
        else:
            half = -(-b // 2)
            mods = (
                Modifier(label=f"{arc}, half effect: {b} -> {half} dice (M06 rounds up)", value=half - b),
                Modifier(label="-1 for every two hexes beyond the first (M05)", value=n - half),
            )
        events.append(
            Event(
                kind="fire",
                turn=state.turn,
                ship_id=ship.id,
                target_id=target.id,
                text=(
                    f"{ship.name} fires at {target.name}, {rng} hexes {arc}: {n} {noun} -> {major} major, "
                    f"{minor} minor, {miss} miss = {points} point(s)."
                ),
                rolls=tuple(dice.rolls[first:]),
                modifiers=mods,
                outcome="hit" if points else "miss",
                data={
                    "weapon": "guns",
                    "dice": n,
                    "range": rng,
                    "arc": arc,
                    "major": major,
                    "minor": minor,
                    "miss": miss,
                    "points": points,
                },
                # A2, NW-CAMP-15: the firer's side's and the target's; every side's when they are two
                visible_to=scored_visibility(ship.side, target.side, state.side_keys()),
            )
        )
        if points:
            damage[target.id] = damage.get(target.id, 0) + points

    def _fire_torpedo(
        self,
        state: BattleState,
        ship: ShipState,
        target_id: str,
        dice: Dice,
        events: list[Event],
        damage: dict[str, int],
    ) -> ShipState:
        target = _ship_or_none(state, target_id)
        msg = self.torpedo_target_error(state, ship, target, target_id)
        if msg or target is None:
            events.append(
                Event(
                    kind="no_shot",
                    turn=state.turn,
                    ship_id=ship.id,
                    target_id=target_id,
                    text=f"{ship.name} fires no torpedo: {msg}",
                    visible_to=(ship.side,),
                )
            )
            return ship
        assert isinstance(ship.position, Hex) and isinstance(target.position, Hex)
        rng = hex_distance(ship.position, target.position)
        first = len(dice.rolls)
        purpose = f"{ship.name} torpedo at {target.name}"
        values = [dice.roll("MEMOIR", purpose) for _ in range(T.TORPEDO_RULES["dice"])]
        major, minor, miss, points = read_dice(values)
        left = _int(ship.sheet.get("torpedoes_left")) - 1
        # A2, NW-CAMP-15: the firer's side's and the target's; every side's when they are two
        seen_by = scored_visibility(ship.side, target.side, state.side_keys())
        data: dict[str, JSON] = {
            "weapon": "torpedo",
            "dice": 3,
            "range": rng,
            "major": major,
            "minor": minor,
            "miss": miss,
            "points": points,
        }
        if seen_by is None:
            # A2: the count left is her sheet's. Every side sees every launch when the event is every side's,
            # so it tells no one anything; with a third side it would tell the target's side of launches at
            # the third that it never saw (NW-CAMP-15).
            data["torpedoes_left"] = left
        events.append(
            Event(
                kind="torpedo",
                turn=state.turn,
                ship_id=ship.id,
                target_id=target.id,
                text=(
                    f"{ship.name} fires a torpedo at {target.name}, {rng} hexes: 3 dice -> {major} major, "
                    f"{minor} minor, {miss} miss = {points} point(s)."
                ),
                rolls=tuple(dice.rolls[first:]),
                outcome="hit" if points else "miss",
                data=data,
                visible_to=seen_by,
            )
        )
        if points:
            damage[target.id] = damage.get(target.id, 0) + points
        return ship.replace(sheet={**ship.sheet, "torpedoes_left": left})

    def _apply_damage(self, ship: ShipState, points: int, turn: int, events: list[Event]) -> ShipState:
        total = _int(ship.sheet.get("damage")) + points
        flotation = _int(ship.sheet.get("flotation"), 1)
        cp = _int(ship.sheet.get("critical_point"))
        left = flotation - total
        sheet: dict[str, JSON] = {**ship.sheet, "damage": total}
        events.append(
            Event(
                kind="damage",
                turn=turn,
                ship_id=ship.id,
                text=f"{ship.name} loses {points} point(s): Flotation Value {max(left, 0)} of "
                f"{flotation} (Critical Point {cp}).",
                data={
                    "points": points,
                    "damage": total,
                    "flotation_left": max(left, 0),
                    "critical_point": cp,
                },
                visible_to=(ship.side,),
            )
        )
        if left <= 0:
            events.append(
                Event(
                    kind="sunk",
                    turn=turn,
                    ship_id=ship.id,
                    outcome="sunk",
                    text=f"{ship.name} sinks: her Flotation Value is gone (M07).",
                )
            )
            return ship.replace(sheet=sheet, status="sunk", flags=("sinking",))
        if left <= cp and not ship.sheet.get("breaking_off"):
            sheet["breaking_off"] = True
            events.append(
                Event(
                    kind="break_off",
                    turn=turn,
                    ship_id=ship.id,
                    outcome="break_off",
                    text=f"{ship.name} has reached her Critical Point and breaks off from the battle "
                    f"from the next move (M08).",
                )
            )
            return ship.replace(sheet=sheet, flags=tuple(sorted(set(ship.flags) | {"breaking_off"})))
        return ship.replace(sheet=sheet)

    def _move(
        self,
        state: BattleState,
        ships: dict[str, ShipState],
        ship: ShipState,
        order: ShipOrder | None,
        events: list[Event],
        blocked: Container[Hex],
    ) -> ShipState:
        breaking = bool(ship.sheet.get("breaking_off"))
        if breaking:
            # break_off_course on the ships as they are now (those that moved before her, where they are)
            side = ship.side
            enemies = [
                cast(Hex, t.position) for t in ships.values() if t.side != side and t.status == "active"
            ]
            course = self._break_off_course(state, ship, blocked, enemies)
            note = " (breaking off, M08: course set by the rules, NW-MEM-03)"
        else:
            course = course_text(order.data.get("course") if order else "")
            note = ""
        pos, heading, path, why = self.run_course(state, ship, course, blocked)
        status = ship.status
        if why == "blocked":
            note += "; stopped: next hex taken (NW-MEM-04)"
        elif why == "off_map":
            status = "withdrawn"
            note += "; sails off the map and leaves the battle (NW-MEM-05)"
        assert isinstance(ship.position, Hex)
        events.append(
            Event(
                kind="move",
                turn=state.turn,
                ship_id=ship.id,
                text=f"{ship.name} {('moves ' + course + ' to') if course else 'stays at'} "
                f"({pos.q},{pos.r}) heading {heading:g}{note}.",
                outcome="withdrawn" if status == "withdrawn" else "",
                data={
                    "course": course,
                    "path": [{"q": h.q, "r": h.r} for h in [ship.position, *path]],
                    "heading": heading,
                    "default": bool(order.default) if order else False,
                },
            )
        )
        return ship.replace(position=pos, heading=heading, speed=float(course_cost(course)), status=status)

    # --- views ------------------------------------------------------------------------------------

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        if not tally_shown(side, state):
            return {}  # NW-CAMP-15: a bare tally mixes the sides' hits; with three sides each reads its log
        # A2: an opponent knows the hits scored on the ship, not her Flotation Value or Critical Point.
        return {"damage": ship.sheet.get("damage", 0)}

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        lines: list[str] = []
        data = order.data
        ships = state.ship_map()
        assert isinstance(ship.position, Hex)
        target_id = data.get("target")
        if target_id and str(target_id) in ships:
            t = ships[str(target_id)]
            assert isinstance(t.position, Hex)
            rng = hex_distance(ship.position, t.position)
            arc = arc_for(ship.position, ship.heading, t.position)
            n = gun_dice(_int(ship.stats.get("gun_dice")), rng, arc)
            across = land_across(self._land(state), ship.position, t.position)
            if across is not None:
                lines.append(
                    f"Guns: {t.name} at {plural(rng, 'hex', 'hexes')} {arc} is behind land at "
                    f"({across.q},{across.r}): no fire (NW-MEM-06)."
                )
            else:
                lines.append(
                    f"Guns: {t.name} at {plural(rng, 'hex', 'hexes')} {arc} -> "
                    f"{plural(n, 'Memoir die', 'Memoir dice')} "
                    f"({'full' if arc == 'abeam' else 'half'} effect, M04-M06)."
                )
        torp = data.get("torpedo")
        if torp and str(torp) in ships:
            t = ships[str(torp)]
            err = self.torpedo_target_error(state, ship, t, t.id)
            lines.append(
                f"Torpedo: {t.name}: "
                + (err or f"3 Memoir dice; {_int(ship.sheet.get('torpedoes_left')) - 1} left after this one.")
            )
        if ship.sheet.get("breaking_off"):
            lines.append("Breaking off (M08): the rules steer her away from the enemy.")
        else:
            course = course_text(data.get("course"))
            wrong = course_errors(course, _int(ship.stats.get("speed"), 1))
            if wrong:  # the order's check refuses it: no course to run
                lines.append(f"Course {course}: not allowed: {' '.join(wrong)}")
                return lines
            pos, heading, _, why = self.run_course(state, ship, course, self._blocked(state, ship))
            extra = {"": "", "blocked": " (would stop: next hex taken)", "off_map": " (sails off the map)"}[
                why
            ]
            lines.append(
                f"Course {course or '(none)'}: costs {plural(course_cost(course), 'hex', 'hexes')} of her "
                f"{plural(_int(ship.stats.get('speed'), 1), 'hex', 'hexes')}; ends at ({pos.q},{pos.r}) "
                f"facing {heading:g}{extra} (guns and torpedoes fire before the move)."
            )
        return lines

    def arcs(self, state: BattleState, ship: ShipState) -> list[ArcSpec]:
        """The arcs the map draws (:func:`.arcs.ship_arcs`, from :meth:`tables`)."""
        return ship_arcs(self.tables(), state, ship)

    def order_hints(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> dict[str, FieldHint]:
        """The order panel's hints (:func:`.hints.ship_hints`)."""
        return ship_hints(state, ship, data)

    def tables(self) -> dict[str, JSON]:
        return {
            "memoir_die": {str(k): {"result": v[0], "points": v[1]} for k, v in T.MEMOIR_DIE.items()},
            "gun_dice_countdown": {
                str(b): {k: list(v) for k, v in rows.items()} for b, rows in T.GUN_DICE_COUNTDOWN.items()
            },
            "arcs_deg": dict(T.ARCS_DEG),
            "torpedo_rules": dict(T.TORPEDO_RULES),
            "torpedo_arcs": {k: list(v) for k, v in T.TORPEDO_ARCS.items()},
            "ship_types": {k: dict(v) for k, v in T.SHIP_TYPES.items()},
            "movement": dict(T.MOVEMENT),
            "seed_anchors": dict(T.SEED_ANCHORS),
        }


RULESET = MemoirSea()
