"""A course typed in lower case is saved in capitals (docs/rulings.md NW-ACW-21, NW-MEM-08): found by a
fresh-user check, acw_river accepted "f" (NW-ACW-20) and the orders table then showed "f"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Order
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _fixed_setup_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set battles up from a fixed number, as tests/battles/test_orders_views.py does."""
    from battles import services as battle_services

    monkeypatch.setattr(battle_services.secrets, "randbits", lambda bits: 12345)


@pytest.mark.parametrize(
    ("scenario", "side", "ship", "post", "saved"),
    [
        pytest.param(
            "first_memphis_1862",
            "union",
            "benton",
            {"course": "f", "astern": "true", "fire_rear": "price"},
            {"course": "F", "astern": True, "fire_rear": "price"},
            id="acw_river",
        ),
        pytest.param(
            "santiago_de_cuba_1898",
            "spain",
            "teresa",
            {"course": "fr", "target": "gloucester"},
            {"course": "FR", "target": "gloucester"},
            id="memoir_sea",
        ),
    ],
)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_lower_case_course_is_stored_and_shown_in_capitals(
    scenario: str, side: str, ship: str, post: dict[str, str], saved: dict[str, object], htmx: bool
) -> None:
    game = scenario_campaign(scenario)
    client = Client()
    client.force_login(game.players[side])
    url = reverse("battles:order_save", args=[game.battle.pk, ship])

    response = client.post(url, {"phase": str(game.phase.pk), **post}, **({"headers": HX} if htmx else {}))

    assert response.status_code == (200 if htmx else 302)
    assert Order.objects.get(phase=game.phase, battle_ship__ship_key=ship).data == saved
    course = saved["course"]
    if htmx:  # the form shown after the save holds what was saved
        assert re.search(rf'name="course" value="{course}"', response.content.decode())
    log = client.get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1").content.decode()
    table = log.split('<table class="orders-table">')[1].split("</table>")[0]
    assert f"<dt>Course</dt><dd>{course}</dd>" in table
    assert f"<dd>{str(course).lower()}</dd>" not in table


def test_the_migration_writes_orders_saved_before_in_capitals() -> None:
    """battles/migrations/0011_course_capitals: an order saved before NW-ACW-21 with "ffr" reads "FFR"; an
    order of another rule set, and one already in capitals, are left as they are."""
    from importlib import import_module

    from django.apps import apps

    from battles.models import BattleShip

    migration = import_module("battles.migrations.0011_course_capitals")
    acw = scenario_campaign("first_memphis_1862")
    benton = BattleShip.objects.get(battle=acw.battle, ship_key="benton")
    old = Order.objects.create(
        phase=acw.phase,
        battle_ship=benton,
        side=benton.campaign_ship.side,
        data={"course": "ffr", "astern": False},
    )
    us = scenario_campaign()
    bismarck = BattleShip.objects.filter(battle=us.battle).first()
    assert bismarck is not None
    other = Order.objects.create(
        phase=us.phase, battle_ship=bismarck, side=bismarck.campaign_ship.side, data={"course": "ffr"}
    )

    migration.course_capitals(apps, None)

    assert Order.objects.get(pk=old.pk).data == {"course": "FFR", "astern": False}
    assert Order.objects.get(pk=other.pk).data == {"course": "ffr"}
    migration.course_capitals(apps, None)  # twice: nothing more changes
    assert Order.objects.get(pk=old.pk).data == {"course": "FFR", "astern": False}
