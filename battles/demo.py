"""Demo campaigns for ``manage.py load_demo``: one per registered rule set that has a bundled scenario.

Each has an umpire (``umpire_<key>``) and one player per scenario side (``<side>_<key>``), and an active
battle made from the rule set's first bundled scenario, with its first phase open. Rule sets merged later get
their campaign automatically (the registry is iterated). Safe to run twice: users are reset, nothing doubles.
"""

from __future__ import annotations

import rules
from battles import services
from battles.models import Battle, BattleStatus, Campaign, Membership, Role
from navalwar.demo import DemoLogin, DemoReport, demo_user_ensure
from rules.scenario import bundled_scenarios

DEMO_PASSWORD = "navalwar-demo"


def load_campaigns() -> DemoReport:
    """Make (or refresh) one demo campaign per rule set with a bundled scenario."""
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    logins: list[DemoLogin] = []
    notes: list[str] = []
    for key in rules.ruleset_keys():
        scenarios = bundled_scenarios(key)
        if not scenarios:
            notes.append(f"{key}: no bundled scenario, no demo campaign.")
            continue
        scenario = next(iter(scenarios.values()))
        umpire_name = f"umpire_{key}"
        demo_user_ensure(username=umpire_name, password=DEMO_PASSWORD)
        umpire = user_model.objects.get(username=umpire_name)
        logins.append(
            DemoLogin(username=umpire_name, password=DEMO_PASSWORD, role=f"umpire, {scenario.name}")
        )
        name = f"Demo: {scenario.name}"
        campaign = Campaign.objects.filter(name=name, ruleset=key).first()
        if campaign is None:
            campaign = services.campaign_create(
                name=name,
                ruleset=key,
                created_by=umpire,
                description=scenario.description,
                settings={"default_orders": "fire_nearest"},
                sides=[{"key": s.key, "name": s.name, "colour": s.colour} for s in scenario.sides],
            )
            notes.append(f"Created the campaign {name!r}.")
        elif not Membership.objects.filter(campaign=campaign, user=umpire).exists():
            services.membership_add(campaign=campaign, user=umpire, role=Role.UMPIRE)
        for side in campaign.sides.order_by("pk"):
            username = f"{side.key}_{key}"
            demo_user_ensure(username=username, password=DEMO_PASSWORD)
            player = user_model.objects.get(username=username)
            if not Membership.objects.filter(campaign=campaign, user=player).exists():
                services.membership_add(campaign=campaign, user=player, role=Role.PLAYER, side=side)
            logins.append(DemoLogin(username=username, password=DEMO_PASSWORD, role=f"player, {side.name}"))
        # a battle in set-up holds the ships too (NW-CAMP-02): a second one would be refused
        if not Battle.objects.filter(
            campaign=campaign, status__in=(BattleStatus.SETUP, BattleStatus.ACTIVE)
        ).exists():
            services.battle_create_from_scenario(campaign=campaign, scenario_key=scenario.key, user=umpire)
            notes.append(f"Started the battle {scenario.name!r} (phase 1 open).")
    return DemoReport(logins=tuple(logins), notes=tuple(notes))
