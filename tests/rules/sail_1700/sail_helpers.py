"""Helpers shared by the sail_1700 tests: a vessel on the table in millimetres."""

from __future__ import annotations

from typing import Any

from rules.model import JSON, Point, ShipState


def ship(
    sid: str,
    side: str,
    stats: dict[str, JSON],
    x: float,
    y: float,
    heading: float = 0.0,
    speed: float = 0.0,
    **sheet: Any,
) -> ShipState:
    """Return vessel ``sid`` (named ``sid.title()``) of ``side`` at (``x``, ``y``) mm, heading ``heading``
    degrees and moving at ``speed`` mm a move, with a copy of ``stats`` and a sheet of ``sheet`` (crew grade
    ``average`` unless given): the rule set's set-up fills the rest."""
    sheet.setdefault("grade", "average")
    return ShipState(
        id=sid,
        name=sid.title(),
        side=side,
        position=Point(x=x, y=y),
        heading=heading,
        speed=speed,
        stats=dict(stats),
        sheet=sheet,
    )
