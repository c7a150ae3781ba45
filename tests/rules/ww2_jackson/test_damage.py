"""Seed 000 section 4, damage (lines 105-141, 237-288), with rulings W27-W34 and NW-WW2-03..07."""

from __future__ import annotations

import pytest
from ww2_helpers import ctx, gun, hull, marked, stats

from rules.dice import ScriptedDice
from rules.rulesets.ww2_jackson import tables as T
from rules.rulesets.ww2_jackson.damage import Ctx, general_underwater, penetrates, shell_hit
from rules.rulesets.ww2_jackson.gunnery import gun_row

# Hit location tables exactly as printed (lines 109-134): (low, high, location).
SEED_LOCATIONS = {
    "long": [
        (1, 4, "main"),
        (5, 7, "secondary"),
        (8, 9, "aa"),
        (10, 13, "above"),
        (14, 16, "underwater"),
        (17, 18, "engine"),
        (19, 19, "specialized"),
        (20, 20, "critical"),
    ],
    "medium": [
        (1, 4, "main"),
        (5, 8, "secondary"),
        (9, 10, "aa"),
        (11, 16, "above"),
        (17, 18, "underwater"),
        (19, 19, "specialized"),
        (20, 20, "critical"),
    ],
    "short": [
        (1, 4, "main"),
        (5, 8, "secondary"),
        (9, 10, "aa"),
        (11, 18, "above"),
        (19, 19, "specialized"),
        (20, 20, "critical"),
    ],
}


@pytest.mark.parametrize(
    ("band", "roll", "location"),
    [
        pytest.param(band, r, loc, id=f"000-hit-location-{band}-{r}-{loc}")
        for band, rows in SEED_LOCATIONS.items()
        for lo, hi, loc in rows
        for r in sorted({lo, hi})
    ],
)
def test_hit_location_band_edges(band: str, roll: int, location: str) -> None:
    """Lines 107-134: HIT LOCATION TABLES - Use for shell fire (W40: the "DAC")."""
    from rules.rulesets.ww2_jackson.damage import lookup

    assert lookup(T.HIT_LOCATION[band], roll) == location


# Penetration as printed (lines 272-280; W27 foot marks read as inches; W28 4" and smaller: NO).
SEED_PEN = {
    "16-18": {"A": 11, "B": 5, "C": "ALL", "D": "ALL", "E": "ALL"},
    "15": {"A": 12, "B": 6, "C": 3, "D": "ALL", "E": "ALL"},
    "13-14": {"A": 17, "B": 9, "C": 5, "D": "ALL", "E": "ALL"},
    "11-12": {"A": "NO", "B": 14, "C": 9, "D": "ALL", "E": "ALL"},
    "9-10": {"A": "NO", "B": "NO", "C": 17, "D": 11, "E": "ALL"},
    "7-8": {"A": "NO", "B": "NO", "C": "NO", "D": 11, "E": 6},
    "6": {"A": "NO", "B": "NO", "C": "NO", "D": "NO", "E": 9},
    "5": {"A": "NO", "B": "NO", "C": "NO", "D": "NO", "E": 14},
    "4": {"A": "NO", "B": "NO", "C": "NO", "D": "NO", "E": "NO"},
}


@pytest.mark.parametrize(
    ("row", "letter", "cell"),
    [
        pytest.param(row, ltr, cell, id=f"000-penetration-{row}-{ltr}")
        for row, cells in SEED_PEN.items()
        for ltr, cell in cells.items()
    ],
)
def test_penetration_cells(row: str, letter: str, cell: int | str) -> None:
    """Lines 272-287: "For each hit on an armed box, roll a D20 to see if the shell penetrates" (W29
    armoured). W31: +5 at short range, but NO stays impossible and ALL is automatic (no die is rolled)."""
    if cell == "NO":
        c = ctx([])
        assert penetrates(c, row, letter, "short", "x")[0] is False
        return
    if cell == "ALL":
        c = ctx([])
        assert penetrates(c, row, letter, "long", "x")[0] is True
        return
    assert isinstance(cell, int)
    assert penetrates(ctx([cell]), row, letter, "medium", "x")[0] is True
    if cell > 1:
        assert penetrates(ctx([cell - 1]), row, letter, "medium", "x")[0] is False
    if cell > 5:
        assert penetrates(ctx([cell - 5]), row, letter, "short", "x")[0] is True
    if cell > 6:
        assert penetrates(ctx([cell - 6]), row, letter, "short", "x")[0] is False


def test_scharnhorst_example_no_penetration() -> None:
    """Line 283: "Scharnhorst armed with 12" guns gets a hit on the main battery of ... Duke of York ... 12"
    and 11" guns cannot penetrate the British armor. That hit would not count." (W29: no collateral
    either)."""
    h = hull(stats("battleship", guns=[gun("main", 14, 4, armour="A")], above=7, above_armoured=7, belt="A"))
    c = ctx([1])  # location: main armament; no penetration die for NO
    shell_hit(c, h, gun_row(12), 12, "long", "scharnhorst", "red")
    assert h.sheet.guns_lost == [] and marked(h.sheet) == {} and h.sheet.half == 0
    assert c.events[-1].outcome == "no_penetration"


def test_rodney_example_penetrates() -> None:
    """Line 285: "Rodney armed with 16" guns gets a hit on the main battery of the German Battleship Bismark
    ... 11 or greater. The D20 roll is a 16, so that hit plus the appropriate collateral damage is marked"
    (W30)."""
    h = hull(
        stats(
            "battleship",
            guns=[gun("main", 15, 2, armour="A", fwd=True)] * 2,
            above=8,
            above_armoured=8,
            belt="A",
            uw="A",
        )
    )
    c = ctx([3, 16])
    shell_hit(c, h, gun_row(16), 16, "long", "rodney", "blue")
    assert h.sheet.guns_lost == [1]
    assert marked(h.sheet) == {"above": 3}  # 16" = 4 hits: 1 located + 3 collateral (keep-afloat preference)
    h2 = hull(stats("battleship", guns=[gun("main", 15, 2, armour="A", fwd=True)], above=8))
    shell_hit(ctx([3, 10]), h2, gun_row(16), 16, "long", "rodney", "blue")
    assert h2.sheet.guns_lost == [] and marked(h2.sheet) == {}


def test_twelve_inch_hit_on_main_with_two_collateral() -> None:
    """Line 105: "a 12" shell hit does "3 hits" of damage. If the DAC calls for the hit to be on the Main
    Armament, one Main Armament box will be checked off and 2 other boxes (target ship's choice) will be
    checked off also."."""
    h = hull(stats(guns=[gun("main", 8, 2, armour="D", name="A"), gun("main", 8, 2, armour="D", name="X")]))
    c = ctx([2])  # main; 12" against D: ALL
    shell_hit(c, h, gun_row(12), 12, "medium", "f", "blue")
    assert h.sheet.guns_lost == [1] and marked(h.sheet) == {"above": 2} and h.sheet.half == 0
    assert c.events[-1].data["collateral"] == [{"area": "above", "index": None}] * 2


@pytest.mark.parametrize(
    ("calibre", "kind", "halves"),
    [
        pytest.param(18, "standard", 10, id="000-damage-18in-5-hits"),
        pytest.param(16, "standard", 8, id="000-damage-16in-4-hits"),
        pytest.param(13, "standard", 8, id="000-damage-13in-4-hits"),
        pytest.param(12, "standard", 6, id="000-damage-12in-3-hits"),
        pytest.param(11, "standard", 6, id="000-damage-11in-3-hits"),
        pytest.param(12, "old", 5, id="000-damage-old-12in-2.5-hits"),
        pytest.param(9, "standard", 5, id="000-damage-9in-2.5-hits"),
        pytest.param(8, "standard", 4, id="000-damage-8in-2-hits"),
        pytest.param(7, "standard", 4, id="000-damage-7in-2-hits"),
        pytest.param(6, "old", 3, id="000-damage-6in-1.5-hits"),
        pytest.param(5, "standard", 2, id="W33-5in-1-hit"),
        pytest.param(4, "standard", 1, id="W33-4in-half-hit"),
        pytest.param(3, "standard", 1, id="W06-3in-as-4in"),
    ],
)
def test_damage_done(calibre: float, kind: str, halves: int) -> None:
    """Lines 237-245 and the DAMAGE DONE column (lines 91-103), in half boxes (W32, W33)."""
    assert gun_row(calibre, kind).damage_halves == halves


def test_half_box_credit_four_inch() -> None:
    """W32: "the first 4" hit on a ship marks nothing and carries 1/2; the second marks its located box."."""
    h = hull(stats())
    shell_hit(ctx([12]), h, gun_row(4), 4, "medium", "f", "blue")
    assert marked(h.sheet) == {} and h.sheet.half == 1
    shell_hit(ctx([12]), h, gun_row(4), 4, "medium", "f", "blue")
    assert marked(h.sheet) == {"above": 1} and h.sheet.half == 0


def test_half_box_credit_six_inch() -> None:
    """W32: a 6" shell (1-1/2 hits) marks its box and carries 1/2; the next marks its box and one
    collateral."""
    h = hull(stats())
    shell_hit(ctx([12]), h, gun_row(6), 6, "medium", "f", "blue")
    assert marked(h.sheet) == {"above": 1} and h.sheet.half == 1
    shell_hit(ctx([12]), h, gun_row(6), 6, "medium", "f", "blue")
    assert marked(h.sheet) == {"above": 3} and h.sheet.half == 0


def test_substitution_when_area_used_up() -> None:
    """Line 139: "If the target has had all boxes already marked off in the area called for ... any further
    hits may be marked off any above water or below water boxes" (NW-WW2-03, -06: the standing preference, no
    penetration)."""
    h = hull(stats(aa=1), sheet={"marked": {"aa": 1}})
    shell_hit(ctx([9]), h, gun_row(5), 5, "medium", "f", "blue")  # medium 9 = AA, used up
    assert marked(h.sheet) == {"aa": 1, "above": 1}


def test_preference_spare_main_vs_keep_afloat() -> None:
    """NW-WW2-06: the damage-allocation standing preference decides the collateral boxes."""
    st = stats(above=0, above_armoured=1, belt="E", aa=0)
    h = hull(st, sheet={"preference": "keep_afloat"})
    shell_hit(ctx([12, 20]), h, gun_row(16), 16, "medium", "f", "blue")  # above (belt E): ALL -> no die used
    assert h.sheet.guns_lost == [0, 1] and marked(h.sheet) == {"above_armoured": 1, "fire_control": 1}
    h = hull(st, sheet={"preference": "spare_main"})
    shell_hit(ctx([12]), h, gun_row(16), 16, "medium", "f", "blue")
    assert h.sheet.guns_lost == [] and marked(h.sheet) == {
        "above_armoured": 1,
        "fire_control": 1,
        "damage_control": 2,
    }


def test_underwater_hit_uses_underwater_protection() -> None:
    """Line 288: "Shellfire that hits below-water areas ... uses the underwater protection value of the
    ship"."""
    h = hull(stats(uw="C"))
    c = ctx([15])  # long 15: general underwater; 8" against C: NO
    shell_hit(c, h, gun_row(8), 8, "long", "f", "blue")
    assert marked(h.sheet) == {} and c.events[-1].outcome == "no_penetration"
    h = hull(stats(uw="D"))
    shell_hit(ctx([15, 11]), h, gun_row(8), 8, "long", "f", "blue")
    assert marked(h.sheet) == {"underwater": 1, "above": 1}


def test_heavy_cruiser_flooding_example() -> None:
    """Line 254: "A heavy cruiser with C underwater armor has had all general underwater hits marked off but
    the 4 engine rooms are still intact. A torpedo hit calls for 3 general underwater hits. A D20 is rolled
    for each hit. The D20 results are 3, 12 and 17. One engine room is marked off." (W34)."""
    h = hull(stats(uw="C", underwater=3, engine=4), sheet={"marked": {"underwater": 3}})
    c = ctx([3, 12, 17])
    boxes = general_underwater(c, h, 3, "torpedo")
    assert boxes == [("engine", None)] and h.sheet.marked["engine"] == 1
    assert [e.outcome for e in c.events] == ["none", "none", "hit"]


def test_w34_edge_sixteen_floods() -> None:
    """Line 252: "RESULTS: 1-15 No hit, 16+ One underwater hit"."""
    h = hull(stats(underwater=1, engine=2), sheet={"marked": {"underwater": 1}})
    general_underwater(ctx([15, 16]), h, 2, "x")
    assert h.sheet.marked["engine"] == 1


def test_engine_location_long_range() -> None:
    """Line 115: long range "17-18 Engine hit" (engine boxes carry the underwater letter, NW-WW2-04)."""
    h = hull(stats())
    shell_hit(ctx([17]), h, gun_row(5), 5, "long", "f", "blue")
    assert marked(h.sheet) == {"engine": 1}


def test_engine_location_used_up_substitutes_nw_ww2_07() -> None:
    """Line 139: "If the target has had all boxes already marked off in the area called for on the Hit
    Location Table, then any further hits may be marked off any above water or below water boxes." NW-WW2-07:
    the shell's long-range "17-18 Engine hit" with every engine box marked substitutes by the preference
    (not the torpedo tables' engine hit, which becomes a general underwater hit); no penetration roll
    (NW-WW2-03), so the C underwater letter stops nothing."""
    h = hull(stats(uw="C"), sheet={"marked": {"engine": 4}})
    c = ctx([17])  # location only: a substituted hit rolls no penetration
    shell_hit(c, h, gun_row(5), 5, "long", "f", "blue")
    assert marked(h.sheet) == {"engine": 4, "above": 1}
    assert "substituted, line 139" in c.events[-1].text


def test_ctx_is_scripted() -> None:
    """The helper context uses scripted dice (tests must be able to fail on a wrong die count)."""
    c = Ctx(turn=1, dice=ScriptedDice([5]))
    assert c.roll("x") == 5


def test_each_die_in_one_event_critical_flooding() -> None:
    """A8: every roll is logged with the rule it served, once. A 16-inch critical on a destroyer at 26 knots
    (location 20, lines 128-134; critical 17, lines 301-312: "lose 2 underwater boxes" at 20+ knots) whose
    second underwater box is a W34 roll (lines 252-254): the hit event carries the location die, the critical
    event its table die, the flooding event the W34 die, and the damage report none (docs/rules-json.md's
    example)."""
    h = hull(stats("destroyer", underwater=1, engine=2, above=3, aa=1), speed=26)
    c = ctx([20, 17, 9])
    shell_hit(c, h, gun_row(16), 16, "short", "washington", "usa")
    carried = {e.kind: [r.value for r in e.rolls] for e in c.events}
    assert carried == {"hit": [20], "flooding": [9], "critical": [17], "damage": []}
    assert sum(len(e.rolls) for e in c.events) == len(c.dice.rolls) == 3
