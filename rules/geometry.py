"""Geometry of tables and hex maps.

**Table.** Positions are :class:`~rules.model.Point` in the rule set's unit (inches or millimetres);
x grows to the east and y grows to the south, as the map is drawn on screen, so north is towards
smaller y. Headings and bearings are degrees clockwise from north, in [0, 360).

**Hex.** Flat-topped hexes in axial coordinates (q, r), after Red Blob Games' reference: the six
hex-side facings point at 0, 60, 120, 180, 240 and 300 degrees; the six hex-corner facings at 30, 90,
..., 330 degrees (12 facings in all, ``ultra_simple`` and ``acw_river``; ``memoir_sea`` uses the six
side facings). A ship facing a corner moves alternately into the two hexes that flank the corner;
:class:`~rules.model.ShipState` ``offset`` says which comes next. Ranges in hexes count steps.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from . import memo
from .model import Hex, Point, Position, new_point

SQRT3 = math.sqrt(3.0)

# Axial steps for the six hex-side facings, index = heading // 60 (0 = north, clockwise).
HEX_SIDE_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def norm_deg(angle: float) -> float:
    """Return an angle in degrees normalised to [0, 360)."""
    if type(angle) is float and 0.0 <= angle < 360.0:
        return angle  # already normal (fmod would return it unchanged, -0.0 included)
    a = math.fmod(angle, 360.0)
    if a < 0:
        a += 360.0
    # fmod of a tiny negative value can give 360.0 after the addition
    return 0.0 if a >= 360.0 else a


def signed_deg(angle: float) -> float:
    """Return an angle in degrees normalised to (-180, 180]."""
    a = norm_deg(angle)
    return a - 360.0 if a > 180.0 else a


def turn_between(old_heading: float, new_heading: float) -> float:
    """Return the signed turn from ``old_heading`` to ``new_heading`` in degrees (+ = to starboard)."""
    return signed_deg(new_heading - old_heading)


# --- table ------------------------------------------------------------------------------------


def distance(a: Point, b: Point) -> float:
    """Return the distance between two table points, in the table's unit."""
    return math.hypot(b.x - a.x, b.y - a.y)


def bearing(a: Point, b: Point) -> float:
    """Return the bearing from ``a`` to ``b`` in degrees clockwise from north, [0, 360)."""
    return norm_deg(math.degrees(math.atan2(b.x - a.x, -(b.y - a.y))))


def relative_bearing(heading: float, true_bearing: float) -> float:
    """Return a bearing relative to the ship's bow, in (-180, 180]; positive is to starboard."""
    return signed_deg(true_bearing - heading)


def arc_of(heading: float, true_bearing: float, forward: float = 30.0, aft: float = 30.0) -> str:
    """Return ``forward``, ``aft`` or ``broadside`` for a target on ``true_bearing``.

    A target within ``forward`` degrees of the bow is in the forward arc, within ``aft`` degrees of the
    stern in the aft arc, anywhere else on the broadside (A5: 30 and 30 for ``ww2_jackson`` and
    ``ultra_simple``). Exactly on the boundary counts as the end arc.
    """
    rel = abs(relative_bearing(heading, true_bearing))
    if rel <= forward + 1e-9:
        return "forward"
    if rel >= 180.0 - aft - 1e-9:
        return "aft"
    return "broadside"


def side_of(heading: float, true_bearing: float) -> str:
    """Return ``starboard`` or ``port``: the side of the ship a bearing lies on (dead ahead: starboard)."""
    return "port" if relative_bearing(heading, true_bearing) < 0 else "starboard"


def advance(p: Point, heading: float, dist: float) -> Point:
    """Return the point ``dist`` units from ``p`` along ``heading``."""
    rad = math.radians(heading)
    return new_point(p.x + dist * math.sin(rad), p.y - dist * math.cos(rad))  # Point(x=..., y=...)


def turn_and_advance(
    p: Point, heading: float, turn: float, dist: float, radius: float
) -> tuple[Point, float, list[Point]]:
    """Move ``dist`` units starting with a turn of ``turn`` degrees on a turning circle of ``radius``.

    The ship follows the circle until it has turned ``turn`` degrees (+ to starboard), then goes
    straight for the rest of the distance. If the distance runs out on the circle, the turn is only
    partly made. Return the end point, the end heading and the path (sampled points, for map trails).
    """
    path = [p]
    if turn == 0 or radius <= 0:
        # no turn, or a pivot on the spot (radius 0): turn first, then go straight
        new_heading = norm_deg(heading + turn)
        end = advance(p, new_heading, dist)
        return end, new_heading, [p, end]
    arc_len = radius * math.radians(abs(turn))
    on_arc = min(dist, arc_len)
    turned = math.degrees(on_arc / radius) * (1 if turn > 0 else -1)
    # centre of the turning circle lies abeam on the side of the turn
    side = 90.0 if turn > 0 else -90.0
    centre = advance(p, heading + side, radius)
    start_angle = bearing(centre, p)
    steps = max(2, int(abs(turned) // 10) + 2)
    for i in range(1, steps + 1):
        a = start_angle + turned * i / steps
        path.append(advance(centre, a, radius))
    pos = path[-1]
    new_heading = norm_deg(heading + turned)
    rest = dist - on_arc
    if rest > 1e-12:
        pos = advance(pos, new_heading, rest)
        path.append(pos)
    return pos, new_heading, path


# --- hexes ------------------------------------------------------------------------------------


def hex_center(h: Hex) -> Point:
    """Return the centre of a hex in hex-size units (centre to centre of neighbours is sqrt(3))."""
    return Point(x=1.5 * h.q, y=SQRT3 * (h.r + h.q / 2.0))


def hex_to_cube(h: Hex) -> tuple[int, int, int]:
    """Return the cube coordinates (q, r, s) of a hex; q + r + s == 0."""
    return h.q, h.r, -h.q - h.r


def cube_to_hex(q: int, r: int, s: int) -> Hex:
    """Return the hex at cube coordinates (q, r, s). Raise ValueError unless q + r + s == 0."""
    if q + r + s != 0:
        raise ValueError(f"cube coordinates must sum to 0, not {q + r + s} ({q}, {r}, {s})")
    return Hex(q=q, r=r)


def hex_distance(a: Hex, b: Hex) -> int:
    """Return the distance between two hexes, in hexes."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_add(h: Hex, dq: int, dr: int) -> Hex:
    """Return the hex at an axial offset from ``h``."""
    return Hex(q=h.q + dq, r=h.r + dr)


def hex_neighbours(h: Hex) -> list[Hex]:
    """Return the six neighbours of a hex, clockwise from the one to the north."""
    return [hex_add(h, dq, dr) for dq, dr in HEX_SIDE_STEPS]


def hex_bearing(a: Hex, b: Hex) -> float:
    """Return the bearing from the centre of ``a`` to the centre of ``b`` (A5: centre to centre)."""
    dq = b.q - a.q
    dr = b.r - a.r
    found = _BEARINGS.get((dq, dr))
    if found is None:
        # the difference of the two hex_center() points, without building them
        found = norm_deg(math.degrees(math.atan2(1.5 * dq, -SQRT3 * (dr + dq / 2.0))))
        if len(_BEARINGS) >= _CACHE_SIZE:
            _BEARINGS.clear()
        _BEARINGS[dq, dr] = found
    return found


_CACHE_SIZE = 1 << 14
_BEARINGS: dict[tuple[int, int], float] = memo.table({})
"""hex_bearing by axial difference (it depends on nothing else), remembered: every rule set on hexes asks for
the same few bearings thousands of times a phase."""


def is_side_facing(heading: float) -> bool:
    """Return True if a heading points at a hex side (a multiple of 60 degrees)."""
    return abs(math.remainder(heading, 60.0)) < 1e-6


def is_facing(heading: float, facings: int) -> bool:
    """Return True if ``heading`` is one of the 6 (side) or 12 (side and corner) hex facings."""
    step = 360.0 / facings
    return abs(math.remainder(heading, step)) < 1e-6


def hex_step(h: Hex, heading: float, offset: int = 0) -> tuple[Hex, int]:
    """Move one hex along a facing; return the new hex and the new corner offset.

    Along a side facing the ship enters the neighbour the side faces and the offset is unchanged.
    Along a corner facing it enters one of the two hexes that flank the corner: the one to port when
    ``offset`` is 0, to starboard when 1, and the offset flips, so that two steps run straight along
    the corner direction. Raise ValueError if the heading is not one of the 12 facings.
    """
    found = _STEPS.get((heading, offset))
    if found is None:
        found = _hex_step(heading, offset)
        if len(_STEPS) >= _CACHE_SIZE:
            _STEPS.clear()
        _STEPS[heading, offset] = found
    dq, dr, corner = found
    return Hex(q=h.q + dq, r=h.r + dr), (1 - offset if corner else offset)


def _hex_step(heading: float, offset: int) -> tuple[int, int, bool]:
    """Return the axial step of :func:`hex_step` and whether the heading faces a corner (offset flips)."""
    heading = norm_deg(heading)
    if not is_facing(heading, 12):
        raise ValueError(f"heading {heading} is not a hex facing (multiples of 30 degrees)")
    k = round(heading / 30.0) % 12
    if k % 2 == 0:
        dq, dr = HEX_SIDE_STEPS[k // 2]
        return dq, dr, False
    port = (k - 1) // 2
    starboard = (port + 1) % 6
    dq, dr = HEX_SIDE_STEPS[port if offset == 0 else starboard]
    return dq, dr, True


_STEPS: dict[tuple[float, int], tuple[int, int, bool]] = memo.table({})
"""hex_step's step by (heading, offset), remembered (a ship steps along a few facings, hundreds a phase)."""


def hex_round(q: float, r: float) -> Hex:
    """Round fractional axial coordinates to the nearest hex."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(q=int(rq), r=int(rr))


def hex_line(a: Hex, b: Hex, *, nudge: float = 1e-6) -> list[Hex]:
    """Return the hexes on the line from ``a`` to ``b``, both included, in order.

    ``nudge`` (in axial units) moves the line off hex corners before rounding: where the line runs along a
    hex edge, ``+1e-6`` takes the hexes on one side and ``-1e-6`` those on the other (Red Blob Games' line
    drawing).
    """
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    eps = nudge
    out = []
    for i in range(n + 1):
        t = i / n
        q = a.q + eps + (b.q - a.q) * t
        r = a.r + eps + (b.r - a.r) * t
        out.append(hex_round(q, r))
    return out


def hexes_within(h: Hex, radius: int) -> Iterator[Hex]:
    """Yield every hex within ``radius`` hexes of ``h`` (``h`` included)."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(q=h.q + dq, r=h.r + dr)


def position_distance(a: Position, b: Position) -> float:
    """Return the distance between two positions of one kind: table units, or hexes."""
    if isinstance(a, Hex) and isinstance(b, Hex):
        return float(hex_distance(a, b))
    if isinstance(a, Point) and isinstance(b, Point):
        return distance(a, b)
    raise TypeError("cannot measure between a hex and a table point")


def position_bearing(a: Position, b: Position) -> float:
    """Return the bearing between two positions of one kind (hexes: centre to centre)."""
    if isinstance(a, Hex) and isinstance(b, Hex):
        return hex_bearing(a, b)
    if isinstance(a, Point) and isinstance(b, Point):
        return bearing(a, b)
    raise TypeError("cannot take a bearing between a hex and a table point")


def hex_to_offset(h: Hex) -> tuple[int, int]:
    """Return the (column, row) of a hex on a rectangular map laid out "odd-q" (odd columns shoved down).

    A hex map of W x H hexes holds the hexes with 0 <= column < W and 0 <= row < H.
    """
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def offset_to_hex(col: int, row: int) -> Hex:
    """Return the hex at (column, row) of an "odd-q" rectangular map."""
    return Hex(q=col, r=row - (col - (col & 1)) // 2)


def on_hex_map(h: Hex, width: float, height: float) -> bool:
    """Return True if a hex lies on a map of ``width`` columns x ``height`` rows."""
    col, row = hex_to_offset(h)
    return 0 <= col < width and 0 <= row < height


def on_table(p: Point, width: float, height: float) -> bool:
    """Return True if a point lies on a table ``width`` x ``height`` (origin at the north-west corner)."""
    return 0 <= p.x <= width and 0 <= p.y <= height
