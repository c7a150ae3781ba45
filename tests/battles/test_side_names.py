"""The battle page's Ships table and a ship's sheet name each ship's side as the campaign does ("Royal Navy"),
not by its key (found by QA: they said "britain", "germany")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def test_ships_table_and_sheet_name_the_side_not_its_key(game: Any) -> None:
    client = Client()
    client.force_login(game.players["britain"])

    page = client.get(reverse("battles:battle", args=[game.battle.pk])).content.decode()
    ships = page[page.index('id="ships"') : page.index('id="log"')]
    assert ships.count("<td>Royal Navy</td>") == 2
    assert ships.count("<td>Kriegsmarine</td>") == 1
    assert "<td>britain</td>" not in ships and "<td>germany</td>" not in ships

    sheet = client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "bismarck"])).content.decode()
    assert '<p class="lead">Bismarck · Kriegsmarine · active</p>' in sheet
