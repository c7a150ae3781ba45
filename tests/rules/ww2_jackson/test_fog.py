"""Fog of war in the log (A2): who sees the gunfire (NW-WW2-22), a ship's end (NW-WW2-23) and what an observer
sees (NW-CAMP-13)."""

from __future__ import annotations

from dataclasses import replace

from ww2_helpers import gun, ship, state, stats

from rules import SeededDice, ShipOrder, get_ruleset, resolve_turn, view_for
from rules.model import PhaseResult, SideInfo
from rules.rulesets.ww2_jackson import RULESET
from rules.scenario import bundled_scenarios, scenario_state


def _guadalcanal_turn(seed: int = 1) -> tuple[object, PhaseResult]:
    sc = bundled_scenarios()["guadalcanal_1942"]
    dice = SeededDice(seed)
    st, _ = scenario_state(sc, dice)
    rs = get_ruleset(st.ruleset)
    orders = [
        rs.default_order(st, s, "captain")
        for side in rs.ordering_sides(st)
        for s in rs.orderable_ships(st, side)
    ]
    return st, resolve_turn(st, orders, dice)


def test_nw_ww2_20_the_target_side_sees_the_fire_on_its_ships() -> None:
    """NW-WW2-22: at night (Guadalcanal, turn 1) the side fired at sees the salvo and its dice, as the firer
    does; the firer's fire it cannot see (holds fire: target gone, cannot fire) stays the firer's."""
    st, result = _guadalcanal_turn()
    ships = st.ship_map()  # type: ignore[attr-defined]
    fire = [e for e in result.events if e.kind == "fire"]
    assert fire, "both sides fire in turn 1"
    for e in fire:
        firer, target = ships[e.ship_id].side, ships[e.target_id].side
        assert e.visible_to == (firer, target), e.text
        for side in (firer, target):
            shown = view_for(result, side)
            assert e in shown.events  # type: ignore[union-attr]
            assert all(r in shown.rolls for r in e.rolls)  # type: ignore[union-attr]
    # the US log shows a Japanese ship firing on a US ship (the fresh-user check: Ayanami on Walke)
    us_log = view_for(result, "usa").events  # type: ignore[union-attr]
    assert any(e.kind == "fire" and ships[e.ship_id].side == "japan" for e in us_log)
    assert all(e.visible_to == (ships[e.ship_id].side,) for e in result.events if e.kind == "no_fire")


def _leaver(night: bool, red_x: float) -> PhaseResult:
    """Red's ship steams off the left edge; Blue's ship is 80 inches away (or close, with ``red_x``)."""
    b = ship("b", "blue", stats(guns=[gun("main", 5, 2)]), 90, 36, heading=90, speed=0)
    r = ship("r", "red", stats(guns=[gun("main", 5, 2)]), red_x, 36, heading=270, speed=15)
    st = state(b, r, night=night)
    orders = {
        "b": ShipOrder(ship_id="b", data={"course": 90, "speed": 0}),
        "r": ShipOrder(ship_id="r", data={"course": 270, "speed": 30}),
    }
    return RULESET.resolve_phase(st, orders, SeededDice(1))


def test_nw_ww2_21_a_withdrawal_at_night_is_seen_only_by_the_sides_that_saw_the_ship() -> None:
    """NW-WW2-23: a ship leaving the table at night, never within 20 inches of an enemy, withdraws in her own
    side's log only; by day, or within sight, every side sees it."""
    out = [e for e in _leaver(night=True, red_x=2).events if e.kind == "withdrawn"]
    assert [e.visible_to for e in out] == [("red",)]
    day = [e for e in _leaver(night=False, red_x=2).events if e.kind == "withdrawn"]
    assert [e.visible_to for e in day] == [None]
    # Blue's ship at x 80 and Red's starting at x 94 (14 inches apart): in sight at the turn's start
    b = ship("b", "blue", stats(guns=[gun("main", 5, 2)]), 80, 36, heading=90, speed=0)
    r = ship("r", "red", stats(guns=[gun("main", 5, 2)]), 94, 36, heading=90, speed=15)
    st = state(b, r, night=True)
    orders = {
        "b": ShipOrder(ship_id="b", data={"course": 90, "speed": 0}),
        "r": ShipOrder(ship_id="r", data={"course": 90, "speed": 30}),
    }
    seen = [e for e in RULESET.resolve_phase(st, orders, SeededDice(1)).events if e.kind == "withdrawn"]
    assert [e.visible_to for e in seen] == [None]


def test_nw_ww2_21_a_sinking_is_seen_by_the_side_whose_fire_sank_her() -> None:
    """NW-WW2-23: Blue's ship sinks Red's at night by radar from 30 inches (Red's ship dark, not firing, not
    on fire): Blue sees her go, though she was not in sight at either end of the turn."""
    big = stats(radar="very_good", guns=[gun("main", 16, 9, fwd=True, aft=True)])
    b = ship("b", "blue", big, 10, 60, heading=0, speed=0)
    # Red's ship with one underwater box left (the ships' sheets: every general underwater and engine box)
    r = ship("r", "red", stats(), 10, 30, heading=90, speed=0)
    st = state(b, r, night=True)
    sheet = dict(r.sheet)
    for seed in range(1, 200):
        marked = dict(sheet.get("marked") or {})
        cd = RULESET._class(r.stats)
        marked["underwater"] = cd.counts.get("underwater", 0)
        marked["engine"] = max(cd.counts.get("engine", 0) - 1, 0)
        r2 = replace(r, sheet={**sheet, "marked": marked})
        st2 = replace(st, ships=(b, r2))
        orders = {
            "b": ShipOrder(ship_id="b", data={"course": 0, "speed": 0, "target_main": "r"}),
            "r": ShipOrder(ship_id="r", data={"course": 90, "speed": 0}),
        }
        res = RULESET.resolve_phase(st2, orders, SeededDice(seed))
        sunk = [e for e in res.events if e.kind == "sunk"]
        if sunk and not any(e.kind == "fire_started" for e in res.events):
            assert sunk[0].visible_to is None  # Blue hit her: both sides
            assert not RULESET._visible(res.state, "blue", res.state.ship("r"))
            return
    raise AssertionError("no seed sank her")


def test_nw_camp_12_the_observer_sees_what_every_side_sees() -> None:
    """NW-CAMP-13: Guadalcanal at night, turn 1: the observer ("") sees the ships both sides see (Walke,
    Benham and Ayanami), with the public sheet only; in the log, the events every side sees."""
    sc = bundled_scenarios()["guadalcanal_1942"]
    st, _ = scenario_state(sc, SeededDice(1))
    rs = get_ruleset(st.ruleset)
    views = {k: {s.id for s in rs.view_for(st, k).ships} for k in st.side_keys()}
    observer = rs.view_for(st, "")
    assert {s.id for s in observer.ships} == views["usa"] & views["japan"] == {"walke", "benham", "ayanami"}
    assert all(s.sheet == rs.public_sheet(s) for s in observer.ships)
    _, result = _guadalcanal_turn()
    seen = view_for(result, "")
    assert seen.events  # type: ignore[union-attr]
    for e in result.events:
        both = all(e in view_for(result, k).events for k in ("usa", "japan"))  # type: ignore[union-attr]
        assert (e in seen.events) == both  # type: ignore[union-attr]


def _three_sides(seed: int) -> tuple[object, PhaseResult]:
    """By day: Blue's cruiser fires at Red's, Green's hit already (her sheet says so); Green looks on."""
    big = stats(guns=[gun("main", 8, 9, fwd=True, aft=True)])
    b = ship("b", "blue", big, 10, 50, heading=0, speed=0)
    r = ship("r", "red", stats(above=20), 10, 30, heading=90, speed=0)
    g = ship("g", "green", stats(), 60, 30, heading=0, speed=0)
    old = {"turn": 0, "by": "g", "calibre": 6.0, "location": "above", "penetrated": True}
    r = replace(r, sheet={**r.sheet, "hits": [old]})
    st = replace(state(b, r, g), sides=(*state().sides, SideInfo(key="green", name="Green")))
    orders = {
        "b": ShipOrder(ship_id="b", data={"course": 0, "speed": 0, "target_main": "r"}),
        "r": ShipOrder(ship_id="r", data={"course": 90, "speed": 0}),
        "g": ShipOrder(ship_id="g", data={"course": 0, "speed": 0}),
    }
    return st, RULESET.resolve_phase(st, orders, SeededDice(seed))


def test_nw_camp_15_a_third_side_sees_only_the_hits_its_side_scored() -> None:
    """NW-CAMP-15 (A2): with three sides, Blue's hits on Red's cruiser (the log's "hit" events and her public
    sheet) are Blue's and Red's; Green sees the ship, and in her sheet only the hit Green scored; Blue sees
    its own hits, not Green's; the observer, what every side sees: none."""
    for seed in range(1, 40):
        _, result = _three_sides(seed)
        hits = [e for e in result.events if e.kind == "hit"]
        if hits:
            break
    else:
        raise AssertionError("no seed hit her")
    assert all(e.visible_to == ("blue", "red") for e in hits)
    green, blue, red, watcher = (view_for(result, k) for k in ("green", "blue", "red", ""))
    assert not any(e.kind == "hit" for e in green.events)  # type: ignore[union-attr]
    assert all(e in blue.events and e in red.events for e in hits)  # type: ignore[union-attr]
    assert not any(e.kind == "hit" for e in watcher.events)  # type: ignore[union-attr]
    full = result.state.ship("r").sheet["hits"]
    assert len(full) == 1 + len(hits)
    assert green.state.ship("r").sheet == {"hits": [full[0]]}  # type: ignore[union-attr]
    assert blue.state.ship("r").sheet == {"hits": full[1:]}  # type: ignore[union-attr]
    assert {h["by"] for h in blue.state.ship("r").sheet["hits"]} == {"b"}  # type: ignore[union-attr]
    assert watcher.state.ship("r").sheet == {"hits": []}  # type: ignore[union-attr]
    assert red.state.ship("r").sheet["hits"] == full  # type: ignore[union-attr]  # her own sheet, in full


def test_nw_camp_15_two_sides_see_every_hit_as_before() -> None:
    """NW-CAMP-15: in a battle of two sides a hit is every side's (visible_to None, the golden hashes')."""
    for seed in range(1, 40):
        res = _leaver_free_fire(seed)
        hits = [e for e in res.events if e.kind == "hit"]
        if hits:
            assert all(e.visible_to is None for e in hits)
            assert view_for(res, "").state.ship("r").sheet["hits"]  # type: ignore[union-attr]
            return
    raise AssertionError("no seed hit her")


def _leaver_free_fire(seed: int) -> PhaseResult:
    big = stats(guns=[gun("main", 8, 9, fwd=True, aft=True)])
    b = ship("b", "blue", big, 10, 50, heading=0, speed=0)
    r = ship("r", "red", stats(above=20), 10, 30, heading=90, speed=0)
    orders = {
        "b": ShipOrder(ship_id="b", data={"course": 0, "speed": 0, "target_main": "r"}),
        "r": ShipOrder(ship_id="r", data={"course": 90, "speed": 0}),
    }
    return RULESET.resolve_phase(state(b, r), orders, SeededDice(seed))
