"""Every bundled scenario of every registered rule set plays through the site: the battle is created, every
page renders for the umpire and a player of each side, plain-post orders from the rendered form are saved,
and the first phase resolves and the next opens (two phases per turn in sail_1700, A1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Phase
from navalwar.errors import ApplicationError
from rules.scenario import bundled_scenarios
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIOS = sorted(bundled_scenarios())


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("scenario_key", SCENARIOS)
def test_scenario_plays_through_the_site(scenario_key: str, django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign(scenario_key)
    first = game.phase
    state = rules.from_json(rules.BattleState, first.state_before)
    rs = rules.get_ruleset(state.ruleset)
    assert first.sides == list(rs.ordering_sides(state))
    battle_url = reverse("battles:battle", args=[game.battle.pk])

    for side, user in [(None, game.umpire), *game.players.items()]:
        client = _client(user)
        for url in [
            battle_url,
            reverse("battles:battle_log", args=[game.battle.pk]),
            reverse("battles:campaign", args=[game.campaign.pk]),
        ]:
            assert client.get(url).status_code == 200, url
        # A ship out of sight (A2: at night, beyond visibility) is a 404 to that side, as if not there.
        seen = {s.id for s in rs.view_for(state, side).ships}
        for ship in state.ships:
            response = client.get(reverse("battles:ship_sheet", args=[game.battle.pk, ship.id]))
            assert response.status_code == (200 if ship.id in seen else 404), (side, ship.id)

    # A side that does not order in this phase is refused with a clear message (sail_1700's alternate moves).
    for side, user in game.players.items():
        ship = next(s for s in state.ships if s.side == side and s.active)
        if side not in first.sides:
            with pytest.raises(ApplicationError) as exc:
                services.orders_submit(phase=first, user=user, ship_key=ship.id, data={})
            assert exc.value.code == "side_not_ordering"
        else:
            # The default order of the ship, as the rules would fill it in, is a legal submission.
            order = rs.default_order(state, ship, "hold")
            saved = services.orders_submit(phase=first, user=user, ship_key=ship.id, data=order.data)
            assert saved.data == order.data

    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    resolved = Phase.objects.get(pk=first.pk)
    assert (resolved.status, resolved.error) == ("resolved", "")
    after = rules.from_json(rules.BattleState, resolved.state_after)
    following = Phase.objects.filter(battle=game.battle, superseded=False).order_by("-number").first()
    if not after.finished:
        assert (following.number, following.status) == (2, "open")
        assert following.sides == list(rs.ordering_sides(after))
    for user in [game.umpire, *game.players.values()]:
        html = _client(user).get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1")
        assert html.status_code == 200
        # NW-CAMP-03: the umpire sees the seed once the phase is resolved, the players once the battle is over
        shown = user == game.umpire or after.finished
        assert (f"Seed: {resolved.seed}" in html.content.decode()) is shown


def test_sail_alternate_phases_give_orders_to_one_side_at_a_time(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = scenario_campaign("sail_constitution_vs_guerriere_1812")
    phase = game.phase
    (mover,) = phase.sides  # who moves first was rolled at set-up (A1)
    other = next(k for k in game.players if k != mover)
    waiting = (
        _client(game.players[other]).get(reverse("battles:battle", args=[game.battle.pk])).content.decode()
    )
    moving = (
        _client(game.players[mover]).get(reverse("battles:battle", args=[game.battle.pk])).content.decode()
    )
    assert "Your side gives no orders in this phase." in waiting
    assert 'name="ship_key"' not in waiting and 'name="ship_key"' in moving

    with django_capture_on_commit_callbacks(execute=True):
        services.side_set_ready(phase=phase, user=game.players[mover])  # the only ordering side

    second = game.phase
    assert (second.number, second.turn, second.phase_index, second.sides) == (2, 1, 1, [other])
