"""The battle form (``battles:battle_new``) and ``services.battle_create`` refuse a heading that is no compass
heading (720, -90: four of the five rule sets' set-ups turned them into 0 up to 360 without a word) and a
battle of one side's ships (it is over when its first phase resolves): docs/rulings.md NW-CAMP-23. A refusal
is a 400 with the form shown again as typed; nothing is saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle, Phase
from navalwar.errors import ApplicationError
from rules.model import Hex, TerrainFeature
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIOS = [
    pytest.param(
        "bismarck_last_battle_1941",
        "on this hex map one of the 12 facings 0, 30, 60 ... 330",
        id="hex12-ultra_simple",
    ),
    pytest.param(
        "first_memphis_1862", "on this hex map one of the 12 facings 0, 30, 60 ... 330", id="hex12-acw_river"
    ),
    pytest.param(
        "santiago_de_cuba_1898",
        "on this hex map one of the 6 facings 0, 60, 120 ... 300",
        id="hex6-memoir_sea",
    ),
    pytest.param("denmark_strait_1941", "0 is north, 90 east", id="table_in-ww2_jackson"),
    pytest.param("sail_constitution_vs_guerriere_1812", "0 is north, 90 east", id="table_mm-sail_1700"),
]


def _game(scenario_key: str) -> Any:
    game = scenario_campaign(scenario_key)
    services.battle_end(battle=game.battle, user=game.umpire)  # its ships are free again (NW-CAMP-02)
    return game


def _ship_and_foe(game: Any) -> tuple[Any, Any]:
    ship = game.campaign.ships.select_related("ship", "side").order_by("pk").first()
    foe = game.campaign.ships.select_related("ship", "side").exclude(side=ship.side).order_by("pk").first()
    return ship, foe


def _row(cs: Any, a: float, b: float, heading: Any) -> dict[str, Any]:
    return {
        f"use_{cs.pk}": "on",
        f"a_{cs.pk}": a,
        f"b_{cs.pk}": b,
        f"heading_{cs.pk}": heading,
        f"speed_{cs.pk}": 0,
    }


def _post(game: Any, data: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(game.umpire)
    return client.post(reverse("battles:battle_new", args=[game.campaign.pk]), {"name": "New", **data})


def _counts() -> tuple[int, int]:
    return Battle.objects.count(), Phase.objects.count()


@pytest.mark.parametrize(("scenario_key", "hint"), SCENARIOS)
@pytest.mark.parametrize("heading", ["720", "-90", "360.5"])
def test_a_heading_outside_0_up_to_360_is_a_form_error_on_every_rule_set(
    scenario_key: str, hint: str, heading: str
) -> None:
    game = _game(scenario_key)
    ship, foe = _ship_and_foe(game)
    before = _counts()

    response = _post(game, {**_row(ship, 3, 4, heading), **_row(foe, 6, 4, 0)})

    assert response.status_code == 400
    html = response.content.decode()
    shown = f"{float(heading):g}"
    assert (
        f"<p>{ship.ship.name}: heading {shown} is not a compass heading. Give 0 up to 360 degrees, clockwise "
        f"from north ({hint}; 360 counts as 0).</p>"
    ) in html
    assert f'name="heading_{ship.pk}" type="number" step="any" min="0" max="360" value="{heading}"' in html
    assert _counts() == before


@pytest.mark.parametrize(("scenario_key", "hint"), SCENARIOS)
def test_a_heading_of_360_is_north_on_every_rule_set(scenario_key: str, hint: str) -> None:
    game = _game(scenario_key)
    ship, foe = _ship_and_foe(game)

    response = _post(game, {**_row(ship, 3, 4, 360), **_row(foe, 6, 4, 0)})

    battle = Battle.objects.get(name="New")
    assert response.status_code == 302
    state = rules.from_json(rules.BattleState, battle.state)
    assert state.ship(f"s{ship.pk}").heading == 0.0


def test_the_service_refuses_a_heading_of_720_too() -> None:
    game = _game("bismarck_last_battle_1941")
    ship, foe = _ship_and_foe(game)
    before = _counts()

    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=game.campaign,
            user=game.umpire,
            name="New",
            placements=[
                services.Placement(campaign_ship=ship, position=Hex(q=3, r=4), heading=720),
                services.Placement(campaign_ship=foe, position=Hex(q=6, r=4), heading=0),
            ],
        )

    assert exc.value.code == "bad_heading"
    assert exc.value.message.startswith(f"{ship.ship.name}: heading 720 is not a compass heading.")
    assert _counts() == before


@pytest.mark.parametrize(("scenario_key", "hint"), SCENARIOS)
def test_a_battle_of_one_sides_ships_is_a_form_error_on_every_rule_set(scenario_key: str, hint: str) -> None:
    game = _game(scenario_key)
    ship, foe = _ship_and_foe(game)
    before = _counts()

    response = _post(game, _row(ship, 3, 4, 0))

    assert response.status_code == 400
    html = response.content.decode()
    assert (
        f"<p>A battle needs ships of at least two sides: every ship chosen is of {ship.side.name}. "
        "Choose a ship of another side too.</p>"
    ) in html
    assert f'name="a_{ship.pk}" type="number" step="any" value="3"' in html  # the form as typed
    assert _counts() == before

    accepted = _post(game, {**_row(ship, 3, 4, 0), **_row(foe, 6, 4, 0)})

    assert accepted.status_code == 302
    assert Battle.objects.filter(name="New").count() == 1


def test_one_side_against_a_battery_alone_is_refused_too() -> None:
    """NW-CAMP-23 replaces NW-CAMP-08's "ships may fight batteries and forts alone": such a battle was over
    when its first phase resolved (``RuleSet.outcome``: at most one side has a ship able to fight)."""
    game = _game("first_memphis_1862")
    ship, _foe = _ship_and_foe(game)
    battery = TerrainFeature(
        kind="battery", position=Hex(q=8, r=4), props={"id": "b1", "dice": 2, "resistance": 6, "range": 6}
    )
    before = _counts()

    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=game.campaign,
            user=game.umpire,
            name="New",
            placements=[services.Placement(campaign_ship=ship, position=Hex(q=3, r=4))],
            terrain=[battery],
        )

    assert (exc.value.code, exc.value.status) == ("one_side", 400)
    assert _counts() == before
