"""Who may do what, for every URL of the site (issue 11, security).

- The access matrix: every named URL pattern x GET and POST (an empty body) x six visitors (anonymous, a
  player of the side, a player of the other side, the campaign's umpire, another campaign's umpire, a
  superuser who is in no campaign). Each cell's answer is asserted: a status, or ``login`` (a redirect to
  the log-in page). A URL pattern missing from the matrix fails the test, as does a stale row. The admin
  (``admin:*``) is exempt: Django's staff check guards it, asserted below for two of its pages.
- Valid forms from the wrong visitor change nothing: for every endpoint that writes, a post that works
  for the visitors allowed to make it (the database changes) is sent by every visitor, and the database of
  the others is checked unchanged (every row of every table but the sessions).
- CSRF: every cell whose POST reaches a view answers 403 without a CSRF token (and its usual answer with
  one); no view is ``csrf_exempt``.
- No GET changes state: every URL fetched by every visitor (as a page and as an htmx request) leaves every
  row of every table as it was.

Requests run inside a transaction that is rolled back, so no cell sees another's writes (tasks enqueued on
commit never run). The world: tests/security/world.py. Role order in every tuple below: ROLES.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.urls import reverse

from tests.security.harness import ADMIN_LOGIN, LOGIN, client_for, describe, request
from tests.security.world import ROLES, SHIP, World, build_world, url_callbacks, url_patterns

pytestmark = pytest.mark.django_db

L = LOGIN
E = 405
# Patterns outside the matrix, each with the reason.
EXEMPT = {
    "admin:": "Django's admin (the namespace): behind its staff check (test_the_admin_is_for_staff_only)",
    "bench_bare": "routed only with NAVALWAR_BENCH=1, on the benchmark's own server (bench/run_all.py)",
}


def _exempt(name: str) -> bool:
    return any(name == key or (key.endswith(":") and name.startswith(key)) for key in EXEMPT)


#             anonymous, player, other_player, umpire, other_umpire, admin
MATRIX: dict[str, dict[str, tuple[int | str, ...]]] = {
    # --- public pages and Django's auth views ---------------------------------------------------------
    "landing": {"GET": (200, 200, 200, 200, 200, 200), "POST": (E, E, E, E, E, E)},
    # our LogoutView (django.contrib.auth.urls' logout at the same path is shadowed by it): POST only
    "logout": {"GET": (L, E, E, E, E, E), "POST": (L, 302, 302, 302, 302, 302)},
    "login": {"GET": (200, 200, 200, 200, 200, 200), "POST": (200, 200, 200, 200, 200, 200)},
    "password_change": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, 200, 200, 200, 200, 200)},
    "password_change_done": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    "password_reset": {"GET": (200, 200, 200, 200, 200, 200), "POST": (200, 200, 200, 200, 200, 200)},
    "password_reset_done": {"GET": (200, 200, 200, 200, 200, 200), "POST": (E, E, E, E, E, E)},
    # a bad token: Django's "invalid link" page, for everyone
    "password_reset_confirm": {"GET": (200, 200, 200, 200, 200, 200), "POST": (200, 200, 200, 200, 200, 200)},
    "password_reset_complete": {"GET": (200, 200, 200, 200, 200, 200), "POST": (E, E, E, E, E, E)},
    # --- fleets: reference pages for every member of the club -----------------------------------------
    "fleets:class_list": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    "fleets:class_detail": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    "fleets:rules_index": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    "fleets:rules_reference": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    # --- a user's own pages -----------------------------------------------------------------------------
    "battles:dashboard": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, E, E, E, E, E)},
    "battles:settings": {"GET": (L, 200, 200, 200, 200, 200), "POST": (L, 200, 200, 200, 200, 200)},
    # the link is the credential: public; members already in the campaign get 409, others join (302)
    "battles:invitation": {"GET": (200, 200, 200, 200, 200, 200), "POST": (200, 409, 409, 409, 302, 302)},
    # staff (club organisers) create campaigns
    "battles:campaign_new": {"GET": (L, 403, 403, 200, 200, 200), "POST": (L, 403, 403, 200, 200, 200)},
    # --- campaign A: members only; anyone else (the superuser too) gets a 404 ---------------------------
    "battles:campaign": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    # umpire-only pages and forms (GET and POST alike): 404 to whoever may not see the campaign, 403 to a
    # member who is not its umpire (selectors.require_umpire), before anything is read or saved
    "battles:campaign_invite": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 302, 404, 404)},
    # revoke the world's unused invitation (NW-CAMP-26): back to the campaign page
    "battles:invitation_revoke": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 302, 404, 404)},
    # an empty post: the campaign page again with the settings form's errors (400)
    "battles:campaign_settings": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 400, 404, 404)},
    # an empty post is a form error on the campaign page shown again (400), not a redirect
    "battles:campaign_ship_new": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 400, 404, 404)},
    "battles:battle_scenario": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 302, 404, 404)},
    # an empty post (no ship) is the form again with its error (400)
    "battles:battle_new": {"GET": (L, 403, 403, 200, 404, 404), "POST": (L, 403, 403, 400, 404, 404)},
    "battles:campaign_ship": {"GET": (L, 403, 403, 200, 404, 404), "POST": (L, 403, 403, 400, 404, 404)},
    "battles:campaign_sinkings": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    # --- its battle ---------------------------------------------------------------------------------------
    "battles:battle": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    "battles:ready": {"GET": (L, E, E, E, E, E), "POST": (L, 302, 302, 302, 404, 404)},
    # without HX-Request: a redirect to the battle page
    "battles:battle_status": {"GET": (L, 302, 302, 302, 404, 404), "POST": (L, E, E, E, E, E)},
    "battles:side_ready": {"GET": (L, E, E, E, E, E), "POST": (L, 302, 302, 302, 404, 404)},
    # an empty post names no phase: 400 before the ship is looked at (with one, another side's ship is 404:
    # test_valid_posts_from_the_wrong_visitor_change_nothing)
    "battles:order_save": {"GET": (L, E, E, E, E, E), "POST": (L, 400, 400, 400, 404, 404)},
    "battles:order_check": {"GET": (L, E, E, E, E, E), "POST": (L, 400, 400, 400, 404, 404)},
    # a ship's form (the open phase): Britain's player and the umpire; Germany's player gets the answer of a
    # made-up ship (test_another_sides_ships_orders_page_is_no_ship_at_all in tests/battles)
    "battles:order_panel": {"GET": (L, 200, 404, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    "battles:order_clear": {"GET": (L, E, E, E, E, E), "POST": (L, 400, 400, 400, 404, 404)},
    "battles:order_repeat": {"GET": (L, E, E, E, E, E), "POST": (L, 400, 400, 400, 404, 404)},
    "battles:umpire": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 302, 404, 404)},
    "battles:battle_log": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    "battles:battle_sinkings": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    # Britain's ship: its sheet for every member (the public one for Germany, A2); edits by the umpire
    # an empty post is a form with no values: 400, at its fields
    "battles:ship_sheet": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, 403, 403, 400, 404, 404)},
    "battles:battle_map": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    "battles:battle_map_svg": {"GET": (L, 200, 200, 200, 404, 404), "POST": (L, E, E, E, E, E)},
    # the set-up editor of campaign A's battle in set-up: umpire only (an empty post is a bad form)
    "battles:battle_setup_map": {"GET": (L, 403, 403, 200, 404, 404), "POST": (L, 403, 403, 400, 404, 404)},
    # "Start battle" of that battle in set-up (NW-CAMP-21): umpire only, a POST; the battle page after it
    "battles:battle_start": {"GET": (L, E, E, E, E, E), "POST": (L, 403, 403, 302, 404, 404)},
}

# Django's admin, for each visitor: its index and one model's list.
ADMIN_MATRIX = {
    # staff without permissions see an empty index ("You don't have permission to view or edit anything")
    "admin:index": (ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, 200, 200, 200),
    # a visitor meets the site's log-in first (LoginRequiredMiddleware), a player the admin's
    "admin:battles_campaign_changelist": (L, ADMIN_LOGIN, ADMIN_LOGIN, 403, 403, 200),
}


@pytest.fixture
def world() -> World:
    return build_world()


def _patterns() -> dict[str, list[str]]:
    """Return every named URL pattern outside the exemptions, with its route parameters."""
    out: dict[str, list[str]] = {}
    for name, _route, params in url_patterns():
        if not _exempt(name):
            out.setdefault(name, params)
    return out


def test_every_url_pattern_is_in_the_matrix() -> None:
    patterns = set(_patterns())

    missing = sorted(patterns - set(MATRIX))
    stale = sorted(set(MATRIX) - patterns)

    assert not missing, f"URL patterns missing from MATRIX (add a row with each visitor's answer): {missing}"
    assert not stale, f"MATRIX rows for URL patterns that no longer exist: {stale}"
    assert all(len(row) == len(ROLES) for cells in MATRIX.values() for row in cells.values())


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_access_matrix(world: World, name: str) -> None:
    url = world.url(name, _patterns()[name])
    expected = MATRIX[name]

    answers = {
        method: tuple(describe(request(world.users[role], method, url)) for role in ROLES)
        for method in expected
    }

    wrong = {
        f"{method} {role}": (want, got)
        for method in expected
        for role, want, got in zip(ROLES, expected[method], answers[method], strict=True)
        if want != got
    }
    assert not wrong, f"{name} ({url}): (expected, got) {wrong}"


@pytest.mark.parametrize("name", sorted(ADMIN_MATRIX))
def test_the_admin_is_for_staff_only(world: World, name: str) -> None:
    url = reverse(name)

    got = tuple(describe(request(world.users[role], "GET", url)) for role in ROLES)

    assert got == ADMIN_MATRIX[name]


# --- CSRF ------------------------------------------------------------------------------------------------


def _posts_reaching_a_view() -> list[tuple[str, str]]:
    """(URL name, visitor) for every POST cell that is not refused before the view (405, log-in redirect)."""
    return [
        (name, role)
        for name, cells in sorted(MATRIX.items())
        for role, answer in zip(ROLES, cells["POST"], strict=True)
        if answer not in (E, L)
    ]


@pytest.mark.parametrize(("name", "role"), _posts_reaching_a_view(), ids=lambda v: v)
def test_csrf_is_enforced_on_every_unsafe_endpoint(world: World, name: str, role: str) -> None:
    url = world.url(name, _patterns()[name])
    user = world.users[role]

    refused = request(user, "POST", url, enforce_csrf_checks=True)
    # The same post with a token (cookie and field agreeing) gets its usual answer: the 403 was CSRF's.
    token = "x" * 32
    with transaction.atomic():
        client = client_for(user, enforce_csrf_checks=True)
        client.cookies["csrftoken"] = token
        accepted = client.post(url, {"csrfmiddlewaretoken": token})
        transaction.set_rollback(True)

    assert refused.status_code == 403
    assert b"CSRF verification failed" in refused.content
    assert describe(accepted) == MATRIX[name]["POST"][ROLES.index(role)]


def test_no_view_is_csrf_exempt() -> None:
    exempt = sorted(name for name, callback in url_callbacks() if getattr(callback, "csrf_exempt", False))

    assert exempt == []


# --- state ----------------------------------------------------------------------------------------------

# Tables left out of the snapshots, with the reason.
SNAPSHOT_EXEMPT = {
    "django_session": "a post may log in or out (a GET may not: test_no_get_changes_state keeps it)",
}


def snapshot(*, sessions: bool = False) -> dict[str, tuple[int, str]]:
    """Return, per table, its row count and a hash of every row's every column (sessions: on request)."""
    out = {}
    for model in apps.get_models():
        table = model._meta.db_table
        if table in SNAPSHOT_EXEMPT and not (sessions and table == "django_session"):
            continue
        rows = list(model._base_manager.order_by("pk").values_list())
        out[table] = (len(rows), hashlib.sha256(repr(rows).encode()).hexdigest())
    return out


def changed_tables(before: dict[str, tuple[int, str]], after: dict[str, tuple[int, str]]) -> list[str]:
    return sorted(t for t in before if before[t] != after[t])


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_no_get_changes_state(world: World, name: str) -> None:
    url = world.url(name, _patterns()[name])
    if name == "battles:battle_status":
        url += f"?phase={world.battle.phases.get(number=2).pk}&status=open"
    writes = []
    for role in ROLES:
        for headers in ({}, {"HX-Request": "true"}):
            with transaction.atomic():
                client = client_for(world.users[role])
                before = snapshot(sessions=True)
                response = client.get(url, headers=headers)
                after = snapshot(sessions=True)
                transaction.set_rollback(True)
            assert response.status_code < 500, (role, headers, response.status_code)
            if changed_tables(before, after):
                writes.append((role, bool(headers), changed_tables(before, after)))

    assert writes == [], f"GET {url} wrote: {writes}"


# --- valid posts from the wrong visitor -------------------------------------------------------------------


def _phase2(world: World) -> Any:
    return world.battle.phases.get(number=2, superseded=False)


def _battle_new_post(world: World) -> dict[str, str]:
    from battles.models import CampaignShip

    post = {"name": "A new battle", "width": "30", "height": "30"}
    free = CampaignShip.objects.filter(campaign=world.campaign).exclude(  # NW-CAMP-02: York, Gneisenau
        battle_ships__battle__status__in=["setup", "active"]
    )
    for i, cship in enumerate(free.order_by("pk")):
        post |= {
            f"use_{cship.pk}": "on",
            f"a_{cship.pk}": str(2 + 3 * i),
            f"b_{cship.pk}": "5",
            f"heading_{cship.pk}": "0",
            f"speed_{cship.pk}": "1",
        }
    return post


def _setup_place_post(world: World) -> dict[str, str]:
    import rules

    state = rules.from_json(rules.BattleState, world.setup_battle.state)
    heading = (state.ship(SHIP).heading + 60) % 360
    return {"action": "place", "place-ship": SHIP, "place-heading": f"{heading:g}"}


def _ship_edit_post(world: World) -> dict[str, str]:
    """The ship page's edit form of her as she stands, her speed one more (tests.utils.ship_edit_post)."""
    import rules
    from battles.models import Battle
    from tests.utils import ship_edit_post

    speed = rules.from_json(rules.BattleState, Battle.objects.get(pk=world.battle.pk).state).ship(SHIP).speed
    return ship_edit_post(world.battle, SHIP, speed=f"{speed + 1:g}")


ORDER = {"hexes": "2", "turn": "0", "turn_after": "0"}
PASSWORD = "a-long-enough-pw-42"
STAFF = ("umpire", "other_umpire", "admin")
# URL name -> (the post, the visitors whose post changes the database). Every endpoint that takes a POST
# is here or in POST_EXEMPT.
ACTIONS: dict[str, tuple[Callable[[World], dict[str, str]], tuple[str, ...]]] = {
    "battles:settings": (
        lambda w: {"time_zone": "Europe/London", "email_notifications": "on"},
        ("player", "other_player", "umpire", "other_umpire", "admin"),  # each their own profile
    ),
    "battles:invitation": (
        lambda w: {"username": "new_captain", "password": PASSWORD, "password_again": PASSWORD},
        ("anonymous", "other_umpire", "admin"),  # a new account, or a user not yet in the campaign
    ),
    "battles:campaign_new": (
        lambda w: {
            "name": "New",
            "ruleset": "ultra_simple",
            "default_orders": "hold",
            "deadline_hours": "24",
            "sides": "north, North\nsouth, South",
        },
        STAFF,
    ),
    "battles:campaign_invite": (
        lambda w: {"role": "player", "side": str(w.campaign.sides.get(key="germany").pk), "days": "3"},
        ("umpire",),
    ),
    "battles:invitation_revoke": (lambda w: {}, ("umpire",)),
    "battles:campaign_settings": (
        lambda w: {"default_orders": "hold", "deadline_hours": "24", "reminder_hours": "6"},
        ("umpire",),
    ),
    "battles:campaign_ship_new": (
        lambda w: {
            "side": str(w.campaign.sides.get(key="britain").pk),
            "ship_class": str(w.ship_class.pk),
            "name": "Repulse",
        },
        ("umpire",),
    ),
    "battles:battle_scenario": (
        lambda w: {"scenario": "bismarck_last_battle_1941", "name": "Again"},
        # nobody: the scenario's ships are all in the world's active battle, so even the umpire's post is
        # refused (NW-CAMP-02, tests/battles/test_one_battle_at_a_time.py); test_views.py has the umpire's
        # post that creates the battle, and UMPIRE_ONLY below the refusals of the others
        (),
    ),
    "battles:battle_new": (_battle_new_post, ("umpire",)),
    "battles:campaign_ship": (
        lambda w: {"action": "assign", "commander": str(w.users["player"].pk)},
        ("umpire",),
    ),
    "battles:ready": (lambda w: {"ready": "1"}, ("player", "other_player")),
    "battles:side_ready": (lambda w: {"phase": str(_phase2(w).pk), "ready": "1"}, ("player", "other_player")),
    "battles:order_save": (lambda w: {"phase": str(_phase2(w).pk), **ORDER}, ("player", "umpire")),
    "battles:order_check": (lambda w: {"phase": str(_phase2(w).pk), **ORDER}, ()),  # never saves
    "battles:order_clear": (lambda w: {"phase": str(_phase2(w).pk)}, ("player", "umpire")),
    "battles:order_repeat": (lambda w: {"phase": str(_phase2(w).pk)}, ("player", "umpire")),
    "battles:umpire": (lambda w: {"action": "resolve_now"}, ("umpire",)),
    "battles:ship_sheet": (_ship_edit_post, ("umpire",)),
    "battles:battle_setup_map": (_setup_place_post, ("umpire",)),
    "battles:battle_start": (lambda w: {}, ("umpire",)),
}
# POST endpoints left out of ACTIONS, with the reason.
POST_EXEMPT = {
    "logout": "Django's: a user ends their own session (sessions are not in the snapshot)",
    "login": "Django's (and axes'): test_accounts.py and test_hardening.py",
    "password_change": "Django's: a user changes their own password (test_accounts.py)",
    "password_reset": "Django's: e-mails a link (test_accounts.py)",
    "password_reset_confirm": "Django's: needs the e-mailed token (test_accounts.py)",
}


def test_every_post_endpoint_has_an_action_or_a_reason() -> None:
    posts = {name for name, cells in MATRIX.items() if any(a not in (E, L) for a in cells["POST"])}

    assert sorted(posts - set(ACTIONS) - set(POST_EXEMPT)) == []
    assert sorted((set(ACTIONS) | set(POST_EXEMPT)) - posts) == []


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_valid_posts_from_the_wrong_visitor_change_nothing(world: World, name: str) -> None:
    url = world.url(name, _patterns()[name])
    make_post, allowed = ACTIONS[name]
    outcome = {}
    for role in ROLES:
        with transaction.atomic():
            client = client_for(world.users[role])
            before = snapshot()
            response = client.post(url, make_post(world))
            after = snapshot()
            transaction.set_rollback(True)
        assert response.status_code < 500, (role, response.status_code)
        outcome[role] = changed_tables(before, after)

    wrote = {role for role, tables in outcome.items() if tables}
    assert wrote == set(allowed), outcome


@pytest.mark.parametrize(
    "name", ["battles:order_save", "battles:order_check", "battles:order_clear", "battles:order_repeat"]
)
@pytest.mark.parametrize("htmx", [False, True])
def test_another_sides_ship_is_no_ship_at_all(world: World, name: str, htmx: bool) -> None:
    """With a valid phase, Germany's player posting to Britain's ship gets the answer a made-up ship gets."""
    post = ACTIONS[name][0](world)
    headers = {"HX-Request": "true"} if htmx else {}
    user = world.users["other_player"]

    theirs = request(user, "POST", reverse(name, args=[world.battle.pk, SHIP]), post, headers=headers)
    nothing = request(
        user, "POST", reverse(name, args=[world.battle.pk, "no_such_ship"]), post, headers=headers
    )

    def text(response: Any) -> str:  # the CSRF token differs from one answer to the next
        return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", response.content.decode())

    assert theirs.status_code == nothing.status_code == 404
    assert text(theirs) == text(nothing)
    assert "There is no such ship under your command in this battle." in text(theirs)


# --- umpire-only pages: one policy ------------------------------------------------------------------------

# (URL name, method) of every umpire-only page and form. The policy (battles.selectors.require_umpire):
# whoever may not see the campaign gets 404, a member who is not its umpire gets 403 with the message.
UMPIRE_ONLY = {
    ("battles:campaign_invite", "POST"),
    ("battles:invitation_revoke", "POST"),
    ("battles:campaign_settings", "POST"),
    ("battles:campaign_ship_new", "POST"),
    ("battles:battle_scenario", "POST"),
    ("battles:battle_new", "GET"),
    ("battles:battle_new", "POST"),
    ("battles:campaign_ship", "GET"),
    ("battles:campaign_ship", "POST"),
    ("battles:umpire", "POST"),
    ("battles:ship_sheet", "POST"),
    ("battles:battle_setup_map", "GET"),
    ("battles:battle_setup_map", "POST"),
    ("battles:battle_start", "POST"),
}
# Pages refused (403) to members for another reason than the umpire's role.
OTHER_403 = {("battles:campaign_new", "GET"), ("battles:campaign_new", "POST")}  # staff create campaigns


def test_umpire_only_cells_follow_one_policy() -> None:
    """Every umpire-only cell answers (log-in, 403, 403, the umpire's answer, 404, 404); no other cell answers
    a member 403, so a new umpire-only endpoint that answers 404 or a redirect to a player fails here."""
    rows = {(name, method): cells for name, methods in MATRIX.items() for method, cells in methods.items()}
    refused_to_members = {key for key, cells in rows.items() if 403 in cells[1:3]}

    assert set(rows) >= UMPIRE_ONLY
    assert refused_to_members == UMPIRE_ONLY | OTHER_403
    for key in UMPIRE_ONLY:
        anonymous, player, other_player, umpire, other_umpire, admin = rows[key]
        assert (anonymous, player, other_player, other_umpire, admin) == (L, 403, 403, 404, 404), key
        assert umpire not in (403, 404, E, L), key


@pytest.mark.parametrize("name", sorted(name for name, method in UMPIRE_ONLY if method == "POST"))
@pytest.mark.parametrize("htmx", [False, True])
def test_a_player_posting_a_valid_umpire_form_is_refused_and_nothing_changes(
    world: World, name: str, htmx: bool
) -> None:
    url = world.url(name, _patterns()[name])
    headers = {"HX-Request": "true"} if htmx else {}
    post = ACTIONS[name][0](world)
    for role in ("player", "other_player"):
        with transaction.atomic():
            client = client_for(world.users[role])
            before = snapshot()
            response = client.post(url, post, headers=headers)
            after = snapshot()
            transaction.set_rollback(True)

        assert response.status_code == 403, (role, response.status_code)
        assert '<p id="refusal">Only an umpire of this campaign may do that.</p>' in response.content.decode()
        assert changed_tables(before, after) == [], role


@pytest.mark.parametrize("name", sorted(name for name, method in UMPIRE_ONLY if method == "GET"))
def test_a_player_opening_an_umpire_page_is_refused_with_the_reason(world: World, name: str) -> None:
    url = world.url(name, _patterns()[name])

    response = request(world.users["player"], "GET", url)

    assert response.status_code == 403
    assert '<p id="refusal">Only an umpire of this campaign may do that.</p>' in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True])
def test_the_set_up_editors_conditions_tool_is_the_umpires_alone(world: World, htmx: bool) -> None:
    """The Conditions tool (``action=conditions``, NW-CAMP-20) shares the set-up editor's URL and its guard:
    a valid post changes the database for the umpire only; a player or an observer of the campaign gets the
    umpire-only refusal (403), whoever may not see the campaign 404, an anonymous visitor the log-in page
    (with htmx, an HX-Redirect to it)."""
    from battles import services

    users = dict(world.users)  # and an observer: a member with no side (NW-CAMP-13)
    users["observer"] = type(world.users["player"]).objects.create_user("observer_a", password=None)
    services.membership_add(campaign=world.campaign, user=users["observer"], role="observer")
    url = world.url("battles:battle_setup_map", _patterns()["battles:battle_setup_map"])
    post = {"action": "conditions", "cond-night": "on", "cond-moon": "bright", "cond-wind_from": "90"}
    headers = {"HX-Request": "true"} if htmx else {}
    expected = {
        "anonymous": 204 if htmx else L,  # htmx: HX-Redirect to the log-in page
        "player": 403,
        "other_player": 403,
        "observer": 403,
        "umpire": 302,
        "other_umpire": 404,
        "admin": 404,
    }
    answers, wrote = {}, set()
    for role, user in users.items():
        with transaction.atomic():
            client = client_for(user)
            before = snapshot()
            response = client.post(url, post, headers=headers)
            after = snapshot()
            transaction.set_rollback(True)
        answers[role] = describe(response)
        if changed_tables(before, after):
            wrote.add(role)
        if answers[role] == 403:
            assert (
                '<p id="refusal">Only an umpire of this campaign may do that.</p>'
                in response.content.decode()
            )

    assert answers == expected
    assert wrote == {"umpire"}
