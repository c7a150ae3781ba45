"""Pause CPython's cyclic garbage collector while a phase is resolved.

A phase allocates thousands of containers (ship sheets, events, their data) that nearly all survive it, as the
new state and the log. Left on, the collector runs a young-generation pass every 700 new containers (four or
five a 200-ship phase, 30-60 microseconds each, about a tenth of sail_1700's phase in ``bench/rules_bench.py``)
and finds nothing to free: the engine makes no reference cycles it drops. In a web or Celery worker, whose heap
holds Django, an older-generation pass that falls inside a phase costs far more. So :func:`gc_paused` switches
the collector off for the phase and back on after it; what the phase left is looked at once, by the next young
pass. Reference counting frees everything else as before: only cycles wait, and the engine makes none.

Re-entrant and thread-safe: the collector is switched back on when the last phase running in the process
ends, and only if it was on when the first began (a program that keeps it off keeps it off). This is not game
state: no result depends on it, so ``rules`` stays pure (the same state, orders and dice give the same result).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the ``with`` block with the cyclic garbage collector off; restore it after (see the module)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


__all__ = ["gc_paused"]
