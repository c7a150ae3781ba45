"""The umpire reopens a battle they ended (docs/rulings.md NW-CAMP-09): "End the battle" by mistake left
the phase in play superseded and the battle finished, and a roll back (which takes the phases not
superseded) could not bring it back: a battle ended in phase 1 not at all, a later one only to the phase
before. Reopening restores the state before that phase, clears the result and opens a phase with its number
again; the umpire only, a battle the umpire ended only, and with a roll back's guards (NW-CAMP-02, -06)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

import rules
from battles import services
from battles.models import Battle, BattleShip, Phase
from navalwar.errors import ApplicationError
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIO = "bismarck_last_battle_1941"
CONFIRM = (
    "Reopen the battle? Its end is undone: the result and winner are cleared, and phase {n} opens again "
    "as it stood when the battle was ended, with a new dice seed and deadline. The orders given in it "
    "before the end stay in the log, unused: the sides give their orders again."
)


@pytest.fixture
def game() -> Any:
    return scenario_campaign(SCENARIO)


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _html(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _reopen(user: Any, game: Any, **kwargs: Any) -> Any:
    return _client(user).post(
        reverse("battles:umpire", args=[game.battle.pk]), {"action": "reopen"}, **kwargs
    )


def _umpire_page(game: Any) -> str:
    html = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))
    return html[html.index('id="umpire"') :]


def _resolve(game: Any, capture: Any) -> Phase:
    """Resolve the open phase (resolve now) and return the phase opened after it, if any."""
    phase = Phase.objects.get(battle=game.battle, superseded=False, status="open")
    with capture(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    assert Phase.objects.get(pk=phase.pk).status == "resolved"
    return Phase.objects.filter(battle=game.battle, superseded=False, status="open").first()  # type: ignore[return-value]


def _open_phase(game: Any) -> Phase:
    return Phase.objects.get(battle=game.battle, superseded=False, status="open")


def test_a_battle_ended_in_phase_1_reopens_in_phase_1(game: Any) -> None:
    first = _open_phase(game)
    services.orders_submit(phase=first, user=game.players["britain"], ship_key="kgv", data={"hexes": 1})
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain", reason="A slip")
    with pytest.raises(ApplicationError) as exc:
        services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)
    assert exc.value.code == "no_phase"

    page = _umpire_page(game)
    assert "<h3>Reopen the battle</h3>" in page
    # "Over" counts the phases played: none here; the end came while phase 1 was open (a fresh-user check
    # read "Over after phase 1" beside "ended it in phase 2" as two answers)
    assert "An umpire ended it while phase 1 was open, before it was played." in page
    assert (
        f'data-confirm="{escape(CONFIRM.format(n=1))}" onsubmit="return confirm(this.dataset.confirm)"'
        in page
    )

    response = _reopen(game.umpire, game, follow=True)

    assert "Reopened: the battle is on again, and phase 1 is open." in _html(response)
    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.winner, battle.end_reason, battle.finished_at) == ("active", "", "", None)
    phase = _open_phase(game)
    assert (phase.number, phase.turn, phase.pk != first.pk) == (1, first.turn, True)
    assert phase.state_before == first.state_before == battle.state
    state = rules.from_json(rules.BattleState, battle.state)
    assert (state.finished, state.winner) == (False, None)
    assert phase.seed != first.seed
    assert phase.orders.count() == 0
    old = Phase.objects.get(pk=first.pk)
    assert (old.superseded, old.close_reason, old.orders.count()) == (True, "battle_ended_reopened", 1)
    # no longer offered; the battle's page is a running battle's
    page = _umpire_page(game)
    assert "Reopen the battle" not in page
    assert "<h3>End the battle</h3>" in page
    log = _html(
        _client(game.players["britain"]).get(
            reverse("battles:battle_log", args=[game.battle.pk]) + f"?phase_id={first.pk}"
        )
    )
    assert (
        "This phase was not played: the umpire ended the battle, then reopened it, and phase 1 opened again; "
        "it is kept for the record." in log
    )


def test_a_battle_ended_in_a_later_phase_reopens_that_phase_as_it_stood(
    django_capture_on_commit_callbacks: Any,
) -> None:
    # ships that hold their fire: with fire_nearest Bismarck sinks in phase 2 and there is no phase 3
    game = scenario_campaign(SCENARIO, settings={"default_orders": "hold"})
    second = _resolve(game, django_capture_on_commit_callbacks)
    services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 1}, reason="Boiler"
    )
    second.refresh_from_db()
    services.battle_end(battle=game.battle, user=game.umpire, winner="germany")
    ended_state = Battle.objects.get(pk=game.battle.pk).state
    assert ended_state != second.state_before  # finished, with a winner

    response = _reopen(game.umpire, game)

    assert response.status_code == 302
    battle = Battle.objects.get(pk=game.battle.pk)
    phase = _open_phase(game)
    assert (phase.number, phase.turn, phase.phase_index) == (2, second.turn, second.phase_index)
    assert phase.state_before == second.state_before == battle.state
    assert rules.from_json(rules.BattleState, battle.state).ship("kgv").speed == 1.0  # the edit kept
    assert (battle.status, battle.winner) == ("active", "")
    # phase 1 is untouched: still resolved and in play, so a roll back can still go to it
    assert list(
        Phase.objects.filter(battle=game.battle, superseded=False)
        .order_by("number")
        .values_list("number", "status")
    ) == [(1, "resolved"), (2, "open")]
    # the reopened phase plays on
    third = _resolve(game, django_capture_on_commit_callbacks)
    assert third.number == 3


def test_a_battle_ended_again_after_a_reopen_reopens_again_with_a_new_seed(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    services.battle_reopen(battle=game.battle, user=game.umpire)
    services.battle_end(battle=game.battle, user=game.umpire)

    phase = services.battle_reopen(battle=game.battle, user=game.umpire)

    seeds = list(Phase.objects.filter(battle=game.battle, number=1).values_list("seed", flat=True))
    assert (phase.number, len(seeds), len(set(seeds))) == (1, 3, 3)
    assert Battle.objects.get(pk=game.battle.pk).status == "active"


@pytest.mark.parametrize("who", ["britain", "observer"])
def test_only_the_umpire_reopens(game: Any, who: str) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    if who == "observer":
        user = UserFactory()
        services.membership_add(campaign=game.campaign, user=user, role="observer")
    else:
        user = game.players[who]

    response = _reopen(user, game)

    assert response.status_code == 403
    assert "Only an umpire of this campaign may do that." in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
    assert "Reopen the battle" not in _html(
        _client(user).get(reverse("battles:battle", args=[game.battle.pk]))
    )
    with pytest.raises(ApplicationError) as exc:
        services.battle_reopen(battle=game.battle, user=user)
    assert (exc.value.code, exc.value.status) == ("not_umpire", 403)


def test_a_stranger_gets_a_404(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    assert _reopen(UserFactory(), game).status_code == 404
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"


def test_a_battle_still_in_play_is_not_reopened(game: Any) -> None:
    assert "Reopen the battle" not in _umpire_page(game)

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert "The battle is not over: there is nothing to reopen. Nothing was changed." in _html(response)
    assert list(Phase.objects.filter(battle=game.battle).values_list("pk", "superseded")) == [
        (game.phase.pk, False)
    ]


def test_a_battle_the_rules_finished_is_not_reopened(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="bismarck",
        user=game.umpire,
        changes={"status": "sunk"},
        reason="Scuttled",
    )
    assert _resolve(game, django_capture_on_commit_callbacks) is None
    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.winner, battle.end_reason) == (
        "finished",
        "britain",
        "A side has nothing left able to fight.",
    )
    page = _umpire_page(game)
    assert "Reopen the battle" not in page
    assert "<h3>Roll back</h3>" in page  # that is how it is undone

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert (
        "The battle was not ended by the umpire (its last phase finished it): to play on, roll it back to a "
        "phase. Nothing was changed." in _html(response)
    )
    assert Battle.objects.get(pk=game.battle.pk).state == battle.state
    assert Phase.objects.filter(battle=game.battle).count() == 1


def test_a_battle_the_rules_finished_after_a_reopen_is_not_reopened(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The earlier end (phase 1, superseded) is not the battle's end any more."""
    services.battle_end(battle=game.battle, user=game.umpire)
    services.battle_reopen(battle=game.battle, user=game.umpire)
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="bismarck",
        user=game.umpire,
        changes={"status": "sunk"},
        reason="Scuttled",
    )
    _resolve(game, django_capture_on_commit_callbacks)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"

    with pytest.raises(ApplicationError) as exc:
        services.battle_reopen(battle=game.battle, user=game.umpire)

    assert (exc.value.code, exc.value.status) == ("not_ended_by_umpire", 409)


def test_a_battle_ended_in_set_up_is_not_reopened() -> None:
    game = scenario_campaign(SCENARIO, start=False)
    services.battle_end(battle=game.battle, user=game.umpire)

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert (
        "The battle was not ended by the umpire, or it ended before its first phase: there is no phase to "
        "reopen. Nothing was changed." in _html(response)
    )
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"


def test_a_battle_whose_ships_fight_another_now_is_not_reopened(game: Any) -> None:
    """NW-CAMP-02, as a roll back of a finished battle."""
    first = game.phase
    services.battle_end(battle=game.battle, user=game.umpire)
    services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
    )

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert escape('King George V, Rodney, Bismarck are already in the battle "Rematch" (active).') in _html(
        response
    )
    battle = Battle.objects.get(pk=game.battle.pk)
    assert battle.status == "finished"
    assert Phase.objects.get(pk=first.pk).close_reason == "battle_ended"


def test_a_battle_whose_ship_was_repaired_since_is_not_reopened(game: Any) -> None:
    """NW-CAMP-06: reopening would put her sheet back to the battle's, undoing the repair."""
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    kgv = game.campaign.ships.get(ship__name="King George V")
    services.campaign_ship_repair(campaign_ship=kgv, user=game.umpire, reason="Dry dock", status="withdrawn")

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert escape(
        "King George V was repaired after this battle ended: reopening it would undo the repair. Nothing was "
        "reopened; the battle stays over."
    ) in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).winner == "britain"
    kgv.refresh_from_db()
    assert kgv.status == "withdrawn"
    assert BattleShip.objects.get(battle=game.battle, ship_key="kgv").status == "active"


def test_a_battle_whose_ship_fought_a_later_battle_is_not_reopened_nor_rolled_back(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """NW-CAMP-19: Bismarck was sunk in a rematch fought after this battle ended; reopening (or rolling back)
    this one would put her sheet and status back to this battle's: afloat again, the rematch's end undone."""
    _resolve(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=game.battle, user=game.umpire)
    rematch = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
    )
    services.battle_ship_edit(
        battle=rematch, ship_key="bismarck", user=game.umpire, changes={"status": "sunk"}, reason="Scuttled"
    )
    services.battle_end(battle=rematch, user=game.umpire, winner="britain")

    response = _reopen(game.umpire, game)

    assert response.status_code == 409
    assert escape(
        'Bismarck fought in the battle "Rematch" after this battle ended: reopening it would undo that '
        "battle's damage and losses. Nothing was reopened; the battle stays over."
    ) in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
    assert game.campaign.ships.get(ship__name="Bismarck").status == "sunk"
    with pytest.raises(ApplicationError) as refused:
        services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)
    assert refused.value.code == "fought_since"
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
    assert game.campaign.ships.get(ship__name="Bismarck").status == "sunk"


def test_orders_for_the_phase_the_battle_was_ended_in_say_so(game: Any) -> None:
    """A player's order for the phase in play when the umpire ended the battle is refused as that, not as a
    phase rolled back (it was superseded by the end, not by a roll back); one rolled back still says so."""
    first = _open_phase(game)
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain", reason="Enough")
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=first, user=game.players["britain"], ship_key="kgv", data={"hexes": 1})
    assert (exc.value.code, exc.value.message) == (
        "phase_superseded",
        "The umpire ended the battle in this phase: it takes no orders.",
    )
    first.refresh_from_db()
    first.close_reason = ""  # as a phase rolled back has it
    assert first.orders_refused() == ("phase_superseded", "This phase was rolled back by the umpire.")
