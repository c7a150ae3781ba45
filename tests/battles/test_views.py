"""The battles pages: dashboard, settings, invitations, campaign, battle, orders, log, ship sheets, losses,
umpire tools. Plain posts (no JavaScript) and htmx partials."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from battles import services
from battles.models import Battle, Campaign, CampaignShip, Membership, Order, Phase, UserProfile
from tests.factories import StaffUserFactory, UserFactory, scenario_campaign
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html(response: Any) -> str:
    return response.content.decode()


# --- dashboard and settings ------------------------------------------------------------------------------


def test_dashboard_lists_phases_waiting_with_deadlines_in_my_time_zone(game: Any) -> None:
    player = game.players["britain"]
    services.profile_update(user=player, time_zone="Asia/Tokyo", email_notifications=True)
    deadline = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=deadline)
    local = timezone.localtime(deadline, __import__("zoneinfo").ZoneInfo("Asia/Tokyo"))

    for url in ("/", reverse("battles:dashboard")):
        html = _html(_client(player).get(url))
        assert f"Welcome aboard, {player.get_full_name()}" in html
        assert reverse("battles:battle", args=[game.battle.pk]) in html
        assert local.strftime("%a %-d %b %Y %H:%M") + " JST" in html
        assert escape(game.campaign.name) in html

    services.side_set_ready(phase=game.phase, user=player)
    html = _html(_client(player).get("/dashboard/"))
    waiting = html[html.index("Waiting for your orders") : html.index('id="battles"')]
    assert "No phase is waiting for your orders." in waiting
    assert reverse("battles:battle", args=[game.battle.pk]) not in waiting


def test_dashboard_lists_the_players_battles_under_way_and_over(game: Any) -> None:
    """A fresh-user check found a player's dashboard listing no battle once their side was ready, nor any
    battle over, under a title "My battles". Each battle their side fights is listed, under way first; a
    battle of their campaign their side is not in is not."""
    player = game.players["britain"]
    services.side_set_ready(phase=game.phase, user=player)
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    second = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="Rematch"
    )
    germany_only = Battle.objects.create(campaign=game.campaign, name="Not ours", created_by=game.umpire)

    html = _html(_client(player).get("/dashboard/"))
    listed = html[html.index('id="battles"') : html.index("My campaigns")]
    rows = re.findall(r'<a href="/battles/(\d+)/">([^<]*)</a>', listed)

    assert rows == [(str(second.pk), "Rematch"), (str(game.battle.pk), escape(game.battle.name))]
    assert "Under way" in listed and "Over: Royal Navy won" in listed
    assert str(germany_only.pk) not in [pk for pk, _ in rows]
    assert '<td data-label="Your side">Royal Navy</td>' in listed


def test_dashboard_needs_a_login(client: Client) -> None:
    response = client.get(reverse("battles:dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_settings_page_saves_time_zone_and_opt_out(user_client: Client, user: Any) -> None:
    response = user_client.post(reverse("battles:settings"), {"time_zone": "Europe/Paris"})

    assert response.status_code == 302
    profile = UserProfile.objects.get(user=user)
    assert (profile.time_zone, profile.email_notifications) == ("Europe/Paris", False)
    bad = user_client.post(reverse("battles:settings"), {"time_zone": "Mars/Olympus"})
    assert bad.status_code == 200
    assert "Select a valid choice. Mars/Olympus is not one of the available choices." in _html(bad)


# --- invitations -----------------------------------------------------------------------------------------


def _invitation(game: Any, side: str = "britain") -> Any:
    return services.invitation_create(campaign=game.campaign, created_by=game.umpire, side=game.side(side))


def test_invitation_page_is_public_and_signs_up_a_new_player(game: Any, client: Client) -> None:
    invitation = _invitation(game)
    url = reverse("battles:invitation", args=[invitation.token])

    page = client.get(url)
    response = client.post(
        url,
        {"username": "somerville", "password": "force-h-gibraltar", "password_again": "force-h-gibraltar"},
    )

    assert page.status_code == 200
    assert "You are invited as player of <strong>Royal Navy</strong>" in _html(page)
    assert response.status_code == 302
    assert response["Location"] == reverse("battles:campaign", args=[game.campaign.pk])
    user = get_user_model().objects.get(username="somerville")
    assert Membership.objects.get(user=user).side.key == "britain"
    assert client.get(response["Location"]).status_code == 200  # logged in
    again = Client().get(url)
    assert again.status_code == 409
    assert "This invitation has already been used." in _html(again)


def test_invitation_signup_errors_are_shown_and_nothing_is_made(game: Any, client: Client) -> None:
    invitation = _invitation(game)
    url = reverse("battles:invitation", args=[invitation.token])

    response = client.post(url, {"username": "x", "password": "short", "password_again": "short"})

    assert response.status_code == 200
    assert "This password is too short. It must contain at least 12 characters." in _html(response)
    assert not get_user_model().objects.filter(username="x").exists()
    mismatch = client.post(
        url, {"username": "x", "password": "long-enough-pw-1", "password_again": "other-pw-123"}
    )
    assert "The two passwords differ." in _html(mismatch)


def test_a_logged_in_user_joins_with_one_click(game: Any) -> None:
    invitation = _invitation(game, "germany")
    newcomer = UserFactory()

    response = _client(newcomer).post(reverse("battles:invitation", args=[invitation.token]))

    assert response.status_code == 302
    assert Membership.objects.get(user=newcomer).side.key == "germany"


def test_a_member_opening_an_invitation_is_told_so_with_a_link_not_offered_join(game: Any) -> None:
    """The page offered "Join as ..." to a member, and refused only after the click (409)."""
    invitation = _invitation(game, "germany")
    url = reverse("battles:invitation", args=[invitation.token])
    player = game.players["britain"]

    response = _client(player).get(url)

    html = _html(response)
    assert response.status_code == 200
    side = game.side("britain").name
    assert (
        f"You ({player.get_username()}) are already a member of this campaign, as player of "
        f"<strong>{side}</strong>: this invitation is for someone else." in html
    )
    assert f'href="{reverse("battles:campaign", args=[game.campaign.pk])}"' in html
    assert "Join as" not in html and "csrfmiddlewaretoken" not in html.split("<main")[1]
    umpire = _html(_client(game.umpire).get(url))
    assert "already a member of this campaign, as umpire:" in umpire and "Join as" not in umpire
    newcomer = UserFactory()
    assert f"Join as {newcomer.get_username()}" in _html(_client(newcomer).get(url))
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_unknown_and_expired_invitations(game: Any, client: Client) -> None:
    assert client.get(reverse("battles:invitation", args=["nope"])).status_code == 404
    expired = services.invitation_create(
        campaign=game.campaign,
        created_by=game.umpire,
        side=game.side("britain"),
        expires_in=timedelta(seconds=-1),
    )
    response = client.get(reverse("battles:invitation", args=[expired.token]))
    assert response.status_code == 410
    assert "This invitation has expired; ask your umpire for a new one." in _html(response)


def test_umpire_makes_an_invitation_link_on_the_campaign_page(game: Any) -> None:
    side = game.side("germany")
    response = _client(game.umpire).post(
        reverse("battles:campaign_invite", args=[game.campaign.pk]),
        {"role": "player", "side": side.pk, "days": 3},
        follow=True,
    )
    invitation = game.campaign.invitations.get()
    assert f"http://testserver/invite/{invitation.token}/" in _html(response)
    denied = _client(game.players["britain"]).post(
        reverse("battles:campaign_invite", args=[game.campaign.pk]),
        {"role": "player", "side": side.pk, "days": 3},
        follow=True,
    )
    assert denied.status_code == 403
    assert denied.status_code == 403
    assert "Only an umpire of this campaign may do that." in _html(denied)
    assert game.campaign.invitations.count() == 1


# --- campaign pages --------------------------------------------------------------------------------------


def test_campaign_page_shows_sides_fleets_battles_and_losses(game: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle, ship_key="bismarck", user=game.umpire, changes={"status": "sunk"}, reason="test"
    )

    html = _html(_client(game.players["germany"]).get(reverse("battles:campaign", args=[game.campaign.pk])))

    for text in (
        "Royal Navy",
        "Kriegsmarine",
        "King George V",
        "Rodney",
        escape(game.battle.name),
    ):
        assert text in html
    assert (
        'Bismarck</td><td data-label="Class">Bismarck</td><td data-label="Side">Kriegsmarine</td>'
        '<td data-label="Fate">Sunk</td>'
    ) in html
    assert "Unused invitations" not in html and "Battle from a scenario" not in html


def test_campaign_pages_are_404_for_outsiders(game: Any, user_client: Client) -> None:
    for name in ("battles:campaign", "battles:campaign_sinkings"):
        assert user_client.get(reverse(name, args=[game.campaign.pk])).status_code == 404
    for name in ("battles:battle", "battles:battle_log", "battles:battle_sinkings"):
        assert user_client.get(reverse(name, args=[game.battle.pk])).status_code == 404
    assert user_client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])).status_code == 404


@pytest.mark.parametrize("number", ["9" * 30, str(2**63), "0"])
def test_an_id_out_of_the_databases_range_in_the_url_is_404_not_500(game: Any, number: str) -> None:
    client = _client(game.players["britain"])
    for path in (
        f"/campaigns/{number}/",
        f"/campaigns/{number}/sinkings/",
        f"/campaigns/{number}/ships/1/",
        f"/battles/{number}/",
        f"/battles/{number}/log/",
    ):
        assert client.get(path).status_code == 404, path
    # the umpire's ship page: an id of more than 18 digits matches no URL (404); with one that does, the
    # player is refused before the id is read (403) and the umpire gets the 404
    ship_path = f"/campaigns/{game.campaign.pk}/ships/{number}/"
    assert client.get(ship_path).status_code == (404 if len(number) > 18 else 403)
    assert _client(game.umpire).get(ship_path).status_code == 404


def test_staff_creates_a_campaign(client: Client) -> None:
    organiser = StaffUserFactory()
    client.force_login(organiser)

    response = client.post(
        reverse("battles:campaign_new"),
        {
            "name": "Denmark Strait",
            "ruleset": "ultra_simple",
            "default_orders": "captain",
            "deadline_hours": 24,
            "sides": "britain, Royal Navy, #1f4e9c\ngermany, Kriegsmarine",
        },
    )

    campaign = organiser.memberships.get().campaign
    assert response["Location"] == reverse("battles:campaign", args=[campaign.pk])
    assert campaign.settings["default_orders"] == "captain"
    assert list(campaign.sides.values_list("key", "name", "colour")) == [
        ("britain", "Royal Navy", "#1f4e9c"),
        ("germany", "Kriegsmarine", "#b22222"),  # the first palette colour not typed for britain
    ]
    client.force_login(UserFactory())
    assert client.get(reverse("battles:campaign_new")).status_code == 403


def test_a_campaign_description_over_2000_characters_is_a_form_error(client: Client) -> None:
    client.force_login(StaffUserFactory())
    data = {"name": "Long", "ruleset": "ultra_simple", "default_orders": "hold", "deadline_hours": 24}
    data |= {"sides": "britain\ngermany", "description": "d" * 2001}

    response = client.post(reverse("battles:campaign_new"), data)

    assert response.status_code == 200
    assert response.context["form"].errors == {
        "description": ["Ensure this value has at most 2000 characters (it has 2001)."]
    }
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(
    ("sides", "error"),
    [
        pytest.param(
            "britain, A\nbritain, B", "The side key &#x27;britain&#x27; is used twice.", id="dup-key"
        ),
        pytest.param(
            "b" * 41 + ", A\ngermany, B", "at most 40 characters and a name at most 80", id="long-key"
        ),
        pytest.param(
            "britain, " + "N" * 81 + "\ngermany, B",
            "at most 40 characters and a name at most 80",
            id="long-name",
        ),
        pytest.param("britain, A, royalblue\ngermany, B", "CSS colour like #1f4e9c", id="colour-name"),
        pytest.param("britain, A, red;x:y\ngermany, B", "CSS colour like #1f4e9c", id="colour-css"),
    ],
)
def test_campaign_sides_that_the_database_would_refuse_are_form_errors(
    client: Client, sides: str, error: str
) -> None:
    """A repeated side key was a 500 (IntegrityError); a key, name or colour longer than its column is a
    500 on PostgreSQL (SQLite stores it)."""
    client.force_login(StaffUserFactory())

    response = client.post(
        reverse("battles:campaign_new"),
        {
            "name": "C",
            "ruleset": "ultra_simple",
            "default_orders": "captain",
            "deadline_hours": 24,
            "sides": sides,
        },
    )

    assert response.status_code == 200
    assert error in _html(response)
    assert not Membership.objects.exists()


def test_umpire_creates_a_battle_from_a_scenario_on_the_campaign_page(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)  # NW-CAMP-02: its ships are free again
    response = _client(game.umpire).post(
        reverse("battles:battle_scenario", args=[game.campaign.pk]),
        {"scenario": "bismarck_last_battle_1941", "name": "Second round"},
    )
    battle = Battle.objects.get(name="Second round")
    assert response["Location"] == reverse("battles:battle", args=[battle.pk])
    assert battle.status == "active"


def test_umpire_sets_up_a_battle_from_campaign_ships(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    ships = list(game.campaign.ships.order_by("pk"))
    data: dict[str, Any] = {"name": "Ambush", "width": 24, "height": 18}
    for i, cs in enumerate(ships):
        data |= {
            f"use_{cs.pk}": "on",
            f"a_{cs.pk}": 3 + 3 * i,
            f"b_{cs.pk}": 4,
            f"heading_{cs.pk}": 60,
            f"speed_{cs.pk}": 1,
        }

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    battle = Battle.objects.get(name="Ambush")
    assert response["Location"] == reverse("battles:battle", args=[battle.pk])
    assert battle.ships.count() == 3
    services.battle_end(battle=battle, user=game.umpire)  # NW-CAMP-02: its ships are free again
    bad = dict(data, **{f"heading_{ships[0].pk}": 45})
    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), bad)
    assert "heading 45 is not a hex facing" in _html(response)


def test_a_battle_name_or_end_reason_too_long_for_its_column_is_refused(game: Any) -> None:
    """Battle.name holds 120 characters and end_reason 200: longer was stored on SQLite and a 500 on
    PostgreSQL."""
    client = _client(game.umpire)

    response = client.post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "end", "reason": "R" * 201},
        follow=True,
    )

    refusal = "The reason has at most 200 characters (this one has 201); the battle was not ended."
    assert refusal in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).status == "active"
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    data = {"name": "N" * 121, f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4}
    response = client.post(reverse("battles:battle_new", args=[game.campaign.pk]), data)
    assert response.status_code == 400
    assert "The name has at most 120 characters." in _html(response)
    assert Battle.objects.count() == 1


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        pytest.param({"wind_from": "nan"}, "Enter a number.", id="wind-nan"),
        pytest.param(
            {"width": "inf"}, "The map&#x27;s width: &#x27;inf&#x27; is not a number.", id="width-inf"
        ),
        pytest.param({"terrain": "[" * 5000 + "]" * 5000}, "Terrain must be a JSON list", id="terrain-deep"),
        pytest.param(
            {"width": "1" + "0" * 12, "height": "1" + "0" * 12}, "The map is at most 240 x 180", id="map-huge"
        ),
        pytest.param(
            {"width": "-5", "height": "0"},
            "The map&#x27;s width and height must each be at least 1 (given: -5 x 0).",
            id="map-negative",
        ),
    ],
)
def test_battle_setup_refuses_numbers_it_cannot_use(game: Any, extra: dict[str, str], error: str) -> None:
    """NaN wind and deeply nested terrain were 500s; a 10**12 x 10**12 hex map was drawn hex by hex until
    the server ran out of memory."""
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    data = {"name": "Set-up", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, **extra}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert error in _html(response)
    assert Battle.objects.count() == 1


def test_umpire_repairs_and_assigns_on_the_ship_page(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])
    client = _client(game.umpire)

    client.post(url, {"action": "assign", "commander": game.players["britain"].pk})
    CampaignShip.objects.filter(pk=kgv.pk).update(sheet={"damage": 3, "protection": 9})
    client.post(
        url,
        {
            "action": "repair",
            "status": "active",
            "sheet": '{"damage": 0, "protection": 9}',
            "reason": "Dry dock",
        },
    )

    kgv.refresh_from_db()
    assert kgv.commander == game.players["britain"]
    assert kgv.repairs.get().reason == "Dry dock"
    assert _client(game.players["britain"]).get(url).status_code == 403


def test_ship_page_lists_what_a_repair_changed_in_words(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])
    client = _client(game.umpire)
    # a list entry, as other rule sets' sheets have (a repair keeps to the entries a sheet has: NW-CAMP-05)
    CampaignShip.objects.filter(pk=kgv.pk).update(sheet=dict(kgv.sheet, guns_lost=[]))
    sheet = dict(kgv.sheet, damage=4, guns_lost=["A turret"])
    client.post(
        url, {"action": "repair", "status": "active", "sheet": json.dumps(sheet), "reason": "Shell hits"}
    )
    client.post(
        url,
        {
            "action": "repair",
            "status": "active",
            "sheet": json.dumps(dict(sheet, damage=0, guns_lost=[])),
            "reason": "Dry dock",
        },
    )

    html = _html(client.get(url))
    dock = html.split("Dry dock", 1)[1]
    assert '<th scope="row">Damage</th><td>4</td><td>0</td>' in dock
    assert '<th scope="row">Guns lost</th><td>A turret</td><td>-</td>' in dock
    assert '"damage"' not in html  # the sheets are not printed as JSON


# --- battle page, orders, ready --------------------------------------------------------------------------


def test_battle_page_shows_state_deadline_readiness_and_my_order_forms(game: Any) -> None:
    player = game.players["britain"]
    services.side_set_ready(phase=game.phase, user=game.players["germany"])

    html = _html(_client(player).get(reverse("battles:battle", args=[game.battle.pk])))

    assert "Phase 1: Open for orders" in html
    assert f"Dice seed SHA-256: {game.phase.seed_hash}" in html
    assert "Royal Navy: giving orders" in html and "Kriegsmarine: <strong>ready</strong>" in html
    assert 'name="ship_key" value="kgv"' in html and 'name="ship_key" value="rodney"' in html
    assert 'name="ship_key" value="bismarck"' not in html
    assert '<option value="bismarck">Bismarck</option>' in html
    assert 'id="orders"' in html and 'id="map"' in html
    assert "Resolve now" not in html


def test_plain_post_orders_and_ready_run_the_loop(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    """Without JavaScript the order form and the ready button still work: plain posts, answered with a
    redirect to the battle page (or the page with the form's errors)."""
    britain, germany = _client(game.players["britain"]), _client(game.players["germany"])
    first = game.phase

    def url(ship: str) -> str:
        return reverse("battles:order_save", args=[game.battle.pk, ship])

    saved = britain.post(url("kgv"), {"phase": str(first.pk), "hexes": "1", "turn": "30", "turn_after": "0"})
    bad = britain.post(url("rodney"), {"phase": str(first.pk), "hexes": "1", "turn": "45"})
    enemy = britain.post(url("bismarck"), {"phase": str(first.pk), "hexes": "1"})
    britain.post(reverse("battles:ready", args=[game.battle.pk]), {"ready": "1"})
    with django_capture_on_commit_callbacks(execute=True):
        germany.post(reverse("battles:ready", args=[game.battle.pk]), {"ready": "1"})

    assert saved.status_code == 302 and saved["Location"].endswith("#ship-kgv")
    assert Order.objects.get(battle_ship__ship_key="kgv").data == {"hexes": 1, "turn": 30, "turn_after": 0}
    assert bad.status_code == 400 and "One turn of 30 or 60 degrees, or none (2.0)." in _html(bad)
    assert enemy.status_code == 404  # the same answer as for a ship that does not exist (A2)
    phase = Phase.objects.get(pk=first.pk)
    assert phase.status == "resolved"
    page = _html(britain.get(reverse("battles:battle", args=[game.battle.pk])))
    assert "Log of phase 1 (turn 1)" in page and "Phase 2: Open for orders" in page
    # a form of phase 1 posted now is refused, not applied to phase 2
    late = britain.post(url("kgv"), {"phase": str(first.pk), "hexes": "1"})
    assert late.status_code == 409
    assert Order.objects.filter(phase__number=2).count() == 0


def test_umpire_tools(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    client = _client(game.umpire)
    url = reverse("battles:umpire", args=[game.battle.pk])
    first = game.phase
    assert "Resolve now" in _html(client.get(reverse("battles:battle", args=[game.battle.pk])))

    deadline = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    client.post(url, {"action": "extend", "deadline": deadline, "side": game.side("germany").pk})
    assert first.phase_sides.get(side__key="germany").deadline is not None
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "resolve_now"})
    assert Phase.objects.get(pk=first.pk).status == "resolved"
    response = client.post(url, {"action": "rollback", "to_number": "1"}, follow=True)
    assert "Rolled back: phase 1 is open again." in _html(response)
    client.post(url, {"action": "end", "winner": "germany", "reason": "Fuel"})
    assert Battle.objects.get(pk=game.battle.pk).winner == "germany"
    assert _client(game.players["britain"]).post(url, {"action": "resolve_now"}).status_code == 403


@pytest.mark.parametrize("umpire_zone", ["UTC", "America/New_York"])
def test_a_deadline_in_the_year_9999_is_refused_and_pages_still_render(game: Any, umpire_zone: str) -> None:
    """A deadline so far ahead that a time zone east of UTC cannot show it (year 10000) was a 500 on the
    extend form (New York) and on every player's battle page and dashboard (Kiritimati, UTC+14)."""
    services.profile_update(user=game.umpire, time_zone=umpire_zone, email_notifications=True)
    player = game.players["britain"]
    services.profile_update(user=player, time_zone="Pacific/Kiritimati", email_notifications=True)
    before = Phase.objects.get(pk=game.phase.pk).deadline

    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "extend", "deadline": "9999-12-31T23:59"},
        follow=True,
    )

    assert response.status_code == 200
    assert "at most a year ahead" in _html(response)
    assert Phase.objects.get(pk=game.phase.pk).deadline == before
    for url in (reverse("battles:battle", args=[game.battle.pk]), reverse("battles:dashboard")):
        assert _client(player).get(url).status_code == 200


# --- log, sheets, losses ---------------------------------------------------------------------------------


def test_log_shows_rolls_and_the_seed_after_resolution(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    first = game.phase
    services.orders_submit(
        phase=first, user=game.umpire, ship_key="kgv", data={"hexes": 1, "target": "bismarck"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    phase = Phase.objects.get(pk=first.pk)

    html = _html(
        _client(game.players["germany"]).get(
            reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1"
        )
    )

    # NW-CAMP-03: the players see the seed's hash, and the seed itself when the battle is over
    assert f"Dice seed SHA-256: {phase.seed_hash}" in html
    assert f"Seed: {phase.seed}" not in html and "The seed is shown when the battle is over." in html
    fires = list(phase.events.filter(kind="fire"))
    assert fires  # at 5-6 hexes some ship always has a target (the seed is random: which ones varies)
    for fire in fires:
        rolls = ", ".join(f"{r['die']} {r['value']}" for r in fire.data["rolls"])
        assert f'<td class="mono" data-label="Dice">{rolls}</td>' in html
        assert f'<td data-label="Needed">{fire.data["needed"]}+</td>' in html
        assert escape(fire.data["modifiers"][0]["label"]) in html
    assert (
        _client(game.players["germany"])
        .get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=9")
        .status_code
        == 404
    )


def test_the_players_see_the_seed_when_the_battle_is_over(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """NW-CAMP-03 (A8): the hash at once, the seed to the umpire once resolved, to the players at the end."""
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    phase = Phase.objects.get(battle=game.battle, number=1, superseded=False)
    url = reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1"
    player = _client(game.players["germany"])
    assert f"Seed: {phase.seed}" not in _html(player.get(url))
    assert f"Seed: {phase.seed} (the players see it when" in _html(_client(game.umpire).get(url))

    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")

    for client in (player, _client(game.players["britain"]), _client(game.umpire)):
        html = _html(client.get(url))
        assert f"Seed: {phase.seed}<" in html and "when the battle is over" not in html


def test_rolled_back_phases_stay_in_the_log_marked_superseded(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)
    old = Phase.objects.get(battle=game.battle, number=1, superseded=True, status="resolved")

    client = _client(game.players["britain"])
    index = _html(client.get(reverse("battles:battle_log", args=[game.battle.pk])))
    page = _html(client.get(reverse("battles:battle_log", args=[game.battle.pk]) + f"?phase_id={old.pk}"))

    assert "1 (superseded)" in index
    assert "This phase was rolled back by the umpire; it is kept for the record." in page
    assert f"Seed: {old.seed}" not in page  # NW-CAMP-03: not before the battle is over
    umpire = _html(
        _client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk]) + f"?phase_id={old.pk}")
    )
    assert f"Seed: {old.seed} (the players see it when the battle is over)" in umpire


def test_ship_sheets_full_for_own_side_public_for_the_enemy(game: Any) -> None:
    client = _client(game.players["britain"])

    own = _html(client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])))
    enemy = _html(client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "bismarck"])))

    assert "Status sheet" in own and '<th scope="row">Protection</th>' in own
    assert '<th scope="row">Standard tonnage</th><td>36727 tons</td>' in own
    assert "What your side knows" in enemy and '<th scope="row">Damage</th>' in enemy
    assert "Protection" not in enemy and "tonnage" not in enemy
    assert client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "nope"])).status_code == 404


def test_umpire_edits_a_ship_from_its_sheet(game: Any) -> None:
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "rodney"])
    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "rodney", reason="Fire aft", flags="on_fire"), follow=True
    )
    assert "Ship edited; the edit is in the log." in _html(response)
    assert "Fire aft" in _html(
        _client(game.players["britain"]).get(reverse("battles:battle_log", args=[game.battle.pk]))
    )
    post = ship_edit_post(game.battle, "rodney", reason="x", flags="")
    assert _client(game.players["britain"]).post(url, post).status_code == 403


def test_sinkings_pages(game: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle, ship_key="rodney", user=game.umpire, changes={"status": "struck"}, reason="test"
    )
    client = _client(game.players["germany"])

    battle_page = _html(client.get(reverse("battles:battle_sinkings", args=[game.battle.pk])))
    campaign_page = _html(client.get(reverse("battles:campaign_sinkings", args=[game.campaign.pk])))

    assert ">Rodney</a></td>" in battle_page and '<td data-label="Fate">Struck</td>' in battle_page
    assert "<td>Rodney</td>" in campaign_page and '<td data-label="Fate">Struck</td>' in campaign_page
    assert "King George V" not in battle_page


def test_umpire_sets_campaign_settings_and_new_battles_use_them(game: Any) -> None:
    url = reverse("battles:campaign_settings", args=[game.campaign.pk])
    page = _html(_client(game.umpire).get(reverse("battles:campaign", args=[game.campaign.pk])))
    assert "Belt armour adds protection (7.0)" in page

    _client(game.umpire).post(
        url,
        {
            "default_orders": "hold",
            "deadline_hours": 24,
            "reminder_hours": 0,
            "belt_armour": "on",
            "sink_when": "exceeds",
            "arc_forward": 30,
            "arc_aft": 30,
        },
    )
    game.campaign.refresh_from_db()
    services.battle_end(battle=game.battle, user=game.umpire)  # NW-CAMP-02: its ships are free again
    battle = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key="bismarck_last_battle_1941", user=game.umpire, name="With belts"
    )

    assert game.campaign.settings == {
        "default_orders": "hold",
        "deadline_hours": 24,
        "reminder_hours": 0,
        "belt_armour": True,
        "sink_when": "exceeds",
        "arc_forward": 30.0,
        "arc_aft": 30.0,
    }
    import rules

    state = rules.from_json(rules.BattleState, battle.state)
    assert (state.options["belt_armour"], state.options["default_orders"]) == (True, "hold")
    # NW-CAMP-01: the ships already in the campaign carry their sheet, but protection is worked out again with
    # the belt (36,727 t, 14.7 in: 9 + 4, 7.0); the first battle keeps the options it began with.
    assert state.ship("kgv").sheet["protection"] == 13
    first = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
    assert (first.options["belt_armour"], first.ship("kgv").sheet["protection"]) == (False, 9)
    denied = _client(game.players["britain"]).post(
        url, {"default_orders": "captain", "deadline_hours": 1, "reminder_hours": 0}, follow=True
    )
    assert denied.status_code == 403
    assert "Only an umpire of this campaign may do that." in _html(denied)


def test_battle_from_ships_takes_conditions_and_terrain(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    ships = list(game.campaign.ships.order_by("pk"))
    data: dict[str, Any] = {
        "name": "Night action",
        "width": 24,
        "height": 18,
        "night": "on",
        "moon": "dim",
        "wind_from": "315",
        "wind_force": "strong",
        "weather": "squalls",
        "terrain": '[{"kind": "mine", "position": {"q": 5, "r": 5}, "visible_to": ["germany"]}]',
    }
    for i, cs in enumerate(ships):
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": 3 + 3 * i, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 0}
    url = reverse("battles:battle_new", args=[game.campaign.pk])

    # ultra_simple has no terrain (NW-CAMP-08): refused, nothing saved
    refused = _client(game.umpire).post(url, data)
    assert "terrain 1 (mine): unknown kind; terrain kinds are none: this rule set has no terrain" in _html(
        refused
    )
    assert not Battle.objects.filter(name="Night action").exists()
    _client(game.umpire).post(url, {**data, "terrain": "[]"})

    import rules

    state = rules.from_json(rules.BattleState, Battle.objects.get(name="Night action").state)
    c = state.conditions
    assert (c.night, c.moon, c.wind_from, c.wind_force, c.weather) == (
        True,
        "dim",
        315.0,
        "strong",
        "squalls",
    )
    assert state.terrain == ()
    bad = _client(game.umpire).post(
        reverse("battles:battle_new", args=[game.campaign.pk]), {**data, "terrain": "[{"}
    )
    assert "Terrain must be a JSON list of features" in _html(bad)


def test_the_log_page_wraps_the_seed_hash_on_a_phone(game: Any) -> None:
    """The 64-character SHA-256 in a monospace line pushed the log page sideways at 390 px."""
    html = _html(_client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk])))

    assert '<p class="mono seed">Dice seed SHA-256: ' in html


def test_settings_page_changes_the_email_address(user_client: Client, user: Any) -> None:
    url = reverse("battles:settings")
    assert f'value="{user.email}"' in _html(user_client.get(url))

    response = user_client.post(
        url, {"email": " new@example.org ", "time_zone": "UTC", "email_notifications": "on"}
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.org"
    # e-mails asked for without an address: a form error, nothing saved
    refused = user_client.post(url, {"email": "", "time_zone": "Europe/Paris", "email_notifications": "on"})
    assert "Give an e-mail address for the turn e-mails, or turn them off." in _html(refused)
    user.refresh_from_db()
    assert (user.email, UserProfile.objects.get(user=user).time_zone) == ("new@example.org", "UTC")
    assert "Enter a valid email address." in _html(
        user_client.post(url, {"email": "nope", "time_zone": "UTC"})
    )
    # no e-mails: the address may be removed
    assert user_client.post(url, {"email": "", "time_zone": "UTC"}).status_code == 302
    user.refresh_from_db()
    assert user.email == ""


@pytest.mark.parametrize("commander", ["999999", "abc", "germany-player"])
def test_a_commander_who_is_no_player_of_her_side_is_refused_and_nothing_changes(
    game: Any, commander: str
) -> None:
    """A fresh-user check read "Commander set." while the commander was silently cleared."""
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    services.campaign_ship_assign(campaign_ship=kgv, user=game.umpire, commander=game.players["britain"])
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])
    if commander == "germany-player":
        commander = str(game.players["germany"].pk)

    page = _html(_client(game.umpire).post(url, {"action": "assign", "commander": commander}, follow=True))

    assert "Choose a player of Royal Navy, or any player; nothing was changed." in page
    kgv.refresh_from_db()
    assert kgv.commander == game.players["britain"]
    anyone = _html(_client(game.umpire).post(url, {"action": "assign", "commander": ""}, follow=True))
    assert "Any player of Royal Navy may now order her." in anyone
    kgv.refresh_from_db()
    assert kgv.commander is None


def test_the_log_says_what_the_die_must_show_where_modifiers_add_to_the_roll(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NW-WW2-26: a fresh-user check read the Needed column's "6+" beside a text that says "a D20 of 9+
    hits" (a -3 for a target just acquired): the column now gives the die's number first. The numbers are
    the log's own: each fire line's "a D20 of N+ hits" is the column's N. The ships close on the captains'
    default orders until they fire (the seeds fixed)."""
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)
    game = scenario_campaign("denmark_strait_1941")
    fires: list[Any] = []
    for _ in range(8):
        phase = Phase.objects.get(battle=game.battle, status="open", superseded=False)
        with django_capture_on_commit_callbacks(execute=True):
            services.phase_close(phase=phase, user=game.umpire)
        fires = [e for e in phase.events.filter(kind="fire") if e.data["modifiers"]]
        if fires:
            break
    assert fires
    html = _html(
        _client(game.umpire).get(
            reverse("battles:battle_log", args=[game.battle.pk]) + f"?phase={phase.number}"
        )
    )
    for fire in fires:
        total = sum(m["value"] for m in fire.data["modifiers"])
        die, needed = fire.data["needed"] - total, fire.data["needed"]
        assert die != needed
        if 1 < die <= 20:  # (else "every D20 hits" or "no D20 can hit")
            assert f"; a D20 of {die}+ hits" in fire.data["text"]
        assert f'<td data-label="Needed">{die}+ on the die ({needed}+ with modifiers)</td>' in html
