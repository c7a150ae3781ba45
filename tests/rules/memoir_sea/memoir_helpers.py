"""Builders for ``memoir_sea`` test states: a 24 x 18 hex map, ships placed by map column and row."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import ScriptedDice
from rules.geometry import offset_to_hex
from rules.model import JSON, BattleState, Hex, MapSpec, ShipState, SideInfo, TerrainFeature
from rules.registry import get_ruleset

RS = get_ruleset("memoir_sea")

PRE_DREADNOUGHT: dict[str, JSON] = {
    "type": "pre_dreadnought",
    "gun_dice": 8,
    "flotation": 21,
    "critical_point": 7,
    "speed": 3,
    "torpedo_fit": "fixed",
    "torpedoes": 4,
}
LIGHT_CRUISER: dict[str, JSON] = {
    "type": "light_cruiser",
    "gun_dice": 4,
    "flotation": 6,
    "critical_point": 2,
    "speed": 4,
    "torpedo_fit": "none",
    "torpedoes": 0,
}
DESTROYER: dict[str, JSON] = {
    "type": "destroyer",
    "gun_dice": 2,
    "flotation": 2,
    "critical_point": 1,
    "speed": 5,
    "torpedo_fit": "trainable",
    "torpedoes": 4,
}


def at(col: int, row: int) -> Hex:
    """Return the hex at a map column and row (odd-q layout)."""
    return offset_to_hex(col, row)


def ship(
    sid: str,
    side: str,
    where: Hex,
    heading: float = 0,
    stats: dict[str, JSON] | None = None,
    speed: float = 0,
    **sheet: JSON,
) -> ShipState:
    """Return a ship; ``sheet`` entries override what set-up fills in."""
    return ShipState(
        id=sid,
        name=sid.title(),
        side=side,
        position=where,
        heading=heading,
        speed=speed,
        stats=dict(stats or PRE_DREADNOUGHT),
        sheet=dict(sheet),
    )


def battle(*ships: ShipState, terrain: tuple[TerrainFeature, ...] = ()) -> BattleState:
    """Return a set-up battle between sides ``a`` and ``b`` holding ``ships``."""
    state = BattleState(
        ruleset="memoir_sea",
        map=MapSpec(geometry="hex6", width=24, height=18),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        terrain=terrain,
    )
    state, _ = RS.setup(state, ScriptedDice([]))
    return state


def with_sheet(state: BattleState, sid: str, **sheet: JSON) -> BattleState:
    """Return the state with some sheet entries of one ship replaced."""
    s = state.ship(sid)
    return state.with_ships({sid: replace(s, sheet={**s.sheet, **sheet})})
