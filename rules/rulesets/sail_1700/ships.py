"""Ship-level helpers of ``sail_1700``: reading the sheet, sailing speeds, planning a move, fire solutions.

Everything here reads a :class:`~rules.model.BattleState` and returns values; :mod:`.phase` applies them.
Units: millimetres, degrees clockwise from north. Source: ``seeds/001_bb5ec6dbb79b532f.txt`` sections 6, 7, 9,
10, 11, 21, 22 and the S-/NW-SAIL rulings cited inline.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from ... import memo
from ...geometry import advance, bearing, distance, norm_deg, signed_deg, turn_and_advance
from ...model import JSON, BattleState, Point, ShipState, TerrainFeature, _ship_index
from . import core as C
from . import tables as T

# --- reading JSON values ----------------------------------------------------------------------------------


def num(v: JSON, default: float = 0.0) -> float:
    """Return a JSON number as float, or ``default``."""
    if type(v) is float:  # the common case first: this runs tens of thousands of times a phase
        return v
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def inum(v: JSON, default: int = 0) -> int:
    """Return a JSON number as int, or ``default``."""
    if type(v) is int:  # the common case first (bool is a subclass of int, not int itself)
        return v
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def sval(v: JSON, default: str = "") -> str:
    """Return a JSON string, or ``default``."""
    return v if isinstance(v, str) else default


def dval(v: JSON) -> dict[str, JSON]:
    """Return a JSON object, or an empty one."""
    return v if isinstance(v, dict) else {}


def rate_of(ship: ShipState) -> str:
    """Return the ship's rate (``1st`` ... ``6th`` or ``unrated``)."""
    r = ship.stats.get("rate")
    return r if isinstance(r, str) and r in _RATES else "unrated"  # ("unrated" is a rate)


_RATES = frozenset(T.RATES)
"""The rates (T.RATES), for :func:`rate_of`'s test in one hash lookup."""


def nation_of(ship: ShipState) -> str:
    """Return the ship's nation."""
    return sval(ship.stats.get("nation"), "Other")


def service_of(ship: ShipState) -> str:
    """Return ``warship``, ``merchant`` or ``transport``."""
    return sval(ship.stats.get("service"), "warship")


def points_start(ship: ShipState) -> int:
    """Return the starting crew/damage points."""
    start = ship.sheet.get("points_start")
    if type(start) is int:  # the sheet's value, as inum would give it, without working out the default
        return start
    return inum(start, inum(ship.stats.get("points"), 1))


def rowing_points(ship: ShipState) -> int:
    """Return the points that say whether the vessel may be rowed (10.): her starting points, or for a
    merchantman or transport those of her comparable man of war (``man_of_war_points``, NW-SAIL-30): oars
    move a hull, and 10. measures its size (NW-SAIL-37)."""
    stats = ship.stats
    mow = stats.get("man_of_war_points")
    if mow is not None and sval(stats.get("service"), "warship") in ("merchant", "transport"):
        return inum(mow)
    return points_start(ship)


def points(ship: ShipState) -> int:
    """Return the current crew/damage points."""
    return inum(ship.sheet.get("points"), points_start(ship))


def point_xy(p: JSON) -> Point | None:
    """Return a Point from ``{"x", "y"}`` or ``[x, y]`` JSON, or None."""
    if isinstance(p, dict):
        return Point(x=num(p.get("x")), y=num(p.get("y")))
    if isinstance(p, list) and len(p) == 2:
        return Point(x=num(p[0]), y=num(p[1]))
    return None


# --- conditions ---------------------------------------------------------------------------------------------


def wind_from(state: BattleState) -> float:
    """Return the direction the wind blows from (degrees)."""
    return state.conditions.wind_from if state.conditions.wind_from is not None else 0.0


def wind_force(state: BattleState) -> str:
    """Return the wind force: calm, light, moderate, strong or gale."""
    return state.conditions.wind_force or "moderate"


def weather_condition(state: BattleState) -> str:
    """Return the weather condition: fog, clear, rain or storm (S05)."""
    return state.conditions.weather or "clear"


def weather_effect(state: BattleState) -> tuple[str, float]:
    """Return (firing rule, speed factor) of the current weather (5.)."""
    cond = state.conditions  # weather_condition(), wind_force() written out: every fire plan asks
    return C.weather_effect(cond.weather or "clear", cond.wind_force or "moderate")


def option(state: BattleState, name: str, default: JSON) -> JSON:
    """Return a battle option, or its default."""
    v = state.options.get(name)
    return default if v is None else v


# --- terrain ------------------------------------------------------------------------------------------------


def _in_polygon(p: Point, poly: list[Point]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if (a.y > p.y) != (b.y > p.y):
            x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
            if p.x < x:
                inside = not inside
    return inside


@dataclass(slots=True)
class Shoal:
    """A shoal: depth in fathoms over a circle (centre, radius) or a polygon, with its bounding box."""

    depth: float
    centre: Point
    radius: float
    poly: list[Point]
    box: tuple[float, float, float, float]

    def contains(self, p: Point) -> bool:
        """Return True if the point lies on the shoal."""
        x0, y0, x1, y1 = self.box
        if not (x0 <= p.x <= x1 and y0 <= p.y <= y1):
            return False
        if self.poly:
            return _in_polygon(p, self.poly)
        return distance(p, self.centre) <= self.radius


def shoals(terrain: Iterable[TerrainFeature]) -> list[Shoal]:
    """Return the shoals of the terrain (A3: kind ``shoal``, props ``depth`` fathoms and ``radius`` or
    ``polygon``)."""
    out: list[Shoal] = []
    for t in terrain:
        if t.kind != "shoal" or not isinstance(t.position, Point):
            continue
        depth = num(t.props.get("depth"), 0.0)
        raw = t.props.get("polygon")
        poly = [q for q in (point_xy(v) for v in raw) if q is not None] if isinstance(raw, list) else []
        radius = num(t.props.get("radius"), 0.0)
        if poly:
            box = (
                min(q.x for q in poly),
                min(q.y for q in poly),
                max(q.x for q in poly),
                max(q.y for q in poly),
            )
        else:
            c = t.position
            box = (c.x - radius, c.y - radius, c.x + radius, c.y + radius)
        out.append(Shoal(depth=depth, centre=t.position, radius=radius, poly=poly, box=box))
    return out


def _nearest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b.x - a.x, b.y - a.y
    L = dx * dx + dy * dy
    if L <= 0:
        return a
    t = max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / L))
    return Point(x=a.x + t * dx, y=a.y + t * dy)


def nearest_shore(terrain: Iterable[TerrainFeature], p: Point) -> Point | None:
    """Return the nearest point of dry land to ``p`` (mm), or None when the table has none.

    Dry land is a shoal of depth 0 fathoms or less (A3; ``docs/map.md``: depth 0 = dry), a circle
    (``radius``) or a polygon; the point is on its edge (``p`` itself when it lies on the land). Used by the
    working parties of 24. (NW-SAIL-23).
    """
    best: tuple[float, Point] | None = None
    for s in shoals(terrain):
        if s.depth > 0:
            continue
        if s.contains(p):
            return p
        if s.poly:
            n = len(s.poly)
            cands = [_nearest_on_segment(p, s.poly[i], s.poly[(i + 1) % n]) for i in range(n)]
        else:
            d = distance(p, s.centre)
            if d <= 0:
                cands = [p]
            else:
                k = s.radius / d
                cands = [Point(x=s.centre.x + (p.x - s.centre.x) * k, y=s.centre.y + (p.y - s.centre.y) * k)]
        for q in cands:
            dq = distance(p, q)
            if best is None or dq < best[0]:
                best = (dq, q)
    return None if best is None else best[1]


def depth_at(state: BattleState, p: Point, shoal_list: list[Shoal] | None = None) -> float:
    """Return the depth in fathoms at a point: the shallowest shoal over it, else the sea depth option."""
    depth = num(option(state, "sea_depth_fathoms", 50.0), 50.0)
    for s in shoal_list if shoal_list is not None else shoals(state.terrain):
        if s.depth < depth and s.contains(p):
            depth = s.depth
    return depth


# --- speeds and manoeuvre -----------------------------------------------------------------------------------


def reduction_pct(ship: ShipState) -> int:
    """Return the cumulative speed reduction in percent (S11)."""
    return reduction_pct_of(ship.sheet)


def reduction_pct_of(sheet: Mapping[str, JSON]) -> int:
    """Return the cumulative speed reduction in percent (S11) of a sheet."""
    return C.speed_reduction_pct(inum(sheet.get("mast_hits")), bool(sheet.get("severe_underwater")))


def sail_speed(state: BattleState, ship: ShipState, heading: float) -> float:
    """Return the sailing speed in mm per move on ``heading``: rate and point of sailing (6.), damage (S11),
    jury mast (S09) and the weather's speed factor (5.). Irons and dismasted: 0."""
    return sector_speed(state, ship, C.point_of_sailing(heading, wind_from(state))[0])


_SECTORS: dict[tuple[float, float], str] = memo.table({})


def sector_of(heading: float, wind_from: float) -> str:
    """Return the point of sailing of :func:`.core.point_of_sailing` (the sector alone), worked out once per
    heading and wind (a fleet sails on a few headings)."""
    key = (heading, wind_from)
    out = _SECTORS.get(key)
    if out is None:
        if len(_SECTORS) > 4096:
            _SECTORS.clear()
        out = _SECTORS[key] = C.point_of_sailing(heading, wind_from)[0]
    return out


_SPEEDS: dict[tuple[str | bool | int | None, ...], float] = memo.table({})

SPEED_VALUES = itemgetter("dismasted", "jury_mast", "mast_hits", "severe_underwater")
"""The sheet's values a sailing speed depends on (:func:`_sector_speed`), as a tuple, or KeyError when one is
missing."""

SPEED_CLEAR: tuple[JSON, ...] = (False, False, 0, False)
""":data:`SPEED_VALUES` of a new sheet (``Sail1700.new_sheet``): a sheet whose values are equal to these
sails at the full speed of her rate (each value is then False or 0 by ``bool()`` and ``inum()``, as
:func:`sector_speed`'s key has them)."""


def sector_speed(state: BattleState, ship: ShipState, sector: str, rate: str | None = None) -> float:
    """Return :func:`sail_speed` on a heading in ``sector`` (its point of sailing,
    :func:`.core.point_of_sailing`), worked out once per sector and what it depends on: rate, masts, hull
    and weather. ``rate``: the ship's :func:`rate_of`, when the caller has it."""
    sheet = ship.sheet
    cond = state.conditions
    try:
        values = SPEED_VALUES(sheet)
    except KeyError:
        values = None
    key: tuple[str | bool | int | None, ...]
    if values == SPEED_CLEAR:
        # masts and hull whole (most ships): the key of rate and weather alone (four items: no other key's)
        key = (sector, rate_of(ship) if rate is None else rate, cond.weather, cond.wind_force)
    else:
        get = sheet.get
        hits = get("mast_hits")
        dismasted, jury, severe = get("dismasted"), get("jury_mast"), get("severe_underwater")
        key = (
            sector,
            rate_of(ship) if rate is None else rate,
            dismasted if type(dismasted) is bool else bool(dismasted),  # (bool() called only for a non-bool)
            jury if type(jury) is bool else bool(jury),
            hits if type(hits) is int else inum(hits),
            severe if type(severe) is bool else bool(severe),
            cond.weather,
            cond.wind_force,
        )
    out = _SPEEDS.get(key)
    if out is None:
        if len(_SPEEDS) > 4096:
            _SPEEDS.clear()
        out = _SPEEDS[key] = _sector_speed(state, ship, sector)
    return out


def _sector_speed(state: BattleState, ship: ShipState, sector: str) -> float:
    sheet = ship.sheet
    if sheet.get("dismasted") and not sheet.get("jury_mast"):
        return 0.0
    base = C.base_speed(rate_of(ship), sector)
    if sheet.get("jury_mast"):
        s = base * T.JURY_MAST_FRACTION  # the jury rig replaces the masts: their hits no longer count
        if sheet.get("severe_underwater"):
            # 13. line 190: "all sailing speeds reduced by 50%", the jury mast's too (NW-SAIL-34)
            s *= 1.0 - T.SEVERE_UNDERWATER_REDUCTION_PCT / 100.0
    else:
        s = base * max(0.0, 1.0 - reduction_pct_of(sheet) / 100.0)
    return s * weather_effect(state)[1]


def drift_distance(state: BattleState, ship: ShipState) -> float:
    """Return the downwind drift in mm: 25% of the vessel's Aft speed, times the weather's factor (6.;
    S09): none in a calm, half in a light breeze or a gale (5.; NW-SAIL-33)."""
    return C.base_speed(rate_of(ship), "aft") * T.DRIFT_FRACTION_OF_AFT * weather_effect(state)[1]


def half_speed_turns(ship: ShipState) -> bool:
    """Return True if the vessel makes every course change at half speed: merchant or transport, 50% or more
    of its points lost (S10), or its wheel crew hit (13.)."""
    if service_of(ship) != "warship" or ship.sheet.get("wheel_hit"):
        return True
    return points(ship) <= points_start(ship) * T.HALF_SPEED_TURN_LOSS_FRACTION


MOBILE_KEYS = ("entangled_with", "abandoned", "aground", "towed_by", "anchored", "dismasted", "drift_moves")
"""Sheet keys of which one must be set (or the sails not set) for :func:`immobile_reason` to find a reason."""

MOBILE_VALUES = itemgetter(*MOBILE_KEYS)
"""The values of :data:`MOBILE_KEYS` in a sheet, as a tuple (of two keys or more), or KeyError when
one is missing."""

MOBILE_CLEAR: tuple[JSON, ...] = (None, False, False, None, False, False, 0)
""":data:`MOBILE_VALUES` of a new sheet (``Sail1700.new_sheet``, not anchored): every value falsy, as is every
JSON value equal to one of them (so a sheet whose values are equal to these holds the ship by none: one tuple
comparison, whose items are mostly the very objects, instead of ``any()``'s truth test of each)."""


PLAIN_MOVE_KEYS = frozenset(("turn", "speed", "target", "target_2"))
"""Order fields of a plain move (and fire): without any other, :func:`plan_move` need not look for a tack,
oars, an anchor dropped, sails furled or help to refloat."""


def immobile_reason(ship: ShipState) -> str | None:
    """Return why the vessel cannot sail under its own orders this move, or None."""
    sh = ship.sheet
    if sh.get("entangled_with"):
        return "entangled (19.)"
    if sh.get("abandoned"):
        return "abandoned (14.)"
    if sh.get("aground"):
        return "aground (21.)"
    if sh.get("towed_by"):
        return "under tow (9.)"
    if sh.get("anchored"):
        return "at anchor (22.)"
    if sval(sh.get("sails"), "set") != "set":
        return "sails not set (22.)"
    if sh.get("dismasted") and not sh.get("jury_mast"):
        return "dismasted: drifting downwind (6., S09)"
    if inum(sh.get("drift_moves")) > 0:
        return "anchor cable cut: drifting downwind (13.)"
    return None


@dataclass(slots=True)
class MovePlan:
    """What an order would make a vessel do this move, before other vessels and shoals are taken into account.

    ``samples`` are (position, heading) every few millimetres along the track, first = start, last = end;
    ``notes`` say what the log shows of the move besides its distance (a tack, a drift, why she stays).
    ``error`` (with ``field``) is set when the order is illegal. (Only what the checks, the phase, the hints
    and the preview read: one plan is made for every order checked.)
    """

    kind: str
    end: Point
    end_heading: float
    distance: float
    max_distance: float = 0.0
    min_distance: float = 0.0
    samples: list[tuple[Point, float]] = field(default_factory=list)
    notes: tuple[str, ...] = ()
    error: str | None = None
    field: str = "turn"


def sample_track(
    p: Point, heading: float, turn: float, dist: float, radius: float, step: float = 10.0
) -> list[tuple[Point, float]]:
    """Return (position, heading) samples along a move that starts with a turn on a circle of ``radius``.

    Consistent with :func:`rules.geometry.turn_and_advance`: along the circle until the turn is made (or the
    distance runs out), then straight. Samples are at most ``step`` mm apart; start and end included.
    """
    n = max(1, math.ceil(dist / step)) if dist > 0 else 0
    out = [(p, heading)]
    if n == 0:
        return out
    sign = 1.0 if turn > 0 else -1.0
    arc_len = radius * math.radians(abs(turn)) if turn and radius > 0 else 0.0
    if arc_len > 0:
        centre = advance(p, heading + 90.0 * sign, radius)
        start_angle = bearing(centre, p)
    for i in range(1, n + 1):
        s = dist * i / n
        if arc_len > 0 and s <= arc_len:
            turned = math.degrees(s / radius) * sign
            out.append((advance(centre, start_angle + turned, radius), norm_deg(heading + turned)))
        elif arc_len > 0:
            end_arc = advance(centre, start_angle + turn, radius)
            h = norm_deg(heading + turn)
            out.append((advance(end_arc, h, s - arc_len), h))
        else:
            h = norm_deg(heading + (turn if radius <= 0 else 0.0))
            out.append((advance(p, h, s), h))
    return out


def _straight(p: Point, heading: float, dist: float, step: float = 10.0) -> list[tuple[Point, float]]:
    return sample_track(p, heading, 0.0, dist, 0.0, step)


def _still(
    pos: Point,
    heading: float,
    error: str | None = None,
    field_name: str = "turn",
    note: str | None = None,
) -> MovePlan:
    """Return the plan of a vessel that stays where she is: ``error`` (on the order's ``field_name``) when the
    order is illegal, ``note`` saying why she does not move."""
    # by position, in field order (a keyword call to a class costs a dict): kind, end, end_heading, distance,
    # max_distance, min_distance, samples, notes, error, field
    return MovePlan(
        "still",
        pos,
        heading,
        0.0,
        0.0,
        0.0,
        [(pos, heading)],
        () if note is None else (note,),
        error,
        field_name,
    )


def plan_move(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> MovePlan:
    """Return the move an order gives (7., 9., 10., 22.; S08, S10, S43, S46), or a plan with ``error`` set.

    Drift (dismasted, abandoned, cable cut) and moves forced by entanglement or towing are shown as such.
    """
    assert isinstance(ship.position, Point)
    pos, heading = ship.position, ship.heading
    sh = ship.sheet
    speed = ship.speed
    prev = speed if speed > 0.0 else 0.0  # max(0.0, speed), without the builtin's call (so min() below)
    rate = rate_of(ship)
    t = data.get("turn")
    turn = t if type(t) is float else num(t, 0.0)  # num(), without the call for a float (most turns)
    sails = sh.get("sails", "set")
    if sails == "set" or type(sails) is not str:
        try:
            values = MOBILE_VALUES(sh)  # (map(sh.get, MOBILE_KEYS), in one call for a full sheet)
            held = values != MOBILE_CLEAR and any(values)
        except KeyError:
            held = any(map(sh.get, MOBILE_KEYS))
    else:
        held = True
    # immobile_reason() finds none when no key is set and the sails are: most ships (one test, no call)
    reason = immobile_reason(ship) if held else None
    wants_turn = abs(turn) > 1e-9
    # no tack, row, anchor, sails or assist field (most orders): none of their tests below can pass
    plain = PLAIN_MOVE_KEYS.issuperset(data)
    if not plain and data.get("tack"):
        if wants_turn:
            # the tack's turn is the rules' own, into the wind (7.): a turn given too was silently ignored
            # (docs/rulings.md NW-SAIL-41)
            return _still(
                pos, heading, "A tack turns her into the wind by itself (7.): leave the turn at 0.", "turn"
            )
        if reason:
            return _still(pos, heading, f"Cannot tack: {reason}.", "tack")
        if inum(sh.get("mast_hits")) > 0:
            return _still(pos, heading, "Only vessels with no mast damage may tack (7.).", "tack")
        if wind_force(state) in T.TACK_FORBIDDEN_WINDS:
            return _still(pos, heading, f"No tacking in {C.wind_force_text(wind_force(state))} (7.).", "tack")
        if inum(sh.get("no_turn_moves")) > 0:
            return _still(pos, heading, "No course changes: captain killed or wounded (13.).", "tack")
        wf = wind_from(state)
        rel = signed_deg(wf - heading)
        into = rel if abs(rel) > 1e-9 else 1e-6
        radius = C.turning_radius(rate)
        arc = radius * math.radians(abs(into))
        end, _h_wind, _path = turn_and_advance(pos, heading, into, arc, radius)
        new_h = norm_deg(wf + (T.TACK_END_OFF_WIND_DEG if into > 0 else -T.TACK_END_OFF_WIND_DEG))
        samples = sample_track(pos, heading, into, arc, radius)
        samples[-1] = (end, new_h)
        return MovePlan(
            kind="tack",
            end=end,
            end_heading=new_h,
            distance=arc,
            max_distance=arc,
            samples=samples,
            notes=(
                f"tacks through the wind: turns {abs(into):.0f} degrees into the wind, pivots to "
                f"{new_h:.0f} degrees, 45 degrees off on the new tack (7.); a full move",
            ),
        )
    if reason is not None:
        if sh.get("towed_by") or sh.get("entangled_with") or sh.get("aground") or sh.get("anchored"):
            return _still(
                pos,
                heading,
                f"Cannot change course: {reason}." if wants_turn else None,
                note=f"does not move: {reason}",
            )
        if (
            sh.get("abandoned")
            or (sh.get("dismasted") and not sh.get("jury_mast"))
            or inum(sh.get("drift_moves"))
        ):
            d = drift_distance(state, ship)
            down = norm_deg(wind_from(state) + 180.0)
            samples = _straight(pos, down, d)
            end = samples[-1][0]
            plan = MovePlan(
                kind="drift",
                end=end,
                end_heading=heading,
                distance=d,
                max_distance=d,
                samples=[(q, heading) for q, _ in samples],
                notes=(f"drifts {d:.0f} mm downwind ({reason})",),
            )
            if wants_turn:
                plan.error = f"Cannot change course: {reason}."
            return plan
        return _still(
            pos,
            heading,
            f"Cannot change course: {reason}." if wants_turn else None,
            note=f"does not move: {reason}",
        )
    if wants_turn and inum(sh.get("no_turn_moves")) > 0:
        # 13.: no course changes under sail or oars (line 175 "no course changes for next two moves")
        return _still(pos, heading, "No course changes this move: captain killed or wounded (13.).")
    stop = not plain and (
        data.get("anchor") == "drop" or data.get("sails") == "furl" or bool(data.get("assist"))
    )
    if not plain and data.get("row"):
        size = rowing_points(ship)
        if not C.can_row(size):
            by_mow = (
                "" if size == points_start(ship) else f" (her comparable man of war's: {size}, NW-SAIL-37)"
            )
            return _still(
                pos,
                heading,
                f"Only vessels of {T.ROW_MAX_POINTS} points or less can be rowed (10.){by_mow}.",
                "row",
            )
        maxd = T.ROW_MAX_MM
        if wants_turn and half_speed_turns(ship):
            # 7. line 95, 13. line 187: "all changes of course at half speed", under oars too (NW-SAIL-31)
            maxd /= 2.0
        mind = 0.0
        kind = "row"
    else:
        kind = "sail"
        w = state.conditions.wind_from
        wf = 0.0 if w is None else w  # wind_from()
        if wants_turn and C.crosses_fore(heading, turn, wf):
            return _still(
                pos,
                heading,
                "That turn passes through or ends in the 'Fore' section, within 22.5 degrees of the "
                "wind's eye (6., 7., S43); tack instead.",
            )
        old_sector = _SECTORS.get((heading, wf)) or sector_of(heading, wf)  # (a call once a course)
        s_old = sector_speed(state, ship, old_sector, rate)
        if wants_turn:
            new_h = norm_deg(heading + turn)
            s_new = s_old if new_h == heading else sector_speed(state, ship, sector_of(new_h, wf), rate)
            # the lesser speed of the two courses; in irons, half the new one (NW-SAIL-2)
            maxd = s_new / 2.0 if old_sector == "irons" else s_new if s_new < s_old else s_old
            if half_speed_turns(ship):
                maxd /= 2.0
        else:
            # no course change (most orders): the speed of the course held, none in irons (NW-SAIL-2); the
            # new course's speed is not needed
            maxd = 0.0 if old_sector == "irons" else s_old
        if sh.get("towing"):
            maxd *= T.TOW_SPEED_FRACTION
        least = prev * T.MIN_MOVE_FRACTION
        mind = least if least < maxd else maxd
    if stop:
        mind = 0.0
    speed_v = data.get("speed")
    # (num(), without the call for a float: most orders give the distance)
    dist = maxd if speed_v is None else speed_v if type(speed_v) is float else num(speed_v)
    if stop and speed_v is None:
        dist = 0.0
    if dist > maxd + 1e-6 or dist < mind - 1e-6:
        # by position (as in _still): kind, end, end_heading, distance, max_distance, min_distance, samples,
        # notes, error, field
        return MovePlan(
            kind,
            pos,
            heading,
            dist,
            maxd,
            mind,
            [],
            (),
            f"At most {maxd:.0f} mm this move (6., 7.)."
            if dist > maxd + 1e-6
            else f"At least {mind:.0f} mm: a vessel must move 50% of its last move ({prev:.0f} mm; 6., S46).",
            "speed",
        )
    radius = C.turning_radius(rate) if turn else 0.0  # (the circle of a turn: none for a straight move)
    if turn == 0 or radius <= 0:
        # turn_and_advance() of no turn (most orders) or a pivot on the spot, written out: turn first, then
        # straight on
        end_h = heading + turn
        if type(end_h) is not float or not 0.0 <= end_h < 360.0:
            end_h = norm_deg(end_h)  # (the call only for a heading not already normal: the same value)
        # no distance: she keeps her point (advance() would make a new one of the same values, x + 0.0 * sin
        # and y - 0.0 * cos, as floats: a position in whole millimetres now stays so in the state's JSON, 200
        # not 200.0); not on a zero coordinate, where -0.0 + 0.0 would give 0.0
        end = pos if dist == 0.0 and pos.x and pos.y else advance(pos, end_h, dist)
    else:
        end, end_h, _path = turn_and_advance(pos, heading, turn, dist, radius)
    # sample_track() of no distance is the start alone, which the end replaces
    if dist > 0:
        samples = sample_track(pos, heading, turn, dist, radius)
        samples[-1] = (end, end_h)
    else:
        samples = [(end, end_h)]
    return MovePlan(kind, end, end_h, dist, maxd, mind, samples)


# --- work shared by the checks and the resolution of one state ---------------------------------------------


@dataclass(slots=True)
class StateMemo:
    """Values worked out from one battle state, kept while that state is being checked and resolved.

    The engine checks every order of a phase (:meth:`.ruleset.Sail1700.check_order`), then resolves the phase
    from the same state (:class:`.phase.Phase`): both plan the same moves. ``ships`` is the ships by id and
    ``seen`` the ships each side can see (:func:`visible_to_side`); ``plans`` holds, per ship id, the ship,
    the order (a copy) and its :func:`plan_move`; ``enemies`` is the ruleset's per-side list of visible
    enemies; ``shots`` the last :func:`aim` per (firer id, target id) with what it was worked out from;
    ``aimed`` the shot the check of a fire order found with both broadsides free
    (:meth:`.ruleset.Sail1700.fire_plan`: the first target she fires at, so one a firer), by firer id: the
    target id, the firer (the very ship of the state), the samples it was aimed along and the shot, at the
    target as the state has it (:func:`aimed_shot` reads it back).
    Nothing in it may be changed by its readers.
    """

    state: BattleState
    ships: dict[str, ShipState] = field(default_factory=dict)
    seen: dict[str, set[str]] = field(default_factory=dict)
    plans: dict[str, tuple[ShipState, dict[str, JSON], MovePlan]] = field(default_factory=dict)
    enemies: dict[str, list[ShipState]] = field(default_factory=dict)
    shots: dict[tuple[str, str], tuple[ShotKey, Shot | None]] = field(default_factory=dict)
    aimed: dict[str, tuple[str, ShipState, list[tuple[Point, float]], Shot]] = field(default_factory=dict)

    def planned(self, ship: ShipState, data: Mapping[str, JSON]) -> MovePlan:
        """:func:`planned_move` of this memo's state (for a caller that holds the memo)."""
        plans = self.plans
        hit = plans.get(ship.id)
        if hit is not None and hit[0] is ship and hit[1] == data:
            return hit[2]
        plan = plan_move(self.state, ship, data)
        plans[ship.id] = (ship, dict(data), plan)
        return plan

    def aimed_shot(self, ship: ShipState, target_id: str, samples: list[tuple[Point, float]]) -> Shot | None:
        """:func:`aimed_shot` of this memo's state (for a caller that holds the memo)."""
        hit = self.aimed.get(ship.id)
        if hit is not None and hit[1] is ship and hit[2] is samples and hit[0] == target_id:
            return hit[3]
        return None


_MEMO: dict[str, StateMemo] = memo.table({})
"""The memo of the state being checked and resolved, under ``"last"``. Read once per call (one atomic
``dict.get``) and kept only for the very state object it was made from, so two threads of a web process
checking two battles at once each get their own state's memo (at worst worked out again)."""


def state_memo(state: BattleState) -> StateMemo:
    """Return the memo of ``state``: the last one if it was made for this very state, else a new one (which
    replaces it: one state at a time, the one being checked and resolved)."""
    last = _MEMO.get("last")
    if last is not None and last.state is state:
        return last
    memo = StateMemo(state=state, ships=_ship_index(state.ships))  # (the engine's index: read only)
    _MEMO["last"] = memo
    return memo


def forget_state(state: BattleState) -> None:
    """Drop the memo of ``state`` once its phase is resolved (the next phase starts from a new state)."""
    last = _MEMO.get("last")
    if last is not None and last.state is state:
        _MEMO.pop("last", None)


def seen_by(state: BattleState, side: str) -> set[str]:
    """Return :func:`visible_to_side` of ``state``, worked out once per state and side (do not change it)."""
    memo = state_memo(state)
    out = memo.seen.get(side)
    if out is None:
        out = memo.seen[side] = visible_to_side(state, side)
    return out


def planned_move(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> MovePlan:
    """Return :func:`plan_move` for ``ship`` of ``state`` (the very object) and its order ``data``, planned
    once: the check of an order and the move in the phase share the plan. The plan is shared: never change
    it."""
    return state_memo(state).planned(ship, data)


# --- gunnery ------------------------------------------------------------------------------------------------

ShotKey = tuple[str, Mapping[str, bool], list[tuple[Point, float]], Point, float, bool]
"""What :func:`aim` works a shot out from: rate, loaded broadsides, samples, target position and heading,
target is a battery."""


@dataclass(slots=True)
class Shot:
    """The best moment of a move to fire one broadside at one target (11.; S12, S13)."""

    side: str
    at: Point
    heading: float
    range: float
    band: str
    rake: str | None
    double: bool
    score: float


def broadside_state(ship: ShipState, side: str) -> tuple[int, str]:
    """Return (turn from which the broadside may fire, ``round`` or ``double``) of one side."""
    b = dval(dval(ship.sheet.get("broadsides")).get(side))
    return inum(b.get("ready_turn"), 1), sval(b.get("shot"), "round")


def guns_on(ship: ShipState, side: str) -> int:
    """Return the guns left on one side."""
    return guns_in(ship.sheet, side)


def guns_in(sheet: Mapping[str, JSON], side: str) -> int:
    """Return the guns left on one side of a sheet."""
    return inum(dval(sheet.get("guns")).get(side))


def loaded_sides(sheet: Mapping[str, JSON], turn: int, sides: Iterable[str]) -> dict[str, bool]:
    """Return the broadsides of ``sides`` a sheet may fire on ``turn``: loaded (11.: ``ready_turn`` reached)
    with guns left; each True when loaded with double shot."""
    broadsides = sheet.get("broadsides")
    guns = sheet.get("guns")
    out: dict[str, bool] = {}
    if not isinstance(broadsides, dict) or not isinstance(guns, dict):
        broadsides, guns = dval(broadsides), dval(guns)
    for side in sides:
        b = broadsides.get(side)
        if not isinstance(b, dict):
            b = {}
        ready, n = b.get("ready_turn", 1), guns.get(side)
        if (ready if type(ready) is int else inum(ready, 1)) <= turn and (
            n if type(n) is int else inum(n)
        ) > 0:
            out[side] = b.get("shot", "round") == "double"
    return out


ROUND_BOTH: Mapping[str, bool] = {"starboard": False, "port": False}
""":func:`both_loaded` of two broadsides loaded with round shot (the most common), one mapping for all: read
only."""


def both_loaded(sheet: Mapping[str, JSON], turn: int) -> Mapping[str, bool] | None:
    """Return :func:`loaded_sides` of both broadsides (starboard, port) when both are loaded (the common
    case), else None (then ask loaded_sides()). Read only (it may be :data:`ROUND_BOTH`).

    Written out for a sheet of plain values: every key present (a JSON value subscripted by a name is a dict,
    or the subscript raises TypeError), whole numbers for the turns and guns; anything else is None.
    """
    broadsides: Any  # (a dict if subscripted, as its items below)
    guns: Any
    sb: Any
    pt: Any
    try:
        broadsides = sheet["broadsides"]
        guns = sheet["guns"]
        sb = broadsides["starboard"]
        pt = broadsides["port"]
        r_sb = sb["ready_turn"]
        r_pt = pt["ready_turn"]
        n_sb = guns["starboard"]
        n_pt = guns["port"]
        shot_sb = sb["shot"]
        shot_pt = pt["shot"]
    except (KeyError, TypeError):
        return None
    if (
        type(r_sb) is int
        and type(r_pt) is int
        and type(n_sb) is int
        and type(n_pt) is int
        and r_sb <= turn
        and r_pt <= turn
        and n_sb > 0
        and n_pt > 0
    ):
        if shot_sb == "round" and shot_pt == "round":
            return ROUND_BOTH  # (neither is "double")
        return {"starboard": shot_sb == "double", "port": shot_pt == "double"}
    return None


_BAND_SCORE: dict[str, int] = {"short": 1, "medium": 0, "long": -1}

_SHOT_SCORE: dict[tuple[str, str | None], float] = {
    (band, rake): float(score + (4 if rake == "stern" else 2 if rake == "bow" else 0))
    for band, score in _BAND_SCORE.items()
    for rake in ("bow", "stern", None)
}
"""The score of a shot of :func:`aim` by range band and rake, before the tie-breaks of its sample and range:
the band's score, and 4 for a stern rake, 2 for a bow rake (S13)."""


def best_shot(
    state: BattleState,
    ship: ShipState,
    samples: list[tuple[Point, float]],
    target_pos: Point,
    target_heading: float,
    sides: Iterable[str],
    target_is_battery: bool = False,
) -> Shot | None:
    """Return the best moment along ``samples`` to fire a loaded broadside of ``sides`` at a target, or None.

    The target must lie within 22 degrees of the beam (S12) and within range (11.; double shot halves it). The
    firer chooses the moment with the best rake and range (S13: a rake at any time during the move).
    """
    loaded = loaded_sides(ship.sheet, state.turn, sides)
    if not loaded:
        return None
    return aim(rate_of(ship), loaded, samples, target_pos, target_heading, target_is_battery)


def shot_at(
    state: BattleState,
    ship_id: str,
    target_id: str,
    rate: str,
    loaded: Mapping[str, bool],
    samples: list[tuple[Point, float]],
    target_pos: Point,
    target_heading: float,
    target_is_battery: bool = False,
) -> Shot | None:
    """Return :func:`aim` of ``ship_id`` at ``target_id``, worked out once for the same inputs (the very same
    ``samples``, the move's plan) while ``state`` is checked and resolved: the check of the fire order and
    the fire in the phase share it (a second target, a battery, or a shot :func:`aimed_shot` cannot give).
    The shot is shared: never change it."""
    shots = state_memo(state).shots
    hit = shots.get((ship_id, target_id))
    if hit is not None:
        (h_rate, h_loaded, h_samples, h_pos, h_heading, h_bat), shot = hit
        if (
            h_samples is samples
            and h_rate == rate
            and h_heading == target_heading
            and h_bat == target_is_battery
            and h_loaded == loaded
            and (h_pos is target_pos or h_pos == target_pos)  # most often the very Point: no __eq__ call
        ):
            return shot
    shot = aim(rate, loaded, samples, target_pos, target_heading, target_is_battery)
    shots[(ship_id, target_id)] = (
        (rate, dict(loaded), samples, target_pos, target_heading, target_is_battery),
        shot,
    )
    return shot


def aimed_shot(
    state: BattleState, ship: ShipState, target_id: str, samples: list[tuple[Point, float]]
) -> Shot | None:
    """Return the shot the check of ``ship``'s fire order at ``target_id`` found with both broadsides free
    (``StateMemo.aimed``), if it was aimed along the very ``samples`` by the very ``ship`` of ``state``; else
    None (then work it out: :func:`loaded_sides`, :func:`shot_at`). The caller must know that the firer's
    broadsides and guns and the target's position and heading are still those of ``state``: the shot is then
    the one :func:`shot_at` would give (the same :func:`aim` of the same inputs)."""
    return state_memo(state).aimed_shot(ship, target_id, samples)


_RANGE_LIMITS: dict[str, tuple[dict[bool, tuple[tuple[float, str], ...]], float]] = memo.table({})


def _range_limits(rate: str) -> tuple[dict[bool, tuple[tuple[float, str], ...]], float]:
    """Return the upper bound (mm, inclusive) of each range band of :func:`.core.range_band`, with the same
    arithmetic, for round (False) and double shot (True); and :func:`.core.max_range` + 1 mm."""
    out = _RANGE_LIMITS.get(rate)
    if out is None:
        bands = T.GUNNERY_RANGES["rated" if C.is_rated(rate) else "unrated"]
        names = ("short", "medium", "long")
        limits = {
            dbl: tuple(zip([b * f + 1e-9 for b in bands], names, strict=True))
            for dbl, f in ((False, 1.0), (True, T.DOUBLE_SHOT_RANGE_FACTOR))
        }
        out = _RANGE_LIMITS[rate] = (limits, C.max_range(rate) + 1.0)
    return out


_AIM_ARC = T.ARC_OF_FIRE_DEG + 1e-9
_AIM_BOW = T.RAKE_ARC_DEG + 1e-9
_AIM_STERN = 180.0 - T.RAKE_ARC_DEG - 1e-9
"""The bounds :func:`aim` tests against (arc of fire from the beam, bow rake, stern rake; degrees)."""


def aim(
    rate: str,
    loaded: Mapping[str, bool],
    samples: list[tuple[Point, float]],
    target_pos: Point,
    target_heading: float,
    target_is_battery: bool = False,
) -> Shot | None:
    """Return the best shot of :func:`best_shot` for a firer of ``rate`` with the broadsides ``loaded``
    (:func:`loaded_sides`), or None.

    The geometry is :func:`rules.geometry.distance`, ``bearing`` and ``relative_bearing``, and the tests
    :func:`.core.in_arc_of_fire`, :func:`.core.range_band` and :func:`.core.rake_of`, written out in the loop
    with the same arithmetic (so the same floating-point results): this runs for every sample of every
    shot checked and fired.
    """
    best: Shot | None = None
    entry = _RANGE_LIMITS.get(rate)  # _range_limits(), without its call once worked out for the rate
    limits, reach = _range_limits(rate) if entry is None else entry
    arc, bow, stern = _AIM_ARC, _AIM_BOW, _AIM_STERN
    tx, ty = target_pos.x, target_pos.y
    hypot, atan2, degrees, norm = math.hypot, math.atan2, math.degrees, norm_deg
    for i, (p, h) in enumerate(samples):
        px, py = p.x, p.y
        d = hypot(tx - px, ty - py)
        if d > reach:
            continue
        # norm(x) is x for a float in [0, 360); for one in (-360, 0) it is x + 360.0 (fmod() of it is itself),
        # or 0.0 where that sum rounds to 360.0: written out so (the same values); the call for the others
        rel = degrees(atan2(tx - px, -(ty - py)))  # (within [-180, 180], or NaN: norm(NaN) is NaN)
        if rel < 0.0:
            rel += 360.0
            if rel >= 360.0:
                rel = 0.0
        rel -= h
        if type(rel) is not float:
            rel = norm(rel)
        elif not 0.0 <= rel < 360.0:
            if -360.0 < rel < 0.0:
                rel += 360.0
                if rel >= 360.0:
                    rel = 0.0
            else:
                rel = norm(rel)
        if rel > 180.0:
            rel -= 360.0
        side = "starboard" if rel > 0 else "port"
        if side not in loaded or not abs(abs(rel) - 90.0) <= arc:
            continue
        double = loaded[side]
        band = None
        for bound, name in limits[double]:
            if d <= bound:
                band = name
                break
        if band is None:
            continue
        rake: str | None = None
        if not target_is_battery:
            back = degrees(atan2(px - tx, -(py - ty)))  # (as rel above)
            if back < 0.0:
                back += 360.0
                if back >= 360.0:
                    back = 0.0
            back -= target_heading
            if type(back) is not float:
                back = norm(back)
            elif not 0.0 <= back < 360.0:
                if -360.0 < back < 0.0:
                    back += 360.0
                    if back >= 360.0:
                        back = 0.0
                else:
                    back = norm(back)
            r = abs(back - 360.0 if back > 180.0 else back)
            rake = "bow" if r <= bow else "stern" if r >= stern else None
        score = _SHOT_SCORE[band, rake] - (i * 1e-4 + d * 1e-7)
        if best is None or score > best.score:
            best = Shot(side, p, h, d, band, rake, double, score)  # by position: no keyword dict
    return best


def works_id(ship_id: str) -> str:
    """Return the terrain id of the battery a vessel's working party raises (24.; NW-SAIL-23)."""
    return f"works-{ship_id}"


def works_of(state: BattleState, ship_id: str) -> TerrainFeature | None:
    """Return the battery a vessel's working party is raising or has raised, or None."""
    bat = battery_of(state, works_id(ship_id))
    return None if bat is None else bat[1]


def battery_of(state: BattleState, key: str) -> tuple[int, TerrainFeature] | None:
    """Return (index, feature) of the shore battery with props ``id`` == key, or None."""
    for i, t in enumerate(state.terrain):
        if t.kind == "battery" and sval(t.props.get("id")) == key:
            return i, t
    return None


def visible_to_side(state: BattleState, side: str) -> set[str]:
    """Return the ids of ships ``side`` can see: its own, and others within visibility of one of its vessels
    (A2)."""
    vis = state.conditions.visibility
    if vis is None:
        return {s.id for s in state.ships}
    own = [
        s.position
        for s in state.ships
        if s.side == side and s.status == "active" and isinstance(s.position, Point)
    ]
    out = {s.id for s in state.ships if s.side == side}
    for s in state.ships:
        if s.id in out or not isinstance(s.position, Point):
            continue
        p = s.position
        for q in own:
            if abs(p.x - q.x) <= vis and abs(p.y - q.y) <= vis and distance(p, q) <= vis:
                out.add(s.id)
                break
    return out
