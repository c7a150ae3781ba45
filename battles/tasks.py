"""Celery tasks of the battles app. Tasks take ids and call services; every one is safe to run twice."""

import logging
import os
import time
from typing import Any

from celery import shared_task

from navalwar.celery import NavalwarTask

logger = logging.getLogger(__name__)


@shared_task
def heartbeat(token: str, hold_seconds: float = 0.0) -> None:
    """Record that a worker ran: the integration tests and ops checks read the row back from the database.

    ``hold_seconds`` holds the task that long before it writes (at most 60 s), so a fault test can kill
    the worker process mid-task and watch the message come back.
    """
    from battles.services import heartbeat_record

    logger.info("heartbeat %s running in pid %d", token, os.getpid())
    time.sleep(min(max(hold_seconds, 0.0), 60.0))
    heartbeat_record(token=token)


class ResolvePhaseTask(NavalwarTask):
    """The resolve task: when its message cannot be sent (the broker is down), mark the phase so that the
    battle page says resolution is delayed and the next sweep sends it again."""

    def on_enqueue_failure(self, args: tuple[Any, ...], kwargs: dict[str, Any], exc: BaseException) -> None:
        from battles.services import phase_enqueue_failed

        phase_enqueue_failed(phase_id=int(args[0] if args else kwargs["phase_id"]))


@shared_task(base=ResolvePhaseTask)
def resolve_phase(phase_id: int) -> str:
    """Resolve a closed phase exactly once (see battles.services.phase_resolve); return what happened."""
    from battles.services import phase_resolve

    return phase_resolve(phase_id=phase_id)


@shared_task
def sweep_phases() -> dict[str, list[int]]:
    """Close overdue phases, re-enqueue phases stuck in resolving, send reminders (beat: every minute).

    CELERY_BEAT_SCHEDULE["sweep-phases"] in navalwar/settings.py sends it. Return the phase ids acted on.
    """
    from battles.services import phases_sweep

    report = phases_sweep()
    return {
        "closed": list(report.closed),
        "requeued": list(report.requeued),
        "reminders": list(report.reminders),
    }


@shared_task
def notify_phase_opened(phase_id: int) -> int:
    """E-mail the players of the ordering sides that a phase opened, with its deadline. Return mails sent."""
    from battles.notifications import phase_opened_notify

    return phase_opened_notify(phase_id=phase_id)


@shared_task
def notify_phase_resolved(phase_id: int) -> int:
    """E-mail the members of the campaign that a phase resolved. Return mails sent."""
    from battles.notifications import phase_resolved_notify

    return phase_resolved_notify(phase_id=phase_id)


@shared_task
def notify_phase_reminder(phase_id: int) -> int:
    """E-mail the players of sides not yet ready that the deadline is near. Return mails sent."""
    from battles.notifications import phase_reminder_notify

    return phase_reminder_notify(phase_id=phase_id)
