"""What the map and the order panel ask of a rule set: ``RuleSet.arcs``, ``order_hints``, ``standing_orders``.

Every rule set is called directly (no Django). Arcs are exact per seed and ruling: A5 (30 degrees either side
of bow and stern) for ``ww2_jackson`` and ``ultra_simple``; M04-M06 for ``memoir_sea`` (abeam B hexes, ahead
and astern 2 * ceil(B / 2)); A04, A05 and NW-ACW-01 for ``acw_river`` (10 hexes, 60-degree end arcs); S12 for
``sail_1700`` (22 degrees either side of the beam, 300 / 150 mm). On hex maps the hexes the map gives each
arc (the first arc holding the bearing, as battles/mapsvg.py shades them) are checked against the rule set's
own arc of fire and dice, so the map cannot show a hex in an arc the guns do not reach.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import SeededDice, get_ruleset
from rules.arcs import ArcSpec, a5_arcs, default_arcs
from rules.base import ArcSpec as BaseArcSpec
from rules.base import FieldHint as BaseFieldHint
from rules.geometry import arc_of, hex_bearing, hex_distance, hexes_within, norm_deg, side_of
from rules.hints import FieldHint
from rules.model import JSON, BattleState, Conditions, Hex, MapSpec, Point, ShipState, SideInfo
from rules.rulesets.acw_river import tables as ACW_T
from rules.rulesets.acw_river.movement import arc_of_target
from rules.rulesets.memoir_sea.ruleset import arc_for, gun_dice, legal_courses, max_gun_range
from rules.rulesets.sail_1700.ships import plan_move
from rules.rulesets.ww2_jackson import tables as WW2_T
from rules.rulesets.ww2_jackson.arcs import calibre_ranges
from rules.rulesets.ww2_jackson.gunnery import gun_row
from rules.scenario import bundled_scenarios, scenario_state
from tests.rules.fake_ruleset import Fake

SIDES = (SideInfo(key="a", name="A"), SideInfo(key="b", name="B"))


def state_with(ruleset: str, geometry: str, *ships: ShipState, **kw: object) -> BattleState:
    size = (96, 72) if geometry == "table_in" else (2400, 1800) if geometry == "table_mm" else (24, 18)
    return BattleState(
        ruleset=ruleset,
        map=MapSpec(geometry=geometry, width=size[0], height=size[1]),  # type: ignore[arg-type]
        sides=SIDES,
        ships=ships,
        **kw,  # type: ignore[arg-type]
    )


def spans(arcs: list[ArcSpec]) -> list[tuple[str, float, float, float, tuple[float, ...]]]:
    return [(a.label, a.start, a.end, a.range, a.bands) for a in arcs]


def map_arc(arcs: list[ArcSpec], here: Hex, heading: float, h: Hex) -> ArcSpec | None:
    """The arc the map gives hex ``h`` (battles/mapsvg.py ``_arcs``): the first arc holding its bearing,
    None when ``h`` is beyond that arc's range (a later arc holding the same boundary bearing does not
    count)."""
    rel = norm_deg(hex_bearing(here, h) - heading)
    d = hex_distance(here, h)
    for a in arcs:
        if a.start - 1e-6 <= rel <= a.end + 1e-6 or a.start - 1e-6 <= rel + 360 <= a.end + 1e-6:
            return a if d <= a.range + 1e-9 else None
    return None


def test_shapes_are_shared_by_rules_base() -> None:
    assert BaseArcSpec is ArcSpec and BaseFieldHint is FieldHint


# --- A5 defaults (rules/arcs.py, rules/base.py) ----------------------------------------------------------


def test_a5_arcs_end_arcs_first_bands_below_the_range() -> None:
    """A5: forward within 30 degrees of the bow (330 to 390), aft within 30 of the stern, the broadsides
    between."""
    arcs = a5_arcs(
        30.0,
        30.0,
        {"forward": 10.0, "aft": 0.0, "broadside": 8.0},
        {"forward": (0.0, 4.0, 10.0, 12.0), "broadside": (2.0,)},
    )
    assert spans(arcs) == [
        ("forward", 330.0, 390.0, 10.0, (4.0,)),
        ("starboard", 30.0, 150.0, 8.0, (2.0,)),
        ("port", 210.0, 330.0, 8.0, (2.0,)),
    ]
    beams = a5_arcs(
        60.0, 60.0, {"forward": 1.0, "aft": 1.0, "starboard": 2.0}, labels={"port": "p"}, beam_first=True
    )
    assert spans(beams) == [
        ("starboard", 60.0, 120.0, 2.0, ()),
        ("forward", 300.0, 420.0, 1.0, ()),
        ("aft", 120.0, 240.0, 1.0, ()),
    ]


def test_default_arcs_of_a_rule_set_without_its_own() -> None:
    """RuleSet.arcs default: A5 at the tables' ``max_range`` / ``max_range_hexes``, else 24 units or 6
    hexes."""
    ship = ShipState(id="s", name="S", side="a", position=Point(x=1, y=1))
    fake = Fake()
    table = state_with("fake", "table_in", ship)
    assert spans(fake.arcs(table, ship)) == [
        ("forward", 330.0, 390.0, 24.0, ()),
        ("aft", 150.0, 210.0, 24.0, ()),
        ("starboard", 30.0, 150.0, 24.0, ()),
        ("port", 210.0, 330.0, 24.0, ()),
    ]
    hexes = state_with("fake", "hex6", replace(ship, position=Hex(q=0, r=0)))
    assert {a.range for a in default_arcs({}, hexes, ship)} == {6.0}
    assert {a.range for a in default_arcs({"max_range": 40, "max_range_hexes": 9}, hexes, ship)} == {9.0}
    assert {a.range for a in default_arcs({"max_range": 40}, table, ship)} == {40.0}
    assert fake.order_hints(table, ship, {}) == {}
    assert fake.standing_orders(ship) == {}


# --- ww2_jackson: seed 000 range table, W03, A5, NW-WW2-02 -----------------------------------------------

IOWA_GUNS: list[JSON] = [
    {
        "name": "A turret",
        "calibre": 16,
        "kind": "standard",
        "guns": 3,
        "forward": True,
        "aft": False,
        "broadside": True,
        "side": "centre",
    },
    {
        "name": "B turret",
        "calibre": 16,
        "kind": "standard",
        "guns": 3,
        "forward": True,
        "aft": False,
        "broadside": True,
        "side": "centre",
    },
    {
        "name": "C turret",
        "calibre": 16,
        "kind": "standard",
        "guns": 3,
        "forward": False,
        "aft": True,
        "broadside": True,
        "side": "centre",
    },
    {
        "name": "port 5in",
        "calibre": 5,
        "kind": "standard",
        "guns": 10,
        "forward": False,
        "aft": False,
        "broadside": True,
        "side": "port",
    },
    {
        "name": "starboard 5in",
        "calibre": 5,
        "kind": "standard",
        "guns": 10,
        "forward": False,
        "aft": False,
        "broadside": True,
        "side": "starboard",
    },
]


def iowa(**sheet: JSON) -> ShipState:
    return ShipState(
        id="iowa",
        name="Iowa",
        side="a",
        position=Point(x=48, y=36),
        heading=90.0,
        stats={"guns": IOWA_GUNS},
        sheet=dict(sheet),
    )


def test_ww2_iowa_arcs_16in_72_inches_a5() -> None:
    """A5: Iowa's 6 guns forward, 3 aft, 9 broadside; seed 000 range table, 15-16": 24 / 48 / 72 inches.
    Each arc shows the longest-ranged gun bearing in it; short and medium are its bands."""
    rs = get_ruleset("ww2_jackson")
    ship = iowa()
    assert spans(rs.arcs(state_with("ww2_jackson", "table_in", ship), ship)) == [
        ("forward 16in", 330.0, 390.0, 72.0, (24.0, 48.0)),
        ("aft 16in", 150.0, 210.0, 72.0, (24.0, 48.0)),
        ("starboard 16in", 30.0, 150.0, 72.0, (24.0, 48.0)),
        ("port 16in", 210.0, 330.0, 72.0, (24.0, 48.0)),
    ]


def test_ww2_lost_turrets_and_wing_mounts() -> None:
    """Guns lost (the sheet's ``guns_lost`` row indices) no longer bear: A and B lost leave no forward arc;
    all three turrets lost leave the 5in wing mounts, each on its own beam only (NW-WW2-02), 12/24/36 in."""
    rs = get_ruleset("ww2_jackson")
    ship = iowa(guns_lost=[0, 1])
    assert [a.label for a in rs.arcs(state_with("ww2_jackson", "table_in", ship), ship)] == [
        "aft 16in",
        "starboard 16in",
        "port 16in",
    ]
    ship = iowa(guns_lost=[0, 1, 2])
    assert spans(rs.arcs(state_with("ww2_jackson", "table_in", ship), ship)) == [
        ("starboard 5in", 30.0, 150.0, 36.0, (12.0, 24.0)),
        ("port 5in", 210.0, 330.0, 36.0, (12.0, 24.0)),
    ]
    wing = replace(ship, stats={"guns": [IOWA_GUNS[3]]}, sheet={})
    assert spans(rs.arcs(state_with("ww2_jackson", "table_in", wing), wing)) == [
        ("port 5in", 210.0, 330.0, 36.0, (12.0, 24.0))
    ]
    unarmed = replace(wing, stats={})
    assert rs.arcs(state_with("ww2_jackson", "table_in", unarmed), unarmed) == []


@pytest.mark.parametrize(
    ("calibre", "kind", "expected"),
    [
        pytest.param(18.1, "standard", (24.0, 48.0, 72.0), id="000-range-18"),
        pytest.param(17, "standard", (24.0, 48.0, 72.0), id="000-range-17-next-larger-row"),
        pytest.param(16, "standard", (24.0, 48.0, 72.0), id="000-range-15-16"),
        pytest.param(14, "standard", (22.0, 44.0, 68.0), id="000-range-13-14"),
        pytest.param(12, "old", (18.0, 36.0, 54.0), id="000-range-12old"),
        pytest.param(12, "standard", (21.0, 42.0, 65.0), id="000-range-12-is-11-12"),
        pytest.param(9, "standard", (18.0, 38.0, 56.0), id="W03-range-9-is-9-10"),
        pytest.param(7, "standard", (16.0, 34.0, 50.0), id="W03-range-7"),
        pytest.param(5.9, "new", (16.0, 32.0, 48.0), id="000-range-6new"),
        pytest.param(6, "old", (14.0, 26.0, 42.0), id="000-range-6old"),
        pytest.param(5.25, "standard", (12.0, 24.0, 36.0), id="000-range-5"),
        pytest.param(3, "standard", (10.0, 20.0, 30.0), id="W06-range-3-uses-4"),
    ],
)
def test_ww2_calibre_ranges(calibre: float, kind: str, expected: tuple[float, ...]) -> None:
    table = get_ruleset("ww2_jackson").tables()["RANGE_TABLE"]
    assert isinstance(table, dict)
    assert calibre_ranges(table, calibre, kind) == expected
    # the map's row is the gunnery's row (what range_band() adjudicates with)
    assert expected == tuple(float(x) for x in WW2_T.RANGE_TABLE[gun_row(calibre, kind).range])


def test_ww2_hints_and_standing_orders() -> None:
    """W38: the sheet's ``max_speed`` bounds the speed; A6: lights by night only; torpedo mounts by index."""
    rs = get_ruleset("ww2_jackson")
    ship = replace(
        iowa(max_speed=26.0, preference="keep_firing", cleared=False),
        speed=20.0,
        stats={"guns": IOWA_GUNS, "torpedoes": [{"name": "quad"}, {}]},
    )
    day = state_with("ww2_jackson", "table_in", ship)
    hints = rs.order_hints(day, ship, {})
    assert hints == {
        "course": FieldHint(note="Degrees clockwise from north; now 90."),
        "speed": FieldHint(min=0, max=26.0, note="Iowa can make 26 knots now; now at 20."),
        "torpedo_mount": FieldHint(
            choices=(("-1", "every loaded mount that bears"), ("0", "0: quad"), ("1", "mount 1"))
        ),
        "searchlight": FieldHint(note="Night actions only (A6)."),
        "star_shell": FieldHint(note="Night actions only (A6)."),
    }
    night = replace(day, conditions=Conditions(night=True))
    assert set(rs.order_hints(night, ship, {})) == {"course", "speed", "torpedo_mount"}
    assert rs.standing_orders(ship) == {"damage_preference": "keep_firing", "cleared_for_action": False}
    assert rs.standing_orders(iowa(preference="", cleared="yes")) == {}


# --- ultra_simple: seed 003 3.0, U03, U07, A5 -------------------------------------------------------------


def us_ship(guns: list[JSON] | None = None, heading: float = 0.0) -> ShipState:
    stats: dict[str, JSON] = {"guns": guns} if guns is not None else {}
    return ShipState(id="s", name="S", side="a", position=Hex(q=10, r=5), heading=heading, stats=stats)


def test_ultra_simple_arcs_6_hexes_bands_2_4_and_only_where_guns_bear() -> None:
    """3.0: "1-2 hexes ... 3-4 hexes ... 5-6 hexes"; U03: nothing beyond 6; Nelson's 0 guns aft: an aft arc
    of range 0, which owns its boundary and fires nothing (NW-US-ARC-01)."""
    rs = get_ruleset("ultra_simple")
    nelson = us_ship([{"calibre": 16, "forward": 6, "aft": 0, "broadside": 9}])
    state = state_with("ultra_simple", "hex12", nelson)
    assert spans(rs.arcs(state, nelson)) == [
        ("forward", 330.0, 390.0, 6.0, (2.0, 4.0)),
        ("aft", 150.0, 210.0, 0.0, ()),
        ("starboard", 30.0, 150.0, 6.0, (2.0, 4.0)),
        ("port", 210.0, 330.0, 6.0, (2.0, 4.0)),
    ]
    wide = replace(state, options={"arc_forward": 45.0, "arc_aft": 40.0})
    assert [(a.label, a.start, a.end) for a in rs.arcs(wide, us_ship())] == [
        ("forward", 315.0, 405.0),
        ("aft", 140.0, 220.0),
        ("starboard", 45.0, 140.0),
        ("port", 220.0, 315.0),
    ]


@pytest.mark.parametrize("heading", [0.0, 30.0, 120.0, 210.0])
def test_ultra_simple_map_hexes_match_the_rules_arcs(heading: float) -> None:
    """Every hex within 6 is in the arc ``rules.geometry.arc_of`` gives it (A5, centre to centre; a bearing on
    the boundary is the end arc), on the right side, in band 0 / 1 / 2 for 1-2 / 3-4 / 5-6 hexes."""
    rs = get_ruleset("ultra_simple")
    ship = us_ship(heading=heading)
    arcs = rs.arcs(state_with("ultra_simple", "hex12", ship), ship)
    here = Hex(q=10, r=5)
    for h in hexes_within(here, 7):
        if h == here:
            continue
        got = map_arc(arcs, here, heading, h)
        d = hex_distance(here, h)
        if d > 6:
            assert got is None
            continue
        assert got is not None
        b = hex_bearing(here, h)
        want = arc_of(heading, b)
        assert got.label == (side_of(heading, b) if want == "broadside" else want), h
        assert sum(1 for e in got.bands if e < d) == (d - 1) // 2


@pytest.mark.parametrize("heading", [0.0, 30.0, 90.0, 210.0])
def test_ultra_simple_map_shades_only_hexes_where_a_gun_bears_nw_us_arc_01(heading: float) -> None:
    """NW-US-ARC-01: with no aft guns (Nelson), a hex exactly on the aft boundary is in the aft arc, where no
    gun fires; the map leaves it unshaded, as it does every hex where ``guns_bearing`` finds no gun."""
    rs = get_ruleset("ultra_simple")
    nelson = us_ship([{"calibre": 16, "forward": 6, "aft": 0, "broadside": 9}], heading=heading)
    state = state_with("ultra_simple", "hex12", nelson)
    arcs = rs.arcs(state, nelson)
    here = Hex(q=10, r=5)
    boundary = 0
    for h in hexes_within(here, 6):
        if h == here:
            continue
        arc, groups = rs.guns_bearing(state, nelson, here, heading, h)  # type: ignore[attr-defined]
        shaded = map_arc(arcs, here, heading, h)
        assert (shaded is not None) == bool(groups), (h, arc)
        if abs(abs(norm_deg(hex_bearing(here, h) - heading + 180.0) - 180.0) - 150.0) < 1e-6:
            boundary += 1
            assert arc == "aft" and shaded is None
    assert boundary > 0  # the case this test is about occurs at every heading tried


def test_ultra_simple_hints_fixed_choices() -> None:
    """2.0: 1-2 hexes, one turn of 30 or 60 degrees, before moving or after a hex."""
    rs = get_ruleset("ultra_simple")
    ship = us_ship()
    state = state_with("ultra_simple", "hex12", ship)
    hints = rs.order_hints(state, ship, {"hexes": 1})
    assert hints["hexes"].choices == (("1", "1 hex"), ("2", "2 hexes"))
    assert hints["turn"].choices == (
        ("-60", "60 degrees to port"),
        ("-30", "30 degrees to port"),
        ("0", "no turn"),
        ("30", "30 degrees to starboard"),
        ("60", "60 degrees to starboard"),
    )
    assert hints["turn_after"].choices == (("0", "before moving"), ("1", "after hex 1"))
    assert rs.order_hints(state, ship, {})["turn_after"].choices == (
        ("0", "before moving"),
        ("1", "after hex 1"),
        ("2", "after hex 2"),
    )
    assert rs.standing_orders(ship) == {}


# --- memoir_sea: seed 004 "Firing Guns", M04-M06, M08, M10 ------------------------------------------------


def memoir_ship(beam: int, **sheet: JSON) -> ShipState:
    return ShipState(
        id="m",
        name="Texas",
        side="a",
        position=Hex(q=10, r=5),
        heading=60.0,
        stats={"gun_dice": beam, "speed": 2},
        sheet=dict(sheet),
    )


@pytest.mark.parametrize("beam", range(1, 9))
def test_memoir_arcs_abeam_b_ahead_astern_2_ceil_b_half(beam: int) -> None:
    """M05: abeam B hexes, ahead and astern 2 * ceil(B / 2) hexes, a band per hex; M04: ahead / astern
    within 60 degrees of the line ahead / astern, the beams listed first."""
    rs = get_ruleset("memoir_sea")
    ship = memoir_ship(beam)
    end = 2 * -(-beam // 2)
    beam_bands = tuple(float(b) for b in range(1, beam))
    end_bands = tuple(float(b) for b in range(1, end))
    assert spans(rs.arcs(state_with("memoir_sea", "hex6", ship), ship)) == [
        ("starboard abeam", 60.0, 120.0, float(beam), beam_bands),
        ("port abeam", 240.0, 300.0, float(beam), beam_bands),
        ("ahead", 300.0, 420.0, float(end), end_bands),
        ("astern", 120.0, 240.0, float(end), end_bands),
    ]
    assert end == max_gun_range(beam, "ahead") and beam == max_gun_range(beam, "abeam")


def test_memoir_map_hexes_match_the_rules_arcs_and_dice() -> None:
    """Every hex the map shades for a 5-dice ship is in the arc ``arc_for`` gives it (M04: a hex the
    60-degree line cuts is abeam) and at least one die is thrown there; every hex it leaves out gets none."""
    rs = get_ruleset("memoir_sea")
    here = Hex(q=10, r=5)
    ship = memoir_ship(5)
    arcs = rs.arcs(state_with("memoir_sea", "hex6", ship), ship)
    for h in hexes_within(here, 8):
        if h == here:
            continue
        arc = arc_for(here, 60.0, h)
        dice = gun_dice(5, hex_distance(here, h), arc)
        got = map_arc(arcs, here, 60.0, h)
        if dice == 0:
            assert got is None, h
        else:
            assert got is not None and got.label.split(" ")[-1] == arc, h


def test_memoir_damage_lowers_the_arcs_and_no_dice_no_arcs() -> None:
    """The sheet's ``gun_dice`` (what damage left) counts, not the class's; none left, no arcs."""
    rs = get_ruleset("memoir_sea")
    hurt = replace(memoir_ship(8), sheet={"gun_dice": 3})
    assert [a.range for a in rs.arcs(state_with("memoir_sea", "hex6", hurt), hurt)] == [3.0, 3.0, 4.0, 4.0]
    silent = replace(memoir_ship(8), sheet={"gun_dice": 0})
    assert rs.arcs(state_with("memoir_sea", "hex6", silent), silent) == []


def test_memoir_hints_courses_and_breaking_off() -> None:
    """M10: courses of F, L, R no longer than the class speed (2 hexes); M08: a ship breaking off is
    steered by the rules."""
    rs = get_ruleset("memoir_sea")
    ship = memoir_ship(5)
    state = state_with("memoir_sea", "hex6", ship)
    assert rs.order_hints(state, ship, {}) == {
        "course": FieldHint(
            max=2,
            suggestions=("FF", "FL", "FR", "F"),
            note="F = one hex ahead, L / R = turn 60 degrees (costs a hex, after a hex "
            "ahead); Texas moves up to 2 hexes.",
        ),
    }
    assert legal_courses(2) == ("FF", "FL", "FR", "F", "")
    off = replace(ship, sheet={"breaking_off": True})
    assert rs.order_hints(state, off, {}) == {
        "course": FieldHint(note="Texas is breaking off (M08): leave the course empty.")
    }


# --- acw_river: seed 002 section 4, A04, A05, NW-ACW-01 ---------------------------------------------------


def acw_ship(heading: float = 0.0, **stats: JSON) -> ShipState:
    base: dict[str, JSON] = {"fire_front": 2, "fire_side": 2, "fire_rear": 1}
    return ShipState(
        id="b",
        name="Benton",
        side="a",
        position=Hex(q=10, r=8),
        heading=heading,
        stats={**base, **stats},
        sheet={"speed_forward": 3, "speed_back": 1},
    )


def test_acw_arcs_10_hexes_60_degree_ends_band_at_7() -> None:
    """A05: hits on 5-6 to 7 hexes, 6 only at 8-10, none beyond 10; NW-ACW-01: front and rear within 60
    degrees of bow and stern, the sides listed first (the 60-degree line is on the side); an arc with no
    fire dice does not fire (A04)."""
    rs = get_ruleset("acw_river")
    ship = acw_ship()
    state = state_with("acw_river", "hex12", ship)
    assert spans(rs.arcs(state, ship)) == [
        ("starboard", 60.0, 120.0, 10.0, (7.0,)),
        ("port", 240.0, 300.0, 10.0, (7.0,)),
        ("front", 300.0, 420.0, 10.0, (7.0,)),
        ("rear", 120.0, 240.0, 10.0, (7.0,)),
    ]
    assert ACW_T.MAX_RANGE == 10
    no_rear = acw_ship(fire_rear=0)
    assert [a.label for a in rs.arcs(state, no_rear)] == ["starboard", "port", "front"]


@pytest.mark.parametrize("heading", [0.0, 30.0, 150.0, 270.0])
def test_acw_map_hexes_match_the_rules_arcs(heading: float) -> None:
    """Every hex within 10 is in the arc ``arc_of_target`` gives it (NW-ACW-01), facing a side or a corner."""
    rs = get_ruleset("acw_river")
    ship = acw_ship(heading)
    here = Hex(q=10, r=8)
    arcs = rs.arcs(state_with("acw_river", "hex12", ship), ship)
    for h in hexes_within(here, 11):
        if h == here:
            continue
        got = map_arc(arcs, here, heading, h)
        if hex_distance(here, h) > 10:
            assert got is None
        else:
            assert got is not None and got.label == arc_of_target((here, heading, 0), h), h


def test_acw_hints_move_points_and_aground() -> None:
    """A09 / NW-ACW-03: Speed Forward ahead, Speed Back astern, a hex lost when the engines are switched;
    section 9: aground, no move."""
    rs = get_ruleset("acw_river")
    ship = acw_ship()
    state = state_with("acw_river", "hex12", ship)
    assert rs.order_hints(state, ship, {}) == {
        "course": FieldHint(
            note="F = one hex, L / R = 30-degree turns (over 60 degrees in all costs hexes); "
            "3 hexes ahead or 0 astern this move."
        )
    }
    astern = replace(ship, sheet={"speed_forward": 1, "speed_back": 2, "astern": True})
    # engines astern already: ahead would switch them (a hex lost), astern would not
    assert rs.order_hints(state, astern, {})["course"].note.endswith("0 hexes ahead or 2 astern this move.")
    slow = replace(ship, sheet={"speed_forward": 1, "speed_back": 1})
    assert rs.order_hints(state, slow, {})["course"].note.endswith("1 hex ahead or 0 astern this move.")
    aground = replace(ship, sheet={"aground": True})
    assert rs.order_hints(state, aground, {}) == {
        "course": FieldHint(note="Benton is aground and cannot move (section 9).")
    }


# --- sail_1700: seed 001 11. Gunnery, S12 -----------------------------------------------------------------


def frigate(rate: str = "4th", **guns: int) -> ShipState:
    return ShipState(
        id="c",
        name="Constitution",
        side="a",
        position=Point(x=1200, y=900),
        heading=0.0,
        stats={"rate": rate},
        sheet={"guns": dict(guns)} if guns else {},
    )


def test_sail_broadsides_22_degrees_of_the_beam() -> None:
    """S12: each broadside fires within 22 degrees of its beam; 100 / 200 / 300 mm rated, 50 / 100 / 150 mm
    unrated; a broadside with no guns left does not fire."""
    rs = get_ruleset("sail_1700")
    ship = frigate(starboard=27, port=27)
    state = state_with("sail_1700", "table_mm", ship)
    assert spans(rs.arcs(state, ship)) == [
        ("starboard broadside", 68.0, 112.0, 300.0, (100.0, 200.0)),
        ("port broadside", 248.0, 292.0, 300.0, (100.0, 200.0)),
    ]
    cutter = frigate("unrated", starboard=0, port=4)
    assert spans(rs.arcs(state, cutter)) == [("port broadside", 248.0, 292.0, 150.0, (50.0, 100.0))]


def test_sail_hints_the_distance_this_move() -> None:
    """The speed field is bounded by the move plan's least and most millimetres for the ordered turn."""
    sc = bundled_scenarios()["sail_constitution_vs_guerriere_1812"]
    state, _ = scenario_state(sc, SeededDice(1))
    rs = get_ruleset("sail_1700")
    ship = state.ships[0]
    plan = plan_move(state, ship, {})
    assert plan.error is None
    lo, hi = round(plan.min_distance), round(plan.max_distance)
    assert 0 <= lo < hi
    hints = rs.order_hints(state, ship, {"speed": 5})
    assert hints["speed"] == FieldHint(
        min=lo, max=hi, note=f"{plan.kind.capitalize()}: between {lo} and {hi} mm this move on this turn."
    )
    # and the working party she may land (NW-SAIL-23): all but 20% of her starting points
    assert set(hints) == {"speed", "land_party"} and hints["land_party"].min == 0
