"""Celery tasks of the battles app. Tasks take ids or plain strings and call services; safe to run twice."""

from celery import shared_task


@shared_task
def heartbeat(token: str) -> None:
    """Record that a worker ran: the integration tests and ops checks read the row back from the database."""
    from battles.services import heartbeat_record

    heartbeat_record(token=token)


@shared_task
def sweep_phases() -> int:
    """PLACEHOLDER - the campaign issue replaces this body.

    Beat sends this every minute (CELERY_BEAT_SCHEDULE["sweep-phases"] in navalwar/settings.py). It will close
    every phase whose deadline has passed and enqueue its resolution. Return the number of phases closed.
    """
    return 0
