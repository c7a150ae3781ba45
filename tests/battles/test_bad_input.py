"""Bad input to the umpire's battle and campaign forms is a message or a 4xx, never a 500, and saves nothing:
JSON with NaN, infinities or nesting deeper than Python's recursion limit (a ship edit, a repair, terrain),
a phase number of thousands of digits in the log's URL, and a heading the river and Memoir rules refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles import services
from battles.models import Battle, RepairRecord, ShipEdit
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        pytest.param(DEEP, "the JSON is nested too deeply", id="deep"),
        pytest.param('{"speed": NaN}', "NaN is not a number JSON can store", id="nan"),
        pytest.param('{"speed": -Infinity}', "-Infinity is not a number JSON can store", id="infinity"),
        pytest.param('{"position": {"q": 1e400, "r": 0}}', "1e400 is too large a number", id="1e400"),
    ],
)
def test_a_ship_edit_with_json_no_column_can_store_is_a_message(game: Any, changes: str, reason: str) -> None:
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(url, {"changes": changes, "reason": "Engine trouble"})

    assert response.status_code == 200
    assert f"The changes must be a JSON object: {reason}" in _text(response)
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param(
            '{"heading": 45}',
            "ship 'kgv': heading 45 is not one of the 12 hex facings (multiples of 30 degrees).",
            id="between-facings",
        ),
        pytest.param(
            '{"position": {"q": 200, "r": 0}}',
            "ship 'kgv' is active at hex (200, 0), off the 24 x 18 map.",
            id="off-the-map",
        ),
        pytest.param(
            '{"sheet": {"damage": -1000000}}',
            "ship 'kgv': sheet damage is -1000000: a sheet holds numbers from 0 to 1,000,000.",
            id="negative-sheet-number",
        ),
        pytest.param(
            '{"speed": ' + "9" * 400 + "}",
            "Not a value the ship can take: int too large to convert to float.",
            id="400-digits",
        ),
        pytest.param('{"speed": -2}', "ship 'kgv': speed must be 0 or more, not -2.", id="negative-speed"),
    ],
)
def test_a_ship_edit_the_engine_could_not_resolve_is_a_message(game: Any, changes: str, message: str) -> None:
    """rules.check_state (NW-CAMP-04): an edit that would leave a ship the engine cannot resolve (a hang, a
    rules error at the next resolution) is refused, and nothing is saved."""
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(url, {"changes": changes, "reason": "Engine trouble"})

    assert response.status_code == 200
    assert escape(message) in _text(response)
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


@pytest.mark.parametrize(
    ("sheet", "reason"),
    [
        pytest.param(DEEP, "the JSON is nested too deeply", id="deep"),
        pytest.param('{"damage": NaN}', "NaN is not a number JSON can store", id="nan"),
        pytest.param('{"damage": 1e999}', "1e999 is too large a number", id="1e999"),
    ],
)
def test_a_repair_with_json_no_column_can_store_is_a_form_error(game: Any, sheet: str, reason: str) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    before = kgv.sheet
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])

    response = _client(game.umpire).post(
        url, {"action": "repair", "status": "active", "sheet": sheet, "reason": "Dry dock"}
    )

    assert response.status_code == 200
    assert f"Not valid JSON: {reason}" in _text(response)
    kgv.refresh_from_db()
    assert (kgv.sheet, RepairRecord.objects.count()) == (before, 0)


def test_terrain_with_nan_is_a_form_error(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    terrain = '[{"kind": "shoal", "position": {"q": 1, "r": 1}, "props": {"depth": NaN}}]'
    data = {"name": "Shoals", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, "terrain": terrain}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 200
    assert (
        "Terrain must be a JSON list of features (kind, position, props, visible_to): NaN is not a number "
        "JSON can store" in _text(response)
    )
    assert Battle.objects.count() == 1


@pytest.mark.parametrize("param", ["phase", "phase_id"])
def test_a_phase_number_of_thousands_of_digits_is_no_such_phase(game: Any, param: str) -> None:
    url = reverse("battles:battle_log", args=[game.battle.pk]) + f"?{param}=" + "9" * 5000

    assert _client(game.players["britain"]).get(url).status_code == 404
    assert _client(game.umpire).get(url).status_code == 404


@pytest.mark.parametrize(
    ("scenario_key", "refusal"),
    [
        pytest.param(
            "first_memphis_1862", "heading 45.0 is not a hex facing (multiples of 30 degrees)", id="acw"
        ),
        pytest.param(
            "santiago_de_cuba_1898", "heading 45.0 is not a hex-side facing (multiples of 60)", id="memoir"
        ),
    ],
)
def test_a_heading_the_rules_refuse_is_a_form_error_on_every_hex_rule_set(
    scenario_key: str, refusal: str
) -> None:
    """acw_river and memoir_sea refuse it with ValueError, which battle_create let through (a 500)."""
    game = scenario_campaign(scenario_key)
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.select_related("ship").order_by("pk").first()
    data = {"name": "Askew", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 45}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 200
    assert f"The rules refuse this set-up: {cs.ship.name}: {refusal}" in _text(response)
    assert Battle.objects.count() == 1
