"""The umpire's actions on a battle are recorded, who and when, and listed on its log page (docs/rulings.md
NW-CAMP-11): resolve now, a deadline moved, a retry, a roll back, the end and a reopen, to every member (a
deadline moved for one side too: each side's deadline is on the battle page's ready list for all)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import services
from battles.models import Phase, UmpireAction
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _open(game: Any) -> Phase:
    return Phase.objects.get(battle=game.battle, superseded=False, status="open")


def _actions_seen(user: Any, game: Any) -> list[str]:
    """The lines of the log page's list of the umpire's actions, as ``user`` reads it (tags stripped)."""
    client = Client()
    client.force_login(user)
    html = client.get(reverse("battles:battle_log", args=[game.battle.pk])).content.decode()
    found = re.search(r'<ul id="umpire-actions">(.*?)</ul>', html, re.S)
    if found is None:
        return []
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li>(.*?)</li>", found.group(1))]


def test_resolve_now_roll_back_end_and_reopen_are_listed_newest_first_for_every_member(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=_open(game), user=game.umpire)
    services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)
    game.battle.refresh_from_db()
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain", reason="Bismarck scuttled.")
    game.battle.refresh_from_db()
    services.battle_reopen(battle=game.battle, user=game.umpire)

    actions = list(UmpireAction.objects.filter(battle=game.battle))
    assert [a.kind for a in actions] == ["reopen", "end", "rollback", "resolve_now"]
    assert {a.umpire for a in actions} == {game.umpire}
    assert [a.text for a in actions] == [
        "Reopen: the battle the umpire ended is on again, and phase 1 opened again.",
        "End: the battle ended in phase 1, which was not played; winner Royal Navy. Bismarck scuttled.",
        "Roll back: the battle went back to the start of phase 1, which opened again.",
        "Resolve now: phase 1 closed before its deadline and sent to resolution.",
    ]
    # the phase each acted on: the one a reopen or roll back opened, the one ended unplayed, the one closed
    assert actions[0].phase == _open(game) and actions[0].phase.number == 1
    assert actions[1].phase.superseded and actions[1].phase.number == 1
    assert actions[2].phase.number == 1 and actions[2].phase.superseded  # reopened, then ended
    assert actions[3].phase.status == "resolved"

    name = game.umpire.get_username()
    for member in (game.umpire, game.players["britain"], game.players["germany"]):
        lines = _actions_seen(member, game)
        assert len(lines) == 4
        assert lines[1].endswith(
            f", {name}: End: the battle ended in phase 1, which was not played; winner Royal Navy. "
            "Bismarck scuttled."
        )


def test_a_deadline_moved_for_one_side_is_shown_to_every_member_as_the_ready_list_shows_it(game: Any) -> None:
    phase = _open(game)
    britain = game.campaign.sides.get(key="britain")
    deadline = datetime(2031, 1, 2, 3, 4, tzinfo=UTC)
    services.phase_extend_deadline(phase=phase, user=game.umpire, deadline=deadline, side=britain)

    expected = "Deadline of phase 1 moved to Thu 2 Jan 2031 03:04 UTC for Royal Navy."
    assert UmpireAction.objects.get().text == expected
    assert UmpireAction.objects.get().side == britain
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    for member in (game.umpire, game.players["britain"], game.players["germany"], observer):
        assert _actions_seen(member, game)[0].endswith(expected)
    # the other side reads that deadline on the battle page already (the ready list): no secret told
    client = Client()
    client.force_login(game.players["germany"])
    page = client.get(reverse("battles:battle", args=[game.battle.pk])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert "Royal Navy: giving orders (deadline Thu 2 Jan 03:04 UTC)" in text

    services.phase_extend_deadline(phase=phase, user=game.umpire, deadline=deadline + timedelta(days=1))
    everyone = "Deadline of phase 1 moved to Fri 3 Jan 2031 03:04 UTC for every side."
    assert [line.split(": ", 1)[1] for line in _actions_seen(observer, game)] == [everyone, expected]


def test_a_retry_of_a_failed_phase_is_recorded(game: Any) -> None:
    phase = _open(game)
    Phase.objects.filter(pk=phase.pk).update(status="failed", error="boom")
    services.phase_retry(phase=phase, user=game.umpire)
    action = UmpireAction.objects.get()
    assert (action.kind, action.phase, action.umpire) == ("retry", phase, game.umpire)
    assert action.text == "Retry: phase 1, which failed to resolve, sent to resolution again."


def test_a_refused_action_records_nothing(game: Any) -> None:
    """The record is written in the acting service's transaction: an action refused writes none."""
    with pytest.raises(services.ApplicationError):
        services.phase_extend_deadline(
            phase=_open(game), user=game.umpire, deadline=timezone.now() - timedelta(hours=1)
        )
    with pytest.raises(services.ApplicationError):
        services.battle_reopen(battle=game.battle, user=game.umpire)  # not over
    with pytest.raises(services.ApplicationError):
        services.phase_close(phase=_open(game), user=game.players["britain"])  # not an umpire
    assert not UmpireAction.objects.exists()


def test_an_end_without_a_phase_in_play_or_a_winner_says_so(game: Any) -> None:
    Phase.objects.filter(battle=game.battle).update(status="resolved")
    services.battle_end(battle=game.battle, user=game.umpire, reason="Called off.")
    action = UmpireAction.objects.get()
    assert action.text == "End: the battle ended; no winner. Called off."
    assert action.phase is None
