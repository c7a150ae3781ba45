"""NW-WW2-27: the umpire's edit of a ww2_jackson record sheet is refused when it holds what no sheet of hers
can (a fresh-user check saved ``fires: [{"x": 1}]``, which then burned, and ``preference: "nonsense"``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle, ShipEdit
from navalwar.errors import ApplicationError
from tests.factories import scenario_campaign
from tests.utils import battle_ship, sheet_edit, ship_edit_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign("denmark_strait_1941")


REFUSED = [
    pytest.param(
        "prinz_eugen",
        {"preference": "nonsense"},
        "sheet preference must be one of: keep_afloat, spare_main, spare_guns, spare_torpedoes "
        "(lines 139-141)",
        id="preference",
    ),
    pytest.param(
        "prinz_eugen",
        {"guns_lost": ["a"]},
        "sheet guns_lost must be a list of box numbers (whole numbers)",
        id="guns-lost-text",
    ),
    pytest.param(
        "prinz_eugen",
        {"guns_lost": [10]},
        "sheet guns_lost: 10 is not one of her gun boxes (turrets and mounts) (0 to 9)",
        id="guns-lost-no-such-box",
    ),
    pytest.param(
        "prince_of_wales",
        {"torpedo_lost": [0]},
        "sheet torpedo_lost: she has no torpedo mounts",
        id="torpedo-lost-without-tubes",
    ),
    pytest.param(
        "prinz_eugen",
        {"hits": [1, 2]},
        "sheet hits must be a list of objects of turn (a turn), by (the firer), calibre (inches), "
        "location (the box area hit), penetrated (true or false)",
        id="hits",
    ),
    pytest.param(
        "prinz_eugen",
        {"last_targets": {"main": "nosuch"}},
        "sheet last_targets: main names no ship of the battle",
        id="last-targets",
    ),
    pytest.param(
        "prinz_eugen",
        {"loaded": ["a", None]},
        "sheet loaded must be a list of torpedoes in the tubes, a whole number a mount",
        id="loaded-text",
    ),
    pytest.param(
        "prinz_eugen",
        {"loaded": [3, 3, 3, 4]},
        "sheet loaded: mount 3 (starboard mount 2) holds 0 to 3, not 4",
        id="loaded-more-than-tubes",
    ),
    pytest.param(
        "prinz_eugen",
        {"fires": [{"x": 1}]},
        "sheet fires: each entry has intensity (1 or 2), since (a turn), not x",
        id="fires",
    ),
    pytest.param(
        "prinz_eugen",
        {"fires": [{"intensity": 3, "since": 1}]},
        "sheet fires: a fire has intensity 1 or 2 and the turn it began (since)",
        id="fire-intensity-3",
    ),
    pytest.param(
        "prinz_eugen",
        {"conditions": {"on_fire": {"since": 1, "until": None, "fixed": False}}},
        "sheet conditions: 'on_fire' is not a critical",
        id="condition-unknown",
    ),
    pytest.param(
        "prinz_eugen",
        {"searchlight": "nosuch"},
        "sheet searchlight must be a ship of the battle, or empty for none",
        id="searchlight",
    ),
    pytest.param("prinz_eugen", {"half": 2}, "sheet half must be 0 or 1", id="half"),
]


@pytest.mark.parametrize(("key", "sheet", "message"), REFUSED)
def test_a_sheet_no_ship_of_hers_could_have_is_refused_and_nothing_saved(
    game: Any, key: str, sheet: dict[str, Any], message: str
) -> None:
    before = Battle.objects.get(pk=game.battle.pk).state
    edits = ShipEdit.objects.count()

    with pytest.raises(ApplicationError) as refused:
        sheet_edit(game, key, sheet)

    assert refused.value.code == "bad_edit"
    assert message in refused.value.message
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == edits


def test_a_sheet_of_her_shape_is_saved(game: Any) -> None:
    """What the engine itself writes passes: a fire, a flood, a critical, a turret lost, tubes fired."""
    sheet = {
        "preference": "spare_guns",
        "guns_lost": [0, 9],
        "torpedo_lost": [3],
        "loaded": [3, 0, 3, 3],
        "fires": [{"intensity": 2, "since": 1}],
        "floods": [
            {"kind": "torpedo", "since": 1, "per_turn": 1, "per_turn_fast": 1, "fail": "", "fail_on": 0}
        ],
        "conditions": {"steering": {"since": 1, "until": None, "fixed": True}},
        "last_targets": {"main": "hood"},
        "searchlight": "",
    }

    sheet_edit(game, "prinz_eugen", sheet)

    after = battle_ship(game, "prinz_eugen").sheet
    assert {k: after[k] for k in sheet} == sheet


def test_the_page_says_why_with_a_400(game: Any) -> None:
    """The ship page's form: the refusal in words, status 400, the ship as she was."""
    client = Client(raise_request_exception=False)
    client.force_login(game.umpire)
    before = battle_ship(game, "prinz_eugen")
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "prinz_eugen"])

    response = client.post(url, ship_edit_post(game.battle, "prinz_eugen", sheet_preference="nonsense"))

    assert response.status_code == 400
    assert "preference must be one of: keep_afloat, spare_main" in response.content.decode()
    assert battle_ship(game, "prinz_eugen") == before


def test_the_status_sheet_names_the_boxes_lost_and_the_tubes_loaded(game: Any) -> None:
    """``guns_lost: [0, 7]`` is two boxes of her class, not "7" guns (fresh-user check): the status sheet
    names them, her torpedo mounts lost and the torpedoes in each mount (RuleSet.sheet_texts)."""
    sheet_edit(game, "prinz_eugen", {"guns_lost": [0, 7], "torpedo_lost": [1], "loaded": [3, 0, 3, 2]})
    client = Client()
    client.force_login(game.umpire)

    html = client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "prinz_eugen"])).content.decode()

    assert (
        '<tr><th scope="row">Guns lost</th><td>0: A turret (2 x 8in), 7: starboard 10.5cm HA 1 (2 x 4.1in)'
        "</td>" in html
    )
    assert '<tr><th scope="row">Torpedo lost</th><td>1: port mount 2</td>' in html
    assert (
        '<tr><th scope="row">Loaded</th><td>port mount 1: 3 of 3, port mount 2: 0 of 3, starboard mount 1: 3 '
        "of 3, starboard mount 2: 2 of 3</td>" in html
    )


def test_the_hits_scored_on_her_read_as_the_log_tells_them(game: Any) -> None:
    """The hits on her sheet (what an enemy side knows of her, A2) read as words, the firer named: they
    showed as "by hood, calibre 15, location above, penetrated yes, turn 2" (fresh-user check)."""
    hits = [
        {"turn": 2, "by": "hood", "calibre": 15.0, "location": "above", "penetrated": True},
        {"turn": 3, "by": "prince_of_wales", "calibre": 14.0, "location": "main", "penetrated": False},
    ]
    sheet_edit(game, "bismarck", {"hits": hits})
    client = Client()
    client.force_login(game.umpire)

    html = client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "bismarck"])).content.decode()

    assert (
        '<tr><th scope="row">Hits</th><td>turn 2: 15-inch from Hood, above water, penetrated; turn 3: '
        "14-inch from Prince of Wales, main, no damage (W29)</td>" in html
    )


def test_NW_WW2_28_a_max_speed_typed_is_refused_unless_her_boxes_give_it(game: Any) -> None:
    """A fresh-user check set Gneisenau's max speed to 18: her player's panel then said "0 to 18 knots" while
    the rules (W38: from her engine and underwater boxes) let her order 25 and saved it. The sheet's max speed
    is the rules' to work out: a value of the umpire's own is refused, naming what her boxes give."""
    hood = battle_ship(game, "hood")
    top = hood.sheet["max_speed"]
    before = Battle.objects.get(pk=game.battle.pk).state

    with pytest.raises(ApplicationError) as refused:
        sheet_edit(game, "hood", {"max_speed": 18.0})

    assert refused.value.code == "bad_edit"
    assert (
        f"sheet max_speed (18) must be what her boxes and conditions give now, {top:g} knots (W38): mark her "
        "engine or underwater boxes, or give her a condition, to slow her"
    ) in refused.value.message
    assert Battle.objects.get(pk=game.battle.pk).state == before and not ShipEdit.objects.exists()


def test_NW_WW2_28_marking_engine_boxes_slows_her_at_once(game: Any) -> None:
    """Two of Hood's four engine boxes marked (W38: speed x intact engines / engines): her sheet's max speed
    halves at once, as the rules will cap her orders, and the edit's log shows it; typed with the boxes, the
    same number is saved."""
    hood = battle_ship(game, "hood")
    top = hood.sheet["max_speed"]

    edit = sheet_edit(game, "hood", {"marked": {**hood.sheet["marked"], "engine": 2}})

    assert battle_ship(game, "hood").sheet["max_speed"] == top / 2 == 13.5
    assert (edit.before["sheet"]["max_speed"], edit.after["sheet"]["max_speed"]) == (27.0, 13.5)
