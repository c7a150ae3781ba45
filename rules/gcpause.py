"""Pause CPython's cyclic garbage collector while a phase is resolved.

A phase allocates thousands of containers (ship sheets, events, their data) that nearly all survive it, as the
new state and the log. Left on, the collector runs a young-generation pass every 700 new containers (four a
200-ship sail_1700 phase in ``bench/rules_bench.py``, 30-60 microseconds each) and finds nothing to free: a
phase makes no reference cycle it drops (``tests/rules/test_gcpause.py``). Paused, what the phase left is
looked at once, by the first young pass after it: about 3% of that phase saved on this machine. In a web or
Celery worker, whose heap holds Django, an older-generation pass falling inside a phase would cost far more.
Reference counting frees everything else as before.

The collector is switched back on after the phase only if it was on before it (a program that keeps it off
keeps it off; a phase within a pause leaves it off). Two phases overlapping in two threads end with it as it
was: the first to end may switch it on while the other still runs, which only shortens that one's pause (no
lock: ``rules`` does no threading). This is not game state: no result depends on it, so ``rules`` stays pure
(the same state, orders and dice give the same result).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the ``with`` block with the cyclic garbage collector off; switch it on after if it was on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["gc_paused"]
