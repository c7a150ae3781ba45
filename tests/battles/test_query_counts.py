"""The battle page and a resolution cost a fixed number of queries, whatever the number of ships (20 or 200).

Django 5.2 assumes SQLite's pre-3.32 limit of 999 bound parameters and splits bulk inserts and updates into
batches by it, which would make a count on SQLite grow with the rows written even though the code issues one
bulk statement per table. The fixture raises Django's idea of the limit to what the linked SQLite allows
(``getlimit``), so these tests count the code's statements; on PostgreSQL there is no such split.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import LogEvent, Order, Phase
from tests.factories import big_battle

pytestmark = pytest.mark.django_db

# The orders section reads the battle's ships once (who commands which ship: battles.order_views).
BATTLE_PAGE_MAX_QUERIES = 10
RESOLUTION_MAX_QUERIES = 15


@pytest.fixture(autouse=True)
def _sqlite_real_parameter_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        monkeypatch.setattr(type(connection.features), "max_query_params", limit)


def _orders_for_half(game: Any, phase: Phase) -> None:
    """Give orders to half of each side's ships (the rest get A7's defaults), with the service."""
    for side, user in game.players.items():
        keys = list(
            game.battle.ships.filter(campaign_ship__side__key=side)
            .order_by("pk")
            .values_list("ship_key", flat=True)
        )
        for key in keys[::2]:
            services.orders_submit(
                phase=phase, user=user, ship_key=key, data={"hexes": 2, "turn": 0, "turn_after": 0}
            )


@pytest.mark.parametrize("ships", [20, 200])
def test_battle_page_queries_do_not_grow_with_ships(ships: int, django_assert_max_num_queries: Any) -> None:
    game = big_battle(ships)
    phase = game.phase
    _orders_for_half(game, phase)
    client = Client()
    client.force_login(game.players["north"])
    url = reverse("battles:battle", args=[game.battle.pk])

    with django_assert_max_num_queries(BATTLE_PAGE_MAX_QUERIES):
        response = client.get(url)

    assert response.status_code == 200
    html = response.content.decode()
    # A fleet this big is folded: one row per own ship, each loading its form when opened (order_panel).
    assert html.count('class="ship-orders ship-orders--folded') == ships // 2
    assert html.count('name="ship_key"') == 0


@pytest.mark.parametrize("ships", [20, 200])
def test_resolution_queries_do_not_grow_with_ships(
    ships: int, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = big_battle(ships)
    phase = game.phase
    _orders_for_half(game, phase)
    with django_capture_on_commit_callbacks(execute=False):
        services.phase_close(phase=phase, user=game.umpire)

    with (
        django_capture_on_commit_callbacks(execute=False),
        django_assert_max_num_queries(RESOLUTION_MAX_QUERIES),
    ):
        assert services.phase_resolve(phase_id=phase.pk) == "resolved"

    assert Order.objects.filter(phase=phase).count() == ships // 2
    moves = LogEvent.objects.filter(phase=phase, kind="move").count()
    assert moves == ships
    assert Phase.objects.get(pk=phase.pk).status == "resolved"


@pytest.mark.parametrize("ships", [20, 200])
def test_resolution_with_every_ship_damaged_stays_within_the_maximum(
    ships: int, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Every ship's status and sheet change (the worst case for the ship updates)."""
    game = big_battle(ships)
    phase = game.phase
    state = services.rules.from_json(services.rules.BattleState, phase.state_before)
    from dataclasses import replace

    damaged = replace(
        state,
        ships=tuple(replace(s, sheet={**s.sheet, "damage": 1}, flags=("on_fire",)) for s in state.ships),
    )
    Phase.objects.filter(pk=phase.pk).update(state_before=services.rules.to_json(damaged), status="resolving")

    with (
        django_capture_on_commit_callbacks(execute=False),
        django_assert_max_num_queries(RESOLUTION_MAX_QUERIES),
    ):
        assert services.phase_resolve(phase_id=phase.pk) == "resolved"

    assert game.campaign.ships.filter(sheet__damage=1).count() == ships
