"""What an umpire's edit of a ``sail_1700`` ship's sheet may hold (docs/rulings.md NW-SAIL-40).

The engine reads a sheet leniently (``ships.inum``, ``sval``, ``dval``: a value of the wrong type reads as a
default), so an edit such as ``grade: "nonsense"`` was saved and then fought as an average crew, and
``fires: [{"x": 1}]`` burned as a new fire. :func:`sheet_problems` says what in a sheet is not of the shape
of the sheet in ``ruleset``'s module docstring, as the engine writes it: the crew grade, sails and shot of
the rules' choices, whole numbers where the engine counts, the guns and broadsides of both sides, a fire's
attempts (S27), a melee between her and another ship of the battle, and ship ids (or a battery's, for the
mortar ranged in) of the battle. Only the keys the sheet has are checked: a key left out reads as fresh.
Ships' sheets are not checked against each other (a melee or entanglement on one ship's sheet only): an edit
of one of the pair would be refused until the other was edited too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ...base import SheetKind, sheet_kind_errors
from ...model import JSON
from . import core as C
from . import tables as T

GRADES: tuple[str, ...] = ("good", "average", "poor")
"""The crew efficiency grades (8.; T.EFFICIENCY_GRADES)."""
SAILS: tuple[str, ...] = ("set", "furled")
"""What a ship's sails may be (22.)."""
SHOTS: tuple[str, ...] = ("round", "double")
"""What a broadside may be loaded with (11.)."""
SIDES: tuple[str, ...] = ("starboard", "port")
"""A ship's broadsides."""
MAX_FIRE_ATTEMPTS = len(T.FIRE_ATTEMPT_NEEDED) - 1
"""The most attempts a fire still burning has had (14., S27: the fourth failed, it is out of control)."""

WHOLE_KEYS: tuple[str, ...] = (
    "points_start",
    "points",
    "damage_scored",
    "mast_hits",
    "speed_reduction_pct",
    "dismasted_moves",
    "fires_out_of_control",
    "boats",
    "marines",
    "decks",
    "no_signals_moves",
    "no_turn_moves",
    "make_sail_left",
    "anchor_raise_left",
    "drift_moves",
    "entangle_distance",
    "tow_secure_left",
    "mortars",
    "mortar_ready_turn",
    "prize_crew",
)
"""Sheet keys that hold a whole number (a count, points, a turn, whole millimetres)."""
FLAG_KEYS: tuple[str, ...] = (
    "fired_once",
    "severe_underwater",
    "pumps_destroyed",
    "dismasted",
    "jury_mast",
    "abandon_next",
    "abandoned",
    "exploded",
    "admiral",
    "wheel_hit",
    "anchored",
    "aground",
    "refloat_next",
    "entangle_still",
)
"""Sheet keys that hold true or false."""
SHEET_KINDS: dict[str, SheetKind] = {**dict.fromkeys(WHOLE_KEYS, "whole"), **dict.fromkeys(FLAG_KEYS, "bool")}
"""The kinds of :data:`WHOLE_KEYS` and :data:`FLAG_KEYS`, checked by ``rules.base.sheet_kind_errors``."""
OTHER_SHIP_KEYS: tuple[str, ...] = ("entangled_with", "towing", "towed_by", "tow_target")
"""Sheet keys that name another ship of the battle, or none (19., 9.)."""


def _int(v: JSON) -> bool:
    return type(v) is int


def _number(v: JSON) -> bool:
    return type(v) in (int, float)


def _none(v: JSON) -> bool:
    """A ship reference that names none: null, as the engine writes it, or empty (the page's text box)."""
    return v is None or v == ""


def sheet_problems(
    sheet: Mapping[str, JSON],
    ship_id: str,
    ships: Mapping[str, str],
    batteries: Collection[str] = (),
) -> list[str]:
    """Return what in ``sheet`` is not a sail_1700 sheet of ship ``ship_id`` in a battle of ``ships`` (ship
    id -> rate) and shore batteries of ids ``batteries``, one message each (empty when none). Shapes:
    ``ruleset``'s module docstring."""
    out: list[str] = []
    get = sheet.get
    if "grade" in sheet and get("grade") not in GRADES:
        out.append(f"grade must be one of: {', '.join(GRADES)} (8.)")
    if "sails" in sheet and get("sails") not in SAILS:
        out.append(f"sails must be one of: {', '.join(SAILS)} (22.)")
    if "shot" in sheet and get("shot") not in SHOTS:  # (a scenario's first load: Sail1700.new_sheet)
        out.append(f"shot must be one of: {', '.join(SHOTS)} (11.)")
    if "sink_reason" in sheet and not isinstance(get("sink_reason"), str):
        out.append("sink_reason must be text (why she sinks, as the log says it)")
    if "sink_in" in sheet and not (get("sink_in") is None or _int(get("sink_in"))):
        out.append("sink_in must be a whole number of her moves before she sinks, or null (13., S25)")
    out += sheet_kind_errors(sheet, SHEET_KINDS, ship_id, ships)  # the counts and flags, as every rule set's
    if "entangle_heading" in sheet:
        v = get("entangle_heading")
        if not _number(v) or not 0 <= v <= 360:  # type: ignore[operator]
            out.append("entangle_heading must be a number of degrees, from 0 to 360")
    if "guns" in sheet:
        v = get("guns")
        if not (isinstance(v, dict) and set(v) == set(SIDES) and all(_int(n) for n in v.values())):
            out.append("guns must give the guns left on each side: starboard and port (whole numbers)")
    if "broadsides" in sheet:
        v = get("broadsides")
        if not (
            isinstance(v, dict)
            and set(v) == set(SIDES)
            and all(
                isinstance(b, dict)
                and set(b) == {"ready_turn", "shot"}
                and _int(b["ready_turn"])
                and b["shot"] in SHOTS
                for b in v.values()
            )
        ):
            out.append(
                "broadsides must give starboard and port each a ready_turn (a turn) and a shot "
                f"({' or '.join(SHOTS)}) (11.)"
            )
    if "fires" in sheet:
        v = get("fires")
        if not (isinstance(v, list) and all(type(n) is int and 0 <= n <= MAX_FIRE_ATTEMPTS for n in v)):
            out.append(
                f"fires must be a list of the attempts made to put out each fire, 0 to {MAX_FIRE_ATTEMPTS} "
                "(14., S27)"
            )
    for key in OTHER_SHIP_KEYS:
        if key in sheet:
            v = get(key)
            if not (_none(v) or (isinstance(v, str) and v in ships and v != ship_id)):
                out.append(f"{key} must be another ship of the battle, or null for none")
    if "mortar_ranged_on" in sheet:
        v = get("mortar_ranged_on")
        if not (_none(v) or (isinstance(v, str) and (v in ships or v in batteries) and v != ship_id)):
            out.append("mortar_ranged_on must be a ship or shore battery of the battle, or null (23.)")
    if "captured_by" in sheet:
        v = get("captured_by")  # (kept for her next battles, NW-CAMP-17: her captor may not be in this one)
        if not (_none(v) or isinstance(v, str)):
            out.append("captured_by must be the id of the ship that took her, or null (16.)")
    if "melee" in sheet:
        out += _melee_problems(get("melee"), ship_id, ships)
    return out


def _melee_problems(v: JSON, ship_id: str, ships: Mapping[str, str]) -> list[str]:
    """Problems of a sheet's ``melee``: null, or attacker and defender (her and another ship of the battle)
    and the deck of the defender's fought over (1 to her decks: 15., S30)."""
    shape = "melee must be null or an attacker and a defender (ships of the battle) and a deck (whole number)"
    if v is None:
        return []
    if not (isinstance(v, dict) and set(v) == {"attacker", "defender", "deck"}):
        return [shape]
    a, d, deck = v["attacker"], v["defender"], v["deck"]
    if not (isinstance(a, str) and isinstance(d, str) and a in ships and d in ships and _int(deck)):
        return [shape]
    if a == d or ship_id not in (a, d):
        return ["melee: she must be its attacker or its defender, against another ship"]
    decks = C.decks(ships[d])
    if not 1 <= deck <= decks:  # type: ignore[operator]
        return [f"melee: deck must be from 1 to {decks} (the defender's decks: 15., S30), not {deck}"]
    return []


__all__ = ["GRADES", "SAILS", "SHOTS", "sheet_problems"]
