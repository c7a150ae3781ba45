"""A name typed by a user (a campaign's, a side's, a ship's, a class's, a nation's, a battle's) holding a
Unicode direction control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) is refused with a message
where it comes in, nothing saved (docs/rulings.md NW-CAMP-24, as NW-CAMP-18 refuses a NUL): such a name
reads otherwise than it is written ("\\u202eS.M.H" is shown "H.M.S") and turns the page around it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Battle, Campaign, CampaignShip, Side
from fleets.models import Nation, Ship, ShipClass
from navalwar.errors import ApplicationError
from navalwar.text import BIDI_CONTROLS, name_problem
from tests.factories import ShipClassFactory, UserFactory, scenario_campaign
from tests.fleets.helpers import sample_stats
from tests.utils import admin_campaign_post

pytestmark = pytest.mark.django_db

CONTROLS = sorted(BIDI_CONTROLS)
RLO = "\u202e"
MESSAGE = (
    "a name may not hold a Unicode direction control (here U+202E RIGHT-TO-LEFT OVERRIDE): it makes the name "
    "read otherwise than it is written; type the name without it"
)
CAPITAL = MESSAGE[0].upper() + MESSAGE[1:] + "."


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_controls_are_unicodes_bidi_controls() -> None:
    assert [f"U+{ord(c):04X}" for c in CONTROLS] == [
        "U+061C",
        "U+200E",
        "U+200F",
        "U+202A",
        "U+202B",
        "U+202C",
        "U+202D",
        "U+202E",
        "U+2066",
        "U+2067",
        "U+2068",
        "U+2069",
    ]


@pytest.mark.parametrize("control", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_every_control_is_refused_in_a_name(control: str) -> None:
    assert name_problem(f"Hood{control}") is not None
    assert name_problem(f"{control}Hood") is not None


EILAT = "\u05d0\u05d9\u05dc\u05ea"  # Hebrew
YAVUZ = "\u064a\u0627\u0648\u0648\u0632"  # Arabic script


@pytest.mark.parametrize("name", ["Hood", "Ilyā Murometz", EILAT, YAVUZ, f"INS {EILAT} (K-40)", "Ōyodo"])
def test_names_in_any_script_are_names(name: str) -> None:
    """Hebrew and Arabic names are shown right to left by the browser without any control."""
    assert name_problem(name) is None


# --- the site's forms ----------------------------------------------------------------------------------


def _campaign_post(**changes: str) -> dict[str, str]:
    return {
        "name": "Channel 1940",
        "ruleset": "ultra_simple",
        "default_orders": "hold",
        "deadline_hours": "24",
        "sides": "britain, Royal Navy\ngermany, Kriegsmarine",
        **changes,
    }


def test_a_campaign_name_with_a_control_is_a_form_error() -> None:
    staff = UserFactory(is_staff=True)

    response = _client(staff).post(reverse("battles:campaign_new"), _campaign_post(name=f"Channel{RLO} 1940"))

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [CAPITAL]
    assert not Campaign.objects.exists()
    assert _client(staff).post(reverse("battles:campaign_new"), _campaign_post()).status_code == 302


def test_a_side_name_with_a_control_is_a_form_error() -> None:
    staff = UserFactory(is_staff=True)
    sides = f"britain, Royal Navy\ngermany, Kriegs{RLO}marine"

    response = _client(staff).post(reverse("battles:campaign_new"), _campaign_post(sides=sides))

    assert response.context["form"].errors["sides"] == [f"Side germany: {MESSAGE}."]
    assert not Campaign.objects.exists() and not Side.objects.exists()


@pytest.fixture
def camp() -> Any:
    umpire = UserFactory()
    campaign = services.campaign_create(
        name="Channel 1940",
        ruleset="ultra_simple",
        created_by=umpire,
        sides=[{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}],
    )
    return campaign, umpire


def test_a_ship_name_with_a_control_is_a_form_error_on_the_add_a_ship_form(camp: Any) -> None:
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    data = {"side": campaign.sides.get(key="britain").pk, "ship_class": admiral.pk, "name": f"{RLO}dooH"}

    response = _client(umpire).post(reverse("battles:campaign_ship_new", args=[campaign.pk]), data)

    assert response.status_code == 400
    assert response.context["ship_form"].errors["name"] == [CAPITAL]
    assert not Ship.objects.filter(ship_class=admiral).exists()
    assert not CampaignShip.objects.exists()


def test_the_services_refuse_the_names_too(camp: Any) -> None:
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    calls = [
        lambda: services.campaign_create(name=f"X{RLO}", ruleset="ultra_simple", created_by=umpire),
        lambda: services.campaign_create(
            name="X",
            ruleset="ultra_simple",
            created_by=umpire,
            sides=[{"key": "a", "name": "A"}, {"key": "b", "name": f"B{RLO}"}],
        ),
        lambda: services.side_create(campaign=campaign, key="france", name=f"Marine{RLO}"),
        lambda: services.campaign_ship_commission(
            campaign=campaign, user=umpire, side=campaign.sides.first(), ship_class=admiral, name=f"Hood{RLO}"
        ),
    ]
    before = (Campaign.objects.count(), Side.objects.count(), Ship.objects.count())
    for call in calls:
        with pytest.raises(ApplicationError) as exc:
            call()
        assert exc.value.code == "bad_name"
        assert MESSAGE[2:] in exc.value.message
    assert (Campaign.objects.count(), Side.objects.count(), Ship.objects.count()) == before


def test_a_battle_name_with_a_control_is_refused_on_both_battle_forms() -> None:
    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)
    client = _client(game.umpire)
    ships = list(game.campaign.ships.order_by("pk"))
    data: dict[str, Any] = {"name": f"Ambush{RLO}"}
    for i, cs in enumerate(ships):
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": 3 + 3 * i, f"b_{cs.pk}": 4}

    refused = client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data)
    scenario = client.post(
        reverse("battles:battle_scenario", args=[game.campaign.pk]),
        {"scenario": "bismarck_last_battle_1941", "name": f"Again{RLO}"},
        follow=True,
    )

    assert refused.status_code == 400
    assert f"<p>The name: {MESSAGE}.</p>" in _text(refused)
    assert f"The battle was not created. Name: {CAPITAL}" in _text(scenario)
    assert Battle.objects.count() == 1
    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(
            campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name=f"A{RLO}"
        )
    assert exc.value.code == "bad_name"


# --- the admin and the class import ---------------------------------------------------------------------


@pytest.fixture
def admin_client() -> Client:
    return _client(UserFactory(username="fisher", is_staff=True, is_superuser=True))


def test_the_admin_refuses_a_nation_or_ship_name_with_a_control(admin_client: Client) -> None:
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")

    nation = admin_client.post(
        reverse("admin:fleets_nation_add"),
        {"name": f"Royal{RLO} Navy", "short_name": "RN", "colour": "#1f4e9c"},
    )
    ship = admin_client.post(
        reverse("admin:fleets_ship_add"), {"name": f"Hood{RLO}", "ship_class": admiral.pk, "pennant": ""}
    )

    assert nation.status_code == ship.status_code == 200  # the form again, with the error
    assert nation.context["adminform"].form.errors["name"] == [CAPITAL]
    assert ship.context["adminform"].form.errors["name"] == [CAPITAL]
    assert not Nation.objects.filter(name__startswith="Royal").exists()
    assert not Ship.objects.exists()


def test_the_admin_refuses_a_campaign_or_side_name_with_a_control(admin_client: Client, camp: Any) -> None:
    campaign, _umpire = camp
    second = campaign.sides.order_by("pk")[1]
    data = admin_campaign_post(campaign, name=f"Channel{RLO} 1940", **{"sides-1-name": second.name + RLO})

    response = admin_client.post(reverse("admin:battles_campaign_change", args=[campaign.pk]), data)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name"] == [CAPITAL]
    side_errors = [f.errors for f in response.context["inline_admin_formsets"][0].formset.forms]
    assert side_errors[1]["name"] == [CAPITAL]
    campaign.refresh_from_db()
    assert campaign.name == "Channel 1940"
    assert sorted(campaign.sides.values_list("name", flat=True)) == ["Kriegsmarine", "Royal Navy"]


def test_an_imported_class_or_nation_name_with_a_control_is_a_rejected_row() -> None:
    from fleets.services import shipclass_import

    good = sample_stats("ultra_simple")
    row = {
        "ruleset": "ultra_simple",
        "type": "battleship",
        "stats": good,
        "source_note": "",
        "heuristic": False,
    }
    rows = [
        {**row, "key": "nelson", "name": f"Nelson{RLO}", "nation": "Britain"},
        {**row, "key": "rodney", "name": "Rodney", "nation": f"Britain{RLO}"},
        {**row, "key": "hood", "name": "Hood", "nation": "Britain"},
    ]

    report = shipclass_import(content=json.dumps(rows), fmt="json")

    rejected = {r.key: r.errors for r in report.rows if r.outcome == "rejected"}
    assert sorted(rejected) == ["nelson", "rodney"]
    assert any(MESSAGE[2:] in e for e in rejected["nelson"])
    assert any(MESSAGE[2:] in e for e in rejected["rodney"])
    assert list(ShipClass.objects.values_list("key", flat=True)) == ["hood"]
    assert not Nation.objects.filter(name__contains=RLO).exists()


def test_the_admin_import_page_shows_the_rejected_row(admin_client: Client) -> None:
    rows = [
        {
            "ruleset": "ultra_simple",
            "key": "nelson",
            "name": f"Nelson{RLO}",
            "type": "battleship",
            "stats": sample_stats("ultra_simple"),
        }
    ]
    upload = SimpleUploadedFile("classes.json", json.dumps(rows).encode(), "application/json")

    response = admin_client.post(reverse("admin:fleets_shipclass_import"), {"file": upload})

    assert response.status_code == 200
    assert "1 rejected" in response.content.decode()
    assert not ShipClass.objects.exists()
