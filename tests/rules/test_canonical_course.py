"""A course is stored and resolved in capitals (docs/rulings.md NW-ACW-21, NW-MEM-08): the rules read
``f``, ``l`` and ``r`` as F, L and R (NW-ACW-20, NW-MEM-07), and ``RuleSet.canonical_order`` writes them so,
which ``complete_orders`` (every resolution) and the site's ``orders_submit`` use."""

from __future__ import annotations

import pytest

import rules
from rules import SeededDice
from rules.model import ShipOrder
from rules.registry import get_ruleset
from rules.scenario import bundled_scenarios, scenario_state


@pytest.mark.parametrize(
    ("ruleset", "data", "canonical"),
    [
        pytest.param(
            "acw_river", {"course": "flr", "astern": False}, {"course": "FLR", "astern": False}, id="acw"
        ),
        pytest.param(
            "memoir_sea", {"course": "fRf", "target": "x"}, {"course": "FRF", "target": "x"}, id="memoir"
        ),
    ],
)
def test_canonical_order_writes_the_course_in_capitals(
    ruleset: str, data: dict[str, object], canonical: dict[str, object]
) -> None:
    order = ShipOrder(ship_id="s", data=data)  # type: ignore[arg-type]

    assert get_ruleset(ruleset).canonical_order(order) == ShipOrder(ship_id="s", data=canonical)  # type: ignore[arg-type]
    assert order.data == data  # the order given is not changed


@pytest.mark.parametrize("ruleset", ["acw_river", "memoir_sea", "ww2_jackson", "ultra_simple", "sail_1700"])
def test_an_order_already_canonical_is_returned_as_it_is(ruleset: str) -> None:
    order = ShipOrder(ship_id="s", data={"course": "FF", "speed": 3})

    assert get_ruleset(ruleset).canonical_order(order) is order


def test_only_the_rule_sets_with_a_hex_course_change_it() -> None:
    # ww2_jackson's course is degrees: nothing to write in capitals
    order = ShipOrder(ship_id="s", data={"course": "ff"})

    assert get_ruleset("ww2_jackson").canonical_order(order) is order


@pytest.mark.parametrize(
    ("scenario", "ship"),
    [("first_memphis_1862", "benton"), ("santiago_de_cuba_1898", "teresa")],
)
def test_an_order_resolved_with_a_lower_case_course_stands_in_capitals(scenario: str, ship: str) -> None:
    state, _ = scenario_state(bundled_scenarios()[scenario], SeededDice(1))

    orders, events = rules.complete_orders(state, [ShipOrder(ship_id=ship, data={"course": "f"})])

    assert orders[ship] == ShipOrder(ship_id=ship, data={"course": "F"})
    assert [e.kind for e in events if e.ship_id == ship] == []
