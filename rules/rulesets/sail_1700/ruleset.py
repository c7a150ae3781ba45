"""``sail_1700`` (seed ``001_bb5ec6dbb79b532f.txt``, Naval Wargame Rules 1700-1830), with rulings S01-S46 and
NW-SAIL-1..n (``docs/rulings.md``).

Table in millimetres (A3: 1 mm = 10 m, default 2,400 x 1,800 mm); one move is about one minute. A turn has one
phase per side (A1: "moves are alternate"); the side order is rolled once before the first turn (a D6 each,
high first, ties re-rolled) and kept in ``BattleState.initiative``. Phase ``i`` belongs to ``initiative[i]``.
See :mod:`.phase` for what happens inside a phase.

Ship class (``class_schema``): ``nation``, ``rate`` (1st-6th or unrated), ``type``, ``service`` (warship,
merchant, transport), ``guns`` (aboard), ``guns_starboard``/``guns_port`` (S42 split when omitted), ``points``
(crew/damage points, one pool, S41), ``mortars``, ``crew`` (historical, informational); for a merchantman or
transport ``man_of_war_points`` (the comparable man of war's) and for a transport ``man_of_war_guns`` (before
conversion), from which ``validate_class`` checks ``points`` (10%) and a transport's ``guns`` (half) (26.;
NW-SAIL-30).

Sheet JSON shape (``ShipState.sheet``; the website draws a ship card from it). Every key is always present
after :meth:`Sail1700.setup`::

    {
      "grade": "good" | "average" | "poor",          # 8. crew efficiency
      "points_start": int, "points": int,             # crew/damage points, starting and now (one pool, S41)
      "damage_scored": int,                           # points taken from enemy action (what the enemy knows)
      "guns": {"starboard": int, "port": int},        # guns left per side (S42 split at the start)
      "broadsides": {"starboard": {"ready_turn": int, "shot": "round" | "double"},
                     "port":      {"ready_turn": int, "shot": "round" | "double"}},
                                                       # a broadside may fire from turn ready_turn (11.)
      "fired_once": bool,                             # S15: +1 for the first broadside of the battle used
      "mast_hits": int, "severe_underwater": bool, "pumps_destroyed": bool,
      "speed_reduction_pct": int,                     # S11: 25 per mast hit + 50 severe underwater
      "dismasted": bool, "dismasted_moves": int, "jury_mast": bool,   # 6., S09
      "fires": [int, ...],                            # one entry per fire: attempts made so far (S27)
      "fires_out_of_control": int, "abandon_next": bool, "abandoned": bool,   # 14.
      "exploded": bool,
      "boats": int, "marines": int, "decks": int,     # 20., 25. (S40), 15. (S30)
      "admiral": bool, "no_signals_moves": int,       # 13. admiral results (S23 "signals")
      "no_turn_moves": int,                           # 13. captain killed / wounded: moves with no turn
      "wheel_hit": bool,                              # 13.: all further course changes at half speed
      "sails": "set" | "furled", "make_sail_left": int,    # 22.: 2 moves man masts + 2 set sails
      "anchored": bool, "anchor_raise_left": int, "drift_moves": int,  # 22.; 13. cable hit
      "aground": bool, "refloat_next": bool,          # 21.
      "sink_in": int | null, "sink_reason": str,      # own moves left before sinking (13.; S25)
      "entangled_with": str | null, "entangle_heading": float, "entangle_distance": int,
      "entangle_still": bool,                         # 19.; S34
      "melee": {"attacker": str, "defender": str, "deck": int} | null,   # 15.; same object on both ships
      "towing": str | null, "towed_by": str | null, "tow_target": str | null, "tow_secure_left": int,   # 9.
      "mortars": int, "mortar_ready_turn": int, "mortar_ranged_on": str | null,   # 23.
      "captured_by": str | null, "prize_crew": int                       # 16.
    }

A working party ashore (24.) is kept on its battery, not on the sheet: terrain ``works-<ship id>`` (below);
its men are off ``points`` while ashore (S41).

Visible flags (``ShipState.flags``, A2): ``on_fire``, ``dismasted``, ``dead_in_water``, ``jury_mast``,
``anchored``, ``aground``, ``abandoned``, ``exploded``, ``wheel_hit``, ``entangled``, ``boarding``,
``sinking``, ``towing``, ``towed``. ``ShipState.speed`` is the distance moved in the ship's last move (mm):
the 50% minimum of 6. is taken from it.

Conditions: ``wind_from`` (degrees), ``wind_force`` (calm/light/moderate/strong/gale), ``weather`` (fog,
clear, rain, storm: S05), ``visibility`` (mm, halved at night, None = unlimited); ``extra``:
``weather_number`` (1-100, S06), ``weather_visibility`` (the weather number's visibility in mm before the
night halves it, None = unlimited; kept with the number as it steps), ``wind_target``/``wind_sense``/
``weather_target`` while changing.

Terrain (A3): ``shoal`` (props ``depth`` fathoms and ``radius`` mm about the position, or ``polygon`` [[x, y],
...]); ``battery`` (props ``id``, ``name``, ``side``, ``guns``, ``construction`` open/earth/stone, ``facing``
degrees of the perpendicular, ``grade``, ``nation``; ``points`` filled at set-up: 24.). A battery raised by a
vessel's working party (order type ``works``; NW-SAIL-23 to -25) is added in play with ``id``
``works-<ship id>``, ``under_construction`` true, ``builder`` (ship id), ``party`` (men ashore), ``task``
(prepare/gun/earthworks), ``positions`` (gun positions prepared), ``earth_mm``, ``gun_landed`` (a gun ashore
not yet in position), ``progress`` ({task: men-moves towards the next unit}); ``guns`` and ``points`` grow as
guns are positioned (10 a section open, 30 behind earthworks) and it fires with the guns its party can serve
(six men a gun).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ...arcs import ArcSpec
from ...base import DefaultPolicy, RuleSet, roll_initiative, tally_shown
from ...dice import Dice, decimal_as_1_100
from ...geometry import distance, on_table
from ...hints import FieldHint
from ...model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    FieldErrors,
    FieldSpec,
    OrderType,
    PhaseResult,
    PhaseSpec,
    Point,
    ShipOrder,
    ShipState,
)
from . import core as C
from . import ships as S
from . import tables as T
from .arcs import ship_arcs
from .hints import ship_hints
from .phase import Phase, conditions_for, flags_of
from .sheetcheck import sheet_problems

CLASS_SCHEMA: tuple[FieldSpec, ...] = (
    FieldSpec(
        name="nation",
        label="Nation",
        type="choice",
        choices=T.NATIONS,
        default="Britain",
        help="12.: +1 British or American; -1 other than British, American, Dutch, Danish or French.",
    ),
    FieldSpec(
        name="rate",
        label="Rate",
        type="choice",
        choices=T.RATES,
        default="5th",
        help="1st-6th rates are 'rated vessels'; everything else is unrated (6., 11., 20., 21.).",
    ),
    FieldSpec(
        name="type",
        label="Vessel type",
        type="str",
        required=False,
        max=40,
        default="",
        help="As the seed's table names it: Frigate, Sloop, Brig, Schooner, Bomb... (27.).",
    ),
    FieldSpec(
        name="service",
        label="Service",
        type="choice",
        choices=T.SERVICES,
        required=False,
        default="warship",
        help="Merchantmen and transports: -1 firing factor, half-speed turns (26., S15).",
    ),
    FieldSpec(
        name="man_of_war_points",
        label="Comparable man of war's points",
        type="int",
        required=False,
        min=5,
        max=2000,
        help=(
            "Merchantmen and transports only (and needed for them): the crew/damage points of a man of war "
            "of the same rate, or for an unrated vessel the same type and size (27.); her own points are 10% "
            "of these (26., S41, NW-SAIL-30)."
        ),
    ),
    FieldSpec(
        name="man_of_war_guns",
        label="Guns as a man of war",
        type="int",
        required=False,
        min=0,
        max=150,
        help="Transports only (and needed for them): her guns before conversion; half remain (26.).",
    ),
    FieldSpec(name="guns", label="Guns aboard", type="int", min=0, max=150, help="27."),
    FieldSpec(
        name="guns_starboard",
        label="Guns starboard",
        type="int",
        required=False,
        min=0,
        max=75,
        help="S42: half each side, the odd gun to starboard, when left empty.",
    ),
    FieldSpec(name="guns_port", label="Guns port", type="int", required=False, min=0, max=75),
    FieldSpec(
        name="points", label="Crew / damage points", type="int", min=1, max=2000, help="27.; one pool (S41)."
    ),
    FieldSpec(
        name="mortars", label="Mortars", type="int", required=False, min=0, max=4, default=0, help="23."
    ),
    FieldSpec(
        name="crew",
        label="Historical crew",
        type="int",
        required=False,
        min=0,
        max=2000,
        help="Informational only; the rules use crew/damage points.",
    ),
)


def _f(name: str, label: str, type_: Any, **kw: Any) -> FieldSpec:
    return FieldSpec(name=name, label=label, type=type_, required=False, **kw)


ORDER_TYPES: tuple[OrderType, ...] = (
    OrderType(
        key="movement",
        label="Movement",
        help=(
            "Turn on the turning circle (+ to starboard) then sail on; the lesser speed of old and new "
            "course (7.); never within 22.5 degrees of the wind except by tacking (6., S43); at least 50% of "
            "the last move (S46)."
        ),
        fields=(
            _f("turn", "Turn (degrees, + starboard)", "float", min=-330, max=330, default=0),
            _f("speed", "Distance (mm; empty = as far as she can)", "float", min=0, max=300, unit="mm"),
            _f("tack", "Tack through the wind (a full move)", "bool", default=False),
            _f("row", "Row (vessels of 99 points or less, 50 mm)", "bool", default=False),
        ),
    ),
    OrderType(
        key="sails",
        label="Sails and anchor",
        help="22.: drop 1 move; raise 5; cut 1; make sail 2 + 2.",
        fields=(
            _f("sails", "Sails", "choice", choices=("keep", "make", "furl"), default="keep"),
            _f("anchor", "Anchor", "choice", choices=("none", "drop", "raise", "cut"), default="none"),
            _f("cast_log", "Cast the log (move 60 mm or less)", "bool", default=False),
        ),
    ),
    OrderType(
        key="tow",
        label="Towing and grounding",
        help="9.: two moves to secure a tow; 21.: refloating.",
        fields=(
            _f("tow", "Take in tow (ship id)", "str", max=64),
            _f("cast_off_tow", "Cast off the tow", "bool", default=False),
            _f("assist", "Assist a grounded ship (ship id)", "str", max=64),
            _f("refloat", "Try to refloat", "bool", default=False),
        ),
    ),
    OrderType(
        key="gunnery",
        label="Gunnery",
        help=(
            "One target per broadside (11.); fired after the move at what presented itself during it; 22 "
            "degrees either side of the beam (S12). A broadside fired cannot fire next move; double shot "
            "takes two moves."
        ),
        fields=(
            _f("target", "Target", "str", max=64),
            _f("target_2", "Second target (other broadside)", "str", max=64),
            _f(
                "load_double",
                "Load double shot",
                "choice",
                choices=("none", "starboard", "port", "both"),
                default="none",
            ),
            _f(
                "mortar_target",
                "Mortar target (vessel or shore battery)",
                "str",
                max=64,
                help="23.: an enemy vessel or shore battery 100-500 mm away (NW-SAIL-26).",
            ),
        ),
    ),
    OrderType(
        key="boarding",
        label="Boarding",
        help="15.: only when entangled (19.).",
        fields=(
            _f("board", "Board (entangled enemy id)", "str", max=64),
            _f("cast_off", "Try to separate (19.)", "bool", default=False),
        ),
    ),
    OrderType(
        key="works",
        label="Shore works (battery)",
        help=(
            "24.: at anchor within 50 mm of dry land, land a working party in the boats (crew/damage "
            "points, S41; 20% of the starting points stay aboard). A gun position takes 200 men-moves "
            "(20 men ten moves), positioning a gun 75 (15 men five moves; the gun comes from the ship), "
            "2 mm of earthworks 100 (ten men ten moves). Work starts the move after landing; re-embark "
            "before raising the anchor (NW-SAIL-23 to NW-SAIL-25)."
        ),
        fields=(
            _f("land_party", "Land a working party (men)", "int", min=0, max=2000, default=0),
            _f(
                "works_task",
                "Party's task",
                "choice",
                choices=("keep", *T.WORKS_TASKS),
                default="keep",
                help="prepare a gun position / position a gun / raise 2 mm of earthworks; keep = as before.",
            ),
            _f(
                "works_facing",
                "Battery facing (degrees; empty = toward the ship)",
                "float",
                min=0,
                max=360,
                help="Fixed when the party first lands; 35 degrees either side (24.).",
            ),
            _f("works_recall", "Re-embark the working party", "bool", default=False),
        ),
    ),
    OrderType(
        key="ship",
        label="Ship",
        fields=(
            _f("fight_fires", "Fight fires", "bool", default=True),
            _f("jury_rig", "Raise a temporary mast", "bool", default=False),
            _f(
                "strike",
                "Strike colours",
                "bool",
                default=False,
                help=(
                    "She surrenders at the start of this move (18.): she gives no more orders and fires no "
                    "more. The order may be changed until your orders close."
                ),
            ),
        ),
    ),
)

OPTIONS: tuple[FieldSpec, ...] = (
    _f(
        "sea_depth_fathoms",
        "Depth of open water",
        "float",
        min=0,
        max=5000,
        default=50.0,
        unit="fathoms",
        help="Depth where no shoal is drawn (21., 22.).",
    ),
    _f(
        "fire_third_exact",
        "Third fire attempt needs exactly 4",
        "bool",
        default=False,
        help="S27 alternative.",
    ),
    _f(
        "wind_change",
        "Wind change every ten moves",
        "choice",
        choices=("reroll", "shift"),
        default="reroll",
        help="S03: re-roll the direction (default) or shift one direction.",
    ),
    _f(
        "spider_spacing_mm",
        "Mortar spider spacing",
        "float",
        min=5,
        max=65,
        default=round(T.MORTAR_SPIDER_SPACING_MM, 2),
        unit="mm",
        help="S39: 3 x 3 grid, this far apart.",
    ),
)


MOVE_AND_FIRE_KEYS = frozenset(
    ("turn", "speed", "tack", "row", "target", "target_2", "load_double", "fight_fires", "strike")
)
"""Order fields checked by the move's plan and the fire plan alone (or not at all: ``load_double``,
``fight_fires``, ``strike`` are always legal): an order of these only needs no other check."""

MOVE_AND_TARGET_KEYS = MOVE_AND_FIRE_KEYS - {"target_2"}
""":data:`MOVE_AND_FIRE_KEYS` but a second target: an order of these fires (if at all) at one target, with
both broadsides free (the quick path of ``Sail1700.check_order``)."""


def merchant_errors(stats: Mapping[str, JSON]) -> list[tuple[str, str]]:
    """Return (field, message) for a class that breaks 26. (NW-SAIL-30): a merchantman's or transport's points
    are 10% of the comparable man of war's (``man_of_war_points``, rounded half up); a transport keeps half
    the guns she had as a man of war (``man_of_war_guns``; the odd gun is removed). Those fields belong to
    merchantmen and transports alone."""
    service = S.sval(stats.get("service"), "warship")
    mow_points, mow_guns = stats.get("man_of_war_points"), stats.get("man_of_war_guns")
    out: list[tuple[str, str]] = []
    if service == "warship":
        if mow_points is not None:
            out.append(
                ("man_of_war_points", "Only merchantmen and transports have a comparable man of war (26.).")
            )
        if mow_guns is not None:
            out.append(("man_of_war_guns", "Only a transport converted from a man of war has these (26.)."))
        return out
    label = "A merchantman" if service == "merchant" else "A transport"
    if mow_points is None:
        out.append(
            (
                "man_of_war_points",
                f"{label} has 10% of the crew of a man of war of comparable size (26.): give that man of "
                "war's points (NW-SAIL-30).",
            )
        )
    else:
        want = C.merchant_points(S.inum(mow_points))
        if S.inum(stats.get("points")) != want:
            out.append(
                (
                    "points",
                    f"{label} has 10% of the crew of a man of war of comparable size (26., S41): "
                    f"{want} points for a man of war of {S.inum(mow_points)}.",
                )
            )
    if service == "merchant":
        if mow_guns is not None:
            out.append(("man_of_war_guns", "Only a transport converted from a man of war has these (26.)."))
    elif mow_guns is None:
        out.append(
            (
                "man_of_war_guns",
                "A transport converted from a man of war has 50% of her guns removed (26.): give the guns "
                "she carried as a man of war.",
            )
        )
    else:
        want_guns = C.transport_from(S.inum(mow_guns), 0)[0]
        if S.inum(stats.get("guns")) != want_guns:
            out.append(
                (
                    "guns",
                    f"A transport converted from a man of war has 50% of her guns removed (26.): {want_guns} "
                    f"guns of her {S.inum(mow_guns)}.",
                )
            )
    return out


def merchant_summary(stats: Mapping[str, JSON]) -> dict[str, JSON]:
    """Return the figures 26. derives for a merchantman or transport from its comparable man of war
    (NW-SAIL-30), for the class page; nothing for a warship or when the man of war is not given."""
    service = S.sval(stats.get("service"), "warship")
    mow_points = stats.get("man_of_war_points")
    if service == "warship" or mow_points is None:
        return {}
    out: dict[str, JSON] = {
        "man_of_war_points": S.inum(mow_points),
        "points_10_percent": C.merchant_points(S.inum(mow_points)),
    }
    mow_guns = stats.get("man_of_war_guns")
    if service == "transport" and mow_guns is not None:
        out["man_of_war_guns"] = S.inum(mow_guns)
        out["guns_after_conversion"] = C.transport_from(S.inum(mow_guns), 0)[0]
    return {"merchant_or_transport": out}


def no_bearing(name: str) -> str:
    """Return the error of a fire order at ``name`` when no loaded broadside bears on it (11., S12)."""
    return f"No loaded broadside bears on {name} within range during this move (11., S12)."


def _enemies(state: BattleState, side: str) -> list[ShipState]:
    """Return the active enemies ``side`` can see (worked out once per state, :func:`.ships.state_memo`)."""
    memo = S.state_memo(state)
    out = memo.enemies.get(side)
    if out is None:
        seen = S.seen_by(state, side)
        out = memo.enemies[side] = [s for s in state.ships if s.side != side and s.active and s.id in seen]
    return out


class Sail1700(RuleSet):
    """Naval Wargame Rules 1700-1830 (seed 001) on a millimetre table, alternate moves."""

    key = "sail_1700"
    title = "Naval Wargame Rules 1700-1830"
    version = "1.0"
    source = "seeds/001_bb5ec6dbb79b532f.txt"
    geometry = "table_mm"
    unit = "millimetres"
    dice = ("D6", "AVG", "D100")
    order_types = ORDER_TYPES
    terrain_kinds = ("shoal", "battery")
    options = OPTIONS
    default_map = (2400, 1800)
    stacking = False
    condition_choices = {  # 4., 5.; S05; NW-SAIL-35
        "wind_force": tuple((f, T.WIND_FORCE_LABELS[f]) for f in T.WIND_FORCES),
        "weather": tuple((w, T.WEATHER_CONDITION_LABELS[w]) for w in T.WEATHER_CONDITIONS),
    }

    def condition_errors(self, conditions: Conditions) -> list[str]:
        """Return what is wrong with the wind force and weather (NW-SAIL-35): a text not of the chart's
        (4.: :attr:`condition_choices`, exact lower case), one given without the other, a pair the weather
        chart never gives (4.; S04: a clear gale), or a pair that is not the ``weather_number``'s (the set-up
        would read the number and drop the texts without a word). Empty when none; neither given is sound
        (the set-up rolls them)."""
        out = super().condition_errors(conditions)
        force, weather = conditions.wind_force, conditions.weather
        if out:
            return out
        if (force is None) != (weather is None):
            return [
                "give both the wind force and the weather, or neither (the set-up rolls them: 4.) "
                "(NW-SAIL-35)"
            ]
        if force is None or weather is None:
            return out
        number = conditions.extra.get("weather_number")
        if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 100:
            wc, wf, _ = C.weather_from_number(number)
            if (wc, wf) != (weather, force):
                out.append(
                    f"weather number {number} is {wc} with {C.wind_force_text(wf)} (4.; S04), not {weather} "
                    f"with {C.wind_force_text(force)} (NW-SAIL-35)"
                )
        elif C.weather_number_for(weather, force) is None:
            forces = [f for f in T.WIND_FORCES if C.weather_number_for(weather, f) is not None]
            out.append(
                f"the weather chart (4.; S04, S05) has no {weather} with {C.wind_force_text(force)}; "
                f"{weather} comes with {', '.join(forces)} (NW-SAIL-35)"
            )
        return out

    # NW-CAMP-17: what a new battle starts afresh (the new sheet's value, or the scenario's). Carried (damage,
    # losses and the crew): grade, points_start, points, guns, mast_hits, severe_underwater, pumps_destroyed,
    # speed_reduction_pct, dismasted, dismasted_moves, jury_mast, abandoned, exploded, boats, marines, decks,
    # admiral, wheel_hit, sink_in, sink_reason, mortars, captured_by, prize_crew. The rest is the state of the
    # last battle: guns loaded and when they are ready, the first broadside (S15), fires under way (the crew
    # fights them out; the damage they did is in points), moves of an effect still to run, sails, anchor,
    # grounding, entanglement, melee, tow, mortar ranging, and the damage that battle's enemy saw scored.
    battle_only_sheet_keys = (
        "damage_scored",
        "broadsides",
        "fired_once",
        "fires",
        "fires_out_of_control",
        "abandon_next",
        "no_signals_moves",
        "no_turn_moves",
        "sails",
        "make_sail_left",
        "anchored",
        "anchor_raise_left",
        "drift_moves",
        "aground",
        "refloat_next",
        "entangled_with",
        "entangle_heading",
        "entangle_distance",
        "entangle_still",
        "melee",
        "towing",
        "towed_by",
        "tow_target",
        "tow_secure_left",
        "mortar_ready_turn",
        "mortar_ranged_on",
    )

    # --- classes ----------------------------------------------------------------------------------------

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return CLASS_SCHEMA

    def check_class(self, stats: Mapping[str, JSON]) -> FieldErrors:
        errors: FieldErrors = {}
        guns = S.inum(stats.get("guns"))
        sb, pt = stats.get("guns_starboard"), stats.get("guns_port")
        if (sb is None) != (pt is None):
            errors.setdefault("guns_port" if pt is None else "guns_starboard", []).append(
                "Give the guns of both sides, or neither (S42 then splits them)."
            )
        elif sb is not None and S.inum(sb) + S.inum(pt) > guns:
            errors.setdefault("guns_starboard", []).append(
                f"{S.inum(sb)} starboard + {S.inum(pt)} port is more than the {guns} guns aboard."
            )
        for name, msg in merchant_errors(stats):
            errors.setdefault(name, []).append(msg)
        return errors

    def reference_classes(self) -> tuple[dict[str, JSON], ...]:
        out: list[dict[str, JSON]] = []
        line = {0: 360}
        keys: set[str] = set()
        for i, (nation, vtype, guns, mortars, pts) in enumerate(T.SHIP_DEFINITIONS):
            rate = vtype if vtype in T.RATES else "unrated"
            key = f"{nation}_{vtype}_{guns}".lower().replace(" ", "_")
            if key in keys:
                key += f"_{pts}"
            keys.add(key)
            sb, pt = C.guns_per_side(guns)
            stats: dict[str, JSON] = {
                "nation": nation,
                "rate": rate,
                "type": vtype,
                "service": "warship",
                "guns": guns,
                "guns_starboard": sb,
                "guns_port": pt,
                "points": pts,
                "mortars": mortars,
            }
            label = f"{vtype} rate" if rate != "unrated" else vtype
            out.append(
                {
                    "key": f"sail_{key}",
                    "name": f"{nation} {label}, {guns} guns"
                    + (f" (+{mortars} mortar{'s' if mortars > 1 else ''})" if mortars else ""),
                    "nation": nation,
                    "type": vtype,
                    "stats": stats,
                    "source": f"seeds/001_bb5ec6dbb79b532f.txt section 27, line {line[0] + i}",
                    "heuristic": False,
                }
            )
        return tuple(out)

    def class_summary(self, stats: Mapping[str, JSON]) -> dict[str, JSON]:
        rate = S.sval(stats.get("rate"), "unrated")
        rate = rate if rate in T.RATES else "unrated"
        guns = S.inum(stats.get("guns"))
        pts = S.inum(stats.get("points"))
        return {
            "speeds_mm": {k: C.base_speed(rate, k) for k in ("beam_quarter", "aft", "bow")},
            "ranges_mm": list(T.GUNNERY_RANGES["rated" if C.is_rated(rate) else "unrated"]),
            "turning_circle_mm": C.turning_radius(rate) * 2,
            "boats": C.ships_boats(rate),
            "decks": C.decks(rate),
            "marines": C.marines(pts, guns),
            "grounds_at_fathoms": C.grounding_depth(rate, guns),
            # by the comparable man of war's points for a merchantman or transport (NW-SAIL-37)
            "can_row": C.can_row(
                S.inum(stats.get("man_of_war_points"))
                if stats.get("man_of_war_points") is not None
                and S.sval(stats.get("service"), "warship") in ("merchant", "transport")
                else pts
            ),
            "prize_crew": C.prize_crew(pts),
            **merchant_summary(stats),
        }

    # --- set-up -------------------------------------------------------------------------------------------

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        events: list[Event] = []
        initiative = state.initiative
        if not initiative:
            initiative = tuple(
                roll_initiative(
                    state.side_keys(),
                    dice,
                    events,
                    0,
                    high_first=True,
                    rule="A1: higher moves first every turn",
                    names=state.side_names(),
                )
            )
        cond = state.conditions
        problems = self.condition_errors(cond)
        if problems:  # an unknown pair was rolled afresh without a word (NW-SAIL-35)
            raise ValueError("; ".join(problems))
        if cond.wind_from is None:
            v = dice.roll("D100", "wind direction (3., S01, S02)")
            name, deg = C.wind_from_roll(v)
            cond = replace(cond, wind_from=deg)
            events.append(
                Event(
                    kind="wind",
                    turn=0,
                    text=f"Wind roll {decimal_as_1_100(v)}: from the {name} ({deg:g} degrees; 3., S01).",
                    rolls=(dice.rolls[-1],),
                    outcome=name,
                )
            )
        number = cond.extra.get("weather_number")
        if not isinstance(number, int):
            guess = C.weather_number_for(cond.weather or "", cond.wind_force or "")
            if guess is not None:
                number = guess
            else:
                v = dice.roll("D100", "weather (4., S02, S04)")
                number = decimal_as_1_100(v)
                events.append(
                    Event(
                        kind="weather",
                        turn=0,
                        text=f"Weather roll {number} (4., S04).",
                        rolls=(dice.rolls[-1],),
                    )
                )
        cond = conditions_for(cond, number)
        events.append(
            Event(
                kind="weather",
                turn=0,
                outcome=cond.weather or "",
                text=(
                    f"Weather {cond.weather}, {C.wind_force_text(cond.wind_force or '')}; wind from "
                    f"{cond.wind_from:g} degrees; visibility "
                    f"{'unlimited' if cond.visibility is None else f'{cond.visibility:g} mm'}"
                    f"{' (halved at night)' if cond.night and cond.visibility is not None else ''}"
                    " (4., 5., A2)."  # (NW-SAIL-39: unlimited has no half)
                ),
                data={"number": number},
            )
        )
        ships = []
        for s in state.ships:
            if not isinstance(s.position, Point):
                raise ValueError(f"{s.name}: sail_1700 needs table positions in millimetres")
            sheet = dict(s.sheet)
            if S.sval(sheet.get("grade")) not in ("good", "average", "poor"):
                v = dice.roll("D6", f"{s.name} crew efficiency (8.)")
                grade = C.efficiency_grade(v)
                sheet["grade"] = grade
                events.append(
                    Event(
                        kind="grade",
                        turn=0,
                        ship_id=s.id,
                        rolls=(dice.rolls[-1],),
                        outcome=grade,
                        visible_to=(s.side,),
                        text=f"{s.name}: crew efficiency die {v}: {grade} (8.).",
                    )
                )
            sheet.update(self.new_sheet(s, sheet))
            ships.append(replace(s, sheet=sheet, flags=flags_of(sheet, s.status)))
        terrain = []
        for t in state.terrain:
            if t.kind == "battery":
                props = dict(t.props)
                props.setdefault(
                    "points",
                    C.battery_points(S.inum(props.get("guns")), S.sval(props.get("construction"), "open")),
                )
                props.setdefault("ready_turn", 1)
                props.setdefault("garrison", C.battery_garrison(S.inum(props.get("guns"))))
                t = replace(t, props=props)
            terrain.append(t)
        return replace(
            state, ships=tuple(ships), conditions=cond, initiative=initiative, terrain=tuple(terrain)
        ), tuple(events)

    def new_sheet(self, s: ShipState, preset: Mapping[str, JSON]) -> dict[str, JSON]:
        """Return a full sheet for a ship from its class, keeping the scenario's preset values."""
        rate = S.rate_of(s)
        guns = S.inum(s.stats.get("guns"))
        if s.stats.get("guns_starboard") is not None:
            sb, pt = S.inum(s.stats.get("guns_starboard")), S.inum(s.stats.get("guns_port"))
        else:
            sb, pt = C.guns_per_side(guns)
        start = S.inum(s.stats.get("points"), 1)
        anchored = bool(preset.get("anchored"))
        shot = S.sval(preset.get("shot"), "round")
        base: dict[str, JSON] = {
            "points_start": start,
            "points": start,
            "damage_scored": 0,
            "guns": {"starboard": sb, "port": pt},
            "broadsides": {
                "starboard": {"ready_turn": 1, "shot": shot},
                "port": {"ready_turn": 1, "shot": shot},
            },
            "fired_once": False,
            "mast_hits": 0,
            "severe_underwater": False,
            "pumps_destroyed": False,
            "speed_reduction_pct": 0,
            "dismasted": False,
            "dismasted_moves": 0,
            "jury_mast": False,
            "fires": [],
            "fires_out_of_control": 0,
            "abandon_next": False,
            "abandoned": False,
            "exploded": False,
            "boats": C.ships_boats(rate),
            "marines": C.marines(start, guns),
            "decks": C.decks(rate),
            "admiral": False,
            "no_signals_moves": 0,
            "no_turn_moves": 0,
            "wheel_hit": False,
            "sails": "furled" if anchored else "set",
            "make_sail_left": 0,
            "anchored": anchored,
            "anchor_raise_left": 0,
            "drift_moves": 0,
            "aground": False,
            "refloat_next": False,
            "sink_in": None,
            "sink_reason": "",
            "entangled_with": None,
            "entangle_heading": 0.0,
            "entangle_distance": 0,
            "entangle_still": False,
            "melee": None,
            "towing": None,
            "towed_by": None,
            "tow_target": None,
            "tow_secure_left": 0,
            "mortars": S.inum(s.stats.get("mortars")),
            "mortar_ready_turn": 1,
            "mortar_ranged_on": None,
            "captured_by": None,
            "prize_crew": 0,
        }
        for k, v in preset.items():
            if k in base and k != "guns" and k != "broadsides":
                base[k] = v
        kept = preset.get("guns")
        if isinstance(kept, dict) and all(type(kept.get(b)) is int for b in ("starboard", "port")):
            # the guns left of a ship carried from her last battle (NW-CAMP-17): lost guns stay lost
            base["guns"] = {"starboard": kept["starboard"], "port": kept["port"]}
        return base

    def sheet_errors(self, state: BattleState, ship: ShipState) -> list[str]:
        """What in her sheet is not of a sail_1700 sheet's shape (the module docstring's): a grade, sails or
        shot not of the rules' choices, a fire, melee, guns or broadsides of another shape, a count that is
        not a whole number, a ship or battery naming none of the battle (``sheetcheck.sheet_problems``;
        docs/rulings.md NW-SAIL-40)."""
        batteries = {S.sval(t.props.get("id")) for t in state.terrain if t.kind == "battery"} - {""}
        ships = {s.id: S.rate_of(s) for s in state.ships}
        return sheet_problems(ship.sheet, ship.id, ships, batteries)

    # --- phases -------------------------------------------------------------------------------------------

    def phase_plan(self, state: BattleState) -> tuple[PhaseSpec, ...]:
        order = state.initiative or state.side_keys()
        names = state.side_names()
        return tuple(PhaseSpec(name=f"{names.get(side, side)} move", sides=(side,)) for side in order)

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        side = self.ordering_sides(state)[0]
        try:
            return Phase(state, orders, dice, side).run()
        finally:
            S.forget_state(state)

    # --- orders -------------------------------------------------------------------------------------------

    def target_of(
        self, state: BattleState, ship: ShipState, tid: str
    ) -> tuple[Point, float, bool, str] | str:
        """Return (position, heading, is battery, name) of a legal target, or the reason it is not one."""
        t = S.state_memo(state).ships.get(tid)
        if t is not None:
            if t.side == ship.side:
                return f"{t.name} is on your side."
            if t.status != "active":  # not t.active, without the property's call
                return f"{t.name} is {t.status}."
            vis = state.conditions.visibility
            # unlimited visibility: every ship is seen (visible_to_side)
            if vis is not None and t.id not in S.seen_by(state, ship.side):
                return f"{t.name} cannot be seen (visibility {vis:g} mm, A2)."
            assert isinstance(t.position, Point)
            return t.position, t.heading, False, t.name
        bat = S.battery_of(state, tid)
        if bat is not None and isinstance(bat[1].position, Point):
            if S.sval(bat[1].props.get("side")) == ship.side:
                return "That battery is on your side."
            if bat[1].props.get("silenced"):
                return "That battery is silenced."
            return bat[1].position, 0.0, True, S.sval(bat[1].props.get("name"), tid)
        return f"No ship or battery {tid!r} in this battle."

    def fire_plan(
        self, state: BattleState, ship: ShipState, plan: S.MovePlan, data: Mapping[str, JSON]
    ) -> tuple[FieldErrors, list[tuple[str, S.Shot]]]:
        """Return errors of the fire orders, and the shots they give in order (target id, shot)."""
        errors: FieldErrors = {}
        shots: list[tuple[str, S.Shot]] = []
        first, second = data.get("target"), data.get("target_2")  # S.sval(), written out
        first = first if isinstance(first, str) else ""
        second = second if isinstance(second, str) else ""
        if not first and not second:
            return errors, shots
        used: set[str] = set()
        rate = S.rate_of(ship)
        firing, _ = S.weather_effect(state)
        for key, tid in (("target", first), ("target_2", second)):
            if not tid:
                continue
            if key == "target_2" and tid == first:
                errors.setdefault(key, []).append(
                    "Broadside fire cannot be split: pick another target (11.)."
                )
                continue
            if ship.sheet.get("melee"):
                errors.setdefault(key, []).append("No firing in a continuing melee (15.).")
                continue
            tgt = self.target_of(state, ship, tid)
            if isinstance(tgt, str):
                errors.setdefault(key, []).append(tgt)
                continue
            pos, heading, is_bat, name = tgt
            # the sides not used by the first target, in this order
            sides = ("starboard", "port") if not used else ("starboard",) if "port" in used else ("port",)
            loaded = S.loaded_sides(ship.sheet, state.turn, sides)
            if not loaded:
                shot = None
            elif used or is_bat:
                shot = S.shot_at(state, ship.id, tid, rate, loaded, plan.samples, pos, heading, is_bat)
            else:
                # both broadsides free at a ship: aimed here, and fired by the phase (S.aimed_shot) if
                # nothing it was aimed from changed (so not through shot_at()'s memo: one key fewer)
                shot = S.aim(rate, loaded, plan.samples, pos, heading)
                if shot is not None:
                    S.state_memo(state).aimed[ship.id] = (tid, ship, plan.samples, shot)
            if shot is None:
                errors.setdefault(key, []).append(no_bearing(name))
                continue
            # in fair weather every gun of a loaded side (which has guns) may fire: no call to make
            if (
                firing != "all"
                and C.weather_guns_allowed(S.guns_in(ship.sheet, shot.side), rate, firing) <= 0
            ):
                errors.setdefault(key, []).append("No firing in this weather for this vessel (5., S05).")
                continue
            used.add(shot.side)
            shots.append((tid, shot))
        return errors, shots

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        return self.order_checker(state)(ship, order)

    def order_checker(self, state: BattleState) -> Callable[[ShipState, ShipOrder], FieldErrors]:
        """Return :meth:`check_order` for the orders of ``state``: the move's plan (shared with the phase,
        ``StateMemo.planned``), the errors of the other fields and the fire plan.

        The common order, a move and at most one target (so no :meth:`other_errors`), is checked on a quick
        path when every ship is seen and the weather lets every gun fire (worked out once here): the checks
        of :meth:`fire_plan` for a ship target with both broadsides loaded written out (:meth:`target_of`'s
        tests, ``S.both_loaded``), the same ``S.aim`` and the same ``StateMemo.aimed`` entry. Anything else
        (a battery, a second target, a side not loaded, a melee, other fields...) takes the general path.
        """
        memo = S.state_memo(state)
        ships, aimed, planned = memo.ships, memo.aimed, memo.planned
        turn = state.turn
        # unlimited visibility: every ship is seen (target_of()); fair weather: no call to make for the guns
        quick = state.conditions.visibility is None and S.weather_effect(state)[0] == "all"

        def check(ship: ShipState, order: ShipOrder) -> FieldErrors:
            data = order.data
            plan = planned(ship, data)  # S.planned_move()
            if quick and plan.error is None and MOVE_AND_TARGET_KEYS.issuperset(data):
                tid = data.get("target")
                if tid is None:
                    return {}  # no fire order: fire_plan() finds nothing
                t = ships.get(tid) if type(tid) is str else None
                if (
                    t is not None
                    and t.side != ship.side
                    and t.status == "active"  # target_of()
                    and not ship.sheet.get("melee")
                ):
                    loaded = S.both_loaded(ship.sheet, turn)
                    if loaded is not None:
                        pos = t.position
                        assert isinstance(pos, Point)
                        samples = plan.samples
                        shot = S.aim(S.rate_of(ship), loaded, samples, pos, t.heading)
                        if shot is None:
                            return {"target": [no_bearing(t.name)]}
                        aimed[ship.id] = (t.id, ship, samples, shot)  # as fire_plan() (t.id is tid)
                        return {}
            return self.plan_errors(state, ship, data, plan)

        return check

    def plan_errors(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON], plan: S.MovePlan
    ) -> FieldErrors:
        """Return the errors of an order of ``ship`` whose move is ``plan`` (:meth:`check_order`'s general
        path): the plan's, the other fields' and the fire plan's."""
        errors: FieldErrors = {}
        if plan.error:
            errors.setdefault(plan.field, []).append(plan.error)
        if not MOVE_AND_FIRE_KEYS.issuperset(data):
            self.other_errors(state, ship, data, plan, errors)
        if not plan.error:
            ferr, _ = self.fire_plan(state, ship, plan, data)
            for k, v in ferr.items():
                errors.setdefault(k, []).extend(v)
        else:
            # No track to fire along (the move is refused), but a target that is no target wherever she moves
            # (her own side's, struck, unseen, unknown) is said now, with the move's error (NW-CAMP-30).
            for key in ("target", "target_2"):
                tid = data.get(key)
                if tid and isinstance(tid, str):
                    why = self.target_of(state, ship, tid)
                    if isinstance(why, str):
                        errors.setdefault(key, []).append(why)
        return errors

    def other_errors(
        self,
        state: BattleState,
        ship: ShipState,
        data: Mapping[str, JSON],
        plan: S.MovePlan,
        errors: FieldErrors,
    ) -> None:
        """Add to ``errors`` those of the order fields other than the move and the fire orders (9., 15., 19.,
        21.-24.). Each check finds nothing when its field is left out: :meth:`check_order` skips them all for
        an order of :data:`MOVE_AND_FIRE_KEYS` only (most orders)."""
        sh = ship.sheet
        anchor = S.sval(data.get("anchor"), "none")
        if anchor == "drop":
            if sh.get("anchored"):
                errors.setdefault("anchor", []).append("Already at anchor.")
            elif S.depth_at(state, plan.end) >= T.ANCHOR_MAX_DEPTH_FATHOMS:
                errors.setdefault("anchor", []).append(
                    "Vessels may only anchor in less than 300 fathoms (22.)."
                )
        elif anchor in ("raise", "cut") and not sh.get("anchored"):
            errors.setdefault("anchor", []).append("Not at anchor.")
        sails = S.sval(data.get("sails"), "keep")
        if sails == "make" and S.sval(sh.get("sails"), "set") == "set":
            errors.setdefault("sails", []).append("Sails are already set.")
        if sails == "furl" and S.sval(sh.get("sails"), "set") != "set":
            errors.setdefault("sails", []).append("Sails are not set.")
        if data.get("cast_log") and plan.distance > T.CAST_LOG_MAX_MOVE_MM + 1e-9:
            errors.setdefault("cast_log", []).append("Cast the log only when moving 60 mm or less (21.).")
        ships = S.state_memo(state).ships
        for key, what in (("tow", "tow"), ("assist", "assist")):
            oid = S.sval(data.get(key))
            if not oid:
                continue
            o = ships.get(oid)
            if o is None or o.side != ship.side or o.id == ship.id or not o.active:
                errors.setdefault(key, []).append("Name another vessel of your own side.")
                continue
            assert isinstance(o.position, Point) and isinstance(ship.position, Point)
            d = distance(o.position, ship.position)
            reach = T.TOW_REACH_MM if key == "tow" else T.REFLOAT_ASSIST_REACH_MM
            if d > reach:
                errors.setdefault(key, []).append(
                    f"{o.name} is {d:.0f} mm away; within {reach:g} mm to {what}."
                )
            if key == "assist" and not o.sheet.get("aground"):
                errors.setdefault(key, []).append(f"{o.name} is not aground.")
        if data.get("cast_off_tow") and not (sh.get("towing") or sh.get("towed_by") or sh.get("tow_target")):
            errors.setdefault("cast_off_tow", []).append("No tow to cast off.")
        if data.get("refloat") and not sh.get("aground"):
            errors.setdefault("refloat", []).append("Not aground.")
        if data.get("jury_rig"):
            if not sh.get("dismasted") or sh.get("jury_mast"):
                errors.setdefault("jury_rig", []).append(
                    "Only a dismasted vessel without one raises a jury mast."
                )
            elif S.inum(sh.get("dismasted_moves")) < T.JURY_MAST_AFTER_MOVES:
                errors.setdefault("jury_rig", []).append(
                    "A temporary mast may be raised after two moves (6.)."
                )
        board = S.sval(data.get("board"))
        if board:
            o = ships.get(board)
            if o is None or sh.get("entangled_with") != board:
                errors.setdefault("board", []).append(
                    "You can board only a vessel you are entangled with (15.)."
                )
            elif o.side == ship.side or not o.active:
                errors.setdefault("board", []).append(f"{o.name} cannot be boarded.")
            elif sh.get("melee"):
                errors.setdefault("board", []).append("A melee is already being fought (15.).")
        if data.get("cast_off"):
            if not sh.get("entangled_with"):
                errors.setdefault("cast_off", []).append("Not entangled.")
            elif sh.get("melee"):
                errors.setdefault("cast_off", []).append("Not while a melee is fought (15.).")
        mt = S.sval(data.get("mortar_target"))
        if mt:
            err = self.mortar_error(state, ship, plan.end, mt)
            if err:
                errors.setdefault("mortar_target", []).append(err)
        for k, v in self.works_errors(state, ship, data, anchor).items():
            errors.setdefault(k, []).extend(v)

    def mortar_error(self, state: BattleState, ship: ShipState, at: Point, tid: str) -> str:
        """Return why ``tid`` may not be the mortar's target from ``at`` (the end of the move), or "".

        A target is an enemy vessel afloat or an enemy shore battery not silenced (terrain ``battery`` with
        that ``id``), 100-500 mm away (23.; NW-SAIL-26).
        """
        sh = ship.sheet
        if S.inum(sh.get("mortars")) <= 0:
            return "This vessel carries no mortar."
        if S.inum(sh.get("mortar_ready_turn"), 1) > state.turn:
            return f"The mortar is loading until turn {S.inum(sh.get('mortar_ready_turn'))} (23.)."
        firing, _ = S.weather_effect(state)
        if firing != "all" and C.weather_guns_allowed(1, S.rate_of(ship), firing) <= 0:
            return "No firing in this weather for this vessel (5., S05)."
        if sh.get("melee"):
            return "No firing in a continuing melee (15.)."
        o = S.state_memo(state).ships.get(tid)
        if o is not None:
            if o.side == ship.side or not o.active:
                return "Name an enemy vessel afloat."
            vis = state.conditions.visibility
            if vis is not None and o.id not in S.seen_by(state, ship.side):  # as target_of() (A2)
                return f"{o.name} cannot be seen (visibility {vis:g} mm, A2)."
            assert isinstance(o.position, Point)
            pos, name = o.position, o.name
        else:
            bat = S.battery_of(state, tid)
            if bat is None or not isinstance(bat[1].position, Point):
                return f"No vessel or shore battery {tid!r} in this battle."
            if S.sval(bat[1].props.get("side")) == ship.side:
                return "That battery is on your side."
            if bat[1].props.get("silenced"):
                return "That battery is silenced."
            pos, name = bat[1].position, S.sval(bat[1].props.get("name"), tid)
        d = distance(at, pos)
        lo, hi = T.MORTAR_RANGE_MM
        if not lo <= d <= hi:
            return f"{name} would be {d:.0f} mm away: 100-500 (23.)."
        return ""

    def works_errors(
        self, state: BattleState, ship: ShipState, data: Mapping[str, JSON], anchor: str
    ) -> FieldErrors:
        """Return the errors of the ``works`` order fields (24.; NW-SAIL-23 to NW-SAIL-25)."""
        errors: FieldErrors = {}
        sh = ship.sheet
        assert isinstance(ship.position, Point)
        land = S.inum(data.get("land_party"))
        task = S.sval(data.get("works_task"), "keep")
        recall = bool(data.get("works_recall"))
        if (
            anchor != "raise"
            and land <= 0
            and task == "keep"
            and not recall
            and data.get("works_facing") is None
        ):
            return errors  # no works order, and no anchor to raise with a party ashore
        site = S.works_of(state, ship.id)
        party = S.inum(site.props.get("party")) if site is not None else 0
        anchored = bool(sh.get("anchored")) and not S.inum(sh.get("anchor_raise_left"))
        reach = T.WORKS_LANDING_REACH_MM
        site_near = (
            site is not None
            and isinstance(site.position, Point)
            and distance(site.position, ship.position) <= reach + 1e-9
        )
        if anchor == "raise" and party > 0:
            errors.setdefault("anchor", []).append(
                f"Your working party of {party} men is ashore: re-embark it before raising the anchor, or "
                "cut the cable and leave it (NW-SAIL-24)."
            )
        if land > 0:
            msg = ""
            most = C.works_party_max(S.points(ship), S.points_start(ship))
            if recall:
                msg = "Land a party or re-embark it, not both."
            elif not anchored or anchor in ("raise", "cut"):
                msg = "A working party lands only from a vessel lying at anchor (22., NW-SAIL-23)."
            elif S.inum(sh.get("boats")) <= 0:
                msg = "No boats left to land a party (20.)."
            elif land > most:
                msg = (
                    f"At most {most} men may land: {S.points(ship)} points aboard, and 20% of "
                    f"{S.points_start(ship)} stay aboard (NW-SAIL-23)."
                )
            elif site is not None:
                if site.props.get("silenced"):
                    msg = "Her battery is silenced (NW-SAIL-24)."
                elif not site_near:
                    msg = f"Her battery is more than {reach:g} mm away (NW-SAIL-23)."
            else:
                shore = S.nearest_shore(state.terrain, ship.position)
                if shore is None:
                    msg = "There is no dry land (a shoal of depth 0) on this table (NW-SAIL-23)."
                elif distance(shore, ship.position) > reach + 1e-9:
                    msg = (
                        f"The nearest dry land is {distance(shore, ship.position):.0f} mm away: within "
                        f"{reach:g} mm to land a party (NW-SAIL-23)."
                    )
            if msg:
                errors.setdefault("land_party", []).append(msg)
        if data.get("works_facing") is not None and (site is not None or land <= 0):
            errors.setdefault("works_facing", []).append(
                "The battery's facing is set when the first party lands."
            )
        if recall:
            if party <= 0:
                errors.setdefault("works_recall", []).append("No working party ashore.")
            elif not sh.get("anchored") or not site_near:
                errors.setdefault("works_recall", []).append(
                    f"The party re-embarks only with the vessel at anchor within {reach:g} mm (NW-SAIL-24)."
                )
        if task != "keep":
            if party <= 0 and land <= 0:
                errors.setdefault("works_task", []).append("No working party ashore or landing.")
            elif recall:
                errors.setdefault("works_task", []).append("The party is re-embarking.")
            else:
                props = site.props if site is not None else {}
                positions = S.inum(props.get("positions"))
                guns = S.inum(props.get("guns"))
                if task == "gun" and not props.get("gun_landed"):
                    if positions <= guns:
                        errors.setdefault("works_task", []).append(
                            f"No prepared gun position is free ({positions} prepared, {guns} guns): prepare "
                            "one first (20 men ten moves, 24.)."
                        )
                    elif sum(S.inum(v) for v in S.dval(sh.get("guns")).values()) <= 0:
                        errors.setdefault("works_task", []).append("No gun left aboard to land (24.).")
                if (
                    task == "earthworks"
                    and S.inum(props.get("earth_mm")) >= positions * T.BATTERY_GUN_SPACING_MM
                ):
                    errors.setdefault("works_task", []).append(
                        f"Earthworks are raised along prepared gun positions: {positions} prepared, "
                        f"{S.inum(props.get('earth_mm'))} mm raised (24.)."
                    )
        return errors

    # --- default orders (A7) ------------------------------------------------------------------------------

    def top_speed(self, ship: ShipState) -> float | None:
        """Return the longest move in mm her rate sails undamaged (beam or quarter, S07), or rows if that is
        more (10.): ``ShipState.speed`` is the distance of her last move (NW-CAMP-29)."""
        sailing = max(T.SAILING_SPEEDS[T.RATE_SPEED_GROUP[S.rate_of(ship)]].values())
        return max(float(sailing), T.ROW_MAX_MM)

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        sh = ship.sheet
        data: dict[str, JSON] = {}
        if sh.get("aground"):
            data["refloat"] = True
        if sh.get("entangled_with") and not sh.get("melee"):
            data["cast_off"] = True
        if (
            sh.get("dismasted")
            and not sh.get("jury_mast")
            and S.inum(sh.get("dismasted_moves")) >= T.JURY_MAST_AFTER_MOVES
        ):
            data["jury_rig"] = True
        if (
            policy == "captain"
            and S.sval(sh.get("sails"), "set") == "furled"
            and not S.inum(sh.get("make_sail_left"))
            and not sh.get("anchored")
        ):
            data["sails"] = "make"
        move = self._keep_course(state, ship)
        if policy == "captain" and S.immobile_reason(ship) is None:
            move = self._captain_move(state, ship)
        data.update(move)
        if policy != "hold" and not sh.get("melee"):
            plan = S.plan_move(state, ship, data)
            if not plan.error:
                data.update(self._choose_targets(state, ship, plan))
        if self.check_order(state, ship, ShipOrder(ship_id=ship.id, data=data)):
            data = {k: v for k, v in data.items() if k not in ("target", "target_2")}
            if self.check_order(state, ship, ShipOrder(ship_id=ship.id, data=data)):
                data = self._keep_course(state, ship)
        return ShipOrder(ship_id=ship.id, data=data)

    def _keep_course(self, state: BattleState, ship: ShipState) -> dict[str, JSON]:
        plan = S.plan_move(state, ship, {"turn": 0.0})
        if plan.kind != "sail":
            return {"turn": 0.0}
        speed = min(max(ship.speed, plan.min_distance), plan.max_distance)
        return {"turn": 0.0, "speed": round(speed, 3)}

    def _choose_targets(self, state: BattleState, ship: ShipState, plan: S.MovePlan) -> dict[str, JSON]:
        assert isinstance(ship.position, Point)
        reach = C.max_range(S.rate_of(ship)) + plan.distance + 1
        cands = []
        for e in _enemies(state, ship.side):
            assert isinstance(e.position, Point)
            if distance(e.position, ship.position) <= reach:
                cands.append(e)
        out: dict[str, JSON] = {}
        used: set[str] = set()
        firing, _ = S.weather_effect(state)
        for key in ("target", "target_2"):
            best: tuple[float, str, S.Shot] | None = None
            for e in cands:
                if e.id in out.values():
                    continue
                assert isinstance(e.position, Point)
                shot = S.best_shot(
                    state, ship, plan.samples, e.position, e.heading, {"starboard", "port"} - used
                )
                if (
                    shot is None
                    or C.weather_guns_allowed(S.guns_on(ship, shot.side), S.rate_of(ship), firing) <= 0
                ):
                    continue
                if best is None or (shot.score, e.id) > (best[0], best[1]):
                    best = (shot.score, e.id, shot)
            if best is None:
                break
            out[key] = best[1]
            used.add(best[2].side)
        return out

    def _captain_move(self, state: BattleState, ship: ShipState) -> dict[str, JSON]:
        """A7's automatic captain: close to short range, bring a loaded broadside to bear, rake if possible,
        keep off shoals, other hulls and the table's edge; run when below a third of her points."""
        assert isinstance(ship.position, Point)
        enemies = _enemies(state, ship.side)
        keep = self._keep_course(state, ship)
        if not enemies:
            return keep
        here = ship.position
        nearest = min(
            enemies,
            key=lambda e: (distance(here, e.position) if isinstance(e.position, Point) else 1e9, e.id),
        )
        assert isinstance(nearest.position, Point)
        rate = S.rate_of(ship)
        want = T.GUNNERY_RANGES["rated" if C.is_rated(rate) else "unrated"][0] * 0.7
        fleeing = S.points(ship) < S.points_start(ship) / 3
        shoal_list = S.shoals(state.terrain)
        gdepth = C.grounding_depth(rate, sum(S.inum(v) for v in S.dval(ship.sheet.get("guns")).values()))
        others = [
            s
            for s in state.ships
            if s.id != ship.id
            and s.status in ("active", "struck", "captured")
            and isinstance(s.position, Point)
            and abs(s.position.x - here.x) < 270
            and abs(s.position.y - here.y) < 270
        ]
        best: tuple[float, dict[str, JSON]] | None = None
        for turn in (0, 15, -15, 30, -30, 45, -45, 60, -60, 90, -90, 120, -120, 150, -150, 180):
            move: dict[str, JSON] = {"turn": float(turn)}
            plan = S.plan_move(state, ship, move)
            if plan.error or plan.kind != "sail":
                continue
            end = plan.end
            score = 0.0
            d_end = distance(end, nearest.position)
            if fleeing:
                score += d_end / 10.0
            else:
                score -= abs(d_end - want) / 10.0
                shot = S.best_shot(
                    state, ship, plan.samples, nearest.position, nearest.heading, ("starboard", "port")
                )
                if shot is not None:
                    score += 8.0 + 3.0 * shot.score
            m = state.map
            if (
                not on_table(end, m.width, m.height)
                or min(end.x, end.y, m.width - end.x, m.height - end.y) < 40
            ):
                score -= 300.0
            near = [
                o.position
                for o in others
                if isinstance(o.position, Point)
                and distance(o.position, here) <= plan.distance + T.CONTACT_MM + 8
            ]
            for p, _ in plan.samples[1:] if near else ():
                if any(distance(p, q) < T.CONTACT_MM + 8 for q in near):
                    score -= 100.0
                    break
            if shoal_list:
                for p, _ in plan.samples[1:]:
                    if S.depth_at(state, p, shoal_list) <= gdepth + 1:
                        score -= 200.0
                        break
            score -= abs(turn) / 1000.0
            if best is None or score > best[0]:
                best = (score, move)
        if best is None:
            return keep
        return best[1]

    # --- fog of war ---------------------------------------------------------------------------------------

    def visible_ship_ids(self, state: BattleState, side: str) -> set[str]:
        return S.visible_to_side(state, side)

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        if not tally_shown(side, state):
            return {}  # NW-CAMP-15: a bare tally mixes the sides' hits; with three sides each reads its log
        # A2: an opponent knows the points their side scored (the log) and the visible state (flags).
        return {"damage_scored": ship.sheet.get("damage_scored", 0)}

    # --- reference ----------------------------------------------------------------------------------------

    def preview(self, state: BattleState, ship: ShipState, order: ShipOrder) -> list[str]:
        data = order.data
        plan = S.plan_move(state, ship, data)
        lines: list[str] = []
        if plan.error:
            return [f"Not allowed: {plan.error}"]
        sector, theta = C.point_of_sailing(plan.end_heading, S.wind_from(state))
        lines.append(
            f"{plan.kind.capitalize()}: {plan.distance:.0f} mm (between {plan.min_distance:.0f} and "
            f"{plan.max_distance:.0f}), ends at ({plan.end.x:.0f}, {plan.end.y:.0f}) heading "
            f"{plan.end_heading:.0f}; wind {theta:.0f} degrees off the bow ({sector.replace('_', ' ')})."
        )
        lines.extend(plan.notes)
        _, shots = self.fire_plan(state, ship, plan, data)
        for tid, shot in shots:
            tgt = self.target_of(state, ship, tid)
            target_name = tid if isinstance(tgt, str) else tgt[3]  # the vessel's or battery's name
            guns = S.guns_on(ship, shot.side)
            mods = C.firing_factor_modifiers(
                grade=S.sval(ship.sheet.get("grade"), "average"),
                nation=S.nation_of(ship),
                range_name=shot.band,
                rake=shot.rake,
                first_time=not ship.sheet.get("fired_once"),
                wind_force=S.wind_force(state),
                merchant=S.service_of(ship) != "warship",
            )
            base = sum(v for _, v in mods)
            lo, mid, hi = (C.chart_result(guns, base + k, shot.double)[0] for k in (4, 7, 10))
            lines.append(
                f"{shot.side.capitalize()} broadside, {guns} guns{' double shot' if shot.double else ''} "
                f"at {target_name}: {shot.range:.0f} mm {shot.band}"
                f"{', ' + shot.rake + ' rake' if shot.rake else ''};"
                f" FF {base:+d} + 2 average dice -> {lo}/{mid}/{hi} points (low/average/high)."
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
        def rows(x: Any) -> JSON:
            if isinstance(x, (tuple, list)):
                return [rows(v) for v in x]
            if isinstance(x, dict):
                return {str(k): rows(v) for k, v in x.items()}
            return x  # type: ignore[no-any-return]

        return {
            "wind_direction": [
                {"low": a, "high": b, "from": n, "degrees": d} for a, b, n, d in T.WIND_DIRECTION
            ],
            "wind_change": {
                "every_moves": T.WIND_CHANGE_EVERY_MOVES,
                "shift_per_move_deg": T.WIND_SHIFT_PER_MOVE_DEG,
                "sense_average_die": rows(T.WIND_SENSE),
            },
            "weather_chart": [
                {"low": a, "high": b, "condition": c, "wind": w, "visibility_mm": v}
                for a, b, c, w, v in T.WEATHER_CHART
            ],
            "weather_change": {
                "every_moves": T.WEATHER_CHANGE_EVERY_MOVES,
                "step_per_move": T.WEATHER_STEP_PER_MOVE,
                "night_visibility_factor": T.NIGHT_VISIBILITY_FACTOR,
            },
            "weather_effects": [
                {"condition": c, "wind": w, "firing": f, "speed_factor": s}
                for (c, w), (f, s) in T.WEATHER_EFFECTS.items()
            ],
            "sailing_speeds_mm": rows(T.SAILING_SPEEDS),
            "rate_speed_group": rows(T.RATE_SPEED_GROUP),
            "points_of_sailing": [{"below_deg": b, "sector": n} for b, n in T.POINTS_OF_SAILING],
            "manoeuvre": {
                "closest_to_wind_deg": T.CLOSEST_TO_WIND_DEG,
                "min_move_fraction": T.MIN_MOVE_FRACTION,
                "half_speed_turns_when_lost": T.HALF_SPEED_TURN_LOSS_FRACTION,
                "turning_circle_diameter_mm": rows(T.TURNING_CIRCLE_DIAMETER_MM),
                "turning_circle_by_rate": rows(T.TURNING_CIRCLE_BY_RATE),
                "tack_end_off_wind_deg": T.TACK_END_OFF_WIND_DEG,
                "tack_forbidden_winds": list(T.TACK_FORBIDDEN_WINDS),
            },
            "speed_damage": {
                "mast_damage_pct": T.MAST_DAMAGE_REDUCTION_PCT,
                "severe_underwater_pct": T.SEVERE_UNDERWATER_REDUCTION_PCT,
                "drift_fraction_of_aft": T.DRIFT_FRACTION_OF_AFT,
                "jury_mast_after_moves": T.JURY_MAST_AFTER_MOVES,
                "jury_mast_fraction": T.JURY_MAST_FRACTION,
            },
            "efficiency_grades": rows(T.EFFICIENCY_GRADES),
            "towing": {
                "secure_moves": T.TOW_SECURE_MOVES,
                "speed_fraction": T.TOW_SPEED_FRACTION,
                "reach_mm": T.TOW_REACH_MM,
                "line_mm": T.TOW_LINE_MM,
            },
            "rowing": {"max_points": T.ROW_MAX_POINTS, "max_mm": T.ROW_MAX_MM},
            "gunnery_ranges_mm": rows(T.GUNNERY_RANGES),
            "gunnery": {
                "double_shot_range_factor": T.DOUBLE_SHOT_RANGE_FACTOR,
                "double_shot_load_moves": T.DOUBLE_SHOT_LOAD_MOVES,
                "reload_moves": T.RELOAD_MOVES,
                "arc_of_fire_deg": T.ARC_OF_FIRE_DEG,
                "rake_arc_deg": T.RAKE_ARC_DEG,
                "shore_battery_arc_deg": T.SHORE_BATTERY_ARC_DEG,
            },
            "firing_factor_modifiers": rows(T.FIRING_FACTOR_MODIFIERS),
            "firing_factor": {
                "average_dice": T.FIRING_FACTOR_DICE,
                "min_effect": T.FF_MIN_EFFECT,
                "max_column": T.FF_MAX_COLUMN,
                "nation_bonus": list(T.NATION_BONUS),
                "nation_neutral": list(T.NATION_NEUTRAL),
                "chart_max_row": T.CHART_MAX_ROW,
            },
            "gunnery_chart": [[list(c) for c in row] for row in T.GUNNERY_CHART],
            "gunnery_chart_corrections": [
                {"guns": g, "ff": f, "printed": list(p), "used": list(u), "ruling": r}
                for (g, f), (p, u, r) in T.GUNNERY_CHART_CORRECTIONS.items()
            ],
            "damage_chart": [
                {"low": a, "high": b, "result": c, "text": T.DAMAGE_RESULT_TEXT[c]}
                for a, b, c in T.DAMAGE_CHART
            ],
            "damage_points_per_roll": T.DAMAGE_POINTS_PER_ROLL,
            "damage_effects": {
                "no_signals_moves": rows(T.NO_SIGNALS_MOVES),
                "no_course_change_moves": rows(T.NO_COURSE_CHANGE_MOVES),
                "wheel_turn_deg": rows(T.WHEEL_TURN_DEG),
                "pumps_sink_moves": T.PUMPS_SINK_MOVES,
            },
            "fires": {
                "attempt_needed": list(T.FIRE_ATTEMPT_NEEDED),
                "explosion_dice": T.FIRE_EXPLOSION_DICE,
                "explosion_score": T.FIRE_EXPLOSION_SCORE,
                "out_of_control_damage": T.FIRE_OUT_OF_CONTROL_DAMAGE,
                "explosion_radius_mm": T.EXPLOSION_RADIUS_MM,
            },
            "boarding": {
                "leave_aboard_fraction": T.BOARDING_LEAVE_ABOARD_FRACTION,
                "modifiers": rows(T.BOARDING_MODIFIERS),
                "decks_by_rate": rows(T.DECKS_BY_RATE),
                "prize_crew_fraction": T.PRIZE_CREW_FRACTION,
            },
            "striking": {"compulsory_below_fraction": T.STRIKE_BELOW_FRACTION},
            "entanglement": {
                "contact_mm": T.CONTACT_MM,
                "separate_needed": T.ENTANGLE_SEPARATE_NEEDED,
                "modifiers": rows(T.ENTANGLE_MODIFIERS),
                "broadside_to_broadside_deg": T.BROADSIDE_TO_BROADSIDE_DEG,
            },
            "ships_boats": rows(T.SHIPS_BOATS),
            "grounding_depth_by_rate": rows(T.GROUNDING_DEPTH_BY_RATE),
            "grounding_depth_by_guns": [
                {"min_guns": a, "max_guns": b, "fathoms": f} for a, b, f in T.GROUNDING_DEPTH_BY_GUNS
            ],
            "grounding": {
                "damage_fraction": T.GROUNDING_DAMAGE_FRACTION,
                "refloat_needed": T.REFLOAT_NEEDED,
                "assist_bonus": T.REFLOAT_ASSIST_BONUS,
                "fail_damage": T.REFLOAT_FAIL_DAMAGE,
                "assist_reach_mm": T.REFLOAT_ASSIST_REACH_MM,
                "cast_log_max_move_mm": T.CAST_LOG_MAX_MOVE_MM,
            },
            "anchoring": {
                "max_depth_fathoms": T.ANCHOR_MAX_DEPTH_FATHOMS,
                "drop_moves": T.ANCHOR_DROP_MOVES,
                "raise_moves": T.ANCHOR_RAISE_MOVES,
                "cut_moves": T.ANCHOR_CUT_MOVES,
                "man_masts_moves": T.MAN_MASTS_MOVES,
                "set_sails_moves": T.SET_SAILS_MOVES,
            },
            "mortars": {
                "damage": T.MORTAR_DAMAGE,
                "load_moves": T.MORTAR_LOAD_MOVES,
                "range_mm": list(T.MORTAR_RANGE_MM),
                "hit_radius_mm": T.MORTAR_HIT_RADIUS_MM,
                "spider_size_mm": T.MORTAR_SPIDER_SIZE_MM,
                "spider_spacing_mm": T.MORTAR_SPIDER_SPACING_MM,
            },
            "mortar_ranging": [
                {"low": a, "high": b, "result": r, "fraction": f} for a, b, r, f in T.MORTAR_RANGING
            ],
            "mortar_spider": {str(k): list(v) for k, v in T.MORTAR_SPIDER.items()},
            "shore_batteries": {
                "gun_spacing_mm": T.BATTERY_GUN_SPACING_MM,
                "points_per_gun": rows(T.BATTERY_POINTS_PER_GUN),
                "works_men_moves": rows(T.BATTERY_WORKS),
                "garrison_per_gun": T.BATTERY_GARRISON_PER_GUN,
                "garrison_troops_fraction": T.BATTERY_GARRISON_TROOPS_FRACTION,
                "mortar_hit_radius_mm": "max(20, guns x 2 / 2) (NW-SAIL-26)",
            },
            "shore_works": {
                "tasks": {
                    k: {
                        "works": v,
                        "men": T.BATTERY_WORKS[v][0],
                        "moves": T.BATTERY_WORKS[v][1],
                        "men_moves": C.works_men_moves(k),
                    }
                    for k, v in T.WORKS_TASKS.items()
                },
                "landing_reach_mm": T.WORKS_LANDING_REACH_MM,
                "keep_aboard_fraction_of_start": T.WORKS_KEEP_ABOARD_FRACTION,
                "men_per_gun": T.WORKS_MEN_PER_GUN,
                "section_points": {
                    "open": C.works_section_points(False),
                    "earth": C.works_section_points(True),
                },
                "rulings": ["NW-SAIL-23", "NW-SAIL-24", "NW-SAIL-25"],
            },
            "marines": {"above_points": T.MARINES_ABOVE_POINTS, "per_gun": 1},
            "merchants": {
                "merchant_crew_fraction": T.MERCHANT_CREW_FRACTION,
                "transport_guns_fraction": T.TRANSPORT_GUNS_FRACTION,
                "transport_crew_fraction": T.TRANSPORT_CREW_FRACTION,
            },
            "ship_definitions": [
                {"country": c, "type": t, "guns": g, "mortars": m, "points": p}
                for c, t, g, m, p in T.SHIP_DEFINITIONS
            ],
        }


RULESET = Sail1700()
