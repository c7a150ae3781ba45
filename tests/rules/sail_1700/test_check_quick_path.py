"""``Sail1700.check_order`` takes a quick path for a move and one ship target (``order_checker``): it must
give the errors of the general path (``plan_errors``, through ``fire_plan``) and leave the same aimed shot for
the phase (``StateMemo.aimed``), whatever the target, the broadsides, the weather and the visibility."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from rules import SeededDice
from rules.model import JSON, BattleState, Point, ShipOrder, ShipState
from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import ships as S
from rules.scenario import bundled_scenarios, scenario_state

RS = get_ruleset("sail_1700")


def _sheet(ship: ShipState, **changes: JSON) -> ShipState:
    return replace(ship, sheet={**ship.sheet, **changes})


def _variants(state: BattleState) -> Iterator[tuple[str, BattleState]]:
    """The state, and the state with its ships' sheets or its conditions changed in what the checks read."""
    yield "as set up", state
    ships = state.ships

    def with_sheets(**changes: JSON) -> BattleState:
        return replace(state, ships=tuple(_sheet(s, **changes) for s in ships))

    yield (
        "double shot",
        with_sheets(
            broadsides={
                "starboard": {"ready_turn": 1, "shot": "double"},
                "port": {"ready_turn": 1, "shot": "round"},
            }
        ),
    )
    yield (
        "port reloading",
        with_sheets(
            broadsides={
                "starboard": {"ready_turn": 1, "shot": "round"},
                "port": {"ready_turn": 9, "shot": "round"},
            }
        ),
    )
    yield "no guns to port", with_sheets(guns={"starboard": 20, "port": 0})
    yield (
        "a float turn",
        with_sheets(
            broadsides={
                "starboard": {"ready_turn": 1.0, "shot": "round"},
                "port": {"ready_turn": 1, "shot": "round"},
            }
        ),
    )
    yield "no shot key", with_sheets(broadsides={"starboard": {"ready_turn": 1}, "port": {"ready_turn": 1}})
    yield "in a melee", with_sheets(melee="x")
    yield (
        "some sunk",
        replace(
            state, ships=tuple(replace(s, status="sunk") if i % 3 == 1 else s for i, s in enumerate(ships))
        ),
    )
    yield "visibility", replace(state, conditions=replace(state.conditions, visibility=150.0))
    yield "storm", replace(state, conditions=replace(state.conditions, weather="storm", wind_force="gale"))


def _lines(state: BattleState, gap: float, heading: float) -> BattleState:
    """The state with its sides in two lines ``gap`` mm apart (the first side on ``heading``, the other on
    the reverse course), 60 mm between ships: broadsides bear, at short, medium, long or no range."""
    first = state.ships[0].side
    ships, count = [], {True: 0, False: 0}
    for s in state.ships:
        mine = s.side == first
        x = 100.0 + 60.0 * count[mine]
        count[mine] += 1
        ships.append(
            replace(
                s,
                position=Point(x=x, y=100.0 if mine else 100.0 + gap),
                heading=heading if mine else 360.0 - heading,
            )
        )
    return replace(state, ships=tuple(ships))


def _cases() -> Iterator[tuple[str, BattleState]]:
    for key, sc in bundled_scenarios("sail_1700").items():
        state, _ = scenario_state(sc, SeededDice(1))
        layouts = [("as set up", state)] + [
            (f"lines {gap:g} mm apart heading {heading:g}", _lines(state, gap, heading))
            for gap in (40.0, 150.0, 400.0)
            for heading in (90.0, 270.0)
        ]
        for layout, laid in layouts:
            for name, variant in _variants(laid):
                yield f"{key}: {layout}, {name}", variant


# the cases where broadsides are loaded and bear within range: the quick path must have found shots
SHOTS_EXPECTED = ("40 mm apart", "150 mm apart")
SHOTS_IN = ("as set up", "double shot")


@pytest.mark.parametrize(("name", "state"), list(_cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_quick_path_gives_the_general_errors_and_shot(name: str, state: BattleState) -> None:
    side = RS.ordering_sides(state)[0]
    shots = 0
    targets: list[JSON] = [None, "", 7, "no-such-ship", *(s.id for s in state.ships)]
    for ship in RS.orderable_ships(state, side):
        for target in targets:
            for move in ({"turn": 0.0, "speed": 0.0}, {}, {"turn": 20.0}, {"speed": 1000.0}):
                data: dict[str, JSON] = {**move, "target": target}
                S.forget_state(state)
                quick = RS.order_checker(state)(ship, ShipOrder(ship_id=ship.id, data=data))
                aimed = dict(S.state_memo(state).aimed)
                shots += len(aimed)
                S.forget_state(state)
                memo = S.state_memo(state)
                general = RS.plan_errors(state, ship, data, memo.planned(ship, data))
                assert quick == general, (name, ship.id, data)
                for key, (tid, firer, samples, shot) in aimed.items():
                    g_tid, g_firer, g_samples, g_shot = memo.aimed[key]
                    assert firer is ship and g_firer is ship and tid == g_tid
                    assert samples == g_samples and shot == g_shot, (name, ship.id, data)
    S.forget_state(state)
    if any(g in name for g in SHOTS_EXPECTED) and name.endswith(SHOTS_IN):
        assert shots > 0
