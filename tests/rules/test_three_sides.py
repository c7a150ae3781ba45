"""NW-CAMP-15 (A2): with three sides or more, a side sees of an enemy ship only the hits its side scored. The
rule sets whose sheets keep a bare tally (no scorer) leave it out of the public sheet then; their fire events,
which carry the hits, are the firer's side's and the target's. In two sides nothing changes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import SeededDice, get_ruleset, resolve_turn, view_for
from rules.model import BattleState, SideInfo
from rules.scenario import bundled_scenarios, scenario_state

TALLY = {"ultra_simple": "damage", "memoir_sea": "damage", "acw_river": "lost", "sail_1700": "damage_scored"}


def _state(ruleset: str, third: bool) -> BattleState:
    sc = next(iter(bundled_scenarios(ruleset).values()))
    st, _ = scenario_state(sc, SeededDice(1))
    if third:
        st = replace(st, sides=(*st.sides, SideInfo(key="neutral", name="Neutral")))
    return st


@pytest.mark.parametrize("ruleset", sorted(TALLY))
def test_nw_camp_15_a_bare_tally_is_left_out_with_three_sides(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    for third in (False, True):
        st = _state(ruleset, third)
        a, b = st.side_keys()[:2]
        enemy = next(s for s in st.ships if s.side == b)
        st = replace(
            st,
            ships=tuple(
                s.replace(sheet={**s.sheet, TALLY[ruleset]: 3}) if s is enemy else s for s in st.ships
            ),
        )
        shown = 0
        for viewer in (a, "neutral", "") if third else (a, ""):
            seen = {s.id: s for s in rs.view_for(st, viewer).ships}
            if enemy.id in seen:
                shown += 1
                assert seen[enemy.id].sheet == ({} if third else {TALLY[ruleset]: 3}), (viewer, third)
        assert shown, "no viewer sees her"


def test_nw_camp_15_fire_events_are_the_firer_s_and_the_target_s_with_three_sides() -> None:
    """ultra_simple (Bismarck 1941) with a third side that has no ships: the fire events of turn 1 are the
    firer's side's and the target's, not the third side's; in two sides every side's (None)."""
    for third in (False, True):
        st = _state("ultra_simple", third)
        rs = get_ruleset("ultra_simple")
        orders = [
            rs.default_order(st, s, "fire_nearest")
            for side in rs.ordering_sides(st)
            for s in rs.orderable_ships(st, side)
        ]
        result = resolve_turn(st, orders, SeededDice(1))
        fire = [e for e in result.events if e.kind == "fire"]
        assert fire
        sides = st.ship_map()
        for e in fire:
            assert e.ship_id is not None and e.target_id is not None
            pair = (sides[e.ship_id].side, sides[e.target_id].side)
            assert e.visible_to == (pair if third else None)
        if third:
            assert not any(e.kind == "fire" for e in view_for(result, "neutral").events)  # type: ignore[union-attr]
