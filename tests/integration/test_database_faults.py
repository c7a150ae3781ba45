"""Fault: the PostgreSQL connection of a request is killed in the middle of the request's transaction.

A player's "ready" closes the phase: the service has already saved the side's readiness in its transaction
when a second connection runs ``pg_terminate_backend`` on the request's backend (the hook wraps
``battles.services._phase_close``, inside the transaction). The player gets the site's 500 page, without a
traceback; nothing of the transaction is in the database; the next request works and the phase then closes
and is resolved by the worker as usual.

Real HTTP against the live server (its own request threads and database connections, Django's real
request cycle), PostgreSQL only; every wait is bounded.
"""

from __future__ import annotations

import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Phase, PhaseSide
from tests.factories import scenario_campaign
from tests.utils import CeleryWorker, database_url_for, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.fault, pytest.mark.django_db(transaction=True)]

LEAKS = ("Traceback", "OperationalError", "psycopg", "terminating connection", "administrator command")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # Browser follows redirects itself, with its cookies


class Browser:
    """Cookies, CSRF, form posts and redirects over real HTTP, logged in with a session made by Django's
    test client (``force_login``)."""

    def __init__(self, base_url: str, user: Any) -> None:
        client = Client()
        client.force_login(user)
        self.base_url = base_url
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        self.opener = urllib.request.build_opener(_NoRedirect)

    def request(self, path: str, data: dict[str, str] | None = None) -> tuple[int, str]:
        """GET ``path`` (or POST ``data`` with the CSRF token), follow redirects; return status and body."""
        for _ in range(5):
            body = None
            if data is not None:
                body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.cookies["csrftoken"]})
            cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
            request = urllib.request.Request(
                self.base_url + path, data=body.encode() if body else None, headers={"Cookie": cookie}
            )
            try:
                with self.opener.open(request, timeout=30) as response:
                    status, headers, text = response.status, response.headers, response.read().decode()
            except urllib.error.HTTPError as error:
                status, headers, text = error.code, error.headers, error.read().decode()
            for header in headers.get_all("Set-Cookie") or []:
                name, _, value = header.split(";", 1)[0].partition("=")
                if value in ("", '""'):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = value
            if status not in (301, 302, 303):
                return status, text
            path, data = headers["Location"], None
        raise AssertionError(f"too many redirects from {path}")


def _backend_alive(url: str, pid: int) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is not None


def test_a_connection_killed_mid_request_gives_an_error_page_and_no_partial_write(
    live_server: Any, celery_worker: CeleryWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = scenario_campaign()
    phase = game.phase
    services.side_set_ready(phase=phase, user=game.players["britain"])
    germany = Browser(live_server.url, game.players["germany"])
    battle_path = reverse("battles:battle", args=[game.battle.pk])
    ready_path = reverse("battles:side_ready", args=[game.battle.pk])
    db_url = database_url_for(connection.settings_dict)
    original = services._phase_close
    killed: list[int] = []

    def close_after_killing_my_connection(phase: Any, *, reason: str) -> None:
        from django.db import connection as request_connection  # the request thread's connection

        if not killed:
            with request_connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid = cursor.fetchone()[0]
            with psycopg.connect(db_url, autocommit=True) as killer:
                assert killer.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
            wait_until(lambda: not _backend_alive(db_url, pid), timeout=10, what=f"backend {pid} to exit")
            killed.append(pid)
        original(phase, reason=reason)

    monkeypatch.setattr(services, "_phase_close", close_after_killing_my_connection)

    status, html = germany.request(battle_path)
    assert status == 200 and "My side is ready</button>" in html
    status, html = germany.request(ready_path, {"ready": "1", "phase": str(phase.pk)})

    assert len(killed) == 1
    assert status == 500
    assert "<h1>Something went wrong</h1>" in html
    assert "/static/css/navalwar.css" in html
    for leak in LEAKS:
        assert leak not in html
    # No partial write: Germany's readiness, saved earlier in the same transaction, is not there.
    assert PhaseSide.objects.get(phase=phase, side__key="germany").ready is False
    assert PhaseSide.objects.get(phase=phase, side__key="britain").ready is True
    unchanged = Phase.objects.get(pk=phase.pk)
    assert (unchanged.status, unchanged.closed_at, unchanged.close_reason) == ("open", None, "")

    # The next requests work: the page, then the same action again, which now closes the phase.
    status, html = germany.request(battle_path)
    assert status == 200
    assert "My side is ready</button>" in html  # Germany is offered "ready" again: it is not ready
    notified = len(re.findall(r"notify_phase_\w+\[[^\]]+\] succeeded", celery_worker.log))
    status, html = germany.request(ready_path, {"ready": "1", "phase": str(phase.pk)})
    assert status == 200  # the redirect to the battle page, followed
    assert "Your side is ready." in html
    wait_until(
        lambda: celery_worker.assert_alive() or Phase.objects.get(pk=phase.pk).status == "resolved",
        timeout=60,
        what=lambda: f"the phase to be resolved\n{celery_worker.log[-3000:]}",
    )
    assert Phase.objects.get(pk=phase.pk).attempts == 1
    assert len(killed) == 1
    # The resolution enqueued its e-mails (phase resolved, next phase opened): let the worker finish them,
    # or the end-of-test flush (TRUNCATE) deadlocks with a notification still holding row locks.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if len(re.findall(r"notify_phase_\w+\[[^\]]+\] succeeded", celery_worker.log)) >= notified + 2:
            break
        time.sleep(0.2)
    time.sleep(0.5)  # the worker's transaction is committed before it logs "succeeded"; a margin all the same
    # Let the live server's request threads close their connections before the database is flushed.
    wait_until(
        lambda: not any("process_request_thread" in t.name for t in threading.enumerate()),
        timeout=15,
        what="live-server request threads to finish",
    )
