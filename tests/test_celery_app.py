"""The Celery app's configuration and the in-process (eager) path used when REDIS_URL is unset."""

import pytest
from celery.contrib.django.task import DjangoTask
from django.db import transaction

from battles.models import WorkerHeartbeat
from battles.tasks import heartbeat, sweep_phases
from navalwar.celery import app


def test_app_configuration() -> None:
    conf = app.conf

    assert conf.task_serializer == "json"
    assert conf.result_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.timezone == "UTC"
    assert isinstance(heartbeat, DjangoTask)


@pytest.mark.django_db
def test_beat_sends_sweep_phases_every_minute() -> None:
    entry = app.conf.beat_schedule["sweep-phases"]

    assert entry == {"task": "battles.tasks.sweep_phases", "schedule": 60.0}
    assert "battles.tasks.sweep_phases" in app.tasks
    assert sweep_phases() == {
        "closed": [],
        "requeued": [],
        "gave_up": [],
        "reminders": [],
    }  # nothing to sweep


@pytest.mark.django_db
def test_delay_on_commit_runs_after_commit_in_process(django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        heartbeat.delay_on_commit("eager-1")
        assert not WorkerHeartbeat.objects.filter(token="eager-1").exists()

    assert len(callbacks) == 1
    assert WorkerHeartbeat.objects.get(token="eager-1").hostname != ""


@pytest.mark.django_db
def test_heartbeat_is_safe_to_run_twice() -> None:
    heartbeat.delay("twice")
    heartbeat.delay("twice")

    assert WorkerHeartbeat.objects.filter(token="twice").count() == 1
