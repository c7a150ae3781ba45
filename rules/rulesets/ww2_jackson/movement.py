"""Movement of ``ww2_jackson`` (seed 000 section 5, lines 395-407; W36-W38)."""

from __future__ import annotations

import math

from ... import memo
from ...geometry import norm_deg, turn_and_advance, turn_between
from ...model import Point
from . import tables as T
from .record import ClassData, Sheet


def combat_speed(rated: float) -> float:
    """Return the combat speed in knots of a ship rated at ``rated`` knots (line 395).

    Subtract 2 knots over 20 knots, 1 knot otherwise (W37: exactly 20 loses 1); never below 0.
    33 -> 31, 32 -> 30 (W36), 20 -> 19.
    """
    cut = T.COMBAT_REDUCTION["over_20"] if rated > 20 else T.COMBAT_REDUCTION["up_to_20"]
    return max(0.0, rated - cut)


def inches(knots: float) -> float:
    """Return the move in inches for a speed in knots: 1/4 inch per knot (line 395). 31 knots -> 7.75."""
    return knots * T.INCHES_PER_KNOT


def max_speed(cd: ClassData, sheet: Sheet, turn: int) -> float:
    """Return the knots the damaged ship can make now (lines 397-399, W38).

    speed = combat speed x intact engines / engines x (1 - u) x (1/2 while boiler smoke or contaminated fuel),
    u = 1/4 when half the general underwater boxes are gone, 1/2 when all are (not added). No power: 0.
    """
    conditions = sheet.conditions  # most ships have none: skip the look-ups
    marked = sheet.marked
    if not conditions:
        # remembered on the class: with no condition, only the engine and underwater boxes marked count
        key = (marked.get("engine", 0), marked.get("underwater", 0))
        known = cd.speed_memo.get(key)
        if known is not None:
            return known
    elif sheet.has("no_power", turn):
        return 0.0
    base = combat_speed(cd.speed)
    caps = cd.caps
    engines = caps.get("engine", 0)
    if engines > 0:
        base *= max(0, cd.counts.get("engine", 0) - marked.get("engine", 0)) / engines  # intact engine boxes
    uw = caps.get("underwater", 0)
    if uw > 0:
        gone = uw - max(0, cd.counts.get("underwater", 0) - marked.get("underwater", 0))
        if gone >= uw:
            base *= 1 - T.UNDERWATER_SPEED_LOSS["all"]
        elif gone * 2 >= uw:
            base *= 1 - T.UNDERWATER_SPEED_LOSS["half"]
    if conditions and (sheet.has("boiler", turn) or sheet.has("fuel", turn)):
        base *= T.HALF_SPEED_FACTOR
    # round(base, 4), skipped for a whole number of knots (an intact ship's), which it leaves as it is
    speed = base if base.is_integer() else round(base, 4)
    if not conditions:
        if len(cd.speed_memo) >= 256:
            cd.speed_memo.clear()
        cd.speed_memo[key] = speed
    return speed


def turning_radius(cd: ClassData) -> float:
    """Return the turning circle radius in inches: destroyers 3, cruisers 4.5, capital ships 6 (lines
    401-407)."""
    return T.TURNING_RADIUS[cd.turning_class()]


def plan_turn(heading: float, course: float, direction: str = "auto") -> float:
    """Return the signed turn in degrees from ``heading`` to ``course`` (+ starboard), the short way unless a
    direction is ordered."""
    t = turn_between(heading, course)
    if direction == "starboard" and t < 0:
        t += 360.0
    elif direction == "port" and t > 0:
        t -= 360.0
    return t


def move(
    pos: Point, heading: float, course: float, knots: float, radius: float, direction: str = "auto"
) -> tuple[Point, float, float, list[Point]]:
    """Move a ship: turn toward ``course`` on its turning circle, then straight on, ``knots`` / 4 inches in
    all.

    Return the end point, the end heading, the degrees actually turned and the path. A turn the distance does
    not allow is made only in part (NW-WW2-09); a ship dead in the water does not turn.
    """
    dist = inches(knots)
    turn = plan_turn(heading, course, direction)
    if dist <= 0:
        return pos, heading, 0.0, [pos]
    end, new_heading, path = turn_and_advance(pos, heading, turn, dist, radius)
    turned = min(abs(turn), math.degrees(dist / radius)) if radius > 0 else abs(turn)
    return end, norm_deg(new_heading), turned, path


_MOVES: dict[
    tuple[float, float, float, float, float, float, str], tuple[Point, float, float, tuple[Point, ...]]
] = memo.table({})


def planned_move(
    pos: Point, heading: float, course: float, knots: float, radius: float, direction: str = "auto"
) -> tuple[Point, float, float, tuple[Point, ...]]:
    """Return :func:`move` of the same arguments (the path as a tuple), remembered: a phase computes each
    ship's move when checking its orders (the predicted position to fire from) and again when it moves."""
    key = (pos.x, pos.y, heading, course, knots, radius, direction)
    hit = _MOVES.get(key)
    if hit is None:
        end, new_heading, turned, path = move(pos, heading, course, knots, radius, direction)
        hit = (end, new_heading, turned, tuple(path))
        if len(_MOVES) >= 4096:
            _MOVES.clear()
        _MOVES[key] = hit
    return hit
