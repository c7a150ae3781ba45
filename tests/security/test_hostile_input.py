"""Bad input in a URL is a 404 (or the form's error), never a 500: ids too large for any database column,
very long keys, query strings that are not numbers. (On SQLite an id over 2**63 used to reach the
database and raise OverflowError.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.security.harness import request
from tests.security.world import World, build_world, url_patterns

pytestmark = pytest.mark.django_db

IDS = ("campaign_id", "battle_id", "ship_id", "invitation_id")


@pytest.fixture
def world() -> World:
    return build_world()


def _cases() -> list[tuple[str, str]]:
    return [
        (name, param)
        for name, _route, params in url_patterns()
        if not name.startswith("admin:")
        for param in params
    ]


@pytest.mark.parametrize(("name", "param"), _cases(), ids=lambda v: v)
def test_an_oversized_or_overlong_url_argument_is_not_a_server_error(
    world: World, name: str, param: str
) -> None:
    params = next(p for n, _r, p in url_patterns() if n == name)
    kwargs = {p: world.kwargs_for(name)[p] for p in params}
    if param in IDS:
        # reverse() a sentinel: the URL converter may refuse to build the URL with the oversized id itself
        sentinel = 424242
        url = reverse(name, kwargs={**kwargs, param: sentinel}).replace(str(sentinel), str(2**70))
    else:
        url = reverse(name, kwargs={**kwargs, param: "x" * 300})

    for role in ("player", "umpire"):
        for method in ("GET", "POST"):
            response = request(world.users[role], method, url)
            assert response.status_code < 500, (url, role, method)
            if param in IDS:
                assert response.status_code in (404, 405), (url, role, method, response.status_code)


@pytest.mark.parametrize(
    "query",
    [
        "phase=99999999999999999999999",
        "phase_id=99999999999999999999999",
        "step=99999999999999999999999",
        "step=-1",
        "step=x",
        "ship=%00",
        "phase=%00",
        "preview=1&ship=kgv&hexes=99999999999999999999",
    ],
)
@pytest.mark.parametrize(
    "name",
    [
        "battles:battle",
        "battles:battle_log",
        "battles:battle_map",
        "battles:battle_map_svg",
        "battles:battle_status",
    ],
)
def test_hostile_query_strings_are_not_a_server_error(world: World, name: str, query: str) -> None:
    url = reverse(name, kwargs={"battle_id": world.battle.pk}) + "?" + query

    for headers in ({}, {"HX-Request": "true"}):
        response = request(world.users["player"], "GET", url, headers=headers)
        assert response.status_code < 500, (url, headers, response.status_code)
