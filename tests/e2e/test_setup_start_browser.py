"""Chromium: the umpire creates a battle from a scenario with "Open the set-up editor before starting" ticked,
lands on the set-up editor, and starts the battle with its "Start battle" (NW-CAMP-21). The editor's
screenshot lands in test-artifacts/setup-editor-start.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle
from tests.conftest import ARTIFACTS
from tests.e2e.test_map_browser import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_umpire_creates_a_battle_in_set_up_and_starts_it_from_the_editor(
    live_server: Any, chromium_page: Any
) -> None:
    game = scenario_campaign("bismarck_last_battle_1941")
    services.battle_end(battle=game.battle, user=game.umpire)  # NW-CAMP-02: its ships are free again
    page = chromium_page
    log_in(page, live_server, game.umpire)
    page.goto(live_server.url + reverse("battles:campaign", args=[game.campaign.pk]))

    form = page.locator("form[action$='/battles/scenario/']")
    form.locator("input[name=name]").fill("Second round")
    form.get_by_label("Open the set-up editor before starting").check()
    form.locator("button:text('Create and start')").click()
    page.wait_for_url(re.compile(r"/battles/\d+/setup/map/$"))
    start = page.locator("#start-battle")
    assert start.is_visible()
    assert start.inner_text() == "Start battle"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "setup-editor-start.png"), full_page=True)

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    start.click()
    page.wait_for_url(re.compile(r"/battles/\d+/$"))
    page.wait_for_selector("text=Phase 1: Open for orders")
    assert page.locator("text=The battle has started: phase 1 is open for orders.").is_visible()
    assert asked == ["Start Second round? Phase 1 opens for orders, and the set-up can no longer change."]
    battle = Battle.objects.get(name="Second round")
    assert (battle.status, battle.phases.count()) == ("active", 1)
