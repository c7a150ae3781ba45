"""Chromium: display faults found by QA, measured in the browser.

- The map page ran edge to edge at 1280 px, its ship panel touching the window's edge
  (britain_ultra_simple-12-battles_4_map.png): it keeps the site's margins, as the header.
- A wrapping order label ("Turn (degrees, + to starboard)") pushed its input below its neighbours'
  (us-battle-s2.png, b-sail-s1.png): a row of order fields keeps its labels at the top and its inputs level.
  (ultra_simple's turn select now takes two columns, its label one line: ww2_jackson's gunfire row, where
  "Secondary battery target" wraps, is measured instead.)
- At 390 px the turn log squeezed "What happened" to a word or two a line (m-ww2log-s0.png).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

import rules
from battles import services
from rules.model import BattleState
from tests.e2e.test_map_browser import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# each field's first line of label text (a Range: the label box's top says nothing of where its text sits)
FIELD_TOPS = """fs => [...fs.querySelectorAll('.order-fields > .field:not(.field--checkbox)')].map(f => ({
    label: (r => (r.selectNodeContents(f.querySelector('label')), r.getClientRects()[0].top))(
        document.createRange()),
    input: f.querySelector('input:not([type=hidden]), select').getBoundingClientRect().top,
}))"""


def test_map_page_keeps_the_sites_margins(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign()
    page = chromium_page
    log_in(page, live_server, game.players["britain"])
    page.goto(live_server.url + reverse("battles:battle_map", args=[game.battle.pk]))
    header = page.eval_on_selector(".site-header__inner", "el => el.getBoundingClientRect().toJSON()")
    side = page.eval_on_selector(".map-side", "el => el.getBoundingClientRect().toJSON()")
    heading = page.eval_on_selector("h1", "el => el.getBoundingClientRect().toJSON()")
    # the header's content is 64rem wide and centred: 1024 px, 128 px from each edge of a 1280 px window
    assert header["left"] >= 100 and header["right"] <= 1180
    assert abs(heading["left"] - (header["left"] + 16)) < 1  # .wrap's 1rem padding, as in the header
    assert side["right"] <= header["right"] - 16 + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


@pytest.mark.parametrize(
    ("scenario", "fieldset"), [("denmark_strait_1941", 1), ("sail_constitution_vs_guerriere_1812", 0)]
)
def test_order_fields_keep_labels_at_the_top_and_inputs_level(
    scenario: str, fieldset: int, live_server: Any, chromium_page: Any
) -> None:
    game = scenario_campaign(scenario)
    side = game.phase.sides[0]  # sail_1700's initiative roll decides who moves first
    state = rules.from_json(BattleState, game.battle.state)
    ship = next(s.id for s in state.ships if s.side == side)
    page = chromium_page
    log_in(page, live_server, game.players[side])
    page.goto(live_server.url + reverse("battles:battle", args=[game.battle.pk]))
    row = page.locator(f"#ship-{ship} fieldset.order-type").nth(fieldset)
    fields = row.evaluate(FIELD_TOPS)
    assert len(fields) >= 2
    heights = row.evaluate(
        "fs => [...fs.querySelectorAll('.order-fields > .field > label')]"
        ".map(l => (r => (r.selectNodeContents(l), r.getBoundingClientRect().height))("
        "document.createRange()))"
    )
    assert max(heights) > min(heights) + 10  # a label wraps to more lines than another: the case QA saw
    # the fields on the first line of the grid: the text of each label starts at the top, the inputs level
    line = [f for f in fields if abs(f["input"] - fields[0]["input"]) < 20]
    assert len(line) >= 2
    assert max(f["label"] for f in line) - min(f["label"] for f in line) < 1
    assert max(f["input"] for f in line) - min(f["input"] for f in line) < 1


def test_log_text_takes_the_width_on_a_phone(
    live_server: Any, chromium_page: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = scenario_campaign("denmark_strait_1941")
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    page = chromium_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, game.players["britain"])
    page.goto(live_server.url + reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1")
    cell = page.locator(".log-table td.log-text", has_text="Hood steers").first
    box = cell.bounding_box()
    assert box is not None and box["width"] > 250
    line = float(cell.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)"))
    assert box["height"] < 2.5 * line + 8  # "Hood steers 310 at 27 knots (6.75 in)." in one or two lines
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
