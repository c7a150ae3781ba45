"""A battle created in set-up and started later (docs/rulings.md NW-CAMP-21, NW-CAMP-22): both creation forms
(``battles:battle_scenario`` on the campaign page, ``battles:battle_new``) offer "Open the set-up editor
before starting"; the umpire lands on the set-up editor, whose "Start battle" (``battles:battle_start``,
``services.battle_start``) opens phase 1 as a battle started at once does. Players see the battle as being
set up, with no orders."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import rules
from battles import services
from battles.models import Battle, Phase, PhaseSide
from navalwar.errors import ApplicationError
from rules.model import BattleState
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIO = "bismarck_last_battle_1941"  # ultra_simple, hexes: one phase a turn, both sides
SETUP_LABEL = "Open the set-up editor before starting"
START_FORM = 'action="{}"'


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html(response: Any) -> str:
    return response.content.decode()


def _start_url(battle: Battle) -> str:
    return reverse("battles:battle_start", args=[battle.pk])


def _editor_url(battle: Battle) -> str:
    return reverse("battles:battle_setup_map", args=[battle.pk])


def _free_campaign() -> Any:
    """A campaign whose scenario battle is over, so its ships may fight a new one (NW-CAMP-02)."""
    game = scenario_campaign(SCENARIO)
    services.battle_end(battle=game.battle, user=game.umpire)
    return game


def _battle_new_post(game: Any, **extra: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Ambush", "width": 24, "height": 18, **extra}
    for i, cs in enumerate(game.campaign.ships.order_by("pk")):
        data |= {
            f"use_{cs.pk}": "on",
            f"a_{cs.pk}": 3 + 3 * i,
            f"b_{cs.pk}": 4,
            f"heading_{cs.pk}": 60,
            f"speed_{cs.pk}": 1,
        }
    return data


def _phase_shape(phase: Phase) -> tuple[Any, ...]:
    """What a battle's phase 1 is, but for its seed and deadline (drawn when it opens)."""
    ready = sorted(PhaseSide.objects.filter(phase=phase).values_list("side__key", "ready", "deadline"))
    return (phase.number, phase.turn, phase.phase_index, phase.name, phase.sides, phase.status, ready)


# --- the creation forms --------------------------------------------------------------------------------


def test_both_creation_forms_offer_the_set_up_editor_unticked() -> None:
    game = _free_campaign()
    umpire = _client(game.umpire)

    campaign_page = _html(umpire.get(reverse("battles:campaign", args=[game.campaign.pk])))
    battle_form = _html(umpire.get(reverse("battles:battle_new", args=[game.campaign.pk])))

    assert f'<label for="id_setup_first">{SETUP_LABEL}</label>' in campaign_page
    assert '<input type="checkbox" name="setup_first" aria-describedby="id_setup_first_helptext"' in (
        campaign_page
    )
    assert f'<label for="setup_first">{SETUP_LABEL}</label>' in battle_form
    assert (
        '<input type="checkbox" name="setup_first" id="setup_first" aria-describedby="setup_first_helptext">'
        in battle_form
    )


def test_the_scenario_form_creates_the_battle_in_set_up_and_opens_the_editor() -> None:
    game = _free_campaign()
    umpire = _client(game.umpire)

    response = umpire.post(
        reverse("battles:battle_scenario", args=[game.campaign.pk]),
        {"scenario": SCENARIO, "name": "Second round", "setup_first": "on"},
    )

    battle = Battle.objects.get(name="Second round")
    assert response.status_code == 302 and response["Location"] == _editor_url(battle)
    assert (battle.status, battle.started_at, battle.phases.count()) == ("setup", None, 0)
    editor = umpire.get(response["Location"])
    assert editor.status_code == 200
    html = _html(editor)
    assert "Second round is created in set-up: place the ships, paint the terrain and set the" in html
    assert START_FORM.format(_start_url(battle)) in html
    assert '<button type="submit" class="button" id="start-battle">Start battle</button>' in html


def test_the_battle_form_creates_the_battle_in_set_up_and_opens_the_editor() -> None:
    game = _free_campaign()
    umpire = _client(game.umpire)

    response = umpire.post(
        reverse("battles:battle_new", args=[game.campaign.pk]), _battle_new_post(game, setup_first="on")
    )

    battle = Battle.objects.get(name="Ambush")
    assert response.status_code == 302 and response["Location"] == _editor_url(battle)
    assert (battle.status, battle.phases.count(), battle.ships.count()) == ("setup", 0, 3)
    state = rules.from_json(BattleState, battle.state)
    assert sorted((s.position.q, s.position.r, s.heading) for s in state.ships) == [  # type: ignore[union-attr]
        (3, 4, 60.0),
        (6, 4, 60.0),
        (9, 4, 60.0),
    ]
    html = _html(umpire.get(response["Location"]))
    assert START_FORM.format(_start_url(battle)) in html


def test_a_refused_battle_form_keeps_the_set_up_choice_ticked() -> None:
    game = _free_campaign()
    data = _battle_new_post(game, setup_first="on", width="0")

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert "The map&#x27;s width and height must each be at least 1" in _html(response)
    assert 'name="setup_first" id="setup_first" aria-describedby="setup_first_helptext" checked>' in (
        _html(response)
    )
    assert not Battle.objects.filter(name="Ambush").exists()


def test_unticked_both_forms_still_start_at_once() -> None:
    game = _free_campaign()
    umpire = _client(game.umpire)

    response = umpire.post(
        reverse("battles:battle_scenario", args=[game.campaign.pk]), {"scenario": SCENARIO, "name": "Again"}
    )

    battle = Battle.objects.get(name="Again")
    assert response["Location"] == reverse("battles:battle", args=[battle.pk])
    assert (battle.status, battle.phases.count()) == ("active", 1)


# --- Start -----------------------------------------------------------------------------------------------


def test_start_opens_phase_one_as_a_battle_started_at_once() -> None:
    """NW-CAMP-21: the same code opens phase 1 (``services._battle_start``): the same state, phase and sides;
    the deadline counts from the start."""
    at_once = scenario_campaign(SCENARIO)
    later = scenario_campaign(SCENARIO, start=False)
    state_in_set_up = Battle.objects.get(pk=later.battle.pk).state
    umpire = _client(later.umpire)
    assert START_FORM.format(_start_url(later.battle)) in _html(
        umpire.get(reverse("battles:battle", args=[later.battle.pk]))
    )

    response = umpire.post(_start_url(later.battle), follow=True)

    assert response.redirect_chain == [(reverse("battles:battle", args=[later.battle.pk]), 302)]
    html = _html(response)
    assert "The battle has started: phase 1 is open for orders." in html
    assert START_FORM.format(_start_url(later.battle)) not in html
    battle = Battle.objects.get(pk=later.battle.pk)
    assert battle.status == "active" and battle.started_at is not None
    assert battle.state == state_in_set_up  # the set-up's rolls stand
    first = Battle.objects.get(pk=at_once.battle.pk)
    assert battle.state == first.state
    assert battle.setup_events == first.setup_events
    phase = battle.phases.get()
    assert _phase_shape(phase) == _phase_shape(first.phases.get())
    assert _phase_shape(phase)[:6] == (1, 1, 0, "turn", ["britain", "germany"], "open")
    assert phase.state_before == battle.state
    assert phase.seed_hash == services.seed_hash(phase.seed)
    hours = services.DEFAULT_DEADLINE_HOURS
    assert abs(phase.deadline - (battle.started_at + timedelta(hours=hours))) < timedelta(seconds=5)
    assert timezone.now() - battle.started_at < timedelta(minutes=1)
    # and the editor is closed: it sends the umpire to the map
    assert umpire.get(_editor_url(battle))["Location"] == reverse("battles:battle_map", args=[battle.pk])


def test_a_second_start_changes_nothing_and_says_so() -> None:
    """A double click, or Start in a second tab: the second post opens no second phase."""
    game = scenario_campaign(SCENARIO, start=False)
    umpire = _client(game.umpire)
    assert umpire.post(_start_url(game.battle)).status_code == 302
    phase = Phase.objects.get(battle=game.battle)
    before = (Battle.objects.get(pk=game.battle.pk).started_at, phase.seed, phase.deadline)

    again = umpire.post(_start_url(game.battle), follow=True)

    assert again.redirect_chain == [(reverse("battles:battle", args=[game.battle.pk]), 302)]
    assert "The battle has already started: nothing was changed." in _html(again)
    phase = Phase.objects.get(battle=game.battle)  # still one
    assert (Battle.objects.get(pk=game.battle.pk).started_at, phase.seed, phase.deadline) == before
    with pytest.raises(ApplicationError) as exc:
        services.battle_start(battle=game.battle, user=game.umpire)
    assert (exc.value.code, exc.value.status) == ("battle_started", 409)


def test_start_of_a_battle_started_at_creation_or_over_is_refused_with_a_message() -> None:
    game = scenario_campaign(SCENARIO)  # started: phase 1 is open
    umpire = _client(game.umpire)

    response = umpire.post(_start_url(game.battle), follow=True)

    assert "The battle has already started: nothing was changed." in _html(response)
    assert Phase.objects.filter(battle=game.battle).count() == 1
    services.battle_end(battle=game.battle, user=game.umpire)
    over = umpire.post(_start_url(game.battle), follow=True)
    assert "The battle is over: nothing was changed." in _html(over)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
    assert Phase.objects.filter(battle=game.battle).count() == 1


def test_start_refuses_a_set_up_the_rules_refuse_and_sends_the_umpire_back_to_the_editor() -> None:
    """``rules.check_state`` (NW-CAMP-08) runs at the start, as at creation: two ships in one hex (NW-CAMP-07)
    written into the state stay in set-up, named."""
    game = scenario_campaign(SCENARIO, start=False)
    battle = Battle.objects.get(pk=game.battle.pk)
    state = rules.from_json(BattleState, battle.state)
    ships = state.ship_map()
    ships["rodney"] = replace(ships["rodney"], position=ships["kgv"].position)
    battle.state = rules.to_json(state.with_ships(ships))
    battle.save(update_fields=["state"])

    response = _client(game.umpire).post(_start_url(battle), follow=True)

    assert response.redirect_chain == [(_editor_url(battle), 302)]
    html = _html(response)
    assert "The rules refuse this set-up: " in html and "Rodney" in html
    assert "Change it in the set-up editor." in html
    assert (Battle.objects.get(pk=battle.pk).status, Phase.objects.filter(battle=battle).count()) == (
        "setup",
        0,
    )


def test_players_observers_and_strangers_may_not_start_the_battle() -> None:
    game = scenario_campaign(SCENARIO, start=False)
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    stranger = UserFactory()

    for user, status in (
        (game.players["britain"], 403),
        (game.players["germany"], 403),
        (observer, 403),
        (stranger, 404),
    ):
        response = _client(user).post(_start_url(game.battle))
        assert response.status_code == status, user
        if status == 403:
            assert '<p id="refusal">Only an umpire of this campaign may do that.</p>' in _html(response)
        with pytest.raises(ApplicationError) as exc:
            services.battle_start(battle=game.battle, user=user)
        assert exc.value.code == "not_umpire"
    anonymous = Client().post(_start_url(game.battle))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))

    assert (Battle.objects.get(pk=game.battle.pk).status, Phase.objects.count()) == ("setup", 0)


def test_start_is_a_post() -> None:
    game = scenario_campaign(SCENARIO, start=False)

    assert _client(game.umpire).get(_start_url(game.battle)).status_code == 405
    assert Battle.objects.get(pk=game.battle.pk).status == "setup"


# --- what the players see ----------------------------------------------------------------------------------


def test_players_and_observers_see_the_battle_being_set_up_without_orders_or_start() -> None:
    """NW-CAMP-22: the battle page says the battle is being set up; no orders, no Start, no editor link.
    What the map shows is A2's view of the state (``view_for``), as at the start."""
    game = scenario_campaign(SCENARIO, start=False)
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")

    for user in (game.players["britain"], game.players["germany"], observer):
        response = _client(user).get(reverse("battles:battle", args=[game.battle.pk]))
        assert response.status_code == 200
        html = _html(response)
        assert '<p id="setup-wait">The umpire is setting up this battle' in html
        assert "Orders open when the battle starts." in html
        assert "No orders to give." in html and 'class="order-form"' not in html
        assert _start_url(game.battle) not in html and _editor_url(game.battle) not in html
        assert _client(user).get(reverse("battles:battle_map", args=[game.battle.pk])).status_code == 200

    umpire = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))
    assert 'id="setup-wait"' not in umpire and _editor_url(game.battle) in umpire
