"""Scenario files: one JSON format for a whole battle set-up.

A scenario names its rule set, the ship classes' stats (validated by the rule set's class schema),
the sides, the ships with their starting positions, headings and speeds, the conditions and terrain.
``python -m rules simulate`` reads it, and the website creates battles from it. Bundled scenarios live
in ``rules/scenarios/`` (see :func:`bundled_scenarios`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from .dice import Dice
from .engine import placement_problems, shared_position
from .errors import InvalidDocument
from .model import (
    JSON,
    BattleState,
    Conditions,
    Event,
    MapSpec,
    Position,
    ShipState,
    SideInfo,
    TerrainFeature,
)
from .registry import get_ruleset
from .serial import from_json, to_json


@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioClass:
    """A ship class as a scenario carries it. ``heuristic`` marks stats made by the A4 house heuristic."""

    key: str
    name: str
    nation: str = ""
    type: str = ""
    stats: dict[str, JSON] = field(default_factory=dict)
    source: str = ""
    heuristic: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioShip:
    """A ship's starting place: its class key, side, position, heading (degrees) and speed."""

    id: str
    name: str
    class_key: str
    side: str
    position: Position
    heading: float = 0.0
    speed: float = 0.0
    sheet: dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """A whole battle set-up. ``turns`` is the suggested length for simulations."""

    ruleset: str
    key: str
    name: str
    description: str = ""
    date: str = ""
    sources: tuple[str, ...] = ()
    map: MapSpec
    sides: tuple[SideInfo, ...]
    classes: tuple[ScenarioClass, ...]
    ships: tuple[ScenarioShip, ...]
    conditions: Conditions = field(default_factory=Conditions)
    terrain: tuple[TerrainFeature, ...] = ()
    options: dict[str, JSON] = field(default_factory=dict)
    turns: int = 12


def load_scenario(data: dict[str, Any] | str) -> Scenario:
    """Parse a scenario from JSON values or a JSON string.

    Raise :class:`InvalidDocument` when it is malformed, a ship names an unknown class or side, or a
    class's stats fail the rule set's schema (the message names class and field).
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise InvalidDocument(f"not valid JSON: {exc}") from exc
    scenario = from_json(Scenario, data)
    rs = get_ruleset(scenario.ruleset)
    if scenario.map.geometry != rs.geometry:
        raise InvalidDocument(
            f"map geometry {scenario.map.geometry!r} is not {scenario.ruleset}'s geometry {rs.geometry!r}"
        )
    for what, keys in (
        ("class", [c.key for c in scenario.classes]),
        ("ship", [s.id for s in scenario.ships]),
        ("side", [s.key for s in scenario.sides]),
    ):
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        if dupes:
            raise InvalidDocument(f"duplicate {what} keys: {', '.join(dupes)}")
    classes = {c.key for c in scenario.classes}
    sides = {s.key for s in scenario.sides}
    placed: dict[Position, str] = {}
    for c in scenario.classes:
        errors = rs.validate_class(c.stats)
        if errors:
            detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items())
            raise InvalidDocument(f"class {c.key!r}: {detail}")
    for s in scenario.ships:
        if s.class_key not in classes:
            raise InvalidDocument(f"ship {s.id!r}: unknown class {s.class_key!r}")
        if s.side not in sides:
            raise InvalidDocument(f"ship {s.id!r}: unknown side {s.side!r}")
        # a ship off the map would leave the battle at her first move (NW-SAIL-12 and the like)
        problems = placement_problems(f"ship {s.id!r}", s.position, s.heading, s.speed, scenario.map)
        if problems:
            raise InvalidDocument(problems[0])
        other = placed.setdefault(s.position, s.id)
        if other != s.id and not rs.stacking:  # as rules.check_state
            raise InvalidDocument(shared_position(f"ship {s.id!r}", s.position, other))
    problems = rs.condition_errors(scenario.conditions)  # NW-SAIL-35
    if problems:
        raise InvalidDocument(f"conditions: {problems[0]}")
    if not scenario.turns >= 1:
        raise InvalidDocument(f"turns must be at least 1, not {scenario.turns}")
    return scenario


def scenario_state(scenario: Scenario, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
    """Return the opening state of a scenario, after the rule set's set-up rolls, and their events."""
    rs = get_ruleset(scenario.ruleset)
    classes = {c.key: c for c in scenario.classes}
    ships = tuple(
        ShipState(
            id=s.id,
            name=s.name,
            side=s.side,
            class_name=classes[s.class_key].name,
            position=s.position,
            heading=s.heading,
            speed=s.speed,
            stats=copy.deepcopy(classes[s.class_key].stats),
            sheet=copy.deepcopy(s.sheet),
        )
        for s in scenario.ships
    )
    state = BattleState(
        ruleset=scenario.ruleset,
        map=scenario.map,
        sides=scenario.sides,
        ships=ships,
        conditions=scenario.conditions,
        terrain=scenario.terrain,
        options=copy.deepcopy(scenario.options),
    )
    return rs.setup(state, dice)


def bundled_scenarios(ruleset: str | None = None) -> dict[str, Scenario]:
    """Return the scenarios bundled in ``rules/scenarios/*.json``, keyed by scenario key, in file-name order.

    With ``ruleset``, only that rule set's scenarios. Raise :class:`InvalidDocument` naming the file
    when a bundled file is malformed.
    """
    return {sc.key: sc for sc in _bundled() if ruleset is None or sc.ruleset == ruleset}


@cache
def _bundled() -> tuple[Scenario, ...]:
    out: list[Scenario] = []
    folder = resources.files("rules") / "scenarios"
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".json"):
            try:
                out.append(load_scenario(entry.read_text(encoding="utf-8")))
            except InvalidDocument as exc:
                raise InvalidDocument(f"rules/scenarios/{entry.name}: {exc}") from exc
    return tuple(out)


def scenario_to_json(scenario: Scenario) -> Any:
    """Return a scenario as JSON values."""
    return to_json(scenario)
