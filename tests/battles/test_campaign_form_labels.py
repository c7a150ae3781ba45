"""The campaign pages' forms speak to the umpire: the scenario choice offers only the scenarios whose sides
the campaign has (the others named with the sides they lack), side names rather than keys in its messages;
the new campaign's sides box says what it does with what was typed; default orders have labels."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles import services
from battles.forms import ScenarioBattleForm, default_orders_choices, default_orders_label
from battles.models import Battle, Side
from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db

GUADALCANAL_MISSING = (
    "Second Naval Battle of Guadalcanal, night of 14-15 November 1942: the campaign has no side US Navy "
    '(TF 64) (key "usa") or '
    'Imperial Japanese Navy (key "japan").'
)


def _radio_labels(html: str, name: str) -> dict[str, str]:
    """Return {value: label text} of the radio buttons named ``name`` in ``html``."""
    button = rf'<label for="[^"]+"><input type="radio" name="{name}" value="([^"]+)"[^>]*>'
    found = re.findall(button + r"\s*([^<]+?)\s*</label>", html)
    return dict(found)


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


# --- the new campaign's sides box -------------------------------------------------------------------------


def _new_campaign(client: Client, sides: str, **extra: str) -> Any:
    data = {"name": "Box", "ruleset": "ultra_simple", "default_orders": "hold", "deadline_hours": "24"}
    return client.post(reverse("battles:campaign_new"), {**data, "sides": sides, **extra}, follow=True)


def test_sides_without_a_colour_get_distinct_palette_colours(client: Client) -> None:
    organiser = StaffUserFactory()
    client.force_login(organiser)

    response = _new_campaign(client, "north\nsouth, South Fleet, #1F4E9C\neast\nwest, West")

    campaign = organiser.memberships.get().campaign
    # the navy blue typed for south (kept in lower case, NW-CAMP-35) is skipped: red, green, orange follow
    assert list(campaign.sides.values_list("key", "colour")) == [
        ("north", "#b22222"),
        ("south", "#1f4e9c"),
        ("east", "#2e8b57"),
        ("west", "#d2691e"),
    ]
    assert (
        "Campaign created with the sides North (key north, colour #b22222); South Fleet (key south, colour "
        "#1f4e9c); East (key east, colour #2e8b57); West (key west, colour #d2691e)."
    ) in response.content.decode()


def test_an_extra_comma_field_is_a_form_error(client: Client) -> None:
    client.force_login(StaffUserFactory())

    response = _new_campaign(client, "britain, Royal Navy, Home Fleet, #1f4e9c\ngermany")

    assert response.status_code == 200
    assert (
        "&#x27;britain, Royal Navy, Home Fleet, #1f4e9c&#x27; has 4 fields; a side has at most 3: key, name, "
        "colour (a name may not hold a comma)."
    ) in response.content.decode()
    assert not Battle.objects.exists() and not Side.objects.exists()


def test_a_key_saved_otherwise_than_typed_is_said(client: Client) -> None:
    organiser = StaffUserFactory()
    client.force_login(organiser)

    response = _new_campaign(client, "Royal Navy, RN\ngermany, KM")

    html = response.content.decode()
    assert "&#x27;Royal Navy&#x27; is saved under the key royal_navy." in html
    assert "is saved under the key germany" not in html
    assert list(organiser.memberships.get().campaign.sides.values_list("key", flat=True)) == [
        "royal_navy",
        "germany",
    ]
    page = client.get(reverse("battles:campaign_new")).content.decode()
    assert "(Royal Navy -&gt; royal_navy)" in page


# --- default orders (A7) ----------------------------------------------------------------------------------


def test_default_orders_have_labels_on_the_forms_and_the_campaign_page(atlantic: tuple[Any, Any]) -> None:
    campaign, umpire = atlantic
    client = _client(umpire)

    page = client.get(reverse("battles:campaign", args=[campaign.pk])).content.decode()
    new = client.get(reverse("battles:campaign_new")).content.decode()

    assert (
        "Ships without orders at the deadline: Keep course and speed, fire at the nearest enemy in range "
        "(A7)." in page
    )
    for html in (page, new):
        # radio buttons, each labelled with its whole sentence (a select cut the longest off mid-word)
        assert _radio_labels(html, "default_orders") == {
            "hold": "Keep course and speed, hold fire",
            "fire_nearest": "Keep course and speed, fire at the nearest enemy in range",
            "captain": "Automatic captain (closes, turns the broadside, fires, breaks off)",
        }
        assert '<select name="default_orders"' not in html
        legend = r"\s*<legend>Default orders</legend>"
        assert re.search(r'<fieldset class="field field--choices"[^>]*>' + legend, html)
    # the new campaign's default is fire_nearest; the campaign page checks the campaign's own
    assert re.search(r'<input type="radio" name="default_orders" value="fire_nearest"[^>]* checked>', new)
    services.campaign_settings_update(campaign=campaign, user=umpire, settings={"default_orders": "hold"})
    page = client.get(reverse("battles:campaign", args=[campaign.pk])).content.decode()
    assert "Ships without orders at the deadline: Keep course and speed, hold fire (A7)." in page


def test_a_policy_without_a_label_is_its_key_titled() -> None:
    assert default_orders_label("ram_nearest") == "Ram nearest"
    assert [key for key, _ in default_orders_choices()] == ["hold", "fire_nearest", "captain"]


# --- dashboard and readiness ------------------------------------------------------------------------------


def test_change_your_password_is_not_in_the_campaign_list(atlantic: tuple[Any, Any]) -> None:
    _, umpire = atlantic

    html = _client(umpire).get(reverse("battles:dashboard")).content.decode()

    campaigns = html[html.index("<h2>My campaigns</h2>") : html.index("<h2>My account</h2>")]
    assert "Change your password" not in campaigns
    account = html[html.index("<h2>My account</h2>") :]
    assert f'<a href="{reverse("password_change")}">Change your password</a>' in account
    assert f'<a href="{reverse("battles:settings")}">Your e-mail, time zone and turn e-mails</a>' in account


@pytest.mark.parametrize("url_name", ["battles:ready", "battles:side_ready"])
def test_ready_after_the_phase_closed_speaks_of_readiness(url_name: str) -> None:
    from battles.models import Phase
    from tests.factories import scenario_campaign

    game = scenario_campaign()
    Phase.objects.filter(pk=game.phase.pk).update(status="resolving")

    response = _client(game.players["britain"]).post(
        reverse(url_name, args=[game.battle.pk]), {"phase": game.phase.pk, "ready": "1"}, follow=True
    )

    html = response.content.decode()
    assert escape(services.READY_TOO_LATE) in html
    assert "orders are no longer accepted" not in html


def test_a_scenario_battle_with_one_side_lost_to_the_campaign_is_refused() -> None:
    """The campaign lost Bismarck; the Bismarck scenario again would be a battle of one side, over at its
    first phase (fresh-user check: it was created). Refused as a battle of chosen ships is (NW-CAMP-23),
    nothing created."""
    from battles.models import CampaignShip, ShipStatus
    from navalwar.errors import ApplicationError
    from tests.factories import scenario_campaign

    game = scenario_campaign("bismarck_last_battle_1941")
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    CampaignShip.objects.filter(campaign=game.campaign, side__key="germany").update(status=ShipStatus.SUNK)
    battles = Battle.objects.count()

    with pytest.raises(ApplicationError) as refused:
        services.battle_create_from_scenario(
            campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire
        )

    assert refused.value.code == "one_side"
    assert "the campaign has lost every ship of this scenario's Kriegsmarine" in refused.value.message
    assert Battle.objects.count() == battles
