"""The Celery app. Configured from Django settings (``CELERY_*``), see navalwar/settings.py.

Run a worker with ``celery -A navalwar worker`` and exactly one ``celery -A navalwar beat`` per site.
Tasks are :class:`NavalwarTask` instances (Celery's ``DjangoTask``), so services enqueue with
``task.delay_on_commit(...)``; a broker that is down when the transaction commits does not undo the commit
nor turn the request into an error page: the failure is logged and handed to the task's
``on_enqueue_failure`` (the resolve task marks its phase for the sweep, see battles/tasks.py).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

import kombu.exceptions
import redis.exceptions
from celery import Celery
from celery.contrib.django.task import DjangoTask
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "navalwar.settings")

logger = logging.getLogger(__name__)

# What publishing a message raises when the broker is unreachable: kombu wraps the transport's errors in its
# OperationalError once its publish retries are spent; the others can escape on a connection torn mid-send.
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    kombu.exceptions.OperationalError,
    redis.exceptions.RedisError,
    OSError,
)


class NavalwarTask(DjangoTask):
    """A ``DjangoTask`` whose ``*_on_commit`` sends survive a broker outage.

    The transaction has committed by the time the message is sent, so what it saved stays saved whatever the
    broker does. When the send fails (the broker is down), log it and call :meth:`on_enqueue_failure`, then
    let the remaining on-commit callbacks run: the request that committed still gets its normal response.
    In-process (eager) mode has no broker: a task's own exception propagates as before.
    """

    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:
        transaction.on_commit(functools.partial(self.send_after_commit, args, kwargs))

    def apply_async_on_commit(
        self, args: Sequence[Any] | None = None, kwargs: Mapping[str, Any] | None = None, **options: Any
    ) -> None:
        transaction.on_commit(
            functools.partial(self.send_after_commit, tuple(args or ()), dict(kwargs or {}), **options)
        )

    def send_after_commit(self, args: Sequence[Any], kwargs: Mapping[str, Any], **options: Any) -> bool:
        """Send the task now; return False (logged, ``on_enqueue_failure`` called) if the broker is down."""
        if self.app.conf.task_always_eager:
            self.apply_async(args, kwargs, **options)
            return True
        try:
            self.apply_async(args, kwargs, **options)
        except BROKER_ERRORS as exc:
            logger.error(
                "Could not enqueue %s%r after commit, the broker is unavailable: %s",
                self.name,
                tuple(args),
                exc,
            )
            try:
                self.on_enqueue_failure(tuple(args), dict(kwargs), exc)
            except Exception:  # the response must not fail for the bookkeeping of a failure
                logger.exception("on_enqueue_failure of %s failed", self.name)
            return False
        return True

    def on_enqueue_failure(self, args: tuple[Any, ...], kwargs: dict[str, Any], exc: BaseException) -> None:
        """Called after a failed send. Override to leave a mark for a later retry; the default only logs."""


app = Celery("navalwar", task_cls=NavalwarTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
