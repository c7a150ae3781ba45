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
    "scenario-first_memphis_1862-1-captain": "50538fa743d4df3b4e1e9a8c3a60c532",
    "scenario-first_memphis_1862-1-fire_nearest": "d93f63ad8b2b3e71454a5caeea40fe86",
    "scenario-first_memphis_1862-7-captain": "90ca2ab83995edc6f13214fb5f1f696a",
    "scenario-first_memphis_1862-7-fire_nearest": "5617db0ba0a6d9fe6ccb568fed804f99",
    "scenario-first_memphis_1862-42-captain": "08434ffbedd872fa1facb8e482b81497",
    "scenario-first_memphis_1862-42-fire_nearest": "27a6df836b305a656c4644bbf9d3c8a5",
    "scenario-santiago_de_cuba_1898-1-captain": "3ee7ccb93ce7d45eb1543f818f89dc27",
    "scenario-santiago_de_cuba_1898-1-fire_nearest": "b09bb1807f8e7490e9e389c31024dd33",
    "scenario-santiago_de_cuba_1898-7-captain": "dc0471e435ec78fa537c0cf4385c3a8f",
    "scenario-santiago_de_cuba_1898-7-fire_nearest": "5fbdf04c39293b00f586459c6e4a01f5",
    "scenario-santiago_de_cuba_1898-42-captain": "cbedfcb5280ab4aa01c738f5a8b07940",
    "scenario-santiago_de_cuba_1898-42-fire_nearest": "20bbe16d76d5799120948df3e00654e3",
    "scenario-sail_constitution_vs_guerriere_1812-1-captain": "cac4c7c007e7a2051efb6f4fd4b9f69e",
    "scenario-sail_constitution_vs_guerriere_1812-1-fire_nearest": "e6b98928dff8ad3d53a23966dbc139b7",
    "scenario-sail_constitution_vs_guerriere_1812-7-captain": "9638f0179df93d3fc9a0ff0a20411206",
    "scenario-sail_constitution_vs_guerriere_1812-7-fire_nearest": "9d61992e716711c1eb65b67c79bcde01",
    "scenario-sail_constitution_vs_guerriere_1812-42-captain": "53c8416640521c2920a1c298f3299ab3",
    "scenario-sail_constitution_vs_guerriere_1812-42-fire_nearest": "ef122fb4fb152b96c87185dbbfa1ccac",
    "scenario-sail_nile_1798_van_action-1-captain": "2fe3d2ac1dc55d009166b383b6fc52fd",
    "scenario-sail_nile_1798_van_action-1-fire_nearest": "d9b7d1bd6422147800e978282a697d9f",
    "scenario-sail_nile_1798_van_action-7-captain": "4eac0a950b70dbf77e57359c6e5368b6",
    "scenario-sail_nile_1798_van_action-7-fire_nearest": "949440ce8d976a1cfa114daea481e18a",
    "scenario-sail_nile_1798_van_action-42-captain": "d076274cddbced621d1a4b9dead414fa",
    "scenario-sail_nile_1798_van_action-42-fire_nearest": "7927f1e84a07564e6ab657fea162659a",
    "scenario-bismarck_last_battle_1941-1-captain": "80a1dd3e76cd46d04f09268ce44ac6e8",
    "scenario-bismarck_last_battle_1941-1-fire_nearest": "18176b3358f52987cfae91fc084bc0d4",
    "scenario-bismarck_last_battle_1941-7-captain": "9de4bff8ccbb21a6c590c607eaf0e429",
    "scenario-bismarck_last_battle_1941-7-fire_nearest": "d7b56feb01e64ed86244c0bb3dd3e93e",
    "scenario-bismarck_last_battle_1941-42-captain": "63370e0b8bed331e5f40296b622c5652",
    "scenario-bismarck_last_battle_1941-42-fire_nearest": "25a626ed26b9f0f47bf6aca0290d474d",
    "scenario-denmark_strait_1941-1-captain": "7cd325b42cb06bca10dbd51f636e15e6",
    "scenario-denmark_strait_1941-1-fire_nearest": "d2047cd682938c2b1745d2ffa69c4aa1",
    "scenario-denmark_strait_1941-7-captain": "fbbf39f510e982a77180aa19d2de1aff",
    "scenario-denmark_strait_1941-7-fire_nearest": "5304cfd6db45fdc3e62819cb6f0cb010",
    "scenario-denmark_strait_1941-42-captain": "aa6f3ceba6e52449f5d16bf97489bc50",
    "scenario-denmark_strait_1941-42-fire_nearest": "fc8cbfd7a1f0f4540cc0bb47d5449788",
    "scenario-guadalcanal_1942-1-captain": "a8515467dae91341c55a2d1acffa1f1d",
    "scenario-guadalcanal_1942-1-fire_nearest": "60a6bdf39dc13f0990a3c99e6df969e9",
    "scenario-guadalcanal_1942-7-captain": "be95fd5ce22af25cd6b2aa90c631f4e5",
    "scenario-guadalcanal_1942-7-fire_nearest": "84a432e265b2ff5077c43002f66a3bb8",
    "scenario-guadalcanal_1942-42-captain": "3f57a17a3d5e4d683e8f6b2a2574a0d2",
    "scenario-guadalcanal_1942-42-fire_nearest": "dbb6185d3a6ba58cb98c4dadc9dff962",
    "scenario-river_plate_1939-1-captain": "5e349b25949dd1c3abc1aa82a9b876f2",
    "scenario-river_plate_1939-1-fire_nearest": "6ec4f317ff8ed0c77d66b39c27908016",
    "scenario-river_plate_1939-7-captain": "8298c43bcec43d041a84b25736377af7",
    "scenario-river_plate_1939-7-fire_nearest": "826cf56357bf2e2c80ddcbd1a133ccc5",
    "scenario-river_plate_1939-42-captain": "7d3bb65751f172e3c4012deb41cb10ef",
    "scenario-river_plate_1939-42-fire_nearest": "5fc87996d89da6610f9a12f4c816a663",
    "big-acw_river-1-fire_nearest": "69c002d578f96200220f6d33124e4d25",
    "big-acw_river-2-captain": "c4b1be6c7b2d4dd17e75239ac7601809",
    "big-memoir_sea-1-fire_nearest": "dbfcd18f81285b77c2bc5a5a954b1af5",
    "big-memoir_sea-2-captain": "77199fcd91fd1009b9ad7243a9d57754",
    "big-sail_1700-1-fire_nearest": "399387eb23d98f4e876dcc1541772f14",
    "big-sail_1700-2-captain": "51ca092b69f149664b66ac8e12eeb341",
    "big-ultra_simple-1-fire_nearest": "84d413c6b24462236e55392bff5abfe7",
    "big-ultra_simple-2-captain": "1601c019429c9ab349131e772a6ed021",
    "big-ww2_jackson-1-fire_nearest": "45b268dae81bc7fc31fc0b309c825556",
    "big-ww2_jackson-2-captain": "8f3cef31fbccb030241a43ba42818d0c",
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
