"""The fast paths of ``memoir_sea`` give what the plain code they replaced gave.

``MemoirSea.break_off_course`` (NW-MEM-03): every legal course run from the ship's hex, the distance to every
enemy afloat (random positions, headings, speeds, land); ``arc_for`` remembered (M04); the fixed torpedo fit's
straight rows (M09)."""

from __future__ import annotations

import random
from collections.abc import Container
from typing import cast

from rules.geometry import hex_bearing, hex_distance, hex_to_offset, relative_bearing
from rules.model import BattleState, Hex, ShipState, TerrainFeature
from rules.rulesets.memoir_sea import tables as T
from rules.rulesets.memoir_sea.ruleset import (
    MemoirSea,
    _straight_row,
    arc_for,
    legal_courses,
    torpedo_bears,
)
from tests.rules.memoir_sea.memoir_helpers import (
    DESTROYER,
    LIGHT_CRUISER,
    PRE_DREADNOUGHT,
    RS,
    at,
    battle,
    ship,
)


def plain_break_off_course(rs: MemoirSea, state: BattleState, s: ShipState, blocked: Container[Hex]) -> str:
    """The search as first written: run_course for every legal course, every enemy measured."""
    enemies = [cast(Hex, t.position) for t in state.ships if t.side != s.side and t.active]
    best: tuple[tuple[float, float, int, str], str] | None = None
    for course in legal_courses(int(cast(int, s.stats["speed"]))):
        pos, _, _, why = rs.run_course(state, s, course, blocked)
        if why == "off_map":
            key: tuple[float, float, int, str] = (-1e9, 0.0, len(course), course)
        else:
            far = min((hex_distance(pos, e) for e in enemies), default=0)
            col, row = hex_to_offset(pos)
            edge = min(col, row, state.map.width - 1 - col, state.map.height - 1 - row)
            key = (-float(far), float(edge), -len(course), course)
        if best is None or key < best[0]:
            best = (key, course)
    return best[1] if best else ""


def test_break_off_course_matches_the_plain_search() -> None:
    assert isinstance(RS, MemoirSea)
    rnd = random.Random(4)
    classes = (PRE_DREADNOUGHT, LIGHT_CRUISER, DESTROYER, {**DESTROYER, "speed": 8})
    for _ in range(300):
        cells = rnd.sample([(c, r) for c in range(24) for r in range(18)], rnd.randint(2, 40))
        ships = [
            ship(
                f"s{i}",
                "a" if i == 0 or rnd.random() < 0.4 else "b",
                at(c, r),
                heading=60 * rnd.randrange(6),
                stats=rnd.choice(classes),
            )
            for i, (c, r) in enumerate(cells[: len(cells) // 2 + 1])
        ]
        ships = [s if rnd.random() < 0.9 else s.replace(status="sunk") for s in ships]
        ships[0] = ships[0].replace(status="active")
        land = tuple(TerrainFeature(kind="land", position=at(c, r)) for c, r in cells[len(cells) // 2 + 1 :])
        state = battle(*ships, terrain=land)
        me = state.ships[0]
        blocked = RS._blocked(state, me)
        assert RS.break_off_course(state, me, blocked) == plain_break_off_course(RS, state, me, blocked)


def plain_arc_for(pos: Hex, heading: float, target: Hex) -> str:
    rel = abs(relative_bearing(heading, hex_bearing(pos, target)))
    if rel < T.ARCS_DEG["ahead_within"] - 1e-6:
        return "ahead"
    if rel > 180.0 - T.ARCS_DEG["astern_within"] + 1e-6:
        return "astern"
    return "abeam"


def test_arc_for_and_fixed_torpedo_rows_match_the_plain_checks() -> None:
    pos = Hex(q=5, r=-3)
    for dq in range(-9, 10):
        for dr in range(-9, 10):
            target = Hex(q=pos.q + dq, r=pos.r + dr)
            rows = _straight_row(pos, target) is not None
            assert torpedo_bears("fixed", pos, 0.0, target) is rows
            for heading in (0.0, 60.0, 120.0, 180.0, 240.0, 300.0, 0, -0.0, 360.0):
                for _ in range(2):  # the second call: remembered
                    assert arc_for(pos, heading, target) == plain_arc_for(pos, heading, target)
