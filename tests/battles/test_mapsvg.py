"""The battle map renderer (battles/mapsvg.py): SVG structure per bundled scenario and per viewer (A2).

Every bundled scenario (rules.scenario.bundled_scenarios(), so rule sets merged later are covered) is rendered
for each side and for the umpire, at the opening and after one resolved turn; the SVG is parsed with
xml.etree and checked: one marker per ship the viewer sees, at its place, in its side's colour; nothing of a
ship the rules hide; only the viewer's own mines and torpedoes; only the events the viewer may see.
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from battles.mapsvg import ArcSpec, frame_for, gun_arcs, render_map, ship_marker_xy, visible_ships
from rules import SeededDice, complete_orders, get_ruleset, resolve_turn
from rules.model import (
    BattleState,
    Conditions,
    Event,
    Hex,
    MapSpec,
    PendingEffect,
    Point,
    ShipState,
    SideInfo,
    TerrainFeature,
)
from rules.rulesets.memoir_sea.arcs import ship_arcs as memoir_arcs
from rules.rulesets.sail_1700.arcs import ship_arcs as sail_arcs
from rules.rulesets.ww2_jackson.arcs import ship_arcs as ww2_arcs
from rules.scenario import bundled_scenarios, scenario_state

NS = {"svg": "http://www.w3.org/2000/svg"}
SCENARIOS = sorted(bundled_scenarios())
TRANSLATE = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\)")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def markers(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-ship", ""): g
        for g in root.iterfind(".//svg:g[@data-ship]", NS)
        if "ship" in (g.get("class") or "").split()
    }


def translate_of(g: ET.Element) -> tuple[float, float]:
    m = TRANSLATE.match(g.get("transform", ""))
    assert m, g.get("transform")
    return float(m.group(1)), float(m.group(2))


def opening(key: str) -> BattleState:
    state, _ = scenario_state(bundled_scenarios()[key], SeededDice(1))
    return state


def after_one_turn(state: BattleState, seed: int = 7) -> tuple[BattleState, tuple[Event, ...]]:
    orders, _ = complete_orders(state, [])
    result = resolve_turn(state, orders, SeededDice(seed))
    return result.state, result.events


def viewers(state: BattleState) -> list[str | None]:
    return [*state.side_keys(), None]


# --- every bundled scenario, every viewer ----------------------------------------------------------------


@pytest.mark.parametrize("key", SCENARIOS)
def test_scenario_map_structure_per_viewer(key: str) -> None:
    state = opening(key)
    rs = get_ruleset(state.ruleset)
    colours = {s.key: s.colour for s in state.sides}
    for viewer in viewers(state):
        svg = render_map(state, viewer_side=viewer)
        root = parse(svg)
        fr = frame_for(state.map, 900)
        vb = [float(v) for v in root.get("viewBox", "").split()]
        assert vb[:3] == [0, 0, pytest.approx(fr.width, abs=0.05)] and vb[3] > fr.height
        # fitted into 900 x 900: 26 px round the map, more left of a table's rulers if their labels need it
        assert max(fr.left + fr.map_w + 26, fr.map_h + 2 * 26) == pytest.approx(900)
        assert root.get("role") == "img"
        assert root.find("svg:title", NS) is not None and root.find("svg:desc", NS) is not None
        seen = {s.id: s for s in rs.view_for(state, viewer).ships if s.status != "withdrawn"}
        drawn = markers(root)
        assert set(drawn) == set(seen), viewer
        positions = [s.position for s in seen.values()]
        for sid, g in drawn.items():
            ship = seen[sid]
            assert g.get("data-side") == ship.side
            assert g.get("data-status") == ship.status
            assert float(g.get("data-heading", "nan")) == pytest.approx(ship.heading)
            if isinstance(ship.position, Hex):
                qr = (int(g.get("data-q", "x")), int(g.get("data-r", "x")))
                assert qr == (ship.position.q, ship.position.r)
            else:
                assert float(g.get("data-x", "nan")) == pytest.approx(ship.position.x)
                assert float(g.get("data-y", "nan")) == pytest.approx(ship.position.y)
            x, y = translate_of(g)
            ex, ey = fr.xy(ship.position)
            if positions.count(ship.position) == 1:
                assert (x, y) == (pytest.approx(ex, abs=0.051), pytest.approx(ey, abs=0.051))
            else:  # ships sharing a place are fanned out round it
                assert math.hypot(x - ex, y - ey) <= fr.scale * 0.45 + 7.1
            hull = g.find(".//svg:use[@class='hull']", NS)
            assert hull is not None and hull.get("fill") == colours[ship.side]
        # the legend names every side in its colour
        legend = {
            g.get("data-side"): g.find("svg:rect", NS).get("fill")  # type: ignore[union-attr]
            for g in root.iterfind(".//svg:g[@class='legend-side']", NS)
        }
        assert legend == colours


@pytest.mark.parametrize("key", SCENARIOS)
def test_scenario_after_a_turn_draws_only_what_the_viewer_may_see(key: str) -> None:
    before = opening(key)
    state, events = after_one_turn(before)
    rs = get_ruleset(state.ruleset)
    for viewer in viewers(state):
        root = parse(render_map(state, viewer_side=viewer, events=events, previous=before))
        seen = {s.id for s in rs.view_for(state, viewer).ships if s.status != "withdrawn"}
        assert set(markers(root)) == seen
        hidden = {s.id for s in state.ships} - seen
        for trail in root.iterfind(".//svg:path[@class='trail']", NS):
            assert trail.get("data-ship") in seen
        for el in root.iter():
            for attr in ("data-firer", "data-target", "data-ship"):
                assert el.get(attr) not in hidden or el.get(attr) == "", (attr, el.get(attr))
        # every move event the viewer may see, of a ship it sees, with a path, has its trail
        expected = {
            e.ship_id
            for e in events
            if e.kind == "move"
            and e.ship_id in seen
            and (viewer is None or e.visible_to is None or viewer in e.visible_to)
            and len(e.data.get("path") or []) >= 2
        }  # type: ignore[arg-type]
        trails = {t.get("data-ship") for t in root.iterfind(".//svg:path[@class='trail']", NS)}
        assert expected <= trails


@pytest.mark.parametrize("key", SCENARIOS)
def test_selected_own_ship_shows_arcs_and_an_enemy_shows_none(key: str) -> None:
    state = opening(key)
    side = state.sides[0].key
    own = next(s for s in state.ships if s.side == side and s.active)
    root = parse(render_map(state, viewer_side=side, selected=own.id))
    arcs = root.find(".//svg:g[@class='arcs']", NS)
    expected = gun_arcs(state, own)
    assert expected, "every bundled ship has guns"
    assert arcs is not None and arcs.get("data-ship") == own.id
    labels = {p.get("data-arc") for p in arcs.iterfind("svg:path[@class='arc']", NS)}
    assert labels == {a.label for a in expected}
    assert "selected" in (markers(root)[own.id].get("class") or "").split()
    enemy = next((s for s in rules_view(state, side).ships if s.side != side), None)
    if enemy is not None:
        root = parse(render_map(state, viewer_side=side, selected=enemy.id))
        assert root.find(".//svg:g[@class='arcs']", NS) is None


def rules_view(state: BattleState, side: str | None) -> BattleState:
    return get_ruleset(state.ruleset).view_for(state, side)


# --- exact values on the Bismarck scenario (ultra_simple, hex12, 24 x 18) ----------------------------------


def bismarck() -> BattleState:
    return opening("bismarck_last_battle_1941")


def test_hex_projection_exact_pixels() -> None:
    """Flat-topped hexes: centre x = 1.5 q, y = sqrt(3) (r + q/2) hex sizes; 848 px / 36.5 = 23.2329 px a
    hex size, from (26 + 23.23, 26 + 20.12)."""
    root = parse(render_map(bismarck(), viewer_side=None))
    drawn = markers(root)
    assert drawn["kgv"].get("transform") == "translate(397.7 368)"
    assert drawn["rodney"].get("transform") == "translate(397.7 448.5)"
    assert drawn["bismarck"].get("transform") == "translate(606.8 448.5)"  # (16,2): r + q/2 = 10, as Rodney
    xy = ship_marker_xy(bismarck(), "kgv", viewer_side="britain")
    assert xy == pytest.approx((397.726, 368.044), abs=1e-3)
    assert root.get("viewBox") == "0 0 900 844.4"


def test_table_projection_exact_pixels() -> None:
    state = table_state()
    root = parse(render_map(state, viewer_side=None))
    drawn = markers(root)
    # 96 x 72 inches drawn 848 px wide: 8.8333 px an inch from (26, 26)
    assert drawn["a1"].get("transform") == "translate(379.3 556)"
    assert drawn["b1"].get("transform") == "translate(114.3 114.3)"
    assert root.get("viewBox") == "0 0 900 736"
    bar = root.find(".//svg:g[@class='scalebar']", NS)
    assert bar is not None and (bar.get("data-unit"), bar.get("data-length")) == ("in", "24")


def test_hull_turns_to_the_heading() -> None:
    root = parse(render_map(bismarck(), viewer_side=None))
    kgv = markers(root)["kgv"]
    hull = kgv.find("svg:use[@class='hull']", NS)
    assert hull is not None and hull.get("transform") == "rotate(120)"
    # the hull symbol points north before it is turned: its bow is the topmost point
    symbol = root.find(f".//svg:g[@id='{hull.get('href', '')[1:]}']/svg:path", NS)
    assert symbol is not None and symbol.get("d", "").startswith("M0 -17.4C")


def test_gun_arcs_ultra_simple_follow_the_guns_that_bear() -> None:
    """Seed 003 3.0 and U03: 6 hexes, hits at 1-2 / 3-4 / 5-6; A5: 30 degrees either side of bow and stern.
    Rodney's guns: 6 forward, 0 aft, 9 broadside: an aft arc of range 0, where no gun fires (NW-US-ARC-01)."""
    state = bismarck()
    rodney = state.ship("rodney")
    assert gun_arcs(state, rodney) == [
        ArcSpec(label="forward", start=330.0, end=390.0, range=6.0, bands=(2.0, 4.0)),
        ArcSpec(label="aft", start=150.0, end=210.0, range=0.0),
        ArcSpec(label="starboard", start=30.0, end=150.0, range=6.0, bands=(2.0, 4.0)),
        ArcSpec(label="port", start=210.0, end=330.0, range=6.0, bands=(2.0, 4.0)),
    ]
    # a campaign option widens the arcs (U07)
    wide = replace(state, options={"arc_forward": 45.0, "arc_aft": 40.0})
    assert [(a.label, a.start, a.end) for a in gun_arcs(wide, wide.ship("kgv"))] == [
        ("forward", 315.0, 405.0),
        ("aft", 140.0, 220.0),
        ("starboard", 45.0, 140.0),
        ("port", 220.0, 315.0),
    ]


def test_an_arc_of_range_0_owns_its_boundary_but_is_neither_shaded_nor_labelled() -> None:
    """NW-US-ARC-01: Rodney has no aft guns; her aft arc of range 0 is neither drawn nor labelled, and a hex
    exactly on its boundary (150 degrees off the bow) is not shaded as broadside: a target there is aft, where
    nothing fires. The map shades exactly the hexes at which ``guns_bearing`` finds a gun."""
    from rules.geometry import hex_bearing, hex_distance, hexes_within, norm_deg, on_hex_map

    state = bismarck()
    rodney = state.ship("rodney")
    assert isinstance(rodney.position, Hex)
    here = rodney.position
    svg = render_map(state, selected="rodney", viewer_side=rodney.side)
    assert 'data-arc="aft"' not in svg and ">aft 0" not in svg
    root = parse(svg)
    arcs = root.find(".//svg:g[@class='arcs']", NS)
    assert arcs is not None
    shaded = sum(p.get("d", "").count("M") for p in arcs.iterfind("svg:path[@class='arc']", NS))
    rs = get_ruleset("ultra_simple")
    expected = on_boundary = 0
    for h in hexes_within(here, 6):
        if h == here or not on_hex_map(h, state.map.width, state.map.height):
            continue
        arc, groups = rs.guns_bearing(state, rodney, here, rodney.heading, h)  # type: ignore[attr-defined]
        expected += bool(groups) and hex_distance(here, h) <= 6
        if (
            abs(abs(norm_deg(hex_bearing(here, h) - rodney.heading)) - 150.0) < 1e-6
            or abs(norm_deg(hex_bearing(here, h) - rodney.heading) - 210.0) < 1e-6
        ):
            on_boundary += 1
            assert arc == "aft" and groups == []
    assert on_boundary > 0
    assert shaded == expected


def test_hex_arcs_shade_the_hexes_in_range_by_band() -> None:
    state = bismarck()
    root = parse(render_map(state, viewer_side="britain", selected="kgv"))
    arcs = root.find(".//svg:g[@class='arcs']", NS)
    assert arcs is not None
    cells = {}
    for p in arcs.iterfind("svg:path[@class='arc']", NS):
        cells[(p.get("data-arc"), p.get("data-band"))] = p.get("d", "").count("M")
    # 6 hexes all round = 3 * 6 * 7 = 126 hexes, less those off the map; every hex in one arc and one band
    assert sum(cells.values()) == 126 - off_map_within(state, Hex(q=10, r=3), 6)
    # forward arc, band 0 (1-2 hexes) of a ship facing a corner (120 degrees): the hexes whose centres lie
    # within 30 degrees of the bow
    assert cells[("forward", "0")] == 4


def test_hex_on_the_60_degree_line_is_abeam_not_ahead_beyond_the_beam_range() -> None:
    """memoir_sea M04: a hex the 60-degree line cuts is abeam; M05: a 5-dice ship throws no die abeam at 6
    hexes though ahead and astern reach 6. The map shades exactly the hexes where the rules throw a die."""
    from rules.geometry import hex_distance, hexes_within, on_hex_map
    from rules.rulesets.memoir_sea.ruleset import arc_for, gun_dice

    here = Hex(q=10, r=5)
    ship = ShipState(id="m", name="Texas", side="usa", position=here, heading=60.0, stats={"gun_dice": 5})
    state = BattleState(
        ruleset="memoir_sea",
        map=MapSpec(geometry="hex6", width=24, height=18),
        sides=(SideInfo(key="usa", name="USA"),),
        ships=(ship,),
    )
    root = parse(render_map(state, viewer_side=None, selected="m"))
    arcs = root.find(".//svg:g[@class='arcs']", NS)
    assert arcs is not None
    shaded: dict[str, int] = {}
    for p in arcs.iterfind("svg:path[@class='arc']", NS):
        kind = (p.get("data-arc") or "").split(" ")[-1]  # "port abeam" -> abeam
        shaded[kind] = shaded.get(kind, 0) + p.get("d", "").count("M")
    expected: dict[str, int] = {}
    for h in hexes_within(here, 7):
        if h != here and on_hex_map(h, 24, 18):
            arc = arc_for(here, 60.0, h)
            if gun_dice(5, hex_distance(here, h), arc) > 0:
                expected[arc] = expected.get(arc, 0) + 1
    assert shaded == expected
    # at d hexes: d + 1 abeam each side (both 60-degree lines included), 2d - 1 ahead and astern; abeam to
    # 5 hexes, ahead and astern to 6; the four hexes on the lines at 6 hexes get nothing
    assert expected == {"abeam": 40, "ahead": 36, "astern": 36}


def off_map_within(state: BattleState, h: Hex, r: int) -> int:
    from rules.geometry import hexes_within, on_hex_map

    w, h_ = state.map.width, state.map.height
    return sum(1 for x in hexes_within(h, r) if x != h and not on_hex_map(x, w, h_))


def test_rule_set_arcs_read_the_tables_they_are_given() -> None:
    """memoir_sea M05: abeam B hexes, ahead/astern 2 * ceil(B / 2); ww2_jackson: the range-table row of the
    calibre; sail_1700 S12: 22 degrees either side of the beam, 300 mm for rated ships. (The arcs moved from
    this module's adapters to rules/rulesets/<key>/arcs.py; tables given here as the adapters were.)"""

    hexmap = MapSpec(geometry="hex6", width=24, height=18)
    ship = ShipState(id="iowa", name="Iowa", side="usa", position=Hex(q=0, r=0), stats={"gun_dice": 5})
    state = BattleState(ruleset="memoir_sea", map=hexmap, sides=(), ships=(ship,))
    arcs = memoir_arcs({"arcs_deg": {"ahead_within": 60.0}}, state, ship)
    assert [(a.label, a.start, a.end, a.range) for a in arcs] == [
        ("starboard abeam", 60.0, 120.0, 5.0),
        ("port abeam", 240.0, 300.0, 5.0),
        ("ahead", 300.0, 420.0, 6.0),
        ("astern", 120.0, 240.0, 6.0),
    ]

    table = MapSpec(geometry="table_in", width=96, height=72)
    guns = [
        {"calibre": 15, "guns": 2, "forward": True, "aft": False, "broadside": True, "side": "centre"},
        {
            "calibre": 6,
            "kind": "old",
            "guns": 4,
            "forward": False,
            "aft": True,
            "broadside": True,
            "side": "port",
        },
    ]
    hood = ShipState(id="hood", name="Hood", side="gb", position=Point(x=1, y=1), stats={"guns": guns})
    state = BattleState(ruleset="ww2_jackson", map=table, sides=(), ships=(hood,))
    rt = {"15-16": [24, 48, 72], "6new": [16, 32, 48], "6old": [14, 26, 42]}
    arcs = ww2_arcs({"RANGE_TABLE": rt}, state, hood)
    assert [(a.label, a.range, a.bands) for a in arcs] == [
        ("forward 15in", 72.0, (24.0, 48.0)),
        ("aft 6in", 42.0, (14.0, 26.0)),
        ("starboard 15in", 72.0, (24.0, 48.0)),
        ("port 15in", 72.0, (24.0, 48.0)),
    ]

    mm = MapSpec(geometry="table_mm", width=2400, height=1800)
    frigate = ShipState(
        id="c",
        name="Constitution",
        side="us",
        position=Point(x=1, y=1),
        stats={"rate": "4th"},
        sheet={"guns": {"starboard": 27, "port": 0}},
    )
    state = BattleState(ruleset="sail_1700", map=mm, sides=(), ships=(frigate,))
    arcs = sail_arcs({"gunnery_ranges_mm": {"rated": [100, 200, 300]}}, state, frigate)
    assert arcs == [
        ArcSpec(label="starboard broadside", start=68.0, end=112.0, range=300.0, bands=(100.0, 200.0))
    ]


# --- fog of war (A2) -------------------------------------------------------------------------------------


def test_hidden_enemy_is_never_drawn_nor_named(monkeypatch: pytest.MonkeyPatch) -> None:
    state = bismarck()
    rs = get_ruleset("ultra_simple")
    monkeypatch.setattr(rs, "visible_ship_ids", lambda st, side: {s.id for s in st.ships if s.side == side})
    events = (
        Event(
            kind="move",
            text="Bismarck moves.",
            turn=1,
            ship_id="bismarck",
            data={"path": [{"q": 16, "r": -1}, {"q": 16, "r": -2}]},
        ),
        Event(
            kind="fire",
            text="Bismarck fires at King George V.",
            turn=1,
            ship_id="bismarck",
            target_id="kgv",
            outcome="hit",
            data={"hits": 2},
        ),
    )
    svg = render_map(state, viewer_side="britain", events=events)
    root = parse(svg)
    assert set(markers(root)) == {"kgv", "rodney"}
    assert "bismarck" not in svg.lower()
    assert root.find(".//svg:path[@class='trail']", NS) is None
    # the hit on King George V is drawn where it landed, from no known firer
    burst = root.find(".//svg:use[@class='burst']", NS)
    assert burst is not None and (burst.get("data-firer"), burst.get("data-target")) == ("", "kgv")
    assert root.find(".//svg:path[@class='shot']", NS) is None
    # the German side and the umpire see her
    for viewer in ("germany", None):
        assert "bismarck" in markers(parse(render_map(state, viewer_side=viewer, events=events)))


def test_only_the_viewers_mines_appear() -> None:
    """A3: mines are placed secretly by the side that laid them;
    TerrainFeature.visible_to, filtered by RuleSet.view_for."""
    state = replace(
        bismarck(),
        terrain=(
            TerrainFeature(kind="land", position=Hex(q=0, r=0)),
            TerrainFeature(kind="mine", position=Hex(q=5, r=5), visible_to=("britain",)),
            TerrainFeature(kind="mine", position=Hex(q=6, r=5), visible_to=("britain",)),
            TerrainFeature(kind="mine", position=Hex(q=7, r=5), visible_to=("germany",)),
            TerrainFeature(kind="shoal", position=Hex(q=8, r=5), props={"depth": 3}),
        ),
    )

    def mines(viewer: str | None) -> list[tuple[str | None, str | None, str | None]]:
        root = parse(render_map(state, viewer_side=viewer))
        return sorted(
            (g.get("data-side"), g.get("data-q"), g.get("data-r"))
            for g in root.iterfind(".//svg:g[@class='terrain mine']", NS)
        )

    assert mines("britain") == [("britain", "5", "5"), ("britain", "6", "5")]
    assert mines("germany") == [("germany", "7", "5")]
    assert mines(None) == [("britain", "5", "5"), ("britain", "6", "5"), ("germany", "7", "5")]
    root = parse(render_map(state, viewer_side="germany"))
    land = root.find(".//svg:path[@class='terrain land']", NS)
    assert land is not None and land.get("d", "").count("M") == 1
    depth = root.find(".//svg:text[@class='depth']", NS)
    assert depth is not None and depth.text == "3"


def test_only_the_viewers_torpedoes_and_events_appear() -> None:
    state = replace(
        bismarck(),
        pending=(
            PendingEffect(
                id="t1",
                kind="torpedo",
                ship_id="bismarck",
                due_turn=3,
                data={"firer": "rodney", "target": "bismarck", "number": 4},
                visible_to=("britain",),
            ),
        ),
    )
    events = (
        Event(
            kind="fire",
            text="secret",
            turn=1,
            ship_id="bismarck",
            target_id="rodney",
            outcome="miss",
            data={"hits": 0},
            visible_to=("germany",),
        ),
    )
    root = parse(render_map(state, viewer_side="britain", events=events))
    torps = list(root.iterfind(".//svg:g[@class='torpedo']", NS))
    assert [(t.get("data-pending"), t.get("data-target")) for t in torps] == [("t1", "bismarck")]
    assert root.find(".//svg:g[@class='gunfire']", NS) is None
    root = parse(render_map(state, viewer_side="germany", events=events))
    assert root.find(".//svg:g[@class='torpedo']", NS) is None
    shot = root.find(".//svg:path[@class='shot miss']", NS)
    assert shot is not None and (shot.get("data-firer"), shot.get("data-target")) == ("bismarck", "rodney")


def test_move_trail_follows_the_event_path() -> None:
    state = bismarck()
    events = (
        Event(
            kind="move", text="", turn=1, ship_id="kgv", data={"path": [{"q": 9, "r": 3}, {"q": 10, "r": 3}]}
        ),
    )
    root = parse(render_map(state, viewer_side="britain", events=events))
    trail = root.find(".//svg:path[@class='trail']", NS)
    assert trail is not None and trail.get("stroke") == "#1f4e9c"
    assert trail.get("d") == "M362.9 347.9L397.7 368"


def test_trail_falls_back_to_the_previous_position() -> None:
    state = bismarck()
    before = state.with_ships({"kgv": replace(state.ship("kgv"), position=Hex(q=9, r=3))})
    root = parse(render_map(state, viewer_side="britain", previous=before))
    trails = list(root.iterfind(".//svg:path[@class='trail']", NS))
    assert [(t.get("data-ship"), t.get("d")) for t in trails] == [("kgv", "M362.9 347.9L397.7 368")]


# --- states, conditions, preview, styling ---------------------------------------------------------------


def test_ship_states_are_classes_and_symbols() -> None:
    state = bismarck()
    ships = state.ship_map()
    ships["bismarck"] = replace(ships["bismarck"], flags=("on_fire", "dead_in_water"))
    ships["rodney"] = replace(ships["rodney"], status="sunk", flags=("sinking",))
    ships["kgv"] = replace(ships["kgv"], status="struck")
    root = parse(render_map(state.with_ships(ships), viewer_side=None))
    drawn = markers(root)
    assert drawn["bismarck"].get("class") == "ship side-germany status-active own dead_in_water on_fire"
    assert drawn["bismarck"].find("svg:path[@class='flame']", NS) is not None
    assert drawn["bismarck"].find("svg:g[@class='badge']/svg:text", NS).text == "DIW"  # type: ignore[union-attr]
    assert drawn["rodney"].get("data-status") == "sunk"
    assert drawn["rodney"].find("svg:path[@class='wreck']", NS) is not None
    assert drawn["kgv"].find("svg:path[@class='struck-flag']", NS) is not None
    assert "struck" in (drawn["kgv"].get("class") or "").split()


def test_withdrawn_ships_leave_the_map() -> None:
    state = bismarck()
    gone = replace(state.ship("rodney"), status="withdrawn", position=Hex(q=-1, r=5))
    state = state.with_ships({"rodney": gone})
    assert set(markers(parse(render_map(state, viewer_side=None)))) == {"kgv", "bismarck"}
    assert [s.id for s in visible_ships(state, None)] == ["kgv", "bismarck"]


def test_night_wind_and_weather() -> None:
    conditions = Conditions(
        night=True, moon="dim", wind_from=315.0, wind_force="moderate", weather="rain", visibility=20.0
    )
    state = replace(table_state(), conditions=conditions)
    root = parse(render_map(state, viewer_side="blue"))
    assert "night-on" in (root.get("class") or "")
    night = root.find(".//svg:rect[@class='night']", NS)
    assert night is not None and night.get("mask") == "url(#nw-night-mask)"
    holes = root.findall(".//svg:mask/svg:g/svg:circle", NS)
    assert [(c.get("cx"), c.get("cy"), c.get("r")) for c in holes] == [("379.3", "556", "176.7")]
    wind = root.find(".//svg:g[@class='wind']", NS)
    assert wind is not None and wind.get("data-wind-from") == "315"
    assert wind.find("svg:title", NS).text == "Wind from the NW (315°), moderate"  # type: ignore[union-attr]
    cond = root.find(".//svg:text[@class='conditions']", NS)
    assert cond is not None and cond.text == (
        "Night, dim moon; wind from the NW, moderate; rain; visibility 20 in"
    )
    # by day: no shading
    day = parse(render_map(table_state(), viewer_side="blue"))
    assert day.find(".//svg:rect[@class='night']", NS) is None


def test_preview_path_starts_at_the_selected_ship() -> None:
    state = bismarck()
    root = parse(
        render_map(
            state, viewer_side="britain", selected="kgv", preview_path=[Hex(q=11, r=3), Hex(q=12, r=2)]
        )
    )
    g = root.find(".//svg:g[@class='order-preview']", NS)
    assert g is not None and g.get("data-ship") == "kgv"
    line = g.find("svg:path[@class='preview']", NS)
    assert line is not None and line.get("d", "").startswith("M397.7 368L")
    assert line.get("d", "").count("L") == 2


def test_side_colours_override_and_bad_colours_fall_back() -> None:
    root = parse(
        render_map(
            bismarck(),
            viewer_side=None,
            side_colours={"britain": "#00ff00", "germany": 'red" onload="alert(1)'},
        )
    )
    drawn = markers(root)
    assert drawn["kgv"].find(".//svg:use[@class='hull']", NS).get("fill") == "#00ff00"  # type: ignore[union-attr]
    assert drawn["bismarck"].find(".//svg:use[@class='hull']", NS).get("fill") == "#6b7785"  # type: ignore[union-attr]


def test_names_are_escaped_and_links_added() -> None:
    state = bismarck()
    state = state.with_ships({"kgv": replace(state.ship("kgv"), name='<script>alert("x")</script> & Co')})
    svg = render_map(
        state, viewer_side="britain", link=lambda s: f"/ships/{s.id}/?a=1&b=2", hx_target="#sheet"
    )
    assert "<script>" not in svg
    root = parse(svg)
    a = markers(root)["kgv"].find("svg:a", NS)
    assert a is not None and a.get("href") == "/ships/kgv/?a=1&b=2"
    assert a.get("hx-get") == "/ships/kgv/?a=1&b=2"
    assert a.get("hx-target") == "#sheet"
    label = a.find("svg:text[@class='label']", NS)
    assert label is not None and label.text == '<script>alert("x")</script> & Co'


def test_editor_cells_cover_the_hex_map() -> None:
    root = parse(render_map(bismarck(), viewer_side=None, cells=True))
    cells = root.findall(".//svg:path[@class='cell']", NS)
    assert len(cells) == 24 * 18
    assert (cells[1].get("data-q"), cells[1].get("data-r")) == ("0", "1")


def test_two_maps_on_one_page_use_their_own_ids() -> None:
    svg = render_map(bismarck(), viewer_side=None, id_prefix="replay")
    assert 'id="replay-ship-kgv"' in svg and 'id="nw-' not in svg


def table_state() -> BattleState:
    """A 96 x 72 inch table with two ships (ruleset ultra_simple's fog of war, a table map)."""
    return BattleState(
        ruleset="ultra_simple",
        map=MapSpec(geometry="table_in", width=96, height=72),
        sides=(
            SideInfo(key="blue", name="Blue", colour="#1f4e9c"),
            SideInfo(key="red", name="Red", colour="#8c1c13"),
        ),
        ships=(
            ShipState(id="a1", name="Alpha", side="blue", position=Point(x=40, y=60), heading=90),
            ShipState(id="b1", name="Bravo", side="red", position=Point(x=10, y=10), heading=180),
        ),
    )


def test_table_terrain_largest_first_with_depths_and_names() -> None:
    """sail_1700's terrain (A3): shoals with a depth in fathoms and a radius or a polygon; depth 0 is dry."""
    here = Point(x=30, y=30)
    state = replace(
        table_state(),
        terrain=(
            TerrainFeature(kind="shoal", position=here, props={"depth": 0, "radius": 2, "name": "Isle"}),
            TerrainFeature(kind="shoal", position=here, props={"depth": 3, "radius": 6, "name": "Bank"}),
            TerrainFeature(
                kind="shoal",
                position=Point(x=80, y=60),
                props={"depth": 9, "polygon": [[70, 50], [90, 50], [90, 70]]},
            ),
            TerrainFeature(
                kind="battery",
                position=Point(x=5, y=5),
                props={"id": "b1", "name": "Fort Pike", "side": "red", "guns": 4, "facing": 90},
            ),
        ),
    )
    root = parse(render_map(state, viewer_side="blue"))
    shoals = [
        (p.get("fill"), p.find("svg:title", NS).text if p.find("svg:title", NS) is not None else None)
        for p in root.iterfind(".//svg:path[@class='terrain shoal']", NS)
    ]
    # by area: the polygon (200 sq in), the bank (113), the isle (12.6) on top, dry land colour
    assert shoals == [("#d6eaf5", None), ("#b3d6ec", "Bank"), ("#e2d3a8", "Isle")]
    assert [t.text for t in root.iterfind(".//svg:text[@class='depth']", NS)] == ["3", "9"]
    assert [t.text for t in root.iterfind(".//svg:text[@class='place water']", NS)] == ["Bank"]
    assert [t.text for t in root.iterfind(".//svg:text[@class='place']", NS)] == ["Isle"]
    battery = root.find(".//svg:g[@class='terrain battery']", NS)
    assert battery is not None and battery.get("data-side") == "red"
    assert battery.find("svg:title", NS).text == "Battery: Fort Pike, Red, 4 guns"  # type: ignore[union-attr]
    assert battery.find("svg:rect", NS).get("fill") == "#8c1c13"  # type: ignore[union-attr]


def test_sail_rulers_and_scale_label_have_room() -> None:
    """QA b-sail-s1.png: on the 2400 x 1800 mm table the left ruler's "1000" lost its first digit to the SVG's
    edge (labels ended 6 px left of a map 26 px in) and "500 mm = 5000 m" ran into the legend's border."""
    state = opening("sail_constitution_vs_guerriere_1812")
    root = parse(render_map(state, viewer_side=None))
    fr = frame_for(state.map, 900)
    left_labels = [
        t for t in root.iterfind(".//svg:g[@class='ruler']/svg:text", NS) if t.get("text-anchor") == "end"
    ]
    assert [t.text for t in left_labels] == ["500", "1000", "1500"]
    for t in left_labels:
        # 5.8 px a digit of the 9 px font, 3 px to spare at the SVG's left edge
        assert float(t.get("x", "")) - 5.8 * len(t.text or "") >= 3, t.text
    assert fr.left == pytest.approx(5.8 * 4 + 6 + 3)  # room for the map height's 4 digits
    bar = root.find(".//svg:g[@class='scalebar']", NS)
    assert bar is not None
    label = bar.find("svg:text", NS)
    assert label is not None and label.text == "500 mm = 5000 m" and label.get("text-anchor") == "end"
    # 10 px inside the compass's room at the legend's right end (COMPASS_ROOM: 56 px)
    assert float(label.get("x", "")) == pytest.approx(fr.width - 26 - 56 - 10)
    right_of_bar = max(
        float(r.get("x", "")) + float(r.get("width", "")) for r in bar.iterfind("svg:rect", NS)
    )
    assert right_of_bar <= float(label.get("x", "")) - 7.2 * len(label.text) - 8 + 0.05


# --- hex coordinates (a fresh-user check: no hex on the map said where it was) --------------------------

HEX_SCENARIOS = [k for k in SCENARIOS if bundled_scenarios()[k].map.geometry.startswith("hex")]
TABLE_SCENARIOS = [k for k in SCENARIOS if k not in HEX_SCENARIOS]


def coordinate_labels(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Return each coordinate label's text and its pixel, asserting none is written twice."""
    group = root.find(".//svg:g[@class='coords']", NS)
    assert group is not None
    labels = [(t.text or "", float(t.get("x", "nan")), float(t.get("y", "nan"))) for t in group]
    assert len({text for text, _, _ in labels}) == len(labels)
    return {text: (x, y) for text, x, y in labels}


@pytest.mark.parametrize("key", HEX_SCENARIOS)
def test_every_hex_is_labelled_q_r_as_the_log_names_it(key: str) -> None:
    """The log names a hex "(q,r)" (ultra_simple: "moves 1 hex(es) to (15,3) heading..."), the battle form
    asks for q and r: each hex of the map carries "q,r", in its own hex (near its top side), once."""
    before = opening(key)
    state, events = after_one_turn(before)
    fr = frame_for(state.map, 900)
    root = parse(render_map(state, viewer_side=None, events=events, previous=before))

    labels = coordinate_labels(root)

    cols, rows = int(state.map.width), int(state.map.height)
    hexes = [Hex(q=c, r=row - (c - (c & 1)) // 2) for c in range(cols) for row in range(rows)]
    assert sorted(labels) == sorted(f"{h.q},{h.r}" for h in hexes)
    half = fr.scale * math.sqrt(3) / 2
    for h in hexes:
        cx, cy = fr.xy(h)
        x, y = labels[f"{h.q},{h.r}"]
        assert x == pytest.approx(cx, abs=0.051)
        assert cy - half < y < cy - half / 2  # in its hex, above the centre where the ship's marker is
    moved = [e for e in events if e.kind == "move" and re.search(r"\((-?\d+),(-?\d+)\)", e.text)]
    assert moved, "the log names hexes"
    for event in moved:
        q, r = re.findall(r"\((-?\d+),(-?\d+)\)", event.text)[-1]
        assert f"{q},{r}" in labels


@pytest.mark.parametrize("key", HEX_SCENARIOS)
def test_the_coordinates_are_faint_and_under_the_ships(key: str) -> None:
    svg = render_map(opening(key), viewer_side=None)
    root = parse(svg)
    order = [g.get("class") for g in root if g.tag == "{http://www.w3.org/2000/svg}g"]

    assert order.index("coords") < order.index("ships")
    group = root.find("svg:g[@class='coords']", NS)
    assert group is not None and group.get("aria-hidden") == "true"
    assert 4.5 <= float(group.get("font-size", "0")) <= 8  # smaller than the ships' 10.5 px names
    assert ".nw-map .coords{fill:#6f8aa3;" in svg and "pointer-events:none" in svg


@pytest.mark.parametrize("key", TABLE_SCENARIOS)
def test_a_table_has_its_rulers_and_no_hex_coordinates(key: str) -> None:
    root = parse(render_map(opening(key), viewer_side=None))

    assert root.find(".//svg:g[@class='coords']", NS) is None
    assert root.find(".//svg:g[@class='ruler']", NS) is not None


@pytest.mark.parametrize(
    ("width", "height", "step"), [(24, 18, 1), (40, 30, 2), (60, 45, 5), (120, 90, 10), (240, 180, 20)]
)
def test_a_big_map_is_labelled_every_kth_hex_with_room_between_the_labels(
    width: int, height: int, step: int
) -> None:
    state = replace(
        opening("bismarck_last_battle_1941"), map=MapSpec(geometry="hex12", width=width, height=height)
    )
    fr = frame_for(state.map, 900)

    labels = coordinate_labels(parse(render_map(state, viewer_side=None)))

    wanted = [
        Hex(q=c, r=row - (c - (c & 1)) // 2) for c in range(0, width, step) for row in range(0, height, step)
    ]
    assert sorted(labels) == sorted(f"{h.q},{h.r}" for h in wanted)
    if step > 1:
        for h in wanted:  # centred on the hex it names
            assert labels[f"{h.q},{h.r}"] == (
                pytest.approx(fr.xy(h)[0], abs=0.051),
                pytest.approx(fr.xy(h)[1], abs=0.051),
            )
        xs = sorted({round(x, 1) for x, _ in labels.values()})
        assert min(b - a for a, b in itertools.pairwise(xs)) >= 36 - 0.1


@pytest.mark.parametrize("key", sorted(bundled_scenarios()))
def test_the_compass_stands_in_the_legend_never_over_the_map(key: str) -> None:
    """A fresh-user check: the compass stood in the map's top-right corner, over the hexes (and a ship)
    there. It stands at the legend's right end now: its circle lies below the map's area and within the
    legend's box, and right of the scale bar's label."""
    state = opening(key)
    root = parse(render_map(state, viewer_side=None))
    fr = frame_for(state.map, 900)
    compass = root.find(".//svg:g[@class='compass']", NS)
    assert compass is not None
    found = re.fullmatch(r"translate\(([\d.]+) ([\d.]+)\)", compass.get("transform", ""))
    assert found is not None
    cx, cy = float(found.group(1)), float(found.group(2))
    circle = compass.find("svg:circle", NS)
    assert circle is not None
    r = float(circle.get("r", ""))
    assert r == 22
    assert cy - r > fr.top + fr.map_h  # below the map
    box = root.find(".//svg:rect[@class='legend-bg']", NS)
    assert box is not None
    x, y, w, h = (float(box.get(a, "")) for a in ("x", "y", "width", "height"))
    assert x <= cx - r and cx + r <= x + w and y <= cy - r and cy + r <= y + h  # within the legend
    label = root.find(".//svg:g[@class='scalebar']/svg:text", NS)
    assert label is not None and float(label.get("x", "")) < cx - r


def test_a_sail_broadside_is_drawn_from_where_she_fired_to_her_target() -> None:
    """sail_1700's fire event says where on her track the firer fired from (data["at"], 11.); the line
    starts there and ends at the target. It was drawn from her end point to that point (fresh-user check:
    Guerriere's broadside pointed dead astern, into empty water, while the log had it hit Constitution)."""
    state = opening("sail_constitution_vs_guerriere_1812")
    guerriere, constitution = state.ship("guerriere"), state.ship("constitution")
    assert isinstance(guerriere.position, Point)
    fired_from = Point(x=guerriere.position.x - 30.0, y=guerriere.position.y + 20.0)  # earlier on her track
    events = (
        Event(
            kind="fire",
            text="",
            turn=1,
            ship_id="guerriere",
            target_id="constitution",
            outcome="hit",
            data={"points": 45, "at": {"x": fired_from.x, "y": fired_from.y}},
        ),
    )
    root = parse(render_map(state, viewer_side=None, events=events))
    shot = root.find(".//svg:path[@class='shot']", NS)
    assert shot is not None and shot.get("data-firer") == "guerriere" and shot.get("data-hits") == "45"
    m = re.fullmatch(r"M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)", shot.get("d", ""))
    assert m is not None
    x0, y0, x1, y1 = map(float, m.groups())
    fr = frame_for(state.map)
    assert (x0, y0) == pytest.approx(fr.xy(fired_from), abs=0.06)
    tx, ty = translate_of(markers(root)["constitution"])
    # it ends just short of Constitution (the burst's room), on the line from where she fired
    assert math.hypot(tx - x1, ty - y1) < 10
    assert math.atan2(ty - y0, tx - x0) == pytest.approx(math.atan2(y1 - y0, x1 - x0), abs=1e-3)
    assert constitution.id in {u.get("data-target") for u in root.iterfind(".//svg:use[@class='burst']", NS)}
