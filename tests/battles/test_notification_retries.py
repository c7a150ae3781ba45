"""Notification mails that fail to send: the notify tasks retry on SMTP and connection errors (Celery's
autoretry_for, retry_backoff, max_retries) and never mail a recipient twice (``Notification.sent_at``, see
battles/notifications.py). Tasks run eagerly, so a retry runs at once in this process; the e-mail backend is
Django's locmem one with scripted failures."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from battles import tasks
from battles.models import Notification
from battles.notifications import MailNotSent
from navalwar.celery import app
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

BACKEND = "tests.battles.test_notification_retries.FlakyBackend"


class FlakyBackend(EmailBackend):
    """The locmem backend, but ``failures[address]`` sends to ``address`` fail first (with ``error``)."""

    failures: ClassVar[dict[str, int]] = {}
    error: ClassVar[type[Exception]] = smtplib.SMTPServerDisconnected
    tries: ClassVar[list[str]] = []

    def send_messages(self, messages: Any) -> int:
        for message in messages:
            address = message.to[0]
            FlakyBackend.tries.append(address)
            if FlakyBackend.failures.get(address, 0) > 0:
                FlakyBackend.failures[address] -= 1
                if FlakyBackend.error is smtplib.SMTPRecipientsRefused:
                    raise smtplib.SMTPRecipientsRefused({address: (550, b"No such user")})
                raise FlakyBackend.error("Connection unexpectedly closed")
        return int(super().send_messages(messages))


@pytest.fixture
def flaky(settings: Any) -> Iterator[type[FlakyBackend]]:
    """The flaky backend, with eager tasks that retry in-process (as a worker would, without the wait).
    tests/conftest.py restores ``task_eager_propagates`` after the test."""
    settings.EMAIL_BACKEND = BACKEND
    app.conf.task_eager_propagates = False
    FlakyBackend.failures = {}
    FlakyBackend.error = smtplib.SMTPServerDisconnected
    FlakyBackend.tries = []
    yield FlakyBackend


@pytest.fixture
def game() -> Any:
    game = scenario_campaign()
    # The opening mails went out when the battle started; send them again through the flaky server.
    Notification.objects.all().delete()
    mail.outbox.clear()
    return game


def _rows(game: Any) -> dict[str, tuple[int, bool, str]]:
    """Return {address: (attempts, sent, error)} of the phase-opened notifications."""
    return {
        n.user.email: (n.attempts, n.sent_at is not None, n.error)
        for n in Notification.objects.filter(phase=game.phase, kind="phase_opened").select_related("user")
    }


def test_the_notify_tasks_retry_on_failed_sends_with_a_backoff() -> None:
    for task in (
        tasks.notify_phase_opened,
        tasks.notify_phase_resolved,
        tasks.notify_phase_reminder,
        tasks.notify_phase_failed,
    ):
        assert task.autoretry_for == (MailNotSent,)
        assert (task.max_retries, task.retry_backoff, task.retry_backoff_max, task.retry_jitter) == (
            6,
            60,
            1800,
            True,
        )


def test_a_recipient_whose_send_fails_twice_gets_one_mail_and_the_others_are_not_mailed_again(
    game: Any, flaky: type[FlakyBackend]
) -> None:
    britain = game.players["britain"].email
    flaky.failures = {britain: 2}

    tasks.notify_phase_opened.delay(game.phase.pk)

    everyone = sorted(u.email for u in [game.umpire, *game.players.values()])
    assert sorted(m.to[0] for m in mail.outbox) == everyone
    assert sorted(flaky.tries) == sorted([*everyone, britain, britain])
    assert _rows(game) == {address: (3 if address == britain else 1, True, "") for address in everyone}


def test_a_server_that_stays_down_is_tried_seven_times_then_given_up_with_the_error_kept(
    game: Any, flaky: type[FlakyBackend]
) -> None:
    germany = game.players["germany"].email
    flaky.failures = {germany: 100}

    result = tasks.notify_phase_opened.delay(game.phase.pk)

    assert result.get() == 0  # the last run sent nothing new, and does not raise
    assert flaky.tries.count(germany) == 7  # the first run and max_retries=6 retries
    assert germany not in [m.to[0] for m in mail.outbox]
    assert len(mail.outbox) == 2
    assert _rows(game)[germany] == (7, False, "SMTPServerDisconnected: Connection unexpectedly closed")


def test_a_refused_recipient_is_not_retried(game: Any, flaky: type[FlakyBackend]) -> None:
    germany = game.players["germany"].email
    flaky.failures = {germany: 100}
    flaky.error = smtplib.SMTPRecipientsRefused

    assert tasks.notify_phase_opened.delay(game.phase.pk).get() == 2

    assert flaky.tries.count(germany) == 1
    attempts, sent, error = _rows(game)[germany]
    assert (attempts, sent) == (1, False)
    assert error.startswith("refused: {'" + germany + "': (550, b'No such user')}")


def test_a_redelivered_task_after_a_retry_mails_nobody_again(game: Any, flaky: type[FlakyBackend]) -> None:
    flaky.failures = {game.umpire.email: 1}
    tasks.notify_phase_opened.delay(game.phase.pk)
    assert len(mail.outbox) == 3

    assert tasks.notify_phase_opened.delay(game.phase.pk).get() == 0

    assert len(mail.outbox) == 3
    assert len(flaky.tries) == 4


def test_a_connection_refused_is_retried_too(game: Any, flaky: type[FlakyBackend]) -> None:
    flaky.failures = {game.umpire.email: 1}
    flaky.error = ConnectionRefusedError

    tasks.notify_phase_opened.delay(game.phase.pk)

    assert [m.to[0] for m in mail.outbox].count(game.umpire.email) == 1
    assert _rows(game)[game.umpire.email] == (2, True, "")


def test_without_a_worker_a_failed_send_does_not_break_the_request_that_sent_the_task(
    game: Any, flaky: type[FlakyBackend], client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Development without Redis: tasks run in the request and their exceptions propagate.
    app.conf.task_eager_propagates = True
    flaky.failures = {game.umpire.email: 100}
    client.force_login(game.umpire)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{game.battle.pk}/umpire/", {"action": "resolve_now"})

    assert response.status_code == 302
    assert flaky.tries.count(game.umpire.email) == 2  # phase 1 resolved, phase 2 opened: one try each
    assert not Notification.objects.filter(user=game.umpire, sent_at__isnull=False).exists()
    assert Notification.objects.filter(user=game.umpire).count() == 2
