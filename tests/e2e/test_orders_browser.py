"""Chromium: a player's turn on the battle page, through htmx, and what the other side sees of it.

Denmark Strait (ww2_jackson): the British player gives Hood and Prince of Wales orders (the previews show the
gunnery the rules will roll), saves both without a reload, marks the side ready; the German player, in a
second browser context, sees "Royal Navy: ready" and nothing of the British orders, and marks ready too;
both pages then show the result. Screenshots of the panel at desktop and phone widths land in
test-artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from battles.models import Order, PhaseSide
from tests.conftest import ARTIFACTS
from tests.e2e.pages import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_turn_in_the_browser(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign("denmark_strait_1941")
    britain, germany = game.players["britain"], game.players["germany"]
    url = f"{live_server.url}/battles/{game.battle.pk}/"
    page = chromium_page
    ARTIFACTS.mkdir(exist_ok=True)

    log_in(page, live_server.url, britain.username)
    page.goto(url)
    page.wait_for_selector("#ship-hood form")
    assert page.evaluate("typeof window.htmx") == "object"
    # Hood: a new speed and the main battery on Bismarck; the check on change swaps in the preview.
    hood = page.locator("#ship-hood")
    assert hood.locator("#o-hood-speed").get_attribute("max") == "27"
    page.fill("#o-hood-speed", "25.5")
    page.select_option("#o-hood-target_main", "bismarck")
    page.wait_for_selector("#ship-hood .preview li:has-text('15-inch: BFN')")
    preview = page.locator("#ship-hood .preview").inner_text()
    assert "Ends near" in preview and "at 25.5 knots" in preview
    assert "15-inch: BFN 4 -> MFN 2 D20, hits on 16+ at long range" in preview
    page.screenshot(path=str(ARTIFACTS / "orders-desktop-hood-preview.png"), full_page=True)
    page.click("#ship-hood button:text('Save orders')")
    page.wait_for_selector("#ship-hood .message--success:has-text('Orders saved for Hood.')")
    assert page.locator("#ship-hood summary .badge--ok").inner_text().startswith("orders saved")

    # Prince of Wales, from the keyboard: focus the target select, pick with the arrow keys, Enter saves.
    page.focus("#o-prince_of_wales-target_main")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("#ship-prince_of_wales .preview li:has-text('BFN')")
    assert page.evaluate("document.activeElement.id") == "o-prince_of_wales-target_main"  # focus survives
    # htmx binds the swapped-in form when the swap settles (20 ms later): an Enter before that submits it
    # natively (a full POST and reload; the orders are saved all the same), and a CI run did that.
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.focus("#o-prince_of_wales-speed")
    page.keyboard.press("Enter")
    page.wait_for_selector("#ship-prince_of_wales .message--success")
    page.wait_for_function("() => !document.querySelector('#ship-prince_of_wales.htmx-request')")
    saved = {o.battle_ship.ship_key: o.data for o in Order.objects.select_related("battle_ship")}
    assert saved["hood"]["speed"] == 25.5 and saved["hood"]["target_main"] == "bismarck"
    assert saved["prince_of_wales"]["target_main"] == "prinz_eugen"
    assert saved["hood"]["damage_preference"] == "keep_afloat"  # the standing order, kept

    # A speed the damaged... (here: any) ship cannot make is refused next to the field, nothing changes.
    page.evaluate("document.querySelector('#o-hood-speed').removeAttribute('max')")
    page.fill("#o-hood-speed", "31")
    page.click("#ship-hood button:text('Save orders')")
    page.wait_for_selector("#ship-hood .error:has-text('Hood can make at most 27 knots now (W38).')")
    assert Order.objects.get(battle_ship__ship_key="hood").data["speed"] == 25.5

    page.click("#ready-toggle")
    page.wait_for_selector("#phase li:has-text('Royal Navy: ready')")
    assert PhaseSide.objects.get(phase=game.phase, side__key="britain").ready is True
    assert page.locator("#phase .countdown").inner_text().endswith("left)")
    page.screenshot(path=str(ARTIFACTS / "orders-desktop-ready.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#phase").screenshot(path=str(ARTIFACTS / "orders-phone-phase.png"))
    page.locator("#ship-hood").screenshot(path=str(ARTIFACTS / "orders-phone-hood.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    # The other side, in its own browser context: Britain is ready, and not one British order shows.
    other = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    enemy = other.new_page()
    enemy.set_default_timeout(60_000)  # as chromium_page's: not Playwright's 30 s on a loaded machine
    log_in(enemy, live_server.url, germany.username)
    enemy.goto(url)
    enemy.wait_for_selector("#phase li:has-text('Royal Navy: ready')")
    assert enemy.locator("#ship-bismarck form").count() == 1
    assert enemy.locator("#ship-hood").count() == 0 and enemy.locator("#ship-prince_of_wales").count() == 0
    html = enemy.content()
    # Hood's speed, as a number of its own: not the digits of a timestamp (a deadline at hh:mm:25.519 failed)
    assert re.search(r"(?<![\d.:])25\.5(?![\d])", html) is None and "orders saved" not in html
    enemy.screenshot(path=str(ARTIFACTS / "orders-desktop-other-side.png"), full_page=True)

    # The last side ready: the phase closes and resolves (tasks run in-process here); the German page reloads
    # at once, the British one at its next poll, and both show the result and the next phase. The British
    # page's wait keeps the fixture's 60 s: its poll comes up to 10 s later (POLL_SECONDS of an open
    # phase), and then the whole page reloads.
    enemy.click("#ready-toggle")
    enemy.wait_for_selector("text=Phase 2: Open for orders")
    assert enemy.locator("text=Log of phase 1 (turn 1)").count() == 1
    page.wait_for_selector("text=Phase 2: Open for orders")
    assert page.locator("text=Log of phase 1 (turn 1)").count() == 1
    assert page.locator("#ship-hood .badge").inner_text() == "no orders yet: defaults apply"
    other.close()


EVERY_RULESET = [
    # (scenario, side, ship, a field to change and its new value, a line the preview then shows)
    ("bismarck_last_battle_1941", "britain", "kgv", ("turn", "-30"), "Ends at"),
    ("santiago_de_cuba_1898", "spain", "teresa", ("target", "gloucester"), "Guns: Gloucester at 4 hexes"),
    ("first_memphis_1862", "union", "benton", ("fire_rear", "price"), "Rear: 2 D6 at General Sterling Price"),
    ("sail_constitution_vs_guerriere_1812", "usa", "constitution", ("speed", "100"), "Sail: 100 mm"),
    ("guadalcanal_1942", "usa", "walke", ("torpedo_target", "ayanami"), "21-inch, medium range, 11+"),
]


@pytest.mark.parametrize(
    ("scenario", "side", "ship", "change", "line"), EVERY_RULESET, ids=[r[0] for r in EVERY_RULESET]
)
def test_every_rule_sets_panel_checks_on_change(
    live_server: Any,
    chromium_page: Any,
    monkeypatch: pytest.MonkeyPatch,
    scenario: str,
    side: str,
    ship: str,
    change: tuple[str, str],
    line: str,
) -> None:
    from battles import services

    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 12345)  # sail_1700: the USA moves first
    game = scenario_campaign(scenario)
    page = chromium_page
    ARTIFACTS.mkdir(exist_ok=True)
    log_in(page, live_server.url, game.players[side].username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")
    panel = f"#ship-{ship}"
    folded = page.locator(f"{panel}.ship-orders--folded").count() == 1
    # A fleet of more than three ships is folded: no form on the page until the player opens a ship (a click
    # on its name loads the form in place, htmx); up to three, every form is on the page, open.
    assert folded == (game.battle.ships.filter(campaign_ship__side__key=side).count() > 3)
    assert page.locator(f"{panel} form").count() == (0 if folded else 1)
    if folded:
        page.click(f"{panel} > summary")
    page.wait_for_selector(f"{panel}[open] form.order-form")
    field, value = change
    selector = f"#o-{ship}-{field}"
    if page.locator(selector).evaluate("el => el.tagName") == "SELECT":
        page.locator(f"{panel} details.order-type--folded").evaluate_all(
            "els => els.forEach(e => e.open = true)"
        )
        page.select_option(selector, value)
    else:
        page.fill(selector, value)
        page.press(selector, "Tab")
    page.wait_for_selector(f"{panel} .preview li:has-text('{line}')")
    assert page.locator(f"{panel} .message").inner_text() == "These orders are legal. Save them to send them."
    page.locator(panel).screenshot(path=str(ARTIFACTS / f"orders-{scenario}-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(panel).screenshot(path=str(ARTIFACTS / f"orders-{scenario}-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert not Order.objects.exists()  # checking saves nothing


def test_a_save_is_not_cancelled_by_the_check_of_the_field_just_changed(
    live_server: Any, chromium_page: Any
) -> None:
    """A player changes a field and clicks "Save orders" at once: the field's check (htmx, on change, 150 ms
    later) fires while the save is still in flight. It must not abort the save (it did: ``hx-sync="closest
    form:replace"`` on the checking inputs), so the save is held here until the check has had its chance."""
    game = scenario_campaign("denmark_strait_1941")
    page = chromium_page
    log_in(page, live_server.url, game.players["britain"].username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")
    page.wait_for_selector("#ship-hood form")
    held: list[Any] = []
    page.route("**/orders/hood/", lambda route: held.append(route))
    checks: list[str] = []
    page.on("request", lambda request: checks.append(request.url) if "/check/" in request.url else None)

    page.fill("#o-hood-speed", "24")
    page.click("#ship-hood button:text('Save orders')")  # the input's change fires as it loses focus
    page.wait_for_function("() => document.querySelector('#ship-hood.htmx-request') !== null")
    page.wait_for_timeout(600)  # the check's delay is 150 ms
    # The check was dropped (it would have aborted the save): the save answers with the rules' verdict.
    assert checks == [] and len(held) == 1
    held[0].continue_()

    page.wait_for_selector("#ship-hood .message--success:has-text('Orders saved for Hood.')")
    assert Order.objects.get(battle_ship__ship_key="hood").data["speed"] == 24


# Each select's longest option (canvas-measured in the select's font) against the width it has for text: its
# inner width less the arrow (Chromium's takes 14-20 px of it). The list of those cut off.
CUT_OFF_SELECTS = """els => els.map(el => {
  const cs = getComputedStyle(el), ctx = document.createElement("canvas").getContext("2d");
  ctx.font = cs.font;
  const text = Math.max(...[...el.options].map(o => ctx.measureText(o.text).width));
  const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return [el.id, Math.round(text), Math.round(room)];
}).filter(([, text, room]) => text > room)"""


@pytest.mark.parametrize(
    ("scenario", "side", "ship", "select", "option"),
    [
        ("bismarck_last_battle_1941", "britain", "kgv", "turn", "30"),
        ("first_memphis_1862", "union", "benton", "fire_front", ""),
        ("guadalcanal_1942", "usa", "walke", "torpedo_mount", "-1"),
    ],
    ids=["ultra_simple-turn", "acw_river-target", "ww2_jackson-torpedo-mount"],
)
def test_order_selects_show_their_options_whole(
    live_server: Any,
    chromium_page: Any,
    monkeypatch: pytest.MonkeyPatch,
    scenario: str,
    side: str,
    ship: str,
    select: str,
    option: str,
) -> None:
    """A grid column of the order fields cut ultra_simple's turn off at "30 degrees to starboa" (and
    acw_river's "General M. Jeff Thompson", ww2_jackson's "every loaded mount that bears"): such a select
    takes two columns (order_forms.WIDE_OPTION_CHARS); a phone's one column is wide enough."""
    from battles import services

    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 12345)
    game = scenario_campaign(scenario)
    page = chromium_page
    ARTIFACTS.mkdir(exist_ok=True)
    log_in(page, live_server.url, game.players[side].username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")
    panel = f"#ship-{ship}"
    if page.locator(f"{panel}.ship-orders--folded").count():
        page.click(f"{panel} > summary")
    page.wait_for_selector(f"{panel}[open] form.order-form")
    page.select_option(f"#o-{ship}-{select}", option)
    page.wait_for_timeout(300)  # the check on change (150 ms), then its swap
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    for width in (1280, 1000, 760, 660, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.eval_on_selector_all(f"{panel} .order-fields select", CUT_OFF_SELECTS) == [], width
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), width
        if width in (1280, 760):
            page.locator(panel).screenshot(path=str(ARTIFACTS / f"orders-selects-{scenario}-{width}.png"))


def _open_panel(page: Any, panel: str) -> None:
    if page.locator(f"{panel}.ship-orders--folded").count():
        page.click(f"{panel} > summary")
    page.wait_for_selector(f"{panel}[open] form.order-form")


def test_a_checkbox_is_drawn_as_the_order_stands_and_a_click_changes_it(
    live_server: Any, chromium_page: Any
) -> None:
    """A fresh-user check found every box of an order drawn ticked (Monarch's "Engines astern" while the
    preview said ahead; Constitution's "Strike colours"), and a click could not tick one for real: the box was
    drawn with ``value="false"``, so a ticked box sent "false". Benton begins the battle going astern (the
    scenario): her box starts ticked; a click clears it and the saved order goes ahead; the page drawn again
    shows it clear, and a click ticks it again, saved astern."""
    game = scenario_campaign("first_memphis_1862")
    page = chromium_page
    log_in(page, live_server.url, game.players["union"].username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/")
    panel = "#ship-benton"
    _open_panel(page, panel)
    assert page.locator("#o-benton-astern").is_checked() is True

    for astern in (False, True):
        box = page.locator("#o-benton-astern")
        box.set_checked(astern)
        page.click(f"{panel} button:text('Save orders')")
        page.wait_for_selector(f"{panel} .message--success:has-text('Orders saved for Benton.')")
        assert Order.objects.get(battle_ship__ship_key="benton").data["astern"] is astern
        page.reload()
        _open_panel(page, panel)
        assert page.locator("#o-benton-astern").is_checked() is astern
