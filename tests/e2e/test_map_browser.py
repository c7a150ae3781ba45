"""Chromium: each demo battle's map, stepped through with the replay controls and the arrow keys, a ship
selected; screenshots land in test-artifacts/map-<scenario>-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.mapsvg import gun_arcs
from battles.models import Battle
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
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


def step_shown(page: Any) -> int:
    return int(page.get_attribute(".replay__where strong", "data-step"))


def wait_for_step(page: Any, step: int) -> None:
    """Wait until the replay panel shows ``step`` and htmx has settled it.

    The ships keep their element ids from step to step, so while htmx settles a swap (20 ms) each ship group
    still carries the previous step's attributes (its class, status and transform: that is what lets CSS
    glide a ship from one step to the next). A test that read the classes in that window saw a ship sunk in
    this step as still active.
    """
    page.wait_for_function(
        "step => document.querySelector('.replay__where strong').dataset.step == String(step)"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
        arg=step,
    )


@pytest.mark.parametrize("key", sorted(bundled_scenarios()))
def test_demo_battle_map_and_replay(
    key: str, live_server: Any, chromium_page: Any, django_capture_on_commit_callbacks: Any
) -> None:
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
    wait_for_step(page, last - 1)
    assert f"step={last - 1}" in page.url
    page.keyboard.press("Home")
    wait_for_step(page, 0)
    page.screenshot(path=str(ARTIFACTS / f"map-{key}-step-0.png"), full_page=True)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 1)
    page.keyboard.press("End")
    wait_for_step(page, last)

    # select one of my ships on the map: its card and arcs appear
    own = page.query_selector(f'svg.nw-map g.ship.own[data-side="{side}"].status-active use.hull')
    if own is not None:
        ship = own.evaluate("el => el.closest('g.ship').dataset.ship")
        own.click()
        page.wait_for_selector(f'.ship-card[data-ship="{ship}"]')
        wait_for_step(page, last)
        # Arcs are drawn when the ship has guns that can still fire: a destroyer that lost every gun box
        # in the phases played (the dice are not fixed here) has none, and the map must draw none.
        battle_state = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
        assert battle_state.ship(ship).active  # the map showed it active at this step
        has_arcs = bool(gun_arcs(battle_state, battle_state.ship(ship)))
        drawn = page.query_selector(f'svg.nw-map g.arcs[data-ship="{ship}"]') is not None
        assert drawn == has_arcs
        page.screenshot(path=str(ARTIFACTS / f"map-{key}-selected.png"), full_page=True)


def test_umpire_paints_a_mine_and_turns_a_ship_on_the_map(live_server: Any, chromium_page: Any) -> None:
    """The set-up editor in Chromium: with "Map clicks paint" chosen, a click on a hex lays a mine there for
    the chosen side (acw_river, A3); a turn button turns the chosen ship 30 degrees (the rules check it)."""
    import rules
    from rules.model import BattleState, Hex

    game = scenario_campaign("first_memphis_1862", start=False)
    battle = game.battle
    state = rules.from_json(BattleState, battle.state)
    ship = state.ships[0]
    page = chromium_page
    log_in(page, live_server, game.umpire)
    page.goto(live_server.url + reverse("battles:battle_setup_map", args=[battle.pk]) + f"?ship={ship.id}")
    page.wait_for_selector("svg.nw-map path.cell")

    page.check('input[data-pick-radio][value="paint"]')
    page.select_option("#id_paint-kind", "mine")
    page.select_option("#id_paint-side", state.sides[1].key)
    # a hex whose centre no ship, label or symbol covers
    q, r = page.evaluate("""() => {
        for (const c of document.querySelectorAll('svg.nw-map path.cell')) {
            const b = c.getBoundingClientRect();
            if (document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2) === c
                && c.dataset.q > 3) return [+c.dataset.q, +c.dataset.r];
        }
    }""")
    page.click(f'svg.nw-map path.cell[data-q="{q}"][data-r="{r}"]')  # map.js fills q and r and submits
    page.wait_for_selector(f'svg.nw-map g.terrain.mine[data-q="{q}"][data-r="{r}"]', state="attached")

    turned = (ship.heading + 30) % 360
    page.click('button[data-turn="30"]')
    page.wait_for_selector(
        f'svg.nw-map g.ship[data-ship="{ship.id}"][data-heading="{turned:g}"]', state="attached"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "map-setup-first_memphis_1862.png"), full_page=True)

    battle.refresh_from_db()
    after = rules.from_json(BattleState, battle.state)
    assert [(t.kind, t.position, t.visible_to) for t in after.terrain if t.kind == "mine"] == [
        ("mine", Hex(q=q, r=r), (state.sides[1].key,))
    ]
    assert after.ship(ship.id).heading == turned


def test_zoom_shows_the_map_at_full_size_in_its_frame_and_keeps_it_through_the_replay(
    live_server: Any, chromium_page: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The map fitted to a phone (390 px) drew its labels at about 4 px (fresh-user check). Zoom in: the map
    at 1,200 px, scrolled inside its frame (the page itself does not scroll sideways); the replay's next
    step keeps the zoom; Fit to the page undoes it."""
    game = scenario_campaign("denmark_strait_1941")
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    page = chromium_page
    page.set_viewport_size({"width": 390, "height": 800})
    log_in(page, live_server, game.players["britain"])
    page.goto(live_server.url + reverse("battles:battle_map", args=[game.battle.pk]))
    page.wait_for_selector("svg.nw-map g.ship")

    def svg_width() -> float:
        return float(page.evaluate("document.querySelector('svg.nw-map').getBoundingClientRect().width"))

    page_width = "document.documentElement.scrollWidth <= window.innerWidth"
    fitted = svg_width()
    assert fitted < 390 and page.evaluate(page_width)

    page.click("button[data-zoom]")
    assert svg_width() == 1200 and page.get_attribute("button[data-zoom]", "aria-pressed") == "true"
    assert page.inner_text("button[data-zoom]") == "Fit to the page"
    assert page.evaluate(page_width)  # the frame scrolls, not the page
    # scrolled to the ships: one of them within the frame
    assert page.evaluate(
        """() => { const f = document.querySelector('.map-scroll').getBoundingClientRect();
        return [...document.querySelectorAll('svg.nw-map g.ship')].some(g => {
          const r = g.getBoundingClientRect();
          return r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom; }); }"""
    )
    page.screenshot(path=str(ARTIFACTS / "map-zoomed-390.png"), full_page=True)

    page.click('a[data-replay="first"]')
    wait_for_step(page, 0)
    assert svg_width() == 1200

    page.click("button[data-zoom]")
    assert svg_width() == fitted and page.inner_text("button[data-zoom]") == "Zoom in"
