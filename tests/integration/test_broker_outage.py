"""Fault: the broker (Redis) stops while players submit orders, then comes back.

Every order is saved and acknowledged; the side that closes the phase gets its normal answer; the battle page
says resolution is delayed; once Redis is back the sweep sends the phase again and a worker resolves it once.

The broker here is a private ``redis-server`` on its own port (``private_redis``), never the shared one that
other developers and CI use: this process's producer (``web_broker``) and a worker subprocess both use it,
and the test kills it (SIGKILL, no persistence) and starts it again on the same port. Needs PostgreSQL and
REDIS_URL like every integration test (the session's fixtures check them); every wait is bounded.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import LogEvent, Order, Phase, PhaseSide, WorkerHeartbeat
from battles.tasks import heartbeat, sweep_phases
from tests.factories import scenario_campaign
from tests.utils import RedisServer, wait_until, web_broker

pytestmark = [pytest.mark.integration, pytest.mark.fault, pytest.mark.django_db(transaction=True)]

DELAYED = "Resolution is delayed: the server could not start it yet."
ORDERS = {
    "britain": {"kgv": {"hexes": "2", "target": "bismarck"}, "rodney": {"hexes": "1"}},
    "germany": {"bismarck": {"hexes": "2"}},
}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_orders_survive_a_redis_outage_and_the_phase_resolves_once_it_is_back(
    private_redis: RedisServer, celery_worker_factory: Any
) -> None:
    worker = celery_worker_factory(redis_url=private_redis.url)
    with web_broker(private_redis.url):
        # The private broker works end to end before the outage: a heartbeat goes through it to the worker.
        token = f"outage-{uuid.uuid4().hex}"
        heartbeat.delay(token)
        wait_until(
            lambda: worker.assert_alive() or WorkerHeartbeat.objects.filter(token=token).exists(),
            timeout=30,
            what=lambda: f"the heartbeat through the private Redis\n{worker.log[-2000:]}",
        )
        game = scenario_campaign()
        phase = game.phase
        battle_url = reverse("battles:battle", args=[game.battle.pk])
        clients = {side: _client(user) for side, user in game.players.items()}

        private_redis.kill()
        assert not private_redis.ping()

        for side, ships in ORDERS.items():
            for ship_key, fields in ships.items():
                response = clients[side].post(
                    reverse("battles:order_save", args=[game.battle.pk, ship_key]),
                    {"phase": str(phase.pk), **fields},
                    follow=True,
                )
                assert response.status_code == 200
                assert "Orders saved for " in response.content.decode(), ship_key
        ready_url = reverse("battles:side_ready", args=[game.battle.pk])
        ready = {"ready": "1", "phase": str(phase.pk)}
        first = clients["britain"].post(ready_url, ready, follow=True)
        assert "Your side is ready." in first.content.decode()
        started = time.monotonic()
        closing = clients["germany"].post(ready_url, ready, follow=True)  # the send fails here
        took = time.monotonic() - started

        html = closing.content.decode()
        assert closing.status_code == 200
        assert "Your side is ready." in html
        assert DELAYED in html
        assert DELAYED in clients["britain"].get(battle_url).content.decode()
        assert took < 10, f"the closing request waited {took:.1f} s on the dead broker"
        stuck = Phase.objects.get(pk=phase.pk)
        assert (stuck.status, stuck.close_reason, stuck.attempts) == ("resolving", "all_ready", 0)
        assert stuck.enqueue_failed_at is not None
        assert Order.objects.filter(phase=phase).count() == 3
        assert PhaseSide.objects.filter(phase=phase, ready=True).count() == 2

        private_redis.start()  # same port, empty
        # What beat does every minute: the sweep, run by the worker, sends the marked phase again.
        sweep_phases.delay()

        wait_until(
            lambda: worker.assert_alive() or Phase.objects.get(pk=phase.pk).status == "resolved",
            timeout=90,
            what=lambda: f"the phase to be resolved after the outage\n{worker.log[-3000:]}",
        )
    resolved = Phase.objects.get(pk=phase.pk)
    assert (resolved.attempts, resolved.enqueue_failed_at) == (1, None)
    moved = set(LogEvent.objects.filter(phase=resolved, kind="move").values_list("ship_key", flat=True))
    assert moved == {"kgv", "rodney", "bismarck"}
    assert not LogEvent.objects.filter(phase=resolved, kind="default_orders").exists()  # every order followed
    assert Phase.objects.filter(battle=game.battle, number=2, status="open").count() == 1
    html = clients["britain"].get(battle_url).content.decode()
    assert DELAYED not in html
    assert "Log of phase 1" in html
    assert worker.log.count(": 'resolved'") == 1, worker.log[-3000:]
