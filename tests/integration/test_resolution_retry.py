"""Fault: the worker's PostgreSQL connection is killed while it resolves a phase (a transient failure).

A worker of the test's own queue runs with ``NAVALWAR_TEST_RESOLVE_SLEEP`` (battles.services), so it holds the
phase's row lock inside the resolution transaction for a few seconds; the test kills its backend there. The
resolution rolls back, the worker records the error on the phase (still ``resolving``, ``error_kind``
transient, ``retry_at`` a minute on), and the sweep, once ``retry_at`` has come, sends it again: it resolves
once. PostgreSQL and Redis only; every wait is bounded.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from battles import services
from battles.models import LogEvent, Phase
from navalwar.celery import app
from tests.factories import scenario_campaign
from tests.utils import database_url_for, phase_lock_holders_sql, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.fault, pytest.mark.django_db(transaction=True)]


def _route(routes: Any) -> None:
    """Set ``task_routes`` and drop the router Celery built from the old ones (it caches it)."""
    app.conf.task_routes = routes
    app.amqp._rtable = None
    app.amqp.__dict__.pop("router", None)


@pytest.fixture
def queue() -> Iterator[str]:
    """Route every battles task this test sends to a queue of its own (the session worker never sees them);
    the routes before the test are back after it."""
    name = f"retry-{uuid.uuid4().hex[:8]}"
    saved = app.conf.task_routes
    _route({"battles.tasks.*": {"queue": name}})
    try:
        yield name
    finally:
        _route(saved)


def test_a_resolution_whose_connection_is_killed_is_retried_by_the_sweep_and_resolves_once(
    celery_worker_factory: Any, queue: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(services.TEST_SLEEP_ENV, "4")
    worker = celery_worker_factory(queue=queue)
    game = scenario_campaign()
    phase = game.phase
    db_url = database_url_for(connection.settings_dict)

    services.phase_close(phase=phase, user=game.umpire)
    # This worker gets every battles task, the phase-opened mails of scenario_campaign() first: inserting
    # their Notification rows takes a key-share lock on the phase (the foreign key), which
    # phase_lock_holders_sql() sees too. The solo worker runs one task at a time: once it has taken the
    # resolve task, the lock is its.
    wait_until(
        lambda: worker.assert_alive() or re.search(r"resolve_phase\[[0-9a-f-]+\] received", worker.log),
        timeout=30,
        what=lambda: f"the worker to take the resolve task\n{worker.log[-3000:]}",
    )
    with psycopg.connect(db_url, autocommit=True) as killer:
        pids = wait_until(
            lambda: [row[0] for row in killer.execute(phase_lock_holders_sql()).fetchall()],
            timeout=30,
            what=lambda: f"the worker to lock the phase\n{worker.log[-3000:]}",
        )
        assert len(pids) == 1
        assert killer.execute("SELECT pg_terminate_backend(%s)", pids).fetchone() == (True,)

    failed = wait_until(
        lambda: worker.assert_alive() or Phase.objects.filter(pk=phase.pk, error_kind="transient").first(),
        timeout=30,
        what=lambda: f"the transient failure to be recorded\n{worker.log[-3000:]}",
    )
    assert (failed.status, failed.auto_retries, failed.attempts) == ("resolving", 0, 1)
    assert failed.error.startswith("django.db.utils.")
    assert failed.retry_at is not None and failed.retry_at > timezone.now()
    assert not LogEvent.objects.filter(phase=phase).exists()
    assert not Phase.objects.filter(battle=game.battle, number=2).exists()
    assert "succeeded" in worker.log and ": 'retrying'" in worker.log

    assert services.phases_sweep().requeued == ()  # its backoff is not over
    Phase.objects.filter(pk=phase.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
    assert services.phases_sweep().requeued == (phase.pk,)

    resolved = wait_until(
        lambda: worker.assert_alive() or Phase.objects.filter(pk=phase.pk, status="resolved").first(),
        timeout=60,
        what=lambda: f"the retried phase to be resolved\n{worker.log[-3000:]}",
    )
    assert (resolved.auto_retries, resolved.attempts, resolved.error, resolved.error_kind) == (1, 2, "", "")
    assert resolved.retry_at is None
    assert Phase.objects.filter(battle=game.battle, number=2, superseded=False).count() == 1
    assert LogEvent.objects.filter(phase=phase).count() > 0
    # The resolution enqueued its e-mails (phase resolved, next phase opened): let the worker finish them,
    # or the end-of-test flush (TRUNCATE) waits on a notification's row locks.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if len(re.findall(r"notify_phase_(resolved|opened)\[[^\]]+\] succeeded", worker.log)) >= 3:
            break
        time.sleep(0.2)
    time.sleep(0.5)
