"""Celery tasks of the battles app. Tasks take ids and call services; every one is safe to run twice."""

import logging
import os
import time
from typing import Any

from celery import shared_task

from battles.notifications import MailNotSent
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
    """Close overdue phases, re-enqueue phases stuck in resolving or due for an automatic retry after a
    transient failure (failing them once the retries are spent), send reminders (beat: every minute).

    CELERY_BEAT_SCHEDULE["sweep-phases"] in navalwar/settings.py sends it. Without Redis (no beat),
    ``manage.py sweep_phases`` runs the same sweep; `make run` starts it. Return the phase ids acted on.
    """
    from battles.services import phases_sweep

    report = phases_sweep()
    return {
        "closed": list(report.closed),
        "requeued": list(report.requeued),
        "gave_up": list(report.gave_up),
        "reminders": list(report.reminders),
    }


# Notification mails: retried on SMTP and connection errors (battles.notifications.MailNotSent) after about
# 1, 2, 4, 8, 16 and 30 minutes (with jitter); each retry mails only the recipients not yet sent.
MAIL_RETRY_OPTIONS: dict[str, Any] = {
    "bind": True,
    "autoretry_for": (MailNotSent,),
    "retry_backoff": 60,
    "retry_backoff_max": 30 * 60,
    "retry_jitter": True,
    "max_retries": 6,
}


def _notify(task: Any, notify: Any, phase_id: int) -> int:
    """Run ``notify(phase_id=...)``; let :class:`MailNotSent` through for a retry, but not after the last one
    (log it and return what was sent: the rows unsent keep their error).

    Nor in-process when exceptions propagate (``task_eager_propagates``: development without Redis): Celery
    would raise the retry into the request whose commit sent the task; the mail waits for a real worker.
    """
    try:
        return int(notify(phase_id=phase_id))
    except MailNotSent as exc:
        eager_raises = task.request.is_eager and task.app.conf.task_eager_propagates
        if task.request.retries >= task.max_retries or eager_raises:
            logger.error("giving up mailing %s for phase %s: %s", task.name, phase_id, exc)
            return exc.sent
        raise


@shared_task(**MAIL_RETRY_OPTIONS)
def notify_phase_opened(self: Any, phase_id: int) -> int:
    """E-mail the players of the ordering sides that a phase opened, with its deadline. Return mails sent."""
    from battles.notifications import phase_opened_notify

    return _notify(self, phase_opened_notify, phase_id)


@shared_task(**MAIL_RETRY_OPTIONS)
def notify_phase_resolved(self: Any, phase_id: int, opened_phase_id: int | None = None) -> int:
    """E-mail the members of the campaign that a phase resolved, then (``opened_phase_id``) the players of
    the phase it opened that it is open: in that order, as they happened (NW-CAMP-14). A retry mails only
    those not yet sent, so the "resolved" mails are not sent twice. Return mails sent."""
    from battles.notifications import phase_opened_notify, phase_resolved_notify

    sent = _notify(self, phase_resolved_notify, phase_id)
    if opened_phase_id is not None:
        sent += _notify(self, phase_opened_notify, opened_phase_id)
    return sent


@shared_task(**MAIL_RETRY_OPTIONS)
def notify_phase_reminder(self: Any, phase_id: int) -> int:
    """E-mail the players of sides not yet ready that the deadline is near. Return mails sent."""
    from battles.notifications import phase_reminder_notify

    return _notify(self, phase_reminder_notify, phase_id)


@shared_task(**MAIL_RETRY_OPTIONS)
def notify_phase_failed(self: Any, phase_id: int) -> int:
    """E-mail the umpires that a phase failed to resolve (rules error, or automatic retries spent)."""
    from battles.notifications import phase_failed_notify

    return _notify(self, phase_failed_notify, phase_id)
