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
    assert ships.count('<td data-label="Side">Royal Navy</td>') == 2
    assert ships.count('<td data-label="Side">Kriegsmarine</td>') == 1
    assert '<td data-label="Side">britain</td>' not in ships
    assert '<td data-label="Side">germany</td>' not in ships

    sheet = client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "bismarck"])).content.decode()
    assert '<p class="lead">Bismarck · Kriegsmarine · active</p>' in sheet


def test_the_set_up_lines_name_the_sides_as_the_campaign_does() -> None:
    """sail_1700's set-up rolls the initiative (A1) and ww2_jackson's night set-up counts each side's ships
    (NW-WW2-25): their lines name a side as the campaign does, not as the scenario did ("Royal Navy (Nelson)"
    in a campaign whose side is "Royal Navy"; found by a fresh-user check)."""
    from battles import services
    from rules.scenario import bundled_scenarios
    from tests.factories import StaffUserFactory

    for key in ("sail_nile_1798_van_action", "guadalcanal_1942"):
        scenario = bundled_scenarios()[key]
        umpire = StaffUserFactory()
        campaign = services.campaign_create(
            name=f"{key} renamed",
            ruleset=scenario.ruleset,
            created_by=umpire,
            settings={},
            sides=[
                {"key": s.key, "name": f"Side {s.key.upper()}", "colour": s.colour} for s in scenario.sides
            ],
        )
        battle = services.battle_create_from_scenario(
            campaign=campaign, scenario_key=key, user=umpire, start=False
        )
        texts = " ".join(e["text"] for e in battle.setup_events)
        assert all(f"Side {s.key.upper()}" in texts for s in scenario.sides), texts
        assert not any(s.name in texts for s in scenario.sides), texts
