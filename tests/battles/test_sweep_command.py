"""``manage.py sweep_phases``: the phase sweep that `make run` starts next to runserver when there is no
Redis (no Celery beat): overdue phases close and resolve in-process
(battles/management/commands/sweep_phases.py)."""

from __future__ import annotations

import logging
import os
import signal
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.utils import timezone

from battles.management.commands import sweep_phases
from battles.models import Phase
from battles.services import SweepReport
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


def test_once_closes_and_resolves_an_overdue_phase(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign()
    phase = game.phase
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    out = StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("sweep_phases", "--once", stdout=out)

    phase.refresh_from_db()
    assert (phase.status, phase.close_reason) == ("resolved", "deadline")
    assert Phase.objects.get(battle=game.battle, number=2).status == "open"
    assert f"closed: [{phase.pk}]" in out.getvalue()


def test_once_leaves_a_phase_before_its_deadline_open(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign()
    Phase.objects.filter(pk=game.phase.pk).update(deadline=timezone.now() + timedelta(days=3))
    out = StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("sweep_phases", "--once", stdout=out)

    assert Phase.objects.get(pk=game.phase.pk).status == "open"
    assert "closed: []" in out.getvalue()


@pytest.mark.parametrize(
    ("every", "message"),
    [
        ("0", "--every must be a number of seconds above 0, not 0"),
        ("-5", "--every must be a number of seconds above 0, not -5"),
        ("nan", "--every must be a number of seconds above 0, not nan"),
        ("inf", "--every must be a number of seconds above 0, not inf"),
        ("soon", "--every must be a number of seconds, not 'soon'"),
    ],
)
def test_bad_every_is_a_command_error(every: str, message: str) -> None:
    with pytest.raises(CommandError) as exc:
        call_command("sweep_phases", "--once", "--every", every)
    assert str(exc.value) == message


def test_the_loop_outlives_a_failed_sweep_and_stops_on_sigterm(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[int] = []

    def fake_sweep() -> SweepReport:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        os.kill(os.getpid(), signal.SIGTERM)  # as honcho stops it: this sweep ends, then the command
        return SweepReport(closed=(7,))

    monkeypatch.setattr(sweep_phases, "phases_sweep", fake_sweep)
    before = signal.getsignal(signal.SIGTERM)

    with caplog.at_level(logging.INFO, logger="battles.sweep"):
        call_command("sweep_phases", "--every", "0.01")

    assert len(calls) == 2
    messages = [r.getMessage() for r in caplog.records]
    assert "phase sweep failed; trying again in 0.01 s" in messages
    assert "closed overdue phases 7" in messages
    assert messages[-1] == "phase sweeper stopped"
    assert signal.getsignal(signal.SIGTERM) is before
