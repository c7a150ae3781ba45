"""Build battles for the benchmarks through the site's own services (no import of tests/).

``big_battle(ships=200)`` makes what tests/factories.py's ``big_battle`` makes: an ultra_simple campaign with
two sides (north, south), a player for each, an umpire, and an active battle of ``ships`` ships, half a side,
in lines on a 60 x 60 hex map, with its first phase open. ``gap`` sets the hexes between the two fleets'
nearest rows: the default puts them in gun range from the first phase, so that every phase shoots.
Needs a configured Django (``django.setup()``) and a migrated database.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

# Seed 003's King George V (the numbers tests/factories.py's ShipClassFactory uses).
ULTRA_SIMPLE_STATS = {
    "type": "battleship",
    "tonnage": 36727,
    "belt": 14.7,
    "speed": 28,
    "guns": [{"calibre": 14, "forward": 6, "aft": 4, "broadside": 10}],
}
SHIPS_PER_ROW = 28
MAP_SIZE = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class BenchBattle:
    campaign: Any
    battle: Any
    umpire: Any
    players: dict[str, Any]

    def open_phase(self) -> Any:
        """Return the battle's phase open for orders, or None (resolving, or the battle is over)."""
        from battles.models import Phase

        phases = Phase.objects.filter(battle=self.battle, superseded=False, status="open")
        return phases.order_by("-number").first()


def _user(username: str, *, staff: bool = False) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=username, password=None, is_staff=staff)
    return user


def big_battle(ships: int = 200, *, gap: int = 3, name: str = "") -> BenchBattle:
    """Return a started ultra_simple battle of ``ships`` ships (half a side), ``gap`` hexes between the
    fleets' nearest rows, rows of 28 ships 2 hexes apart, every ship at speed 1 heading for the enemy."""
    from battles import services
    from battles.models import CampaignShip
    from fleets.models import Nation, Ship, ShipClass
    from rules.geometry import offset_to_hex
    from rules.model import MapSpec

    token = secrets.token_hex(4)
    label = name or f"Bench {ships} {token}"
    umpire = _user(f"umpire-{token}", staff=True)
    campaign = services.campaign_create(
        name=label,
        ruleset="ultra_simple",
        created_by=umpire,
        settings={"default_orders": "fire_nearest"},
        sides=[{"key": "north", "name": "North Fleet"}, {"key": "south", "name": "South Fleet"}],
    )
    nation, _ = Nation.objects.get_or_create(name="Bench Nation", defaults={"short_name": "BEN"})
    ship_class = ShipClass.objects.create(
        ruleset="ultra_simple",
        key=f"bench-{token}",
        name=f"Bench class {token}",
        nation=nation,
        type="battleship",
        stats=dict(ULTRA_SIMPLE_STATS),
        source_note="Benchmark data (seed 003's King George V).",
    )
    per_side = ships // 2
    rows_per_side = -(-per_side // SHIPS_PER_ROW)
    players: dict[str, Any] = {}
    placements = []
    for index, side in enumerate(campaign.sides.order_by("pk")):
        players[side.key] = _user(f"{side.key}-{token}")
        services.membership_add(campaign=campaign, user=players[side.key], role="player", side=side)
        for i in range(per_side):
            ship = Ship.objects.create(name=f"{side.name} {i + 1}", ship_class=ship_class)
            cship = CampaignShip.objects.create(campaign=campaign, side=side, ship=ship)
            col = (i % SHIPS_PER_ROW) * 2 + 1
            north_row = 1 + (rows_per_side - 1 - i // SHIPS_PER_ROW) * 2
            row = north_row if index == 0 else 1 + (rows_per_side - 1) * 2 + gap + (i // SHIPS_PER_ROW) * 2
            placements.append(
                services.Placement(
                    campaign_ship=cship,
                    position=offset_to_hex(col, row),
                    heading=180.0 if index == 0 else 0.0,
                    speed=1,
                    ship_key=f"{side.key}{i}",
                )
            )
    battle = services.battle_create(
        campaign=campaign,
        user=umpire,
        name=label,
        placements=placements,
        map_spec=MapSpec(geometry="hex12", width=MAP_SIZE, height=MAP_SIZE),
    )
    return BenchBattle(campaign=campaign, battle=battle, umpire=umpire, players=players)


def scenario_battle(scenario_key: str = "bismarck_last_battle_1941") -> BenchBattle:
    """Return a campaign of a bundled scenario's rule set with a player per side, and the scenario's battle,
    started (as a club would play it)."""
    from battles import services
    from rules.scenario import bundled_scenarios

    scenario = bundled_scenarios()[scenario_key]
    token = secrets.token_hex(4)
    umpire = _user(f"umpire-{token}", staff=True)
    campaign = services.campaign_create(
        name=f"{scenario.name} {token}",
        ruleset=scenario.ruleset,
        created_by=umpire,
        settings={"default_orders": "fire_nearest"},
        sides=[{"key": s.key, "name": s.name, "colour": s.colour} for s in scenario.sides],
    )
    players = {}
    for side in campaign.sides.order_by("pk"):
        players[side.key] = _user(f"{side.key}-{token}")
        services.membership_add(campaign=campaign, user=players[side.key], role="player", side=side)
    battle = services.battle_create_from_scenario(campaign=campaign, scenario_key=scenario_key, user=umpire)
    return BenchBattle(campaign=campaign, battle=battle, umpire=umpire, players=players)
