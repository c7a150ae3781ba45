"""A tiny two-phase rule set on a table, for testing the engine's plumbing (not registered by default).

Turn: phase 0 "north moves", phase 1 "south moves" (A1's alternate moves). An order is ``{"speed": 0-10,
"target": ship id}``; a ship moves its speed north or south, and a target within 10 inches takes one hit on a
D6 of 4+. Two hits sink a ship. Speed above the ship's ``max_speed`` sheet value is illegal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.base import DefaultPolicy, RuleSet
from rules.dice import Dice
from rules.geometry import advance, distance
from rules.model import (
    JSON,
    BattleState,
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


class Fake(RuleSet):
    key = "fake"
    title = "Fake rules"
    version = "0"
    source = "none"
    geometry = "table_in"
    unit = "inches"
    dice = ("D6",)
    order_types = (
        OrderType(
            key="move",
            label="Move",
            fields=(FieldSpec(name="speed", label="Speed", type="int", min=0, max=10),),
        ),
        OrderType(
            key="fire",
            label="Fire",
            fields=(FieldSpec(name="target", label="Target", type="str", required=False),),
        ),
    )

    def class_schema(self) -> tuple[FieldSpec, ...]:
        return (FieldSpec(name="max_speed", label="Max speed", type="int", min=0, max=10),)

    def setup(self, state: BattleState, dice: Dice) -> tuple[BattleState, tuple[Event, ...]]:
        return state, ()

    def phase_plan(self, state: BattleState) -> tuple[PhaseSpec, ...]:
        return (
            PhaseSpec(name="north moves", sides=("north",)),
            PhaseSpec(name="south moves", sides=("south",)),
        )

    def check_order(self, state: BattleState, ship: ShipState, order: ShipOrder) -> FieldErrors:
        errors: FieldErrors = {}
        speed = order.data.get("speed")
        max_speed = ship.stats.get("max_speed", 10)
        assert isinstance(speed, int) and isinstance(max_speed, int)
        if speed > max_speed:
            errors["speed"] = [f"{ship.name} can make {max_speed} at most."]
        target = order.data.get("target")
        if target:
            t = state.ship_map().get(str(target))
            if t is None or t.side == ship.side or not t.active:
                errors["target"] = ["Not a target."]
        return errors

    def default_order(self, state: BattleState, ship: ShipState, policy: DefaultPolicy) -> ShipOrder:
        return ShipOrder(ship_id=ship.id, data={"speed": 0 if policy == "hold" else 1})

    def resolve_phase(self, state: BattleState, orders: Mapping[str, ShipOrder], dice: Dice) -> PhaseResult:
        ships = state.ship_map()
        events: list[Event] = []
        start = len(dice.rolls)
        for sid, order in orders.items():
            s = ships[sid]
            speed = order.data["speed"]
            assert isinstance(speed, int) and isinstance(s.position, Point)
            ships[sid] = replace(s, position=advance(s.position, 0 if s.side == "north" else 180, speed))
            events.append(
                Event(
                    kind="move",
                    text=f"{s.name} moves {speed}",
                    turn=state.turn,
                    phase=state.phase,
                    ship_id=sid,
                )
            )
        for sid, order in orders.items():
            target = order.data.get("target")
            if not target:
                continue
            s, t = ships[sid], ships[str(target)]
            assert isinstance(s.position, Point) and isinstance(t.position, Point)
            if distance(s.position, t.position) > 10:
                continue
            value = dice.roll("D6", f"{s.name} at {t.name}")
            hit = value >= 4
            if hit:
                hits = int(str(t.sheet.get("hits", 0))) + 1
                ships[t.id] = replace(
                    t, sheet={**t.sheet, "hits": hits}, status="sunk" if hits >= 2 else t.status
                )
            events.append(
                Event(
                    kind="fire",
                    text="fire",
                    turn=state.turn,
                    phase=state.phase,
                    ship_id=sid,
                    target_id=t.id,
                    rolls=(dice.rolls[-1],),
                    needed=4,
                    outcome="hit" if hit else "miss",
                    visible_to=(s.side,),
                )
            )
        return PhaseResult(
            state=state.with_ships(ships), events=tuple(events), rolls=tuple(dice.rolls[start:])
        )

    def public_sheet(
        self, ship: ShipState, side: str | None = None, state: BattleState | None = None
    ) -> dict[str, JSON]:
        return {"hits": ship.sheet.get("hits", 0)}

    def tables(self) -> dict[str, JSON]:
        return {"to_hit": 4}


RULESET = Fake()
