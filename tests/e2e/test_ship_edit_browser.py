"""Chromium: the umpire's ship edit on the ship page (battles.forms.ShipEditForm), on a hex rule set and two
table rule sets (sail_1700's sheet has 50 entries): the form holds her values, an edit of one value saves that
value only, a value the rules refuse is said at its field. Screenshots land in
test-artifacts/ship-edit/<scenario>-*.png."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from battles.models import Battle, ShipEdit
from tests.conftest import ARTIFACTS
from tests.e2e.pages import log_in
from tests.factories import scenario_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shot(page: Any, name: str) -> None:
    folder = ARTIFACTS / "ship-edit"
    folder.mkdir(parents=True, exist_ok=True)
    page.locator("#edit").screenshot(path=str(folder / f"{name}.png"))


def _ship(battle_id: int, key: str) -> rules.ShipState:
    return rules.from_json(rules.BattleState, Battle.objects.get(pk=battle_id).state).ship(key)


@pytest.mark.parametrize(
    ("scenario", "key", "entry"),
    [
        pytest.param("bismarck_last_battle_1941", "kgv", "damage", id="hex"),
        pytest.param("denmark_strait_1941", "hood", "wrecked_engines", id="table"),
        pytest.param("sail_constitution_vs_guerriere_1812", "constitution", "mast_hits", id="table-mm"),
    ],
)
def test_the_umpire_edits_one_sheet_entry_in_the_form(
    live_server: Any, chromium_page: Any, scenario: str, key: str, entry: str
) -> None:
    game = scenario_campaign(scenario)
    battle_id = game.battle.pk
    before = _ship(battle_id, key)
    page = chromium_page
    log_in(page, live_server.url, game.umpire.username)
    page.goto(f"{live_server.url}/battles/{battle_id}/ships/{key}/")

    assert page.input_value("#id_status") == "active"
    assert page.input_value("#id_speed") == f"{before.speed:g}"
    assert page.input_value(f"#id_sheet_{entry}") == "0"
    # the form fits the page: no field wider than its grid cell, nothing past the window
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    _shot(page, f"{scenario}-1-form")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: one field a line, nothing past the edge
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, f"{scenario}-1-form-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    page.fill(f"#id_sheet_{entry}", "2")
    page.fill("#id_reason", "Shell hit aft")
    page.click("#edit button[type=submit]")
    page.wait_for_selector("text=Ship edited; the edit is in the log.")

    after = _ship(battle_id, key)
    assert after.sheet == {**before.sheet, entry: 2}
    assert (after.speed, after.heading, after.position, after.status) == (
        before.speed,
        before.heading,
        before.position,
        before.status,
    )
    assert ShipEdit.objects.get().changes() == [f"sheet {entry}: 0 -> 2"]
    assert page.input_value(f"#id_sheet_{entry}") == "2"  # the form holds her as she is now


def test_a_hex_off_the_map_is_said_at_its_field(live_server: Any, chromium_page: Any) -> None:
    game = scenario_campaign("bismarck_last_battle_1941")
    page = chromium_page
    log_in(page, live_server.url, game.umpire.username)
    page.goto(f"{live_server.url}/battles/{game.battle.pk}/ships/kgv/")

    page.fill("#id_q", "200")
    page.fill("#id_reason", "Drifted")
    page.click("#edit button[type=submit]")
    page.wait_for_selector(".field--error")

    error = page.text_content(".field--error:has(#id_q) .error")
    assert error == "King George V: hex (200, 3) is off the 24 x 18 map."
    assert page.input_value("#id_q") == "200" and page.input_value("#id_reason") == "Drifted"
    assert page.evaluate("window.scrollY") > 0  # the page opens at the form (#edit), not at its top
    _shot(page, "bismarck_last_battle_1941-2-refused")
    assert not ShipEdit.objects.exists()
