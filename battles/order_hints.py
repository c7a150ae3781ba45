"""What the order form shows beside a rule set's generic fields: legal ranges, fixed choices, suggestions.

The order form is generated from ``RuleSet.order_types`` (see :mod:`battles.order_forms`); this module adds
what a rule set exposes about one ship's current state that the field specs cannot say: ``ww2_jackson``'s
sheet keeps ``max_speed`` (a ship at half speed cannot be ordered to full), ``memoir_sea`` publishes
``legal_courses``, ``acw_river`` its ``move_points``, ``sail_1700`` its move plan (the distance a vessel may
sail this move), ``ultra_simple`` its table of turns. Nothing here decides legality: the rules do, through
``validate_orders``; a hint only helps the player pick a legal value first time. Every hint is read from the
rules package; a rule set with no entry gets the field specs' bounds only.

Hints never raise: a rule set whose helper fails (an odd state, a renamed helper after a merge) yields no
hint and the form falls back to the field specs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.model import JSON, BattleState, ShipState

logger = logging.getLogger(__name__)

MAX_SUGGESTIONS = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldHint:
    """What to show for one order field of one ship now.

    ``min`` / ``max``: the legal range from the ship's state (in the field's unit), shown and used as the
    input's bounds. ``choices``: the only values that make sense, as (value, label): the field becomes a
    select. ``suggestions``: values offered in a datalist (free text stays allowed). ``note``: a line of help.
    """

    min: float | None = None
    max: float | None = None
    choices: tuple[tuple[str, str], ...] | None = None
    suggestions: tuple[str, ...] = ()
    note: str = ""


Hints = dict[str, FieldHint]
HintFn = Callable[[BattleState, ShipState, Mapping[str, JSON]], Hints]
StandingFn = Callable[[ShipState], dict[str, JSON]]


def _num(value: Any, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


# --- ww2_jackson -----------------------------------------------------------------------------------------


def _ww2_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    # The sheet's max_speed is what the damaged ship can make now (W38; record.py "max_speed").
    cap = _num(ship.sheet.get("max_speed"), -1.0)
    hints: Hints = {
        "course": FieldHint(note=f"Degrees clockwise from north; now {ship.heading:g}."),
    }
    if cap >= 0:
        hints["speed"] = FieldHint(
            min=0, max=cap, note=f"{ship.name} can make {cap:g} knots now; now at {ship.speed:g}."
        )
    mounts = ship.stats.get("torpedoes")
    if isinstance(mounts, list) and mounts:
        choices = [("-1", "every loaded mount that bears")]
        for i, row in enumerate(mounts):
            name = row.get("name") if isinstance(row, dict) else None
            choices.append((str(i), f"{i}: {name}" if name else f"mount {i}"))
        hints["torpedo_mount"] = FieldHint(choices=tuple(choices))
    if not state.conditions.night:
        for key in ("searchlight", "star_shell"):
            hints[key] = FieldHint(note="Night actions only (A6).")
    return hints


def _ww2_standing(ship: ShipState) -> dict[str, JSON]:
    # The rules keep both standing orders on the sheet ("preference", "cleared"); CampaignShip.sheet carries
    # the sheet from battle to battle, so the standing orders follow the ship through the campaign.
    out: dict[str, JSON] = {}
    pref = ship.sheet.get("preference")
    if isinstance(pref, str) and pref:
        out["damage_preference"] = pref
    cleared = ship.sheet.get("cleared")
    if isinstance(cleared, bool):
        out["cleared_for_action"] = cleared
    return out


# --- ultra_simple ----------------------------------------------------------------------------------------


def _turn_label(deg: int) -> str:
    if deg == 0:
        return "no turn"
    return f"{abs(deg)} degrees to {'starboard' if deg > 0 else 'port'}"


def _ultra_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    from rules.rulesets.ultra_simple import tables as T

    hexes = int(_num(data.get("hexes"), max(T.MOVE_HEXES)))
    return {
        "hexes": FieldHint(choices=tuple((str(n), f"{n} hex{'es' if n > 1 else ''}") for n in T.MOVE_HEXES)),
        "turn": FieldHint(choices=tuple((str(d), _turn_label(d)) for d in T.TURNS_DEG)),
        "turn_after": FieldHint(
            choices=tuple((str(n), "before moving" if n == 0 else f"after hex {n}") for n in range(hexes + 1))
        ),
    }


# --- memoir_sea ------------------------------------------------------------------------------------------


def _memoir_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    from rules.rulesets.memoir_sea.ruleset import legal_courses

    if ship.sheet.get("breaking_off"):
        return {"course": FieldHint(note=f"{ship.name} is breaking off (M08): leave the course empty.")}
    speed = int(_num(ship.stats.get("speed"), 1))
    courses = legal_courses(speed)
    return {
        "course": FieldHint(
            max=speed,
            suggestions=tuple(c for c in courses if c)[:MAX_SUGGESTIONS],
            note=f"F = one hex ahead, L / R = turn 60 degrees (costs a hex, after a hex ahead); "
            f"{ship.name} moves up to {_hexes(speed)}.",
        )
    }


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


# --- acw_river -------------------------------------------------------------------------------------------


def _acw_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    from rules.registry import get_ruleset

    rs: Any = get_ruleset("acw_river")
    if ship.sheet.get("aground"):
        return {"course": FieldHint(note=f"{ship.name} is aground and cannot move (section 9).")}
    ahead = rs.move_points(ship, False)
    astern = rs.move_points(ship, True)
    return {
        "course": FieldHint(
            note=f"F = one hex, L / R = 30-degree turns (over 60 degrees in all costs hexes); "
            f"{_hexes(ahead)} ahead or {astern} astern this move."
        )
    }


# --- sail_1700 -------------------------------------------------------------------------------------------


def _sail_hints(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    from rules.rulesets.sail_1700.ships import plan_move

    plan = plan_move(state, ship, {k: v for k, v in data.items() if k in ("turn", "tack", "row")})
    if plan.error:
        return {}
    lo, hi = round(plan.min_distance), round(plan.max_distance)
    return {
        "speed": FieldHint(
            min=lo, max=hi, note=f"{plan.kind.capitalize()}: between {lo} and {hi} mm this move on this turn."
        )
    }


HINTS: dict[str, HintFn] = {
    "ww2_jackson": _ww2_hints,
    "ultra_simple": _ultra_hints,
    "memoir_sea": _memoir_hints,
    "acw_river": _acw_hints,
    "sail_1700": _sail_hints,
}

STANDING: dict[str, StandingFn] = {
    "ww2_jackson": _ww2_standing,
}


def hints_for(state: BattleState, ship: ShipState, data: Mapping[str, JSON]) -> Hints:
    """Return the field hints for ``ship`` with the order ``data`` being edited (empty when none apply)."""
    fn = HINTS.get(state.ruleset)
    if fn is None:
        return {}
    try:
        return fn(state, ship, data)
    except Exception:  # a hint must never take the order form down
        logger.exception("order hints failed for %s %s", state.ruleset, ship.id)
        return {}


def standing_from_state(ruleset: str, ship: ShipState) -> dict[str, JSON]:
    """Return the standing orders the rules keep on the ship's sheet, by order field name."""
    fn = STANDING.get(ruleset)
    if fn is None:
        return {}
    try:
        return fn(ship)
    except Exception:
        logger.exception("standing orders failed for %s %s", ruleset, ship.id)
        return {}
