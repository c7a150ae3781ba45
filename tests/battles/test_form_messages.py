"""The umpire's campaign forms (scenario battle, settings, invitation) post and redirect: a refused form's
message names each field by the label the page shows and says what is wrong with it (found by QA: a battle
name over 120 characters said "Choose a scenario.", and the settings said "* deadline_hours")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from battles.models import Battle, Invitation
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _messages(game: Any, url_name: str, data: dict[str, Any]) -> tuple[Any, list[str]]:
    client = Client()
    client.force_login(game.umpire)
    response = client.post(reverse(url_name, args=[game.campaign.pk]), data)
    return response, [str(m) for m in get_messages(response.wsgi_request)]


def test_a_battle_name_too_long_says_so_not_choose_a_scenario(game: Any) -> None:
    response, messages = _messages(
        game, "battles:battle_scenario", {"scenario": "bismarck_last_battle_1941", "name": "W" * 121}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("battles:campaign", args=[game.campaign.pk])
    assert messages == [
        "The battle was not created. Name: Ensure this value has at most 120 characters (it has 121)."
    ]
    assert Battle.objects.filter(campaign=game.campaign).count() == 1


def test_an_unknown_scenario_is_named_in_the_message(game: Any) -> None:
    _response, messages = _messages(game, "battles:battle_scenario", {"scenario": "nosuch"})

    assert messages == [
        "The battle was not created. "
        "Scenario: Select a valid choice. nosuch is not one of the available choices."
    ]


def test_settings_errors_use_the_labels_of_the_form(game: Any) -> None:
    response, messages = _messages(
        game,
        "battles:campaign_settings",
        {
            "default_orders": "fire_nearest",
            "deadline_hours": "",
            "reminder_hours": "-1",
            "sink_when": "reaches",
        },
    )

    assert messages == [
        "The settings have errors. Hours to give orders in each phase: This field is required. "
        "Remind sides not ready this many hours before (0 = never): "
        "Ensure this value is greater than or equal to 0."
    ]
    # the campaign page again with the settings as typed (they were lost after a redirect), nothing saved
    assert response.status_code == 400
    assert re.search(r'name="reminder_hours"[^>]*value="-1"', response.content.decode())
    game.campaign.refresh_from_db()
    assert game.campaign.settings == {
        "default_orders": "fire_nearest",
        "deadline_hours": 48,
        "reminder_hours": 12,
    }


def test_invitation_errors_use_the_labels_of_the_form(game: Any) -> None:
    _response, messages = _messages(game, "battles:campaign_invite", {"role": "player", "days": "0"})

    assert messages == [
        "The invitation form has errors. Valid for (days): Ensure this value is greater than or equal to 1."
    ]
    assert not Invitation.objects.exists()
