"""NW-WW2-26 with W10: the fire and torpedo logs say what the D20 itself must show to hit, once modified."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_gunnery import _fire_once
from test_torpedoes import _strike
from ww2_helpers import gun, ship, state, stats

from rules.dice import ScriptedDice
from rules.model import ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson.ruleset import die_needed_text


@pytest.mark.parametrize(
    ("needed", "total", "text"),
    [
        pytest.param(6, -6, "; a D20 of 12+ hits", id="NW-WW2-26-short-minus-6"),
        pytest.param(11, -9, "; a D20 of 20+ hits", id="NW-WW2-26-only-a-20"),
        pytest.param(16, -5, "; no D20 can hit (it would need 21)", id="NW-WW2-26-W10-no-automatic-hit"),
        pytest.param(11, 1, "; a D20 of 10+ hits", id="NW-WW2-26-stationary-plus-1"),
        pytest.param(6, 5, "; every D20 hits", id="NW-WW2-26-every-die"),
        pytest.param(11, 0, "", id="NW-WW2-26-no-modifier-nothing-said"),
    ],
)
def test_die_needed_text(needed: int, total: int, text: str) -> None:
    assert die_needed_text(needed, total) == text


def test_a_salvo_without_modifiers_says_only_the_number() -> None:
    """Lines 59-61's destroyer at medium range: 11+, no modifier, so the number needed is the die's."""
    (ev,) = _fire_once([1, 4, 4, 7, 10, 11, 12, 17], 20.0, [12, 12, 12])
    assert "at medium range, 11+: D20 1, 4, 4, 7, 10, 11, 12, 17 -> 3 hit(s)." in ev.text
    assert "a D20 of" not in ev.text


def test_a_salvo_with_modifiers_says_the_die_needed_and_agrees_with_its_hits() -> None:
    """A destroyer at 25 knots at a destroyer at 25 knots, 13 inches off (medium): 11+, -1 firing fast, -1
    target fast, -3 first fired on: a D20 of 16+ hits; 16 and 20 hit, 15 misses."""
    dd = stats("destroyer", guns=[gun("main", 5, 2, fwd=True, aft=True)], above=8, underwater=4, engine=2)
    f = ship("f", "blue", dd, 50, 50, heading=90, speed=25)
    t = ship("t", "red", dd, 50, 37, heading=90, speed=25)
    orders = {"f": ShipOrder(ship_id="f", data={"course": 90, "speed": 25, "target_main": "t"})}
    res = RULESET.resolve_phase(state(f, t), orders, ScriptedDice([16, 15, 20, 1, 1, 1, 1, 1, 1]))
    (ev,) = [e for e in res.events if e.kind == "fire"]
    assert (ev.data["band"], ev.needed, ev.data["modifier"]) == ("medium", 11, -5)
    die = ev.needed - ev.data["modifier"]
    assert f"; a D20 of {die}+ hits: D20 " in ev.text
    assert ev.data["hits"] == sum(r.value >= die for r in ev.rolls) == 2
    assert RULESET.die_needed(ev) == die == 16  # the turn log's Needed column
    assert RULESET.die_needed(replace(ev, modifiers=())) == 11
    assert RULESET.die_needed(replace(ev, kind="recovery")) == 11  # a recovery roll's number is the die's


def test_no_automatic_hits_is_said_W10() -> None:
    """W10 (a): long range with -5 needs a 21: the log says no D20 can hit, and the 20s miss."""
    dd = stats("destroyer", guns=[gun("main", 5, 1, fwd=True, aft=True)], above=8, underwater=4, engine=2)
    f = ship("f", "blue", dd, 50, 50, heading=90, speed=25)
    t = ship("t", "red", dd, 50, 20, heading=90, speed=25)
    orders = {"f": ShipOrder(ship_id="f", data={"course": 90, "speed": 25, "target_main": "t"})}
    res = RULESET.resolve_phase(state(f, t), orders, ScriptedDice([20, 20]))
    (ev,) = [e for e in res.events if e.kind == "fire"]
    assert "; no D20 can hit (it would need 21): D20 20" in ev.text and ev.data["hits"] == 0


def test_a_torpedo_strike_says_the_die_needed() -> None:
    """Lines 149-151: a stationary target +1 at medium range (11+): a D20 of 10+ hits."""
    (ev,) = _strike(0, [10, 9, 1, 1, 1, 1, 1, 1])  # (the hit then rolls on the torpedo table)
    assert ev.needed == 11 and sum(m.value for m in ev.modifiers) == 1
    assert "11+, +1 " in ev.text and "; a D20 of 10+ hits: 10, 9, 1, 1 -> 1 hit(s)." in ev.text
