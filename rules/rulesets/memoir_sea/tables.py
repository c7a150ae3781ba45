"""The charts of ``memoir_sea``, as data.

Source: ``seeds/004_bf15dcab1aef5b0d.txt`` (Memoir of Battle at Sea).

Each chart is one constant; ``RuleSet.tables()`` prints them (``python -m rules tables memoir_sea``).
"""

from __future__ import annotations

from typing import Final

# "Firing Dice": "1 x Major hit (worth two Flotation Value points) = White / 2 x Minor hit (worth one
# Flotation Value point) = Blue / 3 x Miss = Red". Face of the MEMOIR die (rules.dice.memoir_face) ->
# (result, Flotation Value points).
MEMOIR_DIE: Final[dict[int, tuple[str, int]]] = {
    1: ("major", 2),
    2: ("minor", 1),
    3: ("minor", 1),
    4: ("miss", 0),
    5: ("miss", 0),
    6: ("miss", 0),
}

HIT_POINTS: Final[dict[str, int]] = {"major": 2, "minor": 1, "miss": 0}
"""Flotation Value points per face result ("Firing Dice")."""

MAX_GUN_DICE: Final = 12
"""The largest beam-dice value a class may have (the seed's anchor is 8 for a modern pre-dreadnought, M03)."""


def _abeam(beam: int) -> tuple[int, ...]:
    # M05: follow the examples: full effect = B - (r - 1), down to 1 die.
    return tuple(beam - (r - 1) for r in range(1, beam + 1))


def _ahead(beam: int) -> tuple[int, ...]:
    # M05 / M06: half effect = ceil(B / 2) - floor((r - 1) / 2), down to 1 die.
    half = -(-beam // 2)
    return tuple(half - (r - 1) // 2 for r in range(1, 2 * half + 1))


# "Firing Guns": the countdowns. Beam dice B -> dice thrown at range 1, 2, 3... hexes, abeam (full effect)
# and ahead/astern (half effect). Beyond the end of a row no die is left: no fire (M05).
# Seed: "8-7-6-5-4-3-2-1" abeam and "4-4-3-3-2-2-1-1" ahead for the modern pre-dreadnought; the printed
# reduction text ("reduced by one for every hex") contradicts the examples, and M05 follows the examples.
# M06: half of an odd number of dice rounds up (B = 7 -> 4-4-3-3-2-2-1-1).
GUN_DICE_COUNTDOWN: Final[dict[int, dict[str, tuple[int, ...]]]] = {
    b: {"abeam": _abeam(b), "ahead_astern": _ahead(b)} for b in range(1, MAX_GUN_DICE + 1)
}

# "Firing Guns" with M04: a target hex lying wholly within 60 degrees either side of the line ahead (or
# astern) is ahead (astern): half effect. Every other hex, including those the 60-degree line cuts, is
# abeam: full effect. On flat-topped hexes with side facings the hexes the line cuts are exactly those
# whose centre lies on it, so the test is on the centre's relative bearing (see ruleset.arc_for).
ARCS_DEG: Final[dict[str, float]] = {"ahead_within": 60.0, "astern_within": 60.0}

# "Firing Torpedoes": "No ship may fire more than one torpedo each turn and a maximum of four torpedoes
# during a battle" ... "Torpedoes have a range of 3 hexes and throw three dice regardless of the number of
# hexes".
TORPEDO_RULES: Final[dict[str, int]] = {"range_hexes": 3, "dice": 3, "per_turn": 1, "per_battle": 4}

# "Firing Torpedoes" with M09: where each torpedo fit may fire.
# fixed: ships larger than destroyers: the straight hex rows ahead and astern, and the two rows closest to
# 90 degrees on each side (relative 60 and 120 degrees), i.e. the six straight rows from the ship.
# trainable: destroyers and torpedo boats with trainable tubes: anywhere in the abeam arcs (M04).
# trainable_bow: as trainable, plus fixed bow tubes: also the ahead arc.
TORPEDO_ARCS: Final[dict[str, tuple[str, ...]]] = {
    "none": (),
    "fixed": ("row_ahead", "row_astern", "rows_abeam_60", "rows_abeam_120"),
    "trainable": ("abeam_arc",),
    "trainable_bow": ("abeam_arc", "ahead_arc"),
}

# M03: ship data is a parameter. Types and whether they count as "destroyers and torpedo boats" for the
# torpedo arcs (M09: larger ships fire only along fixed rows).
SHIP_TYPES: Final[dict[str, dict[str, bool]]] = {
    "battleship": {"small": False},
    "pre_dreadnought": {"small": False},
    "armoured_cruiser": {"small": False},
    "protected_cruiser": {"small": False},
    "light_cruiser": {"small": False},
    "gunboat": {"small": False},
    "destroyer": {"small": True},
    "torpedo_boat": {"small": True},
}

# "Movement": "Ships may turn sixty degrees after moving forward one hex, the turn 'costing' one hex of
# movement." M10: each turn needs at least one forward hex since the previous turn (or the start of the
# move); unused movement is lost. Course letters: F = one hex forward, L = 60 degrees to port, R = to
# starboard.
MOVEMENT: Final[dict[str, int]] = {
    "turn_deg": 60,
    "turn_cost_hexes": 1,
    "forward_cost_hexes": 1,
    "forward_hexes_before_turn": 1,
}

# Seed anchors (M03), used by the reference classes and the tests: a modern pre-dreadnought throws 8 dice
# abeam; a destroyer moves 5 hexes; a light cruiser has Flotation Value 6 and Critical Point 2.
SEED_ANCHORS: Final[dict[str, int]] = {
    "pre_dreadnought_beam_dice": 8,
    "destroyer_speed_hexes": 5,
    "light_cruiser_flotation": 6,
    "light_cruiser_critical_point": 2,
}
