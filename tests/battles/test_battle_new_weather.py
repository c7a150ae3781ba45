"""The battle form's wind force and weather for ``sail_1700`` are the weather chart's (4.; docs/rulings.md
NW-SAIL-35): choices on the form, an unknown value a form error with nothing saved, a known one kept and shown
with the chart's name on the battle page. Other rule sets keep free text (display only)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle
from navalwar.errors import ApplicationError
from rules.model import Conditions, Point
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SAIL = "sail_constitution_vs_guerriere_1812"


def _form(game: Any, **conditions: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Squall", "width": 2400, "height": 1800, "wind_from": "90", **conditions}
    for i, cs in enumerate(game.campaign.ships.order_by("pk")):
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": 500 + 500 * i, f"b_{cs.pk}": 900, f"heading_{cs.pk}": 0}
    return data


def _umpire(game: Any) -> Client:
    client = Client()
    client.force_login(game.umpire)
    return client


def test_the_form_offers_the_charts_wind_forces_and_weathers() -> None:
    game = scenario_campaign(SAIL)
    html = _umpire(game).get(reverse("battles:battle_new", args=[game.campaign.pk])).content.decode()

    assert '<select name="wind_force" id="wind_force"' in html
    assert '<option value="strong">strong breeze</option>' in html
    assert '<option value="fog">fog and mist</option>' in html
    assert '<option value="" selected>rolled at set-up</option>' in html


@pytest.mark.parametrize(
    ("conditions", "message"),
    [
        pytest.param(
            {"wind_force": "Gale", "weather": "storm"},
            "Wind and weather: wind_force &#x27;Gale&#x27; is not one of sail_1700&#x27;s: calm, light, "
            "moderate, strong, gale (NW-SAIL-35).",
            id="NW-SAIL-35-capital-Gale",
        ),
        pytest.param(
            {"wind_force": "gale", "weather": "clear"},
            "Wind and weather: the weather chart (4.; S04, S05) has no clear with a gale; clear comes "
            "with calm, light, moderate, strong (NW-SAIL-35).",
            id="NW-SAIL-35-no-clear-gale",
        ),
        pytest.param(
            {"wind_force": "strong", "weather": ""},
            "Wind and weather: give both the wind force and the weather, or neither (the set-up rolls them: "
            "4.) (NW-SAIL-35).",
            id="NW-SAIL-35-one-without-the-other",
        ),
    ],
)
def test_a_wind_or_weather_off_the_chart_is_a_form_error(conditions: dict[str, str], message: str) -> None:
    """Before NW-SAIL-35 "Gale" was stored and the set-up rolled the weather afresh without a word."""
    game = scenario_campaign(SAIL)
    services.battle_end(battle=game.battle, user=game.umpire)

    refused = _umpire(game).post(
        reverse("battles:battle_new", args=[game.campaign.pk]), _form(game, **conditions)
    )

    assert refused.status_code == 400
    assert f"<p>{message}</p>" in refused.content.decode()
    assert not Battle.objects.filter(name="Squall").exists()


def test_a_charts_wind_and_weather_is_kept_and_shown_by_its_name() -> None:
    game = scenario_campaign(SAIL)
    services.battle_end(battle=game.battle, user=game.umpire)
    client = _umpire(game)

    client.post(
        reverse("battles:battle_new", args=[game.campaign.pk]),
        _form(game, wind_force="strong", weather="rain"),
    )

    battle = Battle.objects.get(name="Squall")
    c = rules.from_json(rules.BattleState, battle.state).conditions
    assert (c.wind_force, c.weather, c.extra["weather_number"]) == ("strong", "rain", 60)
    page = client.get(reverse("battles:battle", args=[battle.pk])).content.decode()
    assert "· rain" in page and "wind from 90° (strong breeze)" in page


def test_the_service_refuses_an_unknown_wind_force_too() -> None:
    game = scenario_campaign(SAIL)
    services.battle_end(battle=game.battle, user=game.umpire)
    placements = [
        services.Placement(campaign_ship=cs, position=Point(x=500.0 + 500 * i, y=900.0))
        for i, cs in enumerate(game.campaign.ships.order_by("pk"))
    ]

    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=game.campaign,
            user=game.umpire,
            name="Squall",
            placements=placements,
            conditions=Conditions(wind_from=90.0, wind_force="Gale", weather="storm"),
        )

    assert exc.value.code == "bad_setup"
    assert "wind_force 'Gale' is not one of sail_1700's" in str(exc.value)
    assert not Battle.objects.filter(name="Squall").exists()
