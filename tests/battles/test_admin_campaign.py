"""The admin's campaign form checks its settings and its sides' colours as the campaign pages do (a
fresh-user check saved settings "x", then the campaign page was a 500; null was a 500 on save; hours as text
saved, then a battle's creation was a 500; a side's colour "zzz" saved)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Campaign
from tests.factories import UserFactory
from tests.utils import admin_campaign_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return services.campaign_create(
        name="Channel 1940",
        ruleset="ultra_simple",
        created_by=UserFactory(),
        sides=[{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}],
    )


def _post(client: Client, campaign: Campaign, settings: str, colour: str | None = None) -> Any:
    data = admin_campaign_post(campaign, settings=settings)
    if colour is not None:
        data["sides-0-colour"] = colour
    return client.post(reverse("admin:battles_campaign_change", args=[campaign.pk]), data)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param('"x"', "The settings must be a JSON object", id="text"),
        pytest.param("null", "The settings must be a JSON object", id="null"),
        pytest.param(
            '{"deadline_hours": "abc"}', "deadline_hours: Enter a number of hours from 1 to 720.", id="hours"
        ),
        pytest.param(
            '{"default_orders": "flee"}',
            "default_orders: Select one of hold, fire_nearest, captain.",
            id="policy",
        ),
    ],
)
def test_settings_of_the_wrong_shape_are_a_form_error(
    admin_client: Client, campaign: Campaign, typed: str, message: str
) -> None:
    before = Campaign.objects.get(pk=campaign.pk).settings

    response = _post(admin_client, campaign, typed)

    assert response.status_code == 200  # the form again
    errors = response.context["adminform"].form.errors["settings"]
    assert any(message in e for e in errors), errors
    assert Campaign.objects.get(pk=campaign.pk).settings == before


def test_good_settings_are_saved_as_the_campaign_page_would(admin_client: Client, campaign: Campaign) -> None:
    response = _post(admin_client, campaign, json.dumps({"default_orders": "hold", "deadline_hours": 24}))

    assert response.status_code == 302
    saved = Campaign.objects.get(pk=campaign.pk).settings
    assert (saved["default_orders"], saved["deadline_hours"]) == ("hold", 24)


def test_a_side_colour_that_is_no_css_colour_is_refused(admin_client: Client, campaign: Campaign) -> None:
    response = _post(admin_client, campaign, json.dumps(campaign.settings), colour="zzz")

    assert response.status_code == 200
    forms = response.context["inline_admin_formsets"][0].formset.forms
    assert forms[0].errors["colour"] == ["'zzz': enter a CSS colour like #1f4e9c."]
    assert "zzz" not in Campaign.objects.get(pk=campaign.pk).sides.values_list("colour", flat=True)
