"""The record sheet of ``ww2_jackson``: class data (A4, W02) and the sheet state kept in ``ShipState.sheet``.

Class stats (``ShipState.stats``, the A4 record sheet; :data:`CLASS_SCHEMA` in ``schema.py``) are parsed into
:class:`ClassData`. Box areas (keys used everywhere, in events and orders):

- ``main`` / ``secondary``: one box per turret or mount: a row of ``stats.guns`` (index into that list);
- ``torpedo``: one box per tube mount: a row of ``stats.torpedoes``;
- ``aa``, ``above`` (general above water, no armour), ``above_armoured`` (general above water with the belt
  letter), ``underwater`` (general underwater), ``engine``, ``damage_control``, ``fire_control``: counts.

Armour letters: a gun box has its own; ``above_armoured`` has ``stats.belt``; ``underwater`` and ``engine``
carry the underwater protection letter (seed line 288; NW-WW2-04); every other box is unarmoured.

**Sheet JSON** (``ShipState.sheet``; the website draws the status sheet from it)::

    {
      "guns_lost": [2],                 # indexes of stats.guns rows (turret/mount boxes) marked
      "torpedo_lost": [0],              # indexes of stats.torpedoes rows (mount boxes) marked
      "loaded": [4, 4],                 # torpedoes in the tubes, per mount (a lost mount's wait in it)
      "reloads": 8,                     # reload torpedoes left
      "marked": {"aa": 0, "above": 2, "above_armoured": 1, "underwater": 0, "engine": 1,
                 "damage_control": 1, "fire_control": 0},   # boxes marked per counted area
      "wrecked_engines": 0,             # engine boxes marked for good (boiler / fuel 1-2), never restored
      "half": 1,                        # W32 half-box credit carried (0 or 1)
      "last_marks": [{"area": "engine", "index": null}],    # marked in the turn just resolved (DC)
      "fires": [{"intensity": 1, "since": 3}],               # fire: intensity 1 or 2, turn it began
      "floods": [{"kind": "critical", "per_turn": 1, "per_turn_fast": 2, "fail": "capsize", "fail_on": 1,
                  "since": 4}],         # progressive flooding: "torpedo" (W35) or "critical"
      "conditions": {"bridge": {"since": 3, "until": null, "fixed": false},
                     "electrical": {"since": 4, "until": 6, "fixed": false}},
                                        # criticals in effect (see CONDITIONS); until = last turn in
                                        # force (null: till recovered); fixed = no repair
      "helm": {"course": 270.0, "speed": 20.0},              # helm order queued (steering damage)
      "cleared": true,                  # cleared for action (W11)
      "last_targets": {"main": "bismarck"},                  # each battery's target last turn (A6)
      "fired": false,                   # fired guns in the turn just resolved (night gun flashes, A2)
      "turned": 0.0,                    # degrees of course change in the turn just resolved
      "searchlight": "",                # target lit by this ship's searchlight last turn
      "star_shell": "",                 # target lit by this ship's star shell last turn
      "preference": "keep_afloat",      # standing damage-allocation preference (order field)
      "max_speed": 26.0,                # knots the damaged ship can make now (W38)
      "hits": [{"turn": 2, "by": "bismarck", "calibre": 15.0, "location": "main", "penetrated": true}]
                                        # the hits scored on the ship, as the enemy sees them (A2)
    }
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from ...model import JSON

COUNT_AREAS: tuple[str, ...] = (
    "aa",
    "above",
    "above_armoured",
    "underwater",
    "engine",
    "damage_control",
    "fire_control",
)
GUN_AREAS: tuple[str, ...] = ("main", "secondary")
ALL_AREAS: tuple[str, ...] = ("main", "secondary", "torpedo", *COUNT_AREAS)
UNDERWATER_AREAS: tuple[str, ...] = ("underwater", "engine")

CONDITIONS: dict[str, str] = {
    "bridge": "Bridge hit: straight ahead, no change of speed or heading till a 16+ (a 1: withdraws).",
    "steering": "Steering damaged: the ship executes last turn's helm order.",
    "ammo_short": "Ammunition short: half fire dice till a 16+ (a 1: exhausted).",
    "ammo_exhausted": "Ammunition exhausted: no more main battery fire.",
    "electrical": "Electrical failure: no radar, no searchlights, half gunnery dice.",
    "boiler": "Smoke in the boiler rooms: half speed till repaired or a 16+ (1-2: two engine boxes lost).",
    "fuel": "Fuel contaminated: half speed till repaired or a 16+ (1-2: two engine boxes lost).",
    "list": "List: no main armament fire for the rest of the game.",
    "no_power": "No power: dead in the water, no gunfire.",
    "guns_silent": "No gun armament fire (ammunition supply interrupted).",
    "no_main_fire": "Magazines flooded: no main armament fire for the rest of the game.",
    "radar_out": "Radar knocked out.",
    "aircraft_wrecked": "Aircraft facility wrecked.",
}
REPAIRABLE: tuple[str, ...] = ("steering", "ammo_short", "boiler", "fuel", "radar_out", "electrical")
"""Conditions a damage control box may repair (A6, W41; never the bridge, line 393)."""
RECOVERABLE: tuple[str, ...] = ("bridge", "ammo_short", "boiler", "fuel")
"""Conditions that end on a recovery roll of 16+ at the end of a turn (W39)."""


def _i(v: JSON, default: int = 0) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return int(v)
    return default


def _f(v: JSON, default: float = 0.0) -> float:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    return default


def _s(v: JSON, default: str = "") -> str:
    return v if isinstance(v, str) else default


def _b(v: JSON, default: bool = False) -> bool:
    return v if isinstance(v, bool) else default


def _rows(v: JSON) -> list[dict[str, JSON]]:
    if not isinstance(v, list):
        return []
    return [r for r in v if isinstance(r, dict)]


@dataclass(frozen=True, slots=True, kw_only=True)
class GunBox:
    """A main or secondary armament box: a turret or mount, its guns, calibre and arcs."""

    index: int
    area: str
    name: str
    calibre: float
    kind: str
    guns: int
    armour: str
    forward: bool
    aft: bool
    broadside: bool
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TorpedoMount:
    """A torpedo tube mount box: tubes, torpedo calibre (18/21/24), side, fixed (battleship) tubes."""

    index: int
    name: str
    calibre: int
    tubes: int
    side: str
    fixed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassData:
    """A ship class's record sheet, parsed from its stats."""

    type: str
    tonnage: int
    speed: float
    turning: str
    underwater_protection: str
    belt: str
    radar: str
    aircraft: int
    guns: tuple[GunBox, ...]
    torpedoes: tuple[TorpedoMount, ...]
    torpedo_reloads: int
    counts: dict[str, int]
    caps: dict[str, int] = field(default_factory=dict)
    """Boxes per area (every area of ALL_AREAS), computed once by :func:`parse_class`."""
    gun_pick: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Per gun area, the indexes of its boxes in the order the owner gives them up: strongest armour first,
    the last listed first among equals (NW-WW2-05); computed once by :func:`parse_class`."""
    bfn_memo: dict[tuple[str, str, str, tuple[int, ...]], tuple[tuple[float, str, int], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Memo of :func:`.gunnery.bfn_by_calibre` by (area, arc, side, guns lost): it depends on nothing else."""
    speed_memo: dict[tuple[int, int], float] = field(default_factory=dict, compare=False, repr=False)
    """Memo of :func:`.movement.max_speed` of a sheet with no condition, by its (engine, underwater) boxes
    marked: it depends on nothing else then."""

    @property
    def capital(self) -> bool:
        """Battleships, battlecruisers and carriers use the capital critical table (W26)."""
        return self.type in ("battleship", "battlecruiser", "carrier")

    @property
    def small(self) -> bool:
        """Destroyer-size or smaller (the -1 large ship against small, the -2 agile torpedo target)."""
        return self.type in ("destroyer", "small_craft")

    def capacity(self, area: str) -> int:
        """Return the number of boxes in an area."""
        return self.caps.get(area, 0)

    def armour(self, area: str, index: int | None = None) -> str:
        """Return the armour letter of a box ("" when unarmoured)."""
        if area in GUN_AREAS and index is not None:
            return self.guns[index].armour
        if area == "above_armoured":
            return self.belt
        if area in UNDERWATER_AREAS:
            return self.underwater_protection
        return ""

    def turning_class(self) -> str:
        """Return the turning circle class: destroyer, cruiser or capital (lines 401-407)."""
        if self.turning:
            return self.turning
        if self.type in ("destroyer", "small_craft"):
            return "destroyer"
        if self.type == "cruiser":
            return "cruiser"
        return "capital"


def parse_class(stats: Mapping[str, JSON]) -> ClassData:
    """Return the class data of valid stats (see ``schema.CLASS_SCHEMA``)."""
    guns = tuple(
        GunBox(
            index=i,
            area=_s(r.get("area"), "main"),
            name=_s(r.get("name")) or f"{_s(r.get('area'), 'main')} {i + 1}",
            calibre=_f(r.get("calibre"), 4.0),
            kind=_s(r.get("kind"), "standard"),
            guns=_i(r.get("guns"), 1),
            armour=_s(r.get("armour")),
            forward=_b(r.get("forward")),
            aft=_b(r.get("aft")),
            broadside=_b(r.get("broadside"), True),
            side=_s(r.get("side"), "centre"),
        )
        for i, r in enumerate(_rows(stats.get("guns")))
    )
    torps = tuple(
        TorpedoMount(
            index=i,
            name=_s(r.get("name")) or f"torpedo mount {i + 1}",
            calibre=_i(r.get("calibre"), 21),
            tubes=_i(r.get("tubes"), 1),
            side=_s(r.get("side"), "centre"),
            fixed=_b(r.get("fixed")),
        )
        for i, r in enumerate(_rows(stats.get("torpedoes")))
    )
    counts = {a: _i(stats.get(a)) for a in COUNT_AREAS}
    caps = dict(counts)
    for area in GUN_AREAS:
        caps[area] = sum(1 for g in guns if g.area == area)
    caps["torpedo"] = len(torps)
    gun_pick = {
        area: tuple(
            sorted(
                (g.index for g in guns if g.area == area),
                key=lambda i: (armour_rank(guns[i].armour), i),
                reverse=True,
            )
        )
        for area in GUN_AREAS
    }
    return ClassData(
        caps=caps,
        gun_pick=gun_pick,
        type=_s(stats.get("type"), "cruiser"),
        tonnage=_i(stats.get("tonnage")),
        speed=_f(stats.get("speed")),
        turning=_s(stats.get("turning")),
        underwater_protection=_s(stats.get("underwater_protection")),
        belt=_s(stats.get("belt")),
        radar=_s(stats.get("radar"), "none"),
        aircraft=_i(stats.get("aircraft")),
        guns=guns,
        torpedoes=torps,
        torpedo_reloads=_i(stats.get("torpedo_reloads")),
        counts=counts,
    )


@dataclass(slots=True)
class Fire:
    """A fire aboard: intensity 1 (one box a turn) or 2 (intensified), and the turn it began."""

    intensity: int
    since: int


@dataclass(slots=True)
class Flood:
    """Progressive flooding: ``torpedo`` (W35, lines 382-386) or ``critical`` (the critical tables)."""

    kind: str
    since: int
    per_turn: int = 1
    per_turn_fast: int = 1
    fail: str = ""
    fail_on: int = 0


@dataclass(slots=True)
class Cond:
    """A critical effect in force from turn ``since`` until the end of turn ``until`` (None: till
    recovered)."""

    since: int
    until: int | None = None
    fixed: bool = False


@dataclass(slots=True)
class Sheet:
    """The mutable working copy of a ship's sheet during a phase (see the module docstring for the JSON)."""

    guns_lost: list[int] = field(default_factory=list)
    torpedo_lost: list[int] = field(default_factory=list)
    loaded: list[int] = field(default_factory=list)
    reloads: int = 0
    marked: dict[str, int] = field(default_factory=lambda: {a: 0 for a in COUNT_AREAS})
    wrecked_engines: int = 0
    half: int = 0
    last_marks: list[tuple[str, int | None]] = field(default_factory=list)
    fresh: list[tuple[str, int | None]] = field(default_factory=list)
    fires: list[Fire] = field(default_factory=list)
    floods: list[Flood] = field(default_factory=list)
    conditions: dict[str, Cond] = field(default_factory=dict)
    helm: tuple[float, float] | None = None
    cleared: bool = True
    last_targets: dict[str, str] = field(default_factory=dict)
    fired: bool = False
    turned: float = 0.0
    searchlight: str = ""
    star_shell: str = ""
    preference: str = "keep_afloat"
    max_speed: float = 0.0
    hits: list[dict[str, JSON]] = field(default_factory=list)
    """The hits scored on the ship (see the module docstring): a hit is appended, never changed, so a sheet
    and its JSON share them."""

    # --- boxes ----------------------------------------------------------------------------------

    def remaining(self, cd: ClassData, area: str) -> int:
        """Return the intact boxes of an area."""
        if area in GUN_AREAS:
            # the boxes of the area less those lost (guns_lost is short; the class may have many boxes)
            gl = self.guns_lost
            if not gl:
                return cd.caps.get(area, 0)
            guns = cd.guns
            lost = sum(1 for i in set(gl) if 0 <= i < len(guns) and guns[i].area == area)
            return cd.caps.get(area, 0) - lost
        if area == "torpedo":
            return len(cd.torpedoes) - len(self.torpedo_lost)
        n = cd.counts.get(area, 0) - self.marked.get(area, 0)
        return n if n > 0 else 0

    def remaining_by_area(self, cd: ClassData) -> dict[str, int]:
        """Return :meth:`remaining` of every area of ALL_AREAS, in that order, computed in one pass."""
        out: dict[str, int] = {}
        caps = cd.caps
        gl = self.guns_lost
        if gl:
            guns = cd.guns
            for area in GUN_AREAS:
                lost = sum(1 for i in set(gl) if 0 <= i < len(guns) and guns[i].area == area)
                out[area] = caps.get(area, 0) - lost
        else:
            for area in GUN_AREAS:
                out[area] = caps.get(area, 0)
        out["torpedo"] = len(cd.torpedoes) - len(self.torpedo_lost)
        counts, marked = cd.counts, self.marked
        for area in COUNT_AREAS:
            n = counts.get(area, 0) - marked.get(area, 0)
            out[area] = n if n > 0 else 0
        return out

    def intact_boxes(self, cd: ClassData, area: str) -> list[int]:
        """Return the indexes of intact gun or torpedo boxes of an area, in sheet order."""
        if area in GUN_AREAS:
            return [g.index for g in cd.guns if g.area == area and g.index not in self.guns_lost]
        if area == "torpedo":
            return [t.index for t in cd.torpedoes if t.index not in self.torpedo_lost]
        return []

    def mark(self, cd: ClassData, area: str, index: int | None = None) -> tuple[str, int | None] | None:
        """Mark one box of an area (a given gun/torpedo box, or the sheet's choice); return it, None if none
        left.

        A gun box chosen by the sheet is the intact one with the strongest armour, the last listed among
        equals (the owner's choice, NW-WW2-05).
        """
        if area == "main" or area == "secondary":
            lost = self.guns_lost
            guns = cd.guns
            if index is None or index in lost or not 0 <= index < len(guns) or guns[index].area != area:
                for index in cd.gun_pick[area]:  # the owner's order of choice (NW-WW2-05)
                    if index not in lost:
                        break
                else:
                    return None
            lost.append(index)
            lost.sort()
            box: tuple[str, int | None] = (area, index)
        elif area == "torpedo":
            intact = self.intact_boxes(cd, area)
            if not intact:
                return None
            if index is None or index not in intact:
                index = intact[-1]
            # The mount's torpedoes stay in its tubes, unusable while the box is marked: a damage control box
            # crossed off "instead of the torpedo tubes" gives the bank back as it was (line 389).
            self.torpedo_lost.append(index)
            self.torpedo_lost.sort()
            box = (area, index)
        else:
            marked = self.marked
            n = marked.get(area, 0)
            if cd.counts.get(area, 0) - n <= 0:  # :meth:`remaining`, written out: the commonest mark
                return None
            marked[area] = n + 1
            box = (area, None)
        self.fresh.append(box)
        return box

    def restore(self, cd: ClassData, area: str, index: int | None) -> bool:
        """Restore one marked box (damage control, A6). Return False when there is no such box marked."""
        if area in GUN_AREAS:
            if index is None or index not in self.guns_lost:
                return False
            self.guns_lost.remove(index)
            return True
        if area == "torpedo":
            if index is None or index not in self.torpedo_lost:
                return False
            self.torpedo_lost.remove(index)
            return True
        floor = self.wrecked_engines if area == "engine" else 0
        if self.marked.get(area, 0) <= floor:
            return False
        self.marked[area] -= 1
        return True

    def total_boxes(self, cd: ClassData) -> int:
        """Return every box on the sheet."""
        return sum(cd.capacity(a) for a in ALL_AREAS)

    def total_remaining(self, cd: ClassData) -> int:
        """Return every intact box on the sheet."""
        return sum(self.remaining_by_area(cd).values())

    def any_remaining(self, cd: ClassData) -> bool:
        """Return ``total_remaining(cd) > 0``, stopping at the first area with a box left (the end of every
        turn asks it of every ship afloat)."""
        if len(self.torpedo_lost) > len(cd.torpedoes):
            return self.total_remaining(cd) > 0  # never from play: an area counts below zero
        counts, marked = cd.counts, self.marked
        for area in COUNT_AREAS:
            if counts.get(area, 0) - marked.get(area, 0) > 0:
                return True
        if len(cd.torpedoes) > len(self.torpedo_lost):
            return True
        return self.remaining(cd, "main") > 0 or self.remaining(cd, "secondary") > 0

    def underwater_remaining(self, cd: ClassData) -> int:
        """Return the intact underwater boxes: general underwater and engine rooms (A6)."""
        return self.remaining(cd, "underwater") + self.remaining(cd, "engine")

    def has(self, name: str, turn: int) -> bool:
        """Return True while condition ``name`` is in force in ``turn``."""
        c = self.conditions.get(name)
        return c is not None and (c.until is None or turn <= c.until)

    def fire_control(self, cd: ClassData) -> bool:
        """Return True while any fire control box is intact."""
        return self.remaining(cd, "fire_control") > 0


_ARMOUR_RANK: dict[str, int] = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}


def armour_rank(letter: str) -> int:
    """Return the strength of an armour letter: A 5 ... E 1, unarmoured 0 (the owner's choice, NW-WW2-05)."""
    return _ARMOUR_RANK.get(letter, 0)


def new_sheet(cd: ClassData) -> Sheet:
    """Return a fresh sheet for a class: every box intact, tubes loaded, reloads aboard."""
    return Sheet(loaded=[t.tubes for t in cd.torpedoes], reloads=cd.torpedo_reloads)


_INT: frozenset[type] = frozenset({int})


def sheet_from_json(cd: ClassData, data: Mapping[str, JSON]) -> Sheet:
    """Return the working sheet of a ship from its JSON (missing keys take fresh values).

    Built in one construction (every ship's sheet is read each phase); what :func:`new_sheet` gives, with
    each key present in ``data`` read over it.
    """
    if not data:
        return new_sheet(cd)
    get = data.get
    torps = cd.torpedoes
    loaded_v = get("loaded")
    if isinstance(loaded_v, list):
        # ints as they are (what _i gives for them), checked in one pass: a sheet's JSON holds nothing else
        loaded = (
            cast("list[int]", list(loaded_v))
            if set(map(type, loaded_v)) <= _INT
            else [_i(v) for v in loaded_v]
        )
    else:
        loaded = [t.tubes for t in torps]
    while len(loaded) < len(torps):
        loaded.append(torps[len(loaded)].tubes)
    marked_v = get("marked")
    if (
        isinstance(marked_v, dict)
        and tuple(marked_v) == COUNT_AREAS
        and set(map(type, marked_v.values())) == _INT
    ):
        # what sheet_to_json writes: every counted area in order, an int each: copied as it is (in C)
        marked = cast("dict[str, int]", dict(marked_v))
    elif isinstance(marked_v, dict):
        mget = marked_v.get
        raw = {a: mget(a) for a in COUNT_AREAS}
        if set(map(type, raw.values())) == _INT:
            marked = cast("dict[str, int]", raw)
        else:  # a value missing or not an int: _i() of each
            marked = {a: _i(v) for a, v in raw.items()}
    else:
        marked = dict.fromkeys(COUNT_AREAS, 0)
    last_marks: list[tuple[str, int | None]] = []
    v = get("last_marks")
    if v:  # most sheets have none: no row filter, no comprehension (the same for the lists below)
        for m in _rows(v):
            idx = m.get("index")
            last_marks.append((_s(m.get("area")), None if idx is None else _i(idx)))
    v = get("fires")
    fires = (
        [Fire(intensity=_i(f.get("intensity"), 1), since=_i(f.get("since"))) for f in _rows(v)] if v else []
    )
    v = get("floods")
    floods = (
        [
            Flood(
                kind=_s(f.get("kind"), "torpedo"),
                since=_i(f.get("since")),
                per_turn=_i(f.get("per_turn"), 1),
                per_turn_fast=_i(f.get("per_turn_fast"), 1),
                fail=_s(f.get("fail")),
                fail_on=_i(f.get("fail_on")),
            )
            for f in _rows(v)
        ]
        if v
        else []
    )
    conditions: dict[str, Cond] = {}
    conds = get("conditions")
    if conds and isinstance(conds, dict):
        for k, c in conds.items():
            if isinstance(c, dict):
                until = c.get("until")
                conditions[k] = Cond(
                    since=_i(c.get("since")),
                    until=None if until is None else _i(until),
                    fixed=_b(c.get("fixed")),
                )
    helm_v = get("helm")
    helm = (_f(helm_v.get("course")), _f(helm_v.get("speed"))) if isinstance(helm_v, dict) else None
    lt = get("last_targets")
    last_targets = {k: t for k, t in lt.items() if isinstance(t, str)} if lt and isinstance(lt, dict) else {}
    gl = get("guns_lost")
    tl = get("torpedo_lost")
    hits = get("hits")
    # The scalars: a value of the right type is taken as it is (what _i/_f/_b/_s give for it), without a call.
    reloads = get("reloads")
    wrecked = get("wrecked_engines")
    half = get("half")
    cleared = get("cleared")
    fired = get("fired")
    turned = get("turned")
    searchlight = get("searchlight")
    star_shell = get("star_shell")
    preference = get("preference")
    max_spd = get("max_speed")
    # Built with its fields by position, in field order (a dataclass called with 22 keywords packs them into a
    # dict and unpacks it again: several times the cost of the stores; every ship's sheet is read each phase).
    return Sheet(
        sorted(_i(x) for x in cast("list[JSON]", gl)) if gl else [],  # guns_lost
        sorted(_i(x) for x in cast("list[JSON]", tl)) if tl else [],  # torpedo_lost
        loaded,
        reloads if type(reloads) is int else _i(reloads, cd.torpedo_reloads),  # reloads
        marked,
        wrecked if type(wrecked) is int else _i(wrecked),  # wrecked_engines
        half if type(half) is int else _i(half),  # half
        last_marks,
        [],  # fresh
        fires,
        floods,
        conditions,
        helm,
        cleared if type(cleared) is bool else True,  # cleared
        last_targets,
        fired if type(fired) is bool else False,  # fired
        turned if type(turned) is float else _f(turned),  # turned
        searchlight if type(searchlight) is str else "",  # searchlight
        star_shell if type(star_shell) is str else "",  # star_shell
        preference if type(preference) is str else "keep_afloat",  # preference
        max_spd if type(max_spd) is float else _f(max_spd),  # max_speed
        _rows(hits) if hits else [],  # hits: a new list; the hits themselves are never changed: shared
    )


def sheet_to_json(sh: Sheet, *, own: bool = False) -> dict[str, JSON]:
    """Return the JSON of a working sheet (the shape in the module docstring).

    ``own``: the sheet is not used afterwards (the end of a phase), so the JSON takes its lists of gun and
    torpedo boxes lost, torpedoes loaded and hits as they are, without a copy.
    """
    # (an empty list or dict is written without a comprehension: most sheets have no fire, flood, condition)
    conds: dict[str, JSON] = (
        {k: {"since": c.since, "until": c.until, "fixed": c.fixed} for k, c in sorted(sh.conditions.items())}
        if sh.conditions
        else {}
    )
    marked = sh.marked
    return {
        "guns_lost": cast("list[JSON]", sh.guns_lost) if own else list(sh.guns_lost),
        "torpedo_lost": cast("list[JSON]", sh.torpedo_lost) if own else list(sh.torpedo_lost),
        "loaded": cast("list[JSON]", sh.loaded) if own else list(sh.loaded),
        "reloads": sh.reloads,
        # every counted area in order: a copy (in C) of a marked dict of that shape (sheet_from_json's)
        "marked": dict(marked)
        if tuple(marked) == COUNT_AREAS
        else {a: marked.get(a, 0) for a in COUNT_AREAS},
        "wrecked_engines": sh.wrecked_engines,
        "half": sh.half,
        "last_marks": [{"area": a, "index": i} for a, i in sh.last_marks] if sh.last_marks else [],
        "fires": [{"intensity": f.intensity, "since": f.since} for f in sh.fires] if sh.fires else [],
        "floods": [
            {
                "kind": f.kind,
                "since": f.since,
                "per_turn": f.per_turn,
                "per_turn_fast": f.per_turn_fast,
                "fail": f.fail,
                "fail_on": f.fail_on,
            }
            for f in sh.floods
        ]
        if sh.floods
        else [],
        "conditions": conds,
        "helm": None if sh.helm is None else {"course": sh.helm[0], "speed": sh.helm[1]},
        "cleared": sh.cleared,
        "last_targets": dict(sorted(sh.last_targets.items())) if sh.last_targets else {},
        "fired": sh.fired,
        "turned": sh.turned,
        "searchlight": sh.searchlight,
        "star_shell": sh.star_shell,
        "preference": sh.preference,
        "max_speed": sh.max_speed,
        "hits": cast("list[JSON]", sh.hits)
        if own
        else list(sh.hits),  # a hit is never changed once written (shell_hit): shared
    }
