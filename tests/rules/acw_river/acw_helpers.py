"""Builders for ``acw_river`` test states: a 24 x 18 hex map, ships of the seed's types."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import ScriptedDice
from rules.geometry import offset_to_hex
from rules.model import (
    JSON,
    BattleState,
    Hex,
    MapSpec,
    PhaseResult,
    ShipOrder,
    ShipState,
    SideInfo,
    TerrainFeature,
)
from rules.registry import get_ruleset
from rules.rulesets.acw_river import tables as T

RS = get_ruleset("acw_river")


def stats(typ: str, **over: JSON) -> dict[str, JSON]:
    """Return class stats of a seed type (lines 17-25), with overrides."""
    row = T.SHIP_TYPES[typ]
    out: dict[str, JSON] = {
        "type": typ,
        "protection": str(row["protection"]),
        "ram": bool(row["ram"]),
        "hexes": 1,
        "troops": 0,
    }
    for f in ("speed_forward", "speed_back", "fire_front", "fire_side", "fire_rear", "resistance"):
        out[f] = int(row[f])  # type: ignore[call-overload]
    out.update(over)
    return out


def at(col: int, row: int) -> Hex:
    """Return the hex at a map column and row (odd-q layout)."""
    return offset_to_hex(col, row)


def ship(
    sid: str,
    side: str,
    where: Hex,
    heading: float = 0,
    typ: str = "unarmored_gunboat",
    speed: float = 0,
    stats_over: dict[str, JSON] | None = None,
    **sheet: JSON,
) -> ShipState:
    """Return a ship of a seed type; ``sheet`` entries override what set-up fills in."""
    return ShipState(
        id=sid,
        name=sid.replace("_", " ").title(),
        side=side,
        position=where,
        heading=heading,
        speed=speed,
        stats=stats(typ, **(stats_over or {})),
        sheet=dict(sheet),
    )


def battle(*ships: ShipState, terrain: tuple[TerrainFeature, ...] = (), **options: JSON) -> BattleState:
    """Return a set-up battle between sides ``a`` and ``b``."""
    state = BattleState(
        ruleset="acw_river",
        map=MapSpec(geometry="hex12", width=24, height=18),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        terrain=terrain,
        options=dict(options),
    )
    state, _ = RS.setup(state, ScriptedDice([]))
    return state


def run(state: BattleState, dice: list[int], **orders: dict[str, JSON]) -> PhaseResult:
    """Resolve one phase; ``dice`` follow the initiative (side a rolls 6, side b 1: a moves first)."""
    sides = {s.side for s in state.ships if s.active}
    init = [6, 1] if len(sides) > 1 else []
    script = ScriptedDice(init + dice)
    res = RS.resolve_phase(state, {k: ShipOrder(ship_id=k, data=v) for k, v in orders.items()}, script)
    assert script.remaining == 0, f"{script.remaining} scripted dice unused"
    return res


def with_sheet(state: BattleState, sid: str, **sheet: JSON) -> BattleState:
    """Return the state with some sheet entries of one ship replaced."""
    s = state.ship(sid)
    return state.with_ships({sid: replace(s, sheet={**s.sheet, **sheet})})


def kinds(res: PhaseResult) -> list[str]:
    """Return the kinds of the events, initiative left out."""
    return [e.kind for e in res.events if e.kind != "initiative"]
