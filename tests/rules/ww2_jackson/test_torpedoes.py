"""Seed 000 section 3, torpedoes (lines 143-235), with A6 / W12-W21, W35 and NW-WW2-11."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ww2_helpers import ctx, gun, hull, marked, ship, state, stats

from rules.dice import ScriptedDice
from rules.model import ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson import tables as T
from rules.rulesets.ww2_jackson.damage import lookup, torpedo_hit, torpedo_table

DD = stats(
    "destroyer",
    guns=[gun("main", 5, 1, fwd=True)],
    above=4,
    underwater=2,
    engine=2,
    dc=1,
    torpedoes=[{"name": "mount", "calibre": 21, "tubes": 4, "side": "centre", "fixed": False}],
    reloads=4,
)


def _launch(dist: float, calibre: int = 21, target_stats: dict | None = None, number: int = 0) -> tuple:
    dd = dict(DD, torpedoes=[dict(DD["torpedoes"][0], calibre=calibre)])
    f = ship("f", "blue", dd, 50, 50, heading=0, speed=0)
    t = ship("t", "red", target_stats or stats(), 50 + dist, 50, heading=0, speed=0)
    st = state(f, t)
    order = ShipOrder(
        ship_id="f",
        data={"course": 0, "speed": 0, "torpedo_target": "t", "torpedo_mount": -1, "torpedo_number": number},
    )
    return st, order


@pytest.mark.parametrize(
    ("calibre", "dist", "band"),
    [
        pytest.param(c, d, b, id=f"A6-W12-torpedo-{c}in-{d}in-{b or 'out'}")
        for c, (s, m, lg) in {18: (6, 12, 18), 21: (8, 16, 24), 24: (12, 24, 48)}.items()
        for d, b in (
            (s, "short"),
            (s + 0.5, "medium"),
            (m, "medium"),
            (m + 0.5, "long"),
            (lg, "long"),
            (lg + 0.5, ""),
        )
    ],
)
def test_torpedo_range_bands(calibre: int, dist: float, band: str) -> None:
    """A6 (W12): "Short / medium / long, in inches: 18-inch 6 / 12 / 18; 21-inch 8 / 16 / 24; 24-inch 12 / 24
    / 48"."""
    st, order = _launch(dist, calibre)
    mounts, why = RULESET._torpedo_mounts(
        RULESET._live(st.ship("f")), order.data, st.ship("f").position, 0.0, st.ship("t").position
    )
    if band:
        assert [b for _, _, b in mounts] == [band]
    else:
        assert mounts == [] and "range" in why
        assert "torpedo_target" in RULESET.check_order(st, st.ship("f"), order)


WINGS = dict(
    DD,
    torpedoes=[
        {"name": f"{side} mount {n}", "calibre": 21, "tubes": 4, "side": side, "fixed": False}
        for side in ("port", "starboard")
        for n in (1, 2)
    ],
)


@pytest.mark.parametrize("target", ["t", ""], ids=["with-a-target", "without-a-target"])
def test_a_torpedo_mount_the_ship_lacks_is_refused_naming_her_mounts(target: str) -> None:
    """The mounts are numbered from 0 in the class's order (the order form's select); -1 is every loaded mount
    that bears. Mount 7 of a ship with mounts 0-3 is illegal, next to the mount field, with or without a
    target (it was accepted without one, and with one refused as "no loaded mount bears", naming none)."""
    f = ship("f", "blue", WINGS, 50, 50, heading=0, speed=0)
    t = ship("t", "red", stats(), 56, 50, heading=0, speed=0)
    st = state(f, t)
    data = {"course": 0, "speed": 0, "torpedo_target": target, "torpedo_number": 0}

    errors = RULESET.validate_orders(st, "blue", [ShipOrder(ship_id="f", data={**data, "torpedo_mount": 7})])
    fine = RULESET.validate_orders(st, "blue", [ShipOrder(ship_id="f", data={**data, "torpedo_mount": 3})])

    assert errors.invalid == {}
    assert errors.illegal == {
        "f": {
            "torpedo_mount": [
                "F has no torpedo mount 7: her mounts are 0 (port mount 1), 1 (port mount 2), "
                "2 (starboard mount 1), 3 (starboard mount 2); "
                "-1 launches from every loaded mount that bears."
            ]
        }
    }
    assert fine.ok


def test_a_torpedo_mount_on_a_ship_without_tubes_is_refused() -> None:
    f = ship("f", "blue", stats(), 50, 50, heading=0, speed=0)
    st = state(f, ship("t", "red", stats(), 56, 50))

    errors = RULESET.check_order(
        st, f, ShipOrder(ship_id="f", data={"course": 0, "speed": 0, "torpedo_mount": 0})
    )

    assert errors == {"torpedo_mount": ["F has no torpedo mounts: leave the mount at -1."]}


@pytest.mark.parametrize(
    ("dist", "due"),
    [
        pytest.param(8, 2, id="000-torpedo-timing-short-next-turn"),
        pytest.param(16, 2, id="000-torpedo-timing-medium-next-turn"),
        pytest.param(24, 3, id="000-torpedo-timing-long-two-turns"),
    ],
)
def test_launch_and_timing(dist: float, due: int) -> None:
    """Lines 157-160: "Short range torpedoes impact on turn after they are launched. Medium range ... on turn
    after ... Long range torpedoes impact two turns after they are launched."."""
    st, order = _launch(dist)
    res = RULESET.resolve_phase(st, {"f": order}, ScriptedDice([]))
    (p,) = res.state.pending
    assert p.kind == "torpedo" and p.due_turn == due and p.data["number"] == 4 and p.visible_to == ("blue",)
    assert res.state.ship("f").sheet["loaded"] == [0]
    # NW-WW2-11: the mount that launched does not reload in the same turn.
    assert res.state.ship("f").sheet["reloads"] == 4


def _cruiser_fires_destroyer_launches() -> tuple:
    """A cruiser ("f", one 8-inch turret forward) fires at a destroyer ("t", DD) 6 inches on her beam, which
    launches every loaded torpedo at her the same turn (NW-WW2-21, NW-WW2-24)."""
    cruiser = ship("f", "blue", stats("cruiser", guns=[gun("main", 8, 2, fwd=True, name="A")]), 50, 50, 90, 0)
    dd = ship("t", "red", DD, 50, 56, heading=90, speed=0)
    orders = {
        "f": ShipOrder(ship_id="f", data={"course": 90, "speed": 0, "target_main": "t"}),
        "t": ShipOrder(
            ship_id="t",
            data={"course": 90, "speed": 0, "torpedo_target": "f", "torpedo_mount": -1, "torpedo_number": 0},
        ),
    }
    return state(cruiser, dd), orders


def test_a_ship_sunk_by_gunfire_still_launches_her_torpedoes_NW_WW2_21() -> None:
    """A1: "(2) gunfire, all at once ...; damage is applied after all fire is resolved, so a ship sunk this
    turn still fires; (3) torpedoes: new launches are recorded". NW-WW2-21: so do her torpedoes: the orders
    are simultaneous and the tubes fire in the same minutes as the guns. A cruiser's 8-inch shell finds the
    destroyer's magazine (location 20, critical 20, magazine 2: explodes); the destroyer launches her four
    torpedoes all the same, and they reach the cruiser next turn."""
    st, orders = _cruiser_fires_destroyer_launches()
    # two 8-inch dice (20 hits, 1 misses); hit location 20 = critical; critical 20 = magazine; magazine 2
    res = RULESET.resolve_phase(st, orders, ScriptedDice([20, 1, 20, 20, 2]))
    kinds = [e.kind for e in res.events]
    assert kinds.index("critical") < kinds.index("torpedo_launch") < kinds.index("sunk")
    assert res.state.ship("t").status == "sunk"
    (p,) = res.state.pending
    assert (p.kind, p.ship_id, p.due_turn, p.data["firer"], p.data["number"]) == ("torpedo", "f", 2, "t", 4)
    st2 = replace(res.state, turn=2)
    res2 = RULESET.resolve_phase(
        st2, {"f": ShipOrder(ship_id="f", data={"course": 90, "speed": 0})}, ScriptedDice([1, 1, 1, 1])
    )
    (ev,) = [e for e in res2.events if e.kind == "torpedo"]
    assert ev.target_id == "f" and len(ev.rolls) == 4 and ev.outcome == "miss"


def test_a_mount_knocked_out_by_this_turns_gunfire_still_launches_NW_WW2_24() -> None:
    """A1: "damage is applied after all fire is resolved, so a ship sunk this turn still fires"; NW-WW2-21: a
    ship sunk by the turn's gunfire still launches. NW-WW2-24: so does a mount the same gunfire knocks out.
    The cruiser's 8-inch shell is a specialized hit on the destroyer (location 19), torpedo tubes (6), all
    torpedo boxes and reloads lost (sub-roll 3); she launches the four torpedoes loaded when the turn began,
    and ends the turn with the mount lost and the tubes empty."""
    st, orders = _cruiser_fires_destroyer_launches()
    # two 8-inch dice (20 hits, 1 misses); hit location 19 = specialized; 6 = torpedo tubes; 3 = lose all
    res = RULESET.resolve_phase(st, orders, ScriptedDice([20, 1, 19, 6, 3]))
    kinds = [e.kind for e in res.events]
    assert kinds.index("specialized") < kinds.index("torpedo_launch")
    (p,) = res.state.pending
    assert (p.kind, p.ship_id, p.due_turn, p.data["firer"], p.data["number"]) == ("torpedo", "f", 2, "t", 4)
    assert p.data["no_fire_control"] is False
    sheet = res.state.ship("t").sheet
    assert (sheet["torpedo_lost"], sheet["loaded"], sheet["reloads"]) == ([0], [0], 0)
    assert res.state.ship("t").status == "active"


def _strike(
    target_speed: float, rolls: list[int], turned: float = 0.0, target_type: str = "cruiser", dist: float = 12
) -> list:
    st, order = _launch(dist, target_stats=stats(target_type))
    res = RULESET.resolve_phase(st, {"f": order}, ScriptedDice([]))
    st2 = replace(res.state, turn=2)
    t = st2.ship("t")
    st2 = st2.with_ships({"t": replace(t, speed=target_speed, heading=0.0)})
    course = 0.0
    if turned:
        course = 180.0
    orders = {
        "t": ShipOrder(
            ship_id="t", data={"course": course, "speed": target_speed, "turn_direction": "starboard"}
        ),
        "f": ShipOrder(ship_id="f", data={"course": 0, "speed": 0}),
    }
    res2 = RULESET.resolve_phase(st2, orders, ScriptedDice(rolls))
    return [e for e in res2.events if e.kind == "torpedo"]


@pytest.mark.parametrize(
    ("speed", "mod"),
    [
        pytest.param(0, 1, id="000-torpedo-mod-stationary"),
        pytest.param(20, 0, id="W13-20kn-no-modifier"),
        pytest.param(21, -1, id="W13-21kn-minus-1"),
        pytest.param(26, -1, id="W13-26kn-minus-1"),
        pytest.param(27, -2, id="W13-27kn-minus-2-not-3"),
    ],
)
def test_torpedo_speed_modifiers(speed: float, mod: int) -> None:
    """Lines 149-151: "Target stationary, +1 / Target moving 21 knots or more, -1 / Target moving 27 knots or
    more, -2" (W13: bands, 27+ is -2 not -3). Four torpedoes at medium range, all missing on 1s."""
    (ev,) = _strike(speed, [1, 1, 1, 1])
    assert sum(m.value for m in ev.modifiers) == mod and ev.needed == 11


def test_radical_manoeuvre_halves_dice() -> None:
    """Line 152: "Target makes a radical maneuver in turn torpedo is due to hit, Halve number of dice!" (W14
    up, W15: a course change over 90 degrees): 4 torpedoes -> 2 dice. A destroyer at 20 knots (5 in) on its
    3-inch circle turns 95.5 degrees."""
    (ev,) = _strike(20, [1, 1], turned=180.0, target_type="destroyer")
    assert ev.data["number"] == 2 and len(ev.rolls) == 2


def test_agile_target_and_hits() -> None:
    """Line 155: "Very agile target such as destroyer or sub-chaser -2"; medium 11+ with -1 in all: 13 hits,
    11 misses."""
    tdd = dict(DD, underwater=4)
    st, order = _launch(12, target_stats=tdd)
    res = RULESET.resolve_phase(st, {"f": order}, ScriptedDice([]))
    st2 = replace(res.state, turn=2)
    res2 = RULESET.resolve_phase(st2, {}, ScriptedDice([13, 11, 1, 1, 5]))
    (ev,) = [e for e in res2.events if e.kind == "torpedo"]
    assert [m.value for m in ev.modifiers] == [1, -2]  # stationary +1, agile -2
    assert ev.data["hits"] == 1
    # Table 2 (21" against no protection), roll 5: 3 general, 1 engine hit, steering hit.
    t = RULESET._live(res2.state.ship("t"))
    assert marked(t.sheet) == {"underwater": 3, "engine": 1} and "steering" in t.sheet.conditions


def test_no_fire_control_and_fixed_tubes() -> None:
    """Lines 153-154: "Firing ship has no fire control remaining, -4 / Battleships firing from fixed tubes:
    -3"."""
    bb = stats(
        "battleship",
        torpedoes=[{"name": "fixed", "calibre": 21, "tubes": 2, "side": "centre", "fixed": True}],
        fc=1,
    )
    f = ship("f", "blue", bb, 50, 50, heading=0, speed=0, sheet={"marked": {"fire_control": 1}})
    t = ship("t", "red", stats(), 60, 50, heading=0, speed=10)
    st = state(f, t)
    res = RULESET.resolve_phase(
        st,
        {"f": ShipOrder(ship_id="f", data={"course": 0, "speed": 0, "torpedo_target": "t"})},
        ScriptedDice([]),
    )
    st2 = replace(res.state, turn=2)
    res2 = RULESET.resolve_phase(st2, {}, ScriptedDice([1, 1]))
    (ev,) = [e for e in res2.events if e.kind == "torpedo"]
    assert sorted(m.value for m in ev.modifiers) == [-4, -3]


# Torpedo table choice as printed (lines 164-186): calibre -> protection -> table.
SEED_CHOICE = {
    18: {"": 3, "E": 4, "D": 5, "C": 6, "B": 7, "A": 8},
    21: {"": 2, "E": 3, "D": 4, "C": 5, "B": 6, "A": 7},
    24: {"": 1, "E": 2, "D": 3, "C": 4, "B": 5, "A": 6},
}


@pytest.mark.parametrize(
    ("calibre", "prot", "table"),
    [
        pytest.param(c, p, n, id=f"000-torpedo-table-{c}in-{p or 'none'}-table{n}")
        for c, row in SEED_CHOICE.items()
        for p, n in row.items()
    ],
)
def test_torpedo_table_choice(calibre: int, prot: str, table: int) -> None:
    """Lines 164-186: the table by torpedo calibre and underwater protection."""
    assert torpedo_table(calibre, prot) == table


# Tables 1-8 band edges as printed (lines 188-235), with W16 (Table 3: 20 critical) and W17 (Table 5: 14-19).
SEED_TABLES = {
    1: [
        (1, 6, {"general": 4, "engine": 1, "steering": True}),
        (7, 13, {"general": 4, "engine": 2}),
        (14, 18, {"general": 5, "engine": "all"}),
        (19, 20, {"critical": True}),
    ],
    2: [
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "engine": 2}),
        (14, 19, {"general": 4, "engine": "all"}),
        (20, 20, {"critical": True}),
    ],
    3: [
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "engine": 2}),
        (14, 19, {"general": 4, "engine": 2}),
        (20, 20, {"critical": True}),
    ],
    4: [
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 4, "engine": 1}),
        (14, 19, {"general": 4}),
        (20, 20, {"critical": True}),
    ],
    5: [
        (1, 6, {"general": 3, "engine": 1, "steering": True}),
        (7, 13, {"general": 3, "steering": True}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ],
    6: [
        (1, 6, {"general": 2, "engine": 1}),
        (7, 13, {"general": 3}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ],
    7: [
        (1, 6, {"general": 2}),
        (7, 10, {"general": 1, "engine": 1}),
        (11, 14, {"general": 2}),
        (15, 19, {"general": 1, "steering": True}),
        (20, 20, {"critical": True}),
    ],
    8: [
        (1, 6, {"engine": 1}),
        (7, 13, {"general": 2}),
        (14, 19, {"general": 3}),
        (20, 20, {"critical": True}),
    ],
}


@pytest.mark.parametrize(
    ("table", "roll", "result"),
    [
        pytest.param(n, r, res, id=f"000-torpedo-table{n}-{r}")
        for n, rows in SEED_TABLES.items()
        for lo, hi, res in rows
        for r in sorted({lo, hi})
    ],
)
def test_torpedo_table_band_edges(table: int, roll: int, result: dict) -> None:
    """Lines 188-235 (W16: Table 3 "0 =" is 20; W17: Table 5's third band is 14-19; W18 kept as printed)."""
    assert lookup(T.TORPEDO_TABLES[table], roll) == result


def test_w17_table5_rolls_12_13() -> None:
    """W17: "Rolls 12-13 give 3 general + steering hit"."""
    assert (
        lookup(T.TORPEDO_TABLES[5], 12) == lookup(T.TORPEDO_TABLES[5], 13) == {"general": 3, "steering": True}
    )


def test_torpedo_hit_all_engines_steering_and_flooding_start() -> None:
    """W19: "all engine hits = every remaining engine box (speed 0)"; steering hit = the critical steering
    effect; W35: progressive flooding starts after a torpedo hit. Torpedo Table 1 (24" vs no protection),
    roll 14."""
    h = hull(stats(underwater=6, engine=4))
    c = ctx([14])
    torpedo_hit(c, h, 24)
    assert marked(h.sheet) == {"underwater": 5, "engine": 4}
    assert [f.kind for f in h.sheet.floods] == ["torpedo"]
    h = hull(stats(underwater=6))
    torpedo_hit(ctx([3]), h, 24)
    assert "steering" in h.sheet.conditions and marked(h.sheet) == {"underwater": 4, "engine": 1}


def test_no_collateral_from_torpedoes() -> None:
    """Line 248: "Torpedo hits do not have collateral damage": Table 7 roll 1 = 2 general, nothing else."""
    h = hull(stats(uw="A", underwater=6))
    torpedo_hit(ctx([1]), h, 21)
    assert marked(h.sheet) == {"underwater": 2}


@pytest.mark.parametrize(
    ("dist", "band", "needed"),
    [
        pytest.param(8, "short", 6, id="000-torpedo-line146-close-6-20"),
        pytest.param(16, "medium", 11, id="000-torpedo-line145-medium-11-20"),
        pytest.param(24, "long", 16, id="000-torpedo-line144-long-16-20"),
    ],
)
def test_torpedo_to_hit_numbers(dist: float, band: str, needed: int) -> None:
    """Lines 143-146: "Roll one D20 for each torpedo fired. Hit with: Long range: 16-20 / Medium range:
    11-20 / Close range: 6-20" (W07: close = short). Four torpedoes at a 10-knot cruiser (no modifier): three
    dice one short of the number miss, the fourth hits (Table 2, roll 7: 3 general, 2 engine hits)."""
    st, order = _launch(dist, target_stats=stats())
    st = RULESET.resolve_phase(st, {"f": order}, ScriptedDice([])).state
    t = st.ship("t")
    st = st.with_ships({"t": replace(t, speed=10.0)})
    go = {"t": ShipOrder(ship_id="t", data={"course": 0, "speed": 10})}
    turn = 2
    if band == "long":  # lines 157-160: long range torpedoes impact two turns after they are launched
        st = RULESET.resolve_phase(replace(st, turn=2), go, ScriptedDice([])).state
        turn = 3
    res = RULESET.resolve_phase(replace(st, turn=turn), go, ScriptedDice([needed - 1] * 3 + [needed, 7]))
    (ev,) = [e for e in res.events if e.kind == "torpedo"]
    assert ev.data["band"] == band and ev.needed == needed and ev.modifiers == ()
    assert ev.data["number"] == 4 and ev.data["hits"] == 1
