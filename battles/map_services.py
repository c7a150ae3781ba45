"""Writes of the map's set-up editor: the umpire places and turns ships and paints terrain before the battle
starts (A3: the umpire draws the terrain; mines are placed secretly for the side that laid them).

Each service is one transaction on the battle row (locked), umpire only, and only while the battle is in
set-up. The edited state is checked (every ship on the map, no two afloat in one place unless the rule set
allows stacking, no ship on land, only the rule set's terrain kinds) and then run through the rule set's own
``setup`` (``RuleSet.setup``), which refuses what its rules forbid (a heading that is no hex facing...) and
completes what it fills in (a battery's points...); its result is the state stored. Errors are
``ApplicationError`` with the field they belong to.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from django.db import transaction

import rules
from battles.models import Battle, BattleStatus, Membership, Role
from navalwar.errors import ApplicationError, ConflictError, PermissionDeniedError
from rules.geometry import on_hex_map, on_table
from rules.model import JSON, BattleState, Hex, Point, Position, ShipState, TerrainFeature

GROUND_KINDS = ("land", "shore", "shoal")
"""Terrain that covers a place: painting one of them replaces another at the same place."""


def _require_umpire(battle: Battle, user: Any) -> None:
    ok = Membership.objects.filter(campaign_id=battle.campaign_id, user=user, role=Role.UMPIRE).exists()
    if not ok:
        raise PermissionDeniedError("not_umpire", "Only an umpire of this campaign may set up the battle.")


def _edit(
    battle: Battle, user: Any, change: Callable[[BattleState], BattleState], *, moved: str | None = None
) -> Battle:
    """Apply ``change`` to the battle's set-up and save it once :func:`_validated`; ``moved``: the id of the
    ship the change places, whom a refusal speaks of."""
    with transaction.atomic():
        _require_umpire(battle, user)
        locked = Battle.objects.select_for_update().get(pk=battle.pk)
        if locked.status != BattleStatus.SETUP:
            raise ConflictError("battle_started", "The battle has started: its set-up can no longer change.")
        state = rules.from_json(BattleState, locked.state)
        new = _validated(change(state), moved=moved)
        locked.state = state_keeping_extra(new, locked.state)
        locked.save(update_fields=["state"])
    return locked


def _on_map(state: BattleState, pos: Position) -> bool:
    if isinstance(pos, Hex):
        return on_hex_map(pos, state.map.width, state.map.height)
    return on_table(pos, state.map.width, state.map.height)


def _validated(state: BattleState, *, moved: str | None = None) -> BattleState:
    """Return the state after the rule set's ``setup``; raise ApplicationError for what may not be. Two ships
    in one place: the message at the position names the ship already there, not ``moved`` (the ship being
    placed), whatever their order in the battle."""
    rs = rules.get_ruleset(state.ruleset)
    hexes = rs.geometry.startswith("hex")
    kind_of_place: dict[Position, set[str]] = {}
    for t in state.terrain:
        if rs.terrain_kinds and t.kind not in rs.terrain_kinds:
            raise ApplicationError(
                "bad_terrain",
                f"{rs.title} has no terrain {t.kind!r}.",
                fields={"kind": [f"Choose one of: {', '.join(rs.terrain_kinds)}."]},
            )
        if not _on_map(state, t.position):
            raise ApplicationError(
                "off_map", "That place is off the map.", fields={"position": ["That place is off the map."]}
            )
        kind_of_place.setdefault(t.position, set()).add(t.kind)
    taken: dict[Position, ShipState] = {}
    for s in state.ships:
        if s.status == "withdrawn":
            continue
        if (hexes and not isinstance(s.position, Hex)) or (not hexes and not isinstance(s.position, Point)):
            where = "a hex" if hexes else "a table"
            raise ApplicationError("bad_position", f"{s.name} needs {where} position.")
        if not _on_map(state, s.position):
            raise ApplicationError(
                "off_map",
                f"{s.name} would be off the map.",
                fields={
                    "position": [
                        f"{s.name} would be off the map ({state.map.width:g} x {state.map.height:g})."
                    ]
                },
            )
        # (the rule set's impassable terrain: rules.check_state refuses it too, NW-CAMP-08)
        if kind_of_place.get(s.position, set()) & set(rs.impassable_terrain):
            raise ApplicationError(
                "on_land",
                f"{s.name} would be on land.",
                fields={"position": [f"{s.name} cannot be placed on land, a battery or a fort."]},
            )
        if s.status == "active" and not rs.stacking:
            first = taken.get(s.position)
            if first is not None:
                there = s if first.id == moved else first
                raise ApplicationError(
                    "stacked",
                    f"{first.name} and {s.name} would share a place.",
                    fields={
                        "position": [f"{there.name} is already there ({rs.title} does not stack ships)."]
                    },
                )
            taken[s.position] = s
    try:
        new, _events = rs.setup(state, rules.SeededDice(secrets.randbits(63)))
    except (rules.RulesError, ValueError, TypeError, KeyError) as exc:
        raise ApplicationError("bad_setup", f"The rules refuse this set-up: {exc}") from exc
    return new


def battle_setup_ship_place(
    *,
    battle: Battle,
    user: Any,
    ship_key: str,
    position: Position | None = None,
    heading: float | None = None,
) -> Battle:
    """Move and/or turn one ship of a battle in set-up (umpire only). ``heading`` in degrees clockwise from
    north. Raise ``no_ship``, ``off_map``, ``stacked``, ``on_land``, ``bad_setup`` (the rules refuse it, for
    example a heading that is no hex facing), ``battle_started``, ``not_umpire``."""

    def change(state: BattleState) -> BattleState:
        ships = state.ship_map()
        ship = ships.get(ship_key)
        if ship is None:
            raise ApplicationError(
                "no_ship",
                f"No ship {ship_key!r} in this battle.",
                fields={"ship": ["Choose a ship of this battle."]},
            )
        if heading is not None and not math.isfinite(heading):
            raise ApplicationError(
                "bad_heading",
                "Enter a heading in degrees.",
                fields={"heading": ["Enter a heading in degrees."]},
            )
        if heading is not None and not 0.0 <= heading <= 360.0:
            # as the battle form (NW-CAMP-23): 720 is a typing slip, not a full turn and back to north
            message = "Enter a heading from 0 up to 360 degrees (clockwise from north)."
            raise ApplicationError("bad_heading", message, fields={"heading": [message]})
        ships[ship_key] = replace(
            ship,
            position=position if position is not None else ship.position,
            heading=float(heading) % 360.0 if heading is not None else ship.heading,  # (360 is north, 0)
        )
        return state.with_ships(ships)

    return _edit(battle, user, change, moved=ship_key)


def battle_setup_terrain_paint(
    *,
    battle: Battle,
    user: Any,
    position: Position,
    kind: str,
    side: str = "",
    props: Mapping[str, JSON] | None = None,
) -> Battle:
    """Paint one piece of terrain on a battle in set-up (umpire only).

    ``kind`` is one of the rule set's terrain kinds. Land, shore and shoal replace one another at a place;
    a battery, fort or mine replaces one of its kind there. A ``mine`` is laid for ``side`` and only that
    side will see it (A3: ``visible_to``); a battery or fort belongs to ``side``. ``props``: the rule set's
    data (a shoal's ``depth`` in fathoms and, on a table, ``radius``; a battery's ``guns`` or ``dice``...).
    Raise ``bad_terrain``, ``bad_side``, ``off_map``, ``bad_setup``, ``battle_started``, ``not_umpire``.
    """
    props = dict(props or {})

    def change(state: BattleState) -> BattleState:
        rs = rules.get_ruleset(state.ruleset)
        if kind not in rs.terrain_kinds:
            choices = ", ".join(rs.terrain_kinds) or "none"
            raise ApplicationError(
                "bad_terrain",
                f"{rs.title} has no terrain {kind!r} (it has: {choices}).",
                fields={"kind": [f"Choose one of: {choices}."]},
            )
        needs_side = kind in ("mine", "battery", "fort")
        if needs_side and side not in state.side_keys():
            raise ApplicationError(
                "bad_side",
                "Choose the side it belongs to.",
                fields={"side": ["Choose the side it belongs to (mines: the side that laid them)."]},
            )
        if kind == "shoal" and not isinstance(props.get("depth"), (int, float)):
            raise ApplicationError(
                "bad_depth",
                "Give the shoal's depth in fathoms.",
                fields={"depth": ["Give the shoal's depth in fathoms."]},
            )
        if needs_side:
            props.setdefault("side", side)
            props.setdefault("id", _place_id(kind, position))
        layer = set(GROUND_KINDS) if kind in GROUND_KINDS else {kind}
        kept = tuple(t for t in state.terrain if not (t.position == position and t.kind in layer))
        feature = TerrainFeature(
            kind=kind, position=position, props=props, visible_to=(side,) if kind == "mine" else None
        )
        return replace(state, terrain=(*kept, feature))

    return _edit(battle, user, change)


def battle_setup_terrain_clear(*, battle: Battle, user: Any, position: Position) -> Battle:
    """Remove every piece of terrain at a place (a hex, or a table point) of a battle in set-up."""

    def change(state: BattleState) -> BattleState:
        return replace(state, terrain=tuple(t for t in state.terrain if t.position != position))

    return _edit(battle, user, change)


def _place_id(kind: str, position: Position) -> str:
    if isinstance(position, Hex):
        return f"{kind}-{position.q}-{position.r}"
    return f"{kind}-{position.x:g}-{position.y:g}"


def state_keeping_extra(new: BattleState, old_doc: dict[str, Any]) -> dict[str, Any]:
    """Return ``new`` as JSON with what the set-up stored beside the old state (``old_doc["extra"]``: its
    events, wind, weather, crew grades...) kept where ``new`` does not set it."""
    data: dict[str, Any] = rules.to_json(new)
    extra = dict(data.get("extra") or {})
    for key, value in (old_doc.get("extra") or {}).items():
        extra.setdefault(key, value)
    data["extra"] = extra
    return data
