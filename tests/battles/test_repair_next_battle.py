"""A repair is refused when her next battle's rules would refuse the sheet it saves (docs/rulings.md
NW-CAMP-37): a fresh-user check repaired Prinz Eugen to ``"guns_lost": [999]``, "Repair recorded.", and she
could then join no battle ("sheet guns_lost: 999 is not one of her gun boxes")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import CampaignShip, RepairRecord
from navalwar.errors import ApplicationError
from rules.model import Point
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def fought() -> Any:
    game = scenario_campaign("denmark_strait_1941")
    services.battle_end(battle=game.battle, user=game.umpire)
    return game


def _prinz(game: Any) -> CampaignShip:
    return CampaignShip.objects.get(campaign=game.campaign, ship__name="Prinz Eugen")


def test_a_gun_box_she_has_not_is_refused_at_the_sheet_and_nothing_saved(fought: Any) -> None:
    prinz = _prinz(fought)
    before = prinz.sheet
    typed = {**services.repair_form_sheet(ruleset="ww2_jackson", sheet=before), "guns_lost": [999]}
    client = Client()
    client.force_login(fought.umpire)

    response = client.post(
        reverse("battles:campaign_ship", args=[fought.campaign.pk, prinz.pk]),
        {"action": "repair", "status": "active", "sheet": json.dumps(typed), "reason": "test"},
    )

    assert response.status_code == 400
    errors = response.context["form"].errors["sheet"]
    assert len(errors) == 1 and errors[0].startswith("Sheet guns_lost: 999 is not one of her gun boxes"), (
        errors
    )
    assert CampaignShip.objects.get(pk=prinz.pk).sheet == before
    assert RepairRecord.objects.count() == 0


def test_a_repair_her_rules_take_is_saved_and_she_joins_the_next_battle(fought: Any) -> None:
    prinz = _prinz(fought)
    hood = CampaignShip.objects.get(campaign=fought.campaign, ship__name="Hood")
    typed = {**services.repair_form_sheet(ruleset="ww2_jackson", sheet=prinz.sheet), "guns_lost": [0]}

    services.campaign_ship_repair(campaign_ship=prinz, user=fought.umpire, reason="Refit", sheet=typed)
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(
            campaign_ship=prinz, user=fought.umpire, reason="x", sheet={**typed, "guns_lost": [999]}
        )
    assert exc.value.code == "bad_sheet"

    battle = services.battle_create(
        campaign=fought.campaign,
        user=fought.umpire,
        name="Second sortie",
        placements=[
            services.Placement(campaign_ship=_prinz(fought), position=Point(x=20, y=20), heading=0, speed=0),
            services.Placement(campaign_ship=hood, position=Point(x=40, y=40), heading=0, speed=0),
        ],
    )
    assert battle.pk


def test_a_box_count_of_text_is_refused_though_the_next_set_up_would_read_it_as_none(fought: Any) -> None:
    """A fresh-user check repaired King George V (here Hood) to boxes marked ``{"above": "lots", "engine":
    [1, 2]}``: "Repair recorded.", and her history showed "above lots" (the set-up the check ran read both
    as no box). The sheet as typed is checked too."""
    hood = CampaignShip.objects.get(campaign=fought.campaign, ship__name="Hood")
    before = hood.sheet
    typed = services.repair_form_sheet(ruleset="ww2_jackson", sheet=before)
    typed["marked"] = {**typed["marked"], "above": "lots", "engine": [1, 2]}

    with pytest.raises(ApplicationError) as refused:
        services.campaign_ship_repair(campaign_ship=hood, user=fought.umpire, reason="Refit", sheet=typed)

    assert refused.value.code == "bad_sheet"
    assert refused.value.message.startswith("Sheet marked must give whole numbers of boxes by area (")
    assert CampaignShip.objects.get(pk=hood.pk).sheet == before and RepairRecord.objects.count() == 0
