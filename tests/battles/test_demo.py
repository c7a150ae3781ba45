"""``load_demo`` makes one playable campaign per rule set with a bundled scenario, and is idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import rules
from battles.demo import DEMO_PASSWORD
from battles.models import Battle, Campaign, Membership, Phase
from rules.scenario import bundled_scenarios

pytestmark = pytest.mark.django_db


def _run() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_one_demo_campaign_per_rule_set_with_a_scenario_twice_over() -> None:
    first = _run()
    second = _run()

    keys = [k for k in rules.ruleset_keys() if bundled_scenarios(k)]
    assert keys and "ultra_simple" in keys
    assert sorted(Campaign.objects.values_list("ruleset", flat=True)) == sorted(keys)
    for key in keys:
        scenario = next(iter(bundled_scenarios(key).values()))
        campaign = Campaign.objects.get(ruleset=key)
        roles = sorted(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
        assert roles == sorted(
            [(f"umpire_{key}", "umpire")] + [(f"{s.key}_{key}", "player") for s in scenario.sides]
        )
        battle = Battle.objects.get(campaign=campaign)
        assert (battle.status, battle.scenario_key) == ("active", scenario.key)
        phase = Phase.objects.get(battle=battle)
        assert (phase.number, phase.status) == (1, "open")
        for username, _role in roles:
            assert get_user_model().objects.get(username=username).check_password(DEMO_PASSWORD)
            for output in (first, second):
                assert f"{username}" in output and DEMO_PASSWORD in output
    assert "umpire_ultra_simple" in second and "player, Royal Navy" in second
