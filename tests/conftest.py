"""Fixtures for the whole suite.

- ``user``, ``user_client``, ``staff_user``: a logged-in player / umpire (``force_login``: axes refuses
  ``client.login()`` because it needs the request).
- Celery runs tasks eagerly in every test except those marked ``integration``, whatever REDIS_URL says, so a
  unit test never leaves a message in a real broker.
- ``celery_worker``: a REAL ``celery -A navalwar worker -P solo`` subprocess on REDIS_URL, using the test
  database pytest-django made. Use it from a ``@pytest.mark.integration`` +
  ``@pytest.mark.django_db(transaction=True)`` test, so that rows are committed where the worker sees them.
- ``celery_worker_factory``: start more workers for one test (``pool="prefork"``, own ``queue``, or another
  broker with ``redis_url``), e.g. for fault tests; they are stopped after the test.
- ``private_redis``: a ``redis-server`` of the test's own on a free loopback port, to stop and restart
  (never the shared one); ``tests.utils.web_broker(url)`` points this process's Celery producer at it.
- ``chromium_page``: a Playwright page in Debian's /usr/bin/chromium (``browser`` tests; use with
  ``live_server`` and ``django_db(transaction=True)``).

Missing services (REDIS_URL unset or unreachable, a non-PostgreSQL database, no chromium) skip those tests
with the reason; ``REQUIRE_SERVICES=1`` (set by .ci/run) turns every such skip into a failure.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory
from tests.utils import REPO_ROOT, CeleryWorker, RedisServer, database_url_for, free_port, wait_until

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO_ROOT / "test-artifacts"


def skip_or_fail(reason: str) -> None:
    """Skip the test for a missing service, or fail it when REQUIRE_SERVICES=1."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


# --- Accounts --------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2 at production strength costs a good part of a second a hash; tests hash hundreds of passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return DEFAULT_PASSWORD


@pytest.fixture
def user(db: None) -> Any:
    return UserFactory()


@pytest.fixture
def staff_user(db: None) -> Any:
    return StaffUserFactory()


@pytest.fixture
def user_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


# --- Dice ------------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _battle_dice_of_the_test(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every battle's dice in a test come from the test itself, not from the machine's randomness: a test's
    outcome never depends on luck (a battle test that resolved a phase and expected the battle to go on
    failed in about one run in eighty, when the British sank Bismarck in phase 1).

    ``secrets.randbits``, where the site draws its dice seeds (``battles.services.dice_seed``, the set-up
    editor), gives the n-th draw of the test as the first bits of ``sha256(f"{node id}:{n}")``. A test or
    module that fixes the draws itself (monkeypatching ``randbits``) or sets the deterministic hook
    (``settings.NAVALWAR_DICE_SEED_BASE``, the end-to-end tests) still decides; a worker process draws its
    own.
    """
    import secrets

    node = request.node.nodeid
    draws = iter(range(1_000_000))

    def randbits(k: int) -> int:
        digest = hashlib.sha256(f"{node}:{next(draws)}".encode()).digest()
        return (
            int.from_bytes(digest, "big") >> (256 - k) if k <= 256 else secrets.SystemRandom().getrandbits(k)
        )

    monkeypatch.setattr(secrets, "randbits", randbits)


# --- Celery ----------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _celery_eager_unless_integration(request: pytest.FixtureRequest) -> Iterator[None]:
    from navalwar.celery import app

    integration = request.node.get_closest_marker("integration") is not None
    if integration:
        request.getfixturevalue("integration_services")  # skip (or fail) here, before the test body runs
    eager = not integration
    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = eager
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(scope="session")
def integration_services(django_db_setup: None, django_db_blocker: Any) -> str:
    """Check that PostgreSQL and Redis are there; return REDIS_URL. Skip (or fail) otherwise."""
    from django.db import connection

    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        skip_or_fail("REDIS_URL is not set: no broker for a real Celery worker")
    if connection.vendor != "postgresql":
        skip_or_fail(f"DATABASE_URL is {connection.vendor}, not PostgreSQL")
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"Redis at {redis_url} does not answer: {exc}")
    return redis_url


def _start_worker(
    *, redis_url: str, log_path: Path, pool: str = "solo", queue: str | None = None, concurrency: int = 1
) -> CeleryWorker:
    """Start ``celery -A navalwar worker -P <pool>`` against the test database; wait until it is ready."""
    from django.db import connection

    name = f"pytest-{uuid.uuid4().hex[:8]}@%h"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "navalwar.settings",
        # The database pytest-django created (test_<name>), so the worker and the test share rows.
        "DATABASE_URL": database_url_for(connection.settings_dict),
        "DATABASE_POOL": "0",
        "REDIS_URL": redis_url,
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    celery_bin = Path(sys.executable).with_name("celery")
    command = [str(celery_bin)] if celery_bin.exists() else [sys.executable, "-m", "celery"]
    command += ["-A", "navalwar", "worker", "-P", pool, "--concurrency", str(concurrency), "--loglevel=INFO"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-n", name]
    if queue:
        command += ["-Q", queue]
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    worker = CeleryWorker(process=process, name=name, log_path=log_path, env=env, queue=queue)

    def ready() -> bool:
        worker.assert_alive()
        return " ready." in worker.log

    try:
        wait_until(ready, timeout=60, what="the Celery worker to be ready")
    except BaseException:
        worker.stop()
        raise
    return worker


@pytest.fixture(scope="session")
def celery_worker(
    integration_services: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CeleryWorker]:
    """Start ``celery -A navalwar worker -P solo`` on REDIS_URL against pytest-django's test database.

    Session-scoped: one worker serves every integration test on the default queue; it is stopped (warm
    shutdown, then kill) before pytest-django drops the test database. The default queue is purged first so
    stale messages from an earlier run do not reach it.
    """
    from navalwar.celery import app

    app.control.purge()
    worker = _start_worker(
        redis_url=integration_services, log_path=tmp_path_factory.mktemp("celery") / "worker.log"
    )
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def celery_worker_factory(integration_services: str, tmp_path: Path) -> Iterator[Callable[..., CeleryWorker]]:
    """Start extra workers for one test: ``celery_worker_factory(pool="prefork", queue="q-1")``.

    Give each its own ``queue`` (and send with ``apply_async(queue=...)``) so the session worker does not take
    the test's messages. Every worker started here is stopped after the test.
    """
    started: list[CeleryWorker] = []

    def start(
        *, pool: str = "solo", queue: str | None = None, concurrency: int = 1, redis_url: str | None = None
    ) -> CeleryWorker:
        log_path = tmp_path / f"worker-{len(started)}.log"
        worker = _start_worker(
            redis_url=redis_url or integration_services,
            log_path=log_path,
            pool=pool,
            queue=queue,
            concurrency=concurrency,
        )
        worker.redis_url = redis_url or integration_services
        started.append(worker)
        return worker

    start.started = started  # type: ignore[attr-defined]  # for pytest_runtest_teardown below
    yield start
    for worker in started:
        worker.stop()
    # Drop the test's own queues and kombu's bindings for them, so Redis does not collect them run after run.
    import redis

    client = redis.Redis.from_url(integration_services)
    for queue in {w.queue for w in started if w.queue and w.redis_url == integration_services}:
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A started ``redis-server`` of the test's own (``.url``; ``.kill()``, then ``.start()`` on one port)."""
    if shutil.which("redis-server") is None:
        skip_or_fail("redis-server is not installed (apt-get install redis-server)")
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(port=free_port(), directory=directory)
    server.start()
    try:
        yield server
    finally:
        server.kill()


# --- Browser ---------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _browser_needs_chromium(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("browser") is not None and not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is not installed (apt-get install chromium)")


@pytest.fixture
def chromium_page(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A Playwright page in Debian's Chromium (never a downloaded browser), with its own cookies.

    Function-scoped on purpose: Playwright's sync API runs an event loop in this thread while it is open, and
    Django refuses ORM calls while a loop runs, so the browser must be gone before the next test touches the
    database. A screenshot lands in test-artifacts/<test>.png when the test fails.
    """
    from django.db import connections

    if not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("the playwright package is not installed")
    # Only while the browser is open; must not leak into subprocesses (check --deploy rejects it).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        # A loaded CI machine (a worker, PostgreSQL and the suite on two cores) can take more than
        # Playwright's default 30 s for a live-server page; a wait that long is still a failure signal.
        page.set_default_timeout(60_000)
        try:
            yield page
        finally:
            report = getattr(request.node, "rep_call", None)
            if report is not None and report.failed:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
            context.close()
            browser.close()
            # ORM calls made while Playwright ran may have opened a connection in a context-local wrapper
            # that the test database teardown would not see; close it here, in the same context.
            connections.close_all()
    # The live server answers each browser connection in a thread that holds its own database connection
    # until the socket closes. Let those threads finish, or the transactional flush and the final DROP
    # DATABASE race them ("database is being accessed by other users").
    wait_until(_no_live_server_request_threads, timeout=15, what="live-server request threads to finish")


def _no_live_server_request_threads() -> bool:
    return not any("process_request_thread" in thread.name for thread in threading.enumerate())


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [
        f"navalwar: DATABASE_URL={'set' if os.environ.get('DATABASE_URL') else 'unset (SQLite)'}, "
        f"REDIS_URL={'set' if os.environ.get('REDIS_URL') else 'unset (eager Celery)'}, "
        f"REQUIRE_SERVICES={'1' if REQUIRE_SERVICES else '0'}, "
        f"chromium={'yes' if CHROMIUM.exists() else 'no'}"
    ]


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Before any fixture of an integration test is torn down (pytest-django's flush among them), let its
    workers finish what they took: a task still running holds row locks that deadlock the flush's TRUNCATE."""
    funcargs = getattr(item, "funcargs", {})
    workers = [funcargs["celery_worker"]] if "celery_worker" in funcargs else []
    factory = funcargs.get("celery_worker_factory")
    workers += list(getattr(factory, "started", ()))
    for worker in workers:
        worker.wait_idle()
    yield
