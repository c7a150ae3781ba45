"""Chromium: each demo battle's map, stepped through with the replay controls and the arrow keys, a ship
selected; screenshots land in test-artifacts/map-<scenario>-*.png."""

from __future__ import annotations

from typing import Any

import pytest

# Until the battles models are merged (branch battles), this module has nothing to test.
if not hasattr(pytest.importorskip("battles.models"), "Phase"):
    pytest.skip("needs the battles models and services", allow_module_level=True)

from django.conf import settings
from django.test import Client
from django.urls import reverse

from battles import services
from rules.scenario import bundled_scenarios
from tests.conftest import ARTIFACTS
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = 2


def log_in(page: Any, live_server: Any, user: Any) -> None:
    """Give the browser a session of ``user`` (made by Django's test client; axes needs no login form)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value,
                               "url": live_server.url}])


def step_shown(page: Any) -> int:
    return int(page.get_attribute(".replay__where strong", "data-step"))


@pytest.mark.parametrize("key", sorted(bundled_scenarios()))
def test_demo_battle_map_and_replay(key: str, live_server: Any, chromium_page: Any,
                                    django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign(key)
    for _ in range(STEPS):
        if game.phase is None or game.phase.status != "open":
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.phase_close(phase=game.phase, user=game.umpire)
    side = sorted(game.players)[0]
    page = chromium_page
    ARTIFACTS.mkdir(exist_ok=True)
    log_in(page, live_server, game.players[side])
    page.goto(live_server.url + reverse("battles:battle_map", args=[game.battle.pk]))

    page.wait_for_selector("svg.nw-map g.ship")
    last = step_shown(page)
    assert last >= 1
    assert page.get_attribute("svg.nw-map", "data-viewer") == side
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.is_visible("button[data-png]")  # map.js ran
    page.screenshot(path=str(ARTIFACTS / f"map-{key}-step-{last}.png"), full_page=True)

    # back with the Previous button (htmx swaps the panel and pushes the URL), then the arrow keys
    page.click('a[data-replay="prev"]')
    page.wait_for_function(f"document.querySelector('.replay__where strong').dataset.step == '{last - 1}'")
    assert f"step={last - 1}" in page.url
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('.replay__where strong').dataset.step == '0'")
    page.screenshot(path=str(ARTIFACTS / f"map-{key}-step-0.png"), full_page=True)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.replay__where strong').dataset.step == '1'")
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('.replay__where strong').dataset.step == '{last}'")

    # select one of my ships on the map: its card and arcs appear
    own = page.query_selector(f'svg.nw-map g.ship.own[data-side="{side}"].status-active use.hull')
    if own is not None:
        ship = own.evaluate("el => el.closest('g.ship').dataset.ship")
        own.click()
        page.wait_for_selector(f'.ship-card[data-ship="{ship}"]')
        assert page.query_selector(f'svg.nw-map g.arcs[data-ship="{ship}"]') is not None
        page.screenshot(path=str(ARTIFACTS / f"map-{key}-selected.png"), full_page=True)
