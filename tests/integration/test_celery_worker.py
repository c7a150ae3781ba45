"""A real Celery worker process consumes tasks from Redis and writes rows into the PostgreSQL test database.

Needs REDIS_URL and a PostgreSQL DATABASE_URL (``.ci/run`` sets both); skips otherwise, fails with
REQUIRE_SERVICES=1.
"""

import uuid

import pytest
from django.db import transaction

from battles.models import WorkerHeartbeat
from battles.tasks import heartbeat
from tests.utils import CeleryWorker, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _row(token: str, worker: CeleryWorker) -> WorkerHeartbeat | None:
    worker.assert_alive()
    return WorkerHeartbeat.objects.filter(token=token).first()


def test_worker_consumes_a_task_from_redis_and_writes_to_postgres(celery_worker: CeleryWorker) -> None:
    token = f"delay-{uuid.uuid4().hex}"

    heartbeat.delay(token)

    row = wait_until(lambda: _row(token, celery_worker), timeout=30, what=f"heartbeat {token}")
    assert row.token == token
    assert "Task battles.tasks.heartbeat[" in celery_worker.log


def test_delay_on_commit_reaches_the_worker_only_after_commit(celery_worker: CeleryWorker) -> None:
    token = f"commit-{uuid.uuid4().hex}"

    with transaction.atomic():
        heartbeat.delay_on_commit(token)
        # Nothing is sent before the commit: the worker cannot have written the row yet.
        assert not WorkerHeartbeat.objects.filter(token=token).exists()

    row = wait_until(lambda: _row(token, celery_worker), timeout=30, what=f"heartbeat {token}")
    assert row.token == token


def test_a_rolled_back_transaction_sends_nothing(celery_worker: CeleryWorker) -> None:
    rolled_back, control = f"rollback-{uuid.uuid4().hex}", f"control-{uuid.uuid4().hex}"

    with pytest.raises(RuntimeError), transaction.atomic():
        heartbeat.delay_on_commit(rolled_back)
        raise RuntimeError("abandon the transaction")
    # A control task sent afterwards proves the worker ran past the point where the first would have been.
    heartbeat.delay(control)

    wait_until(lambda: _row(control, celery_worker), timeout=30, what=f"heartbeat {control}")
    assert not WorkerHeartbeat.objects.filter(token=rolled_back).exists()
