"""Dice: one protocol, a seeded stream for play and a scripted one for tests.

Kinds (``DieKind``):

- ``D6``, ``D20``: ordinary dice, 1-6 and 1-20.
- ``AVG``: the average die of ``sail_1700``, faces 2, 3, 3, 4, 4, 5.
- ``D100``: two decimal dice read 00-99 (returns 0-99). Tables that read 00 as 100 convert with
  :func:`decimal_as_1_100` (ruling S02).
- ``MEMOIR``: the Memoir die of ``memoir_sea``: one face major, two minor, three miss. The value is the
  face 1-6; :func:`memoir_face` reads it (1 = major, 2-3 = minor, 4-6 = miss).

Source: ``../shared/rulings-product.md`` A8 (one seeded stream per phase, every roll logged).
"""

from __future__ import annotations

import random as _random  # only _random.Random(seed): the seeded stream, never the global one
from collections.abc import Iterable
from typing import Literal, Protocol

from .errors import BadDieValue, DiceExhausted
from .model import Roll

DieKind = Literal["D6", "D20", "AVG", "D100", "MEMOIR"]

AVERAGE_DIE_FACES: tuple[int, ...] = (2, 3, 3, 4, 4, 5)
"""Faces of the average die (seed 001, section 2 and the gunnery rules)."""

_FACES: dict[str, int] = {"D6": 6, "D20": 20, "AVG": 6, "D100": 100, "MEMOIR": 6}


def legal_values(die: DieKind) -> range | tuple[int, ...]:
    """Return the values a die of this kind can show."""
    if die == "AVG":
        return (2, 3, 4, 5)
    if die == "D100":
        return range(0, 100)
    return range(1, _FACES[die] + 1)


def memoir_face(value: int) -> Literal["major", "minor", "miss"]:
    """Read a Memoir die face 1-6: 1 = major hit, 2-3 = minor hit, 4-6 = miss (seed 004)."""
    if value == 1:
        return "major"
    if value in (2, 3):
        return "minor"
    return "miss"


def decimal_as_1_100(value: int) -> int:
    """Read two decimal dice 00-99 as 1-100: 00 counts as 100 (ruling S02)."""
    return 100 if value == 0 else value


class Dice(Protocol):
    """What the rules need of dice: roll one die of a kind, for a purpose, and remember it."""

    def roll(self, die: DieKind, purpose: str = "") -> int:
        """Roll one die of kind ``die`` and return its value; record it with ``purpose``."""
        ...

    @property
    def rolls(self) -> list[Roll]:
        """Every roll made so far, in order: one list, each roll appended to it (a caller may keep it)."""
        ...


class _Recorder:
    def __init__(self) -> None:
        self._rolls: list[Roll] = []

    @property
    def rolls(self) -> list[Roll]:
        return self._rolls

    def _record(self, die: DieKind, value: int, purpose: str) -> int:
        self._rolls.append(Roll(die=die, value=value, purpose=purpose))
        return value

    def many(self, n: int, die: DieKind, purpose: str = "") -> list[int]:
        """Roll ``n`` dice of one kind and return their values."""
        return [self.roll(die, purpose) for _ in range(n)]

    def roll(self, die: DieKind, purpose: str = "") -> int:  # pragma: no cover - overridden
        raise NotImplementedError


class SeededDice(_Recorder):
    """A reproducible dice stream from an integer seed.

    Built only on ``random.Random(seed).random()``, the one method Python promises gives the same
    sequence across versions, so a stored seed replays a phase exactly.
    """

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = _random.Random(seed)

    def roll(self, die: DieKind, purpose: str = "") -> int:
        """Roll one die of kind ``die`` (see the module docstring for the kinds)."""
        face = int(self._rng.random() * _FACES[die])
        if die == "AVG":
            value = AVERAGE_DIE_FACES[face]
        elif die == "D100":
            value = face
        else:
            value = face + 1
        self._rolls.append(Roll(die=die, value=value, purpose=purpose))  # _record, inlined: the hottest call
        return value


class ScriptedDice(_Recorder):
    """Dice that return a fixed script of values, for tests and for re-running a logged turn.

    Raise :class:`DiceExhausted` when the script runs out, and :class:`BadDieValue` when the next
    value cannot come from the die asked for (a 7 on a D6, a 1 on the average die).
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted values are left."""
        return len(self._values) - self._next

    def roll(self, die: DieKind, purpose: str = "") -> int:
        """Return the next scripted value, checked against the die's faces."""
        if self._next >= len(self._values):
            raise DiceExhausted(
                f"scripted dice ran out after {len(self._values)} roll{'' if len(self._values) == 1 else 's'}"
                f" (wanted a {die} for {purpose!r})"
            )
        value = self._values[self._next]
        if value not in legal_values(die):
            raise BadDieValue(
                f"scripted value {value} (roll {self._next + 1}) cannot come from a {die} ({purpose!r})"
            )
        self._next += 1
        return self._record(die, value, purpose)
