"""Resolution of one phase of ``sail_1700`` (A1: each side has its own move).

Order inside a side's phase (A1 and the seed): at the first phase of a turn the wind and weather change
(3., 4.; S03, S06) and entangled pairs drift (19.; S34); then for the moving side: colours struck by order
(18.), sinking countdowns (13.; S25), fires fought (14.; S27), movement (6., 7., 9., 10., 21., 22.), gunnery
at what presented itself during the move (11.-13.), shore batteries and mortars (23., 24.), boarding melees
(15.), attempts to separate (19.), and at the end compulsory striking (18.; S31).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from operator import itemgetter

from ... import memo
from ...base import scored_visibility
from ...dice import Dice, DieKind, decimal_as_1_100
from ...geometry import advance, bearing, distance, norm_deg, on_table, relative_bearing
from ...model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    Modifier,
    PhaseResult,
    Point,
    Roll,
    ShipOrder,
    ShipState,
    ShipStatus,
    TerrainFeature,
    new_event,
    ship_after,
)
from . import core as C
from . import ships as S
from . import tables as T

GRID = 100.0


_MODIFIERS: dict[tuple[tuple[str, int, type], ...], tuple[Modifier, ...]] = memo.table({})


def modifiers_of(mods: list[tuple[str, int]]) -> tuple[Modifier, ...]:
    """Return the :class:`Modifier` objects of (label, value) pairs for an event. A Modifier is immutable
    and a phase logs the same few combinations over and over, so each combination is made once and shared
    (keyed by the values' types too: 1 and 1.0 are equal keys but not the same JSON)."""
    key = tuple((label, value, type(value)) for label, value in mods)
    out = _MODIFIERS.get(key)
    if out is None:
        if len(_MODIFIERS) > 4096:
            _MODIFIERS.clear()
        out = _MODIFIERS[key] = tuple(Modifier(label=label, value=value) for label, value in mods)
    return out


_FireKey = tuple[JSON, JSON, str, str | None, bool, str, JSON]
"""The key of :data:`_FIRE_MODS`: the arguments of :func:`fire_modifiers`."""

_FIRE_MODS: dict[_FireKey, tuple[tuple[Modifier, ...], int, str]] = memo.table({})


def fire_modifiers(
    grade: JSON, nation: JSON, band: str, rake: str | None, first: bool, wind: str, service: JSON
) -> tuple[tuple[Modifier, ...], int, str]:
    """Return the firing-factor modifiers of a broadside (:func:`.core.firing_factor_modifiers`; 12., S13,
    S15) as the event logs them (:func:`modifiers_of`), their sum, and the part of the fire event's text
    they and the range band give: ``f" mm ({band}{', ' + rake + ' rake' if rake else ''}): FF {sum:+d} + "``
    (between the range and the first die); worked out once per combination.

    ``grade`` (the sheet's), ``nation`` and ``service`` (the ship's stats) are taken as the ship holds them:
    a str is itself, any other value stands for ``"average"``, ``"Other"``, ``"warship"``
    (:func:`.ships.sval`, :func:`.ships.nation_of`, :func:`.ships.service_of`). So the memo is keyed by them
    as they are (equal values give equal modifiers: no str equals a value of another type), without working
    out the defaults first; an unhashable value (a list or dict in an odd sheet) is worked out without it."""
    key: _FireKey = (grade, nation, band, rake, first, wind, service)
    try:
        out = _FIRE_MODS.get(key)
        hashable = True
    except TypeError:
        out, hashable = None, False
    if out is None:
        mods = C.firing_factor_modifiers(
            grade=grade if isinstance(grade, str) else "average",
            nation=nation if isinstance(nation, str) else "Other",
            range_name=band,
            rake=rake,
            first_time=first,
            wind_force=wind,
            merchant=(service if isinstance(service, str) else "warship") != "warship",
        )
        total = sum(v for _, v in mods)
        text = f" mm ({band}{', ' + rake + ' rake' if rake else ''}): FF {total:+d} + "
        out = (modifiers_of(mods), total, text)
        if hashable:
            if len(_FIRE_MODS) > 4096:
                _FIRE_MODS.clear()
            _FIRE_MODS[key] = out
    return out


_VOLLEYS: dict[tuple[int, int, bool], tuple[int, int, str]] = memo.table({})


def volley_outcome(guns: int, ff: int, double: bool) -> tuple[int, int, str]:
    """Return the points and guns destroyed of a broadside of ``guns`` guns at firing factor ``ff``
    (:func:`.core.chart_result`: 28., S22; double shot doubles them) and the end of its fire event's text,
    after the dice: ``f" = {ff}{ff_note} -> {pts} points, {lost} gun(s) (28.{', S22'}{', doubled'})."``
    (ints; the note of S14 when ``ff`` is off the chart), worked out once per combination: a phase's
    broadsides mostly come from ships of a few gun counts, and two average dice give a few firing factors."""
    key = (guns, ff, double)
    out = _VOLLEYS.get(key)
    if out is None:
        pts, lost = C.chart_result(guns, ff, double)
        if len(_VOLLEYS) > 4096:
            _VOLLEYS.clear()
        note = " (no effect, S14)" if ff <= 0 else " (column 19, S14)" if ff > 19 else ""
        text = (
            f" = {ff}{note} -> {pts} points, {lost} gun(s) "
            f"(28.{', S22' if guns > 30 else ''}{', doubled' if double else ''})."
        )
        out = _VOLLEYS[key] = (pts, lost, text)
    return out


INT_TEXTS = 4096
INT_TEXT = tuple(str(v) for v in range(INT_TEXTS))
"""``str(v)`` of each int ``0 <= v < INT_TEXTS``, made once: the text of an int of a hot event text (guns,
dice, firing factor, points; positions, headings and ranges in whole mm or degrees: a table is some 2400 mm
wide) read from it, not formatted (``f"{v}"`` of an int costs ~4 times the read, ``f"{v:.0f}"`` of a float
~2 times ``INT_TEXT[round(v)]``)."""

_GUNS_LOST: dict[tuple[int, int, str | None], tuple[str, dict[str, JSON]]] = memo.table({})


def guns_lost_text(starboard: int, port: int, rake: str | None) -> tuple[str, dict[str, JSON]]:
    """Return the text of a guns_lost event after the ship's name:
    ``f" loses {starboard} starboard and {port} port guns (13.{', S26' if rake else ''})."``, and its data
    ``{"starboard": starboard, "port": port}``, worked out once per combination (ints, and the rake: a str or
    None). The data is shared by the events of that combination: read only, as every event's data."""
    key = (starboard, port, rake)
    out = _GUNS_LOST.get(key)
    if out is None:
        if len(_GUNS_LOST) > 4096:
            _GUNS_LOST.clear()
        text = f" loses {starboard} starboard and {port} port guns (13.{', S26' if rake else ''})."
        out = _GUNS_LOST[key] = (text, {"starboard": starboard, "port": port})
    return out


DAMAGE_CHART_TEXT = tuple(
    f": damage chart {v:02d}: {T.DAMAGE_RESULT_TEXT[code]}." for v, code in enumerate(C.DAMAGE_BY_ROLL)
)
"""The text of a damage_chart event after the ship's name (and before any note of what the result did or
could not do), for the rolls 00-99 of the D100 (the roll written ``f"{v:02d}"``)."""

DAMAGE_CHART_DATA: tuple[dict[str, JSON], ...] = tuple(
    {"roll": v, "result": code} for v, code in enumerate(C.DAMAGE_BY_ROLL)
)
"""The data of a damage_chart event, for the rolls 00-99 of the D100: each shared by the events of that roll,
read only (as every event's data)."""

_SIDE_ONLY: dict[str, tuple[str]] = memo.table({})
"""``(side,)``, the ``visible_to`` of an event only its own side sees, one tuple per side
(:func:`side_only`)."""


def side_only(side: str) -> tuple[str]:
    """Return ``(side,)``: the same tuple each time for a side (a tuple is immutable; a phase logs hundreds of
    events seen by one side only)."""
    out = _SIDE_ONLY.get(side)
    if out is None:
        if len(_SIDE_ONLY) > 4096:
            _SIDE_ONLY.clear()
        out = _SIDE_ONLY[side] = (side,)
    return out


_RELOADING: dict[int, dict[str, JSON]] = memo.table({})
"""The broadside entry of a sheet fired on a turn (``{"ready_turn": turn + RELOADED, "shot": "round"}``), by
the turn: one dict for every broadside fired that turn. Read only, as every nested value of a sheet (see
:class:`Rec`: a phase puts a new object in a sheet, it never changes one in place)."""

PUMPS_SINK_TEXT = " She will sink in four moves (S25)."
DISMASTED_TEXT = " Speed reduced by 100%: dismasted, she drifts downwind (6., S11)."
"""The notes of a damage_chart event when :func:`pumps_sink` and :func:`speed_reduced` say so."""


def pumps_sink(sh: dict[str, JSON]) -> bool:
    """After a severe underwater or pumps destroyed result: with both, and not yet sinking, the ship will sink
    in four moves (13., S25). Write that in her sheet and return True, else False."""
    if sh.get("severe_underwater") and sh.get("pumps_destroyed") and sh.get("sink_in") is None:
        sh["sink_in"] = T.PUMPS_SINK_MOVES
        sh["sink_reason"] = "severe underwater damage with the pumps destroyed (13., S25)"
        return True
    return False


def speed_reduced(sh: dict[str, JSON]) -> bool:
    """After a mast damage or severe underwater result: write her speed reduction (S11) in the sheet; at 100%
    she is dismasted, if she was not (6., S11): write that and return True, else False."""
    pct = S.reduction_pct_of(sh)
    sh["speed_reduction_pct"] = pct
    if pct >= 100 and not sh.get("dismasted"):
        sh["dismasted"] = True
        sh["jury_mast"] = False
        sh["dismasted_moves"] = 0
        return True
    return False


MOVE_VERB = {"sail": "sails", "row": "is rowed", "tack": "tacks", "drift": "drifts", "still": "stays"}
"""The verb of a move event, by kind of move."""

END_OF_MOVE_KEYS = (
    "no_turn_moves",
    "no_signals_moves",
    "drift_moves",
    "dismasted",
    "anchor_raise_left",
    "make_sail_left",
    "tow_target",
)
"""The sheet keys :meth:`Phase.end_of_move` acts on for a ship of the moving side, each only when set."""

END_OF_MOVE_VALUES = itemgetter(*END_OF_MOVE_KEYS)
"""The values of :data:`END_OF_MOVE_KEYS` in a sheet, as a tuple (of two keys or more), or KeyError when
one is missing."""

END_OF_MOVE_CLEAR: tuple[JSON, ...] = (0, 0, 0, False, 0, 0, None)
""":data:`END_OF_MOVE_VALUES` of a new sheet: every value falsy, as is every JSON value equal to one of them
(as :data:`FLAG_CLEAR`)."""

STEP_KEYS = ("sink_in", "fires", "fires_out_of_control", "abandon_next")
"""The sheet keys the sinking countdown (13.) and the fires (14.) of :meth:`Phase.run` read first."""

STEP_VALUES = itemgetter(*STEP_KEYS)
"""The values of :data:`STEP_KEYS` in a sheet, as a tuple, or KeyError when one is missing."""

STEP_CLEAR: tuple[JSON, ...] = (None, [], 0, False)
""":data:`STEP_VALUES` of a new sheet (``Sail1700.new_sheet``): no countdown (``sink_in`` None, not an
int) and every other value falsy, as is every JSON value equal to one of them."""

ACTION_FIELDS = frozenset(
    ("anchor", "sails", "jury_rig", "tow", "cast_off_tow", "refloat", "cast_log", "load_double")
)
"""The order fields :meth:`Phase.actions` reads: without any of them it does nothing."""


RELOADED = 1 + T.RELOAD_MOVES
"""How many turns after the turn it fired a broadside is loaded again (11.: ready on turn + 1 +
``T.RELOAD_MOVES``)."""

BOTH_SIDES = ("starboard", "port")
"""The broadsides a ship may fire at her first target."""

OTHER_SIDE = {"starboard": ("port",), "port": ("starboard",)}
"""The broadside left for a second target, by the side fired at the first (11.: no split fire)."""


class Rec:
    """A ship being changed in this phase: mutable copies of its position, heading, speed, status and
    sheet.

    The sheet is a shallow copy: its nested values (``guns``, ``broadsides``, ``fires``, ``melee``) are
    shared with the state the phase started from, so the phase never changes one in place: it puts a new
    object in the sheet instead (copy on write).

    Made only by :class:`Phase` (its ``__init__`` fills the slots from each ship of the state, without a class
    call: a Python ``__init__`` called from the class runs in an evaluation loop of its own).
    """

    __slots__ = ("heading", "pos", "sheet", "ship", "speed", "status")

    ship: ShipState
    pos: Point
    heading: float
    speed: float
    status: ShipStatus
    sheet: dict[str, JSON]

    def view(self) -> ShipState:
        """Return the ship as it stands now."""
        return replace(
            self.ship,
            position=self.pos,
            heading=self.heading,
            speed=self.speed,
            status=self.status,
            sheet=self.sheet,
        )


FLAG_KEYS = (
    "fires",
    "fires_out_of_control",
    "dismasted",
    "jury_mast",
    "anchored",
    "aground",
    "abandoned",
    "exploded",
    "wheel_hit",
    "entangled_with",
    "melee",
    "towing",
    "towed_by",
)
"""The sheet keys :func:`flags_of` reads besides ``sink_in``: a flag needs one of them set."""

FLAG_VALUES = itemgetter(*FLAG_KEYS)
"""The values of :data:`FLAG_KEYS` in a sheet, as a tuple (of two keys or more), or KeyError when
one is missing."""

FLAG_CLEAR: tuple[JSON, ...] = ([], 0, *[False] * 7, None, None, None, None)
""":data:`FLAG_VALUES` of a new sheet (``Sail1700.new_sheet``): every value falsy, as is every JSON value
equal to one of them (so a sheet whose values are equal to these sets no flag: one tuple comparison, whose
items are mostly the very objects, instead of ``any()``'s truth test of each)."""


def flags_of(sheet: Mapping[str, JSON], status: str) -> tuple[str, ...]:
    """Return the visible state of a ship (A2) from its sheet."""
    get = sheet.get
    if get("sink_in") is None:
        try:
            values = FLAG_VALUES(sheet)  # (map(get, FLAG_KEYS), in one call for a full sheet)
            flagged = values != FLAG_CLEAR and any(values)
        except KeyError:
            flagged = any(map(get, FLAG_KEYS))
        if not flagged:
            return ()  # most ships: none of the keys below is set
    out = []
    fires, ooc = get("fires"), get("fires_out_of_control")
    if (isinstance(fires, list) and fires) or (ooc and S.inum(ooc) > 0):
        out.append("on_fire")
    for key in ("dismasted", "jury_mast", "anchored", "aground", "abandoned", "exploded", "wheel_hit"):
        if get(key):
            out.append(key)
    if get("entangled_with"):
        out.append("entangled")
    if get("melee"):
        out.append("boarding")
    if get("sink_in") is not None and status == "active":
        out.append("sinking")
    if get("towing"):
        out.append("towing")
    if get("towed_by"):
        out.append("towed")
    if get("dismasted") and not get("jury_mast"):
        out.append("dead_in_water")
    return tuple(out)


class Phase:
    """One phase: ``run()`` returns the PhaseResult."""

    def __init__(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice, side: str) -> None:
        self.state = state
        self.orders = orders
        self.dice = dice
        self.side = side
        self.turn = state.turn
        self.phase = state.phase
        self.events: list[Event] = []
        # each ship's Rec, its slots filled here (Rec has no __init__: the class call only makes the object)
        recs: dict[str, Rec] = {}
        tied: list[Rec] = []
        mine: list[Rec] = []
        for s in state.ships:
            r = Rec()
            r.ship = s
            pos = s.position
            assert isinstance(pos, Point)
            r.pos = pos
            r.heading = s.heading
            r.speed = s.speed
            r.status = s.status
            sheet = s.sheet
            r.sheet = sheet.copy()  # (dict.copy(): cheaper than the dict() call)
            recs[s.id] = r
            if s.side == side:
                mine.append(r)
            if sheet.get("entangled_with") or sheet.get("melee"):
                tied.append(r)
        if len(recs) != len(state.ships):  # an id twice: the dict holds the later ship's Rec, in its order
            mine = [r for r in recs.values() if r.ship.side == side]
            tied = [r for r in recs.values() if r.sheet.get("entangled_with") or r.sheet.get("melee")]
        self.recs = recs
        # the Recs of the moving side's ships, in the battle's order
        self.mine = mine
        # the ships entangled or in a melee when the phase began, in the battle's order: the only ones
        # pair_motion() moves and run() finds in a melee (no step before either sets these keys)
        self.tied = tied
        self._order_index: dict[str, int] | None = None
        self.memo = S.state_memo(state)  # what the checks of the orders worked out from this state
        self.terrain = list(state.terrain)
        self.cond = state.conditions
        self.shoals = S.shoals(state.terrain)
        # fire_at(): the visible_to of fire in good visibility by (firer's side, target's side) (hit_vis())
        self.hit_vis_of: dict[tuple[str, str], tuple[str, ...] | None] = {}
        self.rolls = dice.rolls  # (Dice.rolls: the one list the dice append each roll to; read once here)
        self.start = len(self.rolls)
        self.visible_cache: dict[str, set[str]] = {}
        self._cstate: BattleState | None = None
        self._same_cond: tuple[Conditions, bool] | None = None
        self._weather: tuple[Conditions, str, str] | None = None
        # False until a step of this phase may have written a ship's sheet (pair_motion(), release(),
        # sinking_countdown(), fires(), entangle(), run_aground(), a refloat in move()): until then every
        # sheet equals the one the phase began with, and move() need not compare them key by key.
        # Each step that writes a sheet before or during the moves sets it.
        self.sheets_written = False

    # --- helpers ---------------------------------------------------------------------------------

    def order_index(self) -> dict[str, int]:
        """Return each ship's place in the battle's order, by id (worked out when first asked)."""
        out = self._order_index
        if out is None:
            out = self._order_index = {s.id: i for i, s in enumerate(self.state.ships)}
        return out

    def cur(self) -> BattleState:
        """Return the battle as it stands now (ships, conditions, terrain)."""
        return replace(
            self.state,
            ships=tuple(r.view() for r in self.recs.values()),
            conditions=self.cond,
            terrain=tuple(self.terrain),
        )

    def cstate(self) -> BattleState:
        """Return the battle with the current conditions (ships as at the start; for look-ups of
        conditions). Built once per change of conditions: every shot and move asks for it."""
        hit = self._cstate
        if hit is None or hit.conditions is not self.cond:
            hit = self._cstate = self.state.replace(conditions=self.cond)
        return hit

    def roll(self, die: DieKind, purpose: str) -> tuple[int, Roll]:
        value = self.dice.roll(die, purpose)
        return value, self.rolls[-1]

    def ev(
        self,
        kind: str,
        text: str,
        *,
        ship_id: str | None = None,
        target_id: str | None = None,
        rolls: tuple[Roll, ...] = (),
        modifiers: tuple[Modifier, ...] = (),
        needed: int | None = None,
        outcome: str = "",
        data: dict[str, JSON] | None = None,
        visible_to: tuple[str, ...] | None = None,
    ) -> None:
        """Log an event of this phase (:class:`Event`'s fields, its defaults; named, not ``**kw``: a phase
        logs hundreds; built by :func:`~rules.model.new_event`, without a keyword call)."""
        self.events.append(
            new_event(
                kind,
                text,
                self.turn,
                self.phase,
                ship_id,
                target_id,
                rolls,
                modifiers,
                needed,
                outcome,
                {} if data is None else data,
                visible_to,
            )
        )

    def name(self, sid: str) -> str:
        return self.recs[sid].ship.name

    def afloat(self, r: Rec) -> bool:
        return r.status not in ("sunk", "withdrawn")

    def sides_seeing(self, r: Rec) -> tuple[str, ...] | None:
        """Return the sides that can see a ship now (A2), or None when visibility is unlimited."""
        if self.cond.visibility is None:
            return None
        vis = self.cond.visibility
        out = {r.ship.side}
        for o in self.recs.values():
            if o.ship.side not in out and o.status == "active" and distance(o.pos, r.pos) <= vis:
                out.add(o.ship.side)
        return tuple(sorted(out))

    # --- run --------------------------------------------------------------------------------------

    def run(self) -> PhaseResult:
        if self.phase == 0:
            self.turn_start()
        mine = self.mine
        # each ship's order, read once (self.order(r) for each step below); the loops below pair them by zip()
        # (whose pair tuple is reused while a loop unpacks it: no tuple a ship, as a list of pairs would be)
        orders = self.orders
        datas: list[Mapping[str, JSON]] = []
        # busy: a ship of hers has a sinking countdown or a fire (a value of STEP_KEYS not a new sheet's)
        busy = False
        for r in mine:
            o = orders.get(r.ship.id)
            datas.append(o.data if o is not None else {})
            if not busy:
                try:
                    busy = STEP_VALUES(r.sheet) != STEP_CLEAR
                except KeyError:  # a key missing: the loops below read the sheet key by key
                    busy = True
        # the fields given in any of these orders: a step below acting on a field none gives is skipped
        given: set[str] = set().union(*datas)
        if "strike" in given:
            for r, data in zip(mine, datas, strict=True):
                if r.status == "active" and data.get("strike"):
                    self.strike(r, "strikes her colours by order (18.)")
        # not busy: no ship of hers has a value the two loops below act on (no step before them sets one),
        # so neither does anything (most phases)
        if busy:
            for r in mine:
                if isinstance(r.sheet.get("sink_in"), int):  # else sinking_countdown() does nothing
                    self.sinking_countdown(r)
            for r in mine:
                if not (
                    r.sheet.get("fires") or r.sheet.get("fires_out_of_control") or r.sheet.get("abandon_next")
                ):
                    continue  # fires() has nothing to do
                if r.status == "active" or (r.sheet.get("abandoned") and r.status == "struck"):
                    self.fires(r)
        # the grid of the ships afloat now, for the contacts of a move: built when a ship first moves
        # (near()); most phases of a close action have none who does (build_grid())
        self.grid: dict[tuple[int, int], set[str]] | None = None
        self.left_before_grid: list[str] = []
        self.tracks: dict[str, list[tuple[Point, float]]] = {}
        self.end_xy: dict[str, tuple[Point, JSON]] = {}  # (move(): each ship's end point and its event dict)
        # the plans the checks of the orders made (StateMemo.plans), for move(); None when the conditions are
        # no longer those of the start (they change only in turn_start(), before the moves)
        self.checked_plans = self.memo.plans if self.same_conditions() else None
        self.table = (self.state.map.width, self.state.map.height)  # (for move(): on_table()'s arguments)
        in_melee = {r.ship.id for r in self.tied if r.sheet.get("melee")}  # (the others have no melee)
        for r, data in zip(mine, datas, strict=True):
            if r.status == "active":
                self.move(r, data)
            elif r.status == "struck" and r.sheet.get("abandoned"):
                self.drift_hulk(r)
        if not ACTION_FIELDS.isdisjoint(given):
            for r, data in zip(mine, datas, strict=True):
                # actions() acts only on these order fields: most orders have none
                if r.status == "active" and not ACTION_FIELDS.isdisjoint(data):
                    self.actions(r)
        # a vessel works with a battery her party raised (works-<her id>) or lands a party now
        sites = any(t.kind == "battery" for t in self.terrain)
        if sites or "land_party" in given:
            for r, data in zip(mine, datas, strict=True):
                land = data.get("land_party")  # S.inum() of None, 0 or False is 0: no call for them
                if r.status == "active" and (sites or (land and S.inum(land) > 0)):
                    self.shore_works(r)
        for r, data in zip(mine, datas, strict=True):
            if r.status == "active" and r.ship.id not in in_melee:
                self.gunnery(r, data)
        self.batteries()
        if "mortar_target" in given:
            for r, data in zip(mine, datas, strict=True):
                # 15.: "firing does not take place in continued melees" (the mortar's as the guns')
                if r.status == "active" and data.get("mortar_target") and r.ship.id not in in_melee:
                    self.mortar(r)
        self.melees("board" in given, bool(in_melee))
        if "cast_off" in given:
            for r, data in zip(mine, datas, strict=True):
                if r.status == "active" and data.get("cast_off"):
                    self.cast_off(r)
        self.end_of_move(mine)
        recs = self.recs
        ships: list[ShipState] = []
        append = ships.append
        for s in self.state.ships:
            r = recs[s.id]
            sheet = r.sheet
            h = r.heading
            if type(h) is not float or not 0.0 <= h < 360.0:
                h = norm_deg(h)  # (the call only where it changes something)
            # the ship after the phase (its flags from its sheet, A2); flags_of()'s first test written out: no
            # flag when her flag keys hold the values of a new sheet (most ships), without the call
            status = r.status
            try:
                clean = sheet.get("sink_in") is None and FLAG_VALUES(sheet) == FLAG_CLEAR
            except KeyError:  # a key missing: flags_of() reads the sheet key by key
                clean = False
            append(ship_after(s, r.pos, h, r.speed, status, () if clean else flags_of(sheet, status), sheet))
        new = self.state.replace(ships=tuple(ships), conditions=self.cond, terrain=tuple(self.terrain))
        return PhaseResult(state=new, events=tuple(self.events), rolls=tuple(self.rolls[self.start :]))

    def order(self, r: Rec) -> Mapping[str, JSON]:
        o = self.orders.get(r.ship.id)
        return o.data if o is not None else {}

    # --- 3., 4. wind and weather; 19. entangled pairs ------------------------------------------------

    def turn_start(self) -> None:
        extra = dict(self.cond.extra)
        cond = self.cond
        every = T.WIND_CHANGE_EVERY_MOVES
        if self.turn > 1 and (self.turn - 1) % every == 0:
            d, r1 = self.roll("D100", "wind direction (3., S01-S03)")
            name, deg = C.wind_from_roll(d)
            rule = S.sval(self.state.options.get("wind_change"), "reroll")
            s, r2 = self.roll("AVG", "wind veers or backs (3., S03)")
            sense = T.WIND_SENSE[s]
            if rule == "shift":
                cur = cond.wind_from or 0.0
                deg = norm_deg(cur + (45.0 if sense == "veer" else -45.0))
                name = f"{deg:g} degrees"
            extra["wind_target"] = deg
            extra["wind_sense"] = sense
            self.ev(
                "wind",
                f"Wind change roll (turn {self.turn}): the wind will {sense} to {name} ({deg:g}), one "
                "point a move (3., S03).",
                rolls=(r1, r2),
                outcome=sense,
                data={"target": deg, "sense": sense},
            )
            w, r3 = self.roll("D100", "weather (4., S02, S04)")
            n = decimal_as_1_100(w)
            extra["weather_target"] = n
            wc, wf, wv = C.weather_from_number(n)
            self.ev(
                "weather",
                f"Weather change roll {n}: {wc}, {C.wind_force_text(wf)}, visibility "
                f"{'unlimited' if wv is None else str(wv) + ' mm'}; the weather moves 10 points a move "
                "toward it (4., S06).",
                rolls=(r3,),
                outcome=wc,
                data={"target": n},
            )
        elif self.turn > 1:
            tgt = extra.get("wind_target")
            if (
                isinstance(tgt, (int, float))
                and cond.wind_from is not None
                and abs(cond.wind_from - tgt) > 1e-9
            ):
                new = C.wind_step(cond.wind_from, float(tgt), S.sval(extra.get("wind_sense"), "veer"))
                cond = replace(cond, wind_from=new)
                self.ev("wind", f"The wind shifts to {new:g} degrees (3., S03).", data={"wind_from": new})
            wt = extra.get("weather_target")
            wn = extra.get("weather_number")
            if isinstance(wt, int) and isinstance(wn, int) and wt != wn:
                n2 = C.weather_step(wn, wt)
                extra["weather_number"] = n2
                wc, wf, wv = C.weather_from_number(n2)
                extra["weather_visibility"] = wv  # the weather's own, before halving at night (4.)
                cond = replace(cond, weather=wc, wind_force=wf, visibility=C.visibility_mm(wv, cond.night))
                self.ev(
                    "weather",
                    f"Weather number {n2}: {wc}, {C.wind_force_text(wf)} (4., S06).",
                    data={"number": n2},
                )
        self.cond = replace(cond, extra=extra)
        self.pair_motion()

    def pair_motion(self) -> None:
        done: set[str] = set()
        st = self.cstate()
        for r in self.tied:  # (the others have no entangled_with)
            sid = r.ship.id
            other_id = r.sheet.get("entangled_with")
            if not other_id or not isinstance(other_id, str) or sid in done or other_id not in self.recs:
                continue
            o = self.recs[other_id]
            done.update((sid, other_id))
            self.sheets_written = True
            if not (self.afloat(r) and self.afloat(o)):
                continue
            if any(x.sheet.get("anchored") or x.sheet.get("aground") for x in (r, o)):
                continue
            d = S.inum(r.sheet.get("entangle_distance"))
            heading = S.num(r.sheet.get("entangle_heading"), r.heading)
            text = ""
            if d > 0:
                nxt = d // 2  # S34: halved each move, whole millimetres
                text = f"move {d} mm together on {heading:.0f} degrees (19.)"
            elif not r.sheet.get("entangle_still"):
                for x in (r, o):
                    x.sheet["entangle_still"] = True
                text = "lie stationary for one move (19., S34)"
                nxt = 0
            else:
                heading = norm_deg(S.wind_from(st) + 180.0)
                d = int(min(S.drift_distance(st, r.view()), S.drift_distance(st, o.view())))
                text = f"drift {d} mm downwind (19.)"
                nxt = 0
            ground = None
            if d > 0:
                for x in (r, o):
                    end = advance(x.pos, heading, d)
                    if S.depth_at(st, end, self.shoals) <= C.grounding_depth(
                        S.rate_of(x.ship), self.total_guns(x)
                    ):
                        ground = x
                if ground is None:
                    for x in (r, o):
                        x.pos = advance(x.pos, heading, d)
                        x.speed = float(d)
            for x in (r, o):
                x.sheet["entangle_distance"] = nxt
            self.ev(
                "entangled_move",
                f"{r.ship.name} and {o.ship.name}, entangled, {text}.",
                ship_id=sid,
                target_id=other_id,
                data={"distance": d, "heading": heading},
            )
            if ground is not None:
                self.run_aground(ground, ground.pos)

    def total_guns(self, r: Rec) -> int:
        g = S.dval(r.sheet.get("guns"))
        return S.inum(g.get("starboard")) + S.inum(g.get("port"))

    # --- 18. striking; 17. sinking ----------------------------------------------------------------

    def fate_sides(self, r: Rec, by_side: str | None = None) -> tuple[str, ...] | None:
        """Return the ``visible_to`` of a ship's striking, sinking or leaving (NW-CAMP-12, as NW-WW2-23): the
        sides that see her then (A2), and ``by_side``, whose fire did it; None when visibility is unlimited
        (rare events: the work only for them)."""
        seeing = self.sides_seeing(r)
        if seeing is None or by_side is None or by_side in seeing:
            return seeing
        return tuple(sorted((*seeing, by_side)))

    def strike(self, r: Rec, why: str) -> None:
        r.status = "struck"
        self.release(r)
        self.ev(
            "struck",
            f"{r.ship.name} {why}.",
            ship_id=r.ship.id,
            outcome="struck",
            visible_to=self.fate_sides(r),
        )

    def sink(self, r: Rec, why: str, by_side: str | None = None) -> None:
        if r.status == "sunk":
            return
        r.status = "sunk"
        self.release(r)
        r.speed = 0.0
        vis = self.fate_sides(r, by_side)
        self.ev("sunk", f"{r.ship.name} sinks: {why}.", ship_id=r.ship.id, outcome="sunk", visible_to=vis)

    def release(self, r: Rec) -> None:
        """Free a ship leaving the battle from entanglement, melee and tow."""
        self.sheets_written = True
        for key in ("entangled_with", "towing", "towed_by"):
            oid = S.sval(r.sheet.get(key))
            if oid and oid in self.recs:
                o = self.recs[oid]
                for k2 in ("entangled_with", "towing", "towed_by", "tow_target"):
                    if o.sheet.get(k2) == r.ship.id:
                        o.sheet[k2] = None
                if key == "entangled_with":
                    o.sheet["melee"] = None
            r.sheet[key] = None
        r.sheet["melee"] = None

    def sinking_countdown(self, r: Rec) -> None:
        left = r.sheet.get("sink_in")
        if not isinstance(left, int) or not self.afloat(r):
            return
        left -= 1
        self.sheets_written = True
        r.sheet["sink_in"] = left
        if left <= 0:
            self.sink(r, S.sval(r.sheet.get("sink_reason"), "the damage below the waterline"))
        else:
            self.ev(
                "sinking",
                f"{r.ship.name} is sinking: {left} move(s) left (13., S25).",
                ship_id=r.ship.id,
                visible_to=(r.ship.side,),
                data={"moves_left": left},
            )

    def damage(self, r: Rec, pts: int, by_side: str | None, why: str) -> None:
        """Take ``pts`` crew/damage points off a ship; at zero it sinks (17.)."""
        if pts <= 0 or r.status in ("sunk", "withdrawn"):  # nothing, or not afloat
            return
        sh = r.sheet
        have = sh.get("points")
        left = (have if type(have) is int else S.inum(have)) - pts  # S.inum(), the call only when needed
        sh["points"] = left
        if by_side and by_side != r.ship.side:
            scored = sh.get("damage_scored")
            sh["damage_scored"] = (scored if type(scored) is int else S.inum(scored)) + pts
        if left <= 0:
            r.sheet["points"] = 0
            self.sink(r, f"all her crew/damage points are gone ({why}; 17.)", by_side)

    # --- 14. fires --------------------------------------------------------------------------------

    def fires(self, r: Rec) -> None:
        self.sheets_written = True
        sh = r.sheet
        sid = r.ship.id
        ooc = S.inum(sh.get("fires_out_of_control"))
        if sh.get("abandon_next") and not sh.get("abandoned") and self.afloat(r):
            sh["abandon_next"] = False
            sh["abandoned"] = True
            r.status = "struck"
            self.release(r)
            self.ev(
                "abandoned",
                f"{r.ship.name}: the fire is out of control; the crew abandon ship, which drifts "
                "downwind as if dismasted (14.).",
                ship_id=sid,
                outcome="abandoned",
            )
        for _ in range(ooc):
            if not self.afloat(r):
                return
            self.damage(r, T.FIRE_OUT_OF_CONTROL_DAMAGE, None, "fire out of control")
            self.ev(
                "fire_damage",
                f"{r.ship.name}: fire out of control, {T.FIRE_OUT_OF_CONTROL_DAMAGE} damage points (14.).",
                ship_id=sid,
                visible_to=(r.ship.side,),
                data={"points": T.FIRE_OUT_OF_CONTROL_DAMAGE},
            )
            if self.afloat(r) and self.explosion_check(r, "fire out of control"):
                return
        fires = sh.get("fires")
        if not isinstance(fires, list) or not fires or not self.afloat(r) or sh.get("abandoned"):
            return
        fight = self.order(r).get("fight_fires", True) is not False
        third_exact = bool(self.state.options.get("fire_third_exact"))
        kept: list[JSON] = []
        for i, f in enumerate(fires):
            attempt = S.inum(f) + 1
            if fight:
                needed, exact = C.fire_needed(attempt, third_exact)
                v, roll = self.roll("AVG", f"{r.ship.name} fights fire {i + 1}, attempt {attempt} (14., S27)")
                ok = v == needed if exact else v >= needed
                self.ev(
                    "fire_fight",
                    f"{r.ship.name} fights fire {i + 1} (attempt {attempt}): average die {v}, "
                    f"needs {'exactly ' if exact else ''}{needed}{'' if exact else '+'}: "
                    f"{'out' if ok else 'still burning'} (14., S27).",
                    ship_id=sid,
                    rolls=(roll,),
                    needed=needed,
                    outcome="out" if ok else "burning",
                    visible_to=(r.ship.side,),
                )
                if ok:
                    continue
            else:
                self.ev(
                    "fire_fight",
                    f"{r.ship.name} does not fight fire {i + 1}: counts as a failed attempt (NW-SAIL-13).",
                    ship_id=sid,
                    outcome="burning",
                    visible_to=(r.ship.side,),
                )
            if self.explosion_check(r, "a failed attempt to put out a fire"):
                return
            if attempt >= len(T.FIRE_ATTEMPT_NEEDED):
                sh["fires_out_of_control"] = S.inum(sh.get("fires_out_of_control")) + 1
                sh["abandon_next"] = True
                self.ev(
                    "fire_out_of_control",
                    f"{r.ship.name}: fire {i + 1} is out of control; the crew must "
                    "abandon ship next move (14.).",
                    ship_id=sid,
                    outcome="out_of_control",
                )
            else:
                kept.append(attempt)
        sh["fires"] = kept

    def explosion_check(self, r: Rec, why: str) -> bool:
        a, r1 = self.roll("AVG", f"{r.ship.name} explosion check (14.)")
        b, r2 = self.roll("AVG", f"{r.ship.name} explosion check (14.)")
        boom = a + b == T.FIRE_EXPLOSION_SCORE
        self.ev(
            "explosion_check",
            f"{r.ship.name}: explosion check after {why}: {a}+{b} = {a + b}"
            f"{', the vessel explodes!' if boom else ' (10 explodes)'} (14.).",
            ship_id=r.ship.id,
            rolls=(r1, r2),
            needed=T.FIRE_EXPLOSION_SCORE,
            outcome="explodes" if boom else "safe",
            visible_to=None if boom else (r.ship.side,),
        )
        if boom:
            self.explode(r, "fire")
        return boom

    def explode(self, r: Rec, why: str) -> None:
        """The vessel explodes and sinks (13., 14.); every vessel within 75 mm gets D6 fires (14.; S28)."""
        r.sheet["exploded"] = True
        self.sink(r, f"she explodes ({why})")
        for o in self.recs.values():
            if o is r or not self.afloat(o) or distance(o.pos, r.pos) > T.EXPLOSION_RADIUS_MM:
                continue
            n, roll = self.roll(
                "D6", f"fires on {o.ship.name} from the explosion of {r.ship.name} (14., S28)"
            )
            fl = o.sheet.get("fires")
            o.sheet["fires"] = (list(fl) if isinstance(fl, list) else []) + [0] * n
            self.ev(
                "fire_started",
                f"The explosion of {r.ship.name} starts {n} fire(s) on {o.ship.name} "
                f"({distance(o.pos, r.pos):.0f} mm away; 14., S28).",
                ship_id=o.ship.id,
                target_id=r.ship.id,
                rolls=(roll,),
                outcome=str(n),
                data={"fires": n},
            )

    # --- movement -----------------------------------------------------------------------------------

    def build_grid(self) -> dict[tuple[int, int], set[str]]:
        """Return the grid of the ships afloat when the moves began, at their positions now: the ships
        afloat now and those that left the battle since (``left_before_grid``, as :meth:`move` and
        :meth:`drift_hulk` note them; they stay in the grid, as they would had it been built before the moves,
        and :meth:`grid_move` keeps it up to date from then on)."""
        grid: dict[tuple[int, int], set[str]] = {}
        left = self.left_before_grid
        for sid, r in self.recs.items():
            if self.afloat(r) or sid in left:
                grid.setdefault((int(r.pos.x // GRID), int(r.pos.y // GRID)), set()).add(sid)
        return grid

    def grid_move(self, sid: str, old: Point, new: Point) -> None:
        if self.grid is None:
            return  # build_grid() will place her where she is
        a = (int(old.x // GRID), int(old.y // GRID))
        b = (int(new.x // GRID), int(new.y // GRID))
        if a != b:
            self.grid.get(a, set()).discard(sid)
            self.grid.setdefault(b, set()).add(sid)

    def near(self, samples: list[tuple[Point, float]], pad: float) -> list[str]:
        xs = [p.x for p, _ in samples]
        ys = [p.y for p, _ in samples]
        x0, x1 = int((min(xs) - pad) // GRID), int((max(xs) + pad) // GRID)
        y0, y1 = int((min(ys) - pad) // GRID), int((max(ys) + pad) // GRID)
        out: list[str] = []
        grid = self.grid
        if grid is None:
            grid = self.grid = self.build_grid()
        for gx in range(x0, x1 + 1):
            for gy in range(y0, y1 + 1):
                out.extend(grid.get((gx, gy), ()))
        return out

    def same_conditions(self) -> bool:
        """Return True while the conditions are those the phase began with (the wind may change at the start
        of a turn, 3., 4.)."""
        if self._same_cond is None or self._same_cond[0] is not self.cond:
            self._same_cond = (self.cond, self.cond == self.state.conditions)
        return self._same_cond[1]

    def move(self, r: Rec, data: Mapping[str, JSON]) -> None:
        """Move ``r`` as her order ``data`` says (6., 7., 9., 10., 21., 22.; NW-SAIL-4, -12, -14)."""
        s = r.ship
        sid = s.id
        # the plan made when the order was checked, unless the ship or the conditions (same_conditions(),
        # read once in run(): checked_plans) have changed since; StateMemo.planned()'s look-up written out,
        # without its call (planned() itself for a plan not made yet)
        plans = self.checked_plans
        if (
            plans is not None
            and r.pos is s.position
            and r.heading == s.heading
            and r.speed == s.speed
            and r.status == s.status
            and (not self.sheets_written or r.sheet == s.sheet)
        ):
            hit = plans.get(sid)
            plan = (
                hit[2] if hit is not None and hit[0] is s and hit[1] == data else self.memo.planned(s, data)
            )
        else:
            plan = S.plan_move(self.cstate(), r.view(), data)
        if plan.error:
            st = self.cstate()
            # orders were validated against the state at the start of the phase; a fire or a hit since may
            # make them impossible: the ship then keeps her course and makes what she can (NW-SAIL-14).
            plan = S.plan_move(st, r.view(), {"speed": None})
            if plan.error:
                plan = S.plan_move(st, r.view(), {"speed": 0.0})
        if r.sheet.get("refloat_next"):
            self.sheets_written = True
            r.sheet["refloat_next"] = False
        samples = plan.samples
        stop_at: int | None = None
        contact: str | None = None
        ground_at: Point | None = None
        if plan.distance > 0 and len(samples) > 1:
            st = self.cstate()
            gdepth = C.grounding_depth(S.rate_of(r.ship), self.total_guns(r))
            towed = S.sval(r.sheet.get("towing"))
            cands = [c for c in self.near(samples, T.CONTACT_MM) if c != sid and c != towed]
            # battle order, not the grid's set order (which varies with the process's string hashing, A8)
            cands = sorted(
                (c for c in cands if distance(self.recs[c].pos, r.pos) >= T.CONTACT_MM),
                key=self.order_index().__getitem__,
            )
            for i in range(1, len(samples)):
                p = samples[i][0]
                if self.shoals and S.depth_at(st, p, self.shoals) <= gdepth:
                    stop_at, ground_at = i, p
                    break
                touching = [c for c in cands if distance(self.recs[c].pos, p) < T.CONTACT_MM]
                if touching:
                    # NW-SAIL-4: two hulls touched at one point of the track: she runs into the nearer
                    stop_at, contact = i, min(touching, key=lambda c: distance(self.recs[c].pos, p))
                    break
            if stop_at is not None:
                prev_p, _prev_h = samples[stop_at - 1]
                p, h = samples[stop_at]
                if contact is not None:
                    # back off to just outside contact
                    cp = self.recs[contact].pos
                    lo, hi = 0.0, 1.0
                    for _ in range(12):
                        mid = (lo + hi) / 2
                        q = Point(x=prev_p.x + (p.x - prev_p.x) * mid, y=prev_p.y + (p.y - prev_p.y) * mid)
                        if distance(q, cp) < T.CONTACT_MM:
                            hi = mid
                        else:
                            lo = mid
                    p = Point(x=prev_p.x + (p.x - prev_p.x) * lo, y=prev_p.y + (p.y - prev_p.y) * lo)
                samples = [*samples[:stop_at], (p, h)]
        if stop_at is None:
            end, end_h = plan.end, plan.end_heading
            moved = plan.distance
        else:
            end, end_h = samples[-1]
            moved = sum(distance(samples[i - 1][0], samples[i][0]) for i in range(1, len(samples)))
        kind = plan.kind
        if kind == "tack":
            moved = 0.0  # a tack is a full move; forward movement begins next move (7.)
        old = r.pos
        r.pos, r.heading = end, end_h
        # round(v, n) is v for a float of an integral value (-0.0 included; an int stays an int): round() and
        # its decimal conversion only for a fraction (x % 1), here and below; no way for a drift
        fm = moved % 1
        r.speed = 0.0 if kind == "still" or kind == "drift" else round(moved, 3) if fm else moved
        if end is not old and (end.x != old.x or end.y != old.y):  # the same point: the same grid cell
            self.grid_move(sid, old, end)
        self.tracks[sid] = samples
        if kind != "still" or plan.notes:
            what = MOVE_VERB[kind]
            x, y = end.x, end.y
            xe = round(x, 1) if x % 1 else x
            ye = round(y, 1) if y % 1 else y
            path: list[JSON]
            # her end point's dict: one object wherever the data of this phase's events gives that point
            # (here, and in fire_at() as where she fired from): an event's data is read only
            end_xy: JSON = {"x": xe, "y": ye}
            self.end_xy[sid] = (end, end_xy)
            if len(samples) == 1 and samples[0][0] is end:
                # a track of her end point alone (she stays on her point): the path is that point twice
                path = [end_xy, end_xy]
            else:
                path = []
                for p, _ in samples[:: len(samples) // 12 or 1]:  # max(1, ...), without the builtin's call
                    px, py = p.x, p.y
                    path.append({"x": round(px, 1) if px % 1 else px, "y": round(py, 1) if py % 1 else py})
                path.append(end_xy)
            notes = plan.notes
            # f"{r.ship.name} {what} {moved:.0f} mm to ({x:.0f}, {y:.0f}), heading {end_h:.0f}{notes}." with
            # each f"{v:.0f}" as INT_TEXT[round(v)] for a value the table holds (round() rounds half to even,
            # as the format does; but for the distance, 0.0 and -0.0, "0" and "-0", left to the format), as in
            # fire_at()
            if 0.0 < moved < INT_TEXTS - 0.5:
                moved_text = INT_TEXT[round(moved)]
            elif moved == 0.0 and math.copysign(1.0, moved) > 0.0:  # 0.0 (-0.0 is "-0"): a ship holding still
                moved_text = "0"
            else:
                moved_text = f"{moved:.0f}"
            text = (
                f"{r.ship.name} {what} {moved_text} mm to ("
                f"{INT_TEXT[round(x)] if 0.0 < x < INT_TEXTS - 0.5 else f'{x:.0f}'}, "
                f"{INT_TEXT[round(y)] if 0.0 < y < INT_TEXTS - 0.5 else f'{y:.0f}'}), heading "
                f"{INT_TEXT[round(end_h)] if 0.0 < end_h < INT_TEXTS - 0.5 else f'{end_h:.0f}'}"
                f"{'; ' + '; '.join(notes) if notes else ''}."
            )
            self.events.append(
                new_event(
                    "move",
                    text,
                    self.turn,
                    self.phase,
                    sid,
                    None,
                    (),
                    (),
                    None,
                    "",
                    {
                        "path": path,
                        "heading": end_h,
                        "distance": round(moved, 1) if fm else moved,
                        "kind": kind,
                    },
                    None if self.cond.visibility is None else self.sides_seeing(r),
                )
            )
        if contact is not None:
            self.entangle(r, self.recs[contact], plan.distance, plan.end_heading)
        if ground_at is not None:
            self.run_aground(r, ground_at)
        towed_id = r.sheet.get("towing")
        if towed_id and isinstance(towed_id, str) and towed_id in self.recs and not r.sheet.get("tow_target"):
            t = self.recs[towed_id]
            newp = advance(r.pos, r.heading + 180.0, T.TOW_LINE_MM)
            self.grid_move(towed_id, t.pos, newp)
            t.pos, t.heading, t.speed = newp, r.heading, r.speed
        pos = r.pos
        width, height = self.table
        if not (0 <= pos.x <= width and 0 <= pos.y <= height):  # on_table(), without its call
            if self.grid is None:
                self.left_before_grid.append(sid)
            r.status = "withdrawn"
            self.release(r)
            self.ev(
                "withdrawn",
                f"{r.ship.name} sails off the table and leaves the battle (NW-SAIL-12).",
                ship_id=sid,
                outcome="withdrawn",
                visible_to=self.fate_sides(r),
            )

    def drift_hulk(self, r: Rec) -> None:
        if r.sheet.get("anchored") or r.sheet.get("aground"):
            return
        st = self.cstate()
        d = S.drift_distance(st, r.view())
        if d <= 0:
            return
        old = r.pos
        r.pos = advance(r.pos, norm_deg(S.wind_from(st) + 180.0), d)
        self.grid_move(r.ship.id, old, r.pos)
        self.ev(
            "move",
            f"The abandoned {r.ship.name} drifts {d:.0f} mm downwind (14.).",
            ship_id=r.ship.id,
            data={"distance": round(d, 1), "kind": "drift"},
        )
        m = state_map(self.state)
        if not on_table(r.pos, m[0], m[1]):
            if self.grid is None:
                self.left_before_grid.append(r.ship.id)
            r.status = "withdrawn" if r.status == "active" else r.status

    def entangle(self, a: Rec, b: Rec, a_speed: float, a_heading: float) -> None:
        """``a`` has come into contact with ``b``: they become entangled (19.; NW-SAIL-4)."""
        if (
            b.sheet.get("entangled_with")
            or a.sheet.get("entangled_with")
            or b.status not in ("active", "struck")
        ):
            self.ev(
                "contact",
                f"{a.ship.name} comes up against {b.ship.name} and stops (NW-SAIL-4).",
                ship_id=a.ship.id,
                target_id=b.ship.id,
            )
            return
        h, d = C.entangled_motion(a_heading, a_speed, b.heading, b.speed)
        self.sheets_written = True
        for x, y in ((a, b), (b, a)):
            x.sheet["entangled_with"] = y.ship.id
            x.sheet["entangle_heading"] = round(h, 3)
            x.sheet["entangle_distance"] = d
            x.sheet["entangle_still"] = False
        self.ev(
            "entangled",
            f"{a.ship.name} and {b.ship.name} come into contact and become entangled; together "
            f"they will move {d} mm on {h:.0f} degrees, halving each move (19., S34).",
            ship_id=a.ship.id,
            target_id=b.ship.id,
            data={"heading": h, "distance": d},
        )

    def run_aground(self, r: Rec, at: Point) -> None:
        st = self.cstate()
        dmg = C.grounding_damage(S.points_start(r.ship))
        depth = S.depth_at(st, at, self.shoals)
        self.sheets_written = True
        r.sheet["aground"] = True
        r.speed = 0.0
        self.ev(
            "aground",
            f"{r.ship.name} runs aground in {depth:g} fathoms (grounds at "
            f"{C.grounding_depth(S.rate_of(r.ship), self.total_guns(r))} or less) and loses {dmg} points "
            "(21., S36, S37).",
            ship_id=r.ship.id,
            outcome="aground",
            data={"depth": depth, "damage": dmg},
        )
        self.damage(r, dmg, None, "running aground")

    # --- orders other than moving -----------------------------------------------------------------

    def actions(self, r: Rec) -> None:
        data = self.order(r)
        sh = r.sheet
        sid = r.ship.id
        st = self.cstate()
        anchor = S.sval(data.get("anchor"), "none")
        if anchor == "drop" and not sh.get("anchored"):
            depth = S.depth_at(st, r.pos, self.shoals)
            if depth < T.ANCHOR_MAX_DEPTH_FATHOMS:
                sh["anchored"] = True
                sh["sails"] = "furled"
                sh["make_sail_left"] = 0
                r.speed = 0.0
                self.ev(
                    "anchor",
                    f"{r.ship.name} furls sails and drops anchor in {depth:g} fathoms (22.).",
                    ship_id=sid,
                    outcome="anchored",
                )
            else:
                self.ev(
                    "anchor",
                    f"{r.ship.name} cannot anchor in {depth:g} fathoms (300 or more; 22.).",
                    ship_id=sid,
                    outcome="too_deep",
                    visible_to=(r.ship.side,),
                )
        elif anchor == "raise" and sh.get("anchored") and not S.inum(sh.get("anchor_raise_left")):
            sh["anchor_raise_left"] = T.ANCHOR_RAISE_MOVES
            self.ev(
                "anchor",
                f"{r.ship.name} begins to raise her anchor: five moves (22.).",
                ship_id=sid,
                visible_to=(r.ship.side,),
            )
        elif anchor == "cut" and sh.get("anchored"):
            sh["anchored"] = False
            sh["anchor_raise_left"] = 0
            self.ev("anchor", f"{r.ship.name} cuts her cable (22.).", ship_id=sid, outcome="cut")
        sails = S.sval(data.get("sails"), "keep")
        if (
            sails == "make"
            and S.sval(sh.get("sails"), "set") == "furled"
            and not S.inum(sh.get("make_sail_left"))
        ):
            sh["make_sail_left"] = T.MAN_MASTS_MOVES + T.SET_SAILS_MOVES
            self.ev(
                "sails",
                f"{r.ship.name} mans the masts to make sail: two moves, then two to set the sails (22.).",
                ship_id=sid,
                visible_to=(r.ship.side,),
            )
        elif sails == "furl" and S.sval(sh.get("sails"), "set") == "set":
            sh["sails"] = "furled"
            self.ev("sails", f"{r.ship.name} furls her sails (22.).", ship_id=sid)
        if (
            data.get("jury_rig")
            and sh.get("dismasted")
            and not sh.get("jury_mast")
            and S.inum(sh.get("dismasted_moves")) >= T.JURY_MAST_AFTER_MOVES
        ):
            sh["jury_mast"] = True
            self.ev(
                "jury_mast",
                f"{r.ship.name} raises a temporary mast: 25% of normal speed from next move (6., S09).",
                ship_id=sid,
                outcome="jury_mast",
            )
        tow = S.sval(data.get("tow"))
        if data.get("cast_off_tow"):
            for key in ("towing", "towed_by", "tow_target"):
                oid = S.sval(sh.get(key))
                if oid and oid in self.recs:
                    for k2 in ("towing", "towed_by", "tow_target"):
                        if self.recs[oid].sheet.get(k2) == sid:
                            self.recs[oid].sheet[k2] = None
                sh[key] = None
            sh["tow_secure_left"] = 0
            self.ev("tow", f"{r.ship.name} casts off the tow (9.).", ship_id=sid)
        elif tow and tow in self.recs and not sh.get("towing"):
            t = self.recs[tow]
            if distance(t.pos, r.pos) <= T.TOW_REACH_MM:
                if sh.get("tow_target") == tow:
                    pass
                else:
                    sh["tow_target"] = tow
                    sh["tow_secure_left"] = T.TOW_SECURE_MOVES
                    self.ev(
                        "tow",
                        f"{r.ship.name} begins to pass a tow to {t.ship.name}: two moves (9.).",
                        ship_id=sid,
                        target_id=tow,
                        visible_to=(r.ship.side,),
                    )
        if data.get("refloat") and sh.get("aground"):
            helpers = []
            for o in self.recs.values():
                od = self.order(o)
                if (
                    o.ship.side == r.ship.side
                    and o is not r
                    and o.status == "active"
                    and od.get("assist") == sid
                    and distance(o.pos, r.pos) <= T.REFLOAT_ASSIST_REACH_MM
                ):
                    helpers.append(o.ship.name)
            v, roll = self.roll("AVG", f"{r.ship.name} refloats (21., S35)")
            total = C.refloat_total(v, len(helpers))
            ok = total >= T.REFLOAT_NEEDED
            mods = tuple(
                Modifier(label=f"assisted by {h} (S35)", value=T.REFLOAT_ASSIST_BONUS) for h in helpers
            )
            self.ev(
                "refloat",
                f"{r.ship.name} tries to refloat: average die {v}"
                f"{' + ' + str(len(helpers)) + ' assisting' if helpers else ''} = {total}, needs 5: "
                f"{'floats off next move' if ok else 'stays fast and loses 20 points'} (21., S35).",
                ship_id=sid,
                rolls=(roll,),
                modifiers=mods,
                needed=T.REFLOAT_NEEDED,
                outcome="floats" if ok else "fast",
            )
            if ok:
                sh["aground"] = False
                sh["refloat_next"] = True
            else:
                self.damage(r, T.REFLOAT_FAIL_DAMAGE, None, "failing to refloat")
        if data.get("cast_log"):
            depth = S.depth_at(st, r.pos, self.shoals)
            if r.speed <= T.CAST_LOG_MAX_MOVE_MM + 1e-9:
                self.ev(
                    "cast_log",
                    f"{r.ship.name} casts the log: {depth:g} fathoms beneath her (21.).",
                    ship_id=sid,
                    visible_to=(r.ship.side,),
                    data={"depth": depth},
                )
            else:
                self.ev(
                    "cast_log",
                    f"{r.ship.name} moved {r.speed:.0f} mm, more than 60: no sounding (21.).",
                    ship_id=sid,
                    visible_to=(r.ship.side,),
                )
        dbl = S.sval(data.get("load_double"), "none")
        if dbl != "none":
            for side in ("starboard", "port") if dbl == "both" else (dbl,):
                self.load_double(r, side, fired=False)

    def load_double(self, r: Rec, side: str, fired: bool) -> None:
        b = dict(S.dval(r.sheet.get("broadsides")))
        cur = S.dval(b.get(side))
        if not fired and S.sval(cur.get("shot"), "round") == "double":
            return
        # 11.: double shot takes two moves to load; a broadside fired this move starts loading next move
        ready = self.turn + (1 + T.DOUBLE_SHOT_LOAD_MOVES if fired else T.DOUBLE_SHOT_LOAD_MOVES)
        b[side] = {"ready_turn": ready, "shot": "double"}
        r.sheet["broadsides"] = b
        if not fired:
            self.ev(
                "load",
                f"{r.ship.name} loads her {side} broadside with double shot: ready on turn {ready} (11.).",
                ship_id=r.ship.id,
                visible_to=(r.ship.side,),
            )

    # --- 11.-13. gunnery ----------------------------------------------------------------------------

    def gunnery(self, r: Rec, data: Mapping[str, JSON]) -> None:
        """Fire ``r``'s broadsides as her order ``data`` says (11.-13.)."""
        tid = data.get("target")
        side = self.fire_at(r, tid, BOTH_SIDES, data) if tid and isinstance(tid, str) else None
        tid = data.get("target_2")
        if tid and isinstance(tid, str):
            # the broadsides the first target did not use
            self.fire_at(r, tid, BOTH_SIDES if side is None else OTHER_SIDE[side], data)

    def fire_at(self, r: Rec, tid: str, sides: tuple[str, ...], data: Mapping[str, JSON]) -> str | None:
        sid = r.ship.id
        samples = self.tracks.get(sid)
        if samples is None:
            samples = [(r.pos, r.heading)]
        t = self.recs.get(tid)
        bat = None if t is not None else S.battery_of(self.state, tid)
        if t is not None:
            if t.status != "active":
                self.ev(
                    "no_shot",
                    f"{r.ship.name} holds fire: {t.ship.name} is {t.status}.",
                    ship_id=sid,
                    target_id=tid,
                    visible_to=(r.ship.side,),
                )
                return None
            tpos, thead, tname = t.pos, t.heading, t.ship.name
        elif bat is not None and not bat[1].props.get("silenced"):
            assert isinstance(bat[1].position, Point)
            tpos, thead, tname = bat[1].position, 0.0, S.sval(bat[1].props.get("name"), tid)
        else:
            self.ev(
                "no_shot",
                f"{r.ship.name} holds fire: no target {tid}.",
                ship_id=sid,
                visible_to=(r.ship.side,),
            )
            return None
        sheet = r.sheet
        ship = r.ship
        start = ship.sheet
        g, br = sheet.get("guns"), sheet.get("broadsides")  # (read once: nothing below writes them first)
        shot = (
            # the shot the check of her order found (S.aimed_shot), when it was aimed with both broadsides
            # free, along this very track, and neither her broadsides and guns (what loaded_sides() reads)
            # nor the target's position and heading changed since: the same aim() of the same inputs
            self.memo.aimed_shot(ship, tid, samples)  # S.aimed_shot()
            if sides is BOTH_SIDES
            and t is not None
            and tpos is t.ship.position
            and thead == t.ship.heading
            and br is start.get("broadsides")
            and g is start.get("guns")
            else None
        )
        if shot is None:
            loaded = S.loaded_sides(sheet, self.turn, sides)
            shot = (
                S.shot_at(
                    self.state,
                    sid,
                    tid,
                    S.rate_of(ship),
                    loaded,
                    samples,
                    tpos,
                    thead,
                    t is None and bat is not None,
                )
                if loaded
                else None
            )
        if shot is None:
            self.ev(
                "no_shot",
                f"{r.ship.name} cannot bring a loaded broadside to bear on {tname} within range "
                "during her move (11., S12).",
                ship_id=sid,
                target_id=tid,
                visible_to=(r.ship.side,),
            )
            return None
        side = shot.side
        n = g.get(side) if type(g) is dict else None
        guns = n if type(n) is int else S.guns_in(sheet, side)  # guns_in(), the call only for an odd sheet
        weather = self._weather  # weather_now(), its call only when the conditions changed
        if weather is None or weather[0] is not self.cond:
            self.weather_now()
            weather = self._weather
            assert weather is not None
        _, firing_rule, wind = weather
        allowed = guns if firing_rule == "all" else C.weather_guns_allowed(guns, S.rate_of(ship), firing_rule)
        if allowed <= 0:
            self.ev(
                "no_shot",
                f"{r.ship.name} cannot fire in this weather (5., S05).",
                ship_id=sid,
                target_id=tid,
                visible_to=(r.ship.side,),
            )
            return None
        stats = ship.stats
        band, rake, double = shot.band, shot.rake, shot.double
        # fire_modifiers() below, of her grade, nation and service as her sheet and stats hold them: its memo
        # read in place, the call only on a miss (or for an unhashable value)
        key = (
            sheet.get("grade"),
            stats.get("nation"),
            band,
            rake,
            not sheet.get("fired_once"),
            wind,
            stats.get("service"),
        )
        try:
            fm = _FIRE_MODS.get(key)
        except TypeError:
            fm = None
        mods, base, band_text = fm if fm is not None else fire_modifiers(*key)
        name = ship.name
        purpose = f"{name} firing factor (12.)"
        dice = self.dice
        a = dice.roll("AVG", purpose)
        b = dice.roll("AVG", purpose)
        rolls = self.rolls
        roll_pair = (rolls[-2], rolls[-1])
        ff = base + a + b
        # volley_outcome(): the points, guns destroyed and end of the text, its memo read in place, the call
        # only on a miss
        out = _VOLLEYS.get((allowed, ff, double))
        pts, lost, outcome_text = out if out is not None else volley_outcome(allowed, ff, double)
        sheet["fired_once"] = True
        br = br.copy() if isinstance(br, dict) else {}
        turn = self.turn
        loading = _RELOADING.get(turn)  # {"ready_turn": turn + RELOADED, "shot": "round"}, made once a turn
        if loading is None:
            if len(_RELOADING) > 4096:
                _RELOADING.clear()
            loading = _RELOADING[turn] = {"ready_turn": turn + RELOADED, "shot": "round"}
        br[side] = loading
        sheet["broadsides"] = br
        dbl = data.get("load_double")
        if dbl and (dbl == side or dbl == "both"):
            self.load_double(r, side, fired=True)
        rng = shot.range
        # f"{name} fires her {side} broadside of {allowed} guns{weather_note}{double_note} at {tname},
        # {rng:.0f}{band_text}{a} + {b}{outcome_text}" with each int's text read from INT_TEXT (its str(),
        # made once) and the range's f"{rng:.0f}" as INT_TEXT[round(rng)] (round() rounds half to even, as
        # the format does), for the values the table holds: no int formatted, no format spec parsed (~3.5K
        # instructions less an event)
        text = (
            f"{name} fires her {side} broadside of "
            f"{INT_TEXT[allowed] if allowed < INT_TEXTS else allowed} guns"
            f"{'' if allowed >= guns else f' ({guns - allowed} may not fire in this weather, S44)'}"
            f"{' (double shot)' if double else ''} at {tname}, "
            f"{INT_TEXT[round(rng)] if 0.0 < rng < INT_TEXTS - 0.5 else f'{rng:.0f}'}{band_text}"
            f"{INT_TEXT[a] if 0 <= a < INT_TEXTS else a} + {INT_TEXT[b] if 0 <= b < INT_TEXTS else b}"
            f"{outcome_text}"
        )
        if rng % 1:
            rng = round(rng, 1)  # (the data's range: round(v, 1), only for a fraction, as in move())
        tside = t.ship.side if t is not None else self.side_of_target(tid)
        if self.cond.visibility is None:
            # hit_vis(), read from this phase's table of (firer's side, target's side): the call once a pair
            pair = (ship.side, tside)
            vis_of = self.hit_vis_of
            if pair in vis_of:
                visible = vis_of[pair]
            else:
                visible = vis_of[pair] = self.hit_vis(ship.side, tside)
        else:
            visible = tuple(sorted({ship.side, tside}))
        at = shot.at
        moved_to = self.end_xy.get(sid)
        if moved_to is not None and moved_to[0] is at:
            at_xy = moved_to[1]  # her move event's dict of that point (where a ship holding still fires from)
        else:
            x, y = at.x, at.y
            # round(v, 1), only for a fraction (as in move())
            at_xy = {"x": round(x, 1) if x % 1 else x, "y": round(y, 1) if y % 1 else y}
        self.events.append(
            new_event(
                "fire",
                text,
                self.turn,
                self.phase,
                sid,
                tid,
                roll_pair,
                mods,
                None,
                "hit" if pts else "no_effect",
                {
                    "points": pts,
                    "guns_destroyed": lost,
                    "ff": ff,
                    "guns": allowed,
                    "side": side,
                    "range": rng,
                    "band": band,
                    "rake": rake,
                    "double": double,
                    "at": at_xy,
                },
                visible,
            )
        )
        if t is not None:
            self.hit_ship(t, r, pts, lost, rake, at)
        elif bat is not None:
            self.hit_battery(bat[0], pts, lost, ship.side)
        return side

    def weather_now(self) -> tuple[str, str]:
        """Return the firing rule of the weather (5.) and the wind force now, worked out once per change of
        conditions (every shot asks)."""
        hit = self._weather
        if hit is None or hit[0] is not self.cond:
            st = self.cstate()
            hit = self._weather = (self.cond, S.weather_effect(st)[0], S.wind_force(st))
        return hit[1], hit[2]

    def hit_vis(self, firer_side: str, target_side: str) -> tuple[str, ...] | None:
        """Return the ``visible_to`` of fire by ``firer_side`` at ``target_side`` in good visibility (A2,
        NW-CAMP-15): those two sides, None when they are every side (or either is no side: a battery)."""
        if not firer_side or not target_side:
            return None
        return scored_visibility(firer_side, target_side, self.state.side_keys())

    def side_of_target(self, tid: str) -> str:
        if tid in self.recs:
            return self.recs[tid].ship.side
        bat = S.battery_of(self.state, tid)
        return S.sval(bat[1].props.get("side")) if bat else ""

    def hit_ship(
        self,
        t: Rec,
        firer_side_pos: Rec | None,
        pts: int,
        lost: int,
        rake: str | None,
        at: Point,
        by_side: str | None = None,
    ) -> None:
        """Apply a volley: points, guns lost (13.; S26) and the damage-chart rolls (S24)."""
        side_by = by_side if by_side is not None else (firer_side_pos.ship.side if firer_side_pos else None)
        tship = t.ship
        sh = t.sheet
        if lost:
            guns = sh.get("guns")
            if not isinstance(guns, dict):  # S.dval(), without its call
                guns = {}
            sb, pt = guns.get("starboard"), guns.get("port")
            if type(sb) is not int or type(pt) is not int:  # S.inum(), the calls only for an odd sheet
                sb, pt = S.inum(sb), S.inum(pt)
            guns = guns.copy()  # a new object: the old one is the starting state's (copy on write)
            if rake:
                lsb, lpt = C.rake_gun_split(lost, sb, pt)
            else:
                # side_of(t.heading, bearing(t.pos, at)), written out with their arithmetic: port when the
                # bearing relative to the bow, normalised to [0, 360), is over 180 (signed_deg() < 0)
                # (the bearing is atan2()'s in degrees, in [-180, 180]: only a negative one needs norm_deg();
                # and less a heading it is a float, so the test of its type is left out)
                tp = t.pos
                true = math.degrees(math.atan2(at.x - tp.x, -(at.y - tp.y)))
                if true < 0.0:
                    true = norm_deg(true)
                rel = true - t.heading
                if not 0.0 <= rel < 360.0:
                    rel = norm_deg(rel)
                lsb, lpt = (0, lost) if rel > 180.0 else (lost, 0)
            if lsb <= sb and lpt <= pt:  # the common case: no side loses more guns than it has
                guns["starboard"], guns["port"] = sb - lsb, pt - lpt
                lost_sb, lost_pt = lsb, lpt
            else:
                # max(0, ...) and min() written out (the builtins' calls cost more than the tests)
                left_sb, left_pt = sb - lsb, pt - lpt
                guns["starboard"] = left_sb if left_sb > 0 else 0
                guns["port"] = left_pt if left_pt > 0 else 0
                lost_sb, lost_pt = lsb if lsb < sb else sb, lpt if lpt < pt else pt
            sh["guns"] = guns
            key = (lost_sb, lost_pt, rake)
            text_data = _GUNS_LOST.get(key)  # guns_lost_text(), its call only on a miss
            if text_data is None:
                text_data = guns_lost_text(*key)
            side = tship.side
            vis = _SIDE_ONLY.get(side)  # side_only(), its call only on a miss
            self.events.append(
                new_event(
                    "guns_lost",
                    tship.name + text_data[0],
                    self.turn,
                    self.phase,
                    tship.id,
                    None,
                    (),
                    (),
                    None,
                    "",
                    text_data[1],
                    vis if vis is not None else side_only(side),
                )
            )
        if pts <= 0:
            return  # (damage() takes nothing and C.damage_rolls() is 0: neither called)
        have = sh.get("points")
        scored = sh.get("damage_scored")
        if (
            type(have) is int
            and have > pts
            and type(scored) is int
            and side_by
            and side_by != tship.side
            and t.status not in ("sunk", "withdrawn")
        ):
            # damage(t, pts, side_by, "gunfire") written out for the common case: the other side's points
            # taken off a ship afloat that has more, both her counts ints
            sh["points"] = have - pts
            sh["damage_scored"] = scored + pts
        else:
            self.damage(t, pts, side_by, "gunfire")
        # one damage-chart roll per 50 points or part (S24) while she is afloat (C.damage_rolls(), without its
        # call: pts > 0 here)
        n = -(-pts // T.DAMAGE_POINTS_PER_ROLL)
        i = 1
        while i <= n:  # (for i in range(1, n + 1), without the range object: n is 0 or 1 but for big volleys)
            if t.status in ("sunk", "withdrawn"):
                return
            self.damage_chart(t, i, n)
            i += 1

    def damage_chart(self, t: Rec, i: int, n: int) -> None:
        """Roll damage-chart roll ``i`` of ``n`` of a volley on ship ``t`` and apply it (13.; S23-S25)."""
        ship = t.ship
        name = ship.name
        dice = self.dice
        # f"{name} damage chart {i}/{n} (13., S24)", the formatting only for a volley of more than one roll
        # (i is 1 when n is)
        purpose = (
            name + " damage chart 1/1 (13., S24)" if n == 1 else f"{name} damage chart {i}/{n} (13., S24)"
        )
        v = dice.roll("D100", purpose)
        roll = self.rolls[-1]
        if 0 <= v < 100:  # C.damage_result() written out, and the text and data read, not made
            code = C.DAMAGE_BY_ROLL[v]
            text = DAMAGE_CHART_TEXT[v]
            data = DAMAGE_CHART_DATA[v]
        else:
            code = C.damage_result(v)
            text = f": damage chart {v:02d}: {T.DAMAGE_RESULT_TEXT[code]}."
            data = {"roll": v, "result": code}
        sh = t.sheet
        extra = ""
        public = False
        # the results by how often they come (20 in 100 each, then two_fires 10), then the rest; the checks of
        # S25 (pumps) and of the speed reduction (S11) in the branches of the results that may call for them
        if code == "nothing":
            pass
        elif code == "boat_destroyed":
            sh["boats"] = max(0, S.inum(sh.get("boats")) - 1)
        elif code == "mast_damage":
            sh["mast_hits"] = S.inum(sh.get("mast_hits")) + 1
            if sh.get("jury_mast"):
                sh["jury_mast"] = False
                sh["dismasted_moves"] = 0  # NW-SAIL-28: two moves again before another (6.)
                extra = " The temporary mast goes by the board (NW-SAIL-28)."
            public = True
            if speed_reduced(sh):
                extra += DISMASTED_TEXT
        elif code == "one_fire" or code == "two_fires":
            fl = sh.get("fires")
            # (list + list is a new list: the old one, the starting state's, is left as it was)
            sh["fires"] = (fl if isinstance(fl, list) else []) + ([0] if code == "one_fire" else [0, 0])
            public = True
        elif code in T.NO_SIGNALS_MOVES:
            if sh.get("admiral"):
                sh["no_signals_moves"] = max(S.inum(sh.get("no_signals_moves")), T.NO_SIGNALS_MOVES[code])
                public = True
            else:
                extra = " No admiral aboard: no effect."
        elif code in T.NO_COURSE_CHANGE_MOVES:
            sh["no_turn_moves"] = max(S.inum(sh.get("no_turn_moves")), T.NO_COURSE_CHANGE_MOVES[code])
        elif code in T.WHEEL_TURN_DEG:
            t.heading = norm_deg(t.heading + T.WHEEL_TURN_DEG[code])
            sh["wheel_hit"] = True
            public = True
        elif code == "anchor_cable":
            if sh.get("anchored"):
                sh["anchored"] = False
                sh["anchor_raise_left"] = 0
                sh["drift_moves"] = 1
                public = True
            else:
                extra = " No anchor laid: no effect."
        elif code == "severe_underwater":
            sh["severe_underwater"] = True
            if pumps_sink(sh):
                extra = PUMPS_SINK_TEXT
            if speed_reduced(sh):
                extra += DISMASTED_TEXT
                public = True
        elif code == "pumps_destroyed":
            sh["pumps_destroyed"] = True
            if pumps_sink(sh):
                extra = PUMPS_SINK_TEXT
        self.events.append(
            new_event(
                "damage_chart",
                f"{name}{text}{extra}",
                self.turn,
                self.phase,
                ship.id,
                None,
                (roll,),
                (),
                None,
                code,
                data,
                None if public else _SIDE_ONLY.get(ship.side) or side_only(ship.side),  # (side_only())
            )
        )
        if code == "magazine_explodes":
            self.explode(t, "her magazine")

    def hit_battery(self, idx: int, pts: int, lost: int, by_side: str) -> None:
        """Apply a hit to a shore battery: points and guns only (24., NW-SAIL-15); at 0 points or guns it is
        silenced. A battery raised by a working party shelters its men: points beyond what its gun sections
        hold fall on the party, a man a point (S41), and it is silenced only once it has had a gun
        (NW-SAIL-24)."""
        t = self.terrain[idx]
        props = dict(t.props)
        have = S.inum(props.get("points"))
        guns_before = S.inum(props.get("guns"))
        left = have - pts
        props["points"] = max(0, left)
        props["guns"] = max(0, guns_before - lost)
        name = S.sval(props.get("name"), S.sval(props.get("id")))
        extra = ""
        casualties = 0
        if props.get("under_construction"):
            party = S.inum(props.get("party"))
            casualties = min(party, max(0, pts - have))
            if casualties:
                props["party"] = party - casualties
                extra = (
                    f"; {pts} - {have} = {pts - have} points fall on the working party: {casualties} "
                    f"men lost, {party - casualties} left (S41, NW-SAIL-24)"
                )
                if party - casualties <= 0:
                    extra += "; the party is wiped out and the work stops"
            if guns_before > 0 and (left <= 0 or S.inum(props.get("guns")) <= 0):
                props["silenced"] = True
        elif left <= 0 or S.inum(props.get("guns")) <= 0:
            props["silenced"] = True
        self.terrain[idx] = replace(t, props=props)
        self.ev(
            "battery_damage",
            f"Battery {name} loses {min(pts, have)} points and {min(lost, guns_before)} gun(s)"
            f"{': silenced' if props.get('silenced') else ''}{extra} (24., NW-SAIL-15).",
            outcome="silenced" if props.get("silenced") else "damaged",
            data={
                "points": props["points"],
                "guns": props["guns"],
                "battery": S.sval(props.get("id")),
                "party_lost": casualties,
                "by_side": by_side,
            },
        )

    # --- 24. shore batteries raised by a ship's working party (NW-SAIL-23 .. NW-SAIL-25) --------------------

    def shore_works(self, r: Rec) -> None:
        """Land, work and re-embark a vessel's working party (24., line 337; NW-SAIL-23, -24, -25).

        In the vessel's own move: a party ashore at the start of the move either re-embarks (``works_recall``)
        or works on its task (men x 1 move of men-moves); then new men land (``land_party``), working from
        the next move. Work goes on only while the vessel lies at anchor within 50 mm of the battery (she
        supplies tools, stores and guns by boat, NW-SAIL-24).
        """
        data = self.order(r)
        sh = r.sheet
        sid = r.ship.id
        wid = S.works_id(sid)
        found = self.bat(wid)
        recall = bool(data.get("works_recall"))
        land = S.inum(data.get("land_party"))
        task = S.sval(data.get("works_task"), "keep")
        if found is not None:
            idx, t = found
            props = dict(t.props)
            party = S.inum(props.get("party"))
            assert isinstance(t.position, Point)
            in_reach = (
                bool(sh.get("anchored")) and distance(r.pos, t.position) <= T.WORKS_LANDING_REACH_MM + 1e-9
            )
            name = S.sval(props.get("name"), wid)
            if task in T.WORKS_TASKS and task != props.get("task"):
                props["task"] = task
            if party > 0 and recall and in_reach:
                props["party"] = 0
                back = party
                sh["points"] = S.inum(sh.get("points")) + back
                note = ""
                if props.get("gun_landed"):
                    props["gun_landed"] = False
                    self.return_gun(r)
                    note = " with the gun not yet in position"
                self.terrain[idx] = replace(t, props=props)
                self.ev(
                    "works",
                    f"{r.ship.name} re-embarks her working party of {back} men{note}: "
                    f"{S.inum(sh.get('points')) - back} + {back} = {S.inum(sh.get('points'))} points "
                    "aboard (24., S41, NW-SAIL-24).",
                    ship_id=sid,
                    target_id=wid,
                    outcome="recalled",
                    data={"men": back, "points": S.inum(sh.get("points"))},
                )
                return
            if party > 0 and not in_reach:
                self.terrain[idx] = replace(t, props=props)
                self.ev(
                    "works",
                    f"{r.ship.name}'s working party of {party} men at {name} cannot work: she does "
                    f"not lie at anchor within {T.WORKS_LANDING_REACH_MM:g} mm (NW-SAIL-24).",
                    ship_id=sid,
                    target_id=wid,
                    outcome="idle",
                    visible_to=(r.ship.side,),
                )
            elif party > 0 and props.get("silenced"):
                self.terrain[idx] = replace(t, props=props)
                self.ev(
                    "works",
                    f"{name} is silenced: the party of {party} men can do no more work there (NW-SAIL-24).",
                    ship_id=sid,
                    target_id=wid,
                    outcome="idle",
                    visible_to=(r.ship.side,),
                )
            elif party > 0:
                self.terrain[idx] = replace(t, props=self.work(r, props, party))
        if land > 0:
            self.land_party(r, land, data)

    def return_gun(self, r: Rec) -> None:
        """Put a landed gun back aboard, on the side with fewer guns (port on a tie)."""
        g = dict(S.dval(r.sheet.get("guns")))
        sb, pt = S.inum(g.get("starboard")), S.inum(g.get("port"))
        if sb < pt:
            g["starboard"] = sb + 1
        else:
            g["port"] = pt + 1
        r.sheet["guns"] = g

    def land_party(self, r: Rec, men: int, data: Mapping[str, JSON]) -> None:
        """Land ``men`` from the vessel's crew/damage points (S41) at the nearest dry land (NW-SAIL-23)."""
        sh = r.sheet
        sid = r.ship.id
        wid = S.works_id(sid)
        found = self.bat(wid)
        most = C.works_party_max(S.inum(sh.get("points")), S.points_start(r.ship))
        if not sh.get("anchored") or S.inum(sh.get("boats")) <= 0 or men > most:
            self.ev(
                "works",
                f"{r.ship.name} cannot land a party of {men} men now (24., NW-SAIL-23).",
                ship_id=sid,
                outcome="no_landing",
                visible_to=(r.ship.side,),
            )
            return
        if found is None:
            shore = S.nearest_shore(self.terrain, r.pos)
            if shore is None or distance(shore, r.pos) > T.WORKS_LANDING_REACH_MM + 1e-9:
                self.ev(
                    "works",
                    f"{r.ship.name} has no shore within {T.WORKS_LANDING_REACH_MM:g} mm to land "
                    "a party (NW-SAIL-23).",
                    ship_id=sid,
                    outcome="no_landing",
                    visible_to=(r.ship.side,),
                )
                return
            facing = data.get("works_facing")
            face = (
                norm_deg(float(facing))
                if isinstance(facing, (int, float)) and not isinstance(facing, bool)
                else norm_deg(bearing(shore, r.pos))
                if distance(shore, r.pos) > 0
                else 0.0
            )
            task = S.sval(data.get("works_task"), "keep")
            props: dict[str, JSON] = {
                "id": wid,
                "name": f"{r.ship.name}'s battery",
                "side": r.ship.side,
                "nation": S.nation_of(r.ship),
                "grade": S.sval(sh.get("grade"), "average"),
                "guns": 0,
                "construction": "open",
                "facing": round(face, 1),
                "points": 0,
                "ready_turn": self.turn + 1,
                "garrison": 0,
                "under_construction": True,
                "builder": sid,
                "party": 0,
                "task": task if task in T.WORKS_TASKS else "prepare",
                "positions": 0,
                "earth_mm": 0,
                "gun_landed": False,
                "progress": {k: 0 for k in T.WORKS_TASKS},
            }
            self.terrain.append(TerrainFeature(kind="battery", position=shore, props=props))
            found = (len(self.terrain) - 1, self.terrain[-1])
        idx, t = found
        props = dict(t.props)
        before = S.inum(sh.get("points"))
        sh["points"] = before - men
        props["party"] = S.inum(props.get("party")) + men
        props["garrison"] = props["party"]
        self.terrain[idx] = replace(t, props=props)
        assert isinstance(t.position, Point)
        self.ev(
            "works",
            f"{r.ship.name} lands a working party of {men} men in her boats at ({t.position.x:.0f}, "
            f"{t.position.y:.0f}), {distance(t.position, r.pos):.0f} mm off: {before} - {men} = "
            f"{before - men} points left aboard; {props['party']} men ashore, to "
            f"{T.WORKS_TASK_TEXT[S.sval(props.get('task'))]} from next move (24., S41, NW-SAIL-23).",
            ship_id=sid,
            target_id=wid,
            outcome="landed",
            data={
                "men": men,
                "party": props["party"],
                "points": before - men,
                "at": {"x": round(t.position.x, 1), "y": round(t.position.y, 1)},
            },
        )

    def work(self, r: Rec, props: dict[str, JSON], men: int) -> dict[str, JSON]:
        """Add one move of ``men`` men-moves to the party's task and complete what it pays for (24.;
        NW-SAIL-23: 20 men x 10 moves = 200 men-moves a position, 15 x 5 = 75 a gun, 10 x 10 = 100 per 2 mm
        of earthworks). Return the battery's new props."""
        sid = r.ship.id
        wid = S.works_id(sid)
        task = S.sval(props.get("task"), "prepare")
        gang, moves = T.BATTERY_WORKS[T.WORKS_TASKS[task]]
        need = C.works_men_moves(task)
        prog = dict(S.dval(props.get("progress")))  # a new object: the input state is never changed
        blocked = self.works_blocked(r, props, task)
        if blocked:
            self.ev(
                "works",
                f"{r.ship.name}'s working party of {men} men cannot "
                f"{T.WORKS_TASK_TEXT[task]}: {blocked} (24.).",
                ship_id=sid,
                target_id=wid,
                outcome="idle",
                visible_to=(r.ship.side,),
            )
            return props
        done_before = S.inum(prog.get(task))
        total = done_before + men
        texts: list[str] = []
        if task == "gun" and not props.get("gun_landed"):
            self.land_gun(r, props, texts)
        while total >= need:
            total -= need
            texts.append(self.complete(r, props, task))
            if total and self.works_blocked(r, props, task):
                texts.append(f"{total} men-moves to spare are lost: {self.works_blocked(r, props, task)}")
                total = 0
            elif total and task == "gun":
                self.land_gun(r, props, texts)
        prog[task] = total
        props["progress"] = prog
        head = (
            f"{r.ship.name}'s working party: {men} men x 1 move {T.WORKS_TASK_TEXT[task]}: "
            f"{done_before} + {men} = {done_before + men} men-moves of {need} a unit ({gang} men x "
            f"{moves} moves, 24., NW-SAIL-23)"
        )
        finished = any("prepared" in x or "in position" in x or "raised" in x for x in texts)
        self.ev(
            "works",
            head + ("; " + "; ".join(texts) if texts else f"; {total} of {need} done") + ".",
            ship_id=sid,
            target_id=wid,
            outcome="done" if finished else "working",
            data={
                "task": task,
                "men": men,
                "progress": total,
                "need": need,
                "positions": props.get("positions"),
                "guns": props.get("guns"),
                "earth_mm": props.get("earth_mm"),
                "points": props.get("points"),
            },
            visible_to=(r.ship.side,),
        )
        return props

    def works_blocked(self, r: Rec, props: Mapping[str, JSON], task: str) -> str:
        """Return why the party cannot go on with ``task`` now, or "" (24.)."""
        positions = S.inum(props.get("positions"))
        guns = S.inum(props.get("guns"))
        if task == "gun" and not props.get("gun_landed"):
            if positions <= guns:
                return "no prepared gun position is free"
            if self.total_guns(r) <= 0:
                return f"{r.ship.name} has no gun left to land"
        if task == "earthworks" and S.inum(props.get("earth_mm")) >= positions * T.BATTERY_GUN_SPACING_MM:
            return (
                f"earthworks cover all {positions} prepared position(s) "
                f"({positions * T.BATTERY_GUN_SPACING_MM:g} mm)"
            )
        return ""

    def land_gun(self, r: Rec, props: dict[str, JSON], texts: list[str]) -> None:
        """Hoist a gun out of the vessel (the side with more guns, starboard on a tie; NW-SAIL-6's choice)
        and land it for the party to position (24.)."""
        g = dict(S.dval(r.sheet.get("guns")))
        sb, pt = S.inum(g.get("starboard")), S.inum(g.get("port"))
        side = "starboard" if sb >= pt else "port"
        g[side] = (sb if side == "starboard" else pt) - 1
        r.sheet["guns"] = g
        props["gun_landed"] = True
        texts.append(f"a {side} gun is hoisted out and landed ({sb + pt} - 1 = {sb + pt - 1} guns aboard)")

    def complete(self, r: Rec, props: dict[str, JSON], task: str) -> str:
        """Finish one unit of ``task`` on the battery's props; return the log text with the arithmetic."""
        guns = S.inum(props.get("guns"))
        earth = S.inum(props.get("earth_mm"))
        sections = int(earth // T.BATTERY_GUN_SPACING_MM)
        pts = S.inum(props.get("points"))
        if task == "prepare":
            props["positions"] = S.inum(props.get("positions")) + 1
            return f"gun position {props['positions']} prepared"
        if task == "gun":
            guns += 1
            add = C.works_section_points(guns <= sections)
            props["guns"] = guns
            props["gun_landed"] = False
            props["points"] = pts + add
            if guns == 1:
                props["ready_turn"] = max(S.inum(props.get("ready_turn"), 1), self.turn + 1)
            self.update_construction(props)
            return (
                f"gun {guns} in position, {'behind earthworks' if guns <= sections else 'open'}: "
                f"{pts} + {add} = {pts + add} points; the battery may fire from next move (24.)"
            )
        earth += int(T.BATTERY_GUN_SPACING_MM)
        props["earth_mm"] = earth
        sections += 1
        text = f"earthworks raised to {earth} mm"
        if sections <= guns:
            add = C.works_section_points(True) - C.works_section_points(False)
            props["points"] = pts + add
            text += f": gun {sections}'s section is now earth, {pts} + {add} = {pts + add} points"
        self.update_construction(props)
        return text

    @staticmethod
    def update_construction(props: dict[str, JSON]) -> None:
        guns = S.inum(props.get("guns"))
        sections = int(S.inum(props.get("earth_mm")) // T.BATTERY_GUN_SPACING_MM)
        props["construction"] = "earth" if guns > 0 and sections >= guns else "open"

    # --- 24. shore batteries ------------------------------------------------------------------------

    def batteries(self) -> None:
        for idx, t in enumerate(list(self.terrain)):
            if t.kind != "battery" or S.sval(t.props.get("side")) != self.side or t.props.get("silenced"):
                continue
            if S.inum(t.props.get("ready_turn"), 1) > self.turn or not isinstance(t.position, Point):
                continue
            pos = t.position
            facing = S.num(t.props.get("facing"), 0.0)
            best: tuple[float, Rec, str] | None = None
            for o in self.recs.values():
                if o.status != "active" or o.ship.side == self.side:
                    continue
                d = distance(pos, o.pos)
                band = C.range_band(d, "1st")
                if (
                    band is None
                    or abs(relative_bearing(facing, bearing(pos, o.pos))) > T.SHORE_BATTERY_ARC_DEG
                ):
                    continue
                if self.cond.visibility is not None and d > self.cond.visibility:
                    continue
                if best is None or d < best[0]:
                    best = (d, o, band)
            if best is None:
                continue
            d, o, band = best
            guns = S.inum(t.props.get("guns"))
            manned_note = ""
            if t.props.get("under_construction"):
                party = S.inum(t.props.get("party"))
                manned = C.manned_guns(guns, party)
                if manned < guns:
                    manned_note = (
                        f" ({party} men serve {manned} of {guns} guns at six a gun; 24., NW-SAIL-25)"
                    )
                guns = manned
            # 5. restricts the firing of vessels ("No firing from any vessel", "... unrated vessels", "one
            # third of guns on rated vessels"): a battery ashore fires every gun it has (NW-SAIL-27); the
            # wind's modifiers of 12. still apply
            allowed = guns
            if allowed <= 0:
                continue
            first = not t.props.get("fired_once")
            mods = C.firing_factor_modifiers(
                grade=S.sval(t.props.get("grade"), "average"),
                nation=S.sval(t.props.get("nation"), "Other"),
                range_name=band,
                land_based=True,
                first_time=first,
                wind_force=S.wind_force(self.cstate()),
            )
            a, r1 = self.roll("AVG", "battery firing factor (12., 24.)")
            b, r2 = self.roll("AVG", "battery firing factor (12., 24.)")
            ff = sum(v for _, v in mods) + a + b
            pts, lost = C.chart_result(allowed, ff)
            props = dict(t.props)
            props["fired_once"] = True
            props["ready_turn"] = self.turn + 1 + T.RELOAD_MOVES
            self.terrain[idx] = replace(t, props=props)
            name = S.sval(t.props.get("name"), S.sval(t.props.get("id"), "battery"))
            self.ev(
                "fire",
                f"Battery {name} fires {allowed} guns{manned_note} at {o.ship.name}, {d:.0f} mm ({band}): FF "
                f"{sum(v for _, v in mods):+d} + {a} + {b} = {ff} -> {pts} points, {lost} gun(s) (24., 28.).",
                target_id=o.ship.id,
                rolls=(r1, r2),
                modifiers=modifiers_of(mods),
                outcome="hit" if pts else "no_effect",
                data={"points": pts, "guns_destroyed": lost, "ff": ff, "battery": S.sval(t.props.get("id"))},
                visible_to=self.hit_vis(self.side, o.ship.side),
            )
            self.hit_ship(o, None, pts, lost, None, pos, by_side=self.side)

    # --- 23. mortars ----------------------------------------------------------------------------------

    def bat(self, tid: str) -> tuple[int, TerrainFeature] | None:
        """Return (index, feature) of the battery ``tid`` as it stands now in this phase, or None."""
        for i, t in enumerate(self.terrain):
            if t.kind == "battery" and S.sval(t.props.get("id")) == tid and isinstance(t.position, Point):
                return i, t
        return None

    def mortar(self, r: Rec) -> None:
        """Fire the mortar at a vessel or, since bomb vessels bombarded forts, at a shore battery (23.; S38,
        S39, NW-SAIL-9; NW-SAIL-26: a battery is ranged on and hit like a vessel)."""
        tid = S.sval(self.order(r).get("mortar_target"))
        if not tid or S.inum(r.sheet.get("mortars")) <= 0:
            return
        sid = r.ship.id
        if S.inum(r.sheet.get("mortar_ready_turn"), 1) > self.turn:
            return
        firing, _wind = self.weather_now()
        if firing != "all" and C.weather_guns_allowed(1, S.rate_of(r.ship), firing) <= 0:
            # 5.: "No firing from any vessel" / "from unrated vessels" stops her mortar as it does her guns
            self.ev(
                "no_shot",
                f"{r.ship.name}'s mortar cannot fire in this weather (5., S05).",
                ship_id=sid,
                visible_to=(r.ship.side,),
            )
            return
        if tid in self.recs:
            t = self.recs[tid]
            if t.status != "active":
                return
            tpos, tname = t.pos, t.ship.name
        else:
            found = self.bat(tid)
            if (
                found is None
                or found[1].props.get("silenced")
                or S.sval(found[1].props.get("side")) == r.ship.side
            ):
                self.ev(
                    "no_shot",
                    f"{r.ship.name}'s mortar holds fire: no enemy battery {tid} to bombard.",
                    ship_id=sid,
                    visible_to=(r.ship.side,),
                )
                return
            assert isinstance(found[1].position, Point)
            tpos, tname = found[1].position, "battery " + S.sval(found[1].props.get("name"), tid)
        d = distance(r.pos, tpos)
        lo, hi = T.MORTAR_RANGE_MM
        if not lo <= d <= hi:
            self.ev(
                "no_shot",
                f"{r.ship.name}'s mortar cannot reach {tname} at {d:.0f} mm (100-500; 23.).",
                ship_id=sid,
                visible_to=(r.ship.side,),
            )
            return
        n = S.inum(r.sheet.get("mortars"))
        r.sheet["mortar_ready_turn"] = self.turn + 1 + T.MORTAR_LOAD_MOVES
        for k in range(1, n + 1):
            # 27.: a bomb "plus 2 mortars" fires two shells a load, each ranged and spidered (23.)
            if k > 1:
                if tid in self.recs:
                    if self.recs[tid].status != "active":
                        return
                else:
                    found = self.bat(tid)
                    if found is None or found[1].props.get("silenced"):
                        return
            self.shell(r, tid, tpos, tname, d, "" if n == 1 else f" (mortar {k} of {n})")

    def shell(self, r: Rec, tid: str, tpos: Point, tname: str, d: float, which: str) -> None:
        """Fire one mortar shell of ``r`` at ``tid`` (at ``tpos``, ``d`` mm away): ranging unless ranged in,
        the spider, the hit (23.; S38, S39, NW-SAIL-9, NW-SAIL-26). ``which`` names the mortar of several."""
        sid = r.ship.id
        rolls: list[Roll] = []
        line = bearing(r.pos, tpos)
        aim = tpos
        text = ""
        if r.sheet.get("mortar_ranged_on") != tid:
            v, roll = self.roll("D100", f"{r.ship.name} mortar ranging (23., S02)")
            rolls.append(roll)
            res, frac = C.mortar_ranging(v)
            off = d * frac
            if res == "short":
                aim = advance(tpos, line + 180.0, off)
            elif res == "over":
                aim = advance(tpos, line, off)
            elif res == "left":
                aim = advance(tpos, line - 90.0, off)
            elif res == "right":
                aim = advance(tpos, line + 90.0, off)
            else:
                r.sheet["mortar_ranged_on"] = tid
            text = f"ranging {decimal_as_1_100(v)}: {res.replace('_', ' ')}"
            if off:
                text += f" by {off:.0f} mm (10% of {d:.0f})"
        else:
            text = "ranged in"
        v2, roll2 = self.roll("D100", f"{r.ship.name} mortar spider (23., 30., S39)")
        rolls.append(roll2)
        point = v2 % 10  # one decimal die: the units die of the pair
        if point == 0:
            self.ev(
                "mortar",
                f"{r.ship.name} fires her mortar{which} at {tname} ({text}); spider 0: the shell fails "
                "to explode (23.).",
                ship_id=sid,
                target_id=tid,
                rolls=tuple(rolls),
                outcome="dud",
            )
            return
        spacing = S.num(self.state.options.get("spider_spacing_mm"), T.MORTAR_SPIDER_SPACING_MM)
        across, along = T.MORTAR_SPIDER[point]
        impact = advance(advance(aim, line, along * spacing), line + 90.0, across * spacing)
        victim: Rec | None = None
        best = T.MORTAR_HIT_RADIUS_MM
        for o in self.recs.values():
            if o.status == "active" or (self.afloat(o) and o.status == "struck"):
                dd = distance(o.pos, impact)
                if dd <= best:
                    victim, best = o, dd
        if victim is None:
            best = float("inf")
        hit_bat: tuple[int, TerrainFeature] | None = None
        for i, bt in enumerate(self.terrain):
            if bt.kind != "battery" or not isinstance(bt.position, Point) or bt.props.get("silenced"):
                continue
            dd = distance(bt.position, impact)
            # NW-SAIL-26: the nearest thing hit; a vessel before a battery at the same distance
            if dd <= C.battery_hit_radius(S.inum(bt.props.get("guns"))) and dd < best:
                victim, hit_bat, best = None, (i, bt), dd
        if hit_bat is not None:
            hname = "battery " + S.sval(hit_bat[1].props.get("name"), S.sval(hit_bat[1].props.get("id")))
            what = f" and hits {hname}"
            hit_id = S.sval(hit_bat[1].props.get("id"))
        elif victim is not None:
            what, hit_id = f" and hits {victim.ship.name}", victim.ship.id
        else:
            what, hit_id = ", a miss", tid
        data: dict[str, JSON] = {
            "impact": {"x": round(impact.x, 1), "y": round(impact.y, 1)},
            "distance": round(d, 1),
        }
        if hit_bat is not None:
            data["battery"] = hit_id
        self.ev(
            "mortar",
            f"{r.ship.name} fires her mortar{which} at {tname} ({text}); spider {point}: the shell "
            f"falls at ({impact.x:.0f}, {impact.y:.0f}){what} (23., S38, S39"
            f"{', NW-SAIL-26' if hit_bat is not None or tid not in self.recs else ''}).",
            ship_id=sid,
            target_id=hit_id,
            rolls=tuple(rolls),
            outcome="hit" if (victim or hit_bat) else "miss",
            data=data,
            visible_to=self.hit_vis(r.ship.side, victim.ship.side) if victim is not None else None,
        )
        if hit_bat is not None:
            self.hit_battery(hit_bat[0], T.MORTAR_DAMAGE, 0, r.ship.side)
        elif victim is not None:
            self.hit_ship(victim, r, T.MORTAR_DAMAGE, 0, None, r.pos)

    # --- 15. boarding --------------------------------------------------------------------------------

    def melees(self, boarding: bool = True, fighting: bool = True) -> None:
        """Board as ordered, then fight every melee (15.). ``boarding`` False: no order of the phase has a
        ``board`` field; ``fighting`` False: no ship was in a melee when the moves began. (A melee starts only
        here: with neither, there is nothing to do.)"""
        if not boarding and not fighting:
            return
        for r in [x for x in self.recs.values() if x.ship.side == self.side and x.status == "active"]:
            tid = S.sval(self.order(r).get("board"))
            if tid and r.sheet.get("entangled_with") == tid and not r.sheet.get("melee") and tid in self.recs:
                t = self.recs[tid]
                if t.status == "active" and t.ship.side != r.ship.side:
                    m: dict[str, JSON] = {"attacker": r.ship.id, "defender": tid, "deck": 1}
                    r.sheet["melee"] = dict(m)
                    t.sheet["melee"] = dict(m)
                    self.ev(
                        "board",
                        f"{r.ship.name} boards {t.ship.name}, leaving 20% of her crew aboard (15.).",
                        ship_id=r.ship.id,
                        target_id=tid,
                    )
        seen: set[str] = set()
        for r in list(self.recs.values()):
            fight = r.sheet.get("melee")
            if not fight or not isinstance(fight, dict) or r.ship.id in seen:
                continue
            a_id, d_id = S.sval(fight.get("attacker")), S.sval(fight.get("defender"))
            seen.update((a_id, d_id))
            if a_id in self.recs and d_id in self.recs:
                self.melee(self.recs[a_id], self.recs[d_id], S.inum(fight.get("deck"), 1))

    def melee(self, a: Rec, d: Rec, deck: int) -> None:
        if not (a.status == "active" and d.status == "active"):
            a.sheet["melee"] = None
            d.sheet["melee"] = None
            return
        men_a = C.boarding_party(S.inum(a.sheet.get("points")))
        men_d = S.inum(d.sheet.get("points"))
        va, ra = self.roll("D6", f"{a.ship.name} boarding melee (15., S29)")
        vd, rd = self.roll("D6", f"{d.ship.name} boarding melee (15., S29)")
        ma = C.boarding_modifiers(S.sval(a.sheet.get("grade"), "average"), S.nation_of(a.ship))
        md = C.boarding_modifiers(S.sval(d.sheet.get("grade"), "average"), S.nation_of(d.ship))
        sa = va + sum(v for _, v in ma)
        sd = vd + sum(v for _, v in md)
        cas_on_d = C.melee_casualties(men_a, sa)
        cas_on_a = C.melee_casualties(men_d, sd)
        decks = C.decks(S.rate_of(d.ship))
        if cas_on_d > cas_on_a:
            result = "attacker"
        elif cas_on_a > cas_on_d:
            result = "defender"
        else:
            result = "tie"
        text = (
            f"Melee on {d.ship.name}'s deck {deck} of {decks}: {a.ship.name} {men_a} men roll {va} -> {sa}, "
            f"{d.ship.name} {men_d} men roll {vd} -> {sd}; casualties {cas_on_d} to {d.ship.name}, "
            f"{cas_on_a} to {a.ship.name} (15., 28., S29)"
        )
        mods = tuple(Modifier(label=f"{a.ship.name}: {lbl}", value=v) for lbl, v in ma) + tuple(
            Modifier(label=f"{d.ship.name}: {lbl}", value=v) for lbl, v in md
        )
        new_deck = deck
        if result == "attacker":
            new_deck = deck + 1
            text += f": {a.ship.name} carries the deck"
        elif result == "defender":
            new_deck = deck - 1
            text += f": {d.ship.name} {'recovers a deck' if deck > 1 else 'drives the boarders back'}"
        else:
            text += ": no winner, the melee goes on (S29)"
        self.ev(
            "melee",
            text + ".",
            ship_id=a.ship.id,
            target_id=d.ship.id,
            rolls=(ra, rd),
            modifiers=mods,
            outcome=result,
            data={
                "casualties_attacker": cas_on_a,
                "casualties_defender": cas_on_d,
                "deck": new_deck,
                "decks": decks,
            },
        )
        self.damage(d, cas_on_d, a.ship.side, "boarding")
        self.damage(a, cas_on_a, d.ship.side, "boarding")
        if not (self.afloat(a) and self.afloat(d)):
            return
        if new_deck > decks:
            self.capture(a, d)
        elif new_deck < 1:
            a.sheet["melee"] = None
            d.sheet["melee"] = None
            self.ev(
                "pushed_back",
                f"{a.ship.name}'s boarders are pushed back to their own ship (15.).",
                ship_id=a.ship.id,
                target_id=d.ship.id,
            )
        else:
            m: dict[str, JSON] = {"attacker": a.ship.id, "defender": d.ship.id, "deck": new_deck}
            a.sheet["melee"] = dict(m)
            d.sheet["melee"] = dict(m)

    def capture(self, a: Rec, d: Rec) -> None:
        prize = C.prize_crew(S.points_start(d.ship))
        a.sheet["melee"] = None
        d.sheet["melee"] = None
        if S.inum(a.sheet.get("points")) > prize:
            a.sheet["points"] = S.inum(a.sheet.get("points")) - prize
            d.status = "captured"
            d.sheet["captured_by"] = a.ship.id
            d.sheet["prize_crew"] = prize
            self.release(d)
            self.ev(
                "captured",
                f"{a.ship.name} carries every deck and captures {d.ship.name}; a prize crew of "
                f"{prize} goes aboard (15., 16.).",
                ship_id=a.ship.id,
                target_id=d.ship.id,
                outcome="captured",
            )
        else:
            d.status = "struck"
            self.release(d)
            self.ev(
                "struck",
                f"{d.ship.name} is taken but {a.ship.name} cannot muster a prize crew of {prize}: she "
                "is turned loose (16., NW-SAIL-16).",
                ship_id=d.ship.id,
                outcome="struck",
            )

    # --- 19. separating ---------------------------------------------------------------------------------

    def cast_off(self, r: Rec) -> None:
        if not self.order(r).get("cast_off"):
            return
        oid = S.sval(r.sheet.get("entangled_with"))
        if not oid or oid not in self.recs or r.sheet.get("melee"):
            return
        o = self.recs[oid]
        v, roll = self.roll("AVG", f"{r.ship.name} separates from {o.ship.name} (19., S32)")
        mods = C.separation_modifiers(
            o.ship.side == r.ship.side, C.broadside_to_broadside(r.heading, o.heading)
        )
        total = v + sum(x for _, x in mods)
        ok = total >= T.ENTANGLE_SEPARATE_NEEDED
        self.ev(
            "cast_off",
            f"{r.ship.name} tries to separate from {o.ship.name}: average die {v} -> {total}, needs "
            f"4 or over: {'the vessels part' if ok else 'still entangled'} (19., S32, S33).",
            ship_id=r.ship.id,
            target_id=oid,
            rolls=(roll,),
            modifiers=modifiers_of(mods),
            needed=T.ENTANGLE_SEPARATE_NEEDED,
            outcome="separated" if ok else "entangled",
        )
        if ok:
            for x in (r, o):
                x.sheet["entangled_with"] = None
                x.sheet["entangle_distance"] = 0
                x.sheet["entangle_still"] = False
                x.speed = 0.0  # "move off as normal on their next move": no minimum from the entangled drift

    # --- end of move ------------------------------------------------------------------------------------

    def end_of_move(self, mine: list[Rec]) -> None:
        for r in mine:
            sh = r.sheet
            try:
                values = END_OF_MOVE_VALUES(sh)  # (map(sh.get, END_OF_MOVE_KEYS), in one call)
                due = values != END_OF_MOVE_CLEAR and any(values)
            except KeyError:
                due = any(map(sh.get, END_OF_MOVE_KEYS))
            if not due:
                continue  # nothing below to count down or check (most ships)
            # (a counter that is 0, None or absent is read as 0 without S.inum: most are)
            for key in ("no_turn_moves", "no_signals_moves", "drift_moves"):
                if sh.get(key) and S.inum(sh.get(key)) > 0:
                    sh[key] = S.inum(sh.get(key)) - 1
            if sh.get("dismasted"):
                sh["dismasted_moves"] = S.inum(sh.get("dismasted_moves")) + 1
            left = S.inum(sh.get("anchor_raise_left")) if sh.get("anchor_raise_left") else 0
            if left > 0:
                sh["anchor_raise_left"] = left - 1
                if left - 1 == 0:
                    sh["anchored"] = False
                    self.ev(
                        "anchor",
                        f"{r.ship.name} has her anchor up (22.).",
                        ship_id=r.ship.id,
                        outcome="weighed",
                    )
            left = S.inum(sh.get("make_sail_left")) if sh.get("make_sail_left") else 0
            if left > 0:
                sh["make_sail_left"] = left - 1
                if left - 1 == 0:
                    sh["sails"] = "set"
                    self.ev(
                        "sails", f"{r.ship.name} has her sails set (22.).", ship_id=r.ship.id, outcome="set"
                    )
            tgt = sh.get("tow_target")
            if tgt and isinstance(tgt, str) and tgt in self.recs:
                t = self.recs[tgt]
                if distance(t.pos, r.pos) > T.TOW_REACH_MM + T.TOW_LINE_MM or t.status != "active":
                    sh["tow_target"] = None
                    sh["tow_secure_left"] = 0
                    self.ev(
                        "tow",
                        f"{r.ship.name} loses touch with {t.ship.name}: no tow (9.).",
                        ship_id=r.ship.id,
                        visible_to=(r.ship.side,),
                    )
                else:
                    left = S.inum(sh.get("tow_secure_left")) - 1
                    sh["tow_secure_left"] = left
                    if left <= 0:
                        sh["tow_target"] = None
                        sh["towing"] = tgt
                        t.sheet["towed_by"] = r.ship.id
                        self.ev(
                            "tow",
                            f"{r.ship.name} has {t.ship.name} in tow: at most 25% of her move (9.).",
                            ship_id=r.ship.id,
                            target_id=tgt,
                            outcome="towing",
                        )
        # 18., S31: compulsory striking below 20% when the vessel cannot escape further fire (NW-SAIL-10)
        for r in self.recs.values():
            if r.status != "active":
                continue
            have, start = r.sheet.get("points"), r.ship.sheet.get("points_start")
            if type(have) is not int or type(start) is not int:  # S.inum(), S.points_start(): their calls
                have, start = S.inum(have), S.points_start(r.ship)  # only for an odd sheet
            if have >= start * T.STRIKE_BELOW_FRACTION:
                continue
            threat = self.threat(r)
            if threat:
                self.strike(
                    r,
                    f"strikes her colours: below 20% of her points and under the guns of {threat} "
                    "(18., S31, NW-SAIL-10)",
                )

    def threat(self, r: Rec) -> str | None:
        vis = self.cond.visibility
        for o in self.recs.values():
            if o.status != "active" or o.ship.side == r.ship.side:
                continue
            d = distance(o.pos, r.pos)
            if vis is not None and d > vis:
                continue
            guns = S.dval(o.sheet.get("guns"))
            if S.inum(guns.get("starboard")) + S.inum(guns.get("port")) > 0 and d <= C.max_range(
                S.rate_of(o.ship)
            ):
                return o.ship.name
        for t in self.terrain:
            if (
                t.kind == "battery"
                and S.sval(t.props.get("side")) != r.ship.side
                and not t.props.get("silenced")
                and (
                    not t.props.get("under_construction")
                    or C.manned_guns(S.inum(t.props.get("guns")), S.inum(t.props.get("party"))) > 0
                )
                and isinstance(t.position, Point)
                and distance(t.position, r.pos) <= C.max_range("1st")
            ):
                return S.sval(t.props.get("name"), "a shore battery")
        return None


def state_map(state: BattleState) -> tuple[float, float]:
    return state.map.width, state.map.height


def conditions_for(cond: Conditions, number: int) -> Conditions:
    """Return conditions with the weather of ``number`` (4.; S04) and visibility halved at night (A2)."""
    wc, wf, wv = C.weather_from_number(number)
    extra = dict(cond.extra)
    extra["weather_number"] = number
    extra["weather_visibility"] = wv
    return replace(cond, weather=wc, wind_force=wf, visibility=C.visibility_mm(wv, cond.night), extra=extra)
