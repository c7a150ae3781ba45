"""Umpire actions of ``acw_river``: not player orders, pure functions the website's umpire tools call.

Each takes a :class:`~rules.model.BattleState` and returns the new state and the :class:`~rules.model.Event`
to append to the log (the log is append-only: an umpire's action is a new event). They raise
:class:`~rules.errors.IllegalOrder` with a message the umpire can read when the action is not allowed.

- :func:`capture_grounded`: troops storm a grounded vessel (section 9, line 82). The storming itself is
  fought with the land rules (A13, out of scope); :func:`storm_strength` tells the umpire what the vessel
  counts as (a house if unprotected, a redoubt if armoured) and the points its embarked troops add.
- :func:`unload_transport`: a loaded transport lands its troops and becomes an empty transport (lines 24-25).
- :func:`place_battery`, :func:`place_mine`, :func:`place_terrain`: the umpire draws the battle's terrain
  (A3): land, shore, batteries and forts with their own dice and resistance (A13), mines hidden from all but
  the laying side (A12).
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from ...errors import IllegalOrder
from ...model import JSON, BattleState, Event, Hex, TerrainFeature
from . import tables as T
from .ruleset import protection_of, remaining


def storm_strength(state: BattleState, ship_id: str) -> dict[str, JSON]:
    """Return what a grounded vessel counts as when stormed (line 82): ``{"as": "house" | "redoubt",
    "troops_points": n, "resistance_left": r}``. Troops embarked add 1 point per figure."""
    ship = state.ship(ship_id)
    prot = protection_of(ship.stats)
    troops = ship.sheet.get("troops", 0)
    return {
        "as": cast(str, T.PROTECTION_CLASSES[prot]["stormed_as"]),
        "troops_points": troops if isinstance(troops, int) else 0,
        "resistance_left": remaining(ship),
    }


def capture_grounded(state: BattleState, ship_id: str, by_side: str) -> tuple[BattleState, Event]:
    """Record that ``by_side``'s troops have taken a grounded vessel (section 9, line 82; A13).

    The vessel's status becomes ``captured`` (out of the battle; the outcome counts it as lost to its
    side). Raise :class:`IllegalOrder` if the ship is unknown, not aground, not active, or ``by_side`` is
    its own side or not in the battle.
    """
    try:
        ship = state.ship(ship_id)
    except KeyError:
        raise IllegalOrder(f"No ship {ship_id!r} in this battle.") from None
    if by_side not in state.side_keys():
        raise IllegalOrder(f"No side {by_side!r} in this battle.")
    if by_side == ship.side:
        raise IllegalOrder(f"{ship.name} is {state.side_names()[by_side]}'s own ship.")
    if not ship.active:
        raise IllegalOrder(f"{ship.name} is {ship.status}.")
    if not ship.sheet.get("aground"):
        raise IllegalOrder(
            f"{ship.name} is not aground: only a grounded vessel can be taken by troops (section 9)."
        )
    strength = storm_strength(state, ship_id)
    captured = replace(
        ship,
        status="captured",
        flags=tuple(sorted(set(ship.flags) | {"captured"})),
        sheet={**ship.sheet, "captured_by": by_side},
    )
    new = state.with_ships({ship.id: captured})
    event = Event(
        kind="captured",
        turn=state.turn,
        phase=state.phase,
        ship_id=ship.id,
        outcome="captured",
        text=f"{ship.name}, aground, is stormed and taken by {state.side_names()[by_side]}'s troops "
        f"(umpire, section 9; "
        f"she counted as a {strength['as']}).",
        data={"by_side": by_side, "umpire": True, **strength},
    )
    return new, event


def unload_transport(state: BattleState, ship_id: str) -> tuple[BattleState, Event]:
    """Land a loaded transport's troops: she becomes an empty transport (lines 24-25).

    Speeds become 3 / 2 and resistance 6; the points she keeps are at most 6 (the troops' points go ashore
    with them, NW-ACW-09). Raise :class:`IllegalOrder` if she is not a loaded transport afloat.
    """
    ship = state.ship(ship_id)
    if not ship.active or ship.sheet.get("loaded") is not True:
        raise IllegalOrder(f"{ship.name} is not a loaded transport afloat.")
    empty = T.SHIP_TYPES["transport_empty"]
    res = cast(int, empty["resistance"])
    left = min(remaining(ship), res)
    sheet: dict[str, JSON] = {
        **ship.sheet,
        "loaded": False,
        "troops": 0,
        "resistance": res,
        "lost": res - left,
        "speed_forward": cast(int, empty["speed_forward"]),
        "speed_back": cast(int, empty["speed_back"]),
    }
    new = state.with_ships({ship.id: replace(ship, sheet=sheet)})
    event = Event(
        kind="unloaded",
        turn=state.turn,
        phase=state.phase,
        ship_id=ship.id,
        outcome="unloaded",
        text=f"{ship.name} lands her troops: now an empty transport, {left} of {res} resistance.",
        data={"umpire": True, "resistance_left": left},
        visible_to=None,
    )
    return new, event


def place_terrain(state: BattleState, feature: TerrainFeature) -> BattleState:
    """Return the state with one more terrain feature. Raise :class:`IllegalOrder` on a duplicate id or an
    unknown kind."""
    if feature.kind not in ("land", "shore", "battery", "fort", "mine"):
        raise IllegalOrder(f"Unknown terrain kind {feature.kind!r}.")
    fid = feature.props.get("id")
    if fid is not None and any(t.props.get("id") == fid for t in state.terrain):
        raise IllegalOrder(f"A terrain feature {fid!r} is already on the map.")
    if fid is not None and any(s.id == fid for s in state.ships):
        raise IllegalOrder(f"{fid!r} is already a ship's id.")
    return replace(state, terrain=(*state.terrain, feature))


def place_battery(
    state: BattleState,
    *,
    feature_id: str,
    side: str,
    position: Hex,
    dice: int,
    resistance: int,
    fort: bool = False,
    heavy: bool | None = None,
    name: str = "",
    max_range: int = T.MAX_RANGE,
) -> BattleState:
    """Place a battery (field artillery unless ``heavy``) or a fort (fortress artillery) on a land or shore
    hex, with its own dice and resistance (A13)."""
    if dice < 0 or resistance < 1:
        raise IllegalOrder("A battery needs 0 or more dice and at least 1 resistance point.")
    props: dict[str, JSON] = {
        "id": feature_id,
        "side": side,
        "dice": dice,
        "resistance": resistance,
        "lost": 0,
        "heavy": fort if heavy is None else heavy,
        "range": max_range,
        "name": name or feature_id,
    }
    return place_terrain(
        state, TerrainFeature(kind="fort" if fort else "battery", position=position, props=props)
    )


def place_mine(state: BattleState, *, feature_id: str, side: str, position: Hex) -> BattleState:
    """Place a mine, secretly: only ``side`` sees it until it is washed to the surface (A3, section 10)."""
    return place_terrain(
        state,
        TerrainFeature(
            kind="mine",
            position=position,
            props={"id": feature_id, "side": side, "surfaced": False},
            visible_to=(side,),
        ),
    )
