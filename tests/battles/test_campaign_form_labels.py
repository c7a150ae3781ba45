"""The campaign pages' forms speak to the umpire: the scenario choice offers only the scenarios whose sides
the campaign has (the others named with the sides they lack), side names rather than keys in its messages;
the new campaign's sides box says what it does with what was typed; default orders have labels."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.forms import ScenarioBattleForm
from battles.models import Battle
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db

GUADALCANAL_MISSING = (
    "Second Naval Battle of Guadalcanal, night of 14-15 November 1942: the campaign has no side US Navy "
    '(TF 64) (key "usa") or '
    'Imperial Japanese Navy (key "japan").'
)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def atlantic() -> tuple[Any, Any]:
    """A ww2_jackson campaign of Britain and Germany: two of its rule set's three scenarios fit."""
    umpire = StaffUserFactory()
    campaign = services.campaign_create(
        name="Atlantic",
        ruleset="ww2_jackson",
        created_by=umpire,
        sides=[{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}],
    )
    return campaign, umpire


def test_only_scenarios_with_the_campaigns_sides_are_offered(atlantic: tuple[Any, Any]) -> None:
    campaign, _ = atlantic
    form = ScenarioBattleForm(campaign=campaign)

    assert [key for key, _ in form.fields["scenario"].choices] == ["denmark_strait_1941", "river_plate_1939"]
    assert form.fields["scenario"].help_text == "Not offered: " + GUADALCANAL_MISSING.replace('"', "&quot;")


def test_posting_a_scenario_not_offered_says_why_and_saves_nothing(atlantic: tuple[Any, Any]) -> None:
    campaign, umpire = atlantic

    response = _client(umpire).post(
        reverse("battles:battle_scenario", args=[campaign.pk]), {"scenario": "guadalcanal_1942"}, follow=True
    )

    html = response.content.decode()
    assert (
        "The battle was not created. Scenario: Not available for this campaign. "
        + GUADALCANAL_MISSING.replace('"', "&quot;")
    ) in html
    assert not Battle.objects.exists()


def test_the_campaign_page_shows_the_unavailable_scenarios(atlantic: tuple[Any, Any]) -> None:
    campaign, umpire = atlantic

    html = _client(umpire).get(reverse("battles:campaign", args=[campaign.pk])).content.decode()

    assert '<option value="denmark_strait_1941">' in html
    assert '<option value="guadalcanal_1942">' not in html
    assert (
        "Not offered: Second Naval Battle of Guadalcanal, night of 14-15 November 1942: the campaign has "
        "no side" in html
    )


def test_a_campaign_no_scenario_fits_is_told_so() -> None:
    umpire = StaffUserFactory()
    campaign = services.campaign_create(
        name="Lakes",
        ruleset="ultra_simple",
        created_by=umpire,
        sides=[{"key": "north", "name": "North"}, {"key": "south", "name": "South"}],
    )

    form = ScenarioBattleForm(campaign=campaign)

    assert form.fields["scenario"].choices == []
    assert form.fields["scenario"].help_text.startswith(
        "No bundled scenario of this rule set fits the campaign&#x27;s sides. Not offered: Bismarck&#x27;s "
        "last battle, 27 May 1941: the campaign has no side Royal Navy (key &quot;britain&quot;) or "
        "Kriegsmarine (key &quot;germany&quot;)."
    )
