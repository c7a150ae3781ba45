"""Fog of war on the losses pages (NW-CAMP-12) and the observer's view (NW-CAMP-13), on the night
Guadalcanal scenario (ww2_jackson)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import services
from battles.models import BattleShip, BattleStatus, LogEvent, Phase, PhaseStatus
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db


def _get(user: object, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _withdraw_unseen(game: object, key: str, visible_to: list[str] | None) -> None:
    """Resolve the open phase by hand with ``key`` withdrawn and its event seen by ``visible_to``."""
    battle = game.battle  # type: ignore[attr-defined]
    phase = Phase.objects.get(battle=battle, number=1)
    phase.status = PhaseStatus.RESOLVED
    phase.save(update_fields=["status"])
    bship = BattleShip.objects.select_related("campaign_ship").get(battle=battle, ship_key=key)
    bship.status = "withdrawn"
    bship.save(update_fields=["status"])
    cship = bship.campaign_ship
    cship.status, cship.status_battle, cship.status_changed_at = "withdrawn", battle, timezone.now()
    cship.save(update_fields=["status", "status_battle", "status_changed_at"])
    LogEvent.objects.create(
        phase=phase,
        seq=1,
        kind="withdrawn",
        text=f"{key} withdraws from the battle: left the table.",
        ship_key=key,
        visible_to=visible_to,
        data={"kind": "withdrawn", "outcome": "withdrawn", "ship_id": key, "visible_to": visible_to},
    )


def test_nw_camp_11_losses_pages_show_a_side_only_the_ends_it_saw() -> None:
    """NW-CAMP-12: Sendai withdraws unseen by the US ships: the US player's and the observer's losses pages
    and fleet list do not show it while the battle is on; Japan's and the umpire's do; once the battle is over
    everyone's do."""
    game = scenario_campaign("guadalcanal_1942")
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    _withdraw_unseen(game, "sendai", ["japan"])
    urls = [
        reverse("battles:battle_sinkings", args=[game.battle.pk]),
        reverse("battles:campaign_sinkings", args=[game.campaign.pk]),
    ]
    campaign_url = reverse("battles:campaign", args=[game.campaign.pk])
    for url in urls:
        assert "Sendai" not in _get(game.players["usa"], url)
        assert "Sendai" not in _get(observer, url)
        assert "Sendai" in _get(game.players["japan"], url)
        assert "Sendai" in _get(game.umpire, url)
    assert "· withdrawn" not in _get(game.players["usa"], campaign_url)
    assert "· withdrawn" in _get(game.players["japan"], campaign_url)
    game.battle.status = BattleStatus.FINISHED
    game.battle.save(update_fields=["status"])
    for url in urls:
        assert "Sendai" in _get(game.players["usa"], url)
        assert "Sendai" in _get(observer, url)
    assert "· withdrawn" in _get(game.players["usa"], campaign_url)


def test_nw_camp_11_an_end_both_sides_saw_is_on_both_pages() -> None:
    game = scenario_campaign("guadalcanal_1942")
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    _withdraw_unseen(game, "ayanami", None)
    url = reverse("battles:battle_sinkings", args=[game.battle.pk])
    assert "Ayanami" in _get(game.players["usa"], url)
    assert "Ayanami" in _get(observer, url)


def test_nw_camp_12_the_observer_sees_the_ships_every_side_sees() -> None:
    """NW-CAMP-13: at night in Guadalcanal, turn 1, both sides see Walke, Benham and Ayanami: so does the
    observer, on the battle page and its map; not the ships only one side sees."""
    game = scenario_campaign("guadalcanal_1942")
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    html = _get(observer, reverse("battles:battle", args=[game.battle.pk]))
    for key in ("walke", "benham", "ayanami"):
        assert f'data-ship="{key}"' in html
    for key in ("washington", "kirishima", "sendai"):
        assert f'data-ship="{key}"' not in html
    for name in ("Walke", "Benham", "Ayanami"):
        assert name in html
    assert "Washington" not in html and "Kirishima" not in html
