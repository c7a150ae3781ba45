"""The campaign's roll of losses keeps a ship the umpire brought back into service (docs/rulings.md
NW-CAMP-36): a fresh-user check sank Rodney, repaired her to active between battles, and her loss vanished
from the roll, which lists ships by their status now."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import selectors, services
from battles.models import CampaignShip, RepairRecord
from navalwar.errors import ApplicationError
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


def _text(client: Client, url: str) -> str:
    return re.sub(r"\s+", " ", client.get(url).content.decode())


@pytest.fixture
def revived() -> Any:
    game = scenario_campaign()
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="rodney",
        user=game.umpire,
        changes={"status": "sunk"},
        reason="Torpedoes",
    )
    services.battle_end(battle=game.battle, user=game.umpire)
    rodney = CampaignShip.objects.get(campaign=game.campaign, ship__name="Rodney")
    assert (rodney.status, rodney.status_battle_id) == ("sunk", game.battle.pk)
    services.campaign_ship_repair(
        campaign_ship=rodney, user=game.umpire, reason="Raised and refitted at Rosyth", status="active"
    )
    return game


def test_the_roll_lists_a_ship_brought_back_with_the_battle_she_was_lost_in(revived: Any) -> None:
    game = revived

    (back,) = selectors.returned_to_service(campaign=game.campaign)

    assert (back.campaign_ship.ship.name, back.fate, back.battle) == ("Rodney", "Sunk", game.battle)
    assert back.at <= timezone.now()


@pytest.mark.parametrize("who", ["umpire", "britain", "germany"])
def test_the_campaign_page_and_the_roll_show_her_to_every_member(revived: Any, who: str) -> None:
    game = revived
    client = Client()
    client.force_login(game.umpire if who == "umpire" else game.players[who])

    for url in (
        reverse("battles:campaign", args=[game.campaign.pk]),
        reverse("battles:campaign_sinkings", args=[game.campaign.pk]),
    ):
        text = _text(client, url)
        assert "<h3>Brought back into service</h3>" in text
        assert (
            '<tr><td>Rodney</td><td data-label="Class">Nelson</td><td data-label="Side">Royal Navy</td>'
            '<td data-label="Was">Sunk</td>'
        ) in text
        assert f'<td data-label="Battle"><a href="/battles/{game.battle.pk}/">' in text
        assert "Raised and refitted" not in text  # the repair's reason is the umpire's ship page's
        assert "None yet." not in text


def test_a_repair_that_only_mends_her_sheet_brings_no_one_back(revived: Any) -> None:
    game = revived
    kgv = CampaignShip.objects.get(campaign=game.campaign, ship__name="King George V")
    mended = {**kgv.sheet, "damage": 0}
    CampaignShip.objects.filter(pk=kgv.pk).update(sheet={**kgv.sheet, "damage": 2})
    kgv.refresh_from_db()
    services.campaign_ship_repair(campaign_ship=kgv, user=game.umpire, reason="Dockyard", sheet=mended)

    assert [r.campaign_ship.ship.name for r in selectors.returned_to_service(campaign=game.campaign)] == [
        "Rodney"
    ]


def test_a_repair_that_changes_nothing_is_refused(revived: Any) -> None:
    """As an edit in a battle: a record of "Nothing changed." under a reason would mislead."""
    game = revived
    kgv = CampaignShip.objects.get(campaign=game.campaign, ship__name="King George V")
    before = RepairRecord.objects.count()

    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(
            campaign_ship=kgv, user=game.umpire, reason="nothing", sheet=kgv.sheet, status="active"
        )

    assert (exc.value.code, exc.value.message) == (
        "nothing_to_change",
        "Nothing to change: she already is as the repair says. Nothing was saved.",
    )
    assert RepairRecord.objects.count() == before


@pytest.fixture
def sunk() -> Any:
    """Rodney sunk by 13 points of damage (Nelson class: 9 points of protection, U04), the battle over."""
    game = scenario_campaign()
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="rodney",
        user=game.umpire,
        changes={"status": "sunk", "sheet": {"damage": 13}},
        reason="Torpedoes",
    )
    services.battle_end(battle=game.battle, user=game.umpire)
    rodney = CampaignShip.objects.get(campaign=game.campaign, ship__name="Rodney")
    assert (rodney.status, rodney.sheet["damage"]) == ("sunk", 13)
    return game, rodney


@pytest.mark.parametrize("sheet", [True, False], ids=["sheet-as-it-is", "status-only"])
def test_a_ship_brought_back_with_the_damage_that_sank_her_is_refused(sunk: Any, sheet: bool) -> None:
    """NW-CAMP-37 with NW-US-07: a fresh-user check brought Bismarck back active at 13 of 10 points: "Repair
    recorded", and her next battle refused her. The repair is judged with the status it gives her."""
    game, rodney = sunk
    kept = {"sheet": services.repair_form_sheet(ruleset="ultra_simple", sheet=rodney.sheet)} if sheet else {}

    with pytest.raises(ApplicationError) as refused:
        services.campaign_ship_repair(
            campaign_ship=rodney, user=game.umpire, reason="Raised", status="active", **kept
        )

    assert refused.value.code == "bad_sheet"
    assert refused.value.message.startswith(
        "Sheet damage (13) sinks her, with protection 9 (U04): an active ship has taken at most 8"
    )
    assert CampaignShip.objects.get(pk=rodney.pk).status == "sunk" and not RepairRecord.objects.exists()
    # brought back with her damage mended, she is taken
    mended = {**services.repair_form_sheet(ruleset="ultra_simple", sheet=rodney.sheet), "damage": 8}
    services.campaign_ship_repair(
        campaign_ship=rodney, user=game.umpire, reason="Raised", status="active", sheet=mended
    )
    assert CampaignShip.objects.get(pk=rodney.pk).status == "active"


def test_a_sunk_ships_sheet_may_show_any_damage(sunk: Any) -> None:
    """The reverse: the fresh-user check's sunk ship given more damage, left sunk, was refused with "an active
    ship has taken at most 9; set her status to sunk"."""
    game, rodney = sunk
    more = {**services.repair_form_sheet(ruleset="ultra_simple", sheet=rodney.sheet), "damage": 20}

    services.campaign_ship_repair(
        campaign_ship=rodney, user=game.umpire, reason="Survey of the wreck", status="sunk", sheet=more
    )

    assert CampaignShip.objects.get(pk=rodney.pk).sheet["damage"] == 20
