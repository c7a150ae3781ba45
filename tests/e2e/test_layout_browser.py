"""Chromium: layout faults found by QA on the demo site, measured in the browser.

- The umpire's campaign page puts four forms in a grid of cards; the shortest forms were stretched to the
  tallest card's height (a select and a "Create and start" button 120 px tall), and the "Belt armour" check
  box sat in the middle of a 100%-wide field.
- A name of one long word (a battle named "WWW...W", 120 characters) widened the battle page's heading past
  the window and squeezed the dashboard's other columns to a few letters.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles import services
from tests.e2e.pages import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _height(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "el => el.getBoundingClientRect().height"))


def test_umpire_forms_keep_their_fields_at_their_own_size(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign()
    page = chromium_page
    log_in(page, live_server.url, game.umpire.username)
    page.goto(f"{live_server.url}/campaigns/{game.campaign.pk}/")

    scenario_form = "form[action$='/battles/scenario/']"
    # The settings card is much taller than the scenario card, so the grid row is too.
    assert _height(page, "form[action$='/settings/']") > 2 * _height(page, f"{scenario_form} button")
    assert _height(page, f"{scenario_form} button") < 60
    assert _height(page, "#id_scenario") < 60
    assert _height(page, f"{scenario_form} #id_name") < 60
    # The check box stays a check box, at the start of its field.
    box = page.eval_on_selector("#id_belt_armour", "el => el.getBoundingClientRect().toJSON()")
    field = page.eval_on_selector(".field:has(#id_belt_armour)", "el => el.getBoundingClientRect().toJSON()")
    assert box["width"] < 30
    assert box["left"] - field["left"] < 10


def test_a_one_word_battle_name_does_not_widen_the_pages(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)  # NW-CAMP-02: its ships are free again
    long = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="W" * 120
    )
    page = chromium_page
    log_in(page, live_server.url, game.players["britain"].username)

    page.goto(f"{live_server.url}/battles/{long.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    heading = page.eval_on_selector("h1", "el => el.getBoundingClientRect().right")
    main = page.eval_on_selector("main", "el => el.getBoundingClientRect().right")
    assert heading <= main

    page.goto(f"{live_server.url}/")
    table = page.locator("table").first
    assert table.evaluate("el => el.scrollWidth <= el.parentElement.clientWidth")
    # The deadline column keeps a readable width (it was squeezed to a few letters a line).
    widths = table.evaluate("el => [...el.querySelectorAll('th')].map(th => th.offsetWidth)")
    assert len(widths) == 4
    assert min(widths) > 60


PHONE = {"width": 360, "height": 780}

# Per word of a link's text, how many lines it takes, in the browser: 1 each when names wrap at spaces.
LINES_PER_WORD = """el => {
  const range = document.createRange();
  const words = [];
  const text = el.firstChild;
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(text.data)) !== null) {
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    words.push([m[0], tops.size]);
  }
  return words;
}"""


@pytest.mark.parametrize("key", ["santiago_de_cuba_1898", "first_memphis_1862"])
def test_ship_names_wrap_at_spaces_on_a_phone(key: str, live_server: Any, chromium_page: Any) -> None:
    """A fresh-user check on a phone: the battle page's ships table broke names letter by letter
    ("Infa/nta Ma/ria"): ``td a`` let a name's word break anywhere, so the table squeezed the name column to
    a few letters rather than scroll. A word of a name stays whole. On a phone each ship is a block, her
    name and then every column labelled (a second check found the position off-screen when the table
    scrolled): nothing scrolls sideways, and every position is in sight."""
    from tests.conftest import ARTIFACTS

    game = scenario_campaign(key)
    page = chromium_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, game.umpire.username)

    page.goto(f"{live_server.url}/battles/{game.battle.pk}/#ships")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#ships").screenshot(path=str(ARTIFACTS / f"phone-ships-{key}.png"))

    links = page.locator("#ships tbody td:first-child a")
    assert links.count() == game.battle.ships.count()
    for i in range(links.count()):
        words = links.nth(i).evaluate(LINES_PER_WORD)
        assert all(lines == 1 for _word, lines in words), words
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page does not widen
    box = page.locator("#ships .table-scroll")
    assert not box.evaluate("el => el.scrollWidth > el.clientWidth")  # stacked: nothing to scroll
    positions = page.locator('#ships tbody td[data-label="Position"]')
    assert positions.count() == links.count()
    for i in range(positions.count()):
        right = positions.nth(i).evaluate("el => el.getBoundingClientRect().right")
        assert 0 < right <= PHONE["width"]
        assert positions.nth(i).evaluate("el => getComputedStyle(el, '::before').content") == '"Position: "'
    page.set_viewport_size({"width": 1280, "height": 900})  # a desktop: the table fits, wrapping at spaces
    page.wait_for_function("window.innerWidth === 1280")
    page.locator("#ships").screenshot(path=str(ARTIFACTS / f"desktop-ships-{key}.png"))
    assert not box.evaluate("el => el.scrollWidth > el.clientWidth")
    for i in range(links.count()):
        assert all(lines == 1 for _word, lines in links.nth(i).evaluate(LINES_PER_WORD))


def test_the_campaign_pages_battles_and_losses_stack_on_a_phone(live_server: Any, chromium_page: Any) -> None:
    """A fresh-user check on a phone (390 px): the campaign page's Battles table cut off its Losses link,
    and its losses table the battle a ship was lost in and when. On a phone each row is a block, its first
    column and then the others labelled: nothing scrolls sideways, and every link is in sight."""
    from django.utils import timezone

    game = scenario_campaign()
    hood = game.campaign.ships.get(ship__name="King George V")
    hood.status, hood.status_battle, hood.status_changed_at = "sunk", game.battle, timezone.now()
    hood.save()
    page = chromium_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, game.umpire.username)

    # and the dashboard's two tables of battles (the umpire's own table is his, and wide: not stacked)
    for path in (
        f"/campaigns/{game.campaign.pk}/",
        f"/campaigns/{game.campaign.pk}/sinkings/",
        "/dashboard/",
    ):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for box in page.locator(".table-scroll:has(table.stack-table)").all():
            assert not box.evaluate("el => el.scrollWidth > el.clientWidth")  # stacked: nothing to scroll
        links = page.locator("table.stack-table a").all()
        assert links
        for link in links:
            right = link.evaluate("el => el.getBoundingClientRect().right")
            assert 0 < right <= PHONE["width"], (path, link.inner_text())
    battle = page.locator('td[data-label="Battle"]').first
    assert battle.evaluate("el => getComputedStyle(el, '::before').content") == '"Battle: "'
