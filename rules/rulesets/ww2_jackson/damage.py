"""Damage of ``ww2_jackson``: shell hits, penetration, collateral, criticals, torpedoes, fires and flooding.

Seed 000 section 4 (lines 105-141, 237-393) and section 3's torpedo tables (lines 162-235), with rulings
W14-W35, W39, W41 and NW-WW2-03..12. The functions act on a :class:`Hull` (a ship's class data and working
sheet) and append :class:`~rules.model.Event` objects, each with the rolls made for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ... import memo
from ...base import scored_visibility
from ...dice import Dice
from ...model import JSON, Event, Modifier, Roll, new_event
from . import tables as T
from .gunnery import GunRow, halve
from .record import (
    ALL_AREAS,
    COUNT_AREAS,
    GUN_AREAS,
    RECOVERABLE,
    UNDERWATER_AREAS,
    ClassData,
    Cond,
    Fire,
    Flood,
    Sheet,
)

MAX_REROLLS = 50


@dataclass(slots=True)
class Hull:
    """A ship under resolution: its identity, class data, working sheet and motion this turn."""

    ship_id: str
    name: str
    side: str
    cd: ClassData
    sheet: Sheet
    speed: float = 0.0
    sunk: str = ""
    withdrawn: str = ""
    vis: tuple[str, ...] = field(init=False)
    """``(side,)``: the ``visible_to`` of the events only the hull's side sees (A2), one tuple for all."""

    def __post_init__(self) -> None:
        self.vis = (self.side,)


@dataclass(slots=True)
class Ctx:
    """What damage resolution needs of the phase: turn, dice, the events so far and battle options."""

    turn: int
    dice: Dice
    rolls: list[Roll] = field(init=False)
    """``dice.rolls``, read once: the recorder's own list of the rolls made, which grows as the dice fall
    (``SeededDice``, ``ScriptedDice``); bookmarks and events read it without a property call each."""
    events: list[Event] = field(default_factory=list)
    carrier_table: str = "capital"
    shell_flooding: bool = False
    claimed: set[int] = field(default_factory=set)
    """Indexes in ``dice.rolls`` of the rolls an event already carries (A8: one die, one event)."""
    claimed_max: int = -1
    """The highest index in ``claimed`` (-1: none): rolls after it are all free."""
    sides: tuple[str, ...] = ()
    """The battle's side keys: a hit is shown to the sides :func:`rules.base.scored_visibility` names."""

    def __post_init__(self) -> None:
        self.rolls = self.dice.rolls

    def roll(self, purpose: str) -> int:
        """Roll a D20 for ``purpose``."""
        return self.dice.roll("D20", purpose)

    def mark(self) -> int:
        """Return a bookmark in the dice record (see :meth:`since`)."""
        return len(self.rolls)

    def since(self, mark: int) -> tuple[Roll, ...]:
        """Return the rolls made after ``mark`` for a new event, less those an earlier event carries.

        Nested results log first (a W34 flooding roll inside a critical inside a shell hit), so each die goes
        to the event of the rule it served, and a side's view lists it once (A2, A8).
        """
        rolls = self.rolls
        n = len(rolls)
        if n <= mark:
            return ()
        claimed = self.claimed
        if self.claimed_max < mark:
            # the common case: no nested event took any of these rolls
            out = tuple(rolls[mark:n])
            if n - mark == 1:
                claimed.add(mark)
            else:
                claimed.update(range(mark, n))
        else:
            free = [i for i in range(mark, n) if i not in claimed]
            out = tuple([rolls[i] for i in free])
            claimed.update(free)
        self.claimed_max = n - 1  # every roll from mark to the last is now claimed
        return out

    def own(
        self,
        hull: Hull,
        kind: str,
        text: str,
        *,
        mark: int | None = None,
        data: dict[str, JSON] | None = None,
        outcome: str = "",
        needed: int | None = None,
        modifiers: tuple[Modifier, ...] = (),
    ) -> None:
        """Append an event only the hull's side sees (its boxes, A2)."""
        self.events.append(
            new_event(
                kind,
                f"{hull.name}: {text}",
                self.turn,
                0,
                hull.ship_id,
                None,
                self.since(mark) if mark is not None else (),
                modifiers,
                needed,
                outcome,
                data if data else {},
                hull.vis,
            )
        )

    def public(
        self, hull: Hull, kind: str, text: str, *, outcome: str = "", data: dict[str, JSON] | None = None
    ) -> None:
        """Append an event every side sees (sinking, withdrawal, a ship on fire)."""
        self.events.append(
            new_event(
                kind,
                f"{hull.name} {text}",
                self.turn,
                0,
                hull.ship_id,
                None,
                (),
                (),
                None,
                outcome,
                data or {},
                None,
            )
        )


def lookup(table: Iterable[tuple[int, int, object]], roll: int) -> object:
    """Return the entry of a banded D20 table for a roll."""
    for lo, hi, value in table:
        if lo <= roll <= hi:
            return value
    raise ValueError(f"roll {roll} not in table")


_LOCATION_BY_ROLL: dict[str, tuple[str, ...]] = {
    band: ("", *(str(lookup(table, r)) for r in range(1, 21))) for band, table in T.HIT_LOCATION.items()
}
"""The hit location tables (lines 107-134) by band, indexed by the D20 roll 1-20 (index 0 unused)."""

_LOCATED_TEXT: dict[str, tuple[str, ...]] = {
    band: ("", *(f"{locs[r]} (D20 {r})" for r in range(1, 21))) for band, locs in _LOCATION_BY_ROLL.items()
}
"""How the hit log writes a location and its roll (``main (D20 7)``), by band and roll (as above)."""


# --- boxes ------------------------------------------------------------------------------------


_AREA_TEXT: dict[str, str] = {a: a.replace("_", " ") for a in ALL_AREAS}
"""How the log names a box of each area that has no name of its own (``above_armoured``: "above armoured")."""

_COUNTED: frozenset[str] = frozenset(COUNT_AREAS)


def _box_text(cd: ClassData, box: tuple[str, int | None]) -> str:
    area, idx = box
    if idx is None:
        return _AREA_TEXT.get(area) or area.replace("_", " ")
    if area in GUN_AREAS:
        return cd.guns[idx].name
    if area == "torpedo":
        return cd.torpedoes[idx].name
    return area.replace("_", " ")


def _boxes(cd: ClassData, boxes: list[tuple[str, int | None]]) -> tuple[str, list[JSON]]:
    """Return the log's list of ``boxes`` (``-`` for none) and their JSON, in one pass: what
    ``', '.join(_box_text(...)) or '-'`` and ``[_box_json(...)]`` give (a shell hit writes both)."""
    if not boxes:
        return "-", []
    area, idx = box = boxes[0]
    # a counted area's box (index None) is named by _AREA_TEXT: _box_text without its call
    name = (_AREA_TEXT.get(area) or _box_text(cd, box)) if idx is None else _box_text(cd, box)
    if len(boxes) == 1:  # the commonest list (a located box, one box of collateral): no list building
        return name or "-", [{"area": area, "index": idx}]
    if idx is None and boxes.count(box) == len(boxes):  # collateral in one counted area (allocate)
        return ", ".join([name] * len(boxes)) or "-", [{"area": area, "index": None} for _ in boxes]
    names = [_box_text(cd, b) for b in boxes]
    return ", ".join(names) or "-", [{"area": a, "index": i} for a, i in boxes]


def allocate(ctx: Ctx, hull: Hull, n: int, why: str) -> list[tuple[str, int | None]]:
    """Mark ``n`` boxes of the owner's choice by the standing preference (lines 139-141, NW-WW2-06).

    The sheet never marks the last underwater box (general underwater and engine, A6) while another box is
    left.
    """
    out: list[tuple[str, int | None]] = []
    if n <= 0:
        return out
    sh, cd = hull.sheet, hull.cd
    order = T.DAMAGE_PREFERENCES.get(sh.preference, T.DAMAGE_PREFERENCES[T.DEFAULT_PREFERENCE])
    if len(sh.torpedo_lost) > len(cd.torpedoes):
        # A sheet that lists more lost mounts than the class has (never from play): its areas' counts do not
        # add up, so count them all first.
        return _allocate_counted(sh, cd, order, n)
    # Every area's count is 0 or more: the first area of the preference with a box left is taken, and the
    # whole sheet is counted only to spare the last underwater box.
    counts, marks = cd.counts, sh.marked
    first = order[0]
    if first in _COUNTED and first not in UNDERWATER_AREAS:
        done = marks.get(first, 0)
        if counts.get(first, 0) - done >= n:
            # The first choice has a box left for every one (collateral, mostly): each turn of the loop below
            # would take it (Sheet.mark of a counted area, n times at once); one box tuple serves them all.
            marks[first] = done + n
            out = [(first, None)] * n
            sh.fresh.extend(out)
            return out
    remaining = sh.remaining
    for _ in range(n):
        chosen = None
        for area in order:
            # Sheet.remaining(), written out for the counted areas (the first choices of every preference)
            if area in _COUNTED:
                if counts.get(area, 0) - marks.get(area, 0) <= 0:
                    continue
            elif remaining(cd, area) <= 0:
                continue
            if (
                area in UNDERWATER_AREAS
                and remaining(cd, "underwater") + remaining(cd, "engine") <= 1
                and sh.total_remaining(cd) > 1
            ):
                continue
            chosen = area
            break
        if chosen is None:
            chosen = next((a for a in ALL_AREAS if remaining(cd, a) > 0), None)
            if chosen is None:
                break  # every box marked
        box = sh.mark(cd, chosen)
        if box is not None:
            out.append(box)
    return out


def _allocate_counted(
    sh: Sheet, cd: ClassData, order: tuple[str, ...], n: int
) -> list[tuple[str, int | None]]:
    """:func:`allocate` from the intact boxes of each area counted once (a mark takes one from its area)."""
    out: list[tuple[str, int | None]] = []
    left = sh.remaining_by_area(cd)
    total = sum(left.values())
    for _ in range(n):
        if total <= 0:
            break
        chosen = None
        for area in order:
            if left[area] <= 0:
                continue
            if area in UNDERWATER_AREAS and left["underwater"] + left["engine"] <= 1 and total > 1:
                continue
            chosen = area
            break
        if chosen is None:
            chosen = next(a for a in ALL_AREAS if left[a] > 0)
        box = sh.mark(cd, chosen)
        if box is not None:
            out.append(box)
            left[chosen] -= 1
            total -= 1
    return out


def mark_area(
    ctx: Ctx, hull: Hull, area: str, n: int, why: str, *, substitute: bool = True
) -> list[tuple[str, int | None]]:
    """Mark ``n`` boxes in an area; when it is used up, substitute by preference (line 139) if ``substitute``.

    ``above`` takes the unarmoured general above-water boxes first, then the belt boxes (no shell to stop
    here).
    """
    out: list[tuple[str, int | None]] = []
    for _ in range(n):
        box = None
        if area == "above":
            box = hull.sheet.mark(hull.cd, "above") or hull.sheet.mark(hull.cd, "above_armoured")
        elif area == "underwater":
            out.extend(general_underwater(ctx, hull, 1, why))
            continue
        elif area == "engine":
            out.extend(engine_hits(ctx, hull, 1, why))
            continue
        else:
            box = hull.sheet.mark(hull.cd, area)
        if box is not None:
            out.append(box)
        elif substitute:
            out.extend(allocate(ctx, hull, 1, why))
    return out


def general_underwater(ctx: Ctx, hull: Hull, n: int, why: str) -> list[tuple[str, int | None]]:
    """Mark ``n`` general underwater hits (W19). Once none are left, roll a D20 per hit: 16+ marks one
    remaining underwater box, an engine room (lines 252-254, W34)."""
    out: list[tuple[str, int | None]] = []
    for _ in range(n):
        box = hull.sheet.mark(hull.cd, "underwater")
        if box is not None:
            out.append(box)
            continue
        if hull.sheet.remaining(hull.cd, "engine") <= 0:
            continue
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} extra flooding (W34)")
        if r >= T.EXTRA_FLOODING_NEEDED:
            box = hull.sheet.mark(hull.cd, "engine")
            if box is not None:
                out.append(box)
        ctx.own(
            hull,
            "flooding",
            f"general underwater boxes gone: extra flooding roll {r} "
            f"({'engine room flooded' if r >= T.EXTRA_FLOODING_NEEDED else 'no hit'}, 16+, W34).",
            mark=m,
            needed=T.EXTRA_FLOODING_NEEDED,
            outcome="hit" if r >= T.EXTRA_FLOODING_NEEDED else "none",
        )
    return out


def engine_hits(ctx: Ctx, hull: Hull, n: int | str, why: str) -> list[tuple[str, int | None]]:
    """Mark engine boxes; ``"all"`` marks every remaining one (W19). With none left, a hit is a general
    underwater hit (NW-WW2-07)."""
    out: list[tuple[str, int | None]] = []
    count = hull.sheet.remaining(hull.cd, "engine") if n == "all" else int(n)
    for _ in range(count):
        box = hull.sheet.mark(hull.cd, "engine")
        if box is not None:
            out.append(box)
        else:
            out.extend(general_underwater(ctx, hull, 1, why))
    return out


def mark_all(hull: Hull, area: str) -> list[tuple[str, int | None]]:
    """Mark every remaining box of an area."""
    out: list[tuple[str, int | None]] = []
    while True:
        box = hull.sheet.mark(hull.cd, area)
        if box is None:
            return out
        out.append(box)


# --- penetration --------------------------------------------------------------------------------


def penetration_needed(row: str, letter: str) -> int:
    """Return the D20 needed to penetrate armour ``letter`` (T.NO: cannot, T.ALL: automatic; "" is
    unarmoured)."""
    if not letter:
        return T.ALL
    return T.PENETRATION[row][letter]


def penetrates(ctx: Ctx, row: str, letter: str, band: str, what: str) -> tuple[bool, int | None, int | None]:
    """Roll penetration of a shell of penetration row ``row`` against armour ``letter`` (lines 272-288).

    W31: +5 to the roll at short range; NO stays impossible and ALL automatic. Return (penetrated, roll,
    needed).
    """
    needed = penetration_needed(row, letter)
    if needed == T.NO:
        return False, None, None
    if needed == T.ALL:
        return True, None, None
    r = ctx.roll(f"penetration {what}")
    bonus = T.SHORT_RANGE_PENETRATION_BONUS if band == "short" else 0
    return r + bonus >= needed, r, needed


# --- shell hits ---------------------------------------------------------------------------------

_G_TEXT: dict[float, str] = memo.table({})


def g_text(x: float) -> str:
    """Return ``f"{x:g}"``, remembered: the log writes calibres, speeds and moves over and over (a phase's
    guns have a few calibres, its ships a few speeds), and formatting a float costs far more than a look-up.
    Only positive numbers are kept: -0.0 and 0.0 are one key but two texts."""
    text = _G_TEXT.get(x)
    if text is None:
        text = f"{x:g}"
        if x > 0:
            if len(_G_TEXT) >= 1024:
                _G_TEXT.clear()
            _G_TEXT[x] = text
    return text


def shell_hit(
    ctx: Ctx,
    hull: Hull,
    row: GunRow,
    calibre: float,
    band: str,
    firer: str,
    firer_side: str,
    count: int = 1,
    cal_text: str = "",
) -> None:
    """Resolve one shell hit (lines 105-141, 237-288): location, penetration, located box and collateral.

    W29: a shell that does not penetrate does nothing, collateral included. W32: damage in half boxes with a
    half-box credit per target: the located box is marked when a whole box is available, the rest is
    collateral, an odd half carries. NW-WW2-03: substituted hits and collateral never roll penetration; a
    specialized or critical hit takes the located box's place.

    ``count`` hits of the same shell are resolved one after another, as many calls would, the second and
    later only while the ship is afloat; ``cal_text`` is ``g_text(calibre)`` when the caller has it.
    """
    sh, cd, turn = hull.sheet, hull.cd, ctx.turn
    cal = cal_text or g_text(calibre)
    dice = ctx.dice
    # A2, NW-CAMP-15: the hit (where it landed) is the firer's side's and the target's; every side's in two.
    hit_vis = scored_visibility(firer_side, hull.side, ctx.sides)
    rolls, events, claimed = ctx.rolls, ctx.events, ctx.claimed
    name, ship_id = hull.name, hull.ship_id
    # What every hit of this shell shares: the purpose of its dice, the location table, penetration, damage.
    loc_purpose = f"hit location on {name} ({band})"
    locations, located_texts = _LOCATION_BY_ROLL[band], _LOCATED_TEXT[band]
    pen_row = T.PENETRATION[row.penetration]
    halves = T.DAMAGE_HALVES[row.damage]  # GunRow.damage_halves
    # Intact boxes of a counted area: Sheet.remaining(), written out (this runs for every hit).
    counts, marks = cd.counts, sh.marked
    for i in range(count):
        if i and hull.sunk:
            break
        m = len(rolls)
        loc_roll = dice.roll("D20", loc_purpose)
        location = locations[loc_roll]
        # Which box the shell strikes: the owner's choice inside the area (NW-WW2-05).
        letter = ""
        target_box: tuple[str, int | None] | None = None
        w34 = False
        if location == "main" or location == "secondary":
            lost = sh.guns_lost
            for idx in cd.gun_pick[location]:
                if idx not in lost:
                    target_box = (location, idx)
                    letter = cd.guns[idx].armour
                    break
        elif location == "above":
            if counts.get("above_armoured", 0) - marks.get("above_armoured", 0) > 0:
                target_box, letter = ("above_armoured", None), cd.belt
            elif counts.get("above", 0) - marks.get("above", 0) > 0:
                target_box = ("above", None)
        elif location == "underwater":
            letter = cd.underwater_protection
            if counts.get("underwater", 0) - marks.get("underwater", 0) > 0:
                target_box = ("underwater", None)
            else:
                w34 = counts.get("engine", 0) - marks.get("engine", 0) > 0
        elif (location == "aa" or location == "engine") and counts.get(location, 0) - marks.get(
            location, 0
        ) > 0:
            target_box = (location, None)
            letter = cd.armour(location)
        pen_text = ""
        ok = True
        if letter and (target_box is not None or w34):
            # :func:`penetrates`, written out: unarmoured boxes (no letter) are penetrated without a roll.
            needed = pen_row[letter]
            if needed == T.NO or needed == T.ALL:
                ok = needed == T.ALL
                pen_text = f"; armour {letter}: {'penetrates (ALL)' if ok else 'cannot penetrate (NO)'}"
            else:
                pr = dice.roll("D20", f"penetration {cal}in vs {letter}")
                if band == "short":
                    ok = pr + T.SHORT_RANGE_PENETRATION_BONUS >= needed
                    pen_text = f"; armour {letter}: D20 {pr} +5 short range vs {needed}+ "
                else:
                    ok = pr >= needed
                    pen_text = f"; armour {letter}: D20 {pr} vs {needed}+ "
                pen_text += "penetrates" if ok else "fails"
        # Ctx.since(m), written out: the rolls since m are this hit's own (location, penetration), none
        # claimed yet (m was the record's length and every claimed index is below it).
        n = len(rolls)
        if n - m == 1:  # the location roll alone
            claimed.add(m)
            hit_rolls: tuple[Roll, ...] = (rolls[m],)
        else:
            claimed.update(range(m, n))
            hit_rolls = tuple(rolls[m:n])
        ctx.claimed_max = n - 1
        if not ok:
            sh.hits.append(
                {"turn": turn, "by": firer, "calibre": calibre, "location": location, "penetrated": False}
            )
            events.append(
                new_event(
                    "hit",
                    f"{cal}-inch hit on {name}: {located_texts[loc_roll]}{pen_text}: no damage (W29).",
                    turn,
                    0,
                    firer,
                    ship_id,
                    hit_rolls,
                    (),
                    None,
                    "no_penetration",
                    {"location": location, "calibre": calibre, "penetrated": False},
                    hit_vis,
                )
            )
            continue
        sh.hits.append(
            {"turn": turn, "by": firer, "calibre": calibre, "location": location, "penetrated": True}
        )
        events.append(
            new_event(
                "hit",
                f"{cal}-inch hit on {name}: {located_texts[loc_roll]}{pen_text}.",
                turn,
                0,
                firer,
                ship_id,
                hit_rolls,
                (),
                None,
                "hit",
                {"location": location, "calibre": calibre, "penetrated": True},
                hit_vis,
            )
        )
        available = halves + sh.half
        if available < 2:
            sh.half = available
            events.append(  # Ctx.own(), written out
                new_event(
                    "damage",
                    f"{name}: {cal}-inch hit: half a box carried (W32).",
                    turn,
                    0,
                    ship_id,
                    None,
                    (),
                    (),
                    None,
                    "",
                    {"half": available},
                    hull.vis,
                )
            )
            continue
        rest = available - 2
        sh.half = rest % 2
        collateral = rest // 2
        m2 = len(rolls)
        marked: list[tuple[str, int | None]] = []
        note = ""
        if location == "specialized":
            note = specialized_hit(ctx, hull)
        elif location == "critical":
            note = critical_hit(
                ctx, hull, shell_table(hull.cd, ctx.carrier_table), row=row, band=band, torpedo=0
            )
        elif w34:
            marked.extend(general_underwater(ctx, hull, 1, "shell"))
        elif target_box is not None:
            box = sh.mark(cd, target_box[0], target_box[1])
            if box is not None:
                marked.append(box)
        else:
            marked.extend(allocate(ctx, hull, 1, "substitution"))
            note = " (area used up: substituted, line 139)"
        coll = allocate(ctx, hull, collateral, "collateral") if collateral > 0 else []
        if location == "underwater" and ctx.shell_flooding:
            start_torpedo_flooding(ctx, hull)
        marked_text, marked_json = _boxes(cd, marked)
        coll_text, coll_json = _boxes(cd, coll) if coll else ("-", [])
        # Ctx.own(), written out (one call and its keywords less per hit that does damage).
        events.append(
            new_event(
                "damage",
                f"{name}: {cal}-inch hit on {location}{note}: marked {marked_text}; "
                f"collateral {coll_text}{'; half a box carried' if sh.half else ''}.",
                turn,
                0,
                ship_id,
                None,
                ctx.since(m2) if len(rolls) > m2 else (),
                (),
                None,
                "",
                {"located": marked_json, "collateral": coll_json, "half": sh.half},
                hull.vis,
            )
        )


def _box_json(box: tuple[str, int | None]) -> JSON:
    return {"area": box[0], "index": box[1]}


def shell_table(cd: ClassData, carrier_table: str = "capital") -> str:
    """Return the shellfire critical table of a class (W26; carriers per the battle option)."""
    if cd.type == "carrier":
        return "shell_capital" if carrier_table == "capital" else "shell_dd_cruiser"
    return "shell_capital" if cd.capital else "shell_dd_cruiser"


# --- specialized and critical hits --------------------------------------------------------------


def start_fire(ctx: Ctx, hull: Hull) -> None:
    """Set the ship on fire (lines 297-299): one more fire burning from this turn."""
    hull.sheet.fires.append(Fire(intensity=1, since=ctx.turn))
    ctx.public(hull, "fire_started", "is on fire.", outcome="fire")


def start_torpedo_flooding(ctx: Ctx, hull: Hull) -> None:
    """Start the progressive flooding process of lines 382-386 (W35), once per ship."""
    if not any(f.kind == "torpedo" for f in hull.sheet.floods):
        hull.sheet.floods.append(Flood(kind="torpedo", since=ctx.turn))


def specialized_hit(ctx: Ctx, hull: Hull) -> str:
    """Roll on the Specialized Hits table (lines 290-299, W24) and apply it; return a note for the log."""
    sh, cd = hull.sheet, hull.cd
    for _ in range(MAX_REROLLS):
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} specialized hit")
        kind = str(lookup(T.SPECIALIZED_HITS, r))
        if kind == "reroll":
            ctx.own(hull, "specialized", f"specialized hit D20 {r}: no result (W24), re-roll.", mark=m)
            continue
        if kind == "torpedo_tubes" and sh.remaining(cd, "torpedo") <= 0:
            ctx.own(
                hull,
                "specialized",
                f"specialized hit D20 {r}: torpedo tubes, but none aboard: re-roll (W24).",
                mark=m,
            )
            continue
        if kind == "radar":
            sh.conditions["radar_out"] = Cond(since=ctx.turn)
            ctx.own(
                hull, "specialized", f"specialized hit D20 {r}: radar knocked out.", mark=m, outcome="radar"
            )
            return " (radar knocked out)"
        if kind == "fire":
            ctx.own(
                hull, "specialized", f"specialized hit D20 {r}: ship on fire (W24).", mark=m, outcome="fire"
            )
            start_fire(ctx, hull)
            return " (ship on fire)"
        sub = ctx.roll(f"{hull.name} torpedo tube hit")
        what = str(lookup(T.TORPEDO_TUBE_HIT, sub))
        lost = mark_all(hull, "torpedo")
        sh.reloads = 0
        sh.loaded = [0 for _ in sh.loaded]
        if what == "warhead":
            # Lose 1/2 of all above-water boxes (W14 rounds up) and 2 underwater hits; the tubes go too
            # (NW-WW2-08).
            n = halve(cd.capacity("above") + cd.capacity("above_armoured"))
            boxes = mark_area(ctx, hull, "above", n, "warhead") + general_underwater(ctx, hull, 2, "warhead")
            ctx.own(
                hull,
                "specialized",
                f"specialized hit D20 {r}, torpedo tube hit D20 {sub}: warhead explosion, "
                f"{len(boxes)} boxes and all {len(lost)} torpedo mounts lost.",
                mark=m,
                outcome="warhead",
            )
            return " (warhead explosion)"
        ctx.own(
            hull,
            "specialized",
            f"specialized hit D20 {r}, torpedo tube hit D20 {sub}: all torpedo boxes and reloads lost.",
            mark=m,
            outcome="torpedo_tubes",
        )
        return " (torpedo tubes lost)"
    return ""


def critical_hit(
    ctx: Ctx, hull: Hull, table: str, *, row: GunRow | None = None, band: str = "long", torpedo: int = 0
) -> str:
    """Roll on a critical table and apply the result (lines 301-380); return a note for the log.

    Magazine hits: from shellfire W22 (the shell must be able to penetrate the underwater protection, else
    re-roll); from torpedoes 21" or larger, else re-roll (W21).
    """
    for _ in range(MAX_REROLLS):
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} critical ({table})")
        eff = lookup(T.CRITICAL_TABLES[table], r)
        assert isinstance(eff, dict)
        code = str(eff["effect"])
        if code == "magazine":
            if torpedo:
                if torpedo < 21:
                    ctx.own(
                        hull,
                        "critical",
                        f"critical D20 {r}: magazine, but an {torpedo}-inch torpedo: re-roll (W21).",
                        mark=m,
                    )
                    continue
            elif row is not None and hull.cd.underwater_protection:
                ok, pr, needed = penetrates(
                    ctx, row.penetration, hull.cd.underwater_protection, band, "magazine (W22)"
                )
                if not ok:
                    ctx.own(
                        hull,
                        "critical",
                        f"critical D20 {r}: magazine, but the shell cannot penetrate the "
                        f"underwater protection {hull.cd.underwater_protection}"
                        f"{'' if pr is None else f' (D20 {pr} vs {needed}+)'}: re-roll (W22).",
                        mark=m,
                    )
                    continue
            return magazine(ctx, hull, str(eff["table"]), r, m)
        return apply_critical(ctx, hull, eff, r, m, table)
    return ""


def _extra_boxes(ctx: Ctx, hull: Hull, eff: dict[str, object]) -> list[tuple[str, int | None]]:
    out: list[tuple[str, int | None]] = []
    boxes = eff.get("boxes")
    if isinstance(boxes, dict):
        for area, n in boxes.items():
            out.extend(mark_area(ctx, hull, str(area), int(n), "critical"))
    return out


def apply_critical(ctx: Ctx, hull: Hull, eff: dict[str, object], r: int, m: int, table: str) -> str:
    """Apply one critical result (every effect is kept on the sheet and acts in later turns)."""
    sh, cd, turn = hull.sheet, hull.cd, ctx.turn
    code = str(eff["effect"])
    extra = _extra_boxes(ctx, hull, eff)
    text = ""
    if code == "bridge":
        sh.conditions["bridge"] = Cond(since=turn)
        text = "bridge hit: straight ahead, no change of speed or heading till a 16+"
    elif code == "fire_control":
        lost = (
            mark_all(hull, "fire_control")
            if eff.get("fc") == "all"
            else mark_area(ctx, hull, "fire_control", 1, "critical", substitute=False)
        )
        text = f"fire control destroyed ({len(lost)} box(es))"
    elif code == "dc_wiped":
        lost = mark_all(hull, "damage_control")
        text = f"damage control party wiped out ({len(lost)} box(es), W41)"
    elif code == "steering":
        turns = eff.get("turns")
        until = turn + turns if isinstance(turns, int) else None
        sh.conditions["steering"] = Cond(since=turn, until=until, fixed=turns == "game")
        text = "steering gear damaged: helm orders one turn in advance" + (
            f" till turn {until}"
            if until is not None
            else " for the rest of the game"
            if turns == "game"
            else ""
        )
    elif code == "ammo":
        if "ammo_exhausted" not in sh.conditions:
            sh.conditions["ammo_short"] = Cond(since=turn)
        text = "ammunition supply interfered with: half fire dice till a 16+"
    elif code == "flooding":
        fast = hull.speed >= T.FAST_FLOODING_KNOTS
        now = int(str(eff["now_fast" if fast else "now"]))
        extra += general_underwater(ctx, hull, now, "flooding")
        sh.floods.append(
            Flood(
                kind="critical",
                since=turn,
                per_turn=int(str(eff["per_turn"])),
                per_turn_fast=int(str(eff["per_turn_fast"])),
                fail=str(eff["fail"]),
                fail_on=int(str(eff["fail_on"])),
            )
        )
        text = f"progressive flooding begins ({now} underwater box(es) now{', 20+ knots' if fast else ''})"
    elif code == "electrical":
        sh.conditions["electrical"] = Cond(since=turn, until=turn + int(str(eff.get("turns", 2))))
        text = "electrical failure: no radar, no searchlights, half gunnery dice for two turns"
    elif code == "aircraft":
        sh.conditions["aircraft_wrecked"] = Cond(since=turn)
        text = "aircraft handling facility wrecked"
        if cd.aircraft > 0:
            start_fire(ctx, hull)
            text += ", aircraft aboard catch fire"
    elif code in ("boiler", "fuel"):
        sh.conditions[code] = Cond(since=turn)
        text = (
            "smoke and flame in the boiler rooms" if code == "boiler" else "flooding contaminates the fuel"
        ) + ": half speed till repaired or a 16+"
    elif code == "keel":
        hull.sunk = "keel cracked: breaks in two and sinks"
        text = "keel cracked: the ship breaks in two and sinks"
    if extra:
        text += f"; boxes lost: {', '.join(_box_text(cd, b) for b in extra)}"
    ctx.own(
        hull,
        "critical",
        f"critical hit ({table}) D20 {r}: {text}.",
        mark=m,
        outcome=code,
        data={"effect": code, "boxes": [_box_json(b) for b in extra]},
    )
    return f" (critical: {code})"


def magazine(ctx: Ctx, hull: Hull, table: str, crit_roll: int, m: int) -> str:
    """Roll on a magazine sub-table and apply it (lines 307-312 ... 375-380)."""
    sh, cd, turn = hull.sheet, hull.cd, ctx.turn
    r = ctx.roll(f"{hull.name} magazine ({table})")
    eff = lookup(T.MAGAZINE_TABLES[table], r)
    assert isinstance(eff, dict)
    code = str(eff["effect"])
    boxes = _extra_boxes(ctx, hull, eff)
    text = ""
    if code == "explodes":
        hull.sunk = "magazine explodes"
        text = "magazine explodes: ship destroyed"
    elif code == "main_half":
        boxes += mark_all(hull, "main")
        boxes += general_underwater(ctx, hull, halve(cd.capacity("underwater")), "magazine")
        boxes += engine_hits(ctx, hull, halve(cd.capacity("engine")), "magazine")
        text = "magazine explodes: all main armament, half the underwater and half the engine boxes lost"
        npt = eff.get("no_power_turns")
        if isinstance(npt, int):
            sh.conditions["no_power"] = Cond(since=turn, until=turn + npt)
            text += f"; no power for {npt} turns"
            if hull.speed >= int(str(eff["capsize_knots"])):
                c = ctx.roll(f"{hull.name} capsize at 20+ knots")
                if c >= int(str(eff["capsize_on"])):
                    hull.sunk = "capsizes after the magazine explosion"
                    text += f"; D20 {c} at 20+ knots: capsizes and sinks"
                else:
                    text += f"; D20 {c} at 20+ knots: survives"
    elif code == "half_guns":
        n = halve(cd.capacity("main") + cd.capacity("secondary") + cd.capacity("aa"))
        boxes += _mark_guns(hull, n)
        text = "half the gun armament boxes lost to flooded magazines"
    elif code == "all_guns":
        boxes += mark_all(hull, "aa") + mark_all(hull, "secondary") + mark_all(hull, "main")
        text = "all gun armament lost to flooded magazines"
    elif code == "flood_all":
        sh.conditions["no_main_fire"] = Cond(since=turn, fixed=True)
        boxes += mark_area(
            ctx, hull, "secondary", halve(cd.capacity("secondary")), "magazine", substitute=False
        )
        boxes += mark_area(ctx, hull, "aa", halve(cd.capacity("aa")), "magazine", substitute=False)
        text = (
            "all magazines flood: no main armament fire for the rest of the game, half secondary and AA lost"
        )
    elif code == "one_main":
        boxes += mark_area(ctx, hull, "main", 1, "magazine")
        text = "torpedo flash floods one magazine: one main armament box lost"
    elif code == "guns_two_turns":
        sh.conditions["guns_silent"] = Cond(since=turn, until=turn + int(str(eff.get("turns", 2))))
        text = "no gun armament fire for two turns (ammunition supply interrupted)"
    if boxes:
        text += f"; boxes lost: {', '.join(_box_text(cd, b) for b in boxes)}"
    ctx.own(
        hull,
        "critical",
        f"critical D20 {crit_roll}: magazine hit, D20 {r}: {text}.",
        mark=m,
        outcome=f"magazine_{code}",
        data={"effect": "magazine", "result": code, "boxes": [_box_json(b) for b in boxes]},
    )
    return f" (magazine: {code})"


def _mark_guns(hull: Hull, n: int) -> list[tuple[str, int | None]]:
    """Mark ``n`` gun armament boxes, the owner's choice: AA first, then secondary, then main."""
    out: list[tuple[str, int | None]] = []
    for area in ("aa", "secondary", "main"):
        while len(out) < n:
            box = hull.sheet.mark(hull.cd, area)
            if box is None:
                break
            out.append(box)
    return out


# --- torpedoes ----------------------------------------------------------------------------------


def torpedo_table(calibre: int, protection: str) -> int:
    """Return the Torpedo Table number for a torpedo calibre and underwater protection (lines 164-186)."""
    return T.TORPEDO_TABLE_FOR[calibre][protection]


def torpedo_hit(ctx: Ctx, hull: Hull, calibre: int) -> None:
    """Resolve one torpedo hit: the table by calibre and protection (Tables 1-8, W16-W19), then start
    progressive flooding (W35). Torpedo hits have no collateral damage (line 248)."""
    cd = hull.cd
    number = torpedo_table(calibre, cd.underwater_protection)
    m = ctx.mark()
    r = ctx.roll(f"{hull.name} torpedo table {number}")
    res = lookup(T.TORPEDO_TABLES[number], r)
    assert isinstance(res, dict)
    boxes: list[tuple[str, int | None]] = []
    parts: list[str] = []
    note = ""
    if res.get("critical"):
        note = critical_hit(ctx, hull, T.TORPEDO_CRITICAL_FOR[cd.underwater_protection], torpedo=calibre)
        parts.append("critical underwater hit")
    general = res.get("general")
    if isinstance(general, int):
        boxes += general_underwater(ctx, hull, general, "torpedo")
        parts.append(f"{general} general underwater")
    engine = res.get("engine")
    if engine is not None:
        boxes += engine_hits(ctx, hull, engine if engine == "all" else int(str(engine)), "torpedo")
        parts.append(f"{engine} engine")
    if res.get("steering"):
        if "steering" not in hull.sheet.conditions:
            hull.sheet.conditions["steering"] = Cond(since=ctx.turn)
        parts.append("steering hit (W19)")
    start_torpedo_flooding(ctx, hull)
    ctx.own(
        hull,
        "damage",
        f"{calibre}-inch torpedo, Torpedo Table {number} D20 {r}: {', '.join(parts)}{note}; "
        f"marked {', '.join(_box_text(cd, b) for b in boxes) or '-'}.",
        mark=m,
        data={"table": number, "boxes": [_box_json(b) for b in boxes]},
    )


# --- end of turn --------------------------------------------------------------------------------


def end_of_turn(ctx: Ctx, hull: Hull) -> None:
    """Fires, flooding and recovery rolls (W39: once per turn per condition, from the turn after it began)."""
    sh, cd, turn = hull.sheet, hull.cd, ctx.turn
    # Fires (lines 297-299): a 16+ puts one out, a 1 intensifies it, else it burns boxes.
    kept: list[Fire] = []
    for fire in sh.fires:
        if fire.since >= turn or hull.sunk:
            kept.append(fire)
            continue
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} fire")
        if r >= T.RECOVERY_NEEDED:
            ctx.own(
                hull, "fire", f"fire D20 {r}: put out (16+).", mark=m, needed=T.RECOVERY_NEEDED, outcome="out"
            )
            continue
        if r == 1:
            fire.intensity = 2
        loss = T.FIRE_LOSS["intense" if fire.intensity == 2 else "normal"]
        boxes = mark_area(ctx, hull, "above", loss, "fire")
        ctx.own(
            hull,
            "fire",
            f"fire D20 {r}{': intensifies' if r == 1 else ''}; burns "
            f"{', '.join(_box_text(cd, b) for b in boxes) or 'nothing left'}.",
            mark=m,
            outcome="intensifies" if r == 1 else "burns",
        )
        kept.append(fire)
    sh.fires = kept
    # Flooding: torpedo process (W35, 1-16 lose a box, 17+ stops) and critical flooding (16+ stops, low roll
    # fails).
    floods: list[Flood] = []
    for fl in sh.floods:
        if fl.since >= turn or hull.sunk:
            floods.append(fl)
            continue
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} {fl.kind} flooding")
        if fl.kind == "torpedo":
            if r >= T.PROGRESSIVE_FLOODING_STOP:
                ctx.own(
                    hull,
                    "flooding",
                    f"progressive flooding D20 {r}: eliminated (17+, W35).",
                    mark=m,
                    outcome="stopped",
                )
                continue
            boxes = general_underwater(ctx, hull, 1, "flooding")
            ctx.own(
                hull,
                "flooding",
                f"progressive flooding D20 {r}: one more underwater box "
                f"({', '.join(_box_text(cd, b) for b in boxes) or 'none left'}).",
                mark=m,
                outcome="floods",
            )
            floods.append(fl)
            continue
        if r >= T.RECOVERY_NEEDED:
            ctx.own(hull, "flooding", f"critical flooding D20 {r}: stopped (16+).", mark=m, outcome="stopped")
            continue
        if r <= fl.fail_on:
            if fl.fail == "capsize":
                hull.sunk = "capsizes from progressive flooding"
                ctx.own(
                    hull,
                    "flooding",
                    f"critical flooding D20 {r}: the ship capsizes.",
                    mark=m,
                    outcome="capsize",
                )
            else:
                sh.conditions["list"] = Cond(since=turn, fixed=True)
                ctx.own(
                    hull,
                    "flooding",
                    f"critical flooding D20 {r}: list, no main armament fire for the rest of the game.",
                    mark=m,
                    outcome="list",
                )
            continue
        n = fl.per_turn_fast if hull.speed >= T.FAST_FLOODING_KNOTS else fl.per_turn
        boxes = general_underwater(ctx, hull, n, "flooding")
        ctx.own(
            hull,
            "flooding",
            f"critical flooding D20 {r}: {n} underwater box(es) "
            f"({', '.join(_box_text(cd, b) for b in boxes) or 'none left'}).",
            mark=m,
            outcome="floods",
        )
        floods.append(fl)
    sh.floods = floods
    # Recovery rolls and expiry of timed conditions.
    for name in sorted(sh.conditions) if sh.conditions else ():
        c = sh.conditions[name]
        if c.until is not None:
            if turn >= c.until:
                del sh.conditions[name]
                ctx.own(hull, "recovery", f"{name.replace('_', ' ')} ends.", outcome="ends")
            continue
        if c.since >= turn or hull.sunk or name not in RECOVERABLE:
            continue
        m = ctx.mark()
        r = ctx.roll(f"{hull.name} {name} recovery")
        if r >= T.RECOVERY_NEEDED:
            del sh.conditions[name]
            ctx.own(
                hull,
                "recovery",
                f"{name.replace('_', ' ')} recovery D20 {r}: recovered (16+, W39).",
                mark=m,
                needed=T.RECOVERY_NEEDED,
                outcome="recovered",
            )
        elif name == "bridge" and r == 1:
            del sh.conditions[name]
            hull.withdrawn = "commanding officer's morale fails"
            ctx.own(
                hull,
                "recovery",
                f"bridge recovery D20 {r}: the commanding officer's morale fails.",
                mark=m,
                outcome="withdraws",
            )
        elif name == "ammo_short" and r == 1:
            del sh.conditions[name]
            sh.conditions["ammo_exhausted"] = Cond(since=turn, fixed=True)
            ctx.own(
                hull,
                "recovery",
                f"ammunition recovery D20 {r}: exhausted, no more main battery fire.",
                mark=m,
                outcome="exhausted",
            )
        elif name in ("boiler", "fuel") and r <= 2:
            del sh.conditions[name]
            lost = mark_area(ctx, hull, "engine", 2, "boiler", substitute=False)
            sh.wrecked_engines += len(lost)
            ctx.own(
                hull,
                "recovery",
                f"{name} recovery D20 {r}: two engine boxes lost for the rest of the game.",
                mark=m,
                outcome="engines_lost",
            )
        else:
            ctx.own(
                hull,
                "recovery",
                f"{name.replace('_', ' ')} recovery D20 {r}: no change (16+ needed).",
                mark=m,
                needed=T.RECOVERY_NEEDED,
                outcome="none",
            )
    # Sinking (A6, W01).
    if not hull.sunk:
        # Sheet.underwater_remaining() and ClassData.capacity(), written out (asked of every ship afloat)
        uw = cd.counts.get("underwater", 0) - sh.marked.get("underwater", 0)
        en = cd.counts.get("engine", 0) - sh.marked.get("engine", 0)
        left = (uw if uw > 0 else 0) + (en if en > 0 else 0)
        if left <= 0 and (cd.caps.get("underwater", 0) + cd.caps.get("engine", 0)) > 0:
            hull.sunk = "all underwater boxes marked"
        elif not sh.any_remaining(cd):
            hull.sunk = "every box marked"
