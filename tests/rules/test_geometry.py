"""Geometry of tables and hex maps: exact cases, and properties with hypothesis."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.geometry import (
    HEX_SIDE_STEPS,
    advance,
    arc_of,
    bearing,
    cube_to_hex,
    distance,
    hex_bearing,
    hex_center,
    hex_distance,
    hex_line,
    hex_neighbours,
    hex_round,
    hex_step,
    hex_to_cube,
    hex_to_offset,
    hexes_within,
    is_facing,
    is_side_facing,
    norm_deg,
    offset_to_hex,
    on_hex_map,
    on_table,
    position_bearing,
    position_distance,
    relative_bearing,
    side_of,
    signed_deg,
    turn_and_advance,
    turn_between,
)
from rules.model import Hex, Point

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, q=coord, r=coord)
reals = st.floats(min_value=-2000, max_value=2000, allow_nan=False, allow_infinity=False)
points = st.builds(Point, x=reals, y=reals)
angles = st.floats(min_value=-1080, max_value=1080, allow_nan=False, allow_infinity=False)
facings12 = st.integers(min_value=0, max_value=11).map(lambda k: 30.0 * k)


def close(a: Point, b: Point, tol: float = 1e-6) -> bool:
    return math.isclose(a.x, b.x, abs_tol=tol) and math.isclose(a.y, b.y, abs_tol=tol)


def angle_close(a: float, b: float, tol: float = 1e-6) -> bool:
    return abs(signed_deg(a - b)) < tol


# --- angles -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("angle", "norm", "signed"),
    [
        (0, 0, 0),
        (360, 0, 0),
        (-30, 330, -30),
        (725, 5, 5),
        (180, 180, 180),
        (-180, 180, 180),
        (190, 190, -170),
    ],
)
def test_angle_normalisation(angle: float, norm: float, signed: float) -> None:
    assert norm_deg(angle) == norm
    assert signed_deg(angle) == signed


@given(angles)
def test_norm_deg_is_in_range_and_keeps_the_direction(a: float) -> None:
    n = norm_deg(a)
    assert 0 <= n < 360
    assert -180 < signed_deg(a) <= 180
    assert angle_close(n, a, 1e-6)


def test_turn_between_is_signed_to_starboard() -> None:
    assert turn_between(350, 20) == 30
    assert turn_between(20, 350) == -30
    assert turn_between(0, 180) == 180


# --- table --------------------------------------------------------------------------------------


def test_bearings_are_clockwise_from_north_with_y_growing_south() -> None:
    o = Point(x=0, y=0)
    assert bearing(o, Point(x=0, y=-1)) == 0  # north is up the map
    assert bearing(o, Point(x=1, y=0)) == 90
    assert bearing(o, Point(x=0, y=1)) == 180
    assert bearing(o, Point(x=-1, y=0)) == 270
    assert math.isclose(bearing(o, Point(x=1, y=-1)), 45)


def test_relative_bearing_and_arcs() -> None:
    """A5: within 30 degrees of the bow forward, of the stern aft, else broadside (boundary: the end arc)."""
    assert relative_bearing(90, 120) == 30
    assert relative_bearing(90, 60) == -30
    assert arc_of(0, 30) == "forward"
    assert arc_of(0, 330) == "forward"
    assert arc_of(0, 30.5) == "broadside"
    assert arc_of(0, 150) == "aft"
    assert arc_of(0, 149.5) == "broadside"
    assert arc_of(0, 210) == "aft"
    assert arc_of(45, 90, forward=45, aft=45) == "forward"
    assert side_of(0, 90) == "starboard" and side_of(0, 270) == "port" and side_of(0, 0) == "starboard"


def test_advance_and_distance() -> None:
    p = advance(Point(x=10, y=10), 90, 5)
    assert close(p, Point(x=15, y=10))
    assert distance(Point(x=0, y=0), Point(x=3, y=4)) == 5


@given(points, points)
def test_distance_is_symmetric_and_non_negative(a: Point, b: Point) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, a)) == 0


@given(points, points, points)
def test_distance_satisfies_the_triangle_inequality(a: Point, b: Point, c: Point) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c) + 1e-9


@given(points, points)
def test_bearing_back_is_the_reciprocal(a: Point, b: Point) -> None:
    if distance(a, b) > 1e-3:
        assert angle_close(bearing(b, a), bearing(a, b) + 180, 1e-6)


@given(points, angles, st.floats(min_value=0, max_value=500))
def test_a_move_and_its_reverse_return_to_the_start(p: Point, heading: float, d: float) -> None:
    there = advance(p, heading, d)
    assert math.isclose(distance(p, there), d, rel_tol=1e-9, abs_tol=1e-6)
    assert close(advance(there, heading + 180, d), p)


def test_turn_and_advance_on_a_turning_circle() -> None:
    """A quarter turn to starboard on a circle of radius 4 from heading north ends 4 east and 4 north."""
    end, heading, path = turn_and_advance(Point(x=0, y=0), 0, 90, 4 * math.pi / 2, 4)
    assert close(end, Point(x=4, y=-4))
    assert heading == 90
    assert close(path[0], Point(x=0, y=0)) and close(path[-1], end)
    # then straight on for the rest of the distance
    end, heading, _ = turn_and_advance(Point(x=0, y=0), 0, 90, 4 * math.pi / 2 + 3, 4)
    assert close(end, Point(x=7, y=-4)) and heading == 90
    # distance runs out on the circle: the turn is only partly made
    end, heading, _ = turn_and_advance(Point(x=0, y=0), 0, -90, 4 * math.pi / 4, 4)
    assert math.isclose(heading, 315) and close(
        end, Point(x=-4 + 4 * math.cos(math.pi / 4), y=-4 * math.sin(math.pi / 4))
    )


def test_a_pivot_turns_before_it_moves() -> None:
    """Radius 0 (a pivot): turn on the spot, then go straight along the new heading."""
    end, heading, path = turn_and_advance(Point(x=0, y=0), 0, 90, 5, 0)
    assert heading == 90 and close(end, Point(x=5, y=0)) and len(path) == 2


@given(points, angles, st.floats(min_value=-180, max_value=180), st.floats(min_value=0.5, max_value=50))
def test_a_turn_on_the_circle_reversed_returns_to_the_start(
    p: Point, h: float, turn: float, radius: float
) -> None:
    arc = radius * math.radians(abs(turn))
    end, heading, path = turn_and_advance(p, h, turn, arc, radius)
    assert angle_close(heading, h + turn, 1e-6)
    # every point of the path lies on the turning circle
    for q in path:
        centre = advance(p, h + (90 if turn >= 0 else -90), radius)
        if turn != 0:
            assert math.isclose(distance(centre, q), radius, rel_tol=1e-6, abs_tol=1e-6)
    back, back_heading, _ = turn_and_advance(end, heading + 180, -turn, arc, radius)
    assert close(back, p, 1e-6)
    assert angle_close(back_heading, h + 180, 1e-6)


def test_on_table() -> None:
    assert on_table(Point(x=0, y=0), 96, 72) and on_table(Point(x=96, y=72), 96, 72)
    assert not on_table(Point(x=-0.1, y=5), 96, 72) and not on_table(Point(x=5, y=72.1), 96, 72)


# --- hexes --------------------------------------------------------------------------------------


def test_hex_neighbours_clockwise_from_north() -> None:
    h = Hex(q=2, r=3)
    assert hex_neighbours(h) == [
        Hex(q=2, r=2),
        Hex(q=3, r=2),
        Hex(q=3, r=3),
        Hex(q=2, r=4),
        Hex(q=1, r=4),
        Hex(q=1, r=3),
    ]
    for k, n in enumerate(hex_neighbours(h)):
        assert math.isclose(hex_bearing(h, n), 60 * k, abs_tol=1e-9)


def test_hex_corner_directions_point_at_30_90_150() -> None:
    """Two steps along a corner facing run straight along it: the hex two steps away lies on that bearing."""
    for k in range(6):
        heading = 30.0 + 60 * k
        a, off = hex_step(Hex(q=0, r=0), heading, 0)
        b, off = hex_step(a, heading, off)
        assert math.isclose(hex_bearing(Hex(q=0, r=0), b), heading, abs_tol=1e-9)
        assert hex_distance(Hex(q=0, r=0), b) == 2


def test_cube_coordinates() -> None:
    assert hex_to_cube(Hex(q=2, r=-5)) == (2, -5, 3)
    assert cube_to_hex(2, -5, 3) == Hex(q=2, r=-5)
    with pytest.raises(ValueError, match="must sum to 0"):
        cube_to_hex(1, 1, 1)


@given(hexes)
def test_cube_round_trip(h: Hex) -> None:
    q, r, s = hex_to_cube(h)
    assert q + r + s == 0
    assert cube_to_hex(q, r, s) == h


@given(hexes, hexes)
def test_hex_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert hex_distance(a, b) == hex_distance(b, a) >= 0
    assert (hex_distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_hex_distance_satisfies_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes)
def test_neighbours_are_one_hex_away_and_distinct(h: Hex) -> None:
    ns = hex_neighbours(h)
    assert len(set(ns)) == 6
    assert all(hex_distance(h, n) == 1 for n in ns)
    assert sum(1 for x in hexes_within(h, 1) if x != h) == 6


@given(hexes, st.integers(min_value=0, max_value=5))
def test_hexes_within_a_radius(h: Hex, radius: int) -> None:
    ring = list(hexes_within(h, radius))
    assert len(ring) == len(set(ring)) == 1 + 3 * radius * (radius + 1)
    assert all(hex_distance(h, x) <= radius for x in ring)


@given(hexes, hexes)
def test_a_hex_line_steps_through_neighbours(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(x, y) == 1 for x, y in itertools.pairwise(line))


@given(hexes, facings12, st.integers(min_value=0, max_value=1))
def test_a_hex_step_and_its_reverse_return_to_the_start(h: Hex, heading: float, offset: int) -> None:
    """Stepping along a facing then along the reciprocal facing, from the same corner offset, comes back."""
    there, _ = hex_step(h, heading, offset)
    assert hex_distance(h, there) == 1
    back, _ = hex_step(there, heading + 180, offset)
    assert back == h


@given(hexes, facings12, st.integers(min_value=1, max_value=12))
def test_moving_along_a_facing_goes_straight_out(h: Hex, heading: float, n: int) -> None:
    """n steps along a facing are n hexes away; along a corner facing the offset alternates."""
    pos, off = h, 0
    for _ in range(n):
        pos, off = hex_step(pos, heading, off)
    if is_side_facing(heading):
        assert hex_distance(h, pos) == n and off == 0
    else:
        assert hex_distance(h, pos) == n and off == n % 2


def test_hex_step_refuses_a_heading_that_is_not_a_facing() -> None:
    with pytest.raises(ValueError, match="not a hex facing"):
        hex_step(Hex(q=0, r=0), 45)


def test_facings() -> None:
    assert all(is_facing(60.0 * k, 6) for k in range(6))
    assert not is_facing(30, 6) and is_facing(30, 12) and not is_facing(45, 12)
    assert is_side_facing(300) and not is_side_facing(330)
    assert len(HEX_SIDE_STEPS) == 6


@given(st.floats(min_value=-50, max_value=50), st.floats(min_value=-50, max_value=50))
def test_hex_round_picks_the_hex_whose_centre_is_nearest(x: float, y: float) -> None:
    # pixel -> fractional axial for flat-topped hexes of size 1
    q = 2.0 / 3.0 * x
    r = -1.0 / 3.0 * x + math.sqrt(3) / 3.0 * y
    h = hex_round(q, r)
    c = hex_center(h)
    d = distance(c, Point(x=x, y=y))
    assert all(d <= distance(hex_center(n), Point(x=x, y=y)) + 1e-9 for n in hex_neighbours(h))


def test_offset_coordinates_of_a_rectangular_map() -> None:
    assert hex_to_offset(Hex(q=10, r=3)) == (10, 8)
    assert offset_to_hex(10, 8) == Hex(q=10, r=3)
    assert on_hex_map(Hex(q=0, r=0), 24, 18) and not on_hex_map(Hex(q=24, r=0), 24, 18)
    assert not on_hex_map(Hex(q=0, r=-1), 24, 18) and on_hex_map(Hex(q=23, r=17 - 11), 24, 18)


@given(st.integers(min_value=-30, max_value=30), st.integers(min_value=-30, max_value=30))
def test_offset_round_trip(col: int, row: int) -> None:
    assert hex_to_offset(offset_to_hex(col, row)) == (col, row)


def test_positions_of_mixed_kinds_are_refused() -> None:
    assert position_distance(Hex(q=0, r=0), Hex(q=0, r=3)) == 3.0
    assert position_distance(Point(x=0, y=0), Point(x=0, y=3)) == 3.0
    assert position_bearing(Hex(q=0, r=0), Hex(q=0, r=3)) == 180
    with pytest.raises(TypeError):
        position_distance(Hex(q=0, r=0), Point(x=0, y=0))
    with pytest.raises(TypeError):
        position_bearing(Point(x=0, y=0), Hex(q=0, r=0))


# --- the remembered results (hex_bearing, hex_step) and norm_deg's shortcut --------------------------


@given(st.integers(-40, 40), st.integers(-40, 40), st.integers(-40, 40), st.integers(-40, 40))
def test_hex_bearing_remembered_is_computed(q: int, r: int, dq: int, dr: int) -> None:
    a, b = Hex(q=q, r=r), Hex(q=q + dq, r=r + dr)
    plain = norm_deg(math.degrees(math.atan2(1.5 * dq, -math.sqrt(3.0) * (dr + dq / 2.0))))
    assert hex_bearing(a, b) == plain and hex_bearing(a, b) == plain  # the second call: remembered


def test_hex_step_remembered_is_computed() -> None:
    h = Hex(q=3, r=-2)
    for heading, offset in itertools.product([30.0 * k for k in range(-13, 26)], [0, 1]):
        for _ in range(2):  # the second call: remembered
            k = round(norm_deg(heading) / 30.0) % 12
            # a corner: the hex to port (offset 0) or to starboard (offset 1)
            side = HEX_SIDE_STEPS[k // 2] if k % 2 == 0 else HEX_SIDE_STEPS[((k - 1) // 2 + offset) % 6]
            want = (Hex(q=h.q + side[0], r=h.r + side[1]), 1 - offset if k % 2 else offset)
            assert hex_step(h, heading, offset) == want
    for _ in range(2):
        with pytest.raises(ValueError, match="is not a hex facing"):
            hex_step(h, 45.0)


def test_norm_deg_keeps_types_and_signs() -> None:
    assert type(norm_deg(60)) is float and norm_deg(60) == 60.0
    assert math.copysign(1.0, norm_deg(-0.0)) == -1.0  # fmod keeps the sign of a zero; so does the shortcut
    assert norm_deg(359.99999) == 359.99999 and norm_deg(360.0) == 0.0 and norm_deg(-60.0) == 300.0
    assert norm_deg(-1e-300) == 0.0
