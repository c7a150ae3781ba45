"""Scenarios, class schema (A4, W02), charts and default orders (A7) of ww2_jackson."""

from __future__ import annotations

import json

import pytest
from ww2_helpers import IOWA, stats

from rules.dice import SeededDice
from rules.engine import resolve_turn
from rules.model import BattleState, ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson.classes import CLASSES, heuristic_stats
from rules.scenario import bundled_scenarios, scenario_state
from rules.serial import from_json, to_json


def test_denmark_strait_plays_12_turns() -> None:
    """The Denmark Strait from its historical start (shared/scenarios/01) plays 12 turns with a fixed seed
    without error; the same seed replays exactly and every state round-trips through JSON."""
    sc = bundled_scenarios()["denmark_strait_1941"]
    st, _ = scenario_state(sc, SeededDice(7))
    assert {s.id: (s.heading, s.speed) for s in st.ships} == {
        "hood": (310, 27),
        "prince_of_wales": (310, 26),
        "prinz_eugen": (220, 27),
        "bismarck": (220, 27),
    }
    log = []
    for turn in range(12):
        res = resolve_turn(st, [], SeededDice(7000 + turn))
        assert from_json(BattleState, to_json(res.state)) == res.state
        log.append(json.dumps(to_json(res.state), sort_keys=True))
        st = res.state
        if st.finished:
            break
    st2, _ = scenario_state(sc, SeededDice(7))
    for turn, dump in enumerate(log):
        st2 = resolve_turn(st2, [], SeededDice(7000 + turn)).state
        assert json.dumps(to_json(st2), sort_keys=True) == dump


@pytest.mark.parametrize("key", ["denmark_strait_1941", "river_plate_1939", "guadalcanal_1942"])
def test_scenarios_load_and_play(key: str) -> None:
    """Every bundled ww2_jackson scenario validates its classes and plays 4 turns under the automatic
    captain."""
    sc = bundled_scenarios()[key]
    assert sc.ruleset == "ww2_jackson" and sc.map.width == 96 and sc.map.height == 72
    st, _ = scenario_state(sc, SeededDice(1))
    for turn in range(4):
        st = resolve_turn(st, [], SeededDice(100 + turn)).state


def test_scenario_classes_match_bundled_heuristic() -> None:
    """A4: bundled classes are authored with the house heuristic, marked as such, and the scenarios carry
    them."""
    for sc in bundled_scenarios().values():
        if sc.ruleset != "ww2_jackson":
            continue
        for c in sc.classes:
            assert c.heuristic and c.stats == CLASSES[c.key]["stats"] and "heuristic" in c.source


def test_a4_heuristic_bismarck() -> None:
    """A4: capital one above-water box per 2,500 t (41,700 t -> 16), half with the belt letter; underwater
    half of that; engines 4, damage control 3, fire control 2; AA one per eight light barrels."""
    s = CLASSES["bismarck"]["stats"]
    assert isinstance(s, dict)
    assert (
        s["above"],
        s["above_armoured"],
        s["underwater"],
        s["engine"],
        s["damage_control"],
        s["fire_control"],
        s["aa"],
    ) == (8, 8, 8, 4, 3, 2, 4)
    dd = heuristic_stats(
        ship_type="destroyer",
        tonnage=700,
        speed=30,
        main=[],
        secondary=[],
        light_aa_barrels=0,
        torpedoes=[],
        reloads=0,
        belt="",
        underwater_protection="",
        radar="none",
    )
    assert (dd["above"], dd["underwater"], dd["engine"], dd["damage_control"], dd["fire_control"]) == (
        2,
        1,
        2,
        1,
        1,
    )


@pytest.mark.parametrize(
    ("change", "key"),
    [
        pytest.param({"tonnage": -5}, "tonnage", id="schema-negative-tonnage"),
        pytest.param({"speed": 99}, "speed", id="schema-absurd-speed"),
        pytest.param({"engine": None}, "engine", id="schema-missing-engine"),
        pytest.param(
            {"guns": [{"area": "main", "calibre": 2, "guns": 2}]}, "guns.0.calibre", id="schema-calibre-2in"
        ),
        pytest.param(
            {"guns": [{"area": "main", "calibre": 8, "guns": 2, "broadside": False}]},
            "guns.0.broadside",
            id="schema-gun-bears-nowhere",
        ),
        pytest.param(
            {"torpedoes": [{"calibre": 22, "tubes": 3}]}, "torpedoes.0.calibre", id="schema-torpedo-22in"
        ),
        pytest.param({"above_armoured": 3, "belt": ""}, "belt", id="schema-belt-letter-missing"),
        pytest.param({"underwater_protection": "F"}, "underwater_protection", id="schema-unknown-letter"),
        pytest.param(
            {"guns": [{"area": "main", "calibre": 8, "guns": 2, "kind": "old"}]},
            "guns.0.kind",
            id="schema-old-8in",
        ),
    ],
)
def test_class_validation(change: dict, key: str) -> None:
    """A4 / W02: the record sheet is class data, validated with field errors."""
    s = dict(IOWA)
    s.update(change)
    if change.get("engine", 0) is None:
        del s["engine"]
    errs = RULESET.validate_class(s)
    assert key in errs, errs


def test_valid_classes() -> None:
    """Every bundled class and the Iowa test class validate."""
    assert RULESET.validate_class(IOWA) == {}
    for c in CLASSES.values():
        assert isinstance(c["stats"], dict) and RULESET.validate_class(c["stats"]) == {}


def test_tables_are_json() -> None:
    """`python -m rules tables ww2_jackson` prints every chart: each is JSON as the engine uses it."""
    t = RULESET.tables()
    json.dumps(t)
    assert t["MFN_CHART"]["16"][8] == 5 and t["PENETRATION"]["11-12"]["A"] == "NO"
    assert t["TORPEDO_RANGES"]["24"] == [12, 24, 48]


@pytest.mark.parametrize("policy", ["hold", "fire_nearest", "captain"])
def test_default_orders_are_legal(policy: str) -> None:
    """A7: default orders under every policy are legal, for every ship of every scenario, over a few turns."""
    for key in ("denmark_strait_1941", "guadalcanal_1942"):
        st, _ = scenario_state(bundled_scenarios()[key], SeededDice(3))
        for turn in range(3):
            for s in st.ships:
                if s.active:
                    o = RULESET.default_order(st, s, policy)  # type: ignore[arg-type]
                    assert RULESET.validate_orders(st, s.side, [o]).ok, (s.id, o)
            st = resolve_turn(st, [], SeededDice(turn)).state


def test_preview_lines() -> None:
    """The order form shows what an order would do: BFN -> MFN, the number needed and the modifiers."""
    st, _ = scenario_state(bundled_scenarios()["denmark_strait_1941"], SeededDice(0))
    pow_ = st.ship("prince_of_wales")
    lines = RULESET.preview(
        st,
        pow_,
        ShipOrder(ship_id="prince_of_wales", data={"course": 310, "speed": 26, "target_main": "bismarck"}),
    )
    assert any(ln.startswith("14-inch: BFN 6 -> MFN 4 D20, hits on 16+ at long range") for ln in lines), lines


def test_public_sheet_hides_boxes() -> None:
    """A2: an opponent sees the hits scored and where they landed, not the boxes."""
    from ww2_helpers import ship

    s = ship(
        "a",
        "blue",
        stats(),
        1,
        1,
        sheet={"marked": {"engine": 1}, "hits": [{"turn": 1, "location": "engine"}]},
    )
    assert RULESET.public_sheet(s) == {"hits": [{"turn": 1, "location": "engine"}]}


@pytest.mark.parametrize("key", ["guadalcanal_1942", "river_plate_1939"])
def test_order_checks_leave_the_shared_sheets_alone(key: str) -> None:
    """Order checks, default orders (A7) and previews read a parse of each ship's sheet cached per state; none
    of them may change it (a changed copy would leak into the next check), whatever the orders say: here every
    policy's default order, and each with the ship's standing orders flipped (not cleared for action)."""
    from rules.rulesets.ww2_jackson.record import sheet_to_json

    sc = bundled_scenarios()[key]
    dice = SeededDice(3)
    st, _ = scenario_state(sc, dice)
    for _ in range(4):
        for ship in st.ships:
            if not ship.active:
                continue
            for policy in ("hold", "fire_nearest", "captain"):
                order = RULESET.default_order(st, ship, policy)
                flipped = ShipOrder(ship_id=ship.id, data={**order.data, "cleared_for_action": False})
                for o in (order, flipped):
                    RULESET.check_order(st, ship, o)
                    RULESET.preview(st, ship, o)
        for ship in st.ships:
            if ship.active:
                assert sheet_to_json(RULESET._seen(ship).sheet) == sheet_to_json(RULESET._live(ship).sheet)
        st = resolve_turn(st, [], dice).state
