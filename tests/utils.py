"""Small helpers for tests (import as ``from tests.utils import ...``)."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

REPO_ROOT = Path(__file__).resolve().parent.parent

# A Celery worker's log lines for a task taken and for a task finished (done, raised, sent to retry, ...).
TASK_RECEIVED = re.compile(r"Task [\w.]+\[([0-9a-f-]+)\] received")
TASK_DONE = re.compile(
    r"Task [\w.]+\[([0-9a-f-]+)\] (?:succeeded|raised|retry|failed|rejected|revoked|ignored)"
)

# Every variable navalwar/settings.py reads; a clean subprocess starts without any of them.
SETTINGS_ENV_VARS = (
    "DJANGO_ENV",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_POOL",
    "DATABASE_POOL_MAX_SIZE",
    "CONN_MAX_AGE",
    "CACHE_URL",
    "REDIS_URL",
    "EMAIL_URL",
    "DEFAULT_FROM_EMAIL",
    "SITE_URL",
    "NAVALWAR_TEST_RESOLVE_SLEEP",
    "NAVALWAR_DICE_SEED_BASE",
    "NAVALWAR_BENCH",
    "STATIC_ROOT",
    "LOG_LEVEL",
    "AXES_FAILURE_LIMIT",
    "AXES_COOLOFF_HOURS",
    "CELERY_BEAT_SCHEDULE_FILENAME",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)

T = TypeVar("T")


def clean_env(**overrides: str) -> dict[str, str]:
    """Return os.environ without the Navalwar settings variables, plus ``overrides``."""
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_ENV_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "navalwar.settings"
    env.update(overrides)
    return env


def run_python(code: str, env: Mapping[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter at the repository root; capture text output."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def wait_until(
    predicate: Callable[[], T],
    *,
    timeout: float = 20.0,
    interval: float = 0.1,
    what: str | Callable[[], str] = "",
) -> T:
    """Poll ``predicate`` until it returns a truthy value and return that; raise AssertionError on timeout.

    ``what`` names the wait in the error; pass a callable (``lambda: f"...{worker.log[-3000:]}"``) for text
    that must be read when the wait fails, such as a worker's log, not when it starts.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            text = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {text or predicate!r}")
        time.sleep(interval)


def phase_lock_holders_sql(idle_seconds: float = 0) -> str:
    """Return SQL listing the other backends (pids) holding a row lock in ``battles_phase``, read from
    ``pg_locks`` without taking a lock (a probe that locked the row could make a worker's SKIP LOCKED claim
    pass the phase over). With ``idle_seconds``, only those idle in their transaction at least that long (a
    worker asleep in its resolution, not a mail task's momentary key-share lock through a foreign key)."""
    sql = (
        "SELECT DISTINCT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE c.relname = 'battles_phase' AND l.mode = 'RowShareLock' AND l.granted"
        " AND l.pid <> pg_backend_pid()"
    )
    if idle_seconds:
        sql += (
            f" AND a.state = 'idle in transaction' AND a.state_change < now() - interval '{idle_seconds:g} s'"
        )
    return sql


def database_url_for(settings_dict: dict[str, Any]) -> str:
    """Return a postgres:// URL for a Django PostgreSQL settings dict (the test database, once created)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password, safe='')}@" if password else (f"{user}@" if user else "")
    host = quote(settings_dict.get("HOST") or "", safe="")
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"


@dataclass
class CeleryWorker:
    """A running worker subprocess. ``log`` is its combined output (read it when a test fails)."""

    process: subprocess.Popen[bytes]
    name: str
    log_path: Path
    env: dict[str, str] = field(repr=False)
    queue: str | None = None
    redis_url: str = ""

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 20) -> None:
        """Warm shutdown (SIGTERM: finish the running task), then SIGKILL after ``timeout`` seconds."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def assert_alive(self) -> None:
        if self.process.poll() is not None:
            raise AssertionError(f"Celery worker exited with {self.process.returncode}:\n{self.log}")

    def busy(self) -> set[str]:
        """Return the ids of the tasks this worker has received and not yet finished (read from its log)."""
        log = self.log
        received = set(TASK_RECEIVED.findall(log))
        return received - set(TASK_DONE.findall(log))

    def wait_idle(self, timeout: float = 30) -> bool:
        """Wait until the worker has finished every task it took and its queue in Redis is empty, twice in a
        row 0.3 s apart; return False (and go on) after ``timeout`` seconds or when the worker is gone.

        Before pytest-django's end-of-test flush: a task still running (the e-mails a resolution sends, a
        sweep) holds row locks the flush's TRUNCATE would deadlock with.
        """
        import redis

        client = redis.Redis.from_url(self.redis_url or self.env.get("REDIS_URL", ""))
        queue = self.queue or "celery"
        deadline = time.monotonic() + timeout
        quiet = 0
        try:
            while time.monotonic() < deadline and self.process.poll() is None:
                quiet = quiet + 1 if not self.busy() and not client.llen(queue) else 0
                if quiet >= 2:
                    return True
                time.sleep(0.3)
        finally:
            client.close()
        return False


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class RedisServer:
    """A private ``redis-server`` on its own loopback port, for tests that stop the broker.

    Never the machine's shared Redis: other developers and CI use that one. No persistence (``--save ''``,
    ``--appendonly no``), so a restart comes back empty, as a crashed broker without a disk would.
    """

    port: int
    directory: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.directory), "--daemonize", "no"]
        command += ["--logfile", "redis.log"]
        self.process = subprocess.Popen(command, cwd=self.directory, stdout=subprocess.DEVNULL)
        wait_until(self._up, timeout=timeout, what=f"redis-server on port {self.port}")

    def _up(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"redis-server exited with {self.process.returncode}:\n{self.log}")
        return self.ping()

    def ping(self) -> bool:
        """Return True when something answers PING on the port."""
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
        except redis.RedisError:
            return False

    def kill(self) -> None:
        """Stop the server at once (SIGKILL), as a crash would; its port is free again right after."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    @property
    def log(self) -> str:
        path = self.directory / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""


@contextmanager
def web_broker(url: str) -> Iterator[None]:
    """Send this process's Celery messages (``delay_on_commit`` in services and views) to ``url``.

    Celery keeps one connection pool per broker URL in kombu's registry: point the app at ``url`` by
    dropping its references (the shared broker's pool stays in the registry for later tests), and close
    only the pool of ``url`` afterwards.
    """
    from navalwar.celery import app

    def point_at(broker_url: str) -> None:
        app._pool = None
        app.amqp._producer_pool = None
        app.conf.broker_url = broker_url

    saved = app.conf.broker_url
    point_at(url)
    try:
        yield
    finally:
        private = app._pool
        point_at(saved)
        if private is not None:
            private.force_close_all()


def ship_edit_post(
    battle: Any, ship_key: str, *, reason: str = "Engine trouble", **typed: Any
) -> dict[str, str]:
    """Return what the ship page's edit form (battles.forms.ShipEditForm) posts when the umpire types only
    ``typed`` (field name -> text as typed, or True/False for a checkbox) and ``reason``: every field with
    the ship's value as the page shows it, and the value it was shown with (``initial-<name>``), as a browser
    sends them; an unchecked box is left out."""
    import rules
    from battles.forms import ShipEditForm
    from battles.models import Battle

    state = rules.from_json(rules.BattleState, Battle.objects.get(pk=battle.pk).state)
    form = ShipEditForm(state=state, ship_key=ship_key)
    data: dict[str, str] = {}
    for bound in form:
        if bound.name == "reason":
            continue
        value = bound.value()
        data[bound.html_initial_name] = "" if value is None else str(value)
        if bound.widget_type == "checkbox":
            if value:
                data[bound.name] = "on"
        else:
            data[bound.name] = "" if value is None else str(value)
    for name, value in typed.items():
        assert name in form.fields, f"the form has no field {name}: {sorted(form.fields)}"
        if value is True:
            data[name] = "on"
        elif value is False:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return {**data, "reason": reason}


def battle_ship(game: Any, ship_key: str) -> Any:
    """Return ship ``ship_key`` of ``game``'s battle as the database holds it now (a ``rules.ShipState``)."""
    import rules
    from battles.models import Battle

    return rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state).ship(ship_key)


def sheet_edit(game: Any, ship_key: str, sheet: dict[str, Any], reason: str = "Damage report") -> Any:
    """Edit ship ``ship_key``'s sheet as ``game``'s umpire (``services.battle_ship_edit``: ``sheet`` merged
    into hers); return the ShipEdit, or raise the service's ApplicationError."""
    from battles import services

    return services.battle_ship_edit(
        battle=game.battle, ship_key=ship_key, user=game.umpire, changes={"sheet": sheet}, reason=reason
    )


def admin_campaign_post(campaign: Any, **fields: Any) -> dict[str, Any]:
    """Return what the admin's change form of ``campaign`` posts, its sides inline and no memberships, with
    ``fields`` over it: a campaign field by name (``name=``, ``settings=`` as JSON text), or a side's as
    ``sides-<i>-<field>`` (the sides in pk order)."""
    import json

    sides = list(campaign.sides.order_by("pk"))
    data: dict[str, Any] = {
        "name": campaign.name,
        "ruleset": campaign.ruleset,
        "description": "",
        "settings": json.dumps(campaign.settings),
        "created_at_0": "2026-01-01",
        "created_at_1": "12:00:00",
        "sides-TOTAL_FORMS": str(len(sides)),
        "sides-INITIAL_FORMS": str(len(sides)),
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }
    for i, side in enumerate(sides):
        data |= {
            f"sides-{i}-id": str(side.pk),
            f"sides-{i}-campaign": str(campaign.pk),
            f"sides-{i}-key": side.key,
            f"sides-{i}-name": side.name,
            f"sides-{i}-colour": side.colour,
        }
    return data | fields
