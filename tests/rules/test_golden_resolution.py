"""Golden resolution: every bundled scenario, and a 200-ship battle per rule set, resolve exactly as they did.

A guard for optimisations of the rules engine (docs/performance.md): each case plays some phases with
``SeededDice`` and hashes, phase by phase, the JSON of the orders given, the new state, the events and the
rolls (die, value, purpose, in order). The hashes were computed from the engine before the speed work of
branch ww2perf; any change in behaviour (a die more or fewer, another order, another event text, a float
that differs in its last bit) changes a hash. A deliberate change of the rules must recompute them
(``python -m tests.rules.test_golden_resolution`` prints the table) and say why in its commit.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest

from rules import SeededDice, ShipOrder, get_ruleset, memo, resolve_turn
from rules.geometry import offset_to_hex
from rules.model import MapSpec, Point, Position
from rules.scenario import Scenario, ScenarioShip, bundled_scenarios, scenario_state
from rules.serial import to_json

SEEDS = (1, 7, 42)
POLICIES = ("captain", "fire_nearest")
PHASES = 12

# The 200-ship battle of bench/rules_bench.py, copied here so that the bench may change: the gap between
# the lines is the one the bench picked (most dice) when the hashes were taken.
BIG_GAP: dict[str, float] = {"hex6": 3, "hex12": 3, "table_in": 8, "table_mm": 100}
BIG_GAP_BY_RULESET: dict[str, float] = {"memoir_sea": 2}
SPACING: dict[str, float] = {"hex6": 1, "hex12": 1, "table_in": 3, "table_mm": 40}
MARGIN: dict[str, float] = {"hex6": 4, "hex12": 4, "table_in": 12, "table_mm": 200}
HEADINGS: dict[str, tuple[float, float]] = {
    "hex6": (120, 300),
    "hex12": (90, 270),
    "table_in": (90, 270),
    "table_mm": (90, 270),
}
BIG_PHASES = 3


def big_battle(sc: Scenario, ships: int, gap: float) -> Scenario:
    """Return ``sc`` with ``ships`` ships in two facing lines ``gap`` apart (as bench/rules_bench.py)."""
    geometry = sc.map.geometry
    sides = [s.key for s in sc.sides][:2]
    per_side = ships // 2
    spacing, margin = SPACING[geometry], MARGIN[geometry]
    hex_map = geometry.startswith("hex")
    out: list[ScenarioShip] = []
    for line, side in enumerate(sides):
        templates = [s for s in sc.ships if s.side == side]
        heading = HEADINGS[geometry][line]
        for i in range(per_side):
            t = templates[i % len(templates)]
            pos: Position
            if hex_map:
                pos = offset_to_hex(int(margin + i * spacing), int(margin + line * gap))
            else:
                pos = Point(x=margin + i * spacing, y=margin + line * gap)
            out.append(replace(t, id=f"{t.id}-{i}", name=f"{t.name} {i}", position=pos, heading=heading))
    return replace(
        sc,
        map=MapSpec(geometry=geometry, width=margin * 2 + spacing * per_side, height=margin * 2 + gap),
        ships=tuple(out),
        terrain=(),
    )


def play_digest(sc: Scenario, seed: int, policy: str, phases: int) -> str:
    """Play ``phases`` phases of ``sc``; return the sha256 of every phase's orders, state, events and rolls.

    Every third ship that orders is left without orders, so the engine fills in its default (A7) and logs it.
    """
    rs = get_ruleset(sc.ruleset)
    dice = SeededDice(seed)
    state, events = scenario_state(sc, dice)
    state = replace(state, options={**state.options, "default_orders": policy})
    h = hashlib.sha256()

    def feed(value: object) -> None:
        h.update(json.dumps(to_json(value), sort_keys=True).encode())
        h.update(b"\n")

    feed([state, list(events), list(dice.rolls)])
    for _ in range(phases):
        if state.finished:
            break
        orders: list[ShipOrder] = []
        n = 0
        for side in rs.ordering_sides(state):
            for ship in rs.orderable_ships(state, side):
                n += 1
                if n % 3:
                    orders.append(rs.default_order(state, ship, policy))  # type: ignore[arg-type]
        result = resolve_turn(state, orders, dice)
        feed([orders, result.state, list(result.events), list(result.rolls)])
        state = result.state
    return h.hexdigest()[:32]


def _cases() -> list[tuple[str, str, int, str]]:
    out = [
        ("scenario", key, seed, policy)
        for key in bundled_scenarios()
        for seed in SEEDS
        for policy in POLICIES
    ]
    for rs_key in sorted({sc.ruleset for sc in bundled_scenarios().values()}):
        out.append(("big", rs_key, 1, "fire_nearest"))
        out.append(("big", rs_key, 2, "captain"))
    return out


def digest(kind: str, key: str, seed: int, policy: str) -> str:
    if kind == "scenario":
        return play_digest(bundled_scenarios()[key], seed, policy, PHASES)
    sc = next(iter(bundled_scenarios(key).values()))
    gap = BIG_GAP_BY_RULESET.get(key, BIG_GAP[sc.map.geometry])
    return play_digest(big_battle(sc, 200, gap), seed, policy, BIG_PHASES)


GOLDEN: dict[str, str] = {
    "scenario-first_memphis_1862-1-captain": "3afabcc1225b28f1b91077c274c0a3a9",
    "scenario-first_memphis_1862-1-fire_nearest": "0a5c8dca42d5a52d309d3cd5cf255eb6",
    "scenario-first_memphis_1862-7-captain": "315aee9c6ebdb5c7e0b03371d1a93388",
    "scenario-first_memphis_1862-7-fire_nearest": "cfc4a04532acbc4c6a9f0ca16dd97778",
    "scenario-first_memphis_1862-42-captain": "1feedab85d7f1192a4552440969191b5",
    "scenario-first_memphis_1862-42-fire_nearest": "3aa7907c71474fc4bd6a547b8e25ffa6",
    "scenario-santiago_de_cuba_1898-1-captain": "d9370f917c81070af380e2883d36f4ef",
    "scenario-santiago_de_cuba_1898-1-fire_nearest": "5f6b07311b386f68b457f3a8e5ef8fb7",
    "scenario-santiago_de_cuba_1898-7-captain": "f9f0fdfcd4e31e4edc22256214ce85bd",
    "scenario-santiago_de_cuba_1898-7-fire_nearest": "c6b15b4b8947acfa2470f5b79e10ae69",
    "scenario-santiago_de_cuba_1898-42-captain": "d50939245fbb9ac92933654e9ab69fd3",
    "scenario-santiago_de_cuba_1898-42-fire_nearest": "59cc59d1bb1729db7f4925a70c6386e2",
    "scenario-sail_constitution_vs_guerriere_1812-1-captain": "9e79b7339fd1c7ce99ef8ff852a21de4",
    "scenario-sail_constitution_vs_guerriere_1812-1-fire_nearest": "3dcb79440902520a6da2af55fe9bf296",
    "scenario-sail_constitution_vs_guerriere_1812-7-captain": "d0d047ffa4fcf2eb4acddd4b4f68afa7",
    "scenario-sail_constitution_vs_guerriere_1812-7-fire_nearest": "1296e45128fb983c5d820e730168c2a3",
    "scenario-sail_constitution_vs_guerriere_1812-42-captain": "48bae4528bb83fdf36500ad783757deb",
    "scenario-sail_constitution_vs_guerriere_1812-42-fire_nearest": "0cf144c88804ff409cb741515b0eaa58",
    "scenario-sail_nile_1798_van_action-1-captain": "37963feb9197348eeeca62dc798d487a",
    "scenario-sail_nile_1798_van_action-1-fire_nearest": "bac34fbe993578457b710165845979fa",
    "scenario-sail_nile_1798_van_action-7-captain": "dca84dcaa5556a2e39d42ebf4f3780f8",
    "scenario-sail_nile_1798_van_action-7-fire_nearest": "8fb50d25dd92b4c8fe2ba3c2912f7309",
    "scenario-sail_nile_1798_van_action-42-captain": "22e35c3e286d693c3cf306a115f0592c",
    "scenario-sail_nile_1798_van_action-42-fire_nearest": "cb8aca259d9a4cab47cf3eec77239168",
    "scenario-bismarck_last_battle_1941-1-captain": "e6d43a7a0087f4e08c385dd26f927113",
    "scenario-bismarck_last_battle_1941-1-fire_nearest": "8020c0d1eccf7c6b1b63b3030cc9e676",
    "scenario-bismarck_last_battle_1941-7-captain": "ecf4f0b8fb0225c0436758240edb3d03",
    "scenario-bismarck_last_battle_1941-7-fire_nearest": "34dd84150af3cd328b2f11e1be15ca47",
    "scenario-bismarck_last_battle_1941-42-captain": "cf4a746e084666589a4c1e7f445cf297",
    "scenario-bismarck_last_battle_1941-42-fire_nearest": "1b0b95c969473b34258bdad6b7b17125",
    "scenario-denmark_strait_1941-1-captain": "c15380c62a82af0c245b7e0f371a4365",
    "scenario-denmark_strait_1941-1-fire_nearest": "4e6ebe894da7a1be8afd3b2be6629539",
    "scenario-denmark_strait_1941-7-captain": "d65052826a5450e71cacc8cb51837617",
    "scenario-denmark_strait_1941-7-fire_nearest": "41831e2960951413fdc881219b658391",
    "scenario-denmark_strait_1941-42-captain": "2fe3c8d883de1a7c0e58f515622ee061",
    "scenario-denmark_strait_1941-42-fire_nearest": "8446aefecf2944b6b76e83720c343cfb",
    "scenario-guadalcanal_1942-1-captain": "a6563ec4364c60f7f6229e425199f88e",
    "scenario-guadalcanal_1942-1-fire_nearest": "378c692a010ccddfe488653eec64edb0",
    "scenario-guadalcanal_1942-7-captain": "9208aeb5dbb9b8e1b0996653b594168e",
    "scenario-guadalcanal_1942-7-fire_nearest": "b8ee8b0ac2414def477c670a0841ff5f",
    "scenario-guadalcanal_1942-42-captain": "1c3deb1d8b53417c4e23db91e4ed39b6",
    "scenario-guadalcanal_1942-42-fire_nearest": "53d9fb9212ad973da297b0648d6b3d32",
    "scenario-river_plate_1939-1-captain": "f5f31274740b857abc41fff4a10e5697",
    "scenario-river_plate_1939-1-fire_nearest": "15e3495fc9892a44a1408e3faad62ab5",
    "scenario-river_plate_1939-7-captain": "c80fcb535a976baa001451d759294772",
    "scenario-river_plate_1939-7-fire_nearest": "82beb7da0e875c3c2a6f2b068c0fcfe4",
    "scenario-river_plate_1939-42-captain": "0d533d1d4c501dcb90e6c2a036a2a1ba",
    "scenario-river_plate_1939-42-fire_nearest": "b6d8b8418d907af1872cc724f3329b57",
    "big-acw_river-1-fire_nearest": "5c41820ba07986a6a3d9ecc86a834dce",
    "big-acw_river-2-captain": "91b5bbddc25a203e7cc00959a9acf92c",
    "big-memoir_sea-1-fire_nearest": "bac6680a24da8ee4a584602d5a14eedf",
    "big-memoir_sea-2-captain": "1e127af8c72bd8e82b8e09206fceba2f",
    "big-sail_1700-1-fire_nearest": "7d7744eb2daa8289470202333d467821",
    "big-sail_1700-2-captain": "82f8ceae76b03218323509103cf917fe",
    "big-ultra_simple-1-fire_nearest": "50ff8cbcbc6c2ad5ed04861a7efedf8c",
    "big-ultra_simple-2-captain": "db341dfd596a9c4bae08acbabeb5e1e7",
    "big-ww2_jackson-1-fire_nearest": "4b11cd9a2a00478bfbc74426bce30087",
    "big-ww2_jackson-2-captain": "35529040125aede5d9b18d6df1c57591",
}


@pytest.mark.parametrize("case", _cases(), ids=lambda c: "-".join(map(str, c)))
def test_resolution_matches_the_golden_hash(case: tuple[str, str, int, str]) -> None:
    """Cold (every memo table of rules.memo emptied first) and warm (played again at once): the same hash."""
    memo.clear_all()
    assert digest(*case) == GOLDEN["-".join(map(str, case))]
    if case[0] == "big":
        assert digest(*case) == GOLDEN["-".join(map(str, case))]


def test_every_case_has_a_golden_hash() -> None:
    assert sorted(GOLDEN) == sorted("-".join(map(str, c)) for c in _cases())


def test_a_different_seed_changes_the_hash() -> None:
    # the hash sees the dice: the guard could not pass by hashing nothing
    sc = bundled_scenarios()["bismarck_last_battle_1941"]
    assert play_digest(sc, 1, "captain", 2) != play_digest(sc, 2, "captain", 2)


if __name__ == "__main__":
    for c in _cases():
        print(f'    "{"-".join(map(str, c))}": "{digest(*c)}",')
