"""``ww2_jackson`` (seed ``000_6c8b418afcdd1c2b.txt``): the Jackson Gamers' WWII D20 naval rules.

Turn (A1): one phase, all sides plot at once. (0) damage control orders spent (A6, W41); (1) movement of all
ships at once, 1/4 inch per knot on turning circles (lines 395-407, W36-W38); (2) gunfire, all at once, on
positions after movement: BFN -> MFN D20 per calibre, 6+/11+/16+ by range band with the cumulative and the
best night modifier (lines 25-105, W03-W10); hits are applied after all fire is resolved, so a ship sunk this
turn still fires (A1): location, penetration, located box and collateral (lines 105-141, 237-288, W27-W33);
(3) torpedoes: launches recorded, torpedoes due this turn strike (lines 143-235, A6, W12-W21); (4) end of
turn: fires, flooding, recovery rolls (W39), sinking (A6).

Record sheet (A4): see :mod:`.record` for the class data and the ``ShipState.sheet`` JSON shape.
Rulings of our own: ``docs/rulings.md`` NW-WW2-01..
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from functools import cache

from ... import memo
from ...arcs import ArcSpec
from ...base import DefaultPolicy, RuleSet, scored_visibility, seen_by
from ...dice import Dice
from ...geometry import bearing, distance, norm_deg, on_table, turn_between
from ...hints import FieldHint
from ...model import (
    JSON,
    BattleState,
    Event,
    FieldErrors,
    FieldSpec,
    Modifier,
    PendingEffect,
    PhaseResult,
    Point,
    ShipOrder,
    ShipState,
    _ship_index,
    new_event,
)
from . import tables as T
from .arcs import ship_arcs
from .damage import Ctx, Hull, end_of_turn, g_text, shell_hit, torpedo_hit
from .gunnery import GunRow, bfn_by_calibre, gun_row, halve, mfn, night_modifier, range_band
from .hints import ship_hints
from .hints import standing_orders as sheet_standing_orders
from .movement import combat_speed, inches, max_speed, move, planned_move, turning_radius
from .record import (
    CONDITIONS,
    RECOVERABLE,
    REPAIRABLE,
    ClassData,
    Sheet,
    parse_class,
    sheet_from_json,
    sheet_to_json,
)
from .schema import CLASS_SCHEMA, OPTIONS, ORDER_TYPES, check_class
from .sheetcheck import sheet_problems

BATTERIES: tuple[str, ...] = ("main", "secondary")
_SMALL: tuple[str, ...] = ("destroyer", "small_craft")
"""The class types of :attr:`.record.ClassData.small`."""
_TARGET_KEYS: tuple[tuple[str, str], ...] = tuple((b, f"target_{b}") for b in BATTERIES)
"""Each battery and the order field naming its target."""
_FIRE_VIS: dict[tuple[str, str], tuple[str, ...]] = memo.table({})


def fire_visibility(firer_side: str, target_side: str) -> tuple[str, ...]:
    """Return the ``visible_to`` of a gun fire event: the firer's side and the target's (NW-WW2-22).

    A ship that fires is in sight of everyone that turn (A2, its flashes), and the side fired at watches the
    fall of shot: it sees the salvo and its dice, as a tabletop opponent watches the firer roll against their
    ship. A third side sees the flashes (the map), not the fall of shot. One tuple per pair of sides.
    """
    key = (firer_side, target_side)
    out = _FIRE_VIS.get(key)
    if out is None:
        out = _FIRE_VIS[key] = (firer_side,) if firer_side == target_side else key
    return out


def _firer_side(state: BattleState, firer: str) -> str:
    """Return the side of the ship ``firer`` ("" if the battle has none of that id)."""
    s = state.ship_map().get(firer)
    return s.side if s is not None else ""


_CLASS_CACHE: dict[int, tuple[Mapping[str, JSON], ClassData]] = memo.table({})
_LIVE_CACHE: dict[int, tuple[ShipState, Live]] = memo.table({})
_CLASS_BY_VALUE: dict[str, list[tuple[Mapping[str, JSON], ClassData]]] = memo.table({})


@dataclass(slots=True)
class Solution:
    """What one calibre of a battery rolls at a target: BFN, MFN, band, number needed and modifiers."""

    calibre: float
    kind: str
    row: GunRow
    bfn: int
    mfn: int
    band: str | None
    needed: int
    modifiers: tuple[Modifier, ...]
    halved: bool
    total: int
    """The sum of the modifiers to the die."""
    note: str = ""


@dataclass(slots=True)
class Live:
    """A ship during resolution: its state fields that change, its class data and working sheet."""

    ship: ShipState
    id: str
    """``ship.id`` (read over a thousand times a phase: a slot, not a property)."""
    cd: ClassData
    sheet: Sheet
    pos: Point
    heading: float
    speed: float
    prev_fired: bool = False
    prev_lit: bool = False


def _f(v: JSON, default: float = 0.0) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def _i(v: JSON, default: int = 0) -> int:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def _s(v: JSON) -> str:
    return v if isinstance(v, str) else ""


def _pt(p: object) -> Point:
    assert isinstance(p, Point)
    return p


class WW2Jackson(RuleSet):
    """The Jackson Gamers' WWII naval rules (seed 000), sections 1-5, with rulings W01-W41 and A1-A7."""

    key = "ww2_jackson"
    title = "Jackson Gamers WWII Naval Rules (D20)"
    version = "1.0"
    source = "seeds/000_6c8b418afcdd1c2b.txt"
    geometry = "table_in"
    unit = "inches"
    dice = ("D20",)
    order_types = ORDER_TYPES
    options = OPTIONS
    option_side_lists = ("spotting_aircraft",)  # W01, W10: a boolean input per side
    default_map = (96, 72)
    # NW-CAMP-17: what a new battle starts afresh. Carried (damage and losses): guns_lost, torpedo_lost,
    # loaded, reloads, marked, wrecked_engines, half, the conditions no roll or repair ends in a battle
    # (:meth:`sheet_between_battles`), and the standing damage preference; worked out again by :meth:`setup`:
    # max_speed. The rest is the state of the last battle: no fire or flooding under way (the damage they did
    # is in ``marked``), no helm order queued, no target of last turn, the ship cleared for action (W11), and
    # the hits that battle's enemy scored stay with that battle.
    battle_only_sheet_keys = (
        "last_marks",
        "fires",
        "floods",
        "helm",
        "cleared",
        "last_targets",
        "fired",
        "turned",
        "searchlight",
        "star_shell",
        "hits",
    )

    # --- classes --------------------------------------------------------------------------------

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return CLASS_SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        return check_class(stats)

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        from .classes import reference_classes

        return reference_classes()

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return BFN and MFN per arc and calibre, combat speed and the move in inches (class page)."""
        cd = parse_class(stats)
        sh = Sheet()
        arcs: dict[str, JSON] = {}
        for arc, side in (
            ("forward", "starboard"),
            ("aft", "starboard"),
            ("broadside", "starboard"),
            ("broadside_port", "port"),
        ):
            rows: list[JSON] = []
            for battery in BATTERIES:
                for cal, kind, bfn in bfn_by_calibre(cd, sh, battery, arc.split("_")[0], side):
                    row = gun_row(cal, kind)
                    rows.append(
                        {
                            "battery": battery,
                            "calibre": cal,
                            "bfn": bfn,
                            "mfn": mfn(bfn, row.mfn),
                            "ranges_in": list(T.RANGE_TABLE[row.range]),
                        }
                    )
            arcs[arc] = rows
        cs = combat_speed(cd.speed)
        return {
            "arcs": arcs,
            "combat_speed_knots": cs,
            "move_inches": inches(cs),
            "turning_radius_in": turning_radius(cd),
            "boxes": sh.total_boxes(cd),
        }

    def order_type_applies(self, ship: ShipState, order_type: str) -> bool:
        """A torpedo launch only for a ship whose class has torpedo mounts (``stats.torpedoes``)."""
        if order_type == "torpedo":
            mounts = ship.stats.get("torpedoes")
            return isinstance(mounts, list) and bool(mounts)
        return True

    def sheet_texts(self, ship: ShipState, names: Mapping[str, str] | None = None) -> dict[str, str]:
        """The boxes of ``guns_lost`` and ``torpedo_lost`` by their names in her class (``[7]`` is box 7, not
        seven guns: "7: Y turret (2 x 15in)"), ``loaded`` by mount ("port mount 1: 3 of 3"), and the
        ``hits`` scored on her as the log tells them ("turn 2: 15-inch from Hood, above water,
        penetrated"; the firer by ``names``). A number her class has no box for is shown as it is."""
        try:
            cd = parse_class(ship.stats)
        except (KeyError, TypeError, ValueError):
            return {}
        sh = ship.sheet
        out: dict[str, str] = {}
        gl = sh.get("guns_lost")
        if isinstance(gl, list) and gl:
            guns = {g.index: f"{g.index}: {g.name} ({g.guns} x {g_text(g.calibre)}in)" for g in cd.guns}
            out["guns_lost"] = ", ".join(guns.get(i, str(i)) if type(i) is int else str(i) for i in gl)
        tl = sh.get("torpedo_lost")
        if isinstance(tl, list) and tl:
            mounts = {t.index: f"{t.index}: {t.name}" for t in cd.torpedoes}
            out["torpedo_lost"] = ", ".join(mounts.get(i, str(i)) if type(i) is int else str(i) for i in tl)
        hits = sh.get("hits")
        if isinstance(hits, list) and hits and all(isinstance(h, dict) for h in hits):
            out["hits"] = "; ".join(_hit_text(h, names or {}) for h in hits if isinstance(h, dict))
        loaded = sh.get("loaded")
        if isinstance(loaded, list) and loaded and cd.torpedoes:
            out["loaded"] = ", ".join(
                f"{t.name}: {n} of {t.tubes}" for t, n in zip(cd.torpedoes, loaded, strict=False)
            )
        return out

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """What in her sheet is not of a ww2_jackson record sheet's shape, against her class and the ships of
        the battle (``sheetcheck.sheet_problems``; docs/rulings.md NW-WW2-27); and an active ship's
        ``max_speed`` is what her marked boxes and conditions give this turn (W38,
        :func:`.movement.max_speed`: the engine works it out each turn and caps her orders by that, not by
        the sheet; NW-WW2-28)."""
        out = sheet_problems(parse_class(ship.stats), ship.sheet, {s.id for s in state.ships})
        stored = ship.sheet.get("max_speed")
        if out or ship.status != "active" or not isinstance(stored, (int, float)) or isinstance(stored, bool):
            return out
        live = self._live(ship)
        now = max_speed(live.cd, live.sheet, state.turn)
        if abs(stored - now) > 1e-6:
            out.append(
                f"max_speed ({stored:g}) must be what her boxes and conditions give now, {now:g} knots "
                "(W38): mark her engine or underwater boxes, or give her a condition, to slow her"
            )
        return out

    def sheet_refreshed(self, state: BattleState, ship: ShipState, given: Collection[str] = ()) -> ShipState:
        """Return ``ship`` with ``max_speed`` what her boxes and conditions give this turn (W38), unless it is
        in ``given``: an umpire who marks an engine box sees her speed fall at once (NW-WW2-28)."""
        stored = ship.sheet.get("max_speed")
        if "max_speed" in given or ship.status != "active" or not isinstance(stored, (int, float)):
            return ship
        if sheet_problems(parse_class(ship.stats), ship.sheet, {s.id for s in state.ships}):
            return ship  # (not a sheet to work from: check_state says why)
        live = self._live(ship)
        now = max_speed(live.cd, live.sheet, state.turn)
        return ship if stored == now else ship.replace(sheet={**ship.sheet, "max_speed": now})

    # --- campaigns -------------------------------------------------------------------------------

    def sheet_between_battles(self, sheet: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return the sheet her next battle starts with (NW-CAMP-17): the base's, with only the conditions
        that nothing in a battle ends: those for the rest of the game (``fixed``: a list, flooded magazines,
        ammunition exhausted, steering damaged for the game) and a wrecked aircraft facility, in force from
        before the new battle's first turn. A condition that lasts some turns, ends on a recovery roll (W39)
        or is repaired by damage control (A6) has ended by then."""
        out = super().sheet_between_battles(sheet)
        conds = out.get("conditions")
        if isinstance(conds, dict):
            out["conditions"] = {
                name: {"since": 0, "until": None, "fixed": c.get("fixed") is True}
                for name, c in conds.items()
                if isinstance(c, dict)
                and (
                    c.get("fixed") is True
                    or (c.get("until") is None and name not in RECOVERABLE and name not in REPAIRABLE)
                )
            }
        return out

    # --- set-up ----------------------------------------------------------------------------------

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        """Fill each sheet from the class (every box intact, tubes loaded, cleared for action, W11)."""
        ships = []
        for s in state.ships:
            cd = parse_class(s.stats)
            sh = sheet_from_json(cd, s.sheet)
            sh.max_speed = max_speed(cd, sh, state.turn)
            speed = min(s.speed, sh.max_speed)
            ships.append(
                replace(
                    s,
                    sheet=sheet_to_json(sh),
                    speed=speed,
                    heading=norm_deg(s.heading),
                    flags=self._flags(cd, sh, speed, s.flags),
                )
            )
        new = replace(state, ships=tuple(ships))
        if not state.conditions.night:
            ev = Event(kind="setup", turn=state.turn, text=f"{len(ships)} ships take station; day action.")
            return new, (ev,)
        # A2 (NW-WW2-25): at night a side knows its own ships, not how many the enemy brought
        names = state.side_names()
        events = tuple(
            Event(
                kind="setup",
                turn=state.turn,
                text=f"{n} {'ship' if n == 1 else 'ships'} of {names.get(side, side)} "
                f"{'takes' if n == 1 else 'take'} station; night action.",
                visible_to=(side,),
            )
            for side in state.side_keys()
            if (n := sum(1 for s in ships if s.side == side))
        )
        return new, events

    # --- helpers ---------------------------------------------------------------------------------

    def _opt(self, state: BattleState, name: str) -> JSON:
        """Return the battle option ``name``: the state's, else the default of :data:`.schema.OPTIONS`."""
        return state.options.get(name, _OPTION_DEFAULTS.get(name))

    def _flags(self, cd: ClassData, sh: Sheet, speed: float, old: tuple[str, ...] = ()) -> tuple[str, ...]:
        flags = []
        if sh.fires:
            flags.append("on_fire")
        if sh.max_speed <= 0 or (speed <= 0 and sh.max_speed <= 0):
            flags.append("dead_in_water")
        if sh.fired:
            flags.append("fired")
        if sh.searchlight:
            flags.append("searchlight")
        if "illuminated" in old:
            flags.append("illuminated")
        if sh.conditions.get("list"):
            flags.append("listing")
        return tuple(flags)

    def _class(self, stats: Mapping[str, JSON]) -> ClassData:
        """Return the parsed class data of stats, cached by the stats object (states share it between
        phases) and, failing that, by value: a state read from JSON (a worker's, every phase) gives every
        ship her own stats dict, and the ships of one class share one parse (``parse_class`` is a pure
        function of the stats; comparing two stats dicts costs a few per cent of parsing one)."""
        hit = _CLASS_CACHE.get(id(stats))
        if hit is not None and hit[0] is stats:
            return hit[1]
        family = _CLASS_BY_VALUE.setdefault(f"{stats.get('type')}|{stats.get('tonnage')}|{len(stats)}", [])
        cd = None
        for seen, known in family:
            if seen == stats:
                cd = known
                break
        if cd is None:
            cd = parse_class(stats)
            if len(family) >= 16:
                family.clear()
            family.append((stats, cd))
        if len(_CLASS_CACHE) > 4096:
            _CLASS_CACHE.clear()
            _CLASS_BY_VALUE.clear()
        _CLASS_CACHE[id(stats)] = (stats, cd)
        return cd

    def _live(self, s: ShipState) -> Live:
        cd = self._class(s.stats)
        # ship, id, cd, sheet, pos, heading, speed: by position (no keyword dict to pack and unpack)
        return Live(s, s.id, cd, sheet_from_json(cd, s.sheet), _pt(s.position), s.heading, s.speed)

    def _working(self, s: ShipState) -> Live:
        """Return a ship's Live to change during resolution: the one :meth:`_seen` parsed (the order checks
        of the phase parsed it already), taken out of the cache, so no later reader sees it changed (a later
        :meth:`_seen` of the same ShipState parses its unchanged JSON again)."""
        hit = _LIVE_CACHE.pop(id(s), None)
        if hit is not None and hit[0] is s:
            return hit[1]
        return self._live(s)

    def _seen(self, s: ShipState) -> Live:
        """Return a ship's Live to read, never to change: cached by the (immutable) ShipState.

        Order checks, default orders and previews look at every target of every ship; parsing each target's
        sheet each time was most of a 200-ship phase's order checks.
        """
        hit = _LIVE_CACHE.get(id(s))
        if hit is not None and hit[0] is s:
            return hit[1]
        live = self._live(s)
        if len(_LIVE_CACHE) > 1024:
            _LIVE_CACHE.clear()
        _LIVE_CACHE[id(s)] = (s, live)
        return live

    def _night(self, state: BattleState) -> bool:
        return state.conditions.night

    def _visible(self, state: BattleState, side: str, target: ShipState) -> bool:
        """A2: by day every ship; at night within 20 inches of a ship of ``side``, or lit, on fire or
        firing."""
        if target.side == side or not state.conditions.night:  # :meth:`_night`, without the call
            return True
        if any(f in target.flags for f in ("on_fire", "fired", "illuminated", "searchlight")):
            return True
        tp = _pt(target.position)
        return any(
            s.side == side and s.active and distance(_pt(s.position), tp) <= T.NIGHT_SIGHT_IN + 1e-9
            for s in state.ships
        )

    def visible_ship_ids(self, state: BattleState, side: str) -> set[str]:
        return {s.id for s in state.ships if self._visible(state, side, s)}

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        # A2: an opponent knows the hits their side scored on the ship and where they landed, not its boxes;
        # each hit names its firer, so a third side sees only its own (NW-CAMP-15).
        hits = ship.sheet.get("hits")
        if not isinstance(hits, list):
            return {"hits": []}
        if side is None or state is None:
            return {"hits": list(hits)}
        sides = state.side_keys()
        side_of = {s.id: s.side for s in state.ships}
        shown: list[JSON] = []
        for h in hits:
            by = h.get("by") if isinstance(h, dict) else None
            firer_side = side_of.get(by, "") if isinstance(by, str) else ""
            if seen_by(scored_visibility(firer_side, ship.side, sides), side, sides):
                shown.append(h)
        return {"hits": shown}

    def _bears_torpedo(self, mount_side: str, arc: str, side: str) -> bool:
        """Torpedo mounts bear on the broadside arc, wing mounts on their own side only (NW-WW2-11)."""
        return arc == "broadside" and (mount_side == "centre" or mount_side == side)

    def _no_fire_reason(self, sheet: Sheet, battery: str, turn: int) -> str:
        if not sheet.cleared:
            return "not cleared for action (W11)"
        if not sheet.conditions:  # most ships have none: no look-ups
            return ""
        for name in ("no_power", "guns_silent"):
            if sheet.has(name, turn):
                return CONDITIONS[name]
        if battery == "main":
            for name in ("list", "ammo_exhausted", "no_main_fire"):
                if sheet.has(name, turn):
                    return CONDITIONS[name]
        return ""

    def _planned(
        self, live: Live, data: Mapping[str, JSON], turn: int, cap: float | None = None
    ) -> tuple[float, float, str]:
        """Return the course, speed and turn direction the ship executes this turn (bridge, steering).

        ``cap`` is :func:`.movement.max_speed` of the ship this turn, when the caller has it already."""
        if cap is None:
            cap = max_speed(live.cd, live.sheet, turn)
        if not live.sheet.conditions:  # most ships have none: no look-ups
            pass
        elif live.sheet.has("bridge", turn):
            return live.heading, min(live.speed, cap), "auto"
        elif live.sheet.has("steering", turn):
            if live.sheet.helm is not None:
                return live.sheet.helm[0], min(live.sheet.helm[1], cap), "auto"
            return live.heading, min(live.speed, cap), "auto"
        course = data.get("course")
        if type(course) is not float:  # a float is what _f gives for it
            course = _f(course, live.heading)
        speed = data.get("speed")
        if type(speed) is not float:
            speed = _f(speed, live.speed)
        direction = data.get("turn_direction")
        if not direction or type(direction) is not str:
            direction = "auto"
        # (a float in [0, 360) is what norm_deg returns as it is: no call for it)
        normal = type(course) is float and 0.0 <= course < 360.0
        return course if normal else norm_deg(course), min(speed, cap), direction

    def _predict(
        self, live: Live, data: Mapping[str, JSON], turn: int, cap: float | None = None
    ) -> tuple[Point, float, float, float]:
        """Return where the ship's orders take it: position, heading, speed and degrees turned."""
        course, speed, direction = self._planned(live, data, turn, cap)
        pos, heading, turned, _ = planned_move(
            live.pos, live.heading, course, speed, turning_radius(live.cd), direction
        )
        return pos, heading, speed, turned

    def _night_keys(
        self, state: BattleState, firer: Live, target: Live, lit: dict[str, set[str]], dist: float
    ) -> set[str]:
        """Return the night modifiers available to ``firer`` against ``target`` (lines 74-83)."""
        keys: set[str] = set()
        turn = state.turn
        side = firer.ship.side
        if target.id in lit.get(f"searchlight:{side}", set()) or target.sheet.searchlight:
            keys.add("searchlight")
        if target.id in lit.get(f"star_shell:{side}", set()):
            keys.add("star_shell")
        if (
            firer.cd.radar != "none"
            and not firer.sheet.has("radar_out", turn)
            and not firer.sheet.has("electrical", turn)
        ):
            keys.add(f"radar_{firer.cd.radar}")
        if target.sheet.fires:
            keys.add("target_on_fire")
        if target.prev_fired:
            keys.add("gun_flashes")
        moon = state.conditions.moon
        if moon != "none" and dist <= T.NIGHT_SIGHT_IN + 1e-9:
            keys.add(f"{moon}_moon")
        return keys

    def solutions(
        self,
        state: BattleState,
        firer: Live,
        target: Live,
        battery: str,
        *,
        pos: Point | None = None,
        heading: float | None = None,
        speed: float | None = None,
        turned: float | None = None,
        lit: dict[str, set[str]] | None = None,
    ) -> tuple[list[Solution], str]:
        """Return the fire solutions of one battery at one target, and why it cannot fire ("" when it can)."""
        turn = state.turn
        groups, reason, dist, night = self._aim(state, firer, target, battery, pos, heading, lit)
        if reason:
            return [], reason
        fspeed = firer.speed if speed is None else speed
        fturned = firer.sheet.turned if turned is None else turned
        halved = bool(firer.sheet.conditions) and (
            firer.sheet.has("ammo_short", turn) or firer.sheet.has("electrical", turn)
        )
        spot = state.options.get("spotting_aircraft", _OPTION_DEFAULTS.get("spotting_aircraft"))  # _opt()
        spotted = bool(spot) and isinstance(spot, str) and firer.ship.side in _spotters(spot)
        # The modifiers that do not depend on the calibre or the band, in the order the log lists them.
        firer_small = firer.cd.type in _SMALL  # ClassData.small, without the property's call
        target_small = target.cd.type in _SMALL
        # Sheet.fire_control(), written out: no fire control box left
        no_fc = firer.cd.counts.get("fire_control", 0) - firer.sheet.marked.get("fire_control", 0) <= 0
        first = firer.sheet.last_targets.get(battery) != target.ship.id
        # The modifiers of every calibre and band, in the order the log lists them: those before NW-WW2-12's
        # (large ship against small: per calibre) and those between it and the spotting aircraft's (per band).
        head: list[Modifier] = []
        if fspeed >= T.HIGH_SPEED_KNOTS:
            head.append(_GUN_MOD["firer_fast"])
        if target.speed >= T.HIGH_SPEED_KNOTS:
            head.append(_GUN_MOD["target_fast"])
        mid: list[Modifier] = []
        if fturned > T.TURNED_DEG:
            mid.append(_GUN_MOD["firer_turned"])
        if target.sheet.turned > T.TURNED_DEG:
            mid.append(_GUN_MOD["target_turned"])
        if no_fc:
            mid.append(_GUN_MOD["no_fire_control"])
        if first:
            mid.append(_GUN_MOD["first_fired_on"])
        if target.speed <= T.LOW_SPEED_KNOTS:
            mid.append(_GUN_MOD["target_slow"])
        # the sum of their values (whole numbers, so in any order what sum() of the list gives)
        shared = int(sum([m.value for m in head])) + int(sum([m.value for m in mid]))
        large_vs_small = not firer_small and target_small
        out: list[Solution] = []
        for cal, kind, bfn in groups:
            row = gun_row(cal, kind)
            if row.small_craft_only and target.cd.type != "small_craft":
                continue
            band = range_band(dist, row.range)
            if band is None:
                continue
            n = mfn(bfn, row.mfn)
            if halved:
                n = halve(n)
            total = shared
            if large_vs_small and cal >= T.LARGE_VS_SMALL_MIN_CALIBRE:
                mods = [*head, _LARGE_VS_SMALL, *mid]  # NW-WW2-12: the dice of 7-inch and larger guns
                total += int(_LARGE_VS_SMALL.value)
            else:
                mods = head + mid
            if spotted and band in ("long", "medium"):
                mods.append(_GUN_MOD["spotting_aircraft"])
                total += int(_GUN_MOD["spotting_aircraft"].value)
            if night is not None:
                v, label = T.NIGHT_MODIFIERS[night[0]]
                mods.append(Modifier(label=f"night: {label} (best, W10)", value=v))
                total += v
            # by position, in field order (a dataclass called with keywords packs them into a dict first)
            out.append(
                Solution(
                    cal,  # calibre
                    kind,
                    row,
                    bfn,
                    n,  # mfn
                    band,
                    T.TO_HIT[band],  # needed
                    tuple(mods),  # modifiers
                    halved,
                    total,
                )
            )
        if not out:
            return [], _beyond(target, battery, dist)
        return out, ""

    def _aim(
        self,
        state: BattleState,
        firer: Live,
        target: Live,
        battery: str,
        pos: Point | None,
        heading: float | None,
        lit: dict[str, set[str]] | None,
    ) -> tuple[list[tuple[float, str, int]], str, float, tuple[str, int] | None]:
        """Return what :meth:`solutions` needs before its calibres: the (calibre, kind, BFN) groups that bear,
        why the battery cannot fire ("" when it may), the range in inches and the best night modifier."""
        sheet = firer.sheet
        if not sheet.cleared or sheet.conditions:  # most ships are cleared and have no condition: no call
            reason = self._no_fire_reason(sheet, battery, state.turn)
            if reason:
                return [], reason, 0.0, None
        dist, arc, side = _sight(pos or firer.pos, firer.heading if heading is None else heading, target.pos)
        night: tuple[str, int] | None = None
        if state.conditions.night:  # :meth:`_night`
            night = night_modifier(self._night_keys(state, firer, target, lit or {}, dist))
            if night is None:
                return (
                    [],
                    "night: no searchlight, star shell, radar, fire, gun flashes or moon to aim by (line 86)",
                    dist,
                    None,
                )
        groups = bfn_by_calibre(firer.cd, firer.sheet, battery, arc, side)
        if not groups:
            return [], f"no {battery} guns bear in the {arc} arc", dist, night
        return groups, "", dist, night

    def _fire_reason(
        self,
        state: BattleState,
        firer: Live,
        target: Live,
        battery: str,
        pos: Point | None,
        heading: float | None,
    ) -> str:
        """Return why :meth:`solutions` would find no solution ("" when it finds one), without building them:
        order checks only need to know (a calibre fires when it may shoot at the target and is in range)."""
        groups, reason, dist, _ = self._aim(state, firer, target, battery, pos, heading, None)
        if reason:
            return reason
        for cal, kind, _bfn in groups:
            row = gun_row(cal, kind)
            if row.small_craft_only and target.cd.type != "small_craft":
                continue
            if range_band(dist, row.range) is not None:
                return ""
        return _beyond(target, battery, dist)

    # --- orders ----------------------------------------------------------------------------------

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        errors: FieldErrors = {}
        data = order.data

        def add(key: str, msg: str) -> None:
            errors.setdefault(key, []).append(msg)

        live = self._seen(ship)
        turn = state.turn
        cap = max_speed(live.cd, live.sheet, turn)
        if _f(data.get("speed")) > cap + 1e-6:
            add("speed", f"{ship.name} can make at most {cap:g} knots now (W38).")
        cleared = data.get("cleared_for_action")
        if isinstance(cleared, bool) and cleared != live.sheet.cleared:
            live = self._live(ship)  # a copy to change: the cached one is shared
            live.sheet.cleared = cleared
        pos = heading = None
        if data.get("target_main") or data.get("target_secondary") or data.get("torpedo_target"):
            pos, heading, _, _ = self._predict(live, data, turn, cap)
        ships = _ship_index(state.ships)  # the state's own index: no copy per order

        def enemy(key: str) -> ShipState | None:
            tid = data.get(key)
            if not tid or type(tid) is not str:  # what _s() gives: none
                return None
            t = ships.get(tid)
            if t is None:
                add(key, f"No ship {tid!r} in this battle.")
            elif t.side == ship.side:
                add(key, f"{t.name} is on your side.")
            elif t.status != "active":  # not t.active, without the property's call
                add(key, f"{t.name} is {t.status}.")
            elif not self._visible(state, ship.side, t):
                add(key, f"{t.name} is not in sight (A2).")
            else:
                return t
            return None

        for battery, key in _TARGET_KEYS:
            t = enemy(key)
            if t is None:
                continue
            why = self._fire_reason(state, live, self._seen(t), battery, pos, heading)
            if why and not why.startswith("night"):
                add(f"target_{battery}", f"{ship.name} cannot fire its {battery} battery at {t.name}: {why}.")
        mount_error = self._mount_error(live, data.get("torpedo_mount"))
        if mount_error:
            add("torpedo_mount", mount_error)
        t = enemy("torpedo_target")
        if t is not None and not mount_error:
            assert pos is not None and heading is not None
            mounts, why = self._torpedo_mounts(live, data, pos, heading, _pt(t.position))
            if not mounts:
                add("torpedo_target", why)
            else:
                loaded = sum(n for _, n, _ in mounts)
                if _i(data.get("torpedo_number")) > loaded:
                    add("torpedo_number", f"Only {loaded} torpedoes are loaded in the mounts that bear.")
        for key in ("searchlight", "star_shell"):
            lt = enemy(key) if data.get(key) else None  # (none ordered: enemy() finds none)
            if lt is None:
                continue
            if not self._night(state):
                add(key, "Searchlights and star shell are for night actions (A6).")
            elif key == "searchlight" and (
                live.sheet.has("electrical", turn) or live.sheet.has("no_power", turn)
            ):
                add(key, "Electrical failure: no searchlights.")
            elif key == "star_shell" and not any(live.sheet.intact_boxes(live.cd, b) for b in BATTERIES):
                add(key, "No guns left to fire star shell.")
        action = _s(data.get("dc_action")) or "none"
        if action != "none":
            sh = live.sheet
            if sh.remaining(live.cd, "damage_control") <= 0:
                add("dc_action", "No damage control boxes left (W41).")
            elif action == "restore":
                area = _s(data.get("dc_area"))
                idx = _i(data.get("dc_index")) if area in ("main", "secondary", "torpedo") else None
                if area == "damage_control" or (area, idx) not in sh.last_marks:
                    add("dc_area", "Restore only a box marked in the turn just resolved (A6).")
            elif action == "fire" and not sh.fires:
                add("dc_action", f"{ship.name} is not on fire.")
            elif action == "flooding" and not sh.floods:
                add("dc_action", f"{ship.name} has no progressive flooding.")
            elif action == "repair":
                name = _s(data.get("dc_repair"))
                c = sh.conditions.get(name)
                if name not in REPAIRABLE or c is None or c.fixed:
                    add("dc_repair", "Nothing of that kind to repair (never the bridge, line 393).")
        return errors

    @staticmethod
    def _mount_error(live: Live, value: JSON) -> str:
        """Return why ``torpedo_mount`` names no mount of the ship ("" when it does, or is -1: every loaded
        mount that bears). Mounts are numbered from 0 in the class's order (the ``torpedoes`` rows), as the
        order form lists them; a number she lacks is refused whether or not a target is given."""
        want = _i(value, -1)
        if want < 0:
            return ""
        mounts = live.cd.torpedoes
        if any(m.index == want for m in mounts):
            return ""
        if not mounts:
            return f"{live.ship.name} has no torpedo mounts: leave the mount at -1."
        names = ", ".join(f"{m.index} ({m.name})" for m in mounts)
        return (
            f"{live.ship.name} has no torpedo mount {want}: her mounts are {names}; "
            "-1 launches from every loaded mount that bears."
        )

    def _torpedo_mounts(
        self,
        live: Live,
        data: Mapping[str, JSON],
        pos: Point,
        heading: float,
        tpos: Point,
        at_start: tuple[list[int], list[int]] | None = None,
    ) -> tuple[list[tuple[int, int, str]], str]:
        """Return the (mount, loaded, band) that may launch at a target position, or why none can.

        ``at_start`` is (loaded, lost mounts) as they stood at the start of the turn, for the launch in
        resolution (NW-WW2-24); None reads the sheet as it is."""
        if not live.sheet.cleared:
            return [], "Not cleared for action (W11)."
        if not live.cd.torpedoes:
            return [], "No torpedo tubes aboard."
        dist, arc, side = _sight(pos, heading, tpos)
        out: list[tuple[int, int, str]] = []
        why = "No loaded torpedo mount bears on the target (broadside arc, NW-WW2-11)."
        far: tuple[int, float] | None = None
        if arc != "broadside":  # no mount bears outside the broadside arc (:meth:`_bears_torpedo`)
            return out, why
        want = _i(data.get("torpedo_mount"), -1)
        tubes, lost = (live.sheet.loaded, live.sheet.torpedo_lost) if at_start is None else at_start
        for m in live.cd.torpedoes:
            if want >= 0 and m.index != want:
                continue
            loaded = tubes[m.index] if m.index < len(tubes) else 0
            if loaded <= 0 or m.index in lost:
                continue
            if m.side != "centre" and m.side != side:  # :meth:`_bears_torpedo` (the arc is the broadside)
                continue
            short, medium, long_ = T.TORPEDO_RANGES[m.calibre]
            band = (
                "short" if dist <= short else "medium" if dist <= medium else "long" if dist <= long_ else ""
            )
            if not band:
                far = (m.calibre, long_)  # the last mount out of range names the reason
                continue
            out.append((m.index, loaded, band))
        if not out and far is not None:  # formatted only when it is the answer (floats format slowly)
            why = f"Out of torpedo range ({dist:.1f} in; {far[0]}-inch runs {far[1]:g} in, A6)."
        return out, why

    # --- default orders (A7) -----------------------------------------------------------------------

    def _nearest_enemies(self, state: BattleState, ship: ShipState) -> list[ShipState]:
        here = _pt(ship.position)
        foes = [
            t for t in state.ships if t.side != ship.side and t.active and self._visible(state, ship.side, t)
        ]
        return sorted(foes, key=lambda t: (distance(here, _pt(t.position)), t.id))

    def die_needed(self, event: Event) -> int | None:
        """Return what the D20 itself must show: for gunfire and torpedoes the number needed less the
        modifiers' sum (W10: the modified roll is compared with it; the log's text says the same,
        :func:`die_needed_text`, NW-WW2-26); other events' number is the die's."""
        if event.needed is None or event.kind not in ("fire", "torpedo") or not event.modifiers:
            return event.needed
        return event.needed - int(sum(m.value for m in event.modifiers))

    def top_speed(self, ship: ShipState) -> float | None:
        """Return her class's combat speed in knots (rated speed less 1 or 2 knots, line 395; NW-CAMP-29)."""
        return combat_speed(parse_class(ship.stats).speed)

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        live = self._seen(ship)
        turn = state.turn
        cap = max_speed(live.cd, live.sheet, turn)
        data: dict[str, JSON] = {
            "course": norm_deg(ship.heading),
            "speed": round(min(ship.speed, cap), 4),
            "cleared_for_action": live.sheet.cleared,
            "damage_preference": live.sheet.preference,
        }
        foes = self._nearest_enemies(state, ship)
        if policy == "captain":
            data.update(self._captain_move(state, live, foes, cap))
            data.update(self._captain_dc(live))
        if policy == "hold" or not foes:
            return ShipOrder(ship_id=ship.id, data=data)
        pos, heading, spd, turned = self._predict(live, data, turn, cap)
        for battery in BATTERIES:
            for t in foes[:6]:
                sols, _ = self.solutions(
                    state, live, self._seen(t), battery, pos=pos, heading=heading, speed=spd, turned=turned
                )
                if sols:
                    data[f"target_{battery}"] = t.id
                    break
        for t in foes[:4]:
            mounts, _ = self._torpedo_mounts(live, {"torpedo_mount": -1}, pos, heading, _pt(t.position))
            if mounts and (policy == "fire_nearest" or any(b != "long" for _, _, b in mounts)):
                data.update({"torpedo_target": t.id, "torpedo_mount": -1, "torpedo_number": 0})
                break
        if policy == "captain" and self._night(state) and foes and live.cd.radar == "none":
            t = foes[0]
            if distance(pos, _pt(t.position)) <= T.NIGHT_SIGHT_IN * 1.5 and any(
                live.sheet.intact_boxes(live.cd, b) for b in BATTERIES
            ):
                data["star_shell"] = t.id
        order = ShipOrder(ship_id=ship.id, data=data)
        # Never return an illegal order: drop whatever the checks refuse.
        errs = self.check_order(state, ship, order)
        if errs:
            for key in list(errs):
                if key in ("target_main", "target_secondary", "torpedo_target", "star_shell", "searchlight"):
                    data.pop(key, None)
                if key.startswith("torpedo"):
                    for k in ("torpedo_target", "torpedo_mount", "torpedo_number"):
                        data.pop(k, None)
                if key.startswith("dc_"):
                    for k in ("dc_action", "dc_area", "dc_index", "dc_repair"):
                        data.pop(k, None)
                if key == "speed":
                    data["speed"] = cap
        return ShipOrder(ship_id=ship.id, data=data)

    def _captain_move(
        self, state: BattleState, live: Live, foes: list[ShipState], cap: float
    ) -> dict[str, JSON]:
        """A7's automatic captain: close to the main battery's best range with the broadside bearing, keep on
        the table."""
        if not foes:
            return {"course": norm_deg(live.heading), "speed": cap}
        t = foes[0]
        tpos = _pt(t.position)
        dist = distance(live.pos, tpos)
        brg = bearing(live.pos, tpos)
        ranges = [
            T.RANGE_TABLE[gun_row(g.calibre, g.kind).range]
            for g in live.cd.guns
            if g.area == "main" and g.index not in live.sheet.guns_lost
        ]
        lost = live.sheet.torpedo_lost
        if any(n for i, n in enumerate(live.sheet.loaded) if i not in lost):  # a loaded mount left
            best = min(T.TORPEDO_RANGES[m.calibre][1] for m in live.cd.torpedoes) * 0.9
        elif ranges:
            best = max(r[1] for r in ranges) * 0.85
        else:
            best = 20.0
        if dist > best + 4:
            offset = 40.0
        elif dist < best * 0.5:
            offset = 130.0
        else:
            offset = 90.0
        options = [norm_deg(brg + offset), norm_deg(brg - offset)]
        course = min(options, key=lambda c: abs(turn_between(live.heading, c)))
        # Keep on the table: steer for the centre when the move would end near an edge.
        w, h = state.map.width, state.map.height
        end, _, _, _ = move(live.pos, live.heading, course, cap, turning_radius(live.cd))
        margin = 4.0
        if not (margin <= end.x <= w - margin and margin <= end.y <= h - margin):
            centre = Point(x=w / 2, y=h / 2)
            course = min(
                [*options, bearing(live.pos, centre)],
                key=lambda c: distance(
                    move(live.pos, live.heading, c, cap, turning_radius(live.cd))[0], centre
                ),
            )
        return {"course": round(course, 2), "speed": cap}

    def _captain_dc(self, live: Live) -> dict[str, JSON]:
        sh = live.sheet
        if sh.remaining(live.cd, "damage_control") <= 0:
            return {}
        if sh.floods:
            return {"dc_action": "flooding"}
        if any(f.intensity == 2 for f in sh.fires) or len(sh.fires) > 1:
            return {"dc_action": "fire"}
        for name in ("boiler", "fuel", "steering", "ammo_short"):
            c = sh.conditions.get(name)
            if c is not None and not c.fixed:
                return {"dc_action": "repair", "dc_repair": name}
        for area in ("engine", "main", "fire_control", "underwater"):
            for a, idx in sh.last_marks:
                if a == area:
                    return {"dc_action": "restore", "dc_area": a, "dc_index": idx or 0}
        return {}

    # --- resolution ------------------------------------------------------------------------------

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        turn = state.turn
        start = len(dice.rolls)
        ctx = Ctx(
            turn=turn,
            dice=dice,
            carrier_table=str(self._opt(state, "carrier_table") or "capital"),
            shell_flooding=bool(self._opt(state, "shell_flooding")),
            sides=state.side_keys(),
        )
        lives: dict[str, Live] = {}
        hulls: dict[str, Hull] = {}
        for s in state.ships:
            if s.status != "active":  # not s.active
                continue
            lv = self._working(s)
            lv.prev_fired = lv.sheet.fired
            lv.sheet.fired = False
            lv.sheet.fresh = []
            lv.sheet.searchlight = ""
            lv.sheet.star_shell = ""
            lives[s.id] = lv
            hulls[s.id] = Hull(s.id, s.name, s.side, lv.cd, lv.sheet, s.speed)  # ship_id, name, side, cd, ...
        # (0) standing orders and damage control (A6, W41).
        for sid, lv in lives.items():
            data = orders[sid].data if sid in orders else {}
            if isinstance(data.get("cleared_for_action"), bool):
                lv.sheet.cleared = bool(data["cleared_for_action"])
            pref = _s(data.get("damage_preference"))
            if pref in T.DAMAGE_PREFERENCES:
                lv.sheet.preference = pref
            if data.get("dc_action"):  # none ordered: nothing to spend
                self._damage_control(ctx, lv, data)
            lv.sheet.last_marks = []
        # (1) movement, all at once.
        leave = self._opt(state, "leave_table") != "stays"
        withdrawn: dict[str, str] = {}
        for sid, lv in lives.items():
            data = orders[sid].data if sid in orders else {"course": lv.heading, "speed": lv.speed}
            self._move(ctx, state, lv, data, leave, withdrawn)
        for sid, lv in lives.items():
            hulls[sid].speed = lv.speed
        # Lights of this turn (searchlights, star shell), per side.
        lit: dict[str, set[str]] = {}
        for sid, lv in lives.items() if self._night(state) else ():  # no lights by day
            if sid in withdrawn or sid not in orders:
                continue
            data = orders[sid].data
            for key in ("searchlight", "star_shell"):
                tid = _s(data.get(key))
                if tid and tid in lives and self._night(state):
                    if key == "searchlight" and (
                        lv.sheet.has("electrical", turn) or lv.sheet.has("no_power", turn)
                    ):
                        continue
                    lit.setdefault(f"{key}:{lv.ship.side}", set()).add(tid)
                    setattr(lv.sheet, key, tid)
        # (2) gunfire, all at once; hits applied after all fire (A1).
        roll = dice.roll
        all_rolls = ctx.rolls
        pending_hits: list[tuple[str, GunRow, float, str, str, str, str, int]] = []
        for sid, lv in lives.items():
            if sid in withdrawn or sid not in orders:
                lv.sheet.last_targets = {}
                continue
            targets: dict[str, str] = {}
            side = lv.ship.side
            for battery, key in _TARGET_KEYS:
                tid = _s(orders[sid].data.get(key))
                if not tid:
                    continue
                tgt = lives.get(tid)
                if tgt is None or tid in withdrawn:
                    ctx.events.append(
                        Event(
                            kind="no_fire",
                            turn=turn,
                            ship_id=sid,
                            target_id=tid,
                            text=f"{lv.ship.name} holds {battery} fire: target gone.",
                            visible_to=(lv.ship.side,),
                        )
                    )
                    continue
                sols, why = self.solutions(state, lv, tgt, battery, lit=lit)
                if not sols:
                    ctx.events.append(
                        Event(
                            kind="no_fire",
                            turn=turn,
                            ship_id=sid,
                            target_id=tid,
                            text=f"{lv.ship.name} cannot fire its {battery} battery at "
                            f"{tgt.ship.name}: {why}.",
                            visible_to=(lv.ship.side,),
                        )
                    )
                    continue
                targets[battery] = tid
                lv.sheet.fired = True
                # NW-WW2-22: a ship that fires is in sight (A2): the target's side sees the shot and its dice
                vis = fire_visibility(side, tgt.ship.side)
                for sol in sols:
                    m = len(all_rolls)
                    cal_text = g_text(sol.calibre)  # formatted once for the dice and the log
                    purpose = f"{lv.ship.name} {cal_text}in at {tgt.ship.name}"
                    total, needed = sol.total, sol.needed
                    rolls = [roll("D20", purpose) for _ in range(sol.mfn)]
                    # a die hits when die + total >= needed: counted as needed - total <= die, in C
                    hits = sum(map((needed - total).__le__, rolls))
                    mods_text = "".join([_GUN_MOD_TEXT.get(id(mm)) or _mod_text(mm) for mm in sol.modifiers])
                    ctx.events.append(
                        new_event(
                            "fire",
                            f"{lv.ship.name} {battery} {cal_text}-inch at {tgt.ship.name}: BFN {sol.bfn} -> "
                            f"MFN {sol.mfn} D20{' (halved, W14)' if sol.halved else ''} at {sol.band} range, "
                            f"{sol.needed}+{mods_text}{die_needed_text(needed, total)}: D20 "
                            f"{', '.join(map(str, rolls))} -> {hits} hit(s).",
                            turn,
                            0,
                            sid,
                            tid,
                            tuple(all_rolls[m:]),
                            sol.modifiers,
                            sol.needed,
                            "hit" if hits else "miss",
                            {
                                "battery": battery,
                                "calibre": sol.calibre,
                                "bfn": sol.bfn,
                                "mfn": sol.mfn,
                                "band": sol.band,
                                "hits": hits,
                                "modifier": total,
                            },
                            vis,
                        )
                    )
                    if hits:
                        assert sol.band is not None
                        pending_hits.append(
                            (tid, sol.row, sol.calibre, cal_text, sol.band, sid, lv.ship.side, hits)
                        )
            lv.sheet.last_targets = targets
        # NW-WW2-24: the tubes launch as they stood before this turn's gunfire (A1: damage is applied after
        # all fire is resolved), as a ship sunk this turn still launches (NW-WW2-21): loaded, lost mounts,
        # fire control, kept for the ships ordered to launch
        tubes_before: dict[str, tuple[list[int], list[int], bool]] = {
            sid: (list(lv.sheet.loaded), list(lv.sheet.torpedo_lost), lv.sheet.fire_control(lv.cd))
            for sid, lv in lives.items()
            if lv.cd.torpedoes and sid in orders and orders[sid].data.get("torpedo_target")
        }
        for tid, row, cal, cal_text, band, fid, fside, n in pending_hits:
            hull = hulls[tid]
            if not hull.sunk:  # the salvo's hits one after another, while the ship is afloat
                shell_hit(ctx, hull, row, cal, band, fid, fside, n, cal_text)
        # (3) torpedoes: launches recorded, those due strike (A6, lines 157-160). A ship sunk by this turn's
        # gunfire still launches (NW-WW2-21: the orders are simultaneous, as her guns still fire, A1), and
        # so does a mount this turn's gunfire knocked out (NW-WW2-24).
        pending = list(state.pending)
        fired_mounts: dict[str, set[int]] = {}
        for sid, lv in lives.items():
            if sid in withdrawn or sid not in orders:
                continue
            before = tubes_before.get(sid)
            pending.extend(self._launch(ctx, state, lv, orders[sid].data, lives, fired_mounts, before))
        keep: list[PendingEffect] = []
        for p in pending:
            if p.kind == "torpedo" and p.due_turn == turn:
                self._strike(ctx, p, lives, hulls, state)
            elif p.kind != "torpedo" or (p.due_turn is not None and p.due_turn > turn):
                keep.append(p)
        # (4) end of turn: fires, flooding, recovery, sinking (A6).
        ships = state.ship_map()
        fates: list[tuple[int, str, tuple[str, ...]]] = []  # NW-WW2-23: (event index, ship id, her flags)
        for sid, lv in lives.items():
            hull = hulls[sid]
            if sid not in withdrawn:
                end_of_turn(ctx, hull)
            for mt in lv.cd.torpedoes:
                # NW-WW2-11: a mount that did not fire this turn reloads from the reloads aboard.
                if (
                    mt.index not in fired_mounts.get(sid, ())
                    and mt.index not in lv.sheet.torpedo_lost
                    and lv.sheet.loaded[mt.index] < mt.tubes
                    and lv.sheet.reloads > 0
                ):
                    n = min(mt.tubes - lv.sheet.loaded[mt.index], lv.sheet.reloads)
                    lv.sheet.loaded[mt.index] += n
                    lv.sheet.reloads -= n
            lv.sheet.max_speed = max_speed(lv.cd, lv.sheet, turn + 1)
            lv.sheet.last_marks = list(dict.fromkeys(lv.sheet.fresh))
            lv.sheet.fresh = []
            status = lv.ship.status
            fate_at = len(ctx.events)
            if hull.sunk:
                status = "sunk"
                ctx.public(hull, "sunk", f"sinks: {hull.sunk}.", outcome="sunk")
            elif hull.withdrawn or sid in withdrawn:
                status = "withdrawn"
                ctx.public(
                    hull,
                    "withdrawn",
                    f"withdraws from the battle: {hull.withdrawn or withdrawn[sid]}.",
                    outcome="withdrawn",
                )
            lit_now = bool(lit) and any(sid in v for v in lit.values())  # (no lights by day)
            flags = self._flags(lv.cd, lv.sheet, lv.speed, ("illuminated",) if lit_now else ())
            if len(ctx.events) > fate_at:
                fates.append((fate_at, sid, flags))
            if status == "sunk":
                flags = ("sinking",)
            ships[sid] = lv.ship.replace(
                position=lv.pos,
                heading=lv.heading,
                speed=lv.speed,
                status=status,
                sheet=sheet_to_json(lv.sheet, own=True),  # the working sheet ends with the phase
                flags=flags,
            )
        new = replace(state.with_ships(ships), pending=tuple(keep))
        if fates and self._night(state):  # by day every side sees every ship go (A2)
            for at, sid, flags in fates:
                ctx.events[at] = replace(
                    ctx.events[at], visible_to=self._fate_sides(state, new, sid, flags, ctx.events)
                )
        return PhaseResult(state=new, events=tuple(ctx.events), rolls=tuple(dice.rolls[start:]))

    def _fate_sides(
        self, before: BattleState, after: BattleState, sid: str, flags: tuple[str, ...], events: list[Event]
    ) -> tuple[str, ...] | None:
        """Return the ``visible_to`` of a ship's sinking or withdrawal at night (NW-WW2-23): the sides that
        had her in sight (A2) at the start of the turn or at its end (as she was before she went: ``flags``,
        a ship that fired or burned this turn was seen), and the sides whose gunfire or torpedoes hit her this
        turn. None when that is every side."""
        sides = before.side_keys()
        was = before.ship_map()[sid]
        now = after.ship_map()[sid].replace(flags=flags)
        seen = {k for k in sides if self._visible(before, k, was) or self._visible(after, k, now)}
        side_of = {s.id: s.side for s in before.ships}
        for e in events:
            if e.target_id == sid and e.outcome == "hit" and e.kind in ("fire", "torpedo"):
                firer = e.ship_id or e.data.get("firer")
                if isinstance(firer, str) and firer in side_of:
                    seen.add(side_of[firer])
        if seen.issuperset(sides):
            return None
        return tuple(k for k in sides if k in seen)

    def _damage_control(self, ctx: Ctx, lv: Live, data: Mapping[str, JSON]) -> None:
        """Spend one damage control box as ordered (A6, W41)."""
        action = _s(data.get("dc_action")) or "none"
        sh, cd = lv.sheet, lv.cd
        if action == "none" or sh.remaining(cd, "damage_control") <= 0:
            return
        done = ""
        if action == "restore":
            area = _s(data.get("dc_area"))
            idx = _i(data.get("dc_index")) if area in ("main", "secondary", "torpedo") else None
            if (area, idx) in sh.last_marks and area != "damage_control" and sh.restore(cd, area, idx):
                done = f"restores {area.replace('_', ' ')}" + (f" box {idx}" if idx is not None else "")
        elif action == "fire" and sh.fires:
            sh.fires.sort(key=lambda f: -f.intensity)
            sh.fires.pop(0)
            done = "puts out a fire"
        elif action == "flooding" and sh.floods:
            sh.floods.sort(key=lambda f: f.kind != "critical")
            sh.floods.pop(0)
            done = "stops the flooding"
        elif action == "repair":
            name = _s(data.get("dc_repair"))
            c = sh.conditions.get(name)
            if name in REPAIRABLE and c is not None and not c.fixed:
                del sh.conditions[name]
                done = f"repairs: {name.replace('_', ' ')}"
        if done:
            sh.marked["damage_control"] += 1
            ctx.events.append(
                Event(
                    kind="damage_control",
                    turn=ctx.turn,
                    ship_id=lv.id,
                    text=f"{lv.ship.name} spends a damage control box: {done} (A6, W41).",
                    visible_to=(lv.ship.side,),
                    outcome=action,
                )
            )

    def _move(
        self,
        ctx: Ctx,
        state: BattleState,
        lv: Live,
        data: Mapping[str, JSON],
        leave: bool,
        withdrawn: dict[str, str],
    ) -> None:
        turn = state.turn
        course, speed, direction = self._planned(lv, data, turn)
        note = ""
        if not lv.sheet.conditions:  # most ships have none: no look-ups
            pass
        elif lv.sheet.has("bridge", turn):
            note = " (bridge hit: straight ahead)"
        elif lv.sheet.has("steering", turn):
            note = " (steering damaged: last turn's helm order)"
        raw_speed = data.get("speed")
        if type(raw_speed) is not float:  # a float is what _f gives for it
            raw_speed = _f(raw_speed, lv.speed)
        if lv.sheet.conditions:
            lv.sheet.helm = (norm_deg(_f(data.get("course"), lv.heading)), raw_speed)
        else:  # the course ordered is what _planned gave (norm_deg of _f of it)
            lv.sheet.helm = (course, raw_speed)
        pos, heading, turned, path = planned_move(
            lv.pos, lv.heading, course, speed, turning_radius(lv.cd), direction
        )
        lv.sheet.turned = turned if turned.is_integer() else round(turned, 4)  # (no turn: 0.0 as it is)
        w, h = state.map.width, state.map.height
        if not on_table(pos, w, h):
            if leave:
                withdrawn[lv.id] = "left the table (NW-WW2-10)"
            else:
                pos = Point(x=min(max(pos.x, 0.0), w), y=min(max(pos.y, 0.0), h))
        lv.pos, lv.heading, lv.speed = pos, heading, speed
        ctx.events.append(
            new_event(
                "move",
                f"{lv.ship.name} steers {heading:.0f} at {g_text(speed)} knots "
                f"({g_text(inches(speed))} in){note}.",
                turn,
                0,
                lv.id,
                None,
                (),
                (),
                None,
                "",
                {
                    "path": [{"x": _round3(p.x), "y": _round3(p.y)} for p in path],
                    "heading": heading,
                    "speed": speed,
                    "turned": lv.sheet.turned,
                },
                None if not state.conditions.night else (lv.ship.side,),  # :meth:`_night`
            )
        )

    def _launch(
        self,
        ctx: Ctx,
        state: BattleState,
        lv: Live,
        data: Mapping[str, JSON],
        lives: dict[str, Live],
        fired_mounts: dict[str, set[int]],
        before: tuple[list[int], list[int], bool] | None = None,
    ) -> list[PendingEffect]:
        """Launch the torpedoes ordered; ``before`` is (loaded, lost mounts, fire control) at the start of the
        turn (NW-WW2-24), None to read the sheet."""
        tid = _s(data.get("torpedo_target"))
        tgt = lives.get(tid)
        if not tid or tgt is None:
            return []
        tubes = None if before is None else (before[0], before[1])
        mounts, why = self._torpedo_mounts(lv, data, lv.pos, lv.heading, tgt.pos, tubes)
        if not mounts:
            ctx.events.append(
                Event(
                    kind="no_fire",
                    turn=ctx.turn,
                    ship_id=lv.id,
                    target_id=tid,
                    text=f"{lv.ship.name} cannot launch torpedoes at {tgt.ship.name}: {why}",
                    visible_to=(lv.ship.side,),
                )
            )
            return []
        left = _i(data.get("torpedo_number"))
        left = left if left > 0 else sum(n for _, n, _ in mounts)
        out: list[PendingEffect] = []
        no_fc = not (lv.sheet.fire_control(lv.cd) if before is None else before[2])
        vis = (lv.ship.side,)  # one tuple for the launches and their events
        for idx, loaded, band in mounts:
            if left <= 0:
                break
            n = min(loaded, left)
            left -= n
            # (a tube hit this turn emptied the tubes already: NW-WW2-24)
            lv.sheet.loaded[idx] = max(0, lv.sheet.loaded[idx] - n)
            fired_mounts.setdefault(lv.id, set()).add(idx)
            mount = lv.cd.torpedoes[idx]
            due = ctx.turn + T.TORPEDO_DELAY[band]
            out.append(
                PendingEffect(
                    id=f"torpedo-{ctx.turn}-{lv.id}-{idx}",
                    kind="torpedo",
                    ship_id=tid,
                    due_turn=due,
                    data={
                        "firer": lv.id,
                        "firer_name": lv.ship.name,
                        "target": tid,
                        "calibre": mount.calibre,
                        "number": n,
                        "band": band,
                        "no_fire_control": no_fc,
                        "fixed": mount.fixed and lv.cd.type in ("battleship", "battlecruiser"),
                    },
                    visible_to=vis,
                )
            )
            ctx.events.append(
                new_event(
                    "torpedo_launch",
                    f"{lv.ship.name} launches {n} {mount.calibre}-inch torpedoes from {mount.name} at "
                    f"{tgt.ship.name}: {band} range, due turn {due}.",
                    ctx.turn,
                    0,
                    lv.id,
                    tid,
                    (),
                    (),
                    None,
                    "",
                    {"number": n, "band": band, "due_turn": due, "mount": idx},
                    vis,
                )
            )
        return out

    def _strike(
        self, ctx: Ctx, p: PendingEffect, lives: dict[str, Live], hulls: dict[str, Hull], state: BattleState
    ) -> None:
        """Torpedoes due this turn roll to hit (lines 143-155, W13-W15) if the target is still afloat."""
        tid = str(p.data.get("target"))
        tgt = lives.get(tid)
        firer = str(p.data.get("firer"))
        fname = str(p.data.get("firer_name"))
        if tgt is None or hulls[tid].sunk:
            # The torpedoes run on their own: the event names no acting ship (the firer may be sunk by now).
            ctx.events.append(
                Event(
                    kind="torpedo_miss",
                    turn=ctx.turn,
                    target_id=tid,
                    data={"firer": firer},
                    text=f"{fname}'s torpedoes run on: the target is gone.",
                    visible_to=p.visible_to,
                )
            )
            return
        number = _i(p.data.get("number"), 1)
        band = str(p.data.get("band"))
        mods: list[Modifier] = []
        add = _adder(mods, T.TORPEDO_MODIFIERS)

        if tgt.speed <= 0:
            add("stationary")
        elif tgt.speed >= 27:
            add("target_27")
        elif tgt.speed >= 21:
            add("target_21")
        if p.data.get("no_fire_control"):
            add("no_fire_control")
        if p.data.get("fixed"):
            add("fixed_tubes")
        if tgt.cd.small:
            add("agile")
        radical = tgt.sheet.turned > T.TURNED_DEG
        if radical:
            number = halve(number)
        total = int(sum(m.value for m in mods))
        needed = T.TORPEDO_TO_HIT[band]
        m = len(ctx.rolls)
        rolls = [ctx.roll(f"{fname} torpedo at {tgt.ship.name}") for _ in range(number)]
        hits = sum(1 for r in rolls if r + total >= needed)
        mods_text = "".join(f", {mm.value:+g} {mm.label}" for mm in mods)
        ctx.events.append(
            Event(
                kind="torpedo",
                turn=ctx.turn,
                target_id=tid,
                rolls=ctx.since(m),
                modifiers=tuple(mods),
                needed=needed,
                outcome="hit" if hits else "miss",
                text=f"{fname}'s {p.data.get('calibre')}-inch torpedoes reach {tgt.ship.name}: {number} D20"
                f"{' (halved: radical manoeuvre, W14/W15)' if radical else ''} at {band} range, {needed}+"
                f"{mods_text}{die_needed_text(needed, total)}: {', '.join(str(r) for r in rolls)} -> "
                f"{hits} hit(s).",
                data={"hits": hits, "number": number, "band": band, "firer": firer},
                visible_to=p.visible_to,
            )
        )
        if hits:
            ctx.events.append(
                Event(
                    kind="torpedo_hit",
                    turn=ctx.turn,
                    target_id=tid,
                    data={"firer": firer},
                    text=f"{tgt.ship.name} is hit by {hits} torpedo(es).",
                    outcome="hit",
                    # A2, NW-CAMP-15: the launching side's hit and the target's; every side's in two
                    visible_to=scored_visibility(_firer_side(state, firer), tgt.ship.side, ctx.sides),
                )
            )
        for _ in range(hits):
            if hulls[tid].sunk:
                break
            torpedo_hit(ctx, hulls[tid], _i(p.data.get("calibre"), 21))

    # --- reference -------------------------------------------------------------------------------

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        live = self._seen(ship)
        turn = state.turn
        pos, heading, spd, turned = self._predict(live, order.data, turn)
        lines = [
            (
                f"Ends near ({pos.x:.1f}, {pos.y:.1f}) heading {heading:.0f} at {spd:g} knots "
                f"({inches(spd):g} in); can make {max_speed(live.cd, live.sheet, turn):g} knots."
            )
        ]
        for name in sorted(live.sheet.conditions):
            if live.sheet.has(name, turn):
                lines.append(CONDITIONS.get(name, name))
        ships = state.ship_map()
        for battery in BATTERIES:
            t = ships.get(_s(order.data.get(f"target_{battery}")))
            if t is None:
                continue
            sols, why = self.solutions(
                state, live, self._seen(t), battery, pos=pos, heading=heading, speed=spd, turned=turned
            )
            if not sols:
                lines.append(f"{battery}: {why}.")
            for s in sols:
                mods = "".join(f", {m.value:+g} {m.label}" for m in s.modifiers)
                lines.append(
                    f"{s.calibre:g}-inch: BFN {s.bfn} -> MFN {s.mfn} D20, hits on {s.needed}+ at {s.band} "
                    f"range{mods}"
                )
        t = ships.get(_s(order.data.get("torpedo_target")))
        if t is not None:
            mounts, why = self._torpedo_mounts(live, order.data, pos, heading, _pt(t.position))
            for idx, n, band in mounts:
                lines.append(
                    f"{live.cd.torpedoes[idx].name}: {n} x {live.cd.torpedoes[idx].calibre}-inch, {band} "
                    f"range, {T.TORPEDO_TO_HIT[band]}+, strike turn {turn + T.TORPEDO_DELAY[band]}"
                )
            if not mounts:
                lines.append(why)
        return lines

    def arcs(self, state: BattleState, ship: ShipState) -> list[ArcSpec]:
        """The arcs the map draws (:func:`.arcs.ship_arcs`, from :meth:`tables`)."""
        return ship_arcs(self.tables(), state, ship)

    def order_hints(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> dict[str, FieldHint]:
        """The order panel's hints (:func:`.hints.ship_hints`)."""
        return ship_hints(state, ship, data)

    def standing_orders(self, ship: ShipState) -> dict[str, JSON]:
        """The sheet's damage preference and cleared-for-action (:func:`.hints.standing_orders`)."""
        return sheet_standing_orders(ship)

    def tables(self) -> dict[str, JSON]:
        def bands(rows: object) -> JSON:
            assert isinstance(rows, tuple)
            return [{"low": lo, "high": hi, "result": _json(v)} for lo, hi, v in rows]

        return {
            "source": self.source,
            "MFN_CHART": {k: list(v) for k, v in T.MFN_CHART.items()},
            "RANGE_TABLE": {k: list(v) for k, v in T.RANGE_TABLE.items()},
            "TO_HIT": dict(T.TO_HIT),
            "GUN_MODIFIERS": {k: {"value": v, "label": lbl} for k, (v, lbl) in T.GUN_MODIFIERS.items()},
            "NIGHT_MODIFIERS": {k: {"value": v, "label": lbl} for k, (v, lbl) in T.NIGHT_MODIFIERS.items()},
            "DAMAGE_HALVES": dict(T.DAMAGE_HALVES),
            "HIT_LOCATION_LONG": bands(T.HIT_LOCATION_LONG),
            "HIT_LOCATION_MEDIUM": bands(T.HIT_LOCATION_MEDIUM),
            "HIT_LOCATION_SHORT": bands(T.HIT_LOCATION_SHORT),
            "PENETRATION": {
                k: {ltr: ("NO" if n == T.NO else "ALL" if n == T.ALL else n) for ltr, n in v.items()}
                for k, v in T.PENETRATION.items()
            },
            "SHORT_RANGE_PENETRATION_BONUS": T.SHORT_RANGE_PENETRATION_BONUS,
            "EXTRA_FLOODING_NEEDED": T.EXTRA_FLOODING_NEEDED,
            "PROGRESSIVE_FLOODING_STOP": T.PROGRESSIVE_FLOODING_STOP,
            "FIRE_LOSS": dict(T.FIRE_LOSS),
            "RECOVERY_NEEDED": T.RECOVERY_NEEDED,
            "SPECIALIZED_HITS": bands(T.SPECIALIZED_HITS),
            "TORPEDO_TUBE_HIT": bands(T.TORPEDO_TUBE_HIT),
            "CRITICAL_TABLES": {k: bands(v) for k, v in T.CRITICAL_TABLES.items()},
            "TORPEDO_CRITICAL_FOR": dict(T.TORPEDO_CRITICAL_FOR),
            "MAGAZINE_TABLES": {k: bands(v) for k, v in T.MAGAZINE_TABLES.items()},
            "TORPEDO_TO_HIT": dict(T.TORPEDO_TO_HIT),
            "TORPEDO_MODIFIERS": {
                k: {"value": v, "label": lbl} for k, (v, lbl) in T.TORPEDO_MODIFIERS.items()
            },
            "TORPEDO_RANGES": {str(k): list(v) for k, v in T.TORPEDO_RANGES.items()},
            "TORPEDO_DELAY": dict(T.TORPEDO_DELAY),
            "TORPEDO_TABLE_FOR": {str(k): dict(v) for k, v in T.TORPEDO_TABLE_FOR.items()},
            "TORPEDO_TABLES": {str(k): bands(v) for k, v in T.TORPEDO_TABLES.items()},
            "INCHES_PER_KNOT": T.INCHES_PER_KNOT,
            "COMBAT_REDUCTION": dict(T.COMBAT_REDUCTION),
            "UNDERWATER_SPEED_LOSS": dict(T.UNDERWATER_SPEED_LOSS),
            "HALF_SPEED_FACTOR": T.HALF_SPEED_FACTOR,
            "TURNING_RADIUS": dict(T.TURNING_RADIUS),
            "ARCS_DEG": {"forward": T.ARC_FORWARD_DEG, "aft": T.ARC_AFT_DEG},
            "DAMAGE_PREFERENCES": {k: list(v) for k, v in T.DAMAGE_PREFERENCES.items()},
            "A4_HEURISTIC": {
                "tons_per_above_box": dict(T.HEURISTIC_TONS_PER_ABOVE_BOX),
                "engines": dict(T.HEURISTIC_ENGINES),
                "damage_control": dict(T.HEURISTIC_DC),
                "fire_control": dict(T.HEURISTIC_FC),
                "aa_barrels_per_box": T.HEURISTIC_AA_BARRELS_PER_BOX,
            },
        }


_MODIFIERS: dict[tuple[int, str], Modifier] = memo.table({})


def _adder(mods: list[Modifier], table: Mapping[str, tuple[int, str]]) -> Callable[[str], None]:
    """Return a function that appends the modifier ``key`` of ``table`` to ``mods``.

    Modifiers are frozen: one instance per table entry serves every roll.
    """

    def add(key: str) -> None:
        v, label = table[key]
        mods.append(_shared_modifier(v, label))

    return add


def _shared_modifier(v: int, label: str) -> Modifier:
    """Return the one Modifier instance of value ``v`` and ``label``."""
    mod = _MODIFIERS.get((v, label))
    if mod is None:
        mod = _MODIFIERS[(v, label)] = Modifier(label=label, value=v)
    return mod


_GUN_MOD: dict[str, Modifier] = {k: _shared_modifier(v, label) for k, (v, label) in T.GUN_MODIFIERS.items()}
"""The gun modifiers of lines 45-73 by key, one shared instance each (as :func:`_adder` appends them)."""

_LARGE_VS_SMALL: Modifier = _GUN_MOD["large_vs_small"]

_GUN_MOD_TEXT: dict[int, str] = {id(m): f", {m.value:+g} {m.label}" for m in _GUN_MOD.values()}
""":func:`_mod_text` of each shared gun modifier, by its ``id`` (they live as long as the module: an ``id``
found here is that very modifier): the fire log writes a few per salvo, and hashing a Modifier costs
a call."""


_OPTION_DEFAULTS: dict[str, JSON] = {}
for _spec in OPTIONS:
    _OPTION_DEFAULTS.setdefault(_spec.name, _spec.default)  # the first spec of a name, as a search finds it

_SIGHTS: dict[tuple[float, float, float, float, float], tuple[float, str, str]] = memo.table({})


def _sight(pos: Point, heading: float, tpos: Point) -> tuple[float, str, str]:
    """Return the range in inches to a target at ``tpos`` from a ship at ``pos`` on ``heading``, the arc it is
    in (forward, aft or broadside: 30 degrees either end, A5) and the side (port or starboard).

    Remembered: a phase looks at each target from the same place for the order checks (guns and torpedoes)
    and again when it fires.
    """
    key = (pos.x, pos.y, heading, tpos.x, tpos.y)
    hit = _SIGHTS.get(key)
    if hit is None:
        # distance(), bearing(), arc_of() and side_of() of rules.geometry, written out: the bearing relative
        # to the bow (relative_bearing) is worked out once for the arc and the side.
        dx, dy = tpos.x - pos.x, tpos.y - pos.y
        # norm_deg() called only for an angle out of [0, 360): it returns any other as it is
        brg = math.degrees(math.atan2(dx, -dy))
        if not 0.0 <= brg < 360.0:
            brg = norm_deg(brg)
        rel = brg - heading
        if -360.0 < rel < 0.0:  # norm_deg(rel), written out: fmod() leaves such an angle as it is
            rel += 360.0
            if rel >= 360.0:
                rel = 0.0
        elif not 0.0 <= rel < 360.0:
            rel = norm_deg(rel)
        if rel > 180.0:
            rel -= 360.0
        off = abs(rel)
        if off <= T.ARC_FORWARD_DEG + 1e-9:
            arc = "forward"
        elif off >= 180.0 - T.ARC_AFT_DEG - 1e-9:
            arc = "aft"
        else:
            arc = "broadside"
        hit = (math.hypot(dx, dy), arc, "port" if rel < 0 else "starboard")
        if len(_SIGHTS) >= 8192:
            _SIGHTS.clear()
        _SIGHTS[key] = hit
    return hit


@cache
def _spotters(option: str) -> frozenset[str]:
    """Return the sides of the ``spotting_aircraft`` option, a comma-separated list."""
    return frozenset(x.strip() for x in option.split(",") if x.strip())


def _hit_text(hit: Mapping[str, JSON], names: Mapping[str, str]) -> str:
    """One hit of a sheet's ``hits`` in words: ``turn 2: 15-inch from Hood, above water, penetrated``."""
    by = hit.get("by")
    calibre = hit.get("calibre")
    location = str(hit.get("location") or "").replace("_", " ")
    words = [
        f"turn {hit.get('turn')}:",
        f"{g_text(calibre)}-inch" if isinstance(calibre, (int, float)) else "a hit",
        f"from {names.get(by, by)}," if isinstance(by, str) and by else "",
        f"{_LOCATION_WORDS.get(location, location)},",
        "penetrated" if hit.get("penetrated") is True else "no damage (W29)",
    ]
    return " ".join(w for w in words if w)


_LOCATION_WORDS = {
    "above": "above water",
    "above armoured": "above water (armoured)",
    "damage control": "damage control",
}
"""How a hit's location reads on the sheet (the record sheet's areas; the others as they are)."""


def die_needed_text(needed: int, total: int) -> str:
    """Return what the D20 itself must show when ``total`` (the modifiers' sum) is added to it to reach
    ``needed`` (W10: the modified roll is compared with the number, no automatic hits or misses), as the fire
    and torpedo logs write it after the modifiers: ``"; a D20 of 12+ hits"``; nothing when there is no
    modifier (the number needed is the die's). A player read "6+ ... D20 7 -> 0 hits" as a misread die: the
    modified number is said (docs/rulings.md NW-WW2-26)."""
    if not total:
        return ""
    die = needed - total
    if die > 20:
        return f"; no D20 can hit (it would need {die})"
    if die <= 1:
        return "; every D20 hits"
    return f"; a D20 of {die}+ hits"


@cache
def _mod_text(m: Modifier) -> str:
    """Return a modifier as the fire log writes it: ``, +1 label``."""
    return f", {m.value:+g} {m.label}"


def _round3(x: float) -> float:
    """Return ``round(x, 3)``; a whole number (a ship's starting place, often) as it is, which round leaves
    unchanged, without the cost of rounding a float."""
    return x if type(x) is int or x.is_integer() else round(x, 3)


def _beyond(target: Live, battery: str, dist: float) -> str:
    return f"{target.ship.name} is beyond the {battery} battery's range ({dist:.1f} in)"


def _json(v: object) -> JSON:
    if isinstance(v, dict):
        return {str(k): _json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


RULESET = WW2Jackson()
