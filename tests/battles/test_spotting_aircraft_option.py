"""NW-CAMP-10: ww2_jackson's ``spotting_aircraft`` option (W01, W10: a boolean input per side, written as the
comma-separated keys of the sides with aircraft aloft) names only the campaign's sides; a battle keeps those
of its own sides."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from navalwar.errors import ApplicationError
from tests.factories import StaffUserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

SIDES = [{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}]


def test_an_unknown_side_is_refused_when_the_campaign_is_created() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.campaign_create(
            name="Denmark Strait",
            ruleset="ww2_jackson",
            created_by=StaffUserFactory(),
            settings={"spotting_aircraft": "britain, germny, usa"},
            sides=SIDES,
        )
    assert exc.value.code == "bad_settings"
    assert exc.value.fields == {
        "spotting_aircraft": ["Unknown side key(s): germny, usa. The sides are: britain, germany."]
    }


def test_the_umpires_settings_form_names_the_unknown_side() -> None:
    game = scenario_campaign("denmark_strait_1941")
    client = Client()
    client.force_login(game.umpire)
    post = {"default_orders": "hold", "deadline_hours": 48, "reminder_hours": 12}
    post |= {"carrier_table": "capital", "leave_table": "withdraws", "spotting_aircraft": "brtain"}
    response = client.post(reverse("battles:campaign_settings", args=[game.campaign.pk]), post)
    # the campaign page again, the settings as typed and the error under the field (400), nothing saved
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="brtain"' in html
    assert "Unknown side key(s): brtain. The sides are: britain, germany." in html
    # the keys are said at the field: no other page shows them (a fresh-user check typed "Royal Navy")
    assert (
        "Comma-separated side keys (W01: a boolean input). The side keys of this campaign: britain (Royal "
        "Navy), germany (Kriegsmarine)."
    ) in html
    game.campaign.refresh_from_db()
    assert game.campaign.settings["default_orders"] == "fire_nearest"  # nothing saved

    response = client.post(
        reverse("battles:campaign_settings", args=[game.campaign.pk]), post | {"spotting_aircraft": "britain"}
    )
    game.campaign.refresh_from_db()
    assert game.campaign.settings["spotting_aircraft"] == "britain"


def test_the_side_keys_said_at_the_field_are_escaped() -> None:
    """A side's name is the umpire's text, and Django shows a help text as it is."""
    game = scenario_campaign("denmark_strait_1941")
    game.side("britain").__class__.objects.filter(pk=game.side("britain").pk).update(name="<b>RN</b>")
    client = Client()
    client.force_login(game.umpire)

    html = client.get(reverse("battles:campaign", args=[game.campaign.pk])).content.decode()

    assert "britain (&lt;b&gt;RN&lt;/b&gt;)" in html and "<b>RN</b>" not in html


def test_a_battle_keeps_the_sides_it_has() -> None:
    """A campaign of three sides may give the third aircraft; a battle of the other two carries only theirs,
    so its state passes rules.check_state (the umpire's edit of a ship checks the state)."""
    campaign = services.campaign_create(
        name="Atlantic",
        ruleset="ww2_jackson",
        created_by=StaffUserFactory(),
        settings={"spotting_aircraft": "britain,usa"},
        sides=[*SIDES, {"key": "usa", "name": "US Navy"}],
    )
    battle = services.battle_create_from_scenario(
        campaign=campaign, scenario_key="denmark_strait_1941", user=campaign.created_by
    )
    state = rules.from_json(rules.BattleState, battle.state)
    assert state.options["spotting_aircraft"] == "britain"
    assert rules.check_state(state) == []
