"""The garbage collector paused while a phase is resolved (rules/gcpause.py), and the phase leaving no
reference cycles for it to find."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from rules import SeededDice, all_rulesets, resolve_turn
from rules.base import roll_initiative
from rules.dice import ScriptedDice
from rules.gcpause import gc_paused
from rules.model import Event
from rules.scenario import bundled_scenarios, scenario_state


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


class SpyDice(SeededDice):
    """Seeded dice that note whether the collector was on at each roll."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.collector: list[bool] = []

    def roll(self, die, purpose=""):  # type: ignore[no-untyped-def]
        self.collector.append(gc.isenabled())
        return super().roll(die, purpose)


def first_state(key: str):  # type: ignore[no-untyped-def]
    sc = next(iter(bundled_scenarios(key).values()))
    state, _ = scenario_state(sc, SeededDice(1))
    return state


def test_off_during_a_phase_and_on_again_after() -> None:
    dice = SpyDice(3)
    resolve_turn(first_state("ultra_simple"), [], dice)
    assert dice.collector and not any(dice.collector)
    assert gc.isenabled()


def test_a_program_that_keeps_it_off_keeps_it_off() -> None:
    gc.disable()
    resolve_turn(first_state("ultra_simple"), [], SeededDice(3))
    assert not gc.isenabled()


def test_on_again_after_an_error_in_the_phase() -> None:
    with pytest.raises(Exception, match="ran out"):
        resolve_turn(first_state("ultra_simple"), [], ScriptedDice([]))
    assert gc.isenabled()


def test_nested_pauses_switch_it_on_when_the_outer_one_ends() -> None:
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_two_threads_overlapping() -> None:
    """Thread A pauses, B pauses, A ends, B ends: on again at the end (A, the first to pause, found it on)."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def a() -> None:
        with gc_paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with gc_paused():
            b_in.set()
            a_out.wait(5)

    ta, tb = threading.Thread(target=a), threading.Thread(target=b)
    ta.start(), tb.start()
    ta.join(10), tb.join(10)
    assert gc.isenabled()


@pytest.mark.parametrize("key", [rs.key for rs in all_rulesets()])
def test_a_phase_leaves_no_reference_cycle(key: str) -> None:
    """What a phase drops, reference counting frees: three turns of the rule set's first bundled scenario
    leave nothing for the collector (the premise of pausing it; roll_initiative and memoir_sea's
    legal_courses were self-calling nested functions, a cycle each call)."""
    state = first_state(key)
    dice = SeededDice(7)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3 * 2):  # (sail_1700: a phase a side)
            state = resolve_turn(state, [], dice).state
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_initiative_settles_a_tie_before_the_sides_after_it() -> None:
    """A1's re-roll of ties, depth first: c 6, a 4, b 4, d 1 (high first): the tie a/b is re-rolled (b 5,
    a 2) before d takes her place: c, b, a, d; one event per round of rolls."""
    events: list[Event] = []
    dice = ScriptedDice([4, 4, 6, 1, 2, 5])
    order = roll_initiative(["a", "b", "c", "d"], dice, events, 1, high_first=True, rule="A1")
    assert order == ["c", "b", "a", "d"]
    assert [e.data for e in events] == [{"a": 4, "b": 4, "c": 6, "d": 1}, {"a": 2, "b": 5}]


def test_initiative_low_first_with_two_ties() -> None:
    """memoir_sea (M02, low first): a 2, b 2, c 5, d 5: a/b settled (a 3, b 1), then c/d (c 2, d 4):
    b, a, c, d."""
    events: list[Event] = []
    dice = ScriptedDice([2, 2, 5, 5, 3, 1, 2, 4])
    order = roll_initiative(["a", "b", "c", "d"], dice, events, 1, high_first=False, rule="M02")
    assert order == ["b", "a", "c", "d"]
    assert len(events) == 3


def test_initiative_names_the_sides_and_keeps_their_keys_in_the_data() -> None:
    """The log names a side as the battle does (its display name), its data keeps the key; a side the
    names lack is named by its key."""
    events: list[Event] = []
    dice = ScriptedDice([4, 2])
    names = {"britain": "Royal Navy"}
    order = roll_initiative(["britain", "germany"], dice, events, 1, high_first=True, rule="A1", names=names)
    assert order == ["britain", "germany"]
    assert events[0].text == "Initiative: Royal Navy rolls 4, germany rolls 2 (high moves first, A1)."
    assert events[0].data == {"britain": 4, "germany": 2}
    assert [r.purpose for r in dice.rolls] == ["initiative Royal Navy", "initiative germany"]
