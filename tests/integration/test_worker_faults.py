"""Fault: the worker process running a task dies; acks_late + reject_on_worker_lost put the message back."""

import os
import re
import signal
import uuid

import pytest

from battles.models import WorkerHeartbeat
from battles.tasks import heartbeat
from tests.utils import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.fault, pytest.mark.django_db(transaction=True)]


def test_a_task_whose_worker_child_is_killed_runs_again(celery_worker_factory) -> None:  # type: ignore[no-untyped-def]
    queue = f"fault-{uuid.uuid4().hex[:8]}"
    worker = celery_worker_factory(pool="prefork", queue=queue, concurrency=1)
    token = f"killed-{uuid.uuid4().hex}"

    heartbeat.apply_async(args=[token], kwargs={"hold_seconds": 3}, queue=queue)
    running = re.compile(rf"heartbeat {token} running in pid (\d+)")
    match = wait_until(lambda: running.search(worker.log), timeout=30, what="the task to start")
    os.kill(int(match.group(1)), signal.SIGKILL)

    row = wait_until(
        lambda: WorkerHeartbeat.objects.filter(token=token).first(), timeout=40, what="the task to run again"
    )
    assert row.token == token
    assert "WorkerLostError" in worker.log
    assert len(running.findall(worker.log)) == 2  # the killed run and the redelivered one
