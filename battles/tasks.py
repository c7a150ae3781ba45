"""Celery tasks of the battles app. Tasks take ids or plain strings and call services; safe to run twice."""

import logging
import os
import time

from celery import shared_task

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


@shared_task
def sweep_phases() -> int:
    """PLACEHOLDER - the campaign issue replaces this body.

    Beat sends this every minute (CELERY_BEAT_SCHEDULE["sweep-phases"] in navalwar/settings.py). It will close
    every phase whose deadline has passed and enqueue its resolution. Return the number of phases closed.
    """
    return 0
