"""NW-CAMP-01: a campaign's options apply to the battles created after a change; battles already created keep
theirs; a ship's sheet carries its damage from battle to battle, and a value the rule set works out from an
option (ultra_simple's protection with belt armour, 7.0) is worked out again at its next battle; the umpire is
warned, on saving a change mid-campaign, of what will and will not change."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle, RepairRecord
from navalwar.errors import ApplicationError
from rules.model import Hex
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SETTINGS = {"default_orders": "fire_nearest", "deadline_hours": 48, "reminder_hours": 12}
ULTRA = {"sink_when": "reaches", "arc_forward": 30, "arc_aft": 30}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _state(battle: Battle) -> rules.BattleState:
    battle.refresh_from_db()
    return rules.from_json(rules.BattleState, battle.state)


def _save_settings(game: Any, **changes: Any) -> list[tuple[str, str]]:
    """Post the settings form as the umpire; return the messages as (level, text)."""
    post = {**SETTINGS, **ULTRA, **changes}
    post = {k: v for k, v in post.items() if v is not False}
    response = _client(game.umpire).post(reverse("battles:campaign_settings", args=[game.campaign.pk]), post)
    assert response.status_code == 302
    game.campaign.refresh_from_db()
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]


def _new_battle(game: Any, name: str) -> Battle:
    """Create a battle from the campaign's ships on the battle form (hex starts 3 columns apart)."""
    post: dict[str, Any] = {"name": name, "width": 24, "height": 18}
    for i, cs in enumerate(game.campaign.ships.order_by("pk")):
        post |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": 3 + 3 * i, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 0}
    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), post)
    battle = Battle.objects.get(name=name)
    assert response["Location"] == reverse("battles:battle", args=[battle.pk])
    return battle


@pytest.fixture
def game() -> Any:
    """The Bismarck campaign after its first battle: King George V came home with 3 damage."""
    game = scenario_campaign(settings=dict(SETTINGS))
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    kgv.sheet = {**kgv.sheet, "damage": 3}
    kgv.save(update_fields=["sheet"])
    return game


def test_nw_camp_01_belt_armour_turned_on_mid_campaign_applies_to_the_next_battle(game: Any) -> None:
    waiting = services.battle_create(
        campaign=game.campaign,
        user=game.umpire,
        name="Waiting in set-up",
        placements=[
            services.Placement(campaign_ship=game.campaign.ships.get(ship__name=name), position=Hex(q=q, r=2))
            for name, q in (("Rodney", 2), ("Bismarck", 6))  # a battle needs two sides (NW-CAMP-23)
        ],
        start=False,
    )

    messages = _save_settings(game, belt_armour="on")

    assert messages == [
        ("success", "Campaign settings saved; new battles use them."),
        (
            "warning",
            "Changed: Belt armour adds protection (7.0): off -> on. Battles created from now on use the new "
            "options.",
        ),
        (
            "warning",
            "Not changed: the 1 battle already created (Waiting in set-up) keeps the options it began with.",
        ),
        (
            "warning",
            "Worked out again from the class at each ship's next battle: protection (King George V, Rodney, "
            "Bismarck); damage is carried as it is (NW-CAMP-17: not the last battle's momentary state).",
        ),
    ]
    # NW-CAMP-02: a ship fights one battle at a time, so the umpire calls off the waiting battle first
    services.battle_end(battle=waiting, user=game.umpire)
    # the battle form: 36,727 t and a 14.7 in belt make 9 + 4 (7.0); the damage is carried
    after = _state(_new_battle(game, "With belts"))
    assert after.options["belt_armour"] is True
    assert [(s.name, s.sheet["protection"], s.sheet["damage"]) for s in after.ships] == [
        ("King George V", 13, 3),
        ("Rodney", 12, 0),
        ("Bismarck", 13, 0),
    ]
    # the battle created before the change keeps its options and sheets
    kept = _state(waiting)
    assert "belt_armour" not in kept.options  # the rule set's default: off
    assert [(s.name, s.sheet["protection"]) for s in kept.ships] == [("Rodney", 9), ("Bismarck", 10)]


def test_nw_camp_01_a_scenario_battle_works_protection_out_again_both_ways(game: Any) -> None:
    _save_settings(game, belt_armour="on")
    with_belts = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="Belts"
    )
    services.battle_end(battle=with_belts, user=game.umpire)
    _save_settings(game)  # belt armour off again
    without = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="No belts"
    )

    sheets = {
        b.name: [(s.id, s.sheet["protection"], s.sheet["damage"]) for s in _state(b).ships]
        for b in (with_belts, without)
    }
    assert sheets == {
        "Belts": [("kgv", 13, 3), ("rodney", 12, 0), ("bismarck", 13, 0)],
        "No belts": [("kgv", 9, 3), ("rodney", 9, 0), ("bismarck", 10, 0)],
    }


def test_nw_camp_01_an_option_with_nothing_on_the_sheet_and_the_hours(game: Any) -> None:
    messages = _save_settings(game, sink_when="exceeds", deadline_hours=24, reminder_hours=0)

    assert messages[1:] == [
        (
            "warning",
            "Changed: Sinks when damage: reaches -> exceeds. Battles created from now on use the new "
            "options.",
        ),
        (
            "warning",
            "Ships' sheets do not change: their damage is carried (NW-CAMP-17: not the last battle's "
            "momentary state).",
        ),
        (
            "warning",
            "Changed: Deadline: 48 -> 24 hours; Reminder: 12 -> 0 hours. Phases opened from now on use them, "
            "in running battles too.",
        ),
    ]


def test_nw_camp_01_no_warning_when_nothing_changes_or_before_the_first_battle(game: Any) -> None:
    assert _save_settings(game) == [("success", "Campaign settings saved; new battles use them.")]
    Battle.objects.filter(campaign=game.campaign).delete()
    assert _save_settings(game, belt_armour="on") == [
        ("success", "Campaign settings saved; new battles use them.")
    ]


def test_nw_camp_01_a_repair_may_not_change_a_value_worked_out_from_an_option(game: Any) -> None:
    kgv = game.campaign.ships.get(ship__name="King George V")
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])

    response = _client(game.umpire).post(
        url,
        {
            "action": "repair",
            "status": "active",
            "sheet": '{"damage": 0, "protection": 15}',
            "reason": "Refit",
        },
    )

    assert response.status_code == 400
    assert (
        "protection is worked out again from the ship&#x27;s class and the campaign&#x27;s option &#x27;"
        "Belt armour adds protection (7.0)&#x27; when each battle is set up; a repair cannot change it "
        "(NW-CAMP-01)."
    ) in response.content.decode()
    kgv.refresh_from_db()
    assert (kgv.sheet["damage"], kgv.sheet["protection"], RepairRecord.objects.count()) == (3, 9, 0)
    # the same value (the sheet as shown) or none at all is a repair like any other
    services.campaign_ship_repair(
        campaign_ship=kgv, user=game.umpire, reason="Dry dock", sheet={"damage": 0, "protection": 9}
    )
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(
            campaign_ship=kgv, user=game.umpire, reason="Refit", sheet={"damage": 0, "protection": 8}
        )
    assert exc.value.code == "derived_sheet_value"


def test_nw_camp_01_rule_sets_without_option_values_carry_the_whole_sheet() -> None:
    sheet = {"damage": 2, "protection": 9, "grade": "poor"}

    kept = {
        key: services.carried_sheet(ruleset=key, sheet=sheet)
        for key in ("ultra_simple", "ww2_jackson", "sail_1700", "acw_river", "memoir_sea")
    }

    assert kept == {
        "ultra_simple": {"damage": 2, "grade": "poor"},
        "ww2_jackson": sheet,
        "sail_1700": sheet,
        "acw_river": sheet,
        "memoir_sea": sheet,
    }
