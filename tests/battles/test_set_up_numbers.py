"""Every number of the battle set-up form that is none is named at once, ship and field (a fresh-user check
typed 1e9 and was told only "Positions, headings, speeds and the map size must be numbers.")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles import services
from battles.models import Battle
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


def test_each_bad_number_is_named_and_nothing_is_created() -> None:
    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)
    first, second = game.campaign.ships.order_by("pk")[:2]
    data = {
        "name": "Typo",
        f"use_{first.pk}": "on",
        f"a_{first.pk}": "3",
        f"b_{first.pk}": "x",
        f"heading_{first.pk}": "1e3",
        f"use_{second.pk}": "on",
        f"a_{second.pk}": "5",
        f"b_{second.pk}": "4",
        f"speed_{second.pk}": "fast",
        "height": "-1e9",
    }
    client = Client()
    client.force_login(game.umpire)

    response = client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    text = re.sub(r"\s+", " ", response.content.decode())
    for message in [
        f"{first.ship.name}, r: 'x' is not a whole number.",
        f"{first.ship.name}, heading: enter the number in plain digits: 1e3 has an exponent.",
        f"{second.ship.name}, speed: 'fast' is not a number.",
        "The map's height: enter the number in plain digits: -1e9 has an exponent.",
    ]:
        assert escape(message) in text
    assert Battle.objects.count() == 1


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("denmark_strait_1941", None),
        (
            "sail_constitution_vs_guerriere_1812",
            '[{"kind": "shoal", "position": {"x": 600, "y": 450}, "props": {}, "visible_to": null}]',
        ),
        (
            "first_memphis_1862",
            '[{"kind": "land", "position": {"q": 3, "r": 4}, "props": {}, "visible_to": null}]',
        ),
    ],
)
def test_the_terrain_box_is_the_rule_sets_own(key: str, shown: str | None) -> None:
    """A fresh-user check: ww2_jackson's battle form showed a hex shoal and a mine, on a table without
    terrain."""
    game = scenario_campaign(key)
    client = Client()
    client.force_login(game.umpire)

    text = re.sub(
        r"\s+", " ", client.get(reverse("battles:battle_new", args=[game.campaign.pk])).content.decode()
    )

    if shown is None:
        assert 'name="terrain"' not in text
        assert "has no terrain: the battle is fought on open water." in text
    else:
        assert f"Terrain (A3), JSON list, e.g. {escape(shown)}" in text
    assert ("(a mine it laid)" in text) is (key == "first_memphis_1862")


def test_a_starting_speed_above_her_class_is_refused_not_cut() -> None:
    """A fresh-user check gave a ship 1000 and the battle began with her top speed, without a word; the
    ship edit refuses such a speed (NW-CAMP-29), and so does the battle form now."""
    game = scenario_campaign("denmark_strait_1941")
    services.battle_end(battle=game.battle, user=game.umpire)
    ships = list(game.campaign.ships.order_by("pk"))
    first = ships[0]
    second = next(cs for cs in ships if cs.side_id != first.side_id)
    data = {
        "name": "Fast",
        f"use_{first.pk}": "on",
        f"a_{first.pk}": "10",
        f"b_{first.pk}": "10",
        f"speed_{first.pk}": "1000",
        f"use_{second.pk}": "on",
        f"a_{second.pk}": "30",
        f"b_{second.pk}": "30",
    }
    client = Client()
    client.force_login(game.umpire)

    response = client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    text = re.sub(r"\s+", " ", response.content.decode())
    assert f"Starting speeds: {escape(first.ship.name)} makes at most " in text
    assert "(her class, undamaged), not 1000." in text
    assert f'name="speed_{first.pk}" type="number" step="any" value="1000"' in text
    assert Battle.objects.count() == 1


@pytest.mark.parametrize("typed", ["", "   "])
def test_a_battle_without_a_name_is_refused_not_called_battle(typed: str) -> None:
    """A fresh-user check left the name blank (the field is marked required, but a form posted without the
    browser's check): the battle was made and called "Battle". The form says so, and keeps the ships."""
    game = scenario_campaign("denmark_strait_1941")
    services.battle_end(battle=game.battle, user=game.umpire)
    ships = list(game.campaign.ships.order_by("pk"))
    first = ships[0]
    second = next(cs for cs in ships if cs.side_id != first.side_id)
    data = {"name": typed}
    for cs, at in ((first, "10"), (second, "30")):
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": at, f"b_{cs.pk}": at}
    client = Client()
    client.force_login(game.umpire)

    response = client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert "Give the battle a name." in response.content.decode()
    assert f'name="a_{first.pk}" type="number" step="any" value="10"' in response.content.decode()
    assert Battle.objects.count() == 1
    data["name"] = "  Second Denmark Strait "
    assert client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data).status_code == 302
    assert Battle.objects.latest("pk").name == "Second Denmark Strait"
