"""``ultra_simple`` (seed ``003_cc4ad023c2c48590.txt``), with rulings U01-U12.

Turn (A1, seed 1.0): initiative toss, high moves first (U09: re-roll ties); ships move in initiative
order; every ship fires, all at once, on positions after movement; damage is recorded at the end, so a
ship sunk this turn still fires (U10).

Movement (2.0, U08): 1 or 2 hexes along the facing, with at most one turn of 30 or 60 degrees at any
point of the move (``turn_after`` hexes moved before it). Facings: the 12 hex-side and hex-corner
facings. Ships may not share a hex: a ship whose next hex is occupied stops (ruling NW-US-01); a ship
that leaves the map withdraws from the battle (NW-US-02).

Shooting (3.0): one D6 per barrel bearing, +/-10% per inch of calibre from 15 inches, rounded halves up
per calibre group (U01, U02); hits on 4+ at 1-2 hexes, 5+ at 3-4, 6 at 5-6, no fire beyond (U03).
Arcs (A5, U07): forward within 30 degrees of the bow, aft within 30 of the stern, else broadside; the
class says how many guns of each calibre bear in each arc.

Damage (4.0): one point per hit; protection = tonnage / 4,000 rounded (minimum 1, U12), plus with the
belt option 1 point per 4 inches of belt (U05 rounding); a ship sinks when damage reaches its
protection (U04; configurable to "exceeds").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import cast

from ...arcs import ArcSpec
from ...base import (
    DefaultPolicy,
    RuleSet,
    SheetKind,
    roll_initiative,
    round_half_up,
    scored_visibility,
    sheet_kind_errors,
    tally_shown,
)
from ...dice import Dice
from ...errors import InvalidDocument
from ...geometry import arc_of, hex_bearing, hex_distance, hex_step, is_facing, norm_deg, on_hex_map
from ...hints import FieldHint
from ...model import (
    JSON,
    BattleState,
    Event,
    FieldErrors,
    FieldSpec,
    Hex,
    Modifier,
    OrderType,
    PhaseResult,
    ShipOrder,
    ShipState,
)
from . import tables as T
from .arcs import ship_arcs
from .hints import ship_hints

GUN_ROW = (
    FieldSpec(name="calibre", label="Calibre", type="float", min=4, max=20, unit="inches"),
    FieldSpec(name="forward", label="Guns bearing forward", type="int", min=0, max=20),
    FieldSpec(name="aft", label="Guns bearing aft", type="int", min=0, max=20),
    FieldSpec(name="broadside", label="Guns on the broadside", type="int", min=1, max=20),
)

CLASS_SCHEMA: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="type",
        label="Type",
        type="choice",
        choices=("battleship", "battlecruiser", "cruiser"),
        default="battleship",
    ),
    FieldSpec(name="tonnage", label="Standard tonnage", type="int", min=500, max=100_000, unit="tons"),
    FieldSpec(
        name="belt",
        label="Maximum belt",
        type="float",
        required=False,
        min=0,
        max=24,
        unit="inches",
        help="Used only with the belt-armour option (7.0).",
    ),
    FieldSpec(
        name="speed",
        label="Speed",
        type="int",
        required=False,
        min=0,
        max=45,
        unit="knots",
        help="For reference; every ship moves 1-2 hexes (2.0).",
    ),
    FieldSpec(
        name="guns",
        label="Main guns by calibre",
        type="rows",
        min=1,
        max=4,
        fields=GUN_ROW,
        help="One row per main calibre (U02); secondary armament is below the grain (note 3).",
    ),
)

ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        key="move",
        label="Movement",
        help="Move 1 or 2 hexes; one turn of 30 or 60 degrees at any point (2.0, U08).",
        fields=(
            FieldSpec(name="hexes", label="Hexes", type="int", min=1, max=2, default=2),
            FieldSpec(
                name="turn",
                label="Turn (degrees, + to starboard)",
                type="int",
                min=-60,
                max=60,
                default=0,
                required=False,
            ),
            FieldSpec(
                name="turn_after", label="Turn after hex", type="int", min=0, max=2, default=0, required=False
            ),
        ),
    ),
    OrderType(
        key="fire",
        label="Gunfire",
        help="One target; every main gun bearing in its arc fires (3.0).",
        fields=(FieldSpec(name="target", label="Target", type="str", required=False, max=64),),
    ),
)

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="belt_armour",
        label="Belt armour adds protection (7.0)",
        type="bool",
        required=False,
        default=False,
    ),
    FieldSpec(
        name="sink_when",
        label="Sinks when damage",
        type="choice",
        choices=("reaches", "exceeds"),
        required=False,
        default="reaches",
        help="U04",
    ),
    FieldSpec(
        name="arc_forward",
        label="Forward arc, degrees either side of the bow",
        type="float",
        required=False,
        min=0,
        max=90,
        default=T.ARC_FORWARD_DEG,
        help="A5, U07",
    ),
    FieldSpec(
        name="arc_aft",
        label="Aft arc, degrees either side of the stern",
        type="float",
        required=False,
        min=0,
        max=90,
        default=T.ARC_AFT_DEG,
        help="A5, U07",
    ),
)


_OPTION_DEFAULTS: dict[str, JSON] = {spec.name: spec.default for spec in OPTIONS}


def gun_dice(guns: int, calibre: float) -> int:
    """Return the D6 rolled for ``guns`` barrels of ``calibre`` inches (3.0; U01 halves up).

    Prince of Wales' 10 x 14-inch -> 9; her forward 6 -> 5; Nelson's 9 x 16-inch -> 10, forward 6 -> 7.
    """
    if guns <= 0:
        return 0
    return max(0, round_half_up(guns * (1.0 + T.PER_INCH * (calibre - T.BASE_CALIBRE_IN))))


def _round_tonnage(x: float) -> int:
    return round_half_up(x)


def protection(tonnage: int, belt: float | None = None, belt_option: bool = False) -> int:
    """Return protection points: tonnage / 4,000 rounded (4.0), minimum 1 (U12).

    With the belt option (7.0), add belt inches / 4 rounded. U05: if both are exact halves, tonnage
    rounds up and belt down (Nelson 34,000 t, 14 in: 9 + 3 = 12); a single half rounds up.
    """
    t = tonnage / T.TONS_PER_POINT
    points = max(1, round_half_up(t))
    if belt_option and belt:
        b = belt / T.BELT_INCHES_PER_POINT
        t_half = abs(t - int(t) - 0.5) < 1e-9
        b_half = abs(b - int(b) - 0.5) < 1e-9
        points += int(b) if (t_half and b_half) else round_half_up(b)
    return points


def to_hit(range_hexes: int) -> int | None:
    """Return the D6 score needed at a range in hexes, or None beyond 6 hexes (3.0, U03)."""
    for max_range, needed in T.RANGE_BANDS:
        if range_hexes <= max_range:
            return needed
    return None


def _guns(ship: ShipState) -> list[dict[str, JSON]]:
    rows = ship.stats.get("guns")
    # the class schema makes every row an object (validate_class)
    return cast(list[dict[str, JSON]], rows) if isinstance(rows, list) else []


def _num(v: JSON, default: float = 0.0) -> float:
    if type(v) is float:
        return v  # float(v) is v
    if type(v) is int:
        return float(v)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


ULTRA_SHEET_KINDS: dict[str, SheetKind] = {"protection": "whole", "damage": "whole"}
"""What each entry of the sheet holds: protection points (section 7.0) and damage points taken."""


class UltraSimple(RuleSet):
    """Ultra Simple Naval Rules for dreadnought battleships on a hex grid (seed 003)."""

    key = "ultra_simple"
    title = "Ultra Simple Naval Rules (hex)"
    version = "1.0"
    source = "seeds/003_cc4ad023c2c48590.txt"
    geometry = "hex12"
    unit = "hexes"
    dice = ("D6",)
    order_types = ORDER_TYPES
    options = OPTIONS
    option_sheet_keys = {"belt_armour": ("protection",)}  # 7.0: setup adds the belt to protection
    default_map = (24, 18)

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return CLASS_SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        errors: FieldErrors = {}
        rows = stats.get("guns")
        if isinstance(rows, list):
            first_row: dict[float, int] = {}  # each calibre's first row, by calibre
            for i, row in enumerate(rows):
                if not isinstance(row, dict):
                    continue
                # U02 rounds the dice per calibre group: one calibre in two rows would be rounded twice
                cal = _num(row.get("calibre"), T.BASE_CALIBRE_IN)
                if cal in first_row:
                    errors.setdefault(f"guns.{i}.calibre", []).append(
                        f"{cal:g}-inch guns are in row {first_row[cal] + 1} already: "
                        "one row per main calibre, its guns added together (U02)."
                    )
                else:
                    first_row[cal] = i
                broadside = _num(row.get("broadside"))
                for arc in ("forward", "aft"):
                    if _num(row.get(arc)) > broadside:
                        errors.setdefault(f"guns.{i}.{arc}", []).append(
                            f"More guns bear {arc} ({int(_num(row.get(arc)))}) than the ship carries "
                            f"({int(broadside)})."
                        )
        return errors

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        dice: dict[str, JSON] = {}
        rows = stats.get("guns")
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, dict):
                cal = _num(row.get("calibre"), T.BASE_CALIBRE_IN)
                dice[f"{cal:g}in"] = {
                    arc: gun_dice(int(_num(row.get(arc))), cal) for arc in ("forward", "aft", "broadside")
                }
        tonnage = int(_num(stats.get("tonnage"), 0))
        belt = _num(stats.get("belt"), 0)
        return {
            "dice": dice,
            "protection": protection(tonnage) if tonnage else 0,
            "protection_with_belt": protection(tonnage, belt, True) if tonnage else 0,
        }

    # --- set-up ------------------------------------------------------------------------------

    def _opt(self, state: BattleState, name: str) -> JSON:
        return state.options.get(name, _OPTION_DEFAULTS[name])

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        belt_option = bool(self._opt(state, "belt_armour"))
        ships = []
        for s in state.ships:
            if not isinstance(s.position, Hex):
                raise InvalidDocument(f"{s.name}: ultra_simple needs hex positions")
            if not is_facing(s.heading, 12):
                raise InvalidDocument(
                    f"{s.name}: heading {s.heading:g} is not a hex facing (multiples of 30 degrees, 2.0)"
                )
            sheet = dict(s.sheet)
            belt = s.stats.get("belt")
            sheet.setdefault(
                "protection",
                protection(
                    int(_num(s.stats.get("tonnage"))), _num(belt) if belt is not None else None, belt_option
                ),
            )
            sheet.setdefault("damage", 0)
            ships.append(s.replace(sheet=sheet, heading=norm_deg(s.heading)))
        return replace(state, ships=tuple(ships)), ()

    # --- orders ------------------------------------------------------------------------------

    def _move(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> tuple[Hex, float, int, list[Hex]]:
        """Return the hex, heading and offset after the ordered move and the hexes passed, ignoring others."""
        assert isinstance(ship.position, Hex)
        hexes = int(_num(data.get("hexes"), 1))
        turn = int(_num(data.get("turn"), 0))
        turn_after = int(_num(data.get("turn_after"), 0))
        pos, heading, offset = ship.position, ship.heading, ship.offset
        path = [pos]
        for i in range(hexes + 1):
            if i == turn_after and turn:
                heading = norm_deg(heading + turn)
                offset = 0 if turn < 0 else 1
            if i < hexes:
                pos, offset = hex_step(pos, heading, offset)
                path.append(pos)
        return pos, heading, offset, path

    def guns_bearing(
        self, state: BattleState, ship: ShipState, pos: Hex, heading: float, target: Hex
    ) -> tuple[str, list[tuple[float, int]]]:
        """Return the arc the target lies in and the (calibre, guns) groups that bear on it (A5)."""
        arc = arc_of(
            heading,
            hex_bearing(pos, target),
            _num(self._opt(state, "arc_forward")),
            _num(self._opt(state, "arc_aft")),
        )
        groups = []
        for row in _guns(ship):
            n = int(_num(row.get(arc)))  # a whole number; the schema also lets 6.0 through
            if n > 0:
                groups.append((_num(row.get("calibre"), T.BASE_CALIBRE_IN), n))
        return arc, groups

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        errors: FieldErrors = {}
        data = order.data
        hexes = int(_num(data.get("hexes"), 1))
        turn = int(_num(data.get("turn"), 0))
        turn_after = int(_num(data.get("turn_after"), 0))
        if turn not in T.TURNS_DEG:
            errors.setdefault("turn", []).append("One turn of 30 or 60 degrees, or none (2.0).")
        if turn and turn_after > hexes:
            errors.setdefault("turn_after", []).append(
                f"The turn must come within the {hexes}-hex move (U08)."
            )
        target_id = data.get("target")
        if not target_id:
            return errors
        try:
            target = state.ship(str(target_id))
        except KeyError:
            target = None
        if target is None:
            errors.setdefault("target", []).append(f"No ship {target_id!r} in this battle.")
            return errors
        if errors:
            # Range and arc are taken from where the move ends, and this move is refused: say only what is
            # wrong with the target whatever the move (NW-CAMP-30), not a range from a move never made.
            why = self._target_status_error(ship, target)
        else:
            pos, heading, _, _ = self._move(state, ship, data)
            why = self._target_error(state, ship, pos, heading, target)
        if why:
            errors.setdefault("target", []).append(why)
        return errors

    @staticmethod
    def _target_status_error(ship: ShipState, target: ShipState) -> str | None:
        """Return why ``ship`` may not fire at ``target`` wherever she moves (its side, its status), or
        None."""
        if target.side == ship.side:
            return f"{target.name} is on your side."
        if not target.active:
            return f"{target.name} is {target.status}."
        return None

    def _target_error(
        self, state: BattleState, ship: ShipState, pos: Hex, heading: float, target: ShipState
    ) -> str | None:
        """Return why ``ship`` at ``pos`` facing ``heading`` may not fire at ``target``, or None if it may."""
        why = self._target_status_error(ship, target)
        if why:
            return why
        assert isinstance(target.position, Hex)
        rng = hex_distance(pos, target.position)
        if to_hit(rng) is None:
            return f"{target.name} is {rng} hexes away after your move: beyond 6 hexes (U03)."
        arc, groups = self.guns_bearing(state, ship, pos, heading, target.position)
        if not groups:
            return f"No guns bear in the {arc} arc on {target.name}."
        return None

    def legal_targets(self, state: BattleState, ship: ShipState, move: Mapping[str, JSON]) -> list[ShipState]:
        """Return the enemy ships this ship could fire at after the ordered move, nearest first."""
        pos, heading, _, _ = self._move(state, ship, move)
        out = [
            t
            for t in state.ships
            if t.side != ship.side and t.active and self._target_error(state, ship, pos, heading, t) is None
        ]
        return sorted(out, key=lambda t: (hex_distance(pos, cast(Hex, t.position)), t.id))

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """Her protection and damage are whole numbers of 0 or more (the engine compares and adds them as
        such; docs/rulings.md NW-US-06); her protection is at least 1 (4.0, U12), and an active ship has
        taken less damage than sinks her (U04, or the campaign's ``sink_when``; docs/rulings.md NW-US-07)."""
        out = sheet_kind_errors(ship.sheet, ULTRA_SHEET_KINDS, ship.id, ())
        prot, damage = ship.sheet.get("protection"), ship.sheet.get("damage")
        if type(prot) is not int or out:
            return out
        if prot < 1:
            out.append(f"protection ({prot}) must be 1 or more: the least a ship has (4.0, U12)")
        elif ship.status == "active" and type(damage) is int:
            exceeds = self._opt(state, "sink_when") == "exceeds"
            if damage > prot or (damage == prot and not exceeds):
                most = prot if exceeds else prot - 1
                out.append(
                    f"damage ({damage}) sinks her, with protection {prot} (U04): an active ship has taken at "
                    f"most {most}; set her status to sunk, or take less damage"
                )
        return out

    def top_speed(self, ship: ShipState) -> float | None:
        """Return 2 (hexes a turn): a ship moves 1 or 2 hexes (003 turn sequence; NW-CAMP-29)."""
        return float(max(T.MOVE_HEXES))

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        # A7: "keep course and speed" - the hexes of the last move (ShipState.speed), 1 or 2 (U08).
        hexes = min(max(T.MOVE_HEXES), max(min(T.MOVE_HEXES), round_half_up(ship.speed)))
        move: dict[str, JSON] = {"hexes": hexes, "turn": 0, "turn_after": 0}
        if policy == "captain":
            move = self._captain_move(state, ship)
        data: dict[str, JSON] = dict(move)
        if policy != "hold":
            targets = self.legal_targets(state, ship, move)
            if targets:
                data["target"] = targets[0].id
        return ShipOrder(ship_id=ship.id, data=data)

    def _captain_move(self, state: BattleState, ship: ShipState) -> dict[str, JSON]:
        """A7's automatic captain: close to 3-4 hexes, then turn to bring the broadside to bear."""
        assert isinstance(ship.position, Hex)
        enemies = [t for t in state.ships if t.side != ship.side and t.active]
        if not enemies:
            return {"hexes": 1, "turn": 0, "turn_after": 0}
        here = ship.position
        nearest = min(enemies, key=lambda t: (hex_distance(here, cast(Hex, t.position)), t.id))
        best: tuple[float, dict[str, JSON]] | None = None
        # hexes closed to the move: ships afloat or sunk (NW-US-01)
        occupied = {cast(Hex, s.position) for s in state.ships if s.id != ship.id and s.status != "withdrawn"}
        for hexes in T.MOVE_HEXES:
            for turn in T.TURNS_DEG:
                move: dict[str, JSON] = {"hexes": hexes, "turn": turn, "turn_after": 0}
                pos, heading, _, path = self._move(state, ship, move)
                if any(p in occupied for p in path[1:]) or not self._on_map(state, pos):
                    continue
                assert isinstance(nearest.position, Hex)
                rng = hex_distance(pos, nearest.position)
                _, groups = self.guns_bearing(state, ship, pos, heading, nearest.position)
                dice = sum(gun_dice(n, c) for c, n in groups)
                score = -abs(rng - 3.5) * 2 + dice * 0.5 + (0 if to_hit(rng) is None else 2)
                if best is None or score > best[0]:
                    best = (score, move)
        return best[1] if best else {"hexes": 1, "turn": 0, "turn_after": 0}

    def _on_map(self, state: BattleState, h: Hex) -> bool:
        return on_hex_map(h, state.map.width, state.map.height)

    # --- resolution --------------------------------------------------------------------------

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        turn = state.turn
        events: list[Event] = []
        start = len(dice.rolls)

        # 1.0 initiative: each side rolls a D6, high moves first; U09 re-roll ties.
        order_of_sides = self._initiative(state, dice, events)

        # 2.0 movement, in initiative order; no two ships share a hex (NW-US-01).
        ships = state.ship_map()
        # hex -> ship in it, afloat or sunk (NW-US-01); kept up to date as ships move
        occupied = {cast(Hex, s.position): s.id for s in state.ships if s.status != "withdrawn"}
        for side in order_of_sides:
            for s in state.ships:
                if s.side != side or not s.active or s.id not in orders:
                    continue
                after = self._move_ship(state, occupied, ships[s.id], orders[s.id], events)
                if occupied.get(cast(Hex, s.position)) == s.id:
                    del occupied[cast(Hex, s.position)]
                if after.status != "withdrawn":
                    occupied[cast(Hex, after.position)] = s.id
                ships[s.id] = after

        # 3.0 shooting, all at once on positions after movement (U10): damage is applied after.
        moved = state.with_ships(ships)
        damage: dict[str, int] = {}
        for s in moved.ships:
            if s.active and s.id in orders:
                self._fire(moved, ships, s, orders[s.id], dice, events, damage)

        # 4.0 damage recorded, sinkings.
        sink_exceeds = self._opt(state, "sink_when") == "exceeds"
        for sid, hits in damage.items():
            t = ships[sid]
            total = int(_num(t.sheet.get("damage"))) + hits
            prot = int(_num(t.sheet.get("protection"), 1))
            sunk = total > prot if sink_exceeds else total >= prot
            ships[sid] = t.replace(
                sheet={**t.sheet, "damage": total},
                status="sunk" if sunk else t.status,
                flags=("sinking",) if sunk else t.flags,
            )
            events.append(
                Event(
                    kind="damage",
                    turn=turn,
                    ship_id=sid,
                    text=f"{t.name} has taken {total} of {prot} points.",
                    data={"damage": total, "protection": prot, "hits": hits},
                    visible_to=(t.side,),
                )
            )
            if sunk:
                events.append(
                    Event(
                        kind="sunk",
                        turn=turn,
                        ship_id=sid,
                        outcome="sunk",
                        text=f"{t.name} sinks: damage {total} of {prot} protection (U04).",
                    )
                )
        new = state.with_ships(ships)
        new = replace(new, initiative=tuple(order_of_sides))
        return PhaseResult(state=new, events=tuple(events), rolls=tuple(dice.rolls[start:]))

    def _initiative(self, state: BattleState, dice: Dice, events: list[Event]) -> list[str]:
        sides = [s for s in state.side_keys() if any(sh.side == s and sh.active for sh in state.ships)]
        return roll_initiative(
            sides, dice, events, state.turn, high_first=True, rule="1.0, U09", names=state.side_names()
        )

    def _move_ship(
        self,
        state: BattleState,
        occupied: Mapping[Hex, str],
        ship: ShipState,
        order: ShipOrder,
        events: list[Event],
    ) -> ShipState:
        """Move one ship as ordered, stopping short of a hex another ship is in (``occupied``, NW-US-01)."""
        assert isinstance(ship.position, Hex)
        data = order.data
        hexes = int(_num(data.get("hexes"), 1))
        turn = int(_num(data.get("turn"), 0))
        turn_after = int(_num(data.get("turn_after"), 0))
        pos, heading, offset = ship.position, ship.heading, ship.offset
        path: list[JSON] = [{"q": pos.q, "r": pos.r}]
        note = ""
        for i in range(hexes + 1):
            if i == turn_after and turn:
                heading = norm_deg(heading + turn)
                offset = 0 if turn < 0 else 1
            if i < hexes:
                nxt, noff = hex_step(pos, heading, offset)
                if occupied.get(nxt, ship.id) != ship.id:
                    note = " (stopped: next hex occupied, NW-US-01)"
                    break
                pos, offset = nxt, noff
                path.append({"q": pos.q, "r": pos.r})
        status = ship.status
        if not self._on_map(state, pos):
            status = "withdrawn"
            note += " and leaves the map: withdrawn (NW-US-02)"
        events.append(
            Event(
                kind="move",
                turn=state.turn,
                ship_id=ship.id,
                text=f"{ship.name} moves {len(path) - 1} hex(es) to ({pos.q},{pos.r}) heading "
                f"{heading:g}{note}.",
                data={"path": path, "heading": heading, "default": order.default},
            )
        )
        # speed: the hexes ordered, which "keep course and speed" repeats (A7)
        return ship.replace(position=pos, heading=heading, offset=offset, status=status, speed=float(hexes))

    def _fire(
        self,
        state: BattleState,
        ships: Mapping[str, ShipState],
        ship: ShipState,
        order: ShipOrder,
        dice: Dice,
        events: list[Event],
        damage: dict[str, int],
    ) -> None:
        target_id = order.data.get("target")
        if not target_id:
            return
        target = ships.get(str(target_id))
        if target is None or not target.active:
            events.append(
                Event(
                    kind="no_shot",
                    turn=state.turn,
                    ship_id=ship.id,
                    target_id=str(target_id),
                    text=f"{ship.name} holds fire: target no longer on the table.",
                    visible_to=(ship.side,),
                )
            )
            return
        assert isinstance(ship.position, Hex) and isinstance(target.position, Hex)
        rng = hex_distance(ship.position, target.position)
        needed = to_hit(rng)
        arc, groups = self.guns_bearing(state, ship, ship.position, ship.heading, target.position)
        if needed is None or not groups:
            why = f"{rng} hexes, beyond 6 (U03)" if needed is None else f"no guns bear in the {arc} arc"
            events.append(
                Event(
                    kind="no_shot",
                    turn=state.turn,
                    ship_id=ship.id,
                    target_id=target.id,
                    text=f"{ship.name} cannot fire at {target.name}: {why}.",
                    visible_to=(ship.side,),
                )
            )
            return
        for calibre, guns in groups:
            n = gun_dice(guns, calibre)
            purpose = f"{ship.name} {calibre:g}in at {target.name}"
            rolls = [dice.roll("D6", purpose) for _ in range(n)]
            hits = sum(1 for r in rolls if r >= needed)
            pct = round((calibre - T.BASE_CALIBRE_IN) * 10)
            mods = (
                Modifier(label=f"{guns} x {calibre:g}in guns, {pct:+d}% dice (3.0, U01)", value=n - guns),
            )
            recorded = tuple(dice.rolls[-n:]) if n else ()
            events.append(
                Event(
                    kind="fire",
                    turn=state.turn,
                    ship_id=ship.id,
                    target_id=target.id,
                    text=(
                        f"{ship.name} fires {guns} x {calibre:g}in ({arc}) at {target.name}, {rng} hexes: "
                        f"{n} D6 needing {needed}+ -> {hits} hit(s)."
                    ),
                    rolls=recorded,
                    modifiers=mods,
                    needed=needed,
                    outcome="hit" if hits else "miss",
                    data={"hits": hits, "dice": n, "range": rng, "arc": arc, "calibre": calibre},
                    # A2, NW-CAMP-15: the firer's side's and the target's; every side's when they are two
                    visible_to=scored_visibility(ship.side, target.side, state.side_keys()),
                )
            )
            if hits:
                damage[target.id] = damage.get(target.id, 0) + hits

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        if not tally_shown(side, state):
            return {}  # NW-CAMP-15: a bare tally mixes the sides' hits; with three sides each reads its log
        # A2: the hits scored on it are what an opponent knows; with one damage track that is "damage".
        return {"damage": ship.sheet.get("damage", 0)}

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        lines: list[str] = []
        if int(_num(order.data.get("turn"), 0)) not in T.TURNS_DEG:
            # Nothing to preview: the order form shows check_order's message for the turn (2.0).
            return lines
        pos, heading, _, _ = self._move(state, ship, order.data)
        lines.append(f"Ends at ({pos.q},{pos.r}) facing {heading:g} degrees.")
        target = state.ship_map().get(str(order.data.get("target") or ""))
        if target is not None and isinstance(target.position, Hex):
            rng = hex_distance(pos, target.position)
            needed = to_hit(rng)
            arc, groups = self.guns_bearing(state, ship, pos, heading, target.position)
            for cal, n in groups:
                lines.append(
                    f"{cal:g}-inch: {n} guns ({arc}) -> {gun_dice(n, cal)} D6, hits on "
                    f"{needed}+ at {rng} hexes"
                    if needed
                    else f"{cal:g}-inch: out of range ({rng} hexes)"
                )
        return lines

    def arcs(self, state: BattleState, ship: ShipState) -> list[ArcSpec]:
        """The arcs the map draws (:func:`.arcs.ship_arcs`, from :meth:`tables`)."""
        return ship_arcs(self.tables(), state, ship)

    def order_hints(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON]
    ) -> dict[str, FieldHint]:
        """The order panel's hints (:func:`.hints.ship_hints`)."""
        return ship_hints(state, ship, data)

    def tables(self) -> dict[str, JSON]:
        return {
            "range_bands": [{"max_hexes": m, "d6_needed": n} for m, n in T.RANGE_BANDS],
            "max_range_hexes": T.MAX_RANGE,
            "calibre_modifier": {
                "base_calibre_in": T.BASE_CALIBRE_IN,
                "per_inch": T.PER_INCH,
                "rounding": "halves up, per calibre group (U01, U02)",
            },
            "protection": {
                "tons_per_point": T.TONS_PER_POINT,
                "belt_inches_per_point": T.BELT_INCHES_PER_POINT,
                "minimum": 1,
                "rounding": "halves up; both halves: tonnage up, belt down (U05)",
            },
            "movement": {"hexes": list(T.MOVE_HEXES), "turns_deg": list(T.TURNS_DEG)},
            "arcs_deg": {"forward": T.ARC_FORWARD_DEG, "aft": T.ARC_AFT_DEG},
        }


RULESET = UltraSimple()
