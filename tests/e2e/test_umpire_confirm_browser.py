"""Chromium: the umpire's destructive tools on the battle page ask first (a fresh-user check rolled a
battle back with one click and lost the open phase's orders). Dismissing the dialog changes nothing;
accepting it acts.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles import services
from battles.models import Battle, Order, Phase
from tests.e2e.pages import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _dismiss(page: Any, button: str) -> list[str]:
    """Click ``button`` and dismiss the dialog it brings up; return the dialogs' messages."""
    messages: list[str] = []

    def dismiss(dialog: Any) -> None:
        messages.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click(f"button:text-is('{button}')")
    page.wait_for_timeout(500)
    return messages


def test_resolve_now_and_end_the_battle_ask_first(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign()
    services.orders_submit(
        phase=game.phase,
        user=game.players["britain"],
        ship_key="kgv",
        data={"hexes": 1, "target": "bismarck"},
    )
    page = chromium_page
    log_in(page, live_server.url, game.umpire.username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")

    messages = _dismiss(page, "Resolve now")
    assert len(messages) == 1 and "phase 1" in messages[0].lower()
    assert Phase.objects.get(pk=game.phase.pk).status == "open"
    assert Order.objects.filter(phase=game.phase).count() == 1

    assert len(_dismiss(page, "End the battle")) == 1
    assert Battle.objects.get(pk=game.battle.pk).status == "active"

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:text-is('End the battle')")
    page.wait_for_selector("text=The battle is over")
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"


def test_roll_back_names_the_phase_it_supersedes(
    live_server: Any, chromium_page: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = scenario_campaign()
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    page = chromium_page
    log_in(page, live_server.url, game.umpire.username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")

    messages = _dismiss(page, "Roll back")
    assert len(messages) == 1 and "Phase 1 (turn 1)" in messages[0]
    assert not Phase.objects.filter(battle=game.battle, superseded=True).exists()
