"""Run every Navalwar benchmark and print one table (a benchmark, not a test; `make bench`).

- rules: milliseconds per 200-ship phase for each rule set and the ratio to the bare cost of its dice
  (bench/rules_bench.py);
- pipeline: phase closed -> phase resolved through Redis and a real Celery worker (``celery -A navalwar
  worker -P solo``), for 20 and 200 ships: median and 95th percentile; database queries per resolution
  (``battles.services.phase_resolve`` run in this process under ``CaptureQueriesContext``);
- memory: peak RSS of that worker while it resolves 200-ship phases (``VmHWM`` of /proc/<pid>/status, reset
  with /proc/<pid>/clear_refs before the 200-ship phases);
- web: the battle page under 20 concurrent users (wrk, or a Python load generator when wrk is missing),
  median and 95th percentile, side by side with a bare Django view (/bench/bare/, ``NAVALWAR_BENCH=1``) on
  the same gunicorn server in the same run: the ratio is the figure.

Needs PostgreSQL and Redis: ``DATABASE_URL`` (default postgres://postgres@127.0.0.1:5432/navalwar_bench) and
``REDIS_URL`` (default redis://127.0.0.1:6379/9) from the environment. The database is dropped and created
anew on each run, so its name must contain "bench"; the Redis database's default queue is purged. The web
server and the worker run with DJANGO_ENV=production (DEBUG off, hashed static files) on loopback.

Run from the project's root: ``python bench/run_all.py [--only rules,pipeline,web] [--quick]``. About two
minutes; ``--quick`` is a smaller run for a look.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/navalwar_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/9"
SECTIONS = ("rules", "pipeline", "web")
PIPELINE_SIZES = (20, 200)
WEB_USERS = 20


@dataclass(frozen=True, slots=True)
class Row:
    bench: str
    case: str
    median: str
    p95: str = "-"
    notes: str = ""


# --- small helpers (pure; the smoke test runs them) --------------------------------------------------------


def percentile(values: Sequence[float], pct: float) -> float:
    """Return the ``pct`` percentile of ``values`` (nearest rank, as wrk and most load tools report it)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[rank - 1]


def format_table(rows: Sequence[Row]) -> str:
    """Return ``rows`` as a Markdown table (readable in a terminal, pasteable into docs/performance.md)."""
    head = ("Bench", "Case", "Median", "p95", "Notes")
    cells = [head] + [(r.bench, r.case, r.median, r.p95, r.notes) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(cell, widths, strict=True)) + " |" for cell in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def parse_wrk(output: str) -> dict[str, int]:
    """Return the numbers bench/wrk_report.lua printed (``WRK_JSON {...}``)."""
    match = re.search(r"^WRK_JSON (\{.*\})$", output, re.MULTILINE)
    if match is None:
        raise ValueError(f"no WRK_JSON line in wrk's output:\n{output}")
    return {k: int(v) for k, v in json.loads(match.group(1)).items()}


def ms(value: float) -> str:
    return f"{value:.1f} ms" if value >= 10 else f"{value:.2f} ms"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(predicate: Callable[[], Any], *, timeout: float, what: str, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


# --- rules -------------------------------------------------------------------------------------------------


def rules_rows(*, ships: int = 200, runs: int = 7, only: str | None = None) -> list[Row]:
    """Time one phase of a ``ships``-ship battle per rule set (bench/rules_bench.py); no services needed."""
    from bench import rules_bench
    from rules import all_rulesets
    from rules.scenario import bundled_scenarios

    rows = []
    for rs in all_rulesets():
        if only and rs.key != only:
            continue
        scenarios = list(bundled_scenarios(rs.key).values())
        if not scenarios:
            rows.append(Row("rules", rs.key, "-", notes="no bundled scenario"))
            continue
        r = rules_bench.bench(rs, scenarios[0], ships, runs, seed=1)
        ratio = f"{r.ratio:.1f}x" if r.ratio is not None else "-"
        rows.append(
            Row(
                "rules",
                f"{rs.key}: one {r.ships}-ship phase",
                ms(r.ms),
                notes=f"fastest {ms(r.best_ms)}; {r.dice} dice, bare {ms(r.dice_ms)}: {ratio} the dice",
            )
        )
    return rows


# --- environment -------------------------------------------------------------------------------------------


def bench_environment(database_url: str, redis_url: str, secret_key: str) -> dict[str, str]:
    """Return the environment of this process's Django and of the worker and web server it starts."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "NAVALWAR_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "navalwar.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "SECRET_KEY": secret_key,  # the same everywhere: the session made here must log in over there
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def production_environment(env: dict[str, str], static_root: Path) -> dict[str, str]:
    return {
        **env,
        "DJANGO_ENV": "production",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": str(static_root),
        "NAVALWAR_BENCH": "1",
        "EMAIL_URL": "dummymail://",  # turn notifications go nowhere
    }


def recreate_database(database_url: str) -> None:
    """Drop and create the bench database (its name must contain "bench")."""
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = urllib.parse.unquote(parts.path.lstrip("/"))
    if "bench" not in name:
        raise SystemExit(
            f"DATABASE_URL names the database {name!r}: the bench drops and recreates its database, so the "
            "name must contain 'bench' (e.g. postgres://postgres@127.0.0.1:5432/navalwar_bench)"
        )
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def machine_lines(load: tuple[float, float, float], *, redis_url: str = "", loadgen: str = "") -> list[str]:
    """Describe the machine, and with ``redis_url`` the services (Django must be set up), of the figures."""
    cpu = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        cpu = found.group(1).strip() if found else cpu
    mem = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        found = re.search(r"^MemTotal:\s*(\d+) kB", meminfo.read_text(), re.MULTILINE)
        mem = f", {int(found.group(1)) / 1024 / 1024:.0f} GiB RAM" if found else ""
    os_name = platform.system()
    release = Path("/etc/os-release")
    if release.exists():
        found = re.search(r'^PRETTY_NAME="?([^"\n]+)"?', release.read_text(), re.MULTILINE)
        os_name = found.group(1) if found else os_name
    software = f"Software: Python {platform.python_version()}"
    if redis_url:
        import django
        import gunicorn
        import redis
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            pg_version = cursor.fetchone()[0].split()[0]
        redis_version = redis.Redis.from_url(redis_url).info("server")["redis_version"]
        software += (
            f", Django {django.get_version()}, PostgreSQL {pg_version}, Redis {redis_version}, "
            f"gunicorn {gunicorn.__version__}, load: {loadgen}"
        )
    return [
        f"Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"Machine: {cpu}, {os.cpu_count()} CPUs{mem}; {os_name}, Linux {platform.release()}; "
        f"load average before the run {' '.join(f'{x:.1f}' for x in load)}",
        software,
    ]


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.pop("DJANGO_ENV", None)
    import django

    django.setup()


# --- processes ---------------------------------------------------------------------------------------------


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log_path: Path

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        if self.popen.poll() is not None:
            raise RuntimeError(f"{self.name} exited with {self.popen.returncode}:\n{self.log[-3000:]}")
        return True

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=10)


def start(name: str, command: list[str], env: dict[str, str], log_dir: Path) -> Process:
    log_path = log_dir / f"{name}.log"
    with log_path.open("wb") as log:
        popen = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return Process(name=name, popen=popen, log_path=log_path)


def venv_bin(name: str) -> str:
    candidate = Path(sys.executable).with_name(name)
    return str(candidate) if candidate.exists() else (shutil.which(name) or name)


def start_worker(env: dict[str, str], log_dir: Path) -> Process:
    command = [venv_bin("celery"), "-A", "navalwar", "worker", "-P", "solo", "--loglevel=INFO"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-n", "bench@%h"]
    worker = start("worker", command, env, log_dir)
    wait_for(lambda: worker.alive() and " ready." in worker.log, timeout=60, what="the Celery worker")
    return worker


def start_gunicorn(env: dict[str, str], log_dir: Path, port: int, workers: int) -> Process:
    command = [venv_bin("gunicorn"), "navalwar.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--timeout", "30", "--backlog", "256"]
    server = start("gunicorn", command, env, log_dir)

    def answers() -> bool:
        server.alive()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    wait_for(answers, timeout=60, what="gunicorn")
    return server


def proc_status(pid: int) -> dict[str, int]:
    """Return the kB figures of /proc/<pid>/status (VmRSS, VmHWM...)."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if value.strip().endswith("kB"):
            out[key] = int(value.split()[0])
    return out


def reset_peak_rss(pid: int) -> bool:
    """Reset the peak RSS (VmHWM) of ``pid`` to its current RSS (Linux 4.0+); return False if refused."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


# --- pipeline ----------------------------------------------------------------------------------------------


def resolve_and_wait(game: Any, worker: Process, poll: float = 0.002) -> float:
    """Close the open phase as the umpire would ("resolve now"); return seconds until it is resolved."""
    from battles import services
    from battles.models import Phase

    phase = game.open_phase()
    t0 = time.perf_counter()
    services.phase_close(phase=phase, user=game.umpire)  # commits; the task goes to Redis
    while True:
        status = Phase.objects.filter(pk=phase.pk).values_list("status", flat=True).get()
        if status == "resolved":
            return time.perf_counter() - t0
        if status == "failed":
            raise RuntimeError(f"phase {phase.pk} failed: {Phase.objects.get(pk=phase.pk).error}")
        if time.perf_counter() - t0 > 120:
            raise RuntimeError(f"phase {phase.pk} not resolved in 120 s\n{worker.log[-3000:]}")
        worker.alive()
        time.sleep(poll)


def pipeline_samples(ships: int, samples: int, worker: Process, warmup: int = 2) -> tuple[list[float], Any]:
    """Resolve ``warmup`` + ``samples`` phases of ``ships``-ship battles; return the timed seconds and the
    last battle (a new battle is built when one ends)."""
    from bench.builders import big_battle

    game = big_battle(ships)
    times = []
    for i in range(warmup + samples):
        if game.open_phase() is None:
            game = big_battle(ships)
        seconds = resolve_and_wait(game, worker)
        if i >= warmup:
            times.append(seconds)
    return times, game


def resolution_queries(ships: int) -> tuple[int, int]:
    """Return (queries, log events) of one ``phase_resolve`` of a fresh ``ships``-ship battle, in process."""
    from django.db import connection
    from django.db.models.functions import Now
    from django.test.utils import CaptureQueriesContext

    from battles import services
    from battles.models import LogEvent, Phase
    from bench.builders import big_battle

    game = big_battle(ships)
    phase = game.open_phase()
    # Closed without a message to the worker: this process resolves it.
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=Now(), close_reason="bench")
    with CaptureQueriesContext(connection) as captured:
        outcome = services.phase_resolve(phase_id=phase.pk)
    if outcome != "resolved":
        raise RuntimeError(f"phase_resolve returned {outcome!r}")
    return len(captured), LogEvent.objects.filter(phase=phase).count()


def pipeline_rows(worker: Process, samples: int) -> tuple[list[Row], list[Any]]:
    rows: list[Row] = []
    games = []
    memory: Row | None = None
    for ships in PIPELINE_SIZES:
        if ships == max(PIPELINE_SIZES):
            idle = proc_status(worker.popen.pid)
            reset = reset_peak_rss(worker.popen.pid)
        times, game = pipeline_samples(ships, samples, worker)
        games.append(game)
        queries, events = resolution_queries(ships)
        rows.append(
            Row(
                "pipeline",
                f"{ships} ships: phase closed -> resolved",
                ms(statistics.median(times) * 1000),
                ms(percentile(times, 95) * 1000),
                f"{len(times)} phases, real worker (solo) via Redis; {queries} queries per resolution "
                f"({events} log events)",
            )
        )
        if ships == max(PIPELINE_SIZES):
            status = proc_status(worker.popen.pid)
            peak = status["VmHWM"] / 1024
            note = f"idle before: {idle['VmRSS'] / 1024:.0f} MiB, after the {min(PIPELINE_SIZES)}-ship phases"
            if not reset:
                note += "; peak not reset (clear_refs refused): lifetime peak"
            memory = Row("memory", f"worker peak RSS, {ships}-ship phases", f"{peak:.0f} MiB", notes=note)
    if memory is not None:
        rows.append(memory)
    return rows, games


# --- web ---------------------------------------------------------------------------------------------------


def session_cookie(user: Any) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def fetch(url: str, cookie: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={cookie}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def load_wrk(url: str, cookie: str, duration: float, users: int) -> dict[str, float]:
    command = ["wrk", "-t", str(min(users, 2)), "-c", str(users), "-d", f"{duration:.0f}s"]
    command += ["--timeout", "10s", "-H", f"Cookie: sessionid={cookie}"]
    command += ["-s", str(ROOT / "bench" / "wrk_report.lua"), url]
    out = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60, check=True).stdout
    data = parse_wrk(out)
    return {
        "requests": data["requests"],
        "rps": data["requests"] / (data["duration_us"] / 1e6),
        "p50": data["p50_us"] / 1000,
        "p95": data["p95_us"] / 1000,
        "errors": data["status_errors"] + data["socket_errors"],
    }


def load_python(url: str, cookie: str, duration: float, users: int) -> dict[str, float]:
    """A small closed-loop load generator: ``users`` threads, each one request after another."""
    import http.client

    parts = urllib.parse.urlsplit(url)
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop_at = time.perf_counter() + duration

    def user() -> None:
        nonlocal errors
        mine, bad = [], 0
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            try:
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
                conn.request("GET", parts.path, headers={"Cookie": f"sessionid={cookie}"})
                response = conn.getresponse()
                response.read()
                conn.close()
                ok = response.status < 400
            except OSError:
                ok = False
            mine.append((time.perf_counter() - t0) * 1000)
            bad += not ok
        with lock:
            latencies.extend(mine)
            errors += bad

    threads = [threading.Thread(target=user) for _ in range(users)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies),
        "p95": percentile(latencies, 95),
        "errors": errors,
    }


def web_rows(
    games: Sequence[Any], env: dict[str, str], log_dir: Path, *, duration: float, workers: int, loadgen: str
) -> list[Row]:
    from django.urls import reverse

    port = free_port()
    server = start_gunicorn(env, log_dir, port, workers)
    base = f"http://127.0.0.1:{port}"
    load = load_wrk if loadgen.startswith("wrk") else load_python
    try:
        targets: list[tuple[str, str, str, str]] = []  # (case, path, cookie, must contain)
        first = games[0]
        cookie = session_cookie(next(iter(first.players.values())))
        targets.append(("bare Django view (/bench/bare/)", "/bench/bare/", cookie, "ok"))
        for game in games:
            ships = game.battle.ships.count()
            player = next(iter(game.players.values()))
            path = reverse("battles:battle", args=[game.battle.pk])
            case = f"battle page, {game.battle.scenario_key or 'hex map 60 x 60'}, {ships} ships"
            targets.append((case, path, session_cookie(player), "<h2>Orders</h2>"))
        results = {}
        for case, path, cookie, expected in targets:
            for _ in range(5):  # warm up, and check the page really is the logged-in page
                status, body = fetch(base + path, cookie)
                if status != 200 or expected not in body:
                    raise RuntimeError(f"{path} answered {status} without {expected!r}:\n{body[:500]}")
            results[case] = load(base + path, cookie, duration, WEB_USERS)
            server.alive()
    finally:
        server.stop()
    bare = results[targets[0][0]]
    rows = []
    for case, *_ in targets:
        r = results[case]
        note = f"{r['rps']:.0f} req/s, {r['requests']:.0f} requests, {r['errors']:.0f} errors"
        if case != targets[0][0]:
            note += f"; {r['p50'] / bare['p50']:.1f}x the bare view's median, "
            note += f"{r['p95'] / bare['p95']:.1f}x its p95"
        rows.append(Row("web", f"{case}, {WEB_USERS} users", ms(r["p50"]), ms(r["p95"]), note))
    return rows


# --- main --------------------------------------------------------------------------------------------------


@contextmanager
def services_ready(env: dict[str, str], log_dir: Path) -> Iterator[dict[str, str]]:
    """Recreate and migrate the bench database, collect static files; yield the production environment."""
    from django.core.management import call_command

    recreate_database(env["DATABASE_URL"])
    django_setup(env)
    call_command("migrate", interactive=False, verbosity=0)
    static_root = log_dir / "static"
    prod = production_environment(env, static_root)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=prod,
        check=True,
        timeout=300,
    )
    from navalwar.celery import app

    app.control.purge()  # nothing left from an earlier run reaches the new worker
    yield prod


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"some of {', '.join(SECTIONS)}")
    parser.add_argument("--samples", type=int, default=30, help="timed phases per size (default 30)")
    parser.add_argument("--duration", type=float, default=10, help="seconds of load per page (default 10)")
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn workers (3 as deployed)")
    parser.add_argument("--rules-runs", type=int, default=7, help="timed runs per rule set (default 7)")
    parser.add_argument("--quick", action="store_true", help="a quick look: 8 phases, 3 s of load, 3 runs")
    parser.add_argument("--python-load", action="store_true", help="use the Python load generator, not wrk")
    parser.add_argument("--keep-logs", metavar="DIR", help="keep the worker's and gunicorn's logs in DIR")
    args = parser.parse_args(argv)
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    if args.quick:
        args.samples, args.duration, args.rules_runs = 8, 3, 3

    wrk = shutil.which("wrk")
    loadgen = "Python threads (wrk not installed)" if not wrk or args.python_load else "wrk"
    if loadgen == "wrk":
        version = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False).stdout
        loadgen = version.split("[")[0].strip() or "wrk"

    started = time.monotonic()
    load = os.getloadavg()  # other work on the machine skews every figure: say how busy it was
    rows: list[Row] = []
    if "rules" in sections:
        rows += rules_rows(runs=args.rules_runs)
    header = machine_lines(load)
    if {"pipeline", "web"} & set(sections):
        env = bench_environment(
            os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
            os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
            secrets.token_urlsafe(50),
        )
        with tempfile.TemporaryDirectory(prefix="navalwar-bench-") as tmp:
            log_dir = Path(args.keep_logs or tmp)
            log_dir.mkdir(parents=True, exist_ok=True)
            with services_ready(env, log_dir) as prod:
                header = machine_lines(load, redis_url=env["REDIS_URL"], loadgen=loadgen)
                worker = start_worker(prod, log_dir)
                try:
                    pipe, games = pipeline_rows(worker, args.samples)
                finally:
                    worker.stop()
                if "pipeline" in sections:
                    rows += pipe
                if "web" in sections:
                    from bench.builders import scenario_battle

                    web = {"duration": args.duration, "workers": args.web_workers, "loadgen": loadgen}
                    rows += web_rows([scenario_battle(), *games], prod, log_dir, **web)
    print("\n".join(header))
    print()
    print(format_table(rows))
    print(f"\n(ran in {time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
