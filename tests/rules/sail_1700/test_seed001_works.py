"""Seed 001, 23. Mortars against shore batteries and 24. Shore Batteries raised by a ship's working party.

Each test quotes the line of ``../shared/seeds/001_bb5ec6dbb79b532f.txt`` it plays (lines 309-341) and cites
the S-rulings (``../shared/rulings.md``) and NW-SAIL-23 to NW-SAIL-26 (``docs/rulings.md``). Dice are
scripted; every scripted value must be used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import BattleState, ScriptedDice, ShipOrder
from rules.model import JSON, Conditions, Event, MapSpec, Point, ShipState, SideInfo, TerrainFeature
from rules.registry import get_ruleset
from rules.rulesets.sail_1700 import core as C
from rules.rulesets.sail_1700 import ships as S
from rules.serial import from_json, to_json
from tests.rules.sail_1700.sail_helpers import ship

RS = get_ruleset("sail_1700")

FRIGATE_GB: dict[str, JSON] = {"nation": "Britain", "rate": "5th", "guns": 38, "points": 280}
SEVENTY_FOUR_FR: dict[str, JSON] = {"nation": "France", "rate": "3rd", "guns": 74, "points": 700}
BOMB_GB: dict[str, JSON] = {
    "nation": "Britain",
    "rate": "unrated",
    "type": "Bomb",
    "guns": 4,
    "mortars": 2,
    "points": 70,
}
BOMB_US: dict[str, JSON] = {  # line 398: 'Bomb 12 (plus 1 mortar) 80'
    "nation": "USA",
    "rate": "unrated",
    "type": "Bomb",
    "guns": 12,
    "mortars": 1,
    "points": 80,
}

# An island: dry land (a shoal of depth 0) 100 mm about (1000, 500); its shore nearest (1000, 640) is
# (1000, 600).
ISLAND = TerrainFeature(kind="shoal", position=Point(x=1000, y=500), props={"depth": 0, "radius": 100})


def battle(*ships: ShipState, terrain: tuple[TerrainFeature, ...] = (), wind: float = 90.0) -> BattleState:
    """Return a state after set-up (initiative a then b, weather number 44: clear, moderate; no dice)."""
    st = BattleState(
        ruleset="sail_1700",
        map=MapSpec(geometry="table_mm", width=2400, height=1800),
        sides=(SideInfo(key="a", name="A"), SideInfo(key="b", name="B")),
        ships=ships,
        conditions=Conditions(wind_from=wind, extra={"weather_number": 44}),
        terrain=terrain,
        initiative=("a", "b"),
    )
    dice = ScriptedDice([])
    state, _ = RS.setup(st, dice)
    assert dice.rolls == []
    return state


def play(
    state: BattleState, orders: dict[str, dict[str, JSON]], dice: list[int], *, turn: int, phase: int = 1
) -> tuple[BattleState, list[Event]]:
    """Resolve one phase (default: side b's, phase 1, so no wind change at the turn's start)."""
    d = ScriptedDice(dice)
    res = RS.resolve_phase(
        replace(state, turn=turn, phase=phase),
        {k: ShipOrder(ship_id=k, data=v) for k, v in orders.items()},
        d,
    )
    assert d.remaining == 0, f"{d.remaining} scripted dice unused"
    return res.state, list(res.events)


def errs(state: BattleState, sid: str, data: dict[str, JSON]) -> dict[str, list[str]]:
    return RS.check_order(state, state.ship(sid), ShipOrder(ship_id=sid, data=data))


def works(state: BattleState, sid: str = "f") -> dict[str, JSON]:
    site = S.works_of(state, sid)
    assert site is not None
    return site.props


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def anchored_frigate(**sheet: Any) -> BattleState:
    """Side b's frigate at anchor 40 mm off the island; a French 74 far off (side a)."""
    return battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 2200, 1600),
        ship("f", "b", FRIGATE_GB, 1000, 640, anchored=True, **sheet),
        terrain=(ISLAND,),
    )


def site(**props: JSON) -> TerrainFeature:
    """A battery the frigate's party is raising, as the rules leave it, with ``props`` overridden."""
    base: dict[str, JSON] = {
        "id": "works-f",
        "name": "F's battery",
        "side": "b",
        "nation": "Britain",
        "grade": "average",
        "guns": 0,
        "construction": "open",
        "facing": 180.0,
        "points": 0,
        "ready_turn": 1,
        "garrison": 0,
        "under_construction": True,
        "builder": "f",
        "party": 20,
        "task": "prepare",
        "positions": 0,
        "earth_mm": 0,
        "gun_landed": False,
        "progress": {"prepare": 0, "gun": 0, "earthworks": 0},
    }
    base.update(props)
    return TerrainFeature(kind="battery", position=Point(x=1000, y=600), props=base)


def with_site(**props: JSON) -> BattleState:
    st = anchored_frigate()
    return replace(st, terrain=(*st.terrain, site(**props)))


# --- 24. line 337: the men-moves arithmetic ----------------------------------------------------------------


@pytest.mark.parametrize(("task", "men_moves"), [("prepare", 200), ("gun", 75), ("earthworks", 100)])
def test_024_works_men_moves(task: str, men_moves: int) -> None:
    """Line 337: 'It takes 20 men ten moves to prepare one gun position and fifteen men five moves to position
    one gun. To construct two millimetres of earthworks takes ten men ten moves.' (NW-SAIL-23: men x moves)"""
    assert C.works_men_moves(task) == men_moves


@pytest.mark.parametrize(
    ("task", "men", "units", "moves"),
    [
        ("prepare", 20, 1, 10),  # the text: 20 men ten moves
        ("prepare", 10, 1, 20),  # NW-SAIL-23: half the men, twice the moves
        ("prepare", 40, 1, 5),
        ("prepare", 30, 1, 7),  # 200 / 30 = 6.67: seven moves
        ("gun", 15, 1, 5),  # the text: fifteen men five moves
        ("gun", 15, 2, 10),
        ("earthworks", 10, 1, 10),  # the text: ten men ten moves for 2 mm
        ("earthworks", 10, 2, 20),  # 4 mm
    ],
)
def test_024_works_moves_needed_NW_SAIL_23(task: str, men: int, units: int, moves: int) -> None:
    """Line 337 read as men-moves (NW-SAIL-23)."""
    assert C.works_moves_needed(task, men, units) == moves


def test_024_works_limits_NW_SAIL_23_25() -> None:
    """NW-SAIL-23: 20% of the starting points stay aboard (rounded up); NW-SAIL-25: six men a gun (24.)."""
    assert C.works_party_max(280, 280) == 224  # 280 - 56
    assert C.works_party_max(70, 70) == 56  # 70 - 14
    assert C.works_party_max(60, 280) == 4 and C.works_party_max(50, 280) == 0
    assert (C.manned_guns(4, 24), C.manned_guns(4, 23), C.manned_guns(4, 100)) == (4, 3, 4)
    assert (C.works_section_points(False), C.works_section_points(True)) == (10, 30)
    with pytest.raises(ValueError):
        C.works_moves_needed("prepare", 0)


def test_tables_and_describe_list_the_works() -> None:
    """``python -m rules tables sail_1700`` / ``describe`` list the shore works and the new order fields."""
    t = RS.tables()["shore_works"]
    assert t["tasks"]["prepare"] == {
        "works": "prepare_gun_position",
        "men": 20,
        "moves": 10,  # type: ignore
        "men_moves": 200,
    }
    assert t["tasks"]["gun"]["men_moves"] == 75 and t["tasks"]["earthworks"]["men_moves"] == 100  # type: ignore
    assert t["landing_reach_mm"] == 50.0  # type: ignore[index]
    doc = RS.describe()
    works_type = next(o for o in doc["order_types"] if o["key"] == "works")  # type: ignore[union-attr,index]
    assert [f["name"] for f in works_type["fields"]] == [  # type: ignore[index]
        "land_party",
        "works_task",
        "works_facing",
        "works_recall",
    ]


def test_nearest_shore() -> None:
    """Dry land is a shoal of depth 0 (A3, docs/map.md); the landing point is its edge nearest the ship."""
    assert S.nearest_shore((ISLAND,), Point(x=1000, y=640)) == Point(x=1000, y=600)
    square = TerrainFeature(
        kind="shoal",
        position=Point(x=0, y=0),
        props={"depth": 0, "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]]},
    )
    assert S.nearest_shore((square,), Point(x=130, y=50)) == Point(x=100, y=50)
    wet = TerrainFeature(kind="shoal", position=Point(x=1000, y=500), props={"depth": 2, "radius": 100})
    assert S.nearest_shore((wet,), Point(x=1000, y=640)) is None


# --- 24. played: landing, preparing a position, positioning a gun, earthworks -------------------------------


def test_024_land_party_and_prepare_a_position_20_men_10_moves() -> None:
    """Line 337: '20 men ten moves to prepare one gun position' (NW-SAIL-23: landing takes the move, work
    starts the next; S41: the men are crew/damage points)."""
    st = anchored_frigate()
    st, ev = play(st, {"f": {"land_party": 20}}, [], turn=1)
    landed = of_kind(ev, "works")[0]
    assert landed.outcome == "landed" and landed.data["points"] == 260
    assert (
        "280 - 20 = 260 points left aboard; 20 men ashore, to prepare a gun position from next move"
        in landed.text
    )
    assert st.ship("f").sheet["points"] == 260
    bat = S.works_of(st, "f")
    assert bat is not None and bat.kind == "battery" and bat.position == Point(x=1000, y=600)
    assert bat.props["facing"] == 180.0  # toward the ship, seaward (the table's y grows southward)
    p = bat.props
    assert (p["party"], p["positions"], p["guns"], p["points"]) == (20, 0, 0, 0)
    for turn in range(2, 11):  # nine working moves: 180 men-moves
        st, ev = play(st, {"f": {}}, [], turn=turn)
    assert works(st)["progress"] == {"prepare": 180, "gun": 0, "earthworks": 0}
    assert works(st)["positions"] == 0
    assert of_kind(ev, "works")[0].text == (
        "F's working party: 20 men x 1 move prepare a gun position: 160 + 20 = 180 men-moves of 200 a unit "
        "(20 men x 10 moves, 24., NW-SAIL-23); 180 of 200 done."
    )
    st, ev = play(st, {"f": {}}, [], turn=11)  # the tenth
    done = of_kind(ev, "works")[0]
    assert done.outcome == "done" and done.text == (
        "F's working party: 20 men x 1 move prepare a gun position: 180 + 20 = 200 men-moves of 200 a unit "
        "(20 men x 10 moves, 24., NW-SAIL-23); gun position 1 prepared."
    )
    assert works(st)["positions"] == 1 and works(st)["progress"] == {"prepare": 0, "gun": 0, "earthworks": 0}


def test_024_ten_men_need_twenty_moves_NW_SAIL_23() -> None:
    """NW-SAIL-23: work is men-moves, so ten men prepare a position in twenty moves."""
    st = with_site(party=10)
    for turn in range(1, 20):
        st, _ = play(st, {"f": {}}, [], turn=turn)
    assert works(st)["positions"] == 0 and works(st)["progress"]["prepare"] == 190  # type: ignore[index]
    st, _ = play(st, {"f": {}}, [], turn=20)
    assert works(st)["positions"] == 1


def test_024_position_a_gun_15_men_5_moves() -> None:
    """Line 337: 'fifteen men five moves to position one gun'; the gun comes out of the ship (the side with
    more guns, starboard on a tie) when the work on it starts; an open 2 mm section is 10 points (line
    335)."""
    st = with_site(party=15, positions=1)
    st, ev = play(st, {"f": {"works_task": "gun"}}, [], turn=1)
    assert st.ship("f").sheet["guns"] == {"starboard": 18, "port": 19}
    assert works(st)["gun_landed"] is True and works(st)["task"] == "gun"
    text = of_kind(ev, "works")[0].text
    assert "a starboard gun is hoisted out and landed (38 - 1 = 37 guns aboard)" in text
    for turn in range(2, 5):
        st, _ = play(st, {"f": {}}, [], turn=turn)
    assert works(st)["guns"] == 0 and works(st)["progress"]["gun"] == 60  # type: ignore[index]
    st, ev = play(st, {"f": {}}, [], turn=5)
    text = of_kind(ev, "works")[0].text
    assert "60 + 15 = 75 men-moves of 75 a unit (15 men x 5 moves" in text
    assert "gun 1 in position, open: 0 + 10 = 10 points; the battery may fire from next move (24.)" in text
    p = works(st)
    assert (p["guns"], p["points"], p["gun_landed"], p["construction"], p["ready_turn"]) == (
        1,
        10,
        False,
        "open",
        6,
    )
    assert st.ship("f").sheet["guns"] == {"starboard": 18, "port": 19}  # still 37: one gun, landed once
    # no free position now: the next move's gun work is refused by the rules and idles in play
    assert errs(st, "f", {"works_task": "gun"}) == {
        "works_task": [
            "No prepared gun position is free (1 prepared, 1 guns): "
            "prepare one first (20 men ten moves, 24.)."
        ]
    }
    st, ev = play(st, {"f": {}}, [], turn=6)
    assert (
        of_kind(ev, "works")[0].outcome == "idle"
        and "no prepared gun position is free" in of_kind(ev, "works")[0].text
    )


def test_024_earthworks_10_men_10_moves_make_a_section_earth() -> None:
    """Line 337: 'To construct two millimetres of earthworks takes ten men ten moves'; line 335: a 2 mm
    section is 10 points open, 30 earth."""
    st = with_site(party=10, positions=1, guns=1, points=10, task="earthworks")
    for turn in range(1, 10):
        st, _ = play(st, {"f": {}}, [], turn=turn)
    assert works(st)["earth_mm"] == 0 and works(st)["progress"]["earthworks"] == 90  # type: ignore[index]
    st, ev = play(st, {"f": {}}, [], turn=10)
    assert (
        "earthworks raised to 2 mm: gun 1's section is now earth, 10 + 20 = 30 points"
        in of_kind(ev, "works")[0].text
    )
    p = works(st)
    assert (p["earth_mm"], p["points"], p["construction"]) == (2, 30, "earth")
    assert errs(st, "f", {"works_task": "earthworks"}) == {
        "works_task": ["Earthworks are raised along prepared gun positions: 1 prepared, 2 mm raised (24.)."]
    }


def test_024_gun_behind_earthworks_is_30_points_and_surplus_carries() -> None:
    """Line 335: 30 points a section if earth. A big party finishes more than one unit a move: 150 men put
    two guns in position in one move (2 x 75 men-moves), each landed from the ship in turn."""
    st = with_site(party=150, positions=2, earth_mm=2, task="gun")
    st, ev = play(st, {"f": {}}, [], turn=1)
    text = of_kind(ev, "works")[0].text
    assert "gun 1 in position, behind earthworks: 0 + 30 = 30 points" in text
    assert "gun 2 in position, open: 30 + 10 = 40 points" in text
    assert st.ship("f").sheet["guns"] == {"starboard": 18, "port": 18}
    p = works(st)
    assert (p["guns"], p["points"], p["construction"], p["progress"]) == (
        2,
        40,
        "open",
        {"prepare": 0, "gun": 0, "earthworks": 0},
    )


def test_024_raised_battery_fires_with_the_men_to_serve_it_NW_SAIL_25() -> None:
    """Lines 335-341: the battery fires per 24. (+1 land based, 70-degree arc); NW-SAIL-25: its party serves
    six men a gun (24.: 'six men per gun')."""
    bat = site(guns=4, points=40, positions=4, party=12, facing=180.0, ready_turn=2, task="prepare")
    st = battle(
        ship("fr", "a", SEVENTY_FOUR_FR, 1000, 750, heading=90.0),
        ship("f", "b", FRIGATE_GB, 1000, 640, anchored=True),
        terrain=(ISLAND, bat),
    )
    st, ev = play(st, {"f": {}}, [3, 3, 20], turn=2)  # two average dice, one damage-chart roll (S24)
    fire = next(e for e in ev if e.kind == "fire" and e.data.get("battery") == "works-f")
    # 150 mm = medium; +1 land based, +1 British, +1 first time fired, + 3 + 3 = 9; 2 guns served of 4:
    # the chart's 2-gun row at 9 gives 2 points (28.)
    assert fire.data["ff"] == 9 and "12 men serve 2 of 4 guns at six a gun" in fire.text
    assert fire.text.startswith("Battery F's battery fires 2 guns (12 men serve 2 of 4 guns")
    assert fire.data["points"] == 2 and st.ship("fr").sheet["points"] == 698
    assert works(st)["ready_turn"] == 4


# --- NW-SAIL-24: weighing anchor, cutting the cable, re-embarking, the party attacked ----------------------


def test_NW_SAIL_24_raise_anchor_refused_cut_leaves_party() -> None:
    """NW-SAIL-24: the party ashore must re-embark before the anchor is raised (five moves, 22.); cutting the
    cable (one move) leaves it ashore, idle, until the vessel anchors again within 50 mm."""
    st = with_site(party=20)
    assert errs(st, "f", {"anchor": "raise"}) == {
        "anchor": [
            "Your working party of 20 men is ashore: re-embark it before raising the anchor, "
            "or cut the cable "
            "and leave it (NW-SAIL-24)."
        ]
    }
    st, ev = play(st, {"f": {"anchor": "cut", "speed": 0.0}}, [], turn=1)
    assert st.ship("f").sheet["anchored"] is False
    idle = of_kind(ev, "works")[0]
    assert idle.outcome == "idle" and "cannot work: she does not lie at anchor within 50 mm" in idle.text
    assert works(st)["progress"]["prepare"] == 0 and works(st)["party"] == 20  # type: ignore[index]
    assert errs(st, "f", {"works_recall": True, "speed": 0.0}) == {
        "works_recall": ["The party re-embarks only with the vessel at anchor within 50 mm (NW-SAIL-24)."]
    }


def test_NW_SAIL_24_recall_returns_men_and_a_landed_gun() -> None:
    """NW-SAIL-24: re-embarking takes the move; the men return to the points (S41), a gun not yet in position
    goes back aboard; positioned guns stay in the battery."""
    st = anchored_frigate(points=200)
    st = replace(
        st, terrain=(*st.terrain, site(party=30, guns=1, points=10, positions=2, gun_landed=True, task="gun"))
    )
    st, ev = play(st, {"f": {"works_recall": True}}, [], turn=1)
    back = of_kind(ev, "works")[0]
    assert back.outcome == "recalled" and back.text == (
        "F re-embarks her working party of 30 men with the gun not yet in position: 200 + 30 = 230 points "
        "aboard (24., S41, NW-SAIL-24)."
    )
    # 19 + 19 aboard: the gun goes back to port (the side with fewer guns, port on a tie)
    assert st.ship("f").sheet["points"] == 230 and st.ship("f").sheet["guns"] == {"starboard": 19, "port": 20}
    p = works(st)
    assert (p["party"], p["guns"], p["gun_landed"]) == (0, 1, False)
    # with no party the battery's gun cannot be served (NW-SAIL-25) and no longer counts as a threat
    assert errs(st, "f", {"works_recall": True}) == {"works_recall": ["No working party ashore."]}


def test_NW_SAIL_24_mortar_hit_on_works_falls_on_the_party() -> None:
    """NW-SAIL-24 with 23./S38: a 50-point shell on a site with no gun yet kills 50 men of the party (S41: a
    man a point); the site is not silenced until it has had a gun."""
    st = battle(
        ship("b", "a", BOMB_US, 1000, 900, heading=90.0),
        ship("f", "b", FRIGATE_GB, 1000, 640, anchored=True),
        terrain=(ISLAND, site(party=60)),
    )
    assert errs(st, "b", {"speed": 0.0, "mortar_target": "works-f"}) == {}
    st2, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "works-f"}}, [50, 5], turn=1, phase=0)
    dmg = of_kind(ev, "battery_damage")[0]
    assert dmg.text == (
        "Battery F's battery loses 0 points and 0 gun(s); 50 - 0 = 50 points fall on the working party: "
        "50 men lost, 10 left (S41, NW-SAIL-24) (24., NW-SAIL-15)."
    )
    assert works(st2)["party"] == 10 and works(st2).get("silenced") is None
    # one open gun (10 points): the shell silences it and the other 40 points fall on the party
    st = replace(st, terrain=(ISLAND, site(party=60, guns=1, points=10, positions=1)))
    st3, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "works-f"}}, [50, 5], turn=1, phase=0)
    p = works(st3)
    assert (p["points"], p["guns"], p["silenced"], p["party"]) == (0, 1, True, 20)
    assert of_kind(ev, "battery_damage")[0].outcome == "silenced"
    _, ev = play(st3, {"f": {}}, [], turn=1)
    assert "is silenced: the party of 20 men can do no more work there" in of_kind(ev, "works")[0].text


# --- 23. mortars at a shore battery (NW-SAIL-26) ------------------------------------------------------------


def fort_battle(fort_y: float = 700.0, side: str = "b", **props: JSON) -> BattleState:
    fort = TerrainFeature(
        kind="battery",
        position=Point(x=1000, y=fort_y),
        props={
            "id": "fort",
            "name": "Fort",
            "side": side,
            "guns": 10,
            "construction": "stone",
            "facing": 0.0,
            "nation": "France",
            **props,
        },
    )
    return battle(
        ship("b", "a", BOMB_US, 1000, 1000, heading=90.0),
        ship("e", "b", SEVENTY_FOUR_FR, 2200, 1700),
        terrain=(fort,),
    )


def test_023_mortar_at_battery_on_target_hits_50_points_NW_SAIL_26() -> None:
    """Lines 311-331: ranging 41-100 'In target area'; spider 5 = the ranged point (S39); 'destructive value
    of 50' (S38) taken through the battery's points (24., NW-SAIL-15, NW-SAIL-26); four moves to load."""
    st = fort_battle()
    assert st.terrain[0].props["points"] == 400  # 10 guns stone: 10 x 40 (line 335)
    st2, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fort"}}, [50, 5], turn=1, phase=0)
    m = of_kind(ev, "mortar")[0]
    assert m.outcome == "hit" and m.target_id == "fort" and m.data["battery"] == "fort"
    assert m.text == (
        "B fires her mortar at battery Fort (ranging 50: on target); spider 5: the shell falls "
        "at (1000, 700) and hits battery Fort (23., S38, S39, NW-SAIL-26)."
    )
    assert st2.terrain[0].props["points"] == 350 and st2.terrain[0].props["guns"] == 10
    assert (
        of_kind(ev, "battery_damage")[0].text
        == "Battery Fort loses 50 points and 0 gun(s) (24., NW-SAIL-15)."
    )
    assert "damage_chart" not in [e.kind for e in ev]  # the damage chart is a ship's (NW-SAIL-15)
    sheet = st2.ship("b").sheet
    assert sheet["mortar_ranged_on"] == "fort" and sheet["mortar_ready_turn"] == 6
    # ranged in: the next shell needs only the spider (23.: 'need not be repeated')
    st3, ev = play(
        replace(st2, ships=tuple(replace(s, sheet={**s.sheet, "mortar_ready_turn": 6}) for s in st2.ships)),
        {"b": {"speed": 0.0, "mortar_target": "fort"}},
        [5],
        turn=6,
        phase=0,
    )
    assert "(ranged in)" in of_kind(ev, "mortar")[0].text and st3.terrain[0].props["points"] == 300


# The bomb at (1000, 1000) fires north at the fort at (1000, 700), 300 mm: y falls going over.
@pytest.mark.parametrize(
    ("dice", "outcome", "impact", "ranged"),
    [
        ([5, 2], "hit", (1000, 687), None),  # short 30 mm (10% of 300), spider 2 a step over (43.3): 13.3 on
        ([5, 5], "miss", (1000, 730), None),  # short 30 mm: beyond the 20 mm of NW-SAIL-9
        ([15, 8], "hit", (1000, 713), None),  # over 30 mm, spider 8 a step short: 13.3 mm on the near side
        ([25, 5], "miss", (970, 700), None),  # left 30 mm
        ([35, 4], "hit", (987, 700), None),  # right 30 mm, spider 4 a step left: 13.3 mm right of the fort
        ([50, 10], "dud", None, "fort"),  # in the target area; spider 0: 'the shell failed to explode'
    ],
)
def test_023_mortar_ranging_table_at_a_battery_S39(
    dice: list[int], outcome: str, impact: tuple[int, int] | None, ranged: str | None
) -> None:
    """Lines 317-325: 1-10 short, 11-20 over, 21-30 left, 31-40 right by 10% of the distance; 41-100 on
    target; line 329: the spider (S39: 3 x 3 grid 43.3 mm apart, 0 = dud)."""
    st = fort_battle()
    st2, ev = play(st, {"b": {"speed": 0.0, "mortar_target": "fort"}}, dice, turn=1, phase=0)
    m = of_kind(ev, "mortar")[0]
    assert m.outcome == outcome
    if impact is not None:
        assert (round(m.data["impact"]["x"]), round(m.data["impact"]["y"])) == impact  # type: ignore[index]
    assert st2.terrain[0].props["points"] == (350 if outcome == "hit" else 400)
    assert st2.ship("b").sheet["mortar_ranged_on"] == ranged  # ranged in only by 41-100


def test_023_mortar_target_validation_NW_SAIL_26() -> None:
    """23.: 'Minimum range is 100 mm - maximum range is 500 mm'; the target is an enemy vessel or battery."""
    assert errs(fort_battle(700.0), "b", {"speed": 0.0, "mortar_target": "fort"}) == {}
    assert errs(fort_battle(400.0), "b", {"speed": 0.0, "mortar_target": "fort"}) == {
        "mortar_target": ["Fort would be 600 mm away: 100-500 (23.)."]
    }
    assert errs(fort_battle(920.0), "b", {"speed": 0.0, "mortar_target": "fort"}) == {
        "mortar_target": ["Fort would be 80 mm away: 100-500 (23.)."]
    }
    assert errs(fort_battle(side="a"), "b", {"speed": 0.0, "mortar_target": "fort"}) == {
        "mortar_target": ["That battery is on your side."]
    }
    assert errs(fort_battle(silenced=True), "b", {"speed": 0.0, "mortar_target": "fort"}) == {
        "mortar_target": ["That battery is silenced."]
    }
    assert errs(fort_battle(), "b", {"speed": 0.0, "mortar_target": "zz"}) == {
        "mortar_target": ["No vessel or shore battery 'zz' in this battle."]
    }
    # what the order panel asks: validate_orders with each candidate (battles.order_forms.legal_candidates)
    st = fort_battle()
    ok = RS.validate_orders(st, "a", [ShipOrder(ship_id="b", data={"speed": 0.0, "mortar_target": "fort"})])
    assert not ok.invalid and not ok.illegal
    far = fort_battle(400.0)
    bad = RS.validate_orders(far, "a", [ShipOrder(ship_id="b", data={"speed": 0.0, "mortar_target": "fort"})])
    assert bad.illegal == {"b": {"mortar_target": ["Fort would be 600 mm away: 100-500 (23.)."]}}


# --- validation of the works order (NW-SAIL-23) -------------------------------------------------------------


def test_NW_SAIL_23_landing_validation() -> None:
    """NW-SAIL-23: at anchor (22.), boats (20.), within 50 mm of dry land, 20% of the starting points
    aboard."""
    st = anchored_frigate()
    assert errs(st, "f", {"land_party": 224, "works_task": "prepare"}) == {}
    assert errs(st, "f", {"land_party": 225}) == {
        "land_party": [
            "At most 224 men may land: 280 points aboard, and 20% of 280 stay aboard (NW-SAIL-23)."
        ]
    }
    assert errs(st, "f", {"land_party": 20, "anchor": "cut"}) == {
        "land_party": ["A working party lands only from a vessel lying at anchor (22., NW-SAIL-23)."]
    }
    assert errs(st, "f", {"land_party": 20, "works_recall": True}) == {
        "land_party": ["Land a party or re-embark it, not both."],
        "works_recall": ["No working party ashore."],
    }
    assert errs(st, "f", {"land_party": 20, "works_task": "gun"}) == {
        "works_task": [
            "No prepared gun position is free (0 prepared, 0 guns): "
            "prepare one first (20 men ten moves, 24.)."
        ]
    }
    assert errs(st, "f", {"works_task": "prepare"}) == {"works_task": ["No working party ashore or landing."]}
    assert errs(st, "f", {"works_facing": 90.0}) == {
        "works_facing": ["The battery's facing is set when the first party lands."]
    }
    sailing = battle(ship("f", "b", FRIGATE_GB, 1000, 640), terrain=(ISLAND,))
    assert errs(sailing, "f", {"land_party": 20, "speed": 0.0}) == {
        "land_party": ["A working party lands only from a vessel lying at anchor (22., NW-SAIL-23)."]
    }
    far = battle(ship("f", "b", FRIGATE_GB, 1000, 700, anchored=True), terrain=(ISLAND,))
    assert errs(far, "f", {"land_party": 20}) == {
        "land_party": ["The nearest dry land is 100 mm away: within 50 mm to land a party (NW-SAIL-23)."]
    }
    sea = battle(ship("f", "b", FRIGATE_GB, 1000, 640, anchored=True))
    assert errs(sea, "f", {"land_party": 20}) == {
        "land_party": ["There is no dry land (a shoal of depth 0) on this table (NW-SAIL-23)."]
    }
    boatless = anchored_frigate(boats=0)
    assert errs(boatless, "f", {"land_party": 20}) == {"land_party": ["No boats left to land a party (20.)."]}


def test_works_facing_and_state_round_trip() -> None:
    """The ordered facing is kept; the state with a works site round-trips through JSON; A7 default orders
    stay legal while a party is ashore."""
    st, _ = play(anchored_frigate(), {"f": {"land_party": 30, "works_facing": 200.0}}, [], turn=1)
    assert works(st)["facing"] == 200.0 and works(st)["task"] == "prepare"
    assert from_json(BattleState, to_json(st)) == st
    for policy in ("hold", "fire_nearest", "captain"):
        o = RS.default_order(st, st.ship("f"), policy)  # type: ignore[arg-type]
        assert RS.check_order(st, st.ship("f"), o) == {}


def test_024_work_leaves_the_input_state_unchanged_so_a_phase_replays_alike() -> None:
    """A resolution is a pure function of its state (issue 3; tasks safe to run twice): a party's work
    must not write its men-moves into the given state's battery, or a replay would count them twice."""
    st = with_site(party=20, progress={"prepare": 100, "gun": 0, "earthworks": 0})
    before = to_json(st)

    first, _ = play(st, {"f": {}}, [], turn=5)
    second, _ = play(st, {"f": {}}, [], turn=5)

    assert to_json(st) == before
    assert works(st)["progress"] == {"prepare": 100, "gun": 0, "earthworks": 0}
    assert (
        works(first)["progress"] == works(second)["progress"] == {"prepare": 120, "gun": 0, "earthworks": 0}
    )
