"""The charts of ``acw_river``, as data. Source: ``seeds/002_715b56be87dfc13d.txt`` (ACW riverine hex rules).

Each chart is one constant; ``RuleSet.tables()`` prints them (``python -m rules tables acw_river``).
Line numbers are those of the seed file.
"""

from __future__ import annotations

from typing import Final

# Seed lines 17-25, the ship type table: speed forward / back in hexes a move, firepower front / side / rear
# (A04: D6 fired a turn at a target in that arc), resistance (hits the vessel can take, A11: lost at 0).
# A03: Heavily Armored keeps the printed 24 (the same as Lightly Armored), flagged as suspect.
# "protection" is the class of section 2 (lines 27-33): Heavily Armored = ironclad, Lightly Armored
# (timberclad or chain belts) = chain-armoured, the rest unprotected. "ram": the type mounts a ram (line 11).
SHIP_TYPES: Final[dict[str, dict[str, object]]] = {
    "unarmored_ram": {
        "name": "Unarmored Ram",
        "speed_forward": 4,
        "speed_back": 3,
        "fire_front": 1,
        "fire_side": 0,
        "fire_rear": 1,
        "resistance": 18,
        "protection": "unprotected",
        "ram": True,
    },
    "unarmored_gunboat": {
        "name": "Unarmored Gunboat",
        "speed_forward": 3,
        "speed_back": 2,
        "fire_front": 1,
        "fire_side": 1,
        "fire_rear": 1,
        "resistance": 18,
        "protection": "unprotected",
        "ram": False,
    },
    "lightly_armored": {
        "name": "Lightly Armored (Timberclad or Chain Belts)",
        "speed_forward": 3,
        "speed_back": 2,
        "fire_front": 1,
        "fire_side": 2,
        "fire_rear": 1,
        "resistance": 24,
        "protection": "chain",
        "ram": False,
    },
    "heavily_armored": {
        "name": "Heavily Armored (Heavy Ram or Double Monitor)",
        "speed_forward": 2,
        "speed_back": 1,
        "fire_front": 2,
        "fire_side": 2,
        "fire_rear": 2,
        "resistance": 24,
        "protection": "ironclad",
        "ram": False,
    },
    "mortar_boat": {
        "name": "Mortar Boat",
        "speed_forward": 1,
        "speed_back": 0,
        "fire_front": 1,
        "fire_side": 0,
        "fire_rear": 0,
        "resistance": 6,
        "protection": "unprotected",
        "ram": False,
    },
    "transport_empty": {
        "name": "Transport, Empty",
        "speed_forward": 3,
        "speed_back": 2,
        "fire_front": 0,
        "fire_side": 0,
        "fire_rear": 0,
        "resistance": 6,
        "protection": "unprotected",
        "ram": False,
    },
    "transport_loaded": {
        "name": "Transport, Loaded",
        "speed_forward": 2,
        "speed_back": 1,
        "fire_front": 0,
        "fire_side": 0,
        "fire_rear": 0,
        "resistance": 12,
        "protection": "unprotected",
        "ram": False,
    },
}

# Section 2, lines 27-33, with A10: the order of the resistance classes (ironclad > chain-armoured >
# unprotected) and which count as "armored" for a colliding gunboat's own loss (both armoured rows).
# "field_fire": whether field artillery (and infantry, land rules, A13) can hurt the class: chain armour
# "protected only against the fire of infantry and field artillery" (line 31); ironclads' "resistance to
# artillery is extreme" (line 29); unprotected vessels suffer "even of light weapons" (line 33).
# "stormed_as": line 82, a grounded vessel stormed by troops has "the power of resistance of a house if
# protected, a redoubt if armored" (land rules, A13).
PROTECTION_CLASSES: Final[dict[str, dict[str, object]]] = {
    "ironclad": {"rank": 3, "armored": True, "field_fire": False, "stormed_as": "redoubt"},
    "chain": {"rank": 2, "armored": True, "field_fire": False, "stormed_as": "redoubt"},
    "unprotected": {"rank": 1, "armored": False, "field_fire": True, "stormed_as": "house"},
}

# Section 3, lines 37-40, with A08: turning cost in hexes by the change of direction in one move
# (inclusive upper limit in degrees -> hexes lost); 151-180 degrees costs 4 (+1 per 30 degrees). A turn the
# vessel has not the movement for is not allowed. NW-ACW-02: the change of direction of a move is the sum of
# all its turns, port and starboard alike.
TURN_COSTS: Final[tuple[tuple[int, int], ...]] = ((60, 0), (90, 1), (120, 2), (150, 3), (180, 4))
FACING_STEP_DEG: Final = 30
"""12 facings (hex sides and corners): one course letter L or R turns 30 degrees."""

# Section 3, line 35, with A09: "A vessel reversing engines loses one hexagon and is reduced to half its
# powers of resistance." The move that switches engines costs 1 hex, then Speed Back applies; while
# moving astern each gunfire hit removes 2 points. NW-ACW-03: switching back to ahead costs 1 hex too.
REVERSING: Final[dict[str, int]] = {"switch_cost_hexes": 1, "points_per_hit_astern": 2}

# Section 4, lines 46-48, with A05: hits on 5-6 at 1-7 hexes, 6 only at 8-10, no fire beyond 10.
# (inclusive upper limit in hexes, lowest D6 score that hits).
RANGE_TABLE: Final[tuple[tuple[int, int], ...]] = ((7, 5), (10, 6))
MAX_RANGE: Final = 10

# Section 4, line 48, with A06: each 6 rolled against a vessel is confirmed by a second die:
# 6 = the vessel is lost; 2 or 4 = an ordinary hit; 1, 3, 5 = ricochet, no damage.
CONFIRMATION: Final[dict[int, str]] = {
    1: "ricochet",
    2: "hit",
    3: "ricochet",
    4: "hit",
    5: "ricochet",
    6: "lost",
}

# Section 4, line 50, with A07: once 3/4 or more of the original resistance is lost, any 6 destroys the
# vessel outright. Points lost at which that starts: ceil(3/4 x resistance): 24 -> 18, 18 -> 14, 12 -> 9,
# 6 -> 5. Other resistances (ship classes of the website) follow the same ceiling.
NO_CONFIRM_FRACTION: Final = 0.75
NO_CONFIRM_LOST: Final[dict[int, int]] = {24: 18, 18: 14, 12: 9, 6: 5}

# Section 5, line 54: "Each 5 or 6 reduces the resistance by 1 point." A11: at 0 the vessel is lost.
POINTS_PER_HIT: Final = 1

# Section 4, line 44, with A13: naval gunnery at land targets "has double the effectiveness of field
# artillery": each hit on a battery or fort removes 2 of its resistance points (a battle option).
LAND_FIRE_MULTIPLIER: Final = 2

# Section 8, lines 66-74: a ram rolls two dice; the product is the adversary's loss of resistance; the ram
# loses 2 per odd die. To ram it must have the movement to cross the enemy's hex and strikes its flank
# (NW-ACW-05: the rammer's last hex lies in the target's side arc).
RAM: Final[dict[str, object]] = {
    "dice": 2,
    "damage": "product",
    "self_loss_per_odd_die": 2,
    "hexes_needed_beyond_contact": 2,
    "must_strike_flank": True,
}

# Section 7, lines 58-64, with A10: a collision started by a vessel without a ram: two dice, the difference
# is the loss of the vessel struck (none if its resistance class is higher than the attacker's); the attacker
# loses 1 if the vessel struck is armored; the vessel struck turns 60 degrees towards the attacker's course.
COLLISION: Final[dict[str, object]] = {
    "dice": 2,
    "damage": "difference",
    "attacker_loss_if_armored": 1,
    "struck_turns_deg": 60,
    "hexes_needed_beyond_contact": 1,
}

# Section 9, lines 76-82: running aground on the first shore hex costs 2 resistance points; the vessel
# fires again from the turn after; a vessel rammed may not reduce speed to avoid running aground.
AGROUND: Final[dict[str, int]] = {"resistance_lost": 2, "fires_again_after_turns": 1}

# Section 10, line 84, with A12: when the enemy crosses a mined hex the miner rolls a D6: even = the mine
# detonates (the effect is the option ``mine_effect``, default: the vessel is lost); odd = it is washed to
# the surface, where gunfire detonates it on a 5 or 6.
MINES: Final[dict[str, object]] = {
    "detonates_on": [2, 4, 6],
    "surfaces_on": [1, 3, 5],
    "surfaced_detonated_by_fire_on": [5, 6],
    "default_effect": "lost",
}

# A04 with NW-ACW-01: the fire arcs relative to the heading: front within 60 degrees of the bow, rear within
# 60 of the stern, the rest (exactly 60 and 120 included) is the side arc, port or starboard. Each of the four
# arcs fires its dice once a turn at one target in it.
ARCS_DEG: Final[dict[str, float]] = {"front_within": 60.0, "rear_within": 60.0}

# A14: ships on more than one hex: the bow hex and the hexes astern of it; ranges from the nearest
# occupied hex. Classes may occupy 1-3 hexes.
MAX_SHIP_HEXES: Final = 3
