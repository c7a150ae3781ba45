"""The play-by-web loop against PostgreSQL, Redis and real Celery workers.

- A phase both sides submitted is resolved by the worker and its log is visible.
- Five concurrent deliveries of one resolve task (a prefork worker, five processes) produce one resolution.
- A worker SIGKILLed inside the resolution transaction leaves nothing behind; the sweep re-enqueues the phase
  and it resolves once.
- Orders racing the close (the umpire's "resolve now", or the deadline) are saved before it or refused with
  a clear message; none is silently dropped.

Needs REDIS_URL and a PostgreSQL DATABASE_URL; skips otherwise (fails with REQUIRE_SERVICES=1). Each wait is
bounded. Extra workers listen on their own queue so that the session worker cannot take their tasks.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from battles import services
from battles.models import LogEvent, Order, Phase
from battles.tasks import resolve_phase
from navalwar.errors import ApplicationError
from tests.factories import big_battle, scenario_campaign
from tests.utils import CeleryWorker, database_url_for, phase_lock_holders_sql, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

MOVE = {"hexes": 1, "turn": 0, "turn_after": 0}


@pytest.fixture
def worker_with_env(celery_worker_factory: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Start an extra worker on its own queue with extra environment variables (the test-only sleep)."""

    def start(*, env: dict[str, str], **kwargs: Any) -> CeleryWorker:
        with monkeypatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)
            return celery_worker_factory(**kwargs)

    return start


def _status(phase_id: int, worker: CeleryWorker | None = None) -> str:
    if worker is not None:
        worker.assert_alive()
    return Phase.objects.get(pk=phase_id).status


def _wait_resolved(phase_id: int, worker: CeleryWorker, timeout: float = 60) -> Phase:
    wait_until(
        lambda: _status(phase_id, worker) == "resolved",
        timeout=timeout,
        what=lambda: f"phase {phase_id} to be resolved\n{worker.log[-3000:]}",
    )
    return Phase.objects.get(pk=phase_id)


def test_phase_submitted_by_both_sides_is_resolved_by_the_worker(celery_worker: CeleryWorker) -> None:
    game = scenario_campaign()
    phase = game.phase
    britain, germany = game.players["britain"], game.players["germany"]
    services.orders_submit(phase=phase, user=britain, ship_key="kgv", data={**MOVE, "target": "bismarck"})
    services.orders_submit(phase=phase, user=britain, ship_key="rodney", data=MOVE)
    services.orders_submit(phase=phase, user=germany, ship_key="bismarck", data={"hexes": 2})
    services.side_set_ready(phase=phase, user=britain)

    services.side_set_ready(phase=phase, user=germany)  # commits: the resolve task goes to Redis

    resolved = _wait_resolved(phase.pk, celery_worker)
    assert resolved.close_reason == "all_ready"
    assert "Task battles.tasks.resolve_phase[" in celery_worker.log
    events = list(LogEvent.objects.filter(phase=resolved).order_by("seq"))
    assert events[0].kind == "initiative"
    moves = [e for e in events if e.kind == "move"]
    assert [e.ship_key for e in moves] and {e.ship_key for e in moves} == {"kgv", "rodney", "bismarck"}
    assert not [e for e in events if e.kind == "default_orders"]  # every ship had orders
    next_phase = wait_until(lambda: Phase.objects.filter(battle=game.battle, number=2).first(), timeout=10)
    assert next_phase.status == "open"

    client = Client()
    client.force_login(britain)
    html = client.get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1").content.decode()
    for event in events:
        if event.visible_to is None or "britain" in event.visible_to:
            assert escape(event.text) in html
    assert f"Dice seed SHA-256: {resolved.seed_hash}" in html
    assert f"Seed: {resolved.seed}" not in html  # NW-CAMP-03: the players see it when the battle is over
    hidden = [e for e in events if e.visible_to is not None and "britain" not in e.visible_to]
    for event in hidden:
        assert escape(event.text) not in html


@pytest.mark.fault
def test_five_concurrent_deliveries_resolve_once(celery_worker: CeleryWorker, worker_with_env: Any) -> None:
    game = scenario_campaign()
    phase = game.phase
    queue = f"concurrent-{uuid.uuid4().hex[:6]}"
    # Closed as phase_close leaves it, without its own delivery: the five below are the only ones.
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=timezone.now())

    worker = worker_with_env(env={services.TEST_SLEEP_ENV: "2"}, pool="prefork", queue=queue, concurrency=5)
    for _ in range(5):
        resolve_phase.apply_async((phase.pk,), queue=queue)
    _wait_resolved(phase.pk, worker)
    wait_until(
        lambda: worker.log.count("Task battles.tasks.resolve_phase[") >= 10,
        timeout=30,
        what=lambda: f"five deliveries to finish\n{worker.log[-3000:]}",
    )
    log = worker.log

    assert log.count("succeeded in") == 5, log[-3000:]
    assert log.count(": 'resolved'") == 1, log[-3000:]
    assert log.count(": 'skipped'") == 4, log[-3000:]
    resolved = Phase.objects.get(pk=phase.pk)
    assert resolved.attempts == 1
    replay_count = len(
        services.rules.resolve_turn(
            services.rules.from_json(services.rules.BattleState, resolved.state_before),
            [],
            services.rules.SeededDice(resolved.seed),
        ).events
    )
    assert LogEvent.objects.filter(phase=resolved).count() == replay_count
    assert Phase.objects.filter(battle=game.battle).count() == 2


@pytest.mark.fault
def test_a_worker_killed_during_resolution_leaves_nothing_and_the_sweep_resolves_once(
    celery_worker: CeleryWorker, worker_with_env: Any
) -> None:
    game = scenario_campaign()
    phase = game.phase
    queue = f"doomed-{uuid.uuid4().hex[:6]}"
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=timezone.now())

    doomed = worker_with_env(env={services.TEST_SLEEP_ENV: "60"}, queue=queue)
    resolve_phase.apply_async((phase.pk,), queue=queue)
    # The worker holds the phase row inside its transaction, asleep. Watched in pg_locks, without taking a
    # lock: a probe that locked the row (NOWAIT) could hold it at the instant the worker claims with SKIP
    # LOCKED (a flaky CI run did that). Only a backend idle in its transaction for a second counts: the
    # session worker's mail tasks take a key-share lock on the phase too, for a moment.
    wait_until(
        lambda: doomed.assert_alive() or ("resolve_phase[" in doomed.log and _phase_claimers()),
        timeout=30,
        what=lambda: f"the doomed worker to claim the phase\n{doomed.log[-2000:]}",
    )
    doomed.process.send_signal(signal.SIGKILL)
    doomed.process.wait(timeout=10)

    # PostgreSQL rolled the killed transaction back: no log, no next phase, still resolving, unlocked.
    wait_until(lambda: not _row_is_locked(phase.pk), timeout=30, what="the killed worker's lock to go")
    stuck = Phase.objects.get(pk=phase.pk)
    assert (stuck.status, stuck.attempts, stuck.state_after) == ("resolving", 0, None)
    assert not LogEvent.objects.filter(phase=phase).exists()
    assert Phase.objects.filter(battle=game.battle).count() == 1

    report = services.phases_sweep(stale_seconds=0)  # commits: the session worker gets the phase

    assert report.requeued == (phase.pk,)
    resolved = _wait_resolved(phase.pk, celery_worker)
    assert resolved.attempts == 1
    assert Phase.objects.filter(battle=game.battle, number=2).count() == 1
    # A second sweep finds nothing to do and the phase is not resolved again.
    assert services.phases_sweep(stale_seconds=0).requeued == ()
    assert Phase.objects.get(pk=phase.pk).attempts == 1


def test_a_phase_whose_row_is_locked_for_a_moment_is_resolved_once_it_is_free(
    celery_worker: CeleryWorker,
) -> None:
    """An order refused just after the close locks the phase row for a moment; a resolve task that claims
    the phase then waits for it (it was skipped, and the phase waited minutes for the sweep)."""
    game = scenario_campaign()
    phase = game.phase
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=timezone.now())
    db_url = database_url_for(connection.settings_dict)
    locked = threading.Event()

    def hold_the_row() -> None:
        with psycopg.connect(db_url) as conn:  # one transaction, committed when the block ends
            conn.execute("SELECT id FROM battles_phase WHERE id = %s FOR UPDATE", [phase.pk])
            locked.set()
            time.sleep(0.5)

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert locked.wait(timeout=30)
        assert services.phase_resolve(phase_id=phase.pk) == "resolved"
    finally:
        holder.join(timeout=30)
    assert Phase.objects.get(pk=phase.pk).attempts == 1
    assert Phase.objects.filter(battle=game.battle, number=2).count() == 1


def _phase_claimers() -> list[int]:
    """Return the other backends holding a lock in battles_phase while idle in their transaction for over a
    second (the doomed worker asleep in its resolution; read from pg_locks, locking nothing; only one phase
    is in play in the test that uses it)."""
    with connection.cursor() as cursor:
        cursor.execute(phase_lock_holders_sql(idle_seconds=1))
        return [row[0] for row in cursor.fetchall()]


def _row_is_locked(phase_id: int) -> bool:
    from django.db import OperationalError, transaction

    try:
        with transaction.atomic():
            list(Phase.objects.select_for_update(nowait=True).filter(pk=phase_id))
    except OperationalError:
        return True
    return False


@pytest.mark.parametrize("closer", ["umpire", "deadline"])
def test_orders_racing_the_close_are_saved_before_it_or_refused(
    celery_worker: CeleryWorker, closer: str
) -> None:
    game = big_battle(20)
    phase = game.phase
    ships = {
        side: list(game.battle.ships.filter(campaign_ship__side__key=side).values_list("ship_key", flat=True))
        for side in ("north", "south")
    }
    if closer == "deadline":
        Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() + timedelta(seconds=1.5))
    outcomes: dict[str, str] = {}
    lock = threading.Lock()
    start = threading.Event()

    def submit(side: str) -> None:
        user = game.players[side]
        start.wait()
        try:
            for key in ships[side]:
                try:
                    services.orders_submit(phase=phase, user=user, ship_key=key, data=MOVE)
                    result = "saved"
                except ApplicationError as exc:
                    result = f"{exc.code}: {exc.message}"
                with lock:
                    outcomes[key] = result
                time.sleep(0.25)
        finally:
            connections.close_all()

    def close() -> None:
        start.wait()
        try:
            time.sleep(1.1)
            if closer == "umpire":
                services.phase_close(phase=phase, user=game.umpire)
            else:
                time.sleep(0.6)
                # The sweep passes over a phase whose row is locked (SKIP LOCKED; beat's next run takes
                # it), and the submitting threads lock the row for each order: sweep again, as beat would,
                # until a sweep has closed the phase.
                wait_until(
                    lambda: phase.pk in services.phases_sweep().closed,
                    timeout=30,
                    interval=0.05,
                    what="a sweep to close the overdue phase",
                )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(s,)) for s in ships] + [threading.Thread(target=close)]
    for t in threads:
        t.start()
    start.set()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)

    resolved = _wait_resolved(phase.pk, celery_worker)
    saved = {k for k, v in outcomes.items() if v == "saved"}
    refused = {k: v for k, v in outcomes.items() if v != "saved"}
    assert len(outcomes) == 20
    assert saved and refused, outcomes  # the close fell inside the stream of orders
    expected = {
        "umpire": "phase_closed: This phase is closed: orders are no longer accepted.",
        "deadline": {
            "deadline_passed: The deadline for this phase has passed: orders are no longer accepted.",
            "phase_closed: This phase is closed: orders are no longer accepted.",
        },
    }[closer]
    for message in refused.values():
        assert message == expected if isinstance(expected, str) else message in expected
    # Every order reported saved is in the phase and was followed; every refused ship used default orders.
    assert set(Order.objects.filter(phase=phase).values_list("battle_ship__ship_key", flat=True)) == saved
    defaulted = set(
        LogEvent.objects.filter(phase=resolved, kind="default_orders").values_list("ship_key", flat=True)
    )
    assert defaulted == set(refused)
    assert connection.vendor == "postgresql"
