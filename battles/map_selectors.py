"""Reads for the battle map and its replay, scoped by who asks (A2).

A battle's replay is a list of steps: step 0 is the opening (the state before the first phase, or the state
being set up), step N the state after phase N was resolved, with that phase's events. Only phases that
are resolved and not rolled back (``superseded``) are steps; an open phase adds none (the map of the last
step is the map it is played on). Every state is drawn through the rules' ``view_for`` (by
:func:`battles.mapsvg.render_map`) and every event is filtered with ``event_visible`` (here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

import rules
from battles.models import Battle, LogEvent, Phase, PhaseStatus
from battles.selectors import Viewer, log_events_for
from rules.base import event_visible
from rules.model import BattleState, Event, ShipState


@dataclass(frozen=True, slots=True, kw_only=True)
class MapStep:
    """One step of the replay, as one viewer sees it.

    ``state`` is the whole state (the renderer applies the viewer's view); ``previous`` the state before
    the phase (trails of ships whose move event has no path); ``events`` the phase's events the viewer may
    see, and ``log`` the same as log rows (for the turn log beside the map).
    """

    index: int
    last: int
    phase: Phase | None
    state: BattleState
    previous: BattleState | None
    events: tuple[Event, ...]
    log: tuple[LogEvent, ...]

    @property
    def first(self) -> int:
        return 0

    @property
    def prev(self) -> int | None:
        return self.index - 1 if self.index > 0 else None

    @property
    def next(self) -> int | None:
        return self.index + 1 if self.index < self.last else None

    @property
    def is_latest(self) -> bool:
        return self.index == self.last

    @property
    def label(self) -> str:
        if self.phase is None:
            return "Opening positions"
        name = f" ({self.phase.name})" if self.phase.name and self.phase.name != "turn" else ""
        return f"Phase {self.phase.number}: turn {self.phase.turn}{name}"


def _resolved_phases(battle: Battle) -> list[Phase]:
    return list(
        Phase.objects.filter(battle=battle, superseded=False, status=PhaseStatus.RESOLVED).order_by("number")
    )


def map_step_count(*, battle: Battle) -> int:
    """Return the index of the battle's last replay step (0 when no phase is resolved yet)."""
    return Phase.objects.filter(battle=battle, superseded=False, status=PhaseStatus.RESOLVED).count()


def map_step_get(*, battle: Battle, viewer: Viewer, index: int | None = None) -> MapStep:
    """Return replay step ``index`` (None: the latest) as the viewer may see it; Http404 if there is none."""
    phases = _resolved_phases(battle)
    last = len(phases)
    if index is None:
        index = last
    if not 0 <= index <= last:
        raise Http404("No such step of the replay.")
    if index == 0:
        first = Phase.objects.filter(battle=battle, superseded=False).order_by("number").first()
        data: Any = first.state_before if first is not None and first.state_before else battle.state
        return MapStep(
            index=0,
            last=last,
            phase=None,
            state=rules.from_json(BattleState, data),
            previous=None,
            events=(),
            log=(),
        )
    phase = phases[index - 1]
    state = rules.from_json(BattleState, phase.state_after or battle.state)
    previous = rules.from_json(BattleState, phase.state_before) if phase.state_before else None
    log = tuple(log_events_for(phase=phase, viewer=viewer))
    parsed = (_event(row) for row in log)
    sides = state.side_keys()
    events = tuple(e for e in parsed if e is not None and event_visible(e, viewer.side_key, sides))
    return MapStep(
        index=index, last=last, phase=phase, state=state, previous=previous, events=events, log=log
    )


def _event(row: LogEvent) -> Event | None:
    try:
        return rules.from_json(Event, row.data)
    except Exception:  # a malformed stored event is shown in the log, not drawn
        return None


def map_ship_get(*, step: MapStep, viewer: Viewer, ship_key: str) -> tuple[ShipState, bool]:
    """Return a ship of a replay step as the viewer may see it and whether they see its full sheet (A2):
    their own side's ships and, for the umpire, every ship; an enemy only through ``public_sheet``.

    Http404 when the viewer cannot see the ship at that step (out of sight, or no such ship).
    """
    view = rules.get_ruleset(step.state.ruleset).view_for(step.state, viewer.side_key)
    ship = view.ship_map().get(ship_key)
    if ship is None:
        raise Http404("No such ship in sight.")
    full = viewer.side_key is None or ship.side == viewer.side_key
    return ship, full
