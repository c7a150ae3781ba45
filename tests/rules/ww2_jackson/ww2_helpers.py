"""Builders for ww2_jackson tests: classes, ships, states and hulls with exact record sheets."""

from __future__ import annotations

from typing import Any

from rules.dice import ScriptedDice
from rules.model import BattleState, Conditions, MapSpec, Point, ShipState, SideInfo
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson.damage import Ctx, Hull
from rules.rulesets.ww2_jackson.record import Sheet, parse_class, sheet_from_json, sheet_to_json


def gun(
    area: str,
    cal: float,
    n: int,
    *,
    fwd: bool = False,
    aft: bool = False,
    bs: bool = True,
    armour: str = "",
    side: str = "centre",
    kind: str = "standard",
    name: str = "",
) -> dict[str, Any]:
    return {
        "name": name or f"{area} {cal:g}",
        "area": area,
        "calibre": cal,
        "kind": kind,
        "guns": n,
        "armour": armour,
        "forward": fwd,
        "aft": aft,
        "broadside": bs,
        "side": side,
    }


def stats(
    ship_type: str = "cruiser",
    *,
    guns: list[dict[str, Any]] | None = None,
    speed: float = 30.0,
    above: int = 6,
    above_armoured: int = 0,
    belt: str = "",
    underwater: int = 3,
    engine: int = 4,
    dc: int = 2,
    fc: int = 1,
    aa: int = 1,
    uw: str = "",
    radar: str = "none",
    torpedoes: list[Any] | None = None,
    reloads: int = 0,
    aircraft: int = 0,
    tonnage: int = 10000,
) -> dict[str, Any]:
    return {
        "type": ship_type,
        "tonnage": tonnage,
        "speed": speed,
        "turning": "",
        "underwater_protection": uw,
        "belt": belt,
        "radar": radar,
        "aircraft": aircraft,
        "guns": guns
        if guns is not None
        else [gun("main", 8, 2, fwd=True, name="A"), gun("main", 8, 2, aft=True, name="X")],
        "torpedoes": torpedoes or [],
        "torpedo_reloads": reloads,
        "aa": aa,
        "above": above,
        "above_armoured": above_armoured,
        "underwater": underwater,
        "engine": engine,
        "damage_control": dc,
        "fire_control": fc,
    }


IOWA = stats(
    "battleship",
    guns=[
        gun("main", 16, 3, fwd=True, armour="A", name="A turret"),
        gun("main", 16, 3, fwd=True, armour="A", name="B turret"),
        gun("main", 16, 3, aft=True, armour="A", name="X turret"),
    ],
    speed=33,
    above=9,
    above_armoured=8,
    belt="A",
    underwater=8,
    dc=3,
    fc=2,
    uw="A",
)


def ship(
    sid: str,
    side: str,
    st: dict[str, Any],
    x: float,
    y: float,
    heading: float = 0.0,
    speed: float = 15.0,
    sheet: dict[str, Any] | None = None,
) -> ShipState:
    cd = parse_class(st)
    sh = sheet_from_json(cd, sheet or {})
    return ShipState(
        id=sid,
        name=sid.title(),
        side=side,
        position=Point(x=x, y=y),
        heading=heading,
        speed=speed,
        stats=st,
        sheet=sheet_to_json(sh),
    )


def state(
    *ships: ShipState,
    night: bool = False,
    moon: str = "none",
    turn: int = 1,
    options: dict[str, Any] | None = None,
) -> BattleState:
    return BattleState(
        ruleset="ww2_jackson",
        turn=turn,
        map=MapSpec(geometry="table_in", width=96, height=72),
        sides=(SideInfo(key="blue", name="Blue"), SideInfo(key="red", name="Red")),
        ships=ships,
        conditions=Conditions(night=night, moon=moon),
        options=options or {},
    )  # type: ignore[arg-type]


def hull(st: dict[str, Any], sheet: dict[str, Any] | None = None, speed: float = 15.0) -> Hull:
    cd = parse_class(st)
    return Hull(
        ship_id="t", name="Target", side="red", cd=cd, sheet=sheet_from_json(cd, sheet or {}), speed=speed
    )


def ctx(values: list[int], turn: int = 1) -> Ctx:
    return Ctx(turn=turn, dice=ScriptedDice(values))


def with_sheet(s: ShipState, **changes: Any) -> ShipState:
    from dataclasses import replace

    sh = dict(s.sheet)
    sh.update(changes)
    return replace(s, sheet=sh)


def live(s: ShipState) -> Any:
    return RULESET._live(s)


def marked(sh: Sheet) -> dict[str, int]:
    return {k: v for k, v in sh.marked.items() if v}
