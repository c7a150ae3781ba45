"""The umpire adds named ships of the rule set's classes to a campaign's sides from the campaign page
(``services.campaign_ship_commission``): before, only a scenario or the admin put ships into a campaign, so an
umpire who is not staff could not build the fleets of a campaign of their own. The admin's campaign ship form
refuses what the service refuses (``CampaignShip.clean``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import CampaignShip
from fleets.models import Ship
from navalwar.errors import ApplicationError
from tests.factories import ShipClassFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def camp() -> Any:
    umpire = UserFactory()  # not staff: an umpire by membership only
    campaign = services.campaign_create(
        name="Channel 1940",
        ruleset="ultra_simple",
        created_by=umpire,
        sides=[{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}],
    )
    return campaign, umpire


def _post(user: Any, campaign: Any, data: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(reverse("battles:campaign_ship_new", args=[campaign.pk]), data)


def _form_errors(html: str) -> str:
    found = re.search(r'<form[^>]*id="add-ship".*?</form>', html, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", found.group(0))


def test_an_umpire_adds_a_new_ship_of_a_class_to_a_side(camp: Any) -> None:
    campaign, umpire = camp
    hood_class = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    britain = campaign.sides.get(key="britain")

    client = Client()
    client.force_login(umpire)
    page = client.get(reverse("battles:campaign", args=[campaign.pk])).content.decode()
    assert 'id="add-ship"' in page and f'value="{hood_class.pk}"' in page

    url = reverse("battles:campaign_ship_new", args=[campaign.pk])
    data = {"side": britain.pk, "ship_class": hood_class.pk, "name": " Hood ", "pennant": "51"}
    response = client.post(url, data)

    assert response.status_code == 302 and response.url.endswith("#umpire")
    cship = CampaignShip.objects.get(campaign=campaign)
    assert (cship.ship.name, cship.ship.pennant, cship.ship.ship_class, cship.side) == (
        "Hood",
        "51",
        hood_class,
        britain,
    )
    assert (cship.status, cship.sheet, cship.commander) == ("active", {}, None)
    html = client.get(response.url).content.decode()
    assert "Hood (Admiral) joined Royal Navy." in html
    assert re.search(r"Hood</a>\s*<span class=\"muted\">Admiral", html)  # on her side's card


def test_an_existing_fleet_ship_of_that_name_and_class_is_the_one_added(camp: Any) -> None:
    campaign, umpire = camp
    ship = Ship.objects.create(
        name="Renown", ship_class=ShipClassFactory(ruleset="ultra_simple"), pennant="72"
    )
    cship = services.campaign_ship_commission(
        campaign=campaign,
        user=umpire,
        side=campaign.sides.get(key="britain"),
        ship_class=ship.ship_class,
        name="Renown",
    )
    assert cship.ship == ship and Ship.objects.count() == 1


def test_an_existing_fleet_ship_without_a_pennant_takes_the_one_typed(camp: Any) -> None:
    campaign, umpire = camp
    ship = Ship.objects.create(name="Repulse", ship_class=ShipClassFactory(ruleset="ultra_simple"))
    cship = services.campaign_ship_commission(
        campaign=campaign,
        user=umpire,
        side=campaign.sides.get(key="britain"),
        ship_class=ship.ship_class,
        name="Repulse",
        pennant=" 34 ",
    )
    ship.refresh_from_db()
    assert cship.ship == ship and ship.pennant == "34"


def test_a_pennant_other_than_the_fleet_ships_is_a_form_error_and_nothing_is_added(camp: Any) -> None:
    """Before, the typed pennant was dropped without a word: Renown joined as 72 though the umpire typed 9."""
    campaign, umpire = camp
    ship = Ship.objects.create(
        name="Renown", ship_class=ShipClassFactory(ruleset="ultra_simple", name="Renown"), pennant="72"
    )
    data = {
        "side": campaign.sides.get(key="britain").pk,
        "ship_class": ship.ship_class.pk,
        "name": "Renown",
        "pennant": "9",
    }

    response = _post(umpire, campaign, data)

    assert response.status_code == 400
    form = _form_errors(response.content.decode())
    assert (
        "The fleet list already has Renown (Renown) with pennant 72: leave the pennant blank or type 72 to "
        "add her, or give another name for another ship." in form
    )
    assert 'value="9"' in form
    assert not CampaignShip.objects.exists()
    ship.refresh_from_db()
    assert ship.pennant == "72"
    # the same pennant, or none, adds her
    assert _post(umpire, campaign, {**data, "pennant": "72"}).status_code == 302
    assert CampaignShip.objects.get().ship == ship


def test_a_ship_already_in_the_campaign_is_a_409_with_the_form_as_typed(camp: Any) -> None:
    campaign, umpire = camp
    klass = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    britain, germany = campaign.sides.get(key="britain"), campaign.sides.get(key="germany")
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=klass, name="Hood"
    )

    response = _post(
        umpire, campaign, {"side": germany.pk, "ship_class": klass.pk, "name": "Hood", "pennant": "9"}
    )

    assert response.status_code == 409
    form = _form_errors(response.content.decode())
    assert "Hood (Admiral) is already in this campaign. Nothing was added." in form
    assert 'value="9"' in form  # what the umpire typed is kept
    assert CampaignShip.objects.get().side == britain  # nothing changed


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("", "This field is required."),
        ("x" * 121, "Ensure this value has at most 120 characters (it has 121)."),
    ],
)
def test_a_bad_name_is_a_form_error(camp: Any, name: str, error: str) -> None:
    campaign, umpire = camp
    klass = ShipClassFactory(ruleset="ultra_simple")
    response = _post(
        umpire, campaign, {"side": campaign.sides.first().pk, "ship_class": klass.pk, "name": name}
    )
    assert response.status_code == 400 and error in _form_errors(response.content.decode())
    assert not CampaignShip.objects.exists() and not Ship.objects.exists()


def test_a_class_of_another_rule_set_or_a_side_of_another_campaign_is_not_offered(camp: Any) -> None:
    campaign, umpire = camp
    other_class = ShipClassFactory(ruleset="sail_1700")
    other_side = services.campaign_create(
        name="Other", ruleset="ultra_simple", created_by=umpire, sides=[{"key": "x", "name": "X"}]
    ).sides.get()
    klass = ShipClassFactory(ruleset="ultra_simple")

    forged_class = _post(
        umpire, campaign, {"side": campaign.sides.first().pk, "ship_class": other_class.pk, "name": "A"}
    )
    forged_side = _post(umpire, campaign, {"side": other_side.pk, "ship_class": klass.pk, "name": "B"})

    for response in (forged_class, forged_side):
        assert response.status_code == 400
        assert "Select a valid choice." in _form_errors(response.content.decode())
    assert not CampaignShip.objects.exists()
    # the service refuses them too, for any caller without the form
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_commission(
            campaign=campaign, user=umpire, side=campaign.sides.first(), ship_class=other_class, name="A"
        )
    assert exc.value.code == "wrong_ruleset"
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_commission(
            campaign=campaign, user=umpire, side=other_side, ship_class=klass, name="B"
        )
    assert exc.value.code == "bad_side"
    assert not Ship.objects.exists()  # the refused ones made no fleet ship either


def test_a_player_cannot_add_ships(camp: Any) -> None:
    campaign, _umpire = camp
    player = UserFactory()
    services.membership_add(
        campaign=campaign, user=player, role="player", side=campaign.sides.get(key="britain")
    )
    klass = ShipClassFactory(ruleset="ultra_simple")
    response = _post(
        player, campaign, {"side": campaign.sides.first().pk, "ship_class": klass.pk, "name": "Hood"}
    )
    assert response.status_code == 403
    assert not CampaignShip.objects.exists()
    client = Client()
    client.force_login(player)
    assert 'id="add-ship"' not in client.get(reverse("battles:campaign", args=[campaign.pk])).content.decode()


def test_the_admins_campaign_ship_form_refuses_what_the_service_refuses(camp: Any) -> None:
    campaign, umpire = camp
    other = services.campaign_create(
        name="Other", ruleset="ultra_simple", created_by=umpire, sides=[{"key": "x"}]
    )
    sail_ship = Ship.objects.create(name="Aquilon", ship_class=ShipClassFactory(ruleset="sail_1700"))
    stranger = UserFactory()
    bad = CampaignShip(campaign=campaign, side=other.sides.get(), ship=sail_ship, commander=stranger)
    with pytest.raises(ValidationError) as exc:
        bad.full_clean()
    assert exc.value.message_dict == {
        "side": ["x is a side of another campaign."],
        "ship": ["Aquilon is a sail_1700 ship; this campaign plays ultra_simple."],
        "commander": ["The commander must be a player of her side."],
    }
    good_ship = Ship.objects.create(name="Hood", ship_class=ShipClassFactory(ruleset="ultra_simple"))
    CampaignShip(campaign=campaign, side=campaign.sides.get(key="britain"), ship=good_ship).full_clean()


# --- one name, one ship, in a campaign (docs/rulings.md NW-CAMP-25) ---------------------------------------

TAKEN = (
    "The campaign already has a ship named Hood (Admiral, Royal Navy): two ships of one name could not be "
    "told apart in orders and the log. Give this one another name."
)


@pytest.mark.parametrize(
    ("name", "same_class"),
    [("Hood", False), ("HOOD", False), ("hood", True), (" Hood ", False)],
    ids=["another-class", "capitals", "same-class-lower-case", "spaces"],
)
def test_a_second_ship_of_a_name_in_the_campaign_is_a_form_error(
    camp: Any, name: str, same_class: bool
) -> None:
    """A fresh-user check put two Hoods in one campaign: a second class of that name, or the same class
    typed in another case (the fleet list keeps "Hood" and "hood" apart)."""
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    other_class = admiral if same_class else ShipClassFactory(ruleset="ultra_simple", name="Battlecruiser")
    britain, germany = campaign.sides.get(key="britain"), campaign.sides.get(key="germany")
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Hood"
    )
    before = (CampaignShip.objects.count(), Ship.objects.count())

    response = _post(umpire, campaign, {"side": germany.pk, "ship_class": other_class.pk, "name": name})

    assert response.status_code == 409
    assert response.context["ship_form"].errors["name"] == [TAKEN]
    assert TAKEN in _form_errors(response.content.decode())
    assert (CampaignShip.objects.count(), Ship.objects.count()) == before  # no fleet ship made either
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_commission(
            campaign=campaign, user=umpire, side=germany, ship_class=other_class, name=name
        )
    assert (exc.value.code, exc.value.status, exc.value.message) == ("ship_name_taken", 409, TAKEN)


def test_the_same_name_in_another_campaign_or_another_name_is_allowed(camp: Any) -> None:
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    britain = campaign.sides.get(key="britain")
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Hood"
    )
    other = services.campaign_create(
        name="Other",
        ruleset="ultra_simple",
        created_by=umpire,
        sides=[{"key": "britain"}, {"key": "germany"}],
    )

    services.campaign_ship_commission(
        campaign=other, user=umpire, side=other.sides.get(key="britain"), ship_class=admiral, name="Hood"
    )
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Hoodwink"
    )

    assert sorted(CampaignShip.objects.values_list("campaign__name", "ship__name")) == [
        ("Channel 1940", "Hood"),
        ("Channel 1940", "Hoodwink"),
        ("Other", "Hood"),
    ]


def test_the_service_and_the_admin_refuse_a_second_ship_of_a_name(camp: Any) -> None:
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    britain = campaign.sides.get(key="britain")
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Hood"
    )
    second = Ship.objects.create(name="HOOD", ship_class=ShipClassFactory(ruleset="ultra_simple"))

    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_add(campaign=campaign, side=britain, ship=second)
    assert exc.value.code == "ship_name_taken"
    with pytest.raises(ValidationError) as invalid:
        CampaignShip(campaign=campaign, side=britain, ship=second).full_clean()
    assert invalid.value.message_dict == {"ship": [TAKEN]}
    # the admin's add page shows it at the ship field
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = admin.post(
        reverse("admin:battles_campaignship_add"),
        {"campaign": campaign.pk, "side": britain.pk, "ship": second.pk, "status": "active", "sheet": "{}"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["ship"] == [TAKEN]
    assert CampaignShip.objects.count() == 1
    # her own row edited in the admin is no clash with herself
    CampaignShip.objects.get().full_clean()


def test_renaming_a_fleet_ship_in_the_admin_to_a_name_of_her_campaign_is_refused(camp: Any) -> None:
    """NW-CAMP-32: the admin's ship form refuses a new name another ship of one of her campaigns has (any
    case); a name only another campaign has, and her own name in another case, are allowed."""
    campaign, umpire = camp
    admiral = ShipClassFactory(ruleset="ultra_simple", name="Admiral")
    britain = campaign.sides.get(key="britain")
    services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Hood"
    )
    repulse = services.campaign_ship_commission(
        campaign=campaign, user=umpire, side=britain, ship_class=admiral, name="Repulse"
    ).ship
    other = services.campaign_create(
        name="Other",
        ruleset="ultra_simple",
        created_by=umpire,
        sides=[{"key": "a", "name": "A"}, {"key": "b", "name": "B"}],
    )
    services.campaign_ship_commission(
        campaign=other,
        user=umpire,
        side=other.sides.get(key="a"),
        ship_class=ShipClassFactory(ruleset="ultra_simple", name="Renown class"),
        name="Renown",
    )
    admin = Client()
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse("admin:fleets_ship_change", args=[repulse.pk])

    def rename(name: str) -> Any:
        return admin.post(url, {"name": name, "ship_class": admiral.pk, "pennant": ""})

    response = rename(" HOOD ")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name"] == [
        "Her campaign Channel 1940 already has a ship named Hood (Admiral, Royal Navy): two ships of one "
        "name could not be told apart in orders and the log. Give her another name."
    ]
    assert Ship.objects.get(pk=repulse.pk).name == "Repulse"

    assert rename("REPULSE").status_code == 302  # her own name, another case
    assert rename("Renown").status_code == 302  # only the other campaign has a Renown
    assert Ship.objects.get(pk=repulse.pk).name == "Renown"
    # a ship in no campaign may take any name of her class's rule set
    spare = Ship.objects.create(name="Spare", ship_class=admiral)
    spare.name = "Hood II"
    spare.full_clean()


def test_a_scenario_that_brings_a_ship_of_a_name_the_campaign_has_is_refused() -> None:
    """The umpire added a Bismarck of another class; the scenario's Bismarck would be a second one."""
    from battles.models import Battle
    from tests.factories import scenario_campaign

    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)
    germany = game.campaign.sides.get(key="germany")
    ours = game.campaign.ships.get(ship__name="Bismarck")
    ours.ship.name = "Tirpitz"  # the scenario's Bismarck is now new to the campaign
    ours.ship.save(update_fields=["name"])
    services.campaign_ship_commission(
        campaign=game.campaign,
        user=game.umpire,
        side=germany,
        ship_class=ShipClassFactory(ruleset="ultra_simple", name="H class"),
        name="bismarck",
    )
    before = (Battle.objects.count(), CampaignShip.objects.count())

    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(
            campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire
        )

    assert exc.value.code == "ship_name_taken"
    assert exc.value.message.startswith(
        "Bismarck's last battle, 27 May 1941 brings Bismarck (Bismarck). The campaign already has a ship "
        "named bismarck (H class, Kriegsmarine)"
    )
    assert exc.value.message.endswith("Rename the campaign's ship (admin) or choose another scenario.")
    assert (Battle.objects.count(), CampaignShip.objects.count()) == before
