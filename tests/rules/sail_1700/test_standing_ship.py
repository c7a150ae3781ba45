"""A vessel ordered not to move keeps her position: the very point of the state before, with the same values
(whole millimetres stay whole in the state's JSON: 200, not 200.0); a vessel that moves gets a new point."""

from __future__ import annotations

from dataclasses import replace

from rules import SeededDice, ShipOrder, resolve_turn
from rules.model import Point
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import to_json


def test_a_ship_that_does_not_move_keeps_her_point_and_one_that_moves_gets_a_new_one() -> None:
    sc = bundled_scenarios()["sail_constitution_vs_guerriere_1812"]
    ships = (
        replace(sc.ships[0], position=Point(x=200, y=300), speed=0.0),
        replace(sc.ships[1], position=Point(x=600, y=300), speed=0.0),
    )
    state, _ = scenario_state(replace(sc, ships=ships), SeededDice(1))
    side = state.initiative[0] if state.initiative else state.side_keys()[0]
    mover = next(s for s in state.ships if s.side == side)
    still = ShipOrder(ship_id=mover.id, data={"turn": 0.0, "speed": 0.0})
    after = next(s for s in resolve_turn(state, [still], SeededDice(2)).state.ships if s.id == mover.id)
    assert after.position is mover.position
    assert to_json(after.position) == to_json(mover.position)
    assert [type(v) for v in to_json(after.position).values()] == [int, int]  # whole millimetres stay whole
    moving = ShipOrder(ship_id=mover.id, data={"turn": 0.0})  # her greatest distance on her course
    after = next(s for s in resolve_turn(state, [moving], SeededDice(2)).state.ships if s.id == mover.id)
    assert after.position != mover.position and isinstance(after.position.x, float)
