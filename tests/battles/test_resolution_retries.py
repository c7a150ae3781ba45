"""Automatic retries of a phase resolution: a transient failure (database or broker error, worker lost) is
sent again by the sweep with a backoff and a bounded number of retries; a rules error fails the phase at once
and tells the umpires, who retry by hand. SQLite; Celery runs eagerly on commit
(battles.services.phases_sweep, _resolve_failed, _phase_give_up)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import rules
from battles import services
from battles.models import LogEvent, Notification, Phase
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

DB_DOWN = "server closed the connection unexpectedly"
LOST = "The resolution did not finish (its worker or task was lost)."


@pytest.fixture
def game() -> Any:
    game = scenario_campaign()
    mail.outbox.clear()
    return game


class FlakyRules:
    """Stand-in for ``rules.resolve_turn`` that raises ``error`` for its first ``failures`` calls."""

    def __init__(self, error: Callable[[], BaseException], failures: int) -> None:
        self.error = error
        self.failures = failures
        self.calls = 0
        self.real = rules.resolve_turn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error()
        return self.real(*args, **kwargs)


def _flaky(monkeypatch: pytest.MonkeyPatch, error: Callable[[], BaseException], failures: int) -> FlakyRules:
    flaky = FlakyRules(error, failures)
    monkeypatch.setattr(rules, "resolve_turn", flaky)
    return flaky


def _close(game: Any, capture: Any) -> Phase:
    phase = game.phase
    with capture(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    phase.refresh_from_db()
    return phase


def _retry_due(phase: Phase) -> None:
    """Move the phase's ``retry_at`` into the past, as the minutes of backoff would."""
    Phase.objects.filter(pk=phase.pk).update(retry_at=timezone.now() - timedelta(seconds=1))


def _sweep(capture: Any, *, execute: bool = True) -> services.SweepReport:
    with capture(execute=execute):
        return services.phases_sweep()


def test_retry_delays_double_from_a_minute_up_to_half_an_hour() -> None:
    assert [services.retry_delay(n).total_seconds() for n in range(7)] == [
        60.0,
        120.0,
        240.0,
        480.0,
        960.0,
        1800.0,
        1800.0,
    ]
    assert services.AUTO_RETRY_LIMIT == 5


def test_a_database_error_leaves_the_phase_resolving_with_a_backoff_and_tells_no_umpire(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    flaky = _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=1)
    before = timezone.now()

    phase = _close(game, django_capture_on_commit_callbacks)

    after = timezone.now()
    assert (phase.status, phase.error_kind, phase.auto_retries, phase.attempts) == (
        "resolving",
        "transient",
        0,
        1,
    )
    assert phase.error == f"django.db.utils.OperationalError: {DB_DOWN}"
    assert phase.retry_at is not None
    assert before + timedelta(seconds=60) <= phase.retry_at <= after + timedelta(seconds=60)
    assert not LogEvent.objects.filter(phase=phase).exists()
    assert not Notification.objects.filter(kind="phase_failed").exists()
    assert flaky.calls == 1
    # Not before its retry_at, even though it was closed more than RESOLVE_STALE_SECONDS ago.
    Phase.objects.filter(pk=phase.pk).update(closed_at=timezone.now() - timedelta(hours=1))
    assert _sweep(django_capture_on_commit_callbacks).requeued == ()
    assert flaky.calls == 1


def test_the_sweep_retries_a_transient_failure_when_its_backoff_is_over(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    flaky = _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=1)
    phase = _close(game, django_capture_on_commit_callbacks)
    _retry_due(phase)

    report = _sweep(django_capture_on_commit_callbacks)

    assert (report.requeued, report.gave_up) == ((phase.pk,), ())
    phase.refresh_from_db()
    assert (phase.status, phase.error, phase.error_kind, phase.retry_at) == ("resolved", "", "", None)
    assert (phase.auto_retries, phase.attempts) == (1, 2)
    assert flaky.calls == 2
    assert Phase.objects.get(battle=game.battle, number=2).status == "open"
    assert not Notification.objects.filter(kind="phase_failed").exists()


def test_transient_failures_are_retried_five_times_then_the_phase_fails_and_the_umpire_is_told(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    flaky = _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=100)
    phase = _close(game, django_capture_on_commit_callbacks)
    for n in range(1, 6):
        _retry_due(phase)
        before = timezone.now()
        assert _sweep(django_capture_on_commit_callbacks).requeued == (phase.pk,)
        phase.refresh_from_db()
        assert (phase.auto_retries, flaky.calls) == (n, n + 1)
        if n < 5:
            assert (phase.status, phase.error_kind) == ("resolving", "transient")
            assert phase.retry_at is not None
            assert phase.retry_at >= before + services.retry_delay(n)
            assert phase.retry_at <= timezone.now() + services.retry_delay(n)

    assert (phase.status, phase.error_kind, phase.retry_at, phase.attempts) == ("failed", "gave_up", None, 6)
    assert phase.error == (
        f"Gave up after 5 automatic retries. Last error: django.db.utils.OperationalError: {DB_DOWN}"
    )
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (
            [game.umpire.email],
            f"[Navalwar] {game.battle.name}: phase 1 could not be resolved",
        )
    ]
    assert "its automatic retries are spent" in mail.outbox[0].body
    # A failed phase is the umpire's now: the sweep leaves it alone.
    _retry_due(phase)
    assert _sweep(django_capture_on_commit_callbacks).requeued == ()
    assert flaky.calls == 6


def test_a_rules_error_fails_at_once_is_not_retried_and_the_umpire_is_told(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    flaky = _flaky(monkeypatch, lambda: ZeroDivisionError("the dice rolled off the table"), failures=1)

    phase = _close(game, django_capture_on_commit_callbacks)

    assert (phase.status, phase.error_kind, phase.retry_at, phase.auto_retries) == (
        "failed",
        "rules",
        None,
        0,
    )
    assert phase.error == "ZeroDivisionError: the dice rolled off the table"
    assert [(m.to, m.subject) for m in mail.outbox] == [
        ([game.umpire.email], f"[Navalwar] {game.battle.name}: phase 1 could not be resolved")
    ]
    assert "Error: ZeroDivisionError: the dice rolled off the table" in mail.outbox[0].body
    assert "not retried automatically" in mail.outbox[0].body
    Phase.objects.filter(pk=phase.pk).update(closed_at=timezone.now() - timedelta(hours=1))
    for _ in range(3):
        assert _sweep(django_capture_on_commit_callbacks).requeued == ()
    assert flaky.calls == 1

    with django_capture_on_commit_callbacks(execute=True):
        services.phase_retry(phase=phase, user=game.umpire)

    phase.refresh_from_db()
    assert (phase.status, phase.error, phase.error_kind, phase.attempts) == ("resolved", "", "", 2)


def test_the_battle_page_tells_the_umpire_a_rules_error_is_not_retried_and_players_that_the_umpire_knows(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any, client: Client
) -> None:
    _flaky(monkeypatch, lambda: ZeroDivisionError("the dice rolled off the table"), failures=1)
    _close(game, django_capture_on_commit_callbacks)
    url = reverse("battles:battle", args=[game.battle.pk])

    client.force_login(game.umpire)
    umpire_page = client.get(url).content.decode()
    client.force_login(game.players["britain"])
    player_page = client.get(url).content.decode()

    assert "Resolution failed: ZeroDivisionError: the dice rolled off the table" in umpire_page
    assert "so it is not retried automatically" in umpire_page
    assert "Resolve phase 1 again" in umpire_page
    assert "ZeroDivisionError" not in player_page
    assert "This phase could not be resolved. The umpire has been told" in player_page


def test_the_battle_page_says_resolution_is_delayed_while_a_transient_failure_waits(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any, client: Client
) -> None:
    _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=1)
    _close(game, django_capture_on_commit_callbacks)
    client.force_login(game.players["germany"])

    page = client.get(reverse("battles:battle", args=[game.battle.pk])).content.decode()

    assert "Resolution is delayed" in page
    assert "could not be resolved" not in page


def test_a_lost_worker_counts_as_a_retry_and_gives_up_when_the_retries_are_spent(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    phase = game.phase
    # As a killed worker leaves it: closed long ago, still resolving, nothing written, no error.
    Phase.objects.filter(pk=phase.pk).update(
        status="resolving", closed_at=timezone.now() - timedelta(hours=1)
    )

    before = timezone.now()
    report = _sweep(django_capture_on_commit_callbacks, execute=False)  # the re-sent task is lost too

    assert report.requeued == (phase.pk,)
    phase.refresh_from_db()
    assert (phase.status, phase.auto_retries, phase.error_kind, phase.error) == (
        "resolving",
        1,
        "transient",
        LOST,
    )
    assert phase.retry_at is not None
    assert before + timedelta(seconds=120) <= phase.retry_at <= timezone.now() + timedelta(seconds=120)
    assert _sweep(django_capture_on_commit_callbacks, execute=False).requeued == ()  # backoff not over

    Phase.objects.filter(pk=phase.pk).update(auto_retries=5)
    _retry_due(phase)
    report = _sweep(django_capture_on_commit_callbacks)

    assert (report.requeued, report.gave_up) == ((), (phase.pk,))
    phase.refresh_from_db()
    assert (phase.status, phase.error_kind) == ("failed", "gave_up")
    assert phase.error == f"Gave up after 5 automatic retries. Last error: {LOST}"
    assert [m.to for m in mail.outbox] == [[game.umpire.email]]


def test_a_duplicate_resolve_after_a_transient_failure_resolves_once(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=1)
    phase = _close(game, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=False):
        first = services.phase_resolve(phase_id=phase.pk)  # the sweep's message and a redelivered one
    events = LogEvent.objects.filter(phase=phase).count()
    second = services.phase_resolve(phase_id=phase.pk)

    assert (first, second) == ("resolved", "skipped")
    assert LogEvent.objects.filter(phase=phase).count() == events > 0
    assert Phase.objects.filter(battle=game.battle, number=2).count() == 1
    phase.refresh_from_db()
    assert (phase.status, phase.attempts) == ("resolved", 2)
    _retry_due(phase)
    assert _sweep(django_capture_on_commit_callbacks).requeued == ()


def test_the_umpire_retry_starts_the_automatic_retries_again(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    flaky = _flaky(monkeypatch, lambda: OperationalError(DB_DOWN), failures=100)
    phase = _close(game, django_capture_on_commit_callbacks)
    Phase.objects.filter(pk=phase.pk).update(auto_retries=5)
    _retry_due(phase)
    _sweep(django_capture_on_commit_callbacks)
    phase.refresh_from_db()
    assert (phase.status, phase.error_kind, flaky.calls) == ("failed", "gave_up", 1)  # given up unsent

    with django_capture_on_commit_callbacks(execute=True):
        services.phase_retry(phase=phase, user=game.umpire)

    phase.refresh_from_db()
    assert (phase.status, phase.error_kind, phase.auto_retries, flaky.calls) == (
        "resolving",
        "transient",
        0,
        2,
    )
