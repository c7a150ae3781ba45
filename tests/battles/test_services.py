"""Services of the battles app: campaigns, invitations, battles from scenarios, orders, ready, deadlines,
closing, resolution, the sweep and the umpire's tools. SQLite by default; Celery runs eagerly on commit."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone

import rules
from battles import services
from battles.models import (
    Battle,
    BattleShip,
    Campaign,
    CampaignShip,
    LogEvent,
    Membership,
    Order,
    Phase,
    PhaseSide,
    RepairRecord,
    ShipEdit,
)
from fleets.models import Nation, Ship, ShipClass
from navalwar.errors import ApplicationError
from tests.factories import (
    CampaignFactory,
    ShipClassFactory,
    SideFactory,
    StaffUserFactory,
    UmpireMembershipFactory,
    UserFactory,
    scenario_campaign,
)

pytestmark = pytest.mark.django_db

MOVE = {"hexes": 1, "turn": 0, "turn_after": 0}


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _phase(game: Any) -> Phase:
    return game.phase


# --- campaigns -------------------------------------------------------------------------------------------


def test_campaign_create_makes_the_creator_umpire_and_cleans_settings() -> None:
    umpire = StaffUserFactory()

    campaign = services.campaign_create(
        name="Atlantic 1941",
        ruleset="ultra_simple",
        created_by=umpire,
        settings={"default_orders": "hold", "belt_armour": True},
        sides=[{"key": "britain", "name": "Royal Navy"}, {"key": "germany", "name": "Kriegsmarine"}],
    )

    assert campaign.settings == {
        "default_orders": "hold",
        "deadline_hours": 48,
        "reminder_hours": 12,
        "belt_armour": True,
    }
    assert list(campaign.sides.values_list("key", flat=True)) == ["britain", "germany"]
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role, membership.side) == (umpire, "umpire", None)


def test_campaign_settings_are_checked_against_a7_and_the_rule_set_options() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.campaign_settings_clean(
            ruleset="ultra_simple",
            settings={"default_orders": "flee", "sink_when": "never", "deadline_hours": 0, "colour": "red"},
        )

    assert exc.value.code == "bad_settings"
    assert exc.value.fields == {
        "default_orders": ["Select one of hold, fire_nearest, captain."],
        "deadline_hours": ["Enter a number of hours from 1 to 720."],
        "sink_when": ["Select a valid choice: reaches, exceeds."],
        "__all__": ["Unknown settings: colour."],
    }


@pytest.mark.parametrize("name", ["", "   ", "n" * 121])
def test_a_campaign_name_blank_or_longer_than_its_column_is_refused(name: str) -> None:
    """The form limits the name to 120 characters and requires one; the service, the write path, says so too
    (on PostgreSQL a longer name was a DataError, a 500, for any caller without the form)."""
    with pytest.raises(ApplicationError) as exc:
        services.campaign_create(
            name=name, ruleset="ultra_simple", created_by=StaffUserFactory(), sides=[{"key": "britain"}]
        )
    message = f"Give the campaign a name of 1 to 120 characters (it has {len(name.strip())})."
    assert (exc.value.code, exc.value.fields) == ("bad_name", {"name": [message]})
    assert not Campaign.objects.exists()


def test_a_campaign_description_over_2000_characters_is_refused() -> None:
    """The description had no limit at all (a TextField): the service is the write path, so it says so too."""
    sides = [{"key": "britain"}, {"key": "germany"}]
    umpire = StaffUserFactory()
    with pytest.raises(ApplicationError) as exc:
        services.campaign_create(
            name="x", ruleset="ultra_simple", created_by=umpire, description="d" * 2001, sides=sides
        )
    message = "Keep the description to 2000 characters (it has 2001)."
    assert (exc.value.code, exc.value.fields) == ("description_too_long", {"description": [message]})
    assert not Campaign.objects.exists()  # nothing saved
    campaign = services.campaign_create(
        name="x", ruleset="ultra_simple", created_by=StaffUserFactory(), description="d" * 2000, sides=sides
    )
    assert len(campaign.description) == 2000


def test_unknown_ruleset_is_refused() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.campaign_create(name="x", ruleset="chess", created_by=StaffUserFactory())
    assert exc.value.code == "unknown_ruleset"


# --- invitations -----------------------------------------------------------------------------------------


@pytest.fixture
def campaign_with_umpire() -> Any:
    membership = UmpireMembershipFactory()
    side = SideFactory(campaign=membership.campaign, key="britain")
    return membership.campaign, membership.user, side


def test_only_an_umpire_invites(campaign_with_umpire: Any) -> None:
    campaign, _umpire, side = campaign_with_umpire

    with pytest.raises(ApplicationError) as exc:
        services.invitation_create(campaign=campaign, created_by=UserFactory(), side=side)

    assert exc.value.code == "not_umpire"
    assert exc.value.status == 403


def test_invitation_is_single_use(campaign_with_umpire: Any) -> None:
    campaign, umpire, side = campaign_with_umpire
    invitation = services.invitation_create(campaign=campaign, created_by=umpire, side=side)
    first, second = UserFactory(), UserFactory()

    membership = services.invitation_accept(token=invitation.token, user=first)
    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept(token=invitation.token, user=second)

    assert (membership.user, membership.side, membership.role) == (first, side, "player")
    assert exc.value.code == "invitation_used"
    assert exc.value.message == "This invitation has already been used."
    invitation.refresh_from_db()
    assert invitation.used_by == first and invitation.used_at is not None
    assert not Membership.objects.filter(user=second).exists()


def test_expired_invitation_is_refused(campaign_with_umpire: Any) -> None:
    campaign, umpire, side = campaign_with_umpire
    invitation = services.invitation_create(
        campaign=campaign, created_by=umpire, side=side, expires_in=timedelta(seconds=-1)
    )

    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept(token=invitation.token, user=UserFactory())

    assert exc.value.code == "invitation_expired"
    assert exc.value.status == 410


def test_unknown_token_is_404() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.invitation_check(token="nope")
    assert (exc.value.code, exc.value.status) == ("invitation_unknown", 404)


def test_a_member_cannot_use_an_invitation_and_it_stays_unused(campaign_with_umpire: Any) -> None:
    campaign, umpire, side = campaign_with_umpire
    invitation = services.invitation_create(campaign=campaign, created_by=umpire, side=side)

    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept(token=invitation.token, user=umpire)

    assert exc.value.code == "already_member"
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_new_user_signs_up_through_an_invitation(campaign_with_umpire: Any) -> None:
    campaign, umpire, side = campaign_with_umpire
    invitation = services.invitation_create(campaign=campaign, created_by=umpire, side=side)

    membership = services.invitation_accept_new_user(
        token=invitation.token, username="tovey", password="home-fleet-1941-kgv"
    )

    user = get_user_model().objects.get(username="tovey")
    assert user.check_password("home-fleet-1941-kgv")
    assert (membership.user, membership.side) == (user, side)


def test_signup_with_a_short_password_creates_nothing(campaign_with_umpire: Any) -> None:
    campaign, umpire, side = campaign_with_umpire
    invitation = services.invitation_create(campaign=campaign, created_by=umpire, side=side)

    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept_new_user(token=invitation.token, username="tovey", password="short-pw")

    assert exc.value.code == "bad_signup"
    assert exc.value.fields == {
        "password": ["This password is too short. It must contain at least 12 characters."]
    }
    assert not get_user_model().objects.filter(username="tovey").exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_player_invitation_needs_a_side(campaign_with_umpire: Any) -> None:
    campaign, umpire, _side = campaign_with_umpire
    with pytest.raises(ApplicationError) as exc:
        services.invitation_create(campaign=campaign, created_by=umpire, role="player")
    assert exc.value.code == "side_required"
    observer = services.invitation_create(campaign=campaign, created_by=umpire, role="observer")
    assert services.invitation_accept(token=observer.token, user=UserFactory()).role == "observer"


# --- battles from scenarios ------------------------------------------------------------------------------


def test_battle_from_scenario_makes_ships_and_opens_phase_one(game: Any) -> None:
    battle = game.battle

    assert battle.status == "active"
    assert battle.scenario_key == "bismarck_last_battle_1941"
    keys = dict(BattleShip.objects.filter(battle=battle).values_list("ship_key", "campaign_ship__side__key"))
    assert keys == {"kgv": "britain", "rodney": "britain", "bismarck": "germany"}
    assert Ship.objects.get(name="Rodney").ship_class.key == "nelson"
    assert CampaignShip.objects.get(ship__name="Bismarck").sheet == {"protection": 10, "damage": 0}
    phase = Phase.objects.get(battle=battle)
    assert (phase.number, phase.turn, phase.phase_index, phase.status) == (1, 1, 0, "open")
    assert phase.sides == ["britain", "germany"]
    assert phase.seed_hash == hashlib.sha256(str(phase.seed).encode()).hexdigest()
    assert phase.public_seed is None
    assert 0 <= phase.seed < 2**63
    assert list(PhaseSide.objects.filter(phase=phase).values_list("side__key", "ready")) == [
        ("britain", False),
        ("germany", False),
    ]
    state = rules.from_json(rules.BattleState, battle.state)
    assert state.options["default_orders"] == "fire_nearest"
    assert state.options["belt_armour"] is False  # the scenario's option, not overridden by the campaign


def test_scenario_reuses_ship_classes_loaded_by_fleets() -> None:
    existing = ShipClassFactory(key="bismarck", name="Bismarck (reference)")

    scenario_campaign()

    assert ShipClass.objects.filter(ruleset="ultra_simple", key="bismarck").get() == existing


def test_only_an_umpire_creates_a_battle(game: Any) -> None:
    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(
            campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.players["britain"]
        )
    assert exc.value.code == "not_umpire"


def test_unknown_scenario_and_missing_side() -> None:
    umpire = StaffUserFactory()
    campaign = services.campaign_create(
        name="c", ruleset="ultra_simple", created_by=umpire, sides=[{"key": "britain", "name": "RN"}]
    )
    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(campaign=campaign, scenario_key="jutland", user=umpire)
    assert exc.value.code == "unknown_scenario"
    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(
            campaign=campaign, scenario_key="bismarck_last_battle_1941", user=umpire
        )
    assert (exc.value.code, exc.value.message) == (
        "missing_side",
        'The campaign has no side Kriegsmarine (key "germany") for Bismarck\'s last battle, 27 May 1941: '
        "add it (same key) or choose another scenario.",
    )
    assert not Battle.objects.exists()


def test_battle_from_campaign_ships_refuses_a_bad_heading() -> None:
    from rules.model import Hex
    from tests.factories import CampaignShipFactory

    umpire_membership = UmpireMembershipFactory()
    side = SideFactory(campaign=umpire_membership.campaign, key="north")
    cship = CampaignShipFactory(side=side)
    foe = CampaignShipFactory(side=SideFactory(campaign=side.campaign, key="south"))

    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=side.campaign,
            user=umpire_membership.user,
            name="b",
            placements=[
                services.Placement(campaign_ship=cship, position=Hex(q=3, r=3), heading=45),
                services.Placement(campaign_ship=foe, position=Hex(q=6, r=3)),
            ],
        )

    assert exc.value.code == "bad_setup"
    assert "heading 45 is not a hex facing" in exc.value.message
    assert not Battle.objects.exists()


# --- orders ----------------------------------------------------------------------------------------------


def test_orders_submit_saves_and_replaces_one_row_per_ship(game: Any) -> None:
    phase, player = _phase(game), game.players["britain"]

    first = services.orders_submit(phase=phase, user=player, ship_key="kgv", data=MOVE)
    second = services.orders_submit(
        phase=phase, user=player, ship_key="kgv", data={"hexes": 2, "turn": 30, "turn_after": 1}
    )

    assert first.pk == second.pk
    order = Order.objects.get(phase=phase)
    assert order.data == {"hexes": 2, "turn": 30, "turn_after": 1}
    assert order.side.key == "britain" and order.submitted_by == player


def test_rejected_orders_keep_the_saved_order(game: Any) -> None:
    phase, player = _phase(game), game.players["britain"]
    services.orders_submit(phase=phase, user=player, ship_key="kgv", data=MOVE)

    with pytest.raises(ApplicationError) as invalid:
        services.orders_submit(phase=phase, user=player, ship_key="kgv", data={"hexes": 5})
    with pytest.raises(ApplicationError) as illegal:
        services.orders_submit(phase=phase, user=player, ship_key="kgv", data={"hexes": 1, "turn": 45})

    assert invalid.value.code == "bad_orders"
    assert invalid.value.fields == {"hexes": ["Must be at most 2."]}
    assert illegal.value.fields == {"turn": ["One turn of 30 or 60 degrees, or none (2.0)."]}
    assert Order.objects.get(phase=phase).data == MOVE


def test_a_player_cannot_order_the_enemy_or_a_ship_commanded_by_another(game: Any) -> None:
    phase = _phase(game)
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=game.players["britain"], ship_key="bismarck", data=MOVE)
    assert (exc.value.code, exc.value.status) == ("not_your_ship", 404)

    other = UserFactory()
    services.membership_add(campaign=game.campaign, user=other, role="player", side=game.side("britain"))
    kgv = CampaignShip.objects.get(ship__name="King George V")
    services.campaign_ship_assign(campaign_ship=kgv, user=game.umpire, commander=other)
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=game.players["britain"], ship_key="kgv", data=MOVE)
    assert exc.value.code == "not_your_ship"
    assert services.orders_submit(phase=phase, user=other, ship_key="kgv", data=MOVE).submitted_by == other
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=UserFactory(), ship_key="kgv", data=MOVE)
    assert exc.value.code == "not_your_ship"
    assert not Order.objects.filter(battle_ship__ship_key="bismarck").exists()


def test_an_umpire_may_enter_orders_for_any_ship(game: Any) -> None:
    order = services.orders_submit(phase=_phase(game), user=game.umpire, ship_key="bismarck", data=MOVE)
    assert order.side.key == "germany"


def test_orders_after_the_deadline_are_refused(game: Any) -> None:
    phase = _phase(game)
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=game.players["britain"], ship_key="kgv", data=MOVE)

    assert exc.value.code == "deadline_passed"
    assert exc.value.message == "The deadline for this phase has passed: orders are no longer accepted."
    assert exc.value.status == 409


def test_a_side_deadline_extension_lets_that_side_order(game: Any) -> None:
    phase = _phase(game)
    services.phase_extend_deadline(
        phase=phase, user=game.umpire, deadline=timezone.now() + timedelta(hours=3), side=game.side("germany")
    )
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    saved = services.orders_submit(phase=phase, user=game.players["germany"], ship_key="bismarck", data=MOVE)
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=game.players["britain"], ship_key="kgv", data=MOVE)

    assert saved.pk is not None
    assert exc.value.code == "deadline_passed"


def test_extending_for_all_clears_earlier_side_deadlines(game: Any) -> None:
    phase = _phase(game)
    soon, later = timezone.now() + timedelta(hours=1), timezone.now() + timedelta(hours=5)
    services.phase_extend_deadline(phase=phase, user=game.umpire, deadline=soon, side=game.side("germany"))

    services.phase_extend_deadline(phase=phase, user=game.umpire, deadline=later)

    phase.refresh_from_db()
    assert phase.deadline == later
    assert list(PhaseSide.objects.filter(phase=phase).values_list("deadline", flat=True)) == [None, None]
    with pytest.raises(ApplicationError) as exc:
        services.phase_extend_deadline(
            phase=phase, user=game.umpire, deadline=timezone.now() - timedelta(minutes=1)
        )
    assert exc.value.code == "deadline_in_past"
    with pytest.raises(ApplicationError) as exc:
        services.phase_extend_deadline(phase=phase, user=game.players["britain"], deadline=later)
    assert exc.value.code == "not_umpire"


def test_orders_once_resolving_are_refused(game: Any) -> None:
    phase = _phase(game)
    Phase.objects.filter(pk=phase.pk).update(status="resolving")

    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=phase, user=game.players["britain"], ship_key="kgv", data=MOVE)

    assert exc.value.code == "phase_closed"
    assert exc.value.message == "This phase is closed: orders are no longer accepted."


def test_orders_delete_withdraws_an_order(game: Any) -> None:
    phase, player = _phase(game), game.players["britain"]
    services.orders_submit(phase=phase, user=player, ship_key="kgv", data=MOVE)

    assert services.orders_delete(phase=phase, user=player, ship_key="kgv") is True
    assert services.orders_delete(phase=phase, user=player, ship_key="kgv") is False
    assert not Order.objects.exists()


# --- ready, close, resolve -------------------------------------------------------------------------------


def test_one_side_ready_keeps_the_phase_open(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    phase = _phase(game)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        phase_side = services.side_set_ready(phase=phase, user=game.players["britain"])

    phase.refresh_from_db()
    assert phase_side.ready is True and phase_side.ready_at is not None
    assert phase.status == "open"
    assert callbacks == []
    services.side_set_ready(phase=phase, user=game.players["britain"], ready=False)
    assert PhaseSide.objects.get(phase=phase, side__key="britain").ready is False


def test_only_a_player_of_an_ordering_side_can_be_ready(game: Any) -> None:
    with pytest.raises(ApplicationError) as exc:
        services.side_set_ready(phase=_phase(game), user=game.umpire)
    assert exc.value.code == "not_a_player"


def test_both_sides_ready_closes_and_resolves_the_phase(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    phase = _phase(game)
    britain, germany = game.players["britain"], game.players["germany"]
    services.orders_submit(phase=phase, user=britain, ship_key="kgv", data=MOVE)
    services.orders_submit(phase=phase, user=germany, ship_key="bismarck", data={"hexes": 2})
    services.side_set_ready(phase=phase, user=britain)

    with django_capture_on_commit_callbacks(execute=True):
        services.side_set_ready(phase=phase, user=germany)

    phase.refresh_from_db()
    assert phase.status == "resolved"
    assert phase.close_reason == "all_ready"
    assert phase.umpire_seed == phase.seed
    assert phase.public_seed is None  # NW-CAMP-03: the players see it when the battle is over
    assert phase.attempts == 1
    after = rules.from_json(rules.BattleState, phase.state_after)
    assert (after.turn, after.phase) == (2, 0)
    # The log holds exactly what the rules give for the stored seed and orders (A8: the phase replays).
    replay = rules.resolve_turn(
        rules.from_json(rules.BattleState, phase.state_before),
        [rules.ShipOrder(ship_id="kgv", data=MOVE), rules.ShipOrder(ship_id="bismarck", data={"hexes": 2})],
        rules.SeededDice(phase.seed),
    )
    events = list(LogEvent.objects.filter(phase=phase).order_by("seq"))
    assert [e.text for e in events] == [e.text for e in replay.events]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.data for e in events] == [rules.to_json(e) for e in replay.events]
    # Rodney had no orders: A7's default, logged for Britain only.
    default = next(e for e in events if e.kind == "default_orders")
    assert (default.ship_key, default.visible_to) == ("rodney", ["britain"])
    battle = Battle.objects.get(pk=game.battle.pk)
    assert battle.state == phase.state_after
    nxt = Phase.objects.get(battle=battle, number=2)
    assert (nxt.status, nxt.turn, nxt.seed_hash != phase.seed_hash) == ("open", 2, True)


def test_umpire_resolve_now(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    phase = _phase(game)
    with pytest.raises(ApplicationError) as exc:
        services.phase_close(phase=phase, user=game.players["britain"])
    assert exc.value.code == "not_umpire"

    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=phase, user=game.umpire)

    phase.refresh_from_db()
    assert (phase.status, phase.close_reason) == ("resolved", "umpire")
    with pytest.raises(ApplicationError) as exc:
        services.phase_close(phase=phase, user=game.umpire)
    assert exc.value.code == "phase_closed"


def test_resolve_runs_once(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign(settings={"default_orders": "hold"})  # no fire: the battle goes on to phase 2
    phase = _phase(game)
    assert services.phase_resolve(phase_id=phase.pk) == "skipped"  # still open
    with django_capture_on_commit_callbacks(execute=False):
        services.phase_close(phase=phase, user=game.umpire)

    with django_capture_on_commit_callbacks(execute=False):
        assert services.phase_resolve(phase_id=phase.pk) == "resolved"
    count = LogEvent.objects.filter(phase=phase).count()
    assert services.phase_resolve(phase_id=phase.pk) == "skipped"

    assert LogEvent.objects.filter(phase=phase).count() == count
    assert Phase.objects.filter(battle=game.battle, number=2).count() == 1


def test_a_rules_error_fails_the_phase_and_keeps_the_error(
    game: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    phase = _phase(game)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("the dice rolled off the table")

    monkeypatch.setattr(rules, "resolve_turn", broken)
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=phase, user=game.umpire)

    phase.refresh_from_db()
    assert phase.status == "failed"
    assert phase.error == "ZeroDivisionError: the dice rolled off the table"
    assert not LogEvent.objects.exists()
    assert Phase.objects.filter(battle=game.battle).count() == 1

    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_retry(phase=phase, user=game.umpire)
    phase.refresh_from_db()
    assert (phase.status, phase.error, phase.attempts) == ("resolved", "", 2)


def test_a_sunk_side_finishes_the_battle(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="bismarck",
        user=game.umpire,
        changes={"status": "sunk"},
        reason="Scuttled by her crew",
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=_phase(game), user=game.umpire)

    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.winner) == ("finished", "britain")
    assert Phase.objects.filter(battle=battle).count() == 1
    assert (
        LogEvent.objects.filter(kind="battle_over").get().text
        == "The battle is over: Royal Navy holds the sea."
    )
    cship = CampaignShip.objects.get(ship__name="Bismarck")
    assert (cship.status, cship.status_battle) == ("sunk", battle)


def test_damage_carries_into_the_next_battle(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="kgv",
        user=game.umpire,
        changes={"sheet": {"damage": 4}},
        reason="Hits from the previous night",
    )
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")

    second = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="Rematch"
    )

    state = rules.from_json(rules.BattleState, second.state)
    assert state.ship("kgv").sheet == {"protection": 9, "damage": 4}
    assert state.ship("rodney").sheet == {"protection": 9, "damage": 0}
    assert CampaignShip.objects.filter(campaign=game.campaign).count() == 3


def test_repair_between_battles_is_recorded(game: Any) -> None:
    kgv = CampaignShip.objects.get(ship__name="King George V")
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(campaign_ship=kgv, user=game.umpire, reason="Dockyard", sheet={})
    assert exc.value.code == "ship_in_battle"
    services.battle_end(battle=game.battle, user=game.umpire)
    CampaignShip.objects.filter(pk=kgv.pk).update(sheet={"protection": 9, "damage": 5})

    record = services.campaign_ship_repair(
        campaign_ship=kgv, user=game.umpire, reason="Rosyth dockyard", sheet={"protection": 9, "damage": 1}
    )

    kgv.refresh_from_db()
    assert kgv.sheet == {"protection": 9, "damage": 1}
    assert (record.before, record.after) == (
        {"status": "active", "sheet": {"protection": 9, "damage": 5}},
        {"status": "active", "sheet": {"protection": 9, "damage": 1}},
    )
    assert RepairRecord.objects.get().reason == "Rosyth dockyard"


# --- sweep -----------------------------------------------------------------------------------------------


def test_sweep_closes_overdue_phases_and_resolves_them(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    phase = _phase(game)
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    with django_capture_on_commit_callbacks(execute=True):
        report = services.phases_sweep()

    assert report.closed == (phase.pk,)
    phase.refresh_from_db()
    assert (phase.status, phase.close_reason) == ("resolved", "deadline")
    assert Phase.objects.get(battle=game.battle, number=2).status == "open"


def test_sweep_waits_for_a_side_with_an_extension(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    phase = _phase(game)
    services.phase_extend_deadline(
        phase=phase, user=game.umpire, deadline=timezone.now() + timedelta(hours=2), side=game.side("germany")
    )
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    with django_capture_on_commit_callbacks(execute=True):
        report = services.phases_sweep()

    assert report.closed == ()
    phase.refresh_from_db()
    assert phase.status == "open"
    services.side_set_ready(phase=phase, user=game.players["germany"])  # Britain is past its deadline
    with django_capture_on_commit_callbacks(execute=True):
        report = services.phases_sweep()
    assert report.closed == (phase.pk,)


def test_sweep_requeues_a_phase_stuck_in_resolving(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    phase = _phase(game)
    # As a killed worker leaves it: closed long ago, still resolving, nothing written.
    Phase.objects.filter(pk=phase.pk).update(
        status="resolving", closed_at=timezone.now() - timedelta(hours=1)
    )

    with django_capture_on_commit_callbacks(execute=True):
        report = services.phases_sweep()

    assert report.requeued == (phase.pk,)
    phase.refresh_from_db()
    assert phase.status == "resolved"


def test_sweep_leaves_a_recent_resolving_phase_alone(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    phase = _phase(game)
    Phase.objects.filter(pk=phase.pk).update(status="resolving", closed_at=timezone.now())

    with django_capture_on_commit_callbacks(execute=True):
        report = services.phases_sweep()

    assert report.requeued == ()


# --- umpire tools ----------------------------------------------------------------------------------------


def _resolve_current(game: Any, capture: Any) -> Phase:
    phase = _phase(game)
    with capture(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    phase.refresh_from_db()
    return phase


def test_rollback_supersedes_and_reopens(django_capture_on_commit_callbacks: Any) -> None:
    # ships that hold their fire: with fire_nearest Bismarck sinks in phase 2 and there is no phase 3
    game = scenario_campaign(settings={"default_orders": "hold"})
    first = _resolve_current(game, django_capture_on_commit_callbacks)
    second = _resolve_current(game, django_capture_on_commit_callbacks)
    third = _phase(game)
    assert (first.number, second.number, third.number) == (1, 2, 3)
    events_before = LogEvent.objects.count()

    reopened = services.battle_rollback(battle=game.battle, user=game.umpire, to_number=2)

    assert reopened.number == 2 and reopened.status == "open"
    assert reopened.state_before == second.state_before
    assert reopened.seed_hash != second.seed_hash
    assert list(
        Phase.objects.filter(battle=game.battle).order_by("pk").values_list("number", "superseded", "status")
    ) == [(1, False, "resolved"), (2, True, "resolved"), (3, True, "open"), (2, False, "open")]
    assert LogEvent.objects.count() == events_before  # nothing is deleted
    battle = Battle.objects.get(pk=game.battle.pk)
    assert battle.state == second.state_before
    with pytest.raises(ApplicationError) as exc:
        services.orders_submit(phase=third, user=game.players["britain"], ship_key="kgv", data=MOVE)
    assert exc.value.code == "phase_superseded"
    with pytest.raises(ApplicationError) as exc:
        services.battle_rollback(battle=game.battle, user=game.umpire, to_number=7)
    assert exc.value.code == "no_phase"


def test_rollback_restores_ship_statuses(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle, ship_key="bismarck", user=game.umpire, changes={"status": "sunk"}, reason="test"
    )
    _resolve_current(game, django_capture_on_commit_callbacks)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"

    services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)

    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.winner) == ("active", "")
    # The edit was made to phase 1's state_before, so Bismarck is still sunk in it.
    assert BattleShip.objects.get(battle=battle, ship_key="bismarck").status == "sunk"


def test_end_battle_supersedes_the_open_phase(game: Any) -> None:
    phase = _phase(game)

    services.battle_end(battle=game.battle, user=game.umpire, winner="germany", reason="Weather closed in")

    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.winner, battle.end_reason) == ("finished", "germany", "Weather closed in")
    phase.refresh_from_db()
    assert (phase.superseded, phase.close_reason) == (True, "battle_ended")
    with pytest.raises(ApplicationError) as exc:
        services.battle_end(battle=game.battle, user=game.umpire)
    assert exc.value.code == "battle_finished"


def test_ship_edit_is_logged_and_changes_the_open_phase(game: Any) -> None:
    edit = services.battle_ship_edit(
        battle=game.battle,
        ship_key="kgv",
        user=game.umpire,
        changes={"heading": 90, "flags": ["on_fire"]},
        reason="Ruling on the turn-2 collision",
    )

    assert (edit.before["heading"], edit.after["heading"], edit.after["flags"]) == (120.0, 90.0, ["on_fire"])
    assert ShipEdit.objects.get().reason == "Ruling on the turn-2 collision"
    phase = _phase(game)
    assert rules.from_json(rules.BattleState, phase.state_before).ship("kgv").heading == 90.0
    with pytest.raises(ApplicationError) as exc:
        services.battle_ship_edit(
            battle=game.battle, ship_key="kgv", user=game.umpire, changes={}, reason=" "
        )
    assert exc.value.code == "reason_required"


# --- notifications ---------------------------------------------------------------------------------------


def test_opening_mails_the_ordering_players_once(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = scenario_campaign()
    phase = game.phase

    recipients = sorted(m.to[0] for m in mail.outbox)
    assert recipients == sorted(u.email for u in [game.umpire, *game.players.values()])
    assert mail.outbox[0].subject == f"[Navalwar] {game.battle.name}: phase 1 is open"
    assert "Phase 1 (turn 1) is open for orders." in mail.outbox[0].body  # not "(turn 1, turn)"
    assert phase.seed_hash in mail.outbox[0].body
    assert str(phase.seed) not in mail.outbox[0].body

    from battles.tasks import notify_phase_opened

    assert notify_phase_opened(phase.pk) == 0
    assert len(mail.outbox) == 3


def test_opted_out_users_get_no_mail(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign()
    services.profile_update(
        user=game.players["germany"], time_zone="Europe/Berlin", email_notifications=False
    )
    services.profile_update(user=game.players["britain"], time_zone="Europe/London", email_notifications=True)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=timezone.now() + timedelta(hours=2))

    from battles.tasks import notify_phase_reminder

    assert notify_phase_reminder(game.phase.pk) == 1
    assert mail.outbox[0].to == [game.players["britain"].email]
    assert "BST" in mail.outbox[0].body or "GMT" in mail.outbox[0].body


def test_profile_rejects_an_unknown_time_zone() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.profile_update(user=UserFactory(), time_zone="Mars/Olympus", email_notifications=True)
    assert exc.value.code == "bad_time_zone"


def test_campaign_factory_works() -> None:
    campaign = CampaignFactory()
    assert campaign.ruleset == "ultra_simple"


def test_resolution_mails_every_member_once(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign()
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    first = game.phase
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)

    resolved = [m for m in mail.outbox if m.subject.endswith("phase 1 resolved")]
    assert sorted(m.to[0] for m in resolved) == sorted(
        u.email for u in [game.umpire, observer, *game.players.values()]
    )
    assert f"/battles/{game.battle.pk}/log/?phase=1" in resolved[0].body
    from battles.tasks import notify_phase_resolved

    assert notify_phase_resolved(first.pk) == 0


def test_resolution_mails_resolved_before_next_phase_open(django_capture_on_commit_callbacks: Any) -> None:
    """NW-CAMP-14: "phase 1 resolved" reaches every member before "phase 2 is open" reaches anyone, and
    from one task, so two workers cannot swap them."""
    game = scenario_campaign(settings={"default_orders": "hold"})  # no fire: the battle goes on to phase 2
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)

    subjects = [m.subject for m in mail.outbox]
    resolved = [i for i, s in enumerate(subjects) if s.endswith("phase 1 resolved")]
    opened = [i for i, s in enumerate(subjects) if s.endswith("phase 2 is open")]
    assert resolved and opened and max(resolved) < min(opened), subjects
    opened_phase = Phase.objects.get(battle=game.battle, number=2)
    assert sorted(m.to[0] for m in mail.outbox if m.subject.endswith("phase 2 is open")) == sorted(
        u.email for u in [game.umpire, *game.players.values()]
    )
    from battles.tasks import notify_phase_opened, notify_phase_resolved

    # run again (a redelivered message): nothing is mailed twice
    assert notify_phase_resolved(game.phase.pk, opened_phase.pk) == 0
    assert notify_phase_opened(opened_phase.pk) == 0


def test_sweep_reminds_sides_not_ready_once(game: Any) -> None:
    phase = _phase(game)
    services.side_set_ready(phase=phase, user=game.players["germany"])
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() + timedelta(hours=2))

    first = services.phases_sweep()
    second = services.phases_sweep()

    assert first.reminders == (phase.pk,) and second.reminders == (phase.pk,)
    reminders = [m for m in mail.outbox if "deadline for phase 1 is near" in m.subject]
    assert [m.to for m in reminders] == [[game.players["britain"].email]]
    assert "Your side is not ready in phase 1 (turn 1)." in reminders[0].body


def test_no_reminder_outside_the_window(game: Any) -> None:
    Phase.objects.filter(pk=_phase(game).pk).update(deadline=timezone.now() + timedelta(hours=13))
    assert services.phases_sweep().reminders == ()


def test_a_reminder_as_long_as_the_deadline_is_refused() -> None:
    """A reminder 100 hours before a 24-hour deadline would be due as each phase opens (fresh-user check)."""
    with pytest.raises(ApplicationError) as exc:
        services.campaign_settings_clean(
            ruleset="ultra_simple", settings={"deadline_hours": 24, "reminder_hours": 100}
        )

    assert exc.value.fields == {
        "reminder_hours": [
            "A reminder 100 hours before a 24-hour deadline would go out as the phase opens: give fewer "
            "hours than the deadline, or 0 for no reminder."
        ]
    }
    ok = services.campaign_settings_clean(
        ruleset="ultra_simple", settings={"deadline_hours": 24, "reminder_hours": 0}
    )
    assert (ok["deadline_hours"], ok["reminder_hours"]) == (24, 0)


@pytest.mark.parametrize("role", ["observer", "umpire"])
def test_only_a_players_invitation_names_a_side(game: Any, role: str) -> None:
    """An observer invited "for" a side was listed under it but saw only what every side sees."""
    with pytest.raises(ApplicationError) as exc:
        services.invitation_create(
            campaign=game.campaign, created_by=game.umpire, role=role, side=game.side("britain")
        )

    assert exc.value.code == "side_not_for_role"
    assert exc.value.fields == {
        "side": [f"Only a player's invitation names a side: an {role} has none. Leave the side empty."]
    }
    assert services.invitation_create(campaign=game.campaign, created_by=game.umpire, role=role).side is None


def test_the_admins_campaign_form_keeps_the_description_to_2000_characters() -> None:
    """The admin's form is a model form: the field's validator gives it the limit the site's form and the
    service have (the column has none)."""
    campaign = Campaign(name="x", ruleset="ultra_simple", description="d" * 2001)
    with pytest.raises(ValidationError) as exc:
        campaign.full_clean(exclude=["created_by"])
    assert exc.value.message_dict == {
        "description": ["Ensure this value has at most 2000 characters (it has 2001)."]
    }
    campaign.description = "d" * 2000
    campaign.full_clean(exclude=["created_by"])


@pytest.mark.parametrize("key", ["first_memphis_1862", "guadalcanal_1942"])
def test_a_scenario_battle_takes_the_navys_one_nation(key: str) -> None:
    """A fresh-user check found "Confederate States" beside "Confederacy" and "USA" beside "United States" in
    the admin's nations: a battle from a scenario made a nation of the scenario's own spelling."""
    from fleets.reference import canonical_navy

    game = scenario_campaign(key)
    services.battle_end(battle=game.battle, user=game.umpire)
    names = set(Nation.objects.values_list("name", flat=True))

    services.battle_create_from_scenario(campaign=game.campaign, scenario_key=key, user=game.umpire)

    assert set(Nation.objects.values_list("name", flat=True)) == names
    assert all(canonical_navy(n) == n for n in names)
