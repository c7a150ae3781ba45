"""The umpire's tools on the battle page and the labels a fresh user met (a fresh-user check): the roll back
choice defaults to the latest resolved phase and never offers the open one, the destructive buttons ask
first (naming what is lost; a post without JavaScript goes through), side names instead of keys, an
observer's map, a finished battle's header, per-side deadlines on the dashboard, the log's row numbers, form
errors as sentences, and bad input as a clear message."""

from __future__ import annotations

import re
from datetime import UTC, timedelta
from typing import Any

import pytest
from django.http import Http404
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

import rules
from battles import selectors, services
from battles.models import Battle, LogEvent, Phase, PhaseSide, ShipEdit
from tests.factories import UserFactory, scenario_campaign

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
    django_capture_on_commit_callbacks: Any,
) -> None:
    # ships that hold their fire: with fire_nearest Bismarck sinks in phase 2 and there is no phase 3
    game = scenario_campaign(settings={"default_orders": "hold"})
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


# --- 2. labels and numbers -------------------------------------------------------------------------------


def test_winners_are_shown_by_side_name(game: Any) -> None:
    page = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))
    assert '<option value="britain">Royal Navy</option>' in _select(page, "winner")
    assert ">britain<" not in _select(page, "winner")

    services.battle_end(battle=game.battle, user=game.umpire, winner="britain", reason="Bismarck sunk.")

    campaign = _html(
        _client(game.players["germany"]).get(reverse("battles:campaign", args=[game.campaign.pk]))
    )
    row = re.search(rf'<tr><td><a href="/battles/{game.battle.pk}/">.*?</tr>', campaign).group(0)  # type: ignore[union-attr]
    assert '<td data-label="Winner">Royal Navy</td>' in row
    battle = _html(_client(game.players["germany"]).get(reverse("battles:battle", args=[game.battle.pk])))
    assert "The battle is over: Royal Navy holds the sea. Bismarck sunk." in battle


def test_an_observer_sees_an_observers_map(game: Any) -> None:
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")

    html = _html(_client(observer).get(reverse("battles:battle", args=[game.battle.pk])))

    assert "as an observer sees it (what every side sees)" in html
    assert (
        "Observer&#x27;s view: what every side sees" in html
        or "Observer's view: what every side sees" in html
    )
    assert "as  sees it" not in html and "Seen by  " not in html and "Seen by ·" not in html


def test_a_finished_battle_says_so_not_who_is_giving_orders(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _resolve(game, django_capture_on_commit_callbacks)  # phase 2 is open
    client = _client(game.umpire)
    client.post(
        reverse("battles:umpire", args=[game.battle.pk]), {"action": "end", "winner": "", "reason": "Fog."}
    )

    for user in (game.umpire, game.players["britain"]):
        html = _html(_client(user).get(reverse("battles:battle", args=[game.battle.pk])))
        assert "Over after phase 1 (turn 1)" in html
        assert "Turn 2, phase 1" not in html
        assert "The battle is over, with no winner. Fog." in html
        assert "<h2>The battle is over</h2>" in html
        assert "Last phase played: phase 1 (turn 1)." in html
        assert "giving orders" not in html
        assert "My side is ready" not in html


def test_a_superseded_phase_never_resolved_is_not_played(game: Any) -> None:
    first = game.phase
    services.battle_end(battle=game.battle, user=game.umpire)

    html = _html(
        _client(game.players["britain"]).get(
            reverse("battles:battle_log", args=[game.battle.pk]) + f"?phase_id={first.pk}"
        )
    )

    assert "Phase 1, turn 1: not played (superseded)</h2>" in html
    assert "Open for orders" not in html
    assert "Not played: this phase has no log." in html


def test_the_dashboard_shows_the_deadline_of_my_side(game: Any) -> None:
    general = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    own = general + timedelta(hours=24)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=general)
    PhaseSide.objects.filter(phase=game.phase, side__key="germany").update(deadline=own)

    german = _html(_client(game.players["germany"]).get(reverse("battles:dashboard")))
    british = _html(_client(game.players["britain"]).get(reverse("battles:dashboard")))

    assert f'datetime="{timezone.localtime(own, UTC).isoformat()}"' in german
    assert f'datetime="{timezone.localtime(general, UTC).isoformat()}"' not in german
    assert f'datetime="{timezone.localtime(general, UTC).isoformat()}"' in british


def test_the_dashboard_leaves_out_a_phase_past_my_sides_own_deadline(game: Any) -> None:
    Phase.objects.filter(pk=game.phase.pk).update(deadline=timezone.now() + timedelta(hours=5))
    PhaseSide.objects.filter(phase=game.phase, side__key="germany").update(
        deadline=timezone.now() - timedelta(minutes=1)
    )

    german = _html(_client(game.players["germany"]).get(reverse("battles:dashboard")))
    british = _html(_client(game.players["britain"]).get(reverse("battles:dashboard")))

    assert "No phase is waiting for your orders." in german
    assert "No phase is waiting for your orders." not in british


def test_the_log_numbers_the_rows_a_side_sees_one_by_one(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    first = game.phase
    _resolve(game, django_capture_on_commit_callbacks)
    LogEvent.objects.filter(phase=first, seq=1).update(visible_to=["britain"])  # a gap for Germany
    seen = [e for e in LogEvent.objects.filter(phase=first).order_by("seq") if e.visible_for("germany")]
    assert len(seen) >= 2

    html = _html(_client(game.players["germany"]).get(reverse("battles:battle_log", args=[game.battle.pk])))

    numbers = [int(n) for n in re.findall(r'<tr><td>(\d+)</td><td class="log-text">', html)]
    assert numbers == list(range(1, len(seen) + 1))


def test_extend_errors_are_sentences_and_an_earlier_deadline_is_said(game: Any) -> None:
    client = _client(game.umpire)
    url = reverse("battles:umpire", args=[game.battle.pk])

    bad = _html(client.post(url, {"action": "extend", "deadline": "soon"}, follow=True))
    assert "The deadline was not moved. Deadline: Enter a valid date/time." in bad
    assert "* deadline" not in bad

    later = timezone.now() + timedelta(days=3)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=later)
    earlier = (timezone.now() + timedelta(hours=2)).replace(second=0, microsecond=0)
    done = _html(
        client.post(url, {"action": "extend", "deadline": earlier.strftime("%Y-%m-%dT%H:%M")}, follow=True)
    )
    assert "Deadline moved EARLIER for every side: now " in done
    assert "The players have less time than they were told; tell them." in done
    assert Phase.objects.get(pk=game.phase.pk).deadline == earlier

    extended = _html(
        client.post(
            url,
            {
                "action": "extend",
                "deadline": later.strftime("%Y-%m-%dT%H:%M"),
                "side": game.side("germany").pk,
            },
            follow=True,
        )
    )
    assert "Deadline extended for Kriegsmarine: now " in extended
    # a change for all sides to before Germany's own deadline: Germany keeps hers, and the message says so
    sooner = earlier + timedelta(hours=1)
    kept = _html(
        client.post(url, {"action": "extend", "deadline": sooner.strftime("%Y-%m-%dT%H:%M")}, follow=True)
    )
    assert "Deadline extended for every side but Kriegsmarine: now " in kept
    shown = timezone.localtime(later).strftime("%a %-d %b %Y %H:%M %Z")
    assert f"Kriegsmarine keeps its later deadline, {shown}." in kept


def test_a_refused_extend_or_end_gives_back_what_was_typed(game: Any) -> None:
    """A fresh-user check typed a deadline that was no date, and an over-long end reason: each came back
    refused, and the form empty. The page drawn after a refusal shows what was typed, the deadline's field
    error at its field, once (a second look shows the forms empty again)."""
    client = _client(game.umpire)
    url = reverse("battles:umpire", args=[game.battle.pk])
    germany = game.side("germany")

    bad = _html(client.post(url, {"action": "extend", "deadline": "soon", "side": germany.pk}, follow=True))

    assert 'name="deadline" value="soon"' in bad
    assert f'<option value="{germany.pk}" selected>' in bad
    assert "Enter a valid date/time." in bad
    long = "x" * 201
    ended = _html(client.post(url, {"action": "end", "winner": "germany", "reason": long}, follow=True))
    assert "The reason has at most 200 characters (this one has 201); the battle was not ended." in ended
    assert f'value="{"x" * 200}"' in ended  # (as the field's maxlength keeps it)
    assert '<option value="germany" selected>' in ended
    again = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    assert 'value="soon"' not in again and 'value="xxx' not in again
    assert Battle.objects.get(pk=game.battle.pk).status == "active"


def test_rollback_refusals_are_sentences(game: Any, django_capture_on_commit_callbacks: Any) -> None:
    _resolve(game, django_capture_on_commit_callbacks)
    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": "9"},
        follow=True,
    )
    assert "The battle has no phase 9 to roll back to." in _html(response)
    assert "to_number" not in _html(response).split('id="umpire"')[0]


@pytest.mark.parametrize("number", ["", "  "])
def test_an_empty_roll_back_number_asks_for_one_not_for_phase_0(
    game: Any, django_capture_on_commit_callbacks: Any, number: str
) -> None:
    second = _resolve(game, django_capture_on_commit_callbacks)
    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": number},
        follow=True,
    )
    html = _html(response)
    assert "Give the phase number to roll back to. Nothing was rolled back." in html
    assert "phase 0" not in html
    assert not Phase.objects.get(pk=second.pk).superseded


def test_a_map_smaller_than_1_is_refused_with_that_reason(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    data = {"name": "Set-up", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, "width": "-24"}

    html = _html(_client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data))

    assert escape("The map's width and height must each be at least 1 (given: -24 x 18).") in html
    assert "The map is at most" not in html
    assert 'name="width" id="width" type="number" step="any" min="1"' in html


def test_a_stranger_gets_the_same_404_for_a_battle_of_another_campaign_and_for_no_battle(game: Any) -> None:
    stranger = UserFactory()
    missing = Battle.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]

    messages = []
    for battle_id in (game.battle.pk, missing):
        with pytest.raises(Http404) as caught:
            selectors.battle_get(user=stranger, battle_id=battle_id)
        messages.append(str(caught.value))
    pages = [_client(stranger).get(reverse("battles:battle", args=[i])) for i in (game.battle.pk, missing)]

    assert messages == ["No such battle.", "No such battle."]
    assert [p.status_code for p in pages] == [404, 404]
    bodies = [re.sub(r'"X-CSRFToken": "\w+"|value="\w{64}"', "", p.content.decode()) for p in pages]
    assert bodies[0] == bodies[1]


def test_the_end_reason_has_a_maxlength(game: Any) -> None:
    html = _html(_client(game.umpire).get(reverse("battles:battle", args=[game.battle.pk])))
    assert (
        '<label for="reason">Reason (logged; left empty: "Ended by the umpire.")</label>'
        '<input name="reason" id="reason" maxlength="200" placeholder="Ended by the umpire.">'
    ) in html


@pytest.mark.parametrize(
    ("posted", "logged"),
    [("", "Ended by the umpire."), ("   ", "Ended by the umpire."), ("  Fog came down.  ", "Fog came down.")],
)
def test_a_blank_end_reason_logs_the_default_and_a_reason_is_trimmed(
    game: Any, posted: str, logged: str
) -> None:
    """NW-CAMP-28: a reason left empty, or of spaces only, is logged as "Ended by the umpire."; a reason is
    logged without the spaces around it."""
    from battles.models import Battle, UmpireAction

    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]), {"action": "end", "winner": "", "reason": posted}
    )

    assert response.status_code == 302
    battle = Battle.objects.get(pk=game.battle.pk)
    assert (battle.status, battle.end_reason) == ("finished", logged)
    assert UmpireAction.objects.get(kind="end").text.endswith(f"; no winner. {logged}")


@pytest.mark.parametrize("url_name", ["battles:side_ready", "battles:ready"])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_ready_flag_other_than_1_or_0_is_a_400(game: Any, url_name: str, htmx: bool) -> None:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = _client(game.players["britain"]).post(
        reverse(url_name, args=[game.battle.pk]), {"ready": "banana", "phase": game.phase.pk}, **headers
    )

    assert response.status_code == 400
    assert (
        "The ready flag is 1 (my side is ready) or 0 (not ready yet), not banana. Nothing was changed."
        in (_html(response))
    )
    assert not PhaseSide.objects.get(phase=game.phase, side__key="britain").ready
    ok = _client(game.players["britain"]).post(
        reverse(url_name, args=[game.battle.pk]), {"ready": "1", "phase": game.phase.pk}
    )
    assert ok.status_code == 302
    assert PhaseSide.objects.get(phase=game.phase, side__key="britain").ready


# --- a fresh-user re-check: stale forms, finished battles ------------------------------------------------


def test_a_second_resolve_now_for_a_phase_already_closed_changes_nothing(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Two tabs (or a double submit) showed "Resolve now" for phase 1: the second must not close phase 2."""
    client = _client(game.umpire)
    url = reverse("battles:umpire", args=[game.battle.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "resolve_now", "phase": "1"})
    second = Phase.objects.get(battle=game.battle, superseded=False, status="open")
    assert second.number == 2

    response = client.post(url, {"action": "resolve_now", "phase": "1"}, follow=True)

    assert "This was for phase 1, and phase 2 is open for orders now. Nothing was changed." in _html(response)
    assert Phase.objects.get(pk=second.pk).status == "open"
    html = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    assert '<input type="hidden" name="phase" value="2">' in html  # the forms name the phase they show


def test_a_plain_ready_for_a_phase_resolved_since_does_not_ready_the_next_one(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A second tab (or a double submit) of the plain ready form for phase 1 marked the side ready in phase 2,
    which the htmx ready refuses: with the other side ready, phase 2 closed before anyone gave orders."""
    url = reverse("battles:ready", args=[game.battle.pk])
    first = game.phase
    services.side_set_ready(phase=first, user=game.players["germany"])
    with django_capture_on_commit_callbacks(execute=True):
        _client(game.players["britain"]).post(url, {"phase": str(first.pk), "ready": "1"})
    second = Phase.objects.get(battle=game.battle, superseded=False, status="open")

    response = _client(game.players["britain"]).post(url, {"phase": str(first.pk), "ready": "1"}, follow=True)

    assert escape(services.READY_TOO_LATE) in _html(response)
    assert not PhaseSide.objects.get(phase=second, side__key="britain").ready
    ok = _client(game.players["britain"]).post(url, {"phase": str(second.pk), "ready": "1"})
    assert ok.status_code == 302
    assert PhaseSide.objects.get(phase=second, side__key="britain").ready


def test_a_finished_battle_rolls_back_to_its_last_phase(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _resolve(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    client = _client(game.umpire)
    html = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    assert "The battle is over: this reopens it, and its result and winner are cleared." in html

    response = client.post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": "1"},
        follow=True,
    )

    assert "Rolled back: phase 1 is open again." in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).status == "active"


def test_a_finished_battle_whose_ship_was_repaired_since_is_not_rolled_back(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """NW-CAMP-06: the roll back would undo the repair while it stayed in her record."""
    _resolve(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=game.battle, user=game.umpire, winner="britain")
    kgv = game.campaign.ships.get(ship__name="King George V")
    services.campaign_ship_repair(campaign_ship=kgv, user=game.umpire, reason="Dry dock", status="withdrawn")

    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": "1"},
        follow=True,
    )

    assert escape(
        "King George V was repaired after this battle ended: rolling it back would undo the repair. Nothing "
        "was rolled back; the battle stays over."
    ) in _html(response)
    assert Battle.objects.get(pk=game.battle.pk).status == "finished"
    kgv.refresh_from_db()
    assert kgv.status == "withdrawn"


def test_an_edit_shows_what_it_changed(game: Any) -> None:
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="kgv",
        user=game.umpire,
        changes={"speed": 1, "sheet": {"damage": 3}},
        reason="Boiler room flooded",
    )
    # an edit that changed nothing (refused since; older rows stay in the log)
    kgv = rules.to_json(rules.from_json(rules.BattleState, game.battle.state).ship("kgv"))
    ShipEdit.objects.create(
        battle=game.battle,
        battle_ship=game.battle.ships.get(ship_key="kgv"),
        phase=game.phase,
        umpire=game.umpire,
        reason="Nothing",
        before=kgv,
        after=kgv,
    )
    for url in (
        reverse("battles:battle_log", args=[game.battle.pk]),
        reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"]),
    ):
        html = _html(_client(game.players["britain"]).get(url))
        assert (
            'Boiler room flooded <span class="mono">(sheet damage: 0 -&gt; 3; speed: 2.0 -&gt; 1.0)</span>'
            in html
        )
        assert "Nothing (nothing changed)" in html


def test_an_observer_reads_what_every_side_knows_of_a_ship(game: Any) -> None:
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    html = _html(_client(observer).get(reverse("battles:ship_sheet", args=[game.battle.pk, "bismarck"])))
    assert "What every side knows" in html and "What your side knows" not in html


def test_after_a_roll_back_the_log_opens_on_the_phase_in_play(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _resolve(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=game.battle, user=game.umpire)  # phase 2 superseded, not played
    services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)  # phase 1 open again

    html = _html(_client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk])))

    assert "<h2>Phase 1, turn 1: Open for orders</h2>" in html  # (a one-phase turn's phase is not named)


def test_the_log_lists_an_edit_on_the_page_of_the_phase_it_was_made_in(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """An edit belongs to the phase in play when it was made (its orders were checked, and it was resolved,
    against the edited ship): that phase's log page lists it, the next phase's does not."""
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="kgv",
        user=game.umpire,
        changes={"speed": 1},
        reason="Boiler room flooded",
    )
    second = _resolve(game, django_capture_on_commit_callbacks)  # (the phase opened after the first)
    services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 2}, reason="Boilers mended"
    )
    client = _client(game.umpire)
    log = reverse("battles:battle_log", args=[game.battle.pk])

    page_1 = _html(client.get(log, {"phase": second.number - 1}))
    page_2 = _html(client.get(log, {"phase": second.number}))

    assert "Boiler room flooded" in page_1 and "Boilers mended" not in page_1
    assert "Boilers mended" in page_2 and "Boiler room flooded" not in page_2
    assert "Umpire's edits in this phase" in page_2
    # the ship's own page lists every edit of hers
    ship_page = _html(client.get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])))
    assert "Boiler room flooded" in ship_page and "Boilers mended" in ship_page


def test_edits_made_before_they_named_their_phase_get_the_phase_then_in_play(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Migration 0006: an older edit (no phase) is given the battle's latest phase opened before it."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("battles.migrations.0006_ship_edit_phase")
    edit = services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 1}, reason="Old edit"
    )
    first = edit.phase
    second = _resolve(game, django_capture_on_commit_callbacks)
    late = services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 2}, reason="Later edit"
    )
    ShipEdit.objects.update(phase=None)

    migration.edits_to_phases(apps, None)

    assert ShipEdit.objects.get(pk=edit.pk).phase == first
    assert ShipEdit.objects.get(pk=late.pk).phase == second


def test_the_umpires_deadline_is_when_the_phase_closes_after_a_sides_extension(game: Any) -> None:
    """The sweep closes a phase at the last deadline of the sides not ready: after one side's extension that
    is hers, not the phase's own, and the umpire's page says so; a player of the other side reads her own."""
    general = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    own = general + timedelta(hours=24)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=general)
    services.phase_extend_deadline(
        phase=game.phase, user=game.umpire, deadline=own, side=game.side("germany")
    )
    url = reverse("battles:battle", args=[game.battle.pk])

    umpire = _html(_client(game.umpire).get(url))
    british = _html(_client(game.players["britain"]).get(url))

    def headline(html: str) -> str:
        return re.search(r'<p class="deadline">Deadline: <time datetime="([^"]+)"', html).group(1)  # type: ignore[union-attr]

    assert headline(umpire) == timezone.localtime(own, UTC).isoformat()
    assert 'id="deadline-changed"' in umpire
    assert headline(british) == timezone.localtime(general, UTC).isoformat()
    assert 'id="deadline-changed"' not in british
    # once Germany is ready, the phase waits for Britain alone: her deadline, the phase's own
    PhaseSide.objects.filter(phase=game.phase, side__key="germany").update(ready=True)
    umpire = _html(_client(game.umpire).get(url))
    assert headline(umpire) == timezone.localtime(general, UTC).isoformat()
    assert 'id="deadline-changed"' not in umpire


def test_the_umpires_dashboard_lists_the_battles_in_play_a_failed_phase_first(game: Any) -> None:
    """The umpire keeps the campaign moving: the dashboard lists each battle they umpire with its phase in
    play, how many sides are ready and when it closes; a phase whose resolution failed comes first and says
    it needs the umpire. A player's dashboard has no such list."""
    deadline = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    Phase.objects.filter(pk=game.phase.pk).update(deadline=deadline)
    PhaseSide.objects.filter(phase=game.phase, side__key="germany").update(ready=True)
    other = scenario_campaign()  # a second campaign of the same umpire's
    services.membership_add(campaign=other.campaign, user=game.umpire, role="umpire")
    Phase.objects.filter(pk=other.phase.pk).update(status="failed", error="boom")
    url = reverse("battles:dashboard")

    html = _html(_client(game.umpire).get(url))

    section = html[html.index('id="umpired"') : html.index('id="battles"')]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", section)[1:]  # (the header row first)
    assert len(rows) == 2
    assert "Resolution failed: needs you" in rows[0] and f"/battles/{other.battle.pk}/#umpire" in rows[0]
    assert "Open for orders" in rows[1] and "1 of 2" in rows[1]
    assert f'datetime="{timezone.localtime(deadline, UTC).isoformat()}"' in rows[1]
    assert 'id="umpired"' not in _html(_client(game.players["britain"]).get(url))


def test_after_resolution_a_side_reads_no_orders_of_ships_it_never_saw(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A2: orders are secret until the phase resolves, and a ship hidden all phase long (at night) stays
    hidden with her orders: the US player's log lists no order of a Japanese ship the US never saw; the
    Japanese player reads her own side's, the umpire every one."""
    from rules.model import BattleState

    game = scenario_campaign("guadalcanal_1942")
    phase = game.phase
    state = rules.from_json(BattleState, phase.state_before)
    rs = rules.get_ruleset(state.ruleset)
    japanese = [s for s in state.ships if s.side == "japan"]
    for s in japanese:
        services.orders_submit(
            phase=phase,
            user=game.players["japan"],
            ship_key=s.id,
            data=rs.default_order(state, s, "hold").data,
        )
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    phase.refresh_from_db()
    after = rules.from_json(BattleState, phase.state_after)
    seen = {s.id for s in rs.view_for(state, "usa").ships} | {s.id for s in rs.view_for(after, "usa").ships}
    hidden = [s for s in japanese if s.id not in seen]
    assert hidden, "some Japanese ships stay out of the US side's sight all the first phase"
    url = reverse("battles:battle_log", args=[game.battle.pk])

    def ordered(user: Any) -> set[str]:
        html = _html(_client(user).get(url, {"phase": phase.number}))
        found = re.search(r"<h3[^>]*>Orders", html)
        table = html[found.start() :] if found else ""
        return {s.name for s in japanese if f"<td>{escape(s.name)}</td>" in table}

    assert ordered(game.players["usa"]) == {s.name for s in japanese if s.id in seen}
    assert ordered(game.players["japan"]) == {s.name for s in japanese}
    assert ordered(game.umpire) == {s.name for s in japanese}


@pytest.mark.parametrize("number", ["1_0", "\u0661", "1.5", "9" * 5000])
def test_a_roll_back_number_is_a_plain_whole_number(
    django_capture_on_commit_callbacks: Any, number: str
) -> None:
    """int() read 1_0 as 10 and an Arabic-Indic one as 1 (the forms take plain ASCII numbers only)."""
    game = scenario_campaign(settings={"default_orders": "hold"})  # no fire: the battle goes on to phase 2
    second = _resolve(game, django_capture_on_commit_callbacks)
    response = _client(game.umpire).post(
        reverse("battles:umpire", args=[game.battle.pk]),
        {"action": "rollback", "to_number": number},
        follow=True,
    )
    assert response.status_code == 200
    html = _html(response)
    assert "Give the phase number to roll back to as a whole number. Nothing was rolled back." in html
    assert not Phase.objects.get(pk=second.pk).superseded
    assert not Phase.objects.filter(battle=game.battle, superseded=True).exists()


@pytest.mark.parametrize(("to_number", "undone"), [(1, True), (2, False)])
def test_a_ship_edit_a_roll_back_undid_is_marked_undone_on_her_sheet(
    django_capture_on_commit_callbacks: Any, to_number: int, undone: bool
) -> None:
    """NW-CAMP-27 (fresh-user check: a roll back undid four edits and her sheet listed them as if they
    stood). An edit made in phase 2 is undone by a roll back to phase 1, and kept by one to phase 2 (which
    opens again from its state before, the edit in it)."""
    game = scenario_campaign(settings={"default_orders": "hold"})
    _resolve(game, django_capture_on_commit_callbacks)  # phase 2 open
    services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 1}, reason="Boiler trouble"
    )
    _resolve(game, django_capture_on_commit_callbacks)  # phase 3 open
    services.battle_rollback(battle=game.battle, user=game.umpire, to_number=to_number)

    html = _html(_client(game.umpire).get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])))
    speed = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state).ship("kgv").speed
    assert (speed == 1) is not undone
    assert "Boiler trouble" in html
    assert ("Undone by a roll back to before phase 2." in html) is undone
