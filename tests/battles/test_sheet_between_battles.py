"""NW-CAMP-17: a campaign ship carries her damage to her next battle, not her last battle's state.

The fresh-user repro (ww2_jackson, Denmark Strait): the umpire edits Hood as having fired, her searchlight on
and her steering damaged until turn 2; the battle ends; in the next battle, at night, the German player saw
her at turn 1 as "fired this turn, searchlight on" and her steering damage lasted until turn 2 of the new
battle. And a scenario rematch merged the carried sheet after the set-up, so a damaged Hood began at 27 knots
with a top speed of 20.25.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import selectors, services
from battles.models import CampaignShip
from navalwar.errors import ApplicationError
from rules.model import Conditions, Point
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIO = "denmark_strait_1941"
BATTLE_ONLY = {
    "fired": True,
    "searchlight": "bismarck",
    "star_shell": "bismarck",
    "turned": 45.0,
    "helm": {"course": 90.0, "speed": 20.0},
    "last_targets": {"main": "bismarck"},
    "last_marks": [{"area": "engine", "index": None}],
    "fires": [{"intensity": 2, "since": 3}],
    "conditions": {
        "steering": {"since": 1, "until": 2, "fixed": False},
        "list": {"since": 2, "until": None, "fixed": True},
    },
}


@pytest.fixture
def game() -> Any:
    return scenario_campaign(SCENARIO)


def _hood_after_battle(game: Any) -> CampaignShip:
    """End the first battle with Hood damaged (two engine boxes) and in the middle of things."""
    sheet = dict(BATTLE_ONLY)
    sheet["marked"] = {**game.battle.state["ships"][0]["sheet"]["marked"], "engine": 2}
    services.battle_ship_edit(
        battle=game.battle, ship_key="hood", user=game.umpire, changes={"sheet": sheet}, reason="Repro"
    )
    services.battle_end(battle=game.battle, user=game.umpire)
    return CampaignShip.objects.get(campaign=game.campaign, ship__name="Hood")


def _ship(battle: Any, name: str) -> dict[str, Any]:
    return next(s for s in battle.state["ships"] if s["name"] == name)


def test_a_new_battle_starts_hood_with_her_damage_not_her_last_battles_state(game: Any) -> None:
    hood = _hood_after_battle(game)
    bismarck = CampaignShip.objects.get(campaign=game.campaign, ship__name="Bismarck")
    assert hood.sheet["searchlight"] == "bismarck"  # the campaign keeps her sheet as the battle left it

    battle = services.battle_create(
        campaign=game.campaign,
        user=game.umpire,
        name="Night action",
        placements=[
            services.Placement(campaign_ship=hood, position=Point(x=20, y=20), heading=90, speed=27),
            services.Placement(campaign_ship=bismarck, position=Point(x=30, y=20), heading=270, speed=20),
        ],
        conditions=Conditions(night=True),
    )

    ship = _ship(battle, "Hood")
    sheet = ship["sheet"]
    assert (sheet["fired"], sheet["searchlight"], sheet["star_shell"], sheet["turned"]) == (
        False,
        "",
        "",
        0.0,
    )
    assert (sheet["helm"], sheet["last_targets"], sheet["last_marks"], sheet["fires"]) == (None, {}, [], [])
    # steering "until turn 2" of the old battle is over; a list "for the rest of the game" is damage kept
    assert sheet["conditions"] == {"list": {"since": 0, "until": None, "fixed": True}}
    assert sheet["marked"]["engine"] == 2
    assert not {"fired", "searchlight", "on_fire"} & set(ship["flags"])
    # what the German player sees of her at turn 1
    viewer = selectors.viewer_get(user=game.players["germany"], campaign_id=game.campaign.pk)
    seen = [s for s in selectors.state_for(battle=battle, viewer=viewer).ships if s.name == "Hood"]
    assert all(not {"fired", "searchlight"} & set(s.flags) for s in seen)


def test_a_rematch_starts_a_damaged_ship_no_faster_than_she_can_make(game: Any) -> None:
    _hood_after_battle(game)

    rematch = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
    )

    ship = _ship(rematch, "Hood")
    assert ship["sheet"]["max_speed"] < 27
    assert ship["speed"] == ship["sheet"]["max_speed"]
    assert (ship["sheet"]["searchlight"], ship["sheet"]["fired"], ship["sheet"]["marked"]["engine"]) == (
        "",
        False,
        2,
    )
    assert "fired" not in ship["flags"]


# --- NW-CAMP-05: the repair form shows and requires what she carries ----------------------------------------


def _repair_page_sheet(game: Any, hood: CampaignShip) -> dict[str, Any]:
    client = Client()
    client.force_login(game.umpire)
    response = client.get(reverse("battles:campaign_ship", args=[game.campaign.pk, hood.pk]))
    assert response.status_code == 200
    shown: dict[str, Any] = json.loads(response.context["form"].initial["sheet"])
    return shown


def test_the_repair_form_shows_what_she_carries_not_her_last_battles_state(game: Any) -> None:
    hood = _hood_after_battle(game)

    shown = _repair_page_sheet(game, hood)

    assert shown == services.carried_sheet(ruleset="ww2_jackson", sheet=hood.sheet) | {
        "conditions": hood.sheet["conditions"]  # as stored: the next battle keeps only the lasting ones
    }
    assert shown["marked"]["engine"] == 2 and shown["conditions"] == BATTLE_ONLY["conditions"]
    assert not {"fired", "searchlight", "star_shell", "turned", "helm", "last_targets", "fires"} & set(shown)


def _carried_entries(hood: CampaignShip) -> dict[str, Any]:
    """Hood's stored entries that her next battle carries (not what the page shows: that is under test)."""
    return {k: hood.sheet[k] for k in services.carried_sheet(ruleset="ww2_jackson", sheet=hood.sheet)}


def test_a_repair_of_what_she_carries_keeps_her_last_battles_state_as_stored(game: Any) -> None:
    hood = _hood_after_battle(game)
    shown = _carried_entries(hood)
    before = dict(hood.sheet)
    client = Client()
    client.force_login(game.umpire)

    response = client.post(
        reverse("battles:campaign_ship", args=[game.campaign.pk, hood.pk]),
        {
            "action": "repair",
            "status": "active",
            "sheet": json.dumps({**shown, "marked": {**shown["marked"], "engine": 0}}),
            "reason": "Rosyth",
        },
    )

    assert response.status_code == 302
    hood.refresh_from_db()
    assert hood.sheet == {**before, "marked": {**before["marked"], "engine": 0}}
    assert (hood.sheet["searchlight"], hood.sheet["helm"]) == ("bismarck", BATTLE_ONLY["helm"])


def test_a_repair_still_requires_every_entry_she_carries(game: Any) -> None:
    hood = _hood_after_battle(game)
    shown = _carried_entries(hood)
    del shown["marked"]

    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(campaign_ship=hood, user=game.umpire, reason="Refit", sheet=shown)

    assert exc.value.code == "bad_sheet"
    assert "The sheet lacks marked" in exc.value.message and "searchlight" not in exc.value.message
