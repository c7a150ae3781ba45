"""Fog of war on every page (A2, A8): a player of Britain never receives Germany's orders, a seed before the
battle is over (NW-CAMP-03), or Germany's hidden state.

Unique markers are planted in Germany's orders, in a German ship's record sheet, in a German-only log event,
in a German-only pending effect and in a German-only terrain feature (a minefield). Every page a British
player (and an observer) can reach is fetched, as a page and as an htmx partial, and scanned for the markers
and for the open phase's seed. The same pages fetched by the umpire show the markers, which proves the scan
would catch a leak.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle, BattleShip, LogEvent, Order, Phase
from rules.model import Hex, PendingEffect, TerrainFeature
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db


def _marker(what: str) -> str:
    return f"SECRET-{what}-{uuid.uuid4().hex}"


def _urls(game: Any, viewer: Any) -> list[tuple[str, dict[str, str]]]:
    """Every GET page of the campaign and its battle, and the htmx partial of the battle page."""
    battle, campaign = game.battle, game.campaign
    urls = [
        "/",
        reverse("battles:dashboard"),
        reverse("battles:settings"),
        reverse("battles:campaign", args=[campaign.pk]),
        reverse("battles:campaign_sinkings", args=[campaign.pk]),
        reverse("battles:battle", args=[battle.pk]),
        reverse("battles:battle_log", args=[battle.pk]),
        reverse("battles:battle_sinkings", args=[battle.pk]),
    ]
    for phase in Phase.objects.filter(battle=battle):
        urls.append(reverse("battles:battle_log", args=[battle.pk]) + f"?phase={phase.number}")
        urls.append(reverse("battles:battle_log", args=[battle.pk]) + f"?phase_id={phase.pk}")
    for key in BattleShip.objects.filter(battle=battle).values_list("ship_key", flat=True):
        urls.append(reverse("battles:ship_sheet", args=[battle.pk, key]))
    pages = [(url, {}) for url in urls]
    pages.append((reverse("battles:battle", args=[battle.pk]) + "?partial=orders", {"HX-Request": "true"}))
    return pages


def _fetch_all(game: Any, user: Any) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    out: dict[str, str] = {}
    for url, headers in _urls(game, user):
        response = client.get(url, headers=headers)
        assert response.status_code in (200, 404), (url, response.status_code)
        out[url + (" (htmx)" if headers else "")] = response.content.decode()
    # The htmx answer to an order post is a page fragment too.
    response = client.post(
        reverse("battles:order_save", args=[game.battle.pk, "kgv"]),
        {"phase": str(game.phase.pk), "hexes": "1"},
        headers={"HX-Request": "true"},
    )
    out["orders post (htmx)"] = response.content.decode()
    return out


def _plant(game: Any) -> dict[str, str]:
    """Plant Germany's secrets in the open phase; return them by name."""
    phase = game.phase
    markers = {name: _marker(name) for name in ("order", "sheet", "pending", "mine")}
    bismarck = BattleShip.objects.get(battle=game.battle, ship_key="bismarck")
    # An order row as the order panel might store any payload (the service would refuse unknown keys).
    Order.objects.update_or_create(
        phase=phase,
        battle_ship=bismarck,
        defaults={"side": game.side("germany"), "data": {"hexes": 1, "note": markers["order"]}},
    )

    # A sheet entry of text (the umpire's ship edit only changes the entries a sheet has: planted directly).
    def planted(state: rules.BattleState) -> rules.BattleState:
        ship = state.ship("bismarck")
        sheet = {**ship.sheet, "secret": markers["sheet"]}
        return replace(state.with_ships({"bismarck": replace(ship, sheet=sheet)}), **secret_bits)

    secret_bits = {
        "pending": (
            PendingEffect(id="p1", kind="fire", data={"note": markers["pending"]}, visible_to=("germany",)),
        ),
        "terrain": (
            TerrainFeature(
                kind="mine", position=Hex(q=12, r=1), props={"note": markers["mine"]}, visible_to=("germany",)
            ),
        ),
    }
    phase_state = rules.from_json(rules.BattleState, Phase.objects.get(pk=phase.pk).state_before)
    Phase.objects.filter(pk=phase.pk).update(state_before=rules.to_json(planted(phase_state)))
    battle_state = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
    Battle.objects.filter(pk=game.battle.pk).update(state=rules.to_json(planted(battle_state)))
    return markers


def _assert_absent(pages: dict[str, str], secrets: dict[str, str]) -> None:
    leaks = [(url, name) for url, html in pages.items() for name, secret in secrets.items() if secret in html]
    assert leaks == []


def _assert_present_somewhere(pages: dict[str, str], secrets: dict[str, str]) -> None:
    missing = [name for name, secret in secrets.items() if not any(secret in html for html in pages.values())]
    assert missing == []


def test_a_player_never_receives_the_enemy_orders_seed_or_hidden_state(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = scenario_campaign()
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    first = game.phase
    services.orders_submit(phase=first, user=game.players["britain"], ship_key="rodney", data={"hexes": 1})

    # --- phase 1 open -------------------------------------------------------------------------------
    secrets = _plant(game)
    secrets["seed 1"] = str(first.seed)
    for user in (game.players["britain"], observer):
        _assert_absent(_fetch_all(game, user), secrets)
    umpire_pages = _fetch_all(game, game.umpire)
    _assert_present_somewhere(umpire_pages, {k: v for k, v in secrets.items() if k in ("order", "sheet")})
    _assert_absent(umpire_pages, {"seed 1": secrets["seed 1"]})  # nobody sees a seed before resolution

    # --- phase 1 resolved, phase 2 open -------------------------------------------------------------
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    second = game.phase
    assert second.number == 2 and second.status == "open"
    event_marker = _marker("event")
    LogEvent.objects.create(
        phase=first,
        seq=999,
        kind="spotting",
        text=f"German lookouts note {event_marker}",
        visible_to=["germany"],
        data=rules.to_json(
            rules.Event(
                kind="spotting", text=f"German lookouts note {event_marker}", turn=1, visible_to=("germany",)
            )
        ),
    )
    later = _plant(game)
    hidden = {
        "event": event_marker,
        "seed 2": str(second.seed),
        **{f"{k} 2": v for k, v in later.items()},
        "sheet 1": secrets["sheet"],
        "pending 1": secrets["pending"],
        "mine 1": secrets["mine"],
    }
    for user in (game.players["britain"], observer):
        pages = _fetch_all(game, user)
        # the seed of phase 1 only once the battle is over (NW-CAMP-03: it would roll the hidden dice again)
        _assert_absent(pages, {**hidden, "seed 1": secrets["seed 1"]})
        # After resolution the orders of phase 1 are public (A2).
        _assert_present_somewhere(pages, {"order 1": secrets["order"]})
    umpire_pages = _fetch_all(game, game.umpire)
    _assert_present_somewhere(
        umpire_pages,
        {
            "event": event_marker,
            "order 2": later["order"],
            "sheet 2": later["sheet"],
            "seed 1": secrets["seed 1"],
        },
    )

    # --- the battle is over: the seed of phase 1 is public (A8, NW-CAMP-03) ----------------------------
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    for user in (game.players["britain"], observer):
        _assert_present_somewhere(_fetch_all(game, user), {"seed 1": secrets["seed 1"]})


def test_enemy_objects_answer_404_or_refusal() -> None:
    game = scenario_campaign()
    client = Client()
    client.force_login(game.players["britain"])
    bismarck = game.campaign.ships.get(ship__name="Bismarck")

    kgv = game.campaign.ships.get(ship__name="King George V")
    # the umpire's ship page: refused (403) to a player before the ship is looked up, own ship or enemy alike
    enemy = client.get(reverse("battles:campaign_ship", args=[game.campaign.pk, bismarck.pk]))
    own = client.get(reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk]))
    assert enemy.status_code == own.status_code == 403

    def text(response: Any) -> str:  # the CSRF token differs from one answer to the next
        return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", response.content.decode())

    assert text(enemy) == text(own)
    assert "Only an umpire of this campaign may do that." in text(enemy)
    response = client.post(
        reverse("battles:order_save", args=[game.battle.pk, "bismarck"]),
        {"phase": str(game.phase.pk), "hexes": "1"},
        follow=True,
    )
    assert response.status_code == 404
    assert "There is no such ship under your command in this battle." in response.content.decode()
    assert not Order.objects.exists()
    outsider = Client()
    outsider.force_login(UserFactory())
    assert outsider.get(reverse("battles:battle", args=[game.battle.pk])).status_code == 404
