"""``python manage.py sweep_phases``: the phase sweep without Celery beat.

With ``REDIS_URL`` set, Celery beat sends ``battles.tasks.sweep_phases`` every minute. The embedded default
(no Redis: SQLite, tasks in-process) has no beat, so ``make run`` starts this command next to runserver
(``Procfile.embedded``): every ``--every`` seconds it runs the same sweep (``battles.services.phases_sweep``:
close phases whose deadline passed, re-send phases stuck in resolving, send deadline reminders), and the
resolve and mail tasks it triggers run here, in-process, after each commit.
"""

from __future__ import annotations

import logging
import signal
import threading
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections

from battles.services import SweepReport, phases_sweep

logger = logging.getLogger("battles.sweep")

DEFAULT_EVERY = 60.0  # seconds, as CELERY_BEAT_SCHEDULE["sweep-phases"]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"--every must be a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):  # also refuses nan
        raise CommandError(f"--every must be a number of seconds above 0, not {text}")
    return value


class Command(BaseCommand):
    help = (
        "Close phases whose deadline passed, re-send phases stuck in resolving and send deadline "
        f"reminders, every {DEFAULT_EVERY:g} s until stopped (or once with --once): what Celery beat does "
        "when REDIS_URL is set. `make run` starts it without REDIS_URL."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every",
            default=str(DEFAULT_EVERY),
            metavar="SECONDS",
            help=f"Seconds between sweeps (default {DEFAULT_EVERY:g}).",
        )
        parser.add_argument("--once", action="store_true", help="Sweep once and exit.")

    def handle(self, *args: Any, **options: Any) -> None:
        every = _seconds(str(options["every"]))
        if options["once"]:
            report = self.sweep()
            self.stdout.write(
                f"closed: {list(report.closed)}, requeued: {list(report.requeued)}, "
                f"gave up: {list(report.gave_up)}, reminders: {list(report.reminders)}"
            )
            return
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            logger.warning(
                "REDIS_URL is set: Celery beat already sends this sweep; the tasks it sends go to the workers"
            )
        stop = threading.Event()

        def request_stop(signum: int, frame: FrameType | None) -> None:
            stop.set()

        # Ctrl-C, or honcho's SIGTERM when its other process stops: finish the sweep under way, then exit.
        previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        logger.info("sweeping phases every %g s (Ctrl-C stops)", every)
        try:
            while not stop.is_set():
                # a long-lived process: drop a connection that is too old or broken, before and after
                close_old_connections()
                try:
                    self.sweep()
                except Exception:  # a database locked or gone for a moment: log it, try at the next sweep
                    logger.exception("phase sweep failed; trying again in %g s", every)
                finally:
                    close_old_connections()
                stop.wait(every)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            close_old_connections()
        logger.info("phase sweeper stopped")

    def sweep(self) -> SweepReport:
        """One sweep, as the beat task runs it; log what it did (reminders only at DEBUG: a phase inside its
        reminder window is listed at every sweep, though each player gets one mail)."""
        report = phases_sweep()
        if report.closed:
            logger.info("closed overdue phases %s", _ids(report.closed))
        if report.requeued:
            logger.info("sent phases stuck in resolving again %s", _ids(report.requeued))
        if report.gave_up:
            logger.warning("gave up on phases (automatic retries spent) %s", _ids(report.gave_up))
        if report.reminders:
            logger.debug("deadline reminders for phases %s", _ids(report.reminders))
        return report


def _ids(ids: tuple[int, ...]) -> str:
    return ", ".join(str(i) for i in ids)
