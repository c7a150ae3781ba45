"""Class schema (the A4 record sheet), order types and battle options of ``ww2_jackson``."""

from __future__ import annotations

from collections.abc import Mapping

from ...model import JSON, FieldErrors, FieldSpec, OrderType
from . import tables as T

LETTERS = ("", *T.ARMOUR_LETTERS)
SIDES = ("centre", "port", "starboard")
SHIP_TYPES = ("battleship", "battlecruiser", "carrier", "cruiser", "destroyer", "small_craft", "merchant")
AREA_CHOICES = (
    "main",
    "secondary",
    "torpedo",
    "aa",
    "above",
    "above_armoured",
    "underwater",
    "engine",
    "damage_control",
    "fire_control",
)

GUN_ROW: tuple[FieldSpec, ...] = (
    FieldSpec(name="name", label="Box (turret or mount)", type="str", required=False, max=40),
    FieldSpec(name="area", label="Area", type="choice", choices=("main", "secondary"), default="main"),
    FieldSpec(name="calibre", label="Calibre", type="float", min=3, max=20, unit="inches"),
    FieldSpec(
        name="kind",
        label="Gun kind (12-inch and 6-inch rows)",
        type="choice",
        required=False,
        choices=("standard", "new", "old"),
        default="standard",
    ),
    FieldSpec(name="guns", label="Guns in the box", type="int", min=1, max=12),
    FieldSpec(
        name="armour", label="Armour letter", type="choice", required=False, choices=LETTERS, default=""
    ),
    FieldSpec(name="forward", label="Bears forward", type="bool", required=False, default=False),
    FieldSpec(name="aft", label="Bears aft", type="bool", required=False, default=False),
    FieldSpec(name="broadside", label="Bears on the broadside", type="bool", required=False, default=True),
    FieldSpec(
        name="side",
        label="Side",
        type="choice",
        required=False,
        choices=SIDES,
        default="centre",
        help="A wing mount bears only on its own side (NW-WW2-02).",
    ),
)

TORPEDO_ROW: tuple[FieldSpec, ...] = (
    FieldSpec(name="name", label="Mount", type="str", required=False, max=40),
    FieldSpec(
        name="calibre",
        label="Torpedo calibre",
        type="int",
        min=18,
        max=24,
        unit="inches",
        help="18, 21 or 24 inches (lines 164-186).",
    ),
    FieldSpec(name="tubes", label="Tubes", type="int", min=1, max=12),
    FieldSpec(name="side", label="Side", type="choice", required=False, choices=SIDES, default="centre"),
    FieldSpec(name="fixed", label="Fixed tubes (battleship, -3)", type="bool", required=False, default=False),
)


def _count(name: str, label: str, lo: int, hi: int, help_: str = "") -> FieldSpec:
    return FieldSpec(name=name, label=label, type="int", min=lo, max=hi, default=0, help=help_)


CLASS_SCHEMA: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="type",
        label="Type",
        type="choice",
        choices=SHIP_TYPES,
        default="cruiser",
        help="W26: battleships, battlecruisers and carriers use the capital critical table.",
    ),
    FieldSpec(name="tonnage", label="Standard displacement", type="int", min=50, max=100_000, unit="tons"),
    FieldSpec(
        name="speed",
        label="Rated speed",
        type="float",
        min=0,
        max=45,
        unit="knots",
        help="As in the reference books; play subtracts 2 knots above 20, 1 otherwise (line 395).",
    ),
    FieldSpec(
        name="turning",
        label="Turning circle",
        type="choice",
        required=False,
        choices=("", "destroyer", "cruiser", "capital"),
        default="",
        help="Blank: by type (lines 401-407).",
    ),
    FieldSpec(
        name="underwater_protection",
        label="Underwater protection class",
        type="choice",
        required=False,
        choices=LETTERS,
        default="",
        help="A-E or none (lines 256-262).",
    ),
    FieldSpec(
        name="belt",
        label="Belt armour letter (armoured general above-water boxes)",
        type="choice",
        required=False,
        choices=LETTERS,
        default="",
    ),
    FieldSpec(
        name="radar",
        label="Fire control radar",
        type="choice",
        required=False,
        choices=T.RADAR_GRADES,
        default="none",
        help="A6: none, poor, adequate, very good.",
    ),
    FieldSpec(
        name="aircraft", label="Aircraft aboard", type="int", required=False, min=0, max=100, default=0
    ),
    FieldSpec(
        name="guns",
        label="Main and secondary armament boxes",
        type="rows",
        min=0,
        max=40,
        fields=GUN_ROW,
        required=False,
        default=[],
    ),
    FieldSpec(
        name="torpedoes",
        label="Torpedo mount boxes",
        type="rows",
        min=0,
        max=12,
        fields=TORPEDO_ROW,
        required=False,
        default=[],
    ),
    FieldSpec(
        name="torpedo_reloads",
        label="Reload torpedoes",
        type="int",
        required=False,
        min=0,
        max=200,
        default=0,
    ),
    _count("aa", "AA armament boxes", 0, 40, "A4: one per eight light barrels."),
    _count("above", "General above-water boxes (no armour)", 0, 80),
    _count("above_armoured", "General above-water boxes with the belt letter", 0, 80),
    _count("underwater", "General underwater boxes", 0, 40),
    _count("engine", "Engine boxes", 1, 12),
    _count("damage_control", "Damage control boxes", 0, 10),
    _count("fire_control", "Fire control boxes", 0, 6),
    FieldSpec(
        name="heuristic",
        label="Authored with the A4 house heuristic",
        type="bool",
        required=False,
        default=False,
    ),
)


def check_class(stats: Mapping[str, JSON]) -> FieldErrors:
    """Return cross-field errors of valid-typed class stats (keys like ``guns.0.forward``)."""
    errors: FieldErrors = {}

    def add(key: str, msg: str) -> None:
        errors.setdefault(key, []).append(msg)

    guns = stats.get("guns") or []
    assert isinstance(guns, list)
    for i, row in enumerate(guns):
        if not isinstance(row, dict):
            continue
        if not any(row.get(k) is True for k in ("forward", "aft")) and row.get("broadside") is False:
            add(f"guns.{i}.broadside", "The box bears in no arc: tick forward, aft or broadside.")
        if row.get("kind") in ("new", "old"):
            cal = row.get("calibre")
            if isinstance(cal, (int, float)) and round(cal) not in (6, 12):
                add(f"guns.{i}.kind", "Only 6-inch and 12-inch guns are new or old (MFN chart lines 35-41).")
    torps = stats.get("torpedoes") or []
    assert isinstance(torps, list)
    for i, row in enumerate(torps):
        if isinstance(row, dict) and row.get("calibre") not in (18, 21, 24):
            add(f"torpedoes.{i}.calibre", "Torpedoes are 18, 21 or 24 inches (lines 164-186).")
    if not torps and int(str(stats.get("torpedo_reloads") or 0)) > 0:
        add("torpedo_reloads", "Reloads need at least one torpedo mount.")
    above = int(str(stats.get("above") or 0)) + int(str(stats.get("above_armoured") or 0))
    if above < 1:
        add("above", "At least one general above-water box (A4).")
    if int(str(stats.get("above_armoured") or 0)) > 0 and not stats.get("belt"):
        add("belt", "Armoured general above-water boxes need the belt letter.")
    if int(str(stats.get("underwater") or 0)) < 1:
        add("underwater", "At least one general underwater box (A4).")
    return errors


def _target(name: str, label: str, help_: str = "") -> FieldSpec:
    return FieldSpec(name=name, label=label, type="str", required=False, max=64, default="", help=help_)


ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        key="move",
        label="Movement",
        help="New course and speed; the ship turns on its turning circle, 1/4 inch per knot (lines 395-407).",
        fields=(
            FieldSpec(name="course", label="Course", type="float", min=0, max=360, unit="degrees"),
            # No top of its own: what the ship can make now (W38) is the only top, and check_order says it
            # ("<ship> can make at most 27 knots now"); a max of 45 here refused 50 knots as "Must be at
            # most 45 knots" while 30 was "at most 27", two tops for one field.
            FieldSpec(name="speed", label="Speed", type="float", min=0, unit="knots"),
            FieldSpec(
                name="turn_direction",
                label="Turn",
                type="choice",
                required=False,
                choices=("auto", "port", "starboard"),
                default="auto",
                help="Auto: the short way round.",
            ),
        ),
    ),
    OrderType(
        key="fire",
        label="Gunfire",
        help="A target per battery; every calibre that bears in its arc is rolled separately (line 25).",
        fields=(
            _target("target_main", "Main battery target"),
            _target("target_secondary", "Secondary battery target"),
        ),
    ),
    OrderType(
        key="torpedo",
        label="Torpedo launch",
        help="Mount (-1 = every loaded mount that bears), target and number (0 = every loaded tube).",
        fields=(
            _target("torpedo_target", "Torpedo target"),
            FieldSpec(
                name="torpedo_mount",
                label="Torpedo mount",
                type="int",
                required=False,
                min=-1,
                max=11,
                default=-1,
                default_text="every loaded mount that bears",
                needs="torpedo_target",
            ),
            FieldSpec(
                name="torpedo_number",
                label="Torpedoes",
                type="int",
                required=False,
                min=0,
                max=40,
                default=0,
                default_text="every loaded tube",
                needs="torpedo_target",
            ),
        ),
    ),
    OrderType(
        key="illuminate",
        label="Searchlight and star shell",
        help="Night only (A6): light a target for every ship of your side this turn.",
        fields=(
            _target("searchlight", "Searchlight on"),
            _target("star_shell", "Star shell over"),
        ),
    ),
    OrderType(
        key="damage_control",
        label="Damage control",
        help="Spend one damage control box (A6, W41): restore a box marked last turn (never the bridge), "
        "stop a "
        "fire or a flooding, or repair a critical (steering, ammunition, boiler, fuel, radar, electrical).",
        fields=(
            FieldSpec(
                name="dc_action",
                label="Damage control action",
                type="choice",
                required=False,
                choices=("none", "restore", "fire", "flooding", "repair"),
                default="none",
            ),
            FieldSpec(
                name="dc_area",
                label="Box area to restore",
                type="choice",
                required=False,
                choices=("", *AREA_CHOICES),
                default="",
                needs="dc_action",
            ),
            FieldSpec(
                name="dc_index",
                label="Box (turret or mount number)",
                type="int",
                required=False,
                min=0,
                max=40,
                default=0,
                needs="dc_area",
            ),
            FieldSpec(
                name="dc_repair",
                label="Critical to repair",
                type="choice",
                required=False,
                choices=("", "steering", "ammo_short", "boiler", "fuel", "radar_out", "electrical"),
                default="",
                needs="dc_action",
            ),
        ),
    ),
    OrderType(
        key="standing",
        label="Standing orders",
        help="Kept from turn to turn by the website.",
        fields=(
            FieldSpec(
                name="cleared_for_action",
                label="Cleared for action",
                type="bool",
                required=False,
                default=True,
                help="W11: no fire unless cleared for action.",
            ),
            FieldSpec(
                name="damage_preference",
                label="Damage allocation",
                type="choice",
                required=False,
                choices=tuple(T.DAMAGE_PREFERENCES),
                default=T.DEFAULT_PREFERENCE,
                help="Where collateral and substituted hits go (lines 139-141).",
            ),
        ),
    ),
)

OPTIONS: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="spotting_aircraft",
        label="Sides with spotting aircraft aloft",
        type="str",
        required=False,
        default="",
        help="Comma-separated side keys (W01: a boolean input).",
    ),
    FieldSpec(
        name="carrier_table",
        label="Carriers' shellfire critical table",
        type="choice",
        required=False,
        choices=("capital", "cruiser"),
        default="capital",
        help="W26",
    ),
    FieldSpec(
        name="shell_flooding",
        label="Shell underwater hits start progressive flooding",
        type="bool",
        required=False,
        default=False,
        help="W35 (configurable)",
    ),
    FieldSpec(
        name="leave_table",
        label="A ship leaving the table",
        type="choice",
        required=False,
        choices=("withdraws", "stays"),
        default="withdraws",
        help="NW-WW2-10",
    ),
)
