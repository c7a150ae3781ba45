"""Bench the battle page in process: a player's GET of it for 3, 20 and 200 ships; print ms, KB and queries.

Run from the repository root (a benchmark, not a test)::

    .venv/bin/python bench/battle_page_bench.py [--repeat 15] [--profile 200] [--database-url URL]

The battles are those bench/run_all.py's web rows load: bench/builders.py's ``scenario_battle`` (seed's
Bismarck, 3 ships) and ``big_battle`` (ultra_simple, 60 x 60 hexes, 20 and 200 ships, the fleets in gun
range), each with one phase resolved in this process (orders for half of each side's ships, so the page has
a log, and "repeat last orders" to offer) and the next phase open. The north side's player fetches the page
with Django's test client (the whole middleware stack, DEBUG off): median and fastest wall time of
``--repeat`` fetches after two warm-ups, the page's size, its queries, and the order forms it carries. The
per-ship row is one ship's order panel (``battles:order_panel``, what the page loads when a ship's orders
are opened).

The database is a throwaway SQLite file unless ``--database-url`` names one (it must contain "bench": it is
dropped and recreated, as bench/run_all.py does). ``--profile N`` prints cProfile's top functions for the
N-ship page. "CPU ms" is this process's CPU time (median), less skewed than wall time by other work on a
shared machine.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZES = (3, 20, 200)
ROW = "{:44} {:>10} {:>10} {:>8} {:>6} {:>8} {:>6}"


def setup_django(database_url: str | None) -> None:
    """Configure Django on a fresh, migrated database (DEBUG off, so no query log slows the page)."""
    if database_url:
        from bench.run_all import recreate_database

        recreate_database(database_url)
        os.environ["DATABASE_URL"] = database_url
    else:
        path = Path(tempfile.mkdtemp(prefix="navalwar-page-bench-")) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "navalwar.settings")
    os.environ["DEBUG"] = "false"
    os.environ.pop("REDIS_URL", None)  # tasks run in process: nothing here needs a broker
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["testserver", *settings.ALLOWED_HOSTS]
    call_command("migrate", verbosity=0)


def resolve_one_phase(game: Any) -> None:
    """Give half of each side's ships an order, resolve the open phase in process; the next phase opens."""
    from django.db.models.functions import Now

    from battles import services
    from battles.models import Phase

    phase = game.open_phase()
    rs_fields = {"ultra_simple": {"hexes": 1, "turn": 0, "turn_after": 0}}
    data = rs_fields.get(game.campaign.ruleset)
    if data is not None:
        for side, user in game.players.items():
            keys = game.battle.ships.filter(campaign_ship__side__key=side).order_by("pk")
            for key in list(keys.values_list("ship_key", flat=True))[::2]:
                services.orders_submit(phase=phase, user=user, ship_key=key, data=dict(data))
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=Now(), close_reason="bench")
    outcome = services.phase_resolve(phase_id=phase.pk)
    if outcome != "resolved":
        raise RuntimeError(f"phase_resolve returned {outcome!r}")


def build(ships: int) -> Any:
    from bench.builders import big_battle, scenario_battle

    game = scenario_battle() if ships == 3 else big_battle(ships)
    resolve_one_phase(game)
    if game.open_phase() is None:
        raise RuntimeError(f"the {ships}-ship battle has no open phase after one resolution")
    return game


def timed(fn: Any, repeat: int) -> tuple[list[float], list[float]]:
    """Return the wall and CPU seconds of ``repeat`` calls of ``fn`` (after two warm-ups)."""
    fn()
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu


def page_fetcher(game: Any) -> tuple[Any, Any, str]:
    from django.test import Client
    from django.urls import reverse

    user = game.players.get("north") or next(iter(game.players.values()))
    client = Client()
    client.force_login(user)
    url = reverse("battles:battle", args=[game.battle.pk])

    def fetch() -> Any:
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        return response

    return client, fetch, url


def panel_fetcher(game: Any, client: Any) -> Any:
    """Return a fetch of one own ship's order panel, as htmx asks for it; None when there is no such URL."""
    from django.urls import NoReverseMatch, reverse

    from battles.models import BattleShip

    phase = game.open_phase()
    side = "north" if "north" in game.players else next(iter(game.players))
    own = BattleShip.objects.filter(battle=game.battle, campaign_ship__side__key=side)
    bship = own.order_by("pk").first()
    try:
        url = reverse("battles:order_panel", args=[game.battle.pk, bship.ship_key])
    except NoReverseMatch:
        return None

    def fetch() -> Any:
        response = client.get(url, {"phase": phase.pk}, HTTP_HX_REQUEST="true")
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        return response

    return fetch


def queries_of(fetch: Any) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fetch()
    return len(captured)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed fetches per page (default 15)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="ship counts (3 = the scenario)")
    parser.add_argument("--profile", type=int, metavar="SHIPS", help="print a cProfile of that page")
    parser.add_argument("--database-url", help="a PostgreSQL database whose name contains 'bench'")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    setup_django(args.database_url)
    print(f"load average before the run: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(ROW.format("Page", "median ms", "fastest ms", "CPU ms", "KB", "queries", "forms"))
    for ships in sizes:
        game = build(ships)
        client, fetch, _url = page_fetcher(game)
        times, cpu = timed(fetch, args.repeat)
        body = fetch().content.decode()
        label = f"battle page, {ships} ships" + (" (Bismarck scenario)" if ships == 3 else "")
        print(
            ROW.format(
                label,
                f"{statistics.median(times) * 1000:.1f}",
                f"{min(times) * 1000:.1f}",
                f"{statistics.median(cpu) * 1000:.1f}",
                f"{len(body) / 1024:.0f}",
                queries_of(fetch),
                body.count('name="ship_key"'),
            )
        )
        panel = panel_fetcher(game, client)
        if panel is not None:
            ptimes, pcpu = timed(panel, args.repeat)
            pbody = panel().content.decode()
            print(
                ROW.format(
                    f"  one ship's order panel, {ships} ships",
                    f"{statistics.median(ptimes) * 1000:.1f}",
                    f"{min(ptimes) * 1000:.1f}",
                    f"{statistics.median(pcpu) * 1000:.1f}",
                    f"{len(pbody) / 1024:.0f}",
                    queries_of(panel),
                    pbody.count('name="ship_key"'),
                )
            )
        if args.profile == ships:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(3):
                fetch()
            profiler.disable()
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
            stats.print_stats(45)
            print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
