"""Movement geometry of ``acw_river``: 12 facings, turning costs, reversing, multi-hex ships, ram paths.

Pure functions on hexes (flat-topped axial, :mod:`rules.geometry`). A *pose* is (bow hex, heading in
degrees, corner offset). Course letters: ``F`` one hex in the direction of travel (ahead, or astern when
the engines are reversed), ``L`` / ``R`` a 30-degree turn to port / starboard.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable

from ... import memo
from ...base import course_extras
from ...geometry import hex_bearing, hex_distance, hex_step, norm_deg, relative_bearing
from ...model import Hex
from . import tables as T

Pose = tuple[Hex, float, int]


def turn_cost(total_deg: float) -> int:
    """Return the hexes lost for changing direction by ``total_deg`` degrees in one move (A08).

    0-60: 0; 61-90: 1; 91-120: 2; 121-150: 3; 151-180: 4; then +1 per 30 degrees.
    """
    deg = abs(total_deg)
    for limit, cost in T.TURN_COSTS:
        if deg <= limit + 1e-9:
            return cost
    last_limit, last_cost = T.TURN_COSTS[-1]
    return last_cost + math.ceil((deg - last_limit) / 30.0 - 1e-9)


COURSE_EXAMPLE = "FFRF"


def course_error(course: str) -> str:
    """Return why ``course`` (as :func:`rules.base.course_text` gives it) is no course ("" when it is one): a
    course is the letters F, L and R only, nothing between them (NW-ACW-20). The message says what is
    expected, with an example, and what the course has besides."""
    extras = course_extras(course)
    if not extras:
        return ""
    return (
        "Write the course as letters only, F (one hex), L and R (a 30-degree turn to port or starboard), "
        f"for example {COURSE_EXAMPLE}; this one has {extras}."
    )


def course_parts(course: str) -> tuple[int, int]:
    """Return (forward hexes, total degrees turned) of a course; the turning total counts every turn
    (NW-ACW-02)."""
    return course.count("F"), T.FACING_STEP_DEG * (course.count("L") + course.count("R"))


def course_cost(course: str) -> int:
    """Return the hexes of movement a course costs: its forward hexes plus the turning cost (A08)."""
    cost = _COURSE_COSTS.get(course)
    if cost is None:
        forwards, deg = course_parts(course)
        cost = forwards + turn_cost(deg)
        if len(_COURSE_COSTS) >= 4096:
            _COURSE_COSTS.clear()
        _COURSE_COSTS[course] = cost
    return cost


_COURSE_COSTS: dict[str, int] = memo.table({})
"""Costs of the courses seen (a phase's orders repeat a few short courses)."""


def movement_points(speed_forward: int, speed_back: int, astern: bool, was_astern: bool) -> int:
    """Return the hexes a vessel may spend this move (A09, NW-ACW-03).

    Speed Forward ahead, Speed Back astern; the move in which the engines are switched (either way) loses
    one hex.
    """
    mp = speed_back if astern else speed_forward
    if astern != was_astern:
        mp -= T.REVERSING["switch_cost_hexes"]
    return max(0, mp)


def _step(heading: float, offset: int) -> tuple[int, int, int]:
    """Return (dq, dr, new offset) of :func:`rules.geometry.hex_step` along ``heading`` from ``offset``: it
    does not depend on the hex, so it is remembered. Raise ValueError as it does for a heading that is not
    a facing."""
    key = (heading, offset)
    hit = _STEP_MEMO.get(key)
    if hit is None:
        nxt, off = hex_step(_ORIGIN, heading, offset)
        hit = (nxt.q, nxt.r, off)
        if len(_STEP_MEMO) >= 1024:
            _STEP_MEMO.clear()
        _STEP_MEMO[key] = hit
    return hit


_ORIGIN = Hex(q=0, r=0)
_STEP_MEMO: dict[tuple[float, int], tuple[int, int, int]] = memo.table({})


def step_ahead(pose: Pose) -> Pose:
    """Return the pose one hex ahead (corner facings alternate between the two flanking hexes)."""
    bow, heading, offset = pose
    dq, dr, off = _step(heading, offset)
    return Hex(q=bow.q + dq, r=bow.r + dr), heading, off


def step_astern(pose: Pose) -> Pose:
    """Return the pose one hex astern, the exact inverse of :func:`step_ahead`."""
    bow, heading, offset = pose
    dq, dr, _ = _step(norm_deg(heading + 180.0), 1 - offset)
    return Hex(q=bow.q + dq, r=bow.r + dr), heading, 1 - offset


def turn(pose: Pose, letter: str) -> Pose:
    """Return the pose after a 30-degree turn to port (``L``) or starboard (``R``)."""
    bow, heading, _ = pose
    if letter == "L":
        return bow, norm_deg(heading - T.FACING_STEP_DEG), 0
    return bow, norm_deg(heading + T.FACING_STEP_DEG), 1


def footprint(pose: Pose, hexes: int) -> list[Hex]:
    """Return the hexes a vessel of ``hexes`` length occupies: the bow hex, then astern of it (A14)."""
    out = [pose[0]]
    p = pose
    for _ in range(max(1, hexes) - 1):
        p = step_astern(p)
        out.append(p[0])
    return out


def nearest_distance(a: Iterable[Hex], b: Iterable[Hex]) -> int:
    """Return the distance between the nearest hexes of two footprints (A14)."""
    bl = list(b)
    return min(hex_distance(x, y) for x in a for y in bl)


def arc_of_target(pose: Pose, target: Hex) -> str:
    """Return ``front``, ``port``, ``starboard`` or ``rear``: where ``target`` lies from the bow hex (A04,
    NW-ACW-01: front and rear within 60 degrees of bow and stern, exactly 60 or 120 is the side)."""
    bow, heading, _ = pose
    # The arc depends only on the offset of the target from the bow and the heading: remembered.
    key = (target.q - bow.q, target.r - bow.r, heading)
    arc = _ARC_MEMO.get(key)
    if arc is None:
        if target == bow:
            arc = "front"
        else:
            rel = relative_bearing(heading, hex_bearing(bow, target))
            if abs(rel) < T.ARCS_DEG["front_within"] - 1e-6:
                arc = "front"
            elif abs(rel) > 180.0 - T.ARCS_DEG["rear_within"] + 1e-6:
                arc = "rear"
            else:
                arc = "starboard" if rel > 0 else "port"
        if len(_ARC_MEMO) >= 8192:
            _ARC_MEMO.clear()
        _ARC_MEMO[key] = arc
    return arc


_ARC_MEMO: dict[tuple[int, int, float], str] = memo.table({})
"""Arcs of :func:`arc_of_target` by (q, r offset of the target from the bow, heading)."""


def on_flank(target_hex: Hex, target_heading: float, attacker_hex: Hex) -> bool:
    """Return True if ``attacker_hex`` lies in the side arc of a vessel at ``target_hex`` (NW-ACW-05)."""
    rel = abs(relative_bearing(target_heading, hex_bearing(target_hex, attacker_hex)))
    return T.ARCS_DEG["front_within"] - 1e-6 <= rel <= 180.0 - T.ARCS_DEG["rear_within"] + 1e-6


def reachable(
    start: Pose, mp: int, length: int, free: Callable[[Hex], bool], astern: bool = False
) -> dict[Pose, str]:
    """Return every pose reachable this move with its cheapest course (ties: alphabetical).

    ``free(h)`` says whether the vessel may enter hex ``h`` (not land, shore, another ship, off the map).
    A vessel on more than one hex needs every hex of its footprint free (A14).
    """
    # A state (pose, forward hexes f, degrees turned d) is dominated by one already expanded at the same pose
    # with f' <= f and d' <= d: everything it can still do costs at least as much. Pruning those keeps the
    # search small without losing a pose or its cheapest cost.
    seen: dict[Pose, list[tuple[int, int]]] = {}
    out: dict[Pose, tuple[int, str]] = {}
    heap: list[tuple[int, str, int, Hex, float, int, int]] = [(0, "", 0, start[0], start[1], start[2], 0)]

    def dominated(pose: Pose, f: int, d: int) -> bool:
        return any(f1 <= f and d1 <= d for f1, d1 in seen.get(pose, ()))

    while heap:
        cost, course, forwards, bow, heading, offset, deg = heapq.heappop(heap)
        pose: Pose = (bow, heading, offset)
        if dominated(pose, forwards, deg):
            continue
        seen.setdefault(pose, []).append((forwards, deg))
        if pose not in out or out[pose] > (cost, course):
            out[pose] = (cost, course)
        nxt = step_astern(pose) if astern else step_ahead(pose)
        fcost = forwards + 1 + turn_cost(deg)
        if (
            fcost <= mp
            and not dominated(nxt, forwards + 1, deg)
            and all(free(h) for h in footprint(nxt, length))
        ):
            heapq.heappush(heap, (fcost, course + "F", forwards + 1, nxt[0], nxt[1], nxt[2], deg))
        for letter in ("L", "R"):
            if course and course[-1] in "LR" and course[-1] != letter:
                continue  # turning back and forth only wastes movement
            ndeg = deg + T.FACING_STEP_DEG
            ncost = forwards + turn_cost(ndeg)
            if ncost > mp:
                continue
            tp = turn(pose, letter)
            if dominated(tp, forwards, ndeg):
                continue
            if length > 1 and not all(free(h) for h in footprint(tp, length)):
                continue
            heapq.heappush(heap, (ncost, course + letter, forwards, tp[0], tp[1], tp[2], ndeg))
    return {p: c for p, (_, c) in out.items()}


def plan_ram(
    start: Pose,
    mp: int,
    length: int,
    free: Callable[[Hex], bool],
    target_hexes: set[Hex],
    target_heading: float,
    *,
    need: int,
    flank: bool,
    options: dict[Pose, str] | None = None,
) -> str | None:
    """Return the cheapest course that brings the bow next to the target with its next hex the target's,
    ``need`` hexes of movement still in hand (A08 costs), or None.

    A ram (section 8) needs 2 in hand (to cross the enemy's hex) and strikes the flank (NW-ACW-05); a
    collision by another vessel (section 7) needs 1. ``options`` may pass :func:`reachable`'s result for
    the same start, movement and hexes, to save computing it again.
    """
    best: tuple[int, str] | None = None
    if options is None:
        options = reachable(start, mp, length, free)
    for pose, course in options.items():
        nxt = step_ahead(pose)[0]
        if nxt not in target_hexes:
            continue
        if mp - course_cost(course) < need:
            continue
        if flank and not on_flank(nxt, target_heading, pose[0]):
            continue
        key = (course_cost(course), course)
        if best is None or key < best:
            best = key
    return best[1] if best else None
