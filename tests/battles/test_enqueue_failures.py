"""A broker that is down when a transaction commits: what was saved stays saved and acknowledged, the phase
is marked, the battle page says resolution is delayed, and the sweep sends the phase again.

Unit level (SQLite, no broker): Celery's ``apply_async`` is replaced by one that raises kombu's
OperationalError, as it does after its publish retries when Redis refuses connections. The real-Redis
version of this fault is tests/integration/test_broker_outage.py.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import kombu.exceptions
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import selectors, services
from battles.models import Order, Phase, PhaseSide
from battles.tasks import heartbeat, resolve_phase
from navalwar.celery import NavalwarTask, app
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

MOVE = {"hexes": 1, "turn": 0, "turn_after": 0}
DELAYED = "Resolution is delayed"


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


class BrokerDown:
    """Stand-in for ``Task.apply_async`` while the broker refuses connections; remembers what was sent."""

    def __init__(self) -> None:
        self.down = True
        self.attempts: list[tuple[str, tuple[Any, ...]]] = []
        self.real = NavalwarTask.apply_async

    def __call__(self, task: Any, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        self.attempts.append((task.name, tuple(args or ())))
        if self.down:
            raise kombu.exceptions.OperationalError(
                "Error 111 connecting to 127.0.0.1:6399. Connection refused."
            )
        return self.real(task, args, kwargs, **options)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[BrokerDown]:
    """A broker that is down (``broker.down = False`` brings it back: tasks then run in-process)."""
    fake = BrokerDown()
    monkeypatch.setattr(NavalwarTask, "apply_async", lambda self, *a, **k: fake(self, *a, **k))
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False  # as with a real broker configured
    yield fake
    app.conf.task_always_eager = saved


def _both_sides_ready(game: Any, capture: Any) -> None:
    with capture(execute=True):
        services.orders_submit(phase=game.phase, user=game.players["britain"], ship_key="kgv", data=MOVE)
        services.orders_submit(phase=game.phase, user=game.players["germany"], ship_key="bismarck", data=MOVE)
        services.side_set_ready(phase=game.phase, user=game.players["britain"])
        services.side_set_ready(phase=game.phase, user=game.players["germany"])  # closes: the send fails


def test_a_failed_send_after_commit_keeps_the_close_and_marks_the_phase(
    game: Any, broker: BrokerDown, django_capture_on_commit_callbacks: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="navalwar.celery"):
        _both_sides_ready(game, django_capture_on_commit_callbacks)  # no exception reaches the caller

    phase = Phase.objects.get(pk=game.phase.pk)
    assert phase.status == "resolving"
    assert phase.close_reason == "all_ready"
    assert phase.enqueue_failed_at is not None
    assert phase.attempts == 0
    assert Order.objects.filter(phase=phase).count() == 2
    assert list(PhaseSide.objects.filter(phase=phase).values_list("ready", flat=True)) == [True, True]
    assert ("battles.tasks.resolve_phase", (phase.pk,)) in broker.attempts
    assert (
        f"Could not enqueue battles.tasks.resolve_phase({phase.pk},) after commit, the broker is "
        "unavailable: Error 111 connecting to 127.0.0.1:6399. Connection refused."
    ) in caplog.messages


def test_the_sweep_sends_a_marked_phase_again_at_once_and_it_resolves_once(
    game: Any, broker: BrokerDown, django_capture_on_commit_callbacks: Any
) -> None:
    _both_sides_ready(game, django_capture_on_commit_callbacks)
    phase_id = game.phase.pk

    # Still down: the sweep's own send fails and marks the phase again (it cleared the mark when it sent).
    with django_capture_on_commit_callbacks(execute=True):
        first = services.phases_sweep()
    assert first.requeued == (phase_id,)
    assert Phase.objects.get(pk=phase_id).enqueue_failed_at is not None

    # Back: the next sweep sends it (closed a moment ago, far from stale) and the task resolves it.
    broker.down = False
    app.conf.task_always_eager = True
    with django_capture_on_commit_callbacks(execute=True):
        second = services.phases_sweep()
    assert second.requeued == (phase_id,)
    phase = Phase.objects.get(pk=phase_id)
    assert (phase.status, phase.attempts, phase.enqueue_failed_at) == ("resolved", 1, None)
    assert Phase.objects.filter(battle=game.battle).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert services.phases_sweep().requeued == ()


def test_a_phase_not_marked_and_not_stale_is_left_to_its_worker(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    Phase.objects.filter(pk=game.phase.pk).update(status="resolving", closed_at=timezone.now())

    with django_capture_on_commit_callbacks(execute=True):
        assert services.phases_sweep().requeued == ()


def test_the_mark_is_not_set_on_a_phase_already_resolved(game: Any) -> None:
    assert services.phase_enqueue_failed(phase_id=game.phase.pk) is False  # open, not resolving
    Phase.objects.filter(pk=game.phase.pk).update(status="resolved")

    assert services.phase_enqueue_failed(phase_id=game.phase.pk) is False
    assert Phase.objects.get(pk=game.phase.pk).enqueue_failed_at is None


def test_the_ready_view_answers_normally_and_the_page_says_resolution_is_delayed(
    game: Any, broker: BrokerDown, django_capture_on_commit_callbacks: Any
) -> None:
    britain, germany = Client(), Client()
    britain.force_login(game.players["britain"])
    germany.force_login(game.players["germany"])
    ready = reverse("battles:side_ready", args=[game.battle.pk])
    page = reverse("battles:battle", args=[game.battle.pk])
    with django_capture_on_commit_callbacks(execute=True):
        britain.post(ready, {"ready": "1", "phase": str(game.phase.pk)})
        response = germany.post(ready, {"ready": "1", "phase": str(game.phase.pk)})
    # (The test's own transaction holds the commit callbacks until the block ends: follow the redirect now.)
    assert (response.status_code, response["Location"]) == (302, f"{page}#phase")

    html = germany.get(page).content.decode()
    assert "Your side is ready." in html
    assert f"{DELAYED}: the server could not start it yet." in html
    assert "waiting to be resolved: resolution is delayed." in html
    assert DELAYED in britain.get(page).content.decode()


def test_the_page_says_delayed_after_a_minute_in_resolving_without_a_failed_send(game: Any) -> None:
    client = Client()
    client.force_login(game.players["britain"])
    page = reverse("battles:battle", args=[game.battle.pk])
    now = timezone.now()
    Phase.objects.filter(pk=game.phase.pk).update(status="resolving", closed_at=now - timedelta(seconds=5))

    html = client.get(page).content.decode()
    assert DELAYED not in html
    assert "The phase is closed and being resolved." in html

    Phase.objects.filter(pk=game.phase.pk).update(
        closed_at=now - timedelta(seconds=services.RESOLVE_DELAYED_SECONDS + 1)
    )
    assert DELAYED in client.get(page).content.decode()


@pytest.mark.parametrize(
    ("status", "superseded", "failed_send", "age", "expected"),
    [
        pytest.param("open", False, False, 3600, False, id="open"),
        pytest.param("resolved", False, True, 3600, False, id="resolved"),
        pytest.param("resolving", True, True, 3600, False, id="superseded"),
        pytest.param("resolving", False, False, 60, False, id="resolving-60s"),
        pytest.param("resolving", False, False, 61, True, id="resolving-61s"),
        pytest.param("resolving", False, True, 0, True, id="send-failed"),
    ],
)
def test_phase_resolution_delayed(
    game: Any, status: str, superseded: bool, failed_send: bool, age: int, expected: bool
) -> None:
    now = timezone.now()
    phase = Phase.objects.get(pk=game.phase.pk)
    phase.status, phase.superseded = status, superseded
    phase.closed_at = now - timedelta(seconds=age)
    phase.enqueue_failed_at = now if failed_send else None

    assert selectors.phase_resolution_delayed(phase=phase, now=now) is expected


def test_one_failed_send_does_not_stop_the_other_callbacks(
    broker: BrokerDown, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        heartbeat.delay_on_commit("first")
        resolve_phase.delay_on_commit(999_999)  # no such phase: the mark updates nothing
        heartbeat.delay_on_commit("third")

    assert len(callbacks) == 3
    assert [name for name, _args in broker.attempts] == [
        "battles.tasks.heartbeat",
        "battles.tasks.resolve_phase",
        "battles.tasks.heartbeat",
    ]


def test_in_process_mode_still_raises_a_task_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Any, *args: Any, **kwargs: Any) -> None:
        raise OSError("the task itself failed")

    monkeypatch.setattr(NavalwarTask, "apply_async", broken)
    assert app.conf.task_always_eager is True

    with pytest.raises(OSError, match="the task itself failed"):
        heartbeat.send_after_commit(("eager",), {})


def test_the_polled_phase_status_says_resolution_is_delayed(game: Any) -> None:
    Phase.objects.filter(pk=game.phase.pk).update(
        status="resolving", closed_at=timezone.now(), enqueue_failed_at=timezone.now()
    )
    client = Client()
    client.force_login(game.players["germany"])
    url = reverse("battles:battle_status", args=[game.battle.pk])

    response = client.get(
        url, {"phase": game.phase.pk, "status": "resolving"}, headers={"HX-Request": "true"}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="panel phase-status" id="phase"')
    assert f"{DELAYED}: the server could not start it yet." in html
    assert "being resolved" not in html
