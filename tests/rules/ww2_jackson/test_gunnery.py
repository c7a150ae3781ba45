"""Seed 000 section 2, gunnery (lines 25-105), with rulings W03-W11 and NW-WW2-01, -02, -12, -14, -15."""

from __future__ import annotations

import pytest
from ww2_helpers import IOWA, gun, live, ship, state, stats, with_sheet

from rules.dice import ScriptedDice
from rules.model import ShipOrder
from rules.rulesets.ww2_jackson import RULESET
from rules.rulesets.ww2_jackson.gunnery import bfn_by_calibre, gun_row, halve, mfn, night_modifier, range_band
from rules.rulesets.ww2_jackson.record import Sheet, parse_class


@pytest.mark.parametrize(
    ("arc", "expected_bfn", "expected_mfn"),
    [
        pytest.param("forward", 6, 3, id="000-gunnery-bfn-iowa-forward"),
        pytest.param("broadside", 9, 5, id="000-gunnery-bfn-iowa-broadside"),
        pytest.param("aft", 3, 2, id="000-gunnery-bfn-iowa-aft"),
    ],
)
def test_iowa_bfn_and_mfn(arc: str, expected_bfn: int, expected_mfn: int) -> None:
    """Line 25: "6 guns can fire forward ... the main battery BFN would be 6. If the target was on the
    broadside, all 9 of the 16" guns could fire at the target so the BFN would be 9." Line 45: "BFN of 9 ...
    MFN ... of 5"."""
    cd = parse_class(IOWA)
    ((cal, kind, bfn),) = bfn_by_calibre(cd, Sheet(), "main", arc, "starboard")
    assert (cal, bfn) == (16, expected_bfn)
    assert mfn(bfn, gun_row(cal, kind).mfn) == expected_mfn


def test_guns_lost_with_their_boxes() -> None:
    """Line 25 with A4: the BFN counts the guns that bear, less those lost with their boxes (B turret lost:
    3)."""
    cd = parse_class(IOWA)
    ((_, _, bfn),) = bfn_by_calibre(cd, Sheet(guns_lost=[1]), "main", "forward", "port")
    assert bfn == 3


@pytest.mark.parametrize(
    ("calibre", "kind", "bfn", "expected"),
    [
        pytest.param(5, "standard", 6, 12, id="000-gunnery-mfn-destroyer-six-5in-line49"),
        pytest.param(8, "standard", 9, 9, id="000-gunnery-mfn-cruiser-nine-8in-line50"),
        pytest.param(15, "standard", 8, 4, id="000-gunnery-mfn-battleship-eight-15in-line51"),
        pytest.param(5, "standard", 4, 8, id="000-gunnery-mfn-destroyer-four-5in-line59"),
        pytest.param(9, "standard", 7, 6, id="W03-9in-uses-10in-row"),
        pytest.param(7, "standard", 7, 7, id="W03-7in-uses-8in-row"),
        pytest.param(16, "standard", 25, 13, id="W04-bfn-25-split-20-plus-5"),
        pytest.param(8, "standard", 41, 41, id="W04-bfn-41-linear-row"),
        pytest.param(18, "standard", 16, 7, id="W05-18in-bfn16-kept-as-printed"),
        pytest.param(3, "standard", 5, 5, id="W06-3in-uses-4in-row"),
        pytest.param(12, "old", 8, 5, id="000-gunnery-mfn-12in-old"),
        pytest.param(12, "standard", 8, 6, id="000-gunnery-mfn-12in-new"),
        pytest.param(6, "new", 20, 30, id="000-gunnery-mfn-6in-new-bfn20"),
        pytest.param(6, "old", 20, 20, id="000-gunnery-mfn-6in-old-bfn20"),
        pytest.param(14, "standard", 20, 12, id="000-gunnery-mfn-14in-bfn20"),
        pytest.param(11, "standard", 1, 1, id="000-gunnery-mfn-11in-bfn1"),
        pytest.param(5.25, "standard", 8, 16, id="NW-WW2-01-5.25in-uses-5in-row"),
        pytest.param(5.5, "old", 6, 6, id="NW-WW2-01-5.5in-uses-6in-old-row"),
        pytest.param(10, "standard", 0, 0, id="000-gunnery-mfn-bfn0"),
    ],
)
def test_mfn_chart(calibre: float, kind: str, bfn: int, expected: int) -> None:
    """Lines 27-51: "The MFN is determined by cross-indexing the BFN and the size of the gun on the MFN
    chart."."""
    assert mfn(bfn, gun_row(calibre, kind).mfn) == expected


# (row, short, medium, long) exactly as printed at lines 91-103 (W09: the 8" short range is 18").
SEED_RANGES = [
    ("18", 24, 48, 72),
    ("15-16", 24, 48, 72),
    ("13-14", 22, 44, 68),
    ("11-12", 21, 42, 65),
    ("12old", 18, 36, 54),
    ("9-10", 18, 38, 56),
    ("8", 18, 36, 54),
    ("7", 16, 34, 50),
    ("6new", 16, 32, 48),
    ("6old", 14, 26, 42),
    ("5", 12, 24, 36),
    ("4", 10, 20, 30),
]


@pytest.mark.parametrize(
    ("row", "short", "medium", "long_"),
    [pytest.param(*r, id=f"W08-range-band-edges-{r[0]}") for r in SEED_RANGES],
)
def test_range_band_edges(row: str, short: float, medium: float, long_: float) -> None:
    """Lines 89-103 with W07 (close = short) and W08: each figure is an inclusive upper limit; beyond long,
    no fire."""
    assert range_band(short, row) == "short"
    assert range_band(short + 0.01, row) == "medium"
    assert range_band(medium, row) == "medium"
    assert range_band(medium + 0.01, row) == "long"
    assert range_band(long_, row) == "long"
    assert range_band(long_ + 0.01, row) is None


def test_halving_rounds_up() -> None:
    """W14: halving rounds up, so 1 die stays 1."""
    assert [halve(n) for n in (1, 2, 5, 8)] == [1, 1, 3, 4]


def _duel(
    firer_speed: float = 15,
    target_speed: float = 15,
    dist: float = 30.0,
    tstats: dict | None = None,
    fstats: dict | None = None,
    **kw: object,
) -> tuple:
    f = ship(
        "f",
        "blue",
        fstats or stats(guns=[gun("main", 8, 4, fwd=True, aft=True)]),
        10,
        40,
        heading=90,
        speed=firer_speed,
    )
    f = with_sheet(f, last_targets={"main": "t"})
    t = ship("t", "red", tstats or stats(), 10, 40 - dist, heading=90, speed=target_speed)
    st = state(f, t, **kw)  # type: ignore[arg-type]
    return st, f, t


def _mods(st, f, t, battery="main") -> tuple[dict[str, float], object]:
    sols, why = RULESET.solutions(st, live(f), live(t), battery)
    assert sols, why
    return {m.label.split(" (")[0]: m.value for m in sols[0].modifiers}, sols[0]


@pytest.mark.parametrize(
    ("kw", "label", "value"),
    [
        pytest.param({"firer_speed": 25}, "firing ship at high speed", -1, id="000-gunnery-mod-firer-25kn"),
        pytest.param(
            {"firer_speed": 24}, "firing ship at high speed", None, id="000-gunnery-mod-firer-24kn-edge"
        ),
        pytest.param({"target_speed": 25}, "target ship at high speed", -1, id="W10c-target-25kn-or-more"),
        pytest.param(
            {"target_speed": 24}, "target ship at high speed", None, id="000-gunnery-mod-target-24kn-edge"
        ),
        pytest.param({"target_speed": 6}, "target ship at low speed", 1, id="000-gunnery-mod-target-6kn"),
        pytest.param(
            {"target_speed": 7}, "target ship at low speed", None, id="000-gunnery-mod-target-7kn-edge"
        ),
    ],
)
def test_speed_modifiers(kw: dict, label: str, value: int | None) -> None:
    """Lines 64-71: "-1 firing ship at high speed (25 knots or more) ... +1 Target ship at low speed (6 knots
    or less)"."""
    st, f, t = _duel(**kw)
    mods, _ = _mods(st, f, t)
    assert mods.get(label) == value


def test_turn_over_90_modifiers() -> None:
    """Lines 66-67: "-1 Firing ship changed course more than 90 degrees this turn" (and the target); 90 is
    not more."""
    st, f, t = _duel()
    f2 = with_sheet(f, turned=91.0)
    t2 = with_sheet(t, turned=90.0)
    mods, _ = _mods(st, f2, t2)
    assert mods.get("firing ship changed course more than 90 degrees this turn") == -1
    assert "target ship changed course more than 90 degrees this turn" not in mods
    mods, _ = _mods(st, f, with_sheet(t, turned=120.0))
    assert mods.get("target ship changed course more than 90 degrees this turn") == -1


def test_no_fire_control_and_first_fired_on() -> None:
    """Lines 69-70: "-2 firing with no fire control", "-3 firing at target just acquired this turn" (A6: a
    target the battery did not fire at in the previous turn)."""
    st, f, t = _duel()
    mods, _ = _mods(st, with_sheet(f, marked={"fire_control": 1}, last_targets={}), t)
    assert mods["firing with no fire control"] == -2
    assert mods["target just acquired this turn"] == -3
    mods, _ = _mods(st, f, t)
    assert "target just acquired this turn" not in mods and "firing with no fire control" not in mods


def test_large_ship_against_destroyer() -> None:
    """Line 66: "-1 Large ship (cruiser or bigger) firing at small (destroyer size) with 7" or greater main
    armament"; NW-WW2-12: the 6-inch dice of the same ship are not penalised."""
    dd = stats("destroyer", guns=[gun("main", 5, 1, fwd=True)])
    cr = stats(guns=[gun("main", 8, 4, fwd=True, aft=True), gun("secondary", 6, 2, kind="old")])
    st, f, t = _duel(fstats=cr, tstats=dd, dist=20)
    f = with_sheet(f, last_targets={"main": "t", "secondary": "t"})
    mods, _ = _mods(st, f, t)
    assert mods["large ship firing at destroyer-size target with 7-inch or greater guns"] == -1
    mods, _ = _mods(st, f, t, battery="secondary")
    assert "large ship firing at destroyer-size target with 7-inch or greater guns" not in mods


def test_spotting_aircraft_long_and_medium_only() -> None:
    """Line 72: "+1 Firing at long or medium range aided by spotting aircraft" (W01: a boolean input per
    side)."""
    st, f, t = _duel(dist=30, options={"spotting_aircraft": "blue"})
    mods, sol = _mods(st, f, t)
    assert sol.band == "medium" and mods["long or medium range aided by spotting aircraft"] == 1
    st, f, t = _duel(dist=10, options={"spotting_aircraft": "blue"})
    mods, sol = _mods(st, f, t)
    assert sol.band == "short" and "long or medium range aided by spotting aircraft" not in mods


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        pytest.param({"dim_moon", "bright_moon"}, ("bright_moon", -5), id="W10b-best-bright-over-dim"),
        pytest.param(
            {"gun_flashes", "star_shell", "radar_poor"}, ("star_shell", -2), id="W10b-star-shell-best"
        ),
        pytest.param(
            {"searchlight", "radar_very_good"}, ("searchlight", -1), id="W10b-searchlight-ties-radar"
        ),
        pytest.param({"radar_adequate", "target_on_fire"}, ("radar_adequate", -2), id="W10b-adequate-radar"),
        pytest.param({"dim_moon"}, ("dim_moon", -7), id="000-night-dim-moon-only"),
        pytest.param(set(), None, id="000-night-no-modifier-no-fire"),
    ],
)
def test_night_best_modifier(keys: set[str], expected: tuple[str, int] | None) -> None:
    """Lines 74-83: "NOT cumulative, use only the one that applies best" (W10 b: the smallest penalty)."""
    assert night_modifier(keys) == expected


def test_no_fire_at_night_without_illumination() -> None:
    """Lines 85-86: "NO FIRE IS ALLOWED IF: Firing at night not using one of the above modifiers"."""
    st, f, t = _duel(night=True, dist=15)
    sols, why = RULESET.solutions(st, live(f), live(t), "main")
    assert sols == [] and why.startswith("night")
    # Star shell from the firer's side lights the target (NW-WW2-15): -2.
    sols, _ = RULESET.solutions(st, live(f), live(t), "main", lit={"star_shell:blue": {"t"}})
    assert sols[0].modifiers[-1].value == -2
    # Dim moon within the 20-inch night sighting distance: -7.
    st, f, t = _duel(night=True, dist=15, moon="dim")
    sols, _ = RULESET.solutions(st, live(f), live(t), "main")
    assert sols[0].modifiers[-1].value == -7
    # Radar on the class: poor -3 beats the moon.
    st, f, t = _duel(night=True, dist=15, moon="dim", fstats=stats(radar="poor", guns=[gun("main", 8, 4)]))
    sols, _ = RULESET.solutions(st, live(f), live(t), "main")
    assert sols[0].modifiers[-1].value == -3


def test_not_cleared_for_action() -> None:
    """Line 87 and W11: no fire when the ship is not "cleared for action" (a ship state, true by default)."""
    st, f, t = _duel()
    sols, why = RULESET.solutions(st, live(with_sheet(f, cleared=False)), live(t), "main")
    assert sols == [] and "cleared for action" in why
    errs = RULESET.check_order(
        st,
        f,
        ShipOrder(
            ship_id="f", data={"course": 90, "speed": 15, "target_main": "t", "cleared_for_action": False}
        ),
    )
    assert "target_main" in errs


@pytest.mark.parametrize(
    "condition",
    [
        pytest.param("ammo_short", id="000-crit-ammo-short-half-dice"),
        pytest.param("electrical", id="000-crit-electrical-half-dice"),
    ],
)
def test_half_fire_dice(condition: str) -> None:
    """Line 306: "Only roll 1/2 normal fire dice"; line 316: "roll only 1/2 gunnery dice" (W14 up; NW-WW2-14
    no compounding). Four 8-inch: MFN 4 -> 2; nine 8-inch: 9 -> 5."""
    st, f, t = _duel(fstats=stats(guns=[gun("main", 8, 9)]))
    f = with_sheet(f, conditions={condition: {"since": 0, "until": None}})
    _, sol = _mods(st, f, t)
    assert sol.mfn == 5 and sol.halved
    f = with_sheet(
        f, conditions={"ammo_short": {"since": 0, "until": None}, "electrical": {"since": 0, "until": 3}}
    )
    _, sol = _mods(st, f, t)
    assert sol.mfn == 5


def _fire_once(rolls: list[int], dist: float, extra: list[int]) -> list:
    """Fire a destroyer's four 5-inch guns (BFN 4, MFN 8) at a destroyer, no modifiers (both 15 knots, target
    already engaged, no turn). Location rolls of 12 put each hit in general above water (no armour, no
    further rolls)."""
    dd = stats("destroyer", guns=[gun("main", 5, 4, fwd=True, aft=True)], above=8, underwater=4, engine=2)
    f = with_sheet(ship("f", "blue", dd, 50, 50, heading=90, speed=15), last_targets={"main": "t"})
    t = ship("t", "red", dd, 50, 50 - dist, heading=90, speed=15)
    st = state(f, t)
    orders = {
        "f": ShipOrder(ship_id="f", data={"course": 90, "speed": 15, "target_main": "t"}),
        "t": ShipOrder(ship_id="t", data={"course": 90, "speed": 15}),
    }
    res = RULESET.resolve_phase(st, orders, ScriptedDice(rolls + extra))
    return [e for e in res.events if e.kind == "fire"]


def test_destroyer_rolled_example_medium() -> None:
    """Lines 59-61: "A destroyer with four 5" guns (BFN = 4) has an MFN of 8. It rolls ... at medium range 1
    = a miss, 4 = a miss, 4 = a miss, 7 = a miss, 10 = a miss, 11 = a hit, 12 = a hit, 17 = a hit"."""
    (ev,) = _fire_once([1, 4, 4, 7, 10, 11, 12, 17], 20.0, [12, 12, 12])
    assert ev.data["band"] == "medium" and ev.data["mfn"] == 8 and ev.needed == 11
    assert ev.data["hits"] == 3 and [r.value for r in ev.rolls] == [1, 4, 4, 7, 10, 11, 12, 17]


def test_destroyer_rolled_example_close() -> None:
    """Line 61: "Note that at close range the 7 and 10 would have hit also." (5 hits on 6+)."""
    (ev,) = _fire_once([1, 4, 4, 7, 10, 11, 12, 17], 12.0, [12] * 5)
    assert ev.data["band"] == "short" and ev.needed == 6 and ev.data["hits"] == 5


def test_no_automatic_hits_w10() -> None:
    """W10 (a): the modified roll is compared with the number; a natural 20 at long range with -5 misses (15
    < 16)."""
    dd = stats("destroyer", guns=[gun("main", 5, 1, fwd=True, aft=True)], above=8, underwater=4, engine=2)
    f = ship("f", "blue", dd, 50, 50, heading=90, speed=25)  # -1 fast, -3 first fired on, -1 target fast
    t = ship("t", "red", dd, 50, 20, heading=90, speed=25)
    st = state(f, t)
    orders = {"f": ShipOrder(ship_id="f", data={"course": 90, "speed": 25, "target_main": "t"})}
    res = RULESET.resolve_phase(st, orders, ScriptedDice([20, 20]))
    (ev,) = [e for e in res.events if e.kind == "fire"]
    assert ev.data["band"] == "long" and ev.data["modifier"] == -5 and ev.data["hits"] == 0


def test_wing_mount_bears_on_its_side_only() -> None:
    """NW-WW2-02 with A5: a port secondary mount bears only on targets to port."""
    cd = parse_class(
        stats(
            guns=[
                gun("secondary", 5, 2, side="port"),
                gun("secondary", 5, 2, side="starboard"),
                gun("main", 8, 2),
            ]
        )
    )
    assert bfn_by_calibre(cd, Sheet(), "secondary", "broadside", "port") == [(5, "new", 2)]
    assert bfn_by_calibre(cd, Sheet(), "secondary", "forward", "port") == []


@pytest.mark.parametrize(
    ("target_type", "dist", "band"),
    [
        pytest.param("destroyer", 8.0, None, id="000-gunnery-line105-3in-not-considered-vs-destroyer"),
        pytest.param("small_craft", 10.0, "short", id="000-gunnery-line105-3in-vs-small-craft-4in-short"),
        pytest.param("small_craft", 20.0, "medium", id="000-gunnery-line105-3in-vs-small-craft-4in-medium"),
        pytest.param("small_craft", 30.0, "long", id="000-gunnery-line105-3in-vs-small-craft-4in-long"),
        pytest.param("small_craft", 30.5, None, id="000-gunnery-line105-3in-vs-small-craft-beyond-4in-long"),
    ],
)
def test_three_inch_guns_only_against_small_craft(target_type: str, dist: float, band: str | None) -> None:
    """Line 105: "3" and smaller guns are not considered unless firing at small craft. In that case use 4" gun
    ranges." (4" ranges, lines 103: 10" / 20" / 30"; W06: the 4" MFN row)."""
    fstats = stats("destroyer", guns=[gun("main", 3, 2, fwd=True, aft=True)])
    st, f, t = _duel(fstats=fstats, tstats=stats(target_type), dist=dist)
    sols, why = RULESET.solutions(st, live(f), live(t), "main")
    if band is None:
        assert sols == [] and why
        return
    (sol,) = sols
    assert sol.band == band and sol.mfn == 2 and sol.row.range == "4"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        pytest.param("searchlight", -1, id="000-night-line75-searchlight-minus-1"),
        pytest.param("radar_very_good", -1, id="000-night-line76-very-good-radar-minus-1"),
        pytest.param("radar_adequate", -2, id="000-night-line77-adequate-radar-minus-2"),
        pytest.param("radar_poor", -3, id="000-night-line78-poor-radar-minus-3"),
        pytest.param("target_on_fire", -2, id="000-night-line79-target-on-fire-minus-2"),
        pytest.param("star_shell", -2, id="000-night-line80-star-shell-minus-2"),
        pytest.param("gun_flashes", -5, id="000-night-line81-gun-flashes-minus-5"),
        pytest.param("bright_moon", -5, id="000-night-line82-bright-moon-minus-5"),
        pytest.param("dim_moon", -7, id="000-night-line83-dim-moon-minus-7"),
    ],
)
def test_night_modifier_alone(key: str, value: int) -> None:
    """Lines 75-83, each alone: "-1 Firing at night on target illuminated by searchlight beam. / -1 ... very
    good fire control radar / -2 ... adequate fire control radar / -3 ... poor fire control radar / -2 ...
    target that is on fire, no other illumination / -2 ... star shell / -5 ... only target's gun flashes as
    aiming point / -5 ... only Bright moonlight / -7 ... only Dim moonlight"."""
    assert night_modifier({key}) == (key, value)


@pytest.mark.parametrize(
    ("firer_type", "target_type", "penalised"),
    [
        pytest.param("merchant", "destroyer", True, id="NW-WW2-20-merchant-is-large-vs-destroyer"),
        pytest.param("cruiser", "small_craft", True, id="NW-WW2-20-small-craft-is-destroyer-size"),
        pytest.param("destroyer", "destroyer", False, id="000-gunnery-line66-destroyer-is-not-large"),
        pytest.param("cruiser", "merchant", False, id="NW-WW2-20-merchant-is-not-destroyer-size"),
    ],
)
def test_large_ship_against_small_types(firer_type: str, target_type: str, penalised: bool) -> None:
    """Line 66: "-1 Large ship (cruiser or bigger) firing at small (destroyer size) with 7" or greater main
    armament" (NW-WW2-12, NW-WW2-20: a merchant ship is large, small craft are destroyer size)."""
    fstats = stats(firer_type, guns=[gun("main", 8, 4, fwd=True, aft=True)])
    st, f, t = _duel(fstats=fstats, tstats=stats(target_type), dist=20)
    mods, _ = _mods(st, f, t)
    label = "large ship firing at destroyer-size target with 7-inch or greater guns"
    assert (mods.get(label) == -1) is penalised
