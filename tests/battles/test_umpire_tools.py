"""The umpire's tools on the battle page and the labels a fresh user met (a fresh-user check): the roll back
choice defaults to the latest resolved phase and never offers the open one, the destructive buttons ask
first (naming what is lost; a post without JavaScript goes through), side names instead of keys, an
observer's map, a finished battle's header, per-side deadlines on the dashboard, the log's row numbers, form
errors as sentences, and bad input as a clear message."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles import services
from battles.models import Battle, Phase
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _resolve(game: Any, capture: Any) -> Phase:
    """Resolve the open phase (resolve now) and return the phase opened after it."""
    phase = Phase.objects.get(battle=game.battle, superseded=False, status="open")
    with capture(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    assert Phase.objects.get(pk=phase.pk).status == "resolved"
    return Phase.objects.get(battle=game.battle, superseded=False, status="open")


def _umpire_section(html: str) -> str:
    return html[html.index('id="umpire"') :]


def _select(html: str, name: str) -> str:
    return re.search(rf'<select name="{name}".*?</select>', html).group(0)  # type: ignore[union-attr]


# --- 1. roll back, resolve now, end the battle -----------------------------------------------------------


def test_rollback_defaults_to_the_latest_resolved_phase_and_does_not_offer_the_open_one(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _resolve(game, django_capture_on_commit_callbacks)
    third = _resolve(game, django_capture_on_commit_callbacks)
    assert third.number == 3

    html = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))

    select = _select(_umpire_section(html), "to_number")
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]*)</option>', select)
    assert [(n, sel) for n, sel, _label in options] == [("1", ""), ("2", " selected")]
    assert options[0][2] == "Phase 1 (turn 1)"
    assert 'value="3"' not in select


def test_the_open_phase_alone_offers_no_roll_back(game: Any) -> None:
    html = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))

    assert 'name="to_number"' not in html
    assert "<h3>Roll back</h3>" not in html


def test_a_failed_phase_is_offered_as_a_restart(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    second = _resolve(game, django_capture_on_commit_callbacks)
    Phase.objects.filter(pk=second.pk).update(status="failed", error="boom")

    select = _select(
        _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk]))), "to_number"
    )

    assert '<option value="1" selected>Phase 1 (turn 1)</option>' in select
    assert "Phase 2 (turn 2): restart it, for new orders</option>" in select


def test_rolling_back_to_the_open_phase_by_a_post_is_refused_and_keeps_the_orders(game: Any) -> None:
    services.orders_submit(phase=game.phase, user=game.players["britain"], ship_key="kgv", data={"hexes": 1})
    services.side_set_ready(phase=game.phase, user=game.players["britain"])
    client = _client(game.umpire)

    response = client.post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": "1"},
        follow=True,
    )

    assert "Phase 1 is open for orders now: there is nothing to roll back in it." in _html(response)
    phase = Phase.objects.get(pk=game.phase.pk)
    assert not phase.superseded
    assert phase.orders.count() == 1
    assert phase.phase_sides.get(side__key="britain").ready


def test_destructive_umpire_buttons_ask_first_naming_what_is_lost(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    second = _resolve(game, django_capture_on_commit_callbacks)
    services.side_set_ready(phase=second, user=game.players["britain"])

    html = _umpire_section(_html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk]))))

    forms = re.findall(r"<form [^>]*>", html)
    by_action = {}
    for form in forms:
        start = html.index(form)
        action = re.search(r'name="action" value="(\w+)"', html[start:]).group(1)  # type: ignore[union-attr]
        by_action[action] = form
    for action in ("resolve_now", "rollback", "end"):
        assert 'onsubmit="return confirm(this.dataset.confirm' in by_action[action], action
    assert "onsubmit" not in by_action["extend"]
    germany = escape("Kriegsmarine")
    assert (
        'data-confirm="Close phase 2 now and resolve it with the orders given? '
        f"{germany} is still giving orders: the time left to the deadline is lost, and ships without orders "
        'follow the default orders."' in by_action["resolve_now"]
    )
    assert (
        'data-confirm="End the battle now? Phase 2 is not played: its orders are kept for the record, '
        'never resolved."' in by_action["end"]
    )
    assert (
        "Roll back to the start of {phase}? That phase and every later one are superseded"
        in by_action["rollback"]
    )
    assert "this.to_number.selectedOptions[0].text" in by_action["rollback"]


def test_a_post_without_javascript_still_acts(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    """The confirmation lives in the browser: a plain post (no JavaScript) resolves and ends at once."""
    client = _client(game.umpire)
    url = reverse("battles:umpire", args=[game.battle.pk])

    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "resolve_now"})
    client.post(url, {"action": "end", "winner": "britain", "reason": "Bismarck sunk"})

    assert Phase.objects.get(pk=game.phase.pk).status == "resolved"
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
