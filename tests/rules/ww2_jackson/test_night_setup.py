"""NW-WW2-25: at night the set-up tells each side of its own ships only (A2)."""

from __future__ import annotations

from dataclasses import replace

from rules import SeededDice, view_for
from rules.model import PhaseResult
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state


def test_NW_WW2_25_a_night_set_up_counts_each_sides_own_ships_for_that_side() -> None:
    sc = bundled_scenarios()["guadalcanal_1942"]
    state, events = scenario_state(sc, SeededDice(1))
    assert state.conditions.night
    counts = {side: sum(1 for s in state.ships if s.side == side) for side in state.side_keys()}
    names = state.side_names()
    setup = [e for e in events if e.kind == "setup"]
    assert [(e.text, e.visible_to) for e in setup] == [
        (f"{counts[k]} ships of {names[k]} take station; night action.", (k,)) for k in state.side_keys()
    ]
    for side in state.side_keys():
        seen = view_for(PhaseResult(state=state, events=tuple(events), rolls=()), side)
        assert isinstance(seen, PhaseResult)
        assert [e.text for e in seen.events if e.kind == "setup"] == [
            f"{counts[side]} ships of {names[side]} take station; night action."
        ]
    # by day one line for every side, every ship counted
    rs = get_ruleset("ww2_jackson")
    day = replace(state, conditions=replace(state.conditions, night=False))
    _, day_events = rs.setup(day, SeededDice(1))
    assert [(e.text, e.visible_to) for e in day_events if e.kind == "setup"] == [
        (f"{len(state.ships)} ships take station; day action.", None)
    ]
