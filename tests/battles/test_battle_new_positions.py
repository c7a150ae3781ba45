"""The battle form (``battles:battle_new``) refuses a ship placed off the map, naming the map's bounds in the
rule set's units, for every geometry of the five rule sets: hex12 (ultra_simple, acw_river), hex6
(memoir_sea), table_in (ww2_jackson) and table_mm (sail_1700). A ship on the last column and row (a hex
map) or on the table's far edge is on the map. The set-up editor already made this check (map_services)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle
from navalwar.errors import ApplicationError
from rules.model import Hex, MapSpec, Point
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

# scenario, (a, b) off the map, the bounds as named, (a, b) on the far edge
CASES = [
    pytest.param(
        "bismarck_last_battle_1941",
        (30, 5),
        "at q 30, r 5 (column 30, row 20) is off the map: 24 x 18 hexes (columns 0-23, rows 0-17).",
        (23, 6),
        id="hex12-ultra_simple",
    ),
    pytest.param(
        "first_memphis_1862",
        (3, -3),
        "at q 3, r -3 (column 3, row -2) is off the map: 24 x 18 hexes (columns 0-23, rows 0-17).",
        (23, 6),
        id="hex12-acw_river",
    ),
    pytest.param(
        "santiago_de_cuba_1898",
        (-1, 0),
        "at q -1, r 0 (column -1, row -1) is off the map: 24 x 18 hexes (columns 0-23, rows 0-17).",
        (0, 17),
        id="hex6-memoir_sea",
    ),
    pytest.param(
        "denmark_strait_1941",
        (120, 5),
        "at x 120, y 5 is off the map: 96 x 72 inches (x 0-96, y 0-72).",
        (96, 72),
        id="table_in-ww2_jackson",
    ),
    pytest.param(
        "sail_constitution_vs_guerriere_1812",
        (100, -0.5),
        "at x 100, y -0.5 is off the map: 2400 x 1800 mm (x 0-2400, y 0-1800).",
        (2400, 1800),
        id="table_mm-sail_1700",
    ),
]


def _post(game: Any, cship: Any, a: float, b: float) -> dict[str, Any]:
    """The form with ``cship`` at (a, b) and a ship of another side in the middle of the map (a battle needs
    two sides)."""
    rs = rules.get_ruleset(game.campaign.ruleset)
    width, height = rs.default_map
    foe = game.campaign.ships.exclude(side=cship.side).order_by("pk").first()
    return {
        f"use_{foe.pk}": "on",
        f"a_{foe.pk}": width // 2,
        f"b_{foe.pk}": height // 4,
        f"heading_{foe.pk}": 0,
        f"speed_{foe.pk}": 0,
        "name": "Off the edge",
        "width": width,
        "height": height,
        f"use_{cship.pk}": "on",
        f"a_{cship.pk}": a,
        f"b_{cship.pk}": b,
        f"heading_{cship.pk}": 0,
        f"speed_{cship.pk}": 0,
    }


@pytest.mark.parametrize(("scenario_key", "off", "message", "edge"), CASES)
def test_a_ship_off_the_map_is_a_form_error_naming_the_bounds(
    scenario_key: str, off: tuple[float, float], message: str, edge: tuple[float, float]
) -> None:
    game = scenario_campaign(scenario_key)
    services.battle_end(battle=game.battle, user=game.umpire)
    cship = game.campaign.ships.select_related("ship").order_by("pk").first()
    client = Client()
    client.force_login(game.umpire)
    url = reverse("battles:battle_new", args=[game.campaign.pk])

    refused = client.post(url, _post(game, cship, *off))

    assert refused.status_code == 400
    assert f"<p>{cship.ship.name} {message}</p>" in refused.content.decode()
    assert Battle.objects.count() == 1  # the scenario's battle only: nothing was saved

    accepted = client.post(url, _post(game, cship, *edge))

    battle = Battle.objects.get(name="Off the edge")
    assert accepted["Location"] == reverse("battles:battle", args=[battle.pk])
    state = rules.from_json(rules.BattleState, battle.state)
    hexes = state.map.geometry.startswith("hex")
    want = Hex(q=int(edge[0]), r=int(edge[1])) if hexes else Point(x=float(edge[0]), y=float(edge[1]))
    assert state.ship(f"s{cship.pk}").position == want


def test_every_ship_off_the_map_is_named_and_the_service_refuses_them_too() -> None:
    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)
    ships = list(game.campaign.ships.select_related("ship").order_by("pk"))
    spec = MapSpec(geometry="hex12", width=10, height=8)
    placements = [
        services.Placement(campaign_ship=ships[0], position=Hex(q=10, r=0)),
        services.Placement(campaign_ship=ships[1], position=Hex(q=9, r=3)),  # column 9, row 7: on the map
        services.Placement(campaign_ship=ships[2], position=Point(x=1.0, y=1.0)),
    ]

    errors = services.placement_errors(placements=placements, map_spec=spec)
    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=game.campaign, user=game.umpire, name="X", placements=placements, map_spec=spec
        )

    assert errors == [
        f"{ships[0].ship.name} at q 10, r 0 (column 10, row 5) is off the map: 10 x 8 hexes "
        "(columns 0-9, rows 0-7).",
        f"{ships[2].ship.name} needs a hex (q, r) position.",
    ]
    assert (exc.value.code, exc.value.fields) == ("off_map", {"position": errors})
    assert Battle.objects.count() == 1
