"""Dice (A8): a seeded stream that replays exactly, scripted dice that fail clearly, the five kinds."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.dice import (
    AVERAGE_DIE_FACES,
    DieKind,
    ScriptedDice,
    SeededDice,
    decimal_as_1_100,
    legal_values,
    memoir_face,
)
from rules.errors import BadDieValue, DiceExhausted, RulesError
from rules.model import Roll

KINDS: tuple[DieKind, ...] = ("D6", "D20", "AVG", "D100", "MEMOIR")


def test_seeded_dice_give_these_exact_values() -> None:
    """A stored seed must replay a phase exactly, on every Python version: these values are frozen.

    If this fails after a Python upgrade, ``Random.random()`` changed and stored battles no longer replay.
    """
    d = SeededDice(2024)
    assert [d.roll("D6") for _ in range(10)] == [3, 5, 2, 6, 3, 5, 2, 2, 5, 3]
    assert [d.roll("D20") for _ in range(5)] == [9, 15, 20, 7, 15]
    assert [d.roll("AVG") for _ in range(5)] == [4, 4, 5, 3, 4]
    assert [d.roll("D100") for _ in range(5)] == [46, 70, 87, 14, 21]
    assert [d.roll("MEMOIR") for _ in range(5)] == [3, 1, 3, 3, 1]


def test_seeded_dice_record_every_roll_with_its_purpose() -> None:
    d = SeededDice(7)
    a = d.roll("D6", "initiative britain")
    b = d.roll("D20", "gunnery")
    assert d.rolls == [
        Roll(die="D6", value=a, purpose="initiative britain"),
        Roll(die="D20", value=b, purpose="gunnery"),
    ]
    assert d.seed == 7
    assert d.many(3, "D6", "broadside") == [r.value for r in d.rolls[2:]]
    assert [r.purpose for r in d.rolls[2:]] == ["broadside"] * 3


def test_same_seed_same_stream_and_different_seeds_differ() -> None:
    one, two, other = SeededDice(99), SeededDice(99), SeededDice(100)
    seq = [one.roll(k) for k in KINDS * 20]
    assert seq == [two.roll(k) for k in KINDS * 20]
    assert seq != [other.roll(k) for k in KINDS * 20]


@pytest.mark.parametrize("kind", KINDS)
def test_every_face_and_only_legal_faces(kind: DieKind) -> None:
    d = SeededDice(1)
    seen = Counter(d.roll(kind) for _ in range(6000))
    assert set(seen) == set(legal_values(kind))


def test_the_average_die_has_faces_2_3_3_4_4_5() -> None:
    assert AVERAGE_DIE_FACES == (2, 3, 3, 4, 4, 5)
    d = SeededDice(5)
    seen = Counter(d.roll("AVG") for _ in range(12000))
    # 3 and 4 are on two faces each: about twice as common as 2 and 5
    assert 1.7 < seen[3] / seen[2] < 2.3 and 1.7 < seen[4] / seen[5] < 2.3


def test_legal_values() -> None:
    assert list(legal_values("D6")) == [1, 2, 3, 4, 5, 6]
    assert list(legal_values("D20")) == list(range(1, 21))
    assert tuple(legal_values("AVG")) == (2, 3, 4, 5)
    assert list(legal_values("D100")) == list(range(100))
    assert list(legal_values("MEMOIR")) == [1, 2, 3, 4, 5, 6]


def test_decimal_dice_read_00_99_or_1_100() -> None:
    """Two decimal dice read 00-99; tables that read 1-100 count 00 as 100 (ruling S02)."""
    assert decimal_as_1_100(0) == 100
    assert decimal_as_1_100(1) == 1
    assert decimal_as_1_100(99) == 99


def test_the_memoir_die_one_major_two_minor_three_miss() -> None:
    assert [memoir_face(v) for v in range(1, 7)] == ["major", "minor", "minor", "miss", "miss", "miss"]


def test_scripted_dice_return_the_script_and_record_it() -> None:
    d = ScriptedDice([4, 6, 1])
    assert d.remaining == 3
    assert d.roll("D6", "a") == 4
    assert d.roll("D20", "b") == 6
    assert d.remaining == 1
    assert d.rolls == [Roll(die="D6", value=4, purpose="a"), Roll(die="D20", value=6, purpose="b")]


def test_scripted_dice_fail_clearly_when_they_run_out() -> None:
    d = ScriptedDice([3])
    d.roll("D6")
    with pytest.raises(DiceExhausted) as exc:
        d.roll("D20", "gunnery at Hood")
    assert str(exc.value) == "scripted dice ran out after 1 roll (wanted a D20 for 'gunnery at Hood')"
    assert isinstance(exc.value, RulesError)


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        pytest.param("D6", 7, id="seven-on-a-d6"),
        pytest.param("D6", 0, id="zero-on-a-d6"),
        pytest.param("D20", 21, id="21-on-a-d20"),
        pytest.param("AVG", 1, id="one-on-the-average-die"),
        pytest.param("AVG", 6, id="six-on-the-average-die"),
        pytest.param("D100", 100, id="100-on-decimal-dice"),
        pytest.param("MEMOIR", 7, id="seven-on-the-memoir-die"),
    ],
)
def test_scripted_dice_refuse_a_value_the_die_cannot_show(kind: DieKind, value: int) -> None:
    d = ScriptedDice([value])
    with pytest.raises(BadDieValue, match=rf"scripted value {value} \(roll 1\) cannot come from a {kind}"):
        d.roll(kind, "test")
    assert d.remaining == 1 and d.rolls == []
