"""A NUL character (0x00) or ``"\\u0000"`` sent to the site is refused with a message, never saved
(docs/rulings.md NW-CAMP-18). PostgreSQL refuses both (text: "A string literal cannot contain NUL (0x00)
characters"; jsonb: "unsupported Unicode escape sequence"), so each of these was a 500 there while SQLite
stored the text: CI runs them on PostgreSQL."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle, RepairRecord, ShipEdit
from battles.order_forms import JSONRowsField
from tests.factories import scenario_campaign
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db

REFUSAL = "The request holds a NUL character (0x00), which cannot be saved. Nothing was saved."


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _battle_post(game: Any, **changes: str) -> dict[str, Any]:
    first = game.campaign.ships.order_by("pk").first()
    foe = game.campaign.ships.exclude(side=first.side).order_by("pk").first()  # two sides (NW-CAMP-23)
    return {
        "name": "Night action",
        f"use_{first.pk}": "on",
        f"a_{first.pk}": 3,
        f"b_{first.pk}": 4,
        f"use_{foe.pk}": "on",
        f"a_{foe.pk}": 6,
        f"b_{foe.pk}": 4,
        **changes,
    }


@pytest.mark.parametrize(
    "changes",
    [{"name": "Night\x00action"}, {"weather": "fog\x00"}, {"wind_force": "\x00"}, {"note\x00": "x"}],
    ids=["name", "weather", "wind-force", "field-name"],
)
def test_a_nul_in_the_battle_form_is_a_400_and_no_battle(game: Any, changes: dict[str, str]) -> None:
    """The battle form reads its name, weather and wind raw: the battle was created with them (a 500 on
    PostgreSQL)."""
    services.battle_end(battle=game.battle, user=game.umpire)
    url = reverse("battles:battle_new", args=[game.campaign.pk])

    response = _client(game.umpire).post(url, _battle_post(game, **changes))

    assert response.status_code == 400
    assert REFUSAL in _text(response)
    assert Battle.objects.count() == 1
    assert _client(game.umpire).post(url, _battle_post(game)).status_code == 302  # without the NUL


def test_a_nul_in_an_end_reason_is_a_400_and_the_battle_goes_on(game: Any) -> None:
    url = reverse("battles:umpire", args=[game.battle.pk])

    response = _client(game.umpire).post(url, {"action": "end", "winner": "", "reason": "Fog\x00"})

    assert response.status_code == 400
    game.battle.refresh_from_db()
    assert game.battle.end_reason == ""


def test_a_nul_in_an_htmx_order_post_is_a_plain_400(game: Any) -> None:
    url = reverse("battles:order_save", args=[game.battle.pk, "kgv"])

    response = _client(game.players["britain"]).post(
        url, {"phase": "1", "speed": "1\x00"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 400
    assert response.content.decode() == REFUSAL


@pytest.mark.parametrize(
    "url",
    [
        "/battles/{battle}/ships/kgv%00/",
        "/battles/{battle}/orders/kgv%00/panel/",
        "/battles/{battle}/?ship=%00",
        "/battles/{battle}/map/?ship=kgv%00",
        "/battles/{battle}/log/?%00=1",
    ],
)
def test_a_nul_in_a_url_is_a_400(game: Any, url: str) -> None:
    """A ship key with a NUL was looked up in the database: a 500 on PostgreSQL, even for a page."""
    response = _client(game.umpire).get(url.format(battle=game.battle.pk))

    assert response.status_code == 400
    assert REFUSAL in _text(response)


def test_a_nul_escape_in_a_ship_edit_is_a_form_error(game: Any) -> None:
    """The ship edit's JSON boxes (a sheet entry holding a list or an object) are read as JSON: ``\\u0000``
    there is no NUL the middleware sees."""
    state = rules.from_json(rules.BattleState, game.battle.state)
    kgv = state.ship("kgv")
    planted = state.with_ships({"kgv": replace(kgv, sheet={**kgv.sheet, "notes": []})})
    Battle.objects.filter(pk=game.battle.pk).update(state=rules.to_json(planted))
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "kgv", reason="Fire", sheet_notes='["on fire\\u0000"]')
    )

    assert response.status_code == 400
    assert "Not valid JSON: a NUL character (\\u0000) cannot be saved" in _text(response)
    assert (Battle.objects.get(pk=game.battle.pk).state, ShipEdit.objects.count()) == (before, 0)


def test_a_nul_escape_in_a_repair_is_a_form_error(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    before = kgv.sheet
    sheet = '{"damage": 0, "protection": 0, "\\u0000": 1}'
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])

    response = _client(game.umpire).post(
        url, {"action": "repair", "status": "active", "sheet": sheet, "reason": "Dry dock"}
    )

    assert response.status_code == 400
    assert "Not valid JSON: a NUL character (\\u0000) cannot be saved" in _text(response)
    kgv.refresh_from_db()
    assert (kgv.sheet, RepairRecord.objects.count()) == (before, 0)


def test_a_nul_escape_in_terrain_is_a_form_error(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    terrain = '[{"kind": "shoal", "position": {"q": 1, "r": 1}, "props": {"name": "Reef\\u0000"}}]'

    response = _client(game.umpire).post(
        reverse("battles:battle_new", args=[game.campaign.pk]), _battle_post(game, terrain=terrain)
    )

    assert response.status_code == 400
    assert "Terrain must be a JSON list of features (kind, position, props, visible_to): a NUL character" in (
        _text(response)
    )
    assert Battle.objects.count() == 1


def test_an_order_rows_field_refuses_a_nul_escape() -> None:
    field = JSONRowsField(required=False)

    with pytest.raises(Exception, match=r"a NUL character \(\\\\u0000\) cannot be saved"):
        field.clean('[{"target": "hood\\u0000"}]')
    assert field.clean('[{"target": "hood"}]') == [{"target": "hood"}]


def test_spotting_aircraft_is_saved_normalised() -> None:
    """ww2_jackson's side list "britain,britain," was saved and shown as typed (NW-CAMP-18)."""
    game = scenario_campaign("denmark_strait_1941")
    post = {"default_orders": "hold", "deadline_hours": 48, "reminder_hours": 12}
    post |= {"carrier_table": "capital", "leave_table": "withdraws"}
    url = reverse("battles:campaign_settings", args=[game.campaign.pk])

    for typed, saved in [("britain,britain,", "britain"), (" germany , ,britain,germany", "germany,britain")]:
        assert _client(game.umpire).post(url, post | {"spotting_aircraft": typed}).status_code == 302
        game.campaign.refresh_from_db()
        assert game.campaign.settings["spotting_aircraft"] == saved
