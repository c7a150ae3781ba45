"""Logging filters of the site (``LOGGING`` in settings)."""

from __future__ import annotations

import logging


class NoTracebackForRefusals(logging.Filter):
    """Keep Django's one-line warning of a refused request (a 4xx: "Forbidden (Permission denied): /path"),
    without the traceback Django attaches to it.

    A player who opens another side's ship, or an umpire's button pressed twice, is a routine refusal
    (``navalwar.errors.Refusal`` and Django's ``PermissionDenied``), not a fault: a traceback per refusal
    buries the real errors. A 5xx keeps its traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.exc_info and isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
