"""Specialized and critical hits, fires, flooding, recovery and damage control (lines 290-393), with W20-W24,
W26, W35, W39, W41 and NW-WW2-13, -17, -19. Each critical result is checked for its lasting effect in later
turns."""

from __future__ import annotations

import pytest
from ww2_helpers import ctx, gun, hull, live, marked, ship, state, stats

from rules.dice import ScriptedDice
from rules.model import ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson import tables as T
from rules.rulesets.ww2_jackson.damage import critical_hit, end_of_turn, lookup, shell_table, specialized_hit
from rules.rulesets.ww2_jackson.gunnery import gun_row
from rules.rulesets.ww2_jackson.movement import max_speed
from rules.rulesets.ww2_jackson.record import sheet_to_json

CAPITAL = stats(
    "battleship",
    guns=[gun("main", 15, 2, fwd=True, armour="A"), gun("main", 15, 2, aft=True, armour="A")],
    above=8,
    above_armoured=8,
    belt="A",
    underwater=8,
    dc=3,
    fc=2,
    uw="A",
    aircraft=2,
    speed=30,
)

SEED_DD = [
    (1, 5, "bridge"),
    (6, 9, "fire_control"),
    (10, 11, "dc_wiped"),
    (12, 13, "steering"),
    (14, 15, "ammo"),
    (16, 19, "flooding"),
    (20, 20, "magazine"),
]
SEED_CAPITAL = [
    (1, 2, "bridge"),
    (3, 4, "electrical"),
    (5, 6, "aircraft"),
    (7, 9, "fire_control"),
    (10, 11, "dc_wiped"),
    (12, 13, "steering"),
    (14, 15, "boiler"),
    (16, 19, "flooding"),
    (20, 20, "magazine"),
]
SEED_TORP = {
    "torpedo_e": [
        (1, 1, "keel"),
        (2, 9, "fire_control"),
        (10, 11, "dc_wiped"),
        (12, 13, "steering"),
        (14, 15, "ammo"),
        (16, 18, "flooding"),
        (19, 20, "magazine"),
    ],
    "torpedo_cd": [
        (1, 9, "fire_control"),
        (10, 11, "dc_wiped"),
        (12, 13, "steering"),
        (14, 15, "ammo"),
        (16, 18, "flooding"),
        (19, 20, "magazine"),
    ],
    "torpedo_b": [
        (1, 9, "fire_control"),
        (10, 11, "dc_wiped"),
        (12, 13, "steering"),
        (14, 15, "ammo"),
        (16, 18, "flooding"),
        (19, 20, "magazine"),
    ],
    "torpedo_a": [
        (1, 9, "fire_control"),
        (10, 11, "dc_wiped"),
        (12, 12, "steering"),
        (13, 13, "electrical"),
        (14, 15, "fuel"),
        (16, 18, "flooding"),
        (19, 20, "magazine"),
    ],
}
CASES = (
    [("shell_dd_cruiser", lo, hi, e) for lo, hi, e in SEED_DD]
    + [("shell_capital", lo, hi, e) for lo, hi, e in SEED_CAPITAL]
    + [(k, lo, hi, e) for k, rows in SEED_TORP.items() for lo, hi, e in rows]
)


@pytest.mark.parametrize(
    ("table", "roll", "effect"),
    [
        pytest.param(t, r, e, id=f"000-critical-{t}-{r}-{e}")
        for t, lo, hi, e in CASES
        for r in sorted({lo, hi})
    ],
)
def test_critical_band_edges(table: str, roll: int, effect: str) -> None:
    """Lines 301-380: the critical tables, one entry per band (W25); W23 capital bands; W21 torpedo 16-18 /
    19-20."""
    res = lookup(T.CRITICAL_TABLES[table], roll)
    assert isinstance(res, dict) and res["effect"] == effect


@pytest.mark.parametrize(
    ("ship_type", "option", "table"),
    [
        pytest.param("destroyer", "capital", "shell_dd_cruiser", id="W26-destroyer"),
        pytest.param("cruiser", "capital", "shell_dd_cruiser", id="W26-cruiser"),
        pytest.param("battlecruiser", "capital", "shell_capital", id="W26-battlecruiser"),
        pytest.param("carrier", "capital", "shell_capital", id="W26-carrier-default-capital"),
        pytest.param("carrier", "cruiser", "shell_dd_cruiser", id="W26-carrier-option-cruiser"),
        pytest.param("small_craft", "capital", "shell_dd_cruiser", id="NW-WW2-20-small-craft"),
        pytest.param("merchant", "capital", "shell_dd_cruiser", id="NW-WW2-20-merchant"),
    ],
)
def test_which_shell_table(ship_type: str, option: str, table: str) -> None:
    """W26: destroyers and all cruisers use the destroyer/cruiser table; battleships, battlecruisers and
    carriers the capital table (a parameter for carriers). NW-WW2-20: small craft and merchant ships use the
    destroyer/cruiser table."""
    assert (
        shell_table(
            __import__("rules.rulesets.ww2_jackson.record", fromlist=["x"]).parse_class(stats(ship_type)),
            option,
        )
        == table
    )


def _turn(st, orders, dice):
    return RULESET.resolve_phase(st, orders, ScriptedDice(dice))


def test_bridge_straight_ahead_then_recovery_and_withdrawal() -> None:
    """Line 302: "Bridge hit - ship must go straight ahead next turn and cannot vary speed or heading till it
    rolls 16+ on a D20. If ship rolls "1" ... ship withdraws from battle." (W39: from the turn after; A6:
    withdrawn)."""
    s = ship(
        "a",
        "blue",
        stats(),
        50,
        50,
        heading=90,
        speed=15,
        sheet={"conditions": {"bridge": {"since": 1, "until": None}}},
    )
    st = state(s, ship("b", "red", stats(), 10, 10), turn=2)
    res = _turn(st, {"a": ShipOrder(ship_id="a", data={"course": 0, "speed": 25})}, [15])
    a = res.state.ship("a")
    assert a.heading == 90 and a.speed == 15 and "bridge" in a.sheet["conditions"]
    res = _turn(st, {"a": ShipOrder(ship_id="a", data={"course": 0, "speed": 25})}, [16])
    assert "bridge" not in res.state.ship("a").sheet["conditions"]
    res = _turn(st, {}, [1])
    assert res.state.ship("a").status == "withdrawn"


def test_fire_control_destroyed_gives_minus_two() -> None:
    """Line 303: "6-9 Fire control destroyed" (all boxes) -> later fire at -2 (line 69)."""
    h = hull(stats(fc=1))
    critical_hit(ctx([7]), h, "shell_dd_cruiser")
    assert h.sheet.remaining(h.cd, "fire_control") == 0
    f = ship("f", "blue", h.cd and stats(fc=1), 50, 50, sheet=sheet_to_json(h.sheet))
    t = ship("t", "red", stats(), 50, 30)
    sols, _ = RULESET.solutions(state(f, t), live(f), live(t), "main")
    assert any(m.value == -2 for m in sols[0].modifiers)


def test_damage_control_party_wiped_out() -> None:
    """Line 304 with W41: "Damage control party wiped out" marks every remaining DC box; no more DC orders."""
    h = hull(stats(dc=2))
    critical_hit(ctx([10]), h, "shell_dd_cruiser")
    assert h.sheet.remaining(h.cd, "damage_control") == 0
    s = ship(
        "a",
        "blue",
        stats(dc=2),
        50,
        50,
        sheet=sheet_to_json(h.sheet) | {"fires": [{"intensity": 1, "since": 1}]},
    )
    errs = RULESET.check_order(
        state(s), s, ShipOrder(ship_id="a", data={"course": 0, "speed": 15, "dc_action": "fire"})
    )
    assert "dc_action" in errs


def test_steering_executes_last_turns_helm_order() -> None:
    """Line 305: "Steering gear damaged, must write down helm orders 1 turn in advance": the ship executes
    the order of the turn before (NW-WW2-19) and queues the new one."""
    s = ship(
        "a",
        "blue",
        stats("destroyer"),
        50,
        50,
        heading=0,
        speed=10,
        sheet={"conditions": {"steering": {"since": 1, "until": None}}, "helm": {"course": 0, "speed": 10}},
    )
    st = state(s, turn=2)
    res = _turn(st, {"a": ShipOrder(ship_id="a", data={"course": 90, "speed": 20})}, [])
    a = res.state.ship("a")
    assert a.heading == 0 and a.speed == 10 and a.sheet["helm"] == {"course": 90.0, "speed": 20.0}


def test_ammunition_short_recovery_and_exhaustion() -> None:
    """Line 306: "Only roll 1/2 normal fire dice till it rolls 16+ on D20. If ship rolls 1 ... ammunition is
    exhausted and no more main battery fire."."""
    h = hull(stats())
    critical_hit(
        ctx([14]),
        h,
        "shell_dd_cruiser",
    )
    assert "ammo_short" in h.sheet.conditions
    end_of_turn(ctx([1], turn=2), h)
    assert "ammo_exhausted" in h.sheet.conditions and "ammo_short" not in h.sheet.conditions
    f = ship("f", "blue", stats(), 50, 50, sheet=sheet_to_json(h.sheet))
    t = ship("t", "red", stats(), 50, 30)
    errs = RULESET.check_order(
        state(f, t), f, ShipOrder(ship_id="f", data={"course": 0, "speed": 15, "target_main": "t"})
    )
    assert "target_main" in errs


@pytest.mark.parametrize(
    ("speed", "now", "later"),
    [
        pytest.param(15, 1, 1, id="000-crit-dd-flooding-slow"),
        pytest.param(20, 2, 2, id="000-crit-dd-flooding-20kn"),
    ],
)
def test_progressive_flooding_critical(speed: float, now: int, later: int) -> None:
    """Line 306: "Progressive flooding begins, lose 1 underwater box and 1 more each turn. If ship is moving
    at 20+ knots, lose 2 ... and 2 more each turn. Can stop ... by rolling 16+ ... "1" ... capsize and
    sink"."""
    h = hull(stats(underwater=6), speed=speed)
    critical_hit(ctx([16]), h, "shell_dd_cruiser")
    assert h.sheet.marked["underwater"] == now
    end_of_turn(ctx([1], turn=1), h)  # same turn: no roll (W39)
    assert h.sheet.marked["underwater"] == now and not h.sunk
    end_of_turn(ctx([5], turn=2), h)
    assert h.sheet.marked["underwater"] == now + later
    end_of_turn(ctx([16], turn=3), h)
    assert h.sheet.floods == []
    h2 = hull(stats(underwater=6), speed=speed)
    critical_hit(ctx([19]), h2, "shell_dd_cruiser")
    end_of_turn(ctx([1], turn=2), h2)
    assert h2.sunk.startswith("capsizes")


def test_capital_flooding_list_stops_main_fire() -> None:
    """Line 326: capital 16-19 "lose 2 underwater boxes and 1 more each turn ... "1 or 2" ... list which will
    not allow any main armament fire for remainder of game"."""
    h = hull(CAPITAL, speed=15)
    critical_hit(ctx([16]), h, "shell_capital")
    assert h.sheet.marked["underwater"] == 2
    end_of_turn(ctx([2], turn=2), h)
    assert "list" in h.sheet.conditions and h.sheet.floods == []
    f = ship("f", "blue", CAPITAL, 50, 50, sheet=sheet_to_json(h.sheet))
    t = ship("t", "red", stats(), 50, 30)
    sols, why = RULESET.solutions(state(f, t), live(f), live(t), "main")
    assert sols == [] and "List" in why


def test_magazine_w22_requires_penetration() -> None:
    """W22: a shell that cannot penetrate the underwater protection re-rolls the critical; 8" against A is
    NO, so the 20 is re-rolled (here into a bridge hit)."""
    h = hull(CAPITAL)
    c = ctx([20, 1])
    critical_hit(c, h, "shell_capital", row=gun_row(8), band="long")
    assert "bridge" in h.sheet.conditions and not h.sunk


def test_magazine_explodes_unprotected_always_qualifies() -> None:
    """Lines 307-309 with W22: ships with no underwater protection always qualify; 1-2 magazine explodes."""
    h = hull(stats())
    critical_hit(ctx([20, 2]), h, "shell_dd_cruiser", row=gun_row(5), band="long")
    assert h.sunk == "magazine explodes"


@pytest.mark.parametrize(
    ("roll", "guns_lost", "extra"),
    [
        pytest.param(3, [0, 1], {"underwater": 2, "engine": 2}, id="000-magazine-3-4-main-half"),
        pytest.param(5, [1], {"aa": 1}, id="000-magazine-5-14-half-guns"),
        pytest.param(15, [0, 1], {"aa": 1}, id="000-magazine-15-20-all-guns"),
    ],
)
def test_magazine_results(roll: int, guns_lost: list[int], extra: dict[str, int]) -> None:
    """Lines 310-312: "3-4 ... loses all main armament, 1/2 underwater general hits, and 1/2 engines / 5-14
    Lose 1/2 of all gun armament boxes / 15-20 Lose all gun armament" (W14 halves up, NW-WW2-08 of the
    sheet's totals)."""
    h = hull(stats(underwater=3, engine=4, aa=1))
    critical_hit(ctx([20, roll]), h, "shell_dd_cruiser", row=gun_row(16), band="long")
    assert h.sheet.guns_lost == guns_lost and marked(h.sheet) == extra


def test_torpedo_magazine_needs_21_inch() -> None:
    """W21: "Magazine hit (21" torpedo or larger, otherwise re-roll.)": an 18" torpedo re-rolls 19 into shock
    damage."""
    h = hull(stats(underwater=6, uw="D"))
    critical_hit(ctx([19, 5]), h, "torpedo_cd", torpedo=18)
    assert h.sheet.remaining(h.cd, "fire_control") == 0 and h.sheet.guns_lost == [1]
    assert h.sheet.marked["underwater"] == 3


def test_keel_broken() -> None:
    """Line 335: "1 Keel is cracked, ship breaks in two and sinks!" (E table; W20: also for no protection)."""
    h = hull(stats())
    critical_hit(ctx([1]), h, T.TORPEDO_CRITICAL_FOR[""], torpedo=21)
    assert h.sunk.startswith("keel")


def test_electrical_failure_two_turns() -> None:
    """Line 316: "Electrical service failure, no radar, no searchlights, roll only 1/2 gunnery dice for two
    turns"."""
    h = hull(CAPITAL)
    critical_hit(ctx([3]), h, "shell_capital")
    assert h.sheet.has("electrical", 3) and not h.sheet.has("electrical", 4)
    s = ship("a", "blue", CAPITAL, 50, 50, sheet=sheet_to_json(h.sheet))
    t = ship("t", "red", stats(), 50, 40)
    errs = RULESET.check_order(
        state(s, t, night=True, turn=2),
        s,
        ShipOrder(ship_id="a", data={"course": 0, "speed": 10, "searchlight": "t"}),
    )
    assert "searchlight" in errs
    end_of_turn(ctx([], turn=3), h)
    assert "electrical" not in h.sheet.conditions


def test_aircraft_facility_fire() -> None:
    """Line 316: "5-6 Aircraft handling facility wrecked. Ship on fire if any aircraft on board"."""
    h = hull(CAPITAL)
    critical_hit(ctx([5]), h, "shell_capital")
    assert "aircraft_wrecked" in h.sheet.conditions and len(h.sheet.fires) == 1


def test_fire_burns_out_and_intensifies() -> None:
    """Lines 297-299 / 319-321: "Lose one general above water hit each turn ... Roll 16+ to put out fire ...
    If roll is
    "1" fire intensifies and lose 2 general above water hit each turn" (NW-WW2-13)."""
    h = hull(stats(above=10), sheet={"fires": [{"intensity": 1, "since": 1}]})
    end_of_turn(ctx([5], turn=2), h)
    assert h.sheet.marked["above"] == 1
    end_of_turn(ctx([1], turn=3), h)
    assert h.sheet.marked["above"] == 3 and h.sheet.fires[0].intensity == 2
    end_of_turn(ctx([16], turn=4), h)
    assert h.sheet.fires == [] and h.sheet.marked["above"] == 3


def test_boiler_smoke_half_speed_and_engines() -> None:
    """Line 326: "Smoke & Flame ... 1/2 speed till repaired ... or by rolling 16+ ... If ship rolls 1 or 2
    Check off 2 engine boxes for remainder of game" (W38, NW-WW2-13)."""
    h = hull(CAPITAL)
    critical_hit(ctx([14]), h, "shell_capital")
    assert max_speed(h.cd, h.sheet, 2) == 14.0
    end_of_turn(ctx([2], turn=2), h)
    assert (
        "boiler" not in h.sheet.conditions and h.sheet.marked["engine"] == 2 and h.sheet.wrecked_engines == 2
    )
    assert max_speed(h.cd, h.sheet, 3) == 14.0
    assert h.sheet.restore(h.cd, "engine", None) is False


def test_fuel_contamination_torpedo_a() -> None:
    """Line 374: "14-15 Flooding interferes with fuel supply. 1/2 speed till repaired with damage control
    party" (W41: a DC order repairs it and spends a box)."""
    h = hull(CAPITAL)
    critical_hit(ctx([14]), h, "torpedo_a", torpedo=21)
    s = ship("a", "blue", CAPITAL, 50, 50, sheet=sheet_to_json(h.sheet), speed=10)
    res = _turn(
        state(s, turn=2),
        {
            "a": ShipOrder(
                ship_id="a", data={"course": 0, "speed": 10, "dc_action": "repair", "dc_repair": "fuel"}
            )
        },
        [],
    )
    sh = res.state.ship("a").sheet
    assert "fuel" not in sh["conditions"] and sh["marked"]["damage_control"] == 1 and sh["max_speed"] == 28


def test_torpedo_a_steering_for_the_game_cannot_be_repaired() -> None:
    """Line 373: "12 Steering gear damaged, take 3 underwater hits ... helm orders 1 turn in advance for
    remainder of game" (NW-WW2-17: not repairable)."""
    h = hull(CAPITAL)
    critical_hit(ctx([12]), h, "torpedo_a", torpedo=21)
    assert h.sheet.conditions["steering"].fixed and h.sheet.marked["underwater"] == 3


def test_specialized_hits() -> None:
    """Lines 290-299 with W24: 1-5 radar; 6-10 torpedo tube hit (no tubes: re-roll); 11-15 re-roll; 16-20
    fire; tube sub-roll 1-2 warhead, 3-20 lose all torpedo boxes including reloads."""
    h = hull(stats())
    specialized_hit(ctx([12, 7, 3]), h)  # 12 re-roll, 7 no tubes re-roll, 3 radar
    assert "radar_out" in h.sheet.conditions
    h = hull(stats())
    specialized_hit(ctx([20]), h)
    assert len(h.sheet.fires) == 1
    torp = [{"name": "m", "calibre": 21, "tubes": 4, "side": "centre", "fixed": False}]
    h = hull(stats(torpedoes=torp, reloads=4))
    specialized_hit(ctx([6, 3]), h)
    assert h.sheet.torpedo_lost == [0] and h.sheet.reloads == 0 and marked(h.sheet) == {}
    h = hull(stats(torpedoes=torp, reloads=4, above=5))
    specialized_hit(ctx([10, 2]), h)
    assert h.sheet.marked["above"] == 3 and h.sheet.marked["underwater"] == 2 and h.sheet.torpedo_lost == [0]


def test_torpedo_progressive_flooding_w35() -> None:
    """Lines 382-386, W35: each turn after the torpedo damage, 1-16 lose a general underwater box, 17+
    eliminated; a damage control box eliminates it."""
    h = hull(stats(underwater=6), sheet={"floods": [{"kind": "torpedo", "since": 1}]})
    end_of_turn(ctx([16], turn=2), h)
    assert h.sheet.marked["underwater"] == 1 and h.sheet.floods
    end_of_turn(ctx([17], turn=3), h)
    assert h.sheet.floods == []
    s = ship("a", "blue", stats(underwater=6), 50, 50, sheet={"floods": [{"kind": "torpedo", "since": 1}]})
    res = _turn(
        state(s, turn=2),
        {"a": ShipOrder(ship_id="a", data={"course": 0, "speed": 15, "dc_action": "flooding"})},
        [],
    )
    assert res.state.ship("a").sheet["floods"] == [] and res.rolls == ()


def test_damage_control_restores_box_marked_last_turn() -> None:
    """Lines 389-393, A6: "in its next orders a player may restore one box marked in the turn just resolved";
    W41: each use spends a box; an older box cannot be restored."""
    s = ship(
        "a",
        "blue",
        stats(),
        50,
        50,
        sheet={"marked": {"engine": 1}, "last_marks": [{"area": "engine", "index": None}]},
    )
    st = state(s, turn=2)
    order = ShipOrder(
        ship_id="a", data={"course": 0, "speed": 15, "dc_action": "restore", "dc_area": "engine"}
    )
    assert RULESET.check_order(st, s, order) == {}
    sh = _turn(st, {"a": order}, []).state.ship("a").sheet
    assert sh["marked"]["engine"] == 0 and sh["marked"]["damage_control"] == 1
    bad = ShipOrder(
        ship_id="a", data={"course": 0, "speed": 15, "dc_action": "restore", "dc_area": "main", "dc_index": 0}
    )
    assert "dc_area" in RULESET.check_order(st, s, bad)


def test_sinking_when_all_underwater_boxes_marked() -> None:
    """A6 (W01): a ship sinks at the end of the turn in which all its underwater boxes (general underwater
    and engine rooms) are marked."""
    h = hull(stats(underwater=2, engine=2), sheet={"marked": {"underwater": 2, "engine": 2}})
    end_of_turn(ctx([], turn=1), h)
    assert h.sunk == "all underwater boxes marked"


JAPANESE_DD = stats(
    "destroyer",
    guns=[gun("main", 5, 2, fwd=True)],
    above=4,
    underwater=2,
    engine=2,
    dc=1,
    torpedoes=[{"name": "tubes", "calibre": 24, "tubes": 4, "side": "centre", "fixed": False}],
)


def test_damage_control_japanese_destroyer_example() -> None:
    """Lines 389-391: "a Japanese destroyer with one damage control box receives a hit that knocks out one
    bank of its torpedo tubes (one torpedo box is marked off). The captain of that ship may cross off the
    damage control box instead of the torpedo tubes. However, once a damage control box is used, it cannot
    be used again ... if the next hit on the Japanese destroyer knocked out an engine room, our captain would
    wish mightily that he still had damage control resources ... but too late!" (A6: by order, the turn
    after; W41: the box is spent)."""
    s = ship(
        "a",
        "blue",
        JAPANESE_DD,
        50,
        50,
        sheet={"torpedo_lost": [0], "last_marks": [{"area": "torpedo", "index": 0}]},
    )
    st = state(s, turn=2)
    order = ShipOrder(
        ship_id="a",
        data={"course": 0, "speed": 15, "dc_action": "restore", "dc_area": "torpedo", "dc_index": 0},
    )
    assert RULESET.check_order(st, s, order) == {}
    sh = _turn(st, {"a": order}, []).state.ship("a").sheet
    assert sh["torpedo_lost"] == [] and sh["marked"]["damage_control"] == 1
    # The next hit knocks out an engine room: no damage control box is left to repair it.
    s2 = ship(
        "a",
        "blue",
        JAPANESE_DD,
        50,
        50,
        sheet={
            "marked": {"damage_control": 1, "engine": 1},
            "last_marks": [{"area": "engine", "index": None}],
        },
    )
    again = ShipOrder(
        ship_id="a", data={"course": 0, "speed": 15, "dc_action": "restore", "dc_area": "engine"}
    )
    st2 = state(s2, turn=3)
    assert "dc_action" in RULESET.check_order(st2, s2, again)
    assert _turn(st2, {"a": again}, []).state.ship("a").sheet["marked"]["engine"] == 1


def test_damage_control_never_repairs_the_bridge() -> None:
    """Line 393: "Damage control may repair any hit except for a bridge hit. This bridge hit represents damage
    more to people than to machinery." (NW-WW2-17)."""
    s = ship("a", "blue", stats(), 50, 50, sheet={"conditions": {"bridge": {"since": 1, "until": None}}})
    st = state(s, turn=2)
    order = ShipOrder(
        ship_id="a", data={"course": 0, "speed": 15, "dc_action": "repair", "dc_repair": "bridge"}
    )
    assert "dc_repair" in RULESET.check_order(st, s, order)
    sh = _turn(st, {"a": order}, [15]).state.ship("a").sheet  # the bridge recovery roll fails
    assert "bridge" in sh["conditions"] and sh["marked"].get("damage_control", 0) == 0


def test_damage_control_restores_torpedo_tubes_with_their_torpedoes() -> None:
    """Line 389: "The captain of that ship may cross off the damage control box instead of the torpedo
    tubes": the restored bank is as it was before the hit, its torpedoes still in the tubes (no reloads
    aboard to refill it)."""
    h = hull(JAPANESE_DD)
    assert h.sheet.mark(h.cd, "torpedo") == ("torpedo", 0)
    sheet = sheet_to_json(h.sheet)
    sheet["last_marks"] = [{"area": "torpedo", "index": 0}]
    s = ship("a", "blue", JAPANESE_DD, 50, 50, sheet=sheet)
    order = ShipOrder(
        ship_id="a",
        data={"course": 0, "speed": 15, "dc_action": "restore", "dc_area": "torpedo", "dc_index": 0},
    )
    sh = _turn(state(s, turn=2), {"a": order}, []).state.ship("a").sheet
    assert sh["torpedo_lost"] == [] and sh["loaded"] == [4] and sh["reloads"] == 0
