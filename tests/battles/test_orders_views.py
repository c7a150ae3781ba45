"""Orders from the browser (battles/order_views.py), for each of the five rule sets.

One bundled scenario per rule set, set up with fixed dice (``secrets.randbits`` patched) so the previews and
the side that moves first in sail_1700 are the same on every run. Each case gives a valid order of one ship of
the player's side and the form post that makes it; the bad-input matrix posts forged or malformed orders and
checks the exact status and message, and that the order saved before is untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from html import unescape as html_unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from battles import services
from battles.models import Order, Phase, PhaseSide
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@dataclass(frozen=True)
class Case:
    """A rule set, a scenario, a ship of ``side`` and the orders that test it."""

    ruleset: str
    scenario: str
    side: str
    ship: str
    name: str
    enemy: str
    valid: dict[str, str]
    saved: dict[str, Any]
    preview: str
    over_max: dict[str, str]
    over_max_error: tuple[str, str]
    bad_target: dict[str, str]
    bad_target_error: str
    text_in_number: dict[str, str] | None = None
    text_error: str = ""
    options: dict[str, list[str]] = field(default_factory=dict)


CASES = [
    Case(
        ruleset="ww2_jackson",
        scenario="denmark_strait_1941",
        side="britain",
        ship="hood",
        name="Hood",
        enemy="bismarck",
        valid={
            "course": "300",
            "speed": "20",
            "turn_direction": "starboard",
            "target_main": "bismarck",
            "cleared_for_action": "true",
            "damage_preference": "spare_main",
        },
        saved={
            "course": 300.0,
            "speed": 20.0,
            "turn_direction": "starboard",
            "target_main": "bismarck",
            "cleared_for_action": True,
            "damage_preference": "spare_main",
        },
        preview="15-inch: BFN 4 -&gt; MFN 2 D20, hits on 16+ at long range, -1 target ship at high speed "
        "(25 knots or more), -3 target just acquired this turn (first time fired on, A6)",
        over_max={"course": "300", "speed": "30"},
        over_max_error=("Not allowed:", "Hood can make at most 27 knots now (W38)."),
        bad_target={"course": "300", "speed": "20", "target_secondary": "bismarck"},
        bad_target_error="Hood cannot fire its secondary battery at Bismarck: Bismarck is beyond the "
        "secondary battery's range (60.0 in).",
        text_in_number={"course": "300", "speed": "fast"},
        text_error="Enter a number.",
        options={"target_main": ["", "prinz_eugen", "bismarck"], "target_secondary": [""]},
    ),
    Case(
        ruleset="ultra_simple",
        scenario="bismarck_last_battle_1941",
        side="britain",
        ship="kgv",
        name="King George V",
        enemy="bismarck",
        valid={"hexes": "1", "turn": "30", "turn_after": "0", "target": "bismarck"},
        saved={"hexes": 1, "turn": 30, "turn_after": 0, "target": "bismarck"},
        preview="14-inch: 10 guns (broadside) -&gt; 9 D6, hits on 6+ at 6 hexes",
        over_max={"hexes": "3"},
        over_max_error=("Invalid:", "Must be at most 2."),
        bad_target={"hexes": "1", "target": "rodney"},
        bad_target_error="Rodney is on your side.",
        text_in_number={"hexes": "two"},
        text_error="Enter a whole number.",
        options={"target": ["", "bismarck"]},
    ),
    Case(
        ruleset="memoir_sea",
        scenario="santiago_de_cuba_1898",
        side="spain",
        ship="teresa",
        name="Infanta Maria Teresa",
        enemy="indiana",
        valid={"course": "FF", "target": "gloucester"},
        saved={"course": "FF", "target": "gloucester"},
        preview="Guns: Gloucester at 4 hexes abeam -&gt; 3 Memoir dice (full effect, M04-M06).",
        over_max={"course": "FFFF"},
        over_max_error=("Not allowed:", "The course costs 4 hexes; the ship moves 3 (Movement, M10)."),
        bad_target={"course": "F", "target": "brooklyn"},
        bad_target_error="Brooklyn is 7 hexes away ahead: no die left at that range "
        "(countdown 3-3-2-2-1-1, M05).",
        options={"target": ["", "gloucester", "indiana", "oregon"], "torpedo": [""]},
    ),
    Case(
        ruleset="acw_river",
        scenario="first_memphis_1862",
        side="union",
        ship="benton",
        name="Benton",
        enemy="van_dorn",
        valid={"course": "F", "astern": "true", "fire_rear": "price"},
        saved={"course": "F", "astern": True, "fire_rear": "price"},
        preview="Rear: 2 D6 at General Sterling Price after movement; 5-6 hit at 1-7 hexes, 6 at 8-10; every "
        "6 is confirmed (A05, A06).",
        over_max={"course": "FFFFF"},
        over_max_error=(
            "Not allowed:",
            "The course costs 5 hexes (turning included, A08); Benton has 1 this move after reversing "
            "engines (A09).",
        ),
        bad_target={"course": "F", "astern": "true", "fire_front": "louisville"},
        bad_target_error="Louisville is on your side.",
        options={"ram": [""]},
    ),
    Case(
        ruleset="sail_1700",
        scenario="sail_constitution_vs_guerriere_1812",
        side="usa",
        ship="constitution",
        name="Constitution",
        enemy="guerriere",
        valid={"turn": "0", "speed": "120"},
        saved={"turn": 0.0, "speed": 120.0},
        preview="Sail: 120 mm (between 80 and 160), ends at (985, 695) heading 135; wind 180 degrees off the "
        "bow (aft).",
        over_max={"turn": "0", "speed": "290"},
        over_max_error=("Not allowed:", "At most 160 mm this move (6., 7.)."),
        bad_target={"turn": "0", "speed": "120", "target": "guerriere"},
        bad_target_error="No loaded broadside bears on Guerriere within range during this move (11., S12).",
        text_in_number={"turn": "0", "speed": "far"},
        text_error="Enter a number.",
        options={"target": [""], "tow": [""]},
    ),
]
IDS = [c.ruleset for c in CASES]


@pytest.fixture(autouse=True)
def _fixed_setup_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set battles up (and seed phases) from a fixed number: the same wind, initiative and seeds every run."""
    from battles import services as battle_services

    monkeypatch.setattr(battle_services.secrets, "randbits", lambda bits: 12345)


def _game(case: Case) -> Any:
    game = scenario_campaign(case.scenario)
    assert game.phase.status == "open" and case.side in game.phase.sides
    return game


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html(response: Any) -> str:
    return response.content.decode()


def _url(name: str, game: Any, ship: str) -> str:
    return reverse(f"battles:{name}", args=[game.battle.pk, ship])


def _post(client: Client, name: str, game: Any, ship: str, data: dict[str, str], **kwargs: Any) -> Any:
    return client.post(_url(name, game, ship), {"phase": str(game.phase.pk), **data}, **kwargs)


def _errors(html: str) -> list[tuple[str, str]]:
    import re

    return re.findall(r'<p class="error[^"]*"><span class="error-kind">([^<]*)</span> ([^<]*)</p>', html)


def _options(html: str, ship: str, name: str) -> list[str]:
    import re

    match = re.search(rf'<select name="{name}"[^>]*id="o-{ship}-{name}">(.*?)</select>', html, re.S)
    assert match, f"no select {name} for {ship}"
    return re.findall(r'<option value="([^"]*)"', match.group(1))


# --- valid orders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_valid_orders_are_saved_with_htmx_and_the_panel_says_so(case: Case) -> None:
    game = _game(case)

    response = _post(_client(game.players[case.side]), "order_save", game, case.ship, case.valid, headers=HX)

    html = _html(response)
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<details class="ship-orders ship-orders--saved" id="ship-{case.ship}"')
    assert f"Orders saved for {escape(case.name)}." in html
    assert case.preview in html
    order = Order.objects.get(phase=game.phase, battle_ship__ship_key=case.ship)
    assert order.data == case.saved
    assert order.submitted_by == game.players[case.side]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_plain_post_saves_and_redirects_to_the_ship_with_a_message(case: Case) -> None:
    game = _game(case)
    client = _client(game.players[case.side])

    response = _post(client, "order_save", game, case.ship, case.valid)
    page = client.get(response["Location"])

    assert response.status_code == 302
    assert response["Location"] == reverse("battles:battle", args=[game.battle.pk]) + f"#ship-{case.ship}"
    assert f"Orders saved for {escape(case.name)}." in _html(page)
    assert Order.objects.get(battle_ship__ship_key=case.ship).data == case.saved


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_check_shows_errors_and_preview_and_saves_nothing(case: Case) -> None:
    game = _game(case)
    client = _client(game.players[case.side])

    good = _post(client, "order_check", game, case.ship, case.valid, headers=HX)
    bad = _post(client, "order_check", game, case.ship, case.over_max, headers=HX)

    assert good.status_code == 200 and bad.status_code == 200
    assert "These orders are legal. Save them to send them." in _html(good)
    assert case.preview in _html(good)
    assert _errors(_html(bad)) == [(case.over_max_error[0], escape(case.over_max_error[1]))]
    assert not Order.objects.exists()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_target_selects_list_only_legal_targets(case: Case) -> None:
    game = _game(case)
    client = _client(game.players[case.side])

    page = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    # A fleet of more than three ships is folded: the ship's form is what opening it loads (order_panel).
    folded = f'class="ship-orders ship-orders--folded" id="ship-{case.ship}"' in page
    html = _html(client.get(_url("order_panel", game, case.ship), headers=HX)) if folded else page

    for name, values in case.options.items():
        assert _options(html, case.ship, name) == values


# --- forged and bad input --------------------------------------------------------------------------------


def _bad_inputs(case: Case) -> list[Any]:
    rows = [
        pytest.param(
            case,
            case.enemy,
            {**case.valid},
            None,
            404,
            "There is no such ship under your command in this battle.",
            id=f"{case.ruleset}-another-sides-ship",
        ),
        pytest.param(
            case,
            "no_such_ship",
            {**case.valid},
            None,
            404,
            "There is no such ship under your command in this battle.",
            id=f"{case.ruleset}-unknown-ship",
        ),
        pytest.param(
            case, case.ship, case.over_max, None, 400, case.over_max_error[1], id=f"{case.ruleset}-over-max"
        ),
        pytest.param(
            case,
            case.ship,
            case.bad_target,
            None,
            400,
            case.bad_target_error,
            id=f"{case.ruleset}-illegal-target",
        ),
        pytest.param(
            case,
            case.ship,
            {**case.valid, next(iter(case.options)): "ghost"},
            None,
            400,
            "Choose one of the listed targets.",
            id=f"{case.ruleset}-made-up-target",
        ),
        pytest.param(
            case,
            case.ship,
            {**case.valid, "x": "y" * 40_000},
            None,
            413,
            "The request is too large",
            id=f"{case.ruleset}-huge-payload",
        ),
        pytest.param(
            case,
            case.ship,
            case.valid,
            "deadline",
            409,
            "The deadline for this phase has passed: orders are no longer accepted.",
            id=f"{case.ruleset}-after-the-deadline",
        ),
        pytest.param(
            case,
            case.ship,
            case.valid,
            "closed",
            409,
            "This phase is closed: orders are no longer accepted.",
            id=f"{case.ruleset}-closed-phase",
        ),
        pytest.param(
            case,
            case.ship,
            case.valid,
            "sunk",
            400,
            f"{case.name} is sunk and takes no orders.",
            id=f"{case.ruleset}-sunk-ship",
        ),
        pytest.param(
            case,
            case.ship,
            case.valid,
            "no_phase",
            400,
            "The form does not say which phase it is for; reload the page.",
            id=f"{case.ruleset}-no-phase",
        ),
    ]
    if case.text_in_number is not None:
        rows.append(
            pytest.param(
                case,
                case.ship,
                case.text_in_number,
                None,
                400,
                case.text_error,
                id=f"{case.ruleset}-text-in-a-number",
            )
        )
    return rows


BAD = [row for case in CASES for row in _bad_inputs(case)]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("case", "ship", "data", "setup", "status", "message"), BAD)
def test_bad_input_is_refused_with_a_message_and_the_saved_order_stays(
    case: Case, ship: str, data: dict[str, str], setup: str | None, status: int, message: str, htmx: bool
) -> None:
    game = _game(case)
    player = game.players[case.side]
    saved = services.orders_submit(phase=game.phase, user=player, ship_key=case.ship, data=case.saved)
    post = {"phase": str(game.phase.pk), **data}
    if setup == "deadline":
        past = timezone.now() - timedelta(minutes=1)
        Phase.objects.filter(pk=game.phase.pk).update(deadline=past)
    elif setup == "closed":
        Phase.objects.filter(pk=game.phase.pk).update(status="resolving")
    elif setup == "sunk":
        services.battle_ship_edit(
            battle=game.battle,
            ship_key=case.ship,
            user=game.umpire,
            changes={"status": "sunk"},
            reason="test",
        )
    elif setup == "no_phase":
        post.pop("phase")

    response = _client(player).post(_url("order_save", game, ship), post, headers=HX if htmx else {})

    assert response.status_code == status
    assert escape(message) in _html(response)
    assert "Traceback" not in _html(response)
    order = Order.objects.get(pk=saved.pk)
    assert (order.data, order.updated_at) == (case.saved, saved.updated_at)
    assert Order.objects.count() == 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_bad_order_posted_without_javascript_shows_the_page_with_the_form_and_its_errors(
    case: Case,
) -> None:
    game = _game(case)

    response = _post(_client(game.players[case.side]), "order_save", game, case.ship, case.over_max)

    html = _html(response)
    assert response.status_code == 400
    assert "<html" in html and 'id="orders"' in html
    assert (case.over_max_error[0], escape(case.over_max_error[1])) in _errors(html)
    assert "The orders have errors: nothing was saved." in html


def test_a_form_for_a_phase_resolved_since_is_not_applied_to_the_next_phase(
    django_capture_on_commit_callbacks: Any,
) -> None:
    case = CASES[1]
    game = _game(case)
    first = game.phase
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    assert game.phase.number == 2

    response = _client(game.players["britain"]).post(
        _url("order_save", game, "kgv"), {"phase": str(first.pk), **case.valid}, headers=HX
    )

    assert response.status_code == 409
    assert _html(response) == "This phase is closed: orders are no longer accepted."
    assert not Order.objects.exists()


def test_too_many_fields_is_a_400_not_a_500() -> None:
    game = _game(CASES[0])
    body = "&".join(f"f{i}=1" for i in range(1500))

    response = _client(game.players["britain"]).post(
        _url("order_save", game, "hood"), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert not Order.objects.exists()


def test_a_ship_under_another_players_command_is_404_for_me() -> None:
    game = _game(CASES[1])
    other = UserFactory()
    services.membership_add(campaign=game.campaign, user=other, role="player", side=game.side("britain"))
    kgv = game.battle.ships.get(ship_key="kgv").campaign_ship
    services.campaign_ship_assign(campaign_ship=kgv, user=game.umpire, commander=other)

    mine = _post(_client(game.players["britain"]), "order_save", game, "kgv", CASES[1].valid, headers=HX)
    page = _html(_client(game.players["britain"]).get(reverse("battles:battle", args=[game.battle.pk])))
    theirs = _post(_client(other), "order_save", game, "kgv", CASES[1].valid, headers=HX)

    assert mine.status_code == 404
    assert 'id="ship-kgv"' not in page and 'id="ship-rodney"' in page
    assert f"Under other captains of your side: King George V ({other.username})." in page
    assert theirs.status_code == 200


def test_an_observer_and_an_outsider_give_no_orders() -> None:
    game = _game(CASES[1])
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")

    as_observer = _post(_client(observer), "order_save", game, "kgv", CASES[1].valid, headers=HX)
    as_outsider = _post(_client(UserFactory()), "order_save", game, "kgv", CASES[1].valid, headers=HX)

    assert as_observer.status_code == 404 and as_outsider.status_code == 404
    assert not Order.objects.exists()


def test_the_umpire_may_order_any_ship() -> None:
    game = _game(CASES[1])

    response = _post(_client(game.umpire), "order_save", game, "bismarck", {"hexes": "2"}, headers=HX)

    assert response.status_code == 200
    assert Order.objects.get(battle_ship__ship_key="bismarck").data == {"hexes": 2}


# --- clear, repeat, standing orders ----------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_withdrawing_orders_leaves_the_ship_to_its_default_orders(case: Case) -> None:
    game = _game(case)
    player = game.players[case.side]
    services.orders_submit(phase=game.phase, user=player, ship_key=case.ship, data=case.saved)

    response = _post(_client(player), "order_clear", game, case.ship, {}, headers=HX)
    again = _post(_client(player), "order_clear", game, case.ship, {})

    assert response.status_code == 200
    assert f"Orders withdrawn for {escape(case.name)}: default orders apply." in _html(response)
    assert "no orders yet: defaults apply" in _html(response)
    assert not Order.objects.exists()
    assert again.status_code == 302


def _resolve_first_phase(game: Any, capture: Any) -> None:
    with capture(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    assert game.phase.number == 2 and game.phase.status == "open"


def test_repeat_last_orders_copies_the_previous_phase_order(django_capture_on_commit_callbacks: Any) -> None:
    game = _game(CASES[2])
    player = game.players["spain"]
    services.orders_submit(phase=game.phase, user=player, ship_key="teresa", data={"course": "FLF"})
    _resolve_first_phase(game, django_capture_on_commit_callbacks)
    client = _client(player)

    form = _html(client.get(_url("order_panel", game, "teresa"), headers=HX))  # Spain's six ships are folded
    response = _post(client, "order_repeat", game, "teresa", {}, headers=HX)

    assert "Repeat last orders</button>" in form
    assert response.status_code == 200
    assert "Infanta Maria Teresa repeats her orders of phase 1." in _html(response)
    assert Order.objects.get(phase=game.phase, battle_ship__ship_key="teresa").data == {"course": "FLF"}


def test_repeat_without_earlier_orders_says_so() -> None:
    game = _game(CASES[2])

    response = _post(_client(game.players["spain"]), "order_repeat", game, "teresa", {}, headers=HX)

    assert response.status_code == 400
    assert _html(response) == "Infanta Maria Teresa has no earlier orders to repeat."
    assert not Order.objects.exists()


def test_repeat_of_orders_the_rules_no_longer_allow_shows_them_with_the_errors(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(CASES[2])
    player = game.players["spain"]
    services.orders_submit(phase=game.phase, user=player, ship_key="teresa", data={"target": "indiana"})
    _resolve_first_phase(game, django_capture_on_commit_callbacks)
    services.battle_ship_edit(
        battle=game.battle, ship_key="indiana", user=game.umpire, changes={"status": "sunk"}, reason="test"
    )

    response = _post(_client(player), "order_repeat", game, "teresa", {}, headers=HX)

    html = _html(response)
    assert response.status_code == 400
    assert _errors(html) == [("Not allowed:", "Indiana is sunk.")]
    assert "The orders have errors: nothing was saved." in html
    assert '<option value="indiana" selected>Indiana (not allowed now)</option>' in html
    assert not Order.objects.filter(phase=game.phase).exists()


def test_ww2_standing_orders_prefill_the_form_and_fill_an_order_saved_without_them(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(CASES[0])
    player = game.players["britain"]
    services.orders_submit(
        phase=game.phase,
        user=player,
        ship_key="hood",
        data={"course": 300, "speed": 20, "damage_preference": "spare_guns"},
    )
    _resolve_first_phase(game, django_capture_on_commit_callbacks)
    client = _client(player)

    page = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    response = _post(client, "order_save", game, "hood", {"course": "290", "speed": "18"}, headers=HX)

    assert '<option value="spare_guns" selected>spare guns</option>' in page  # from Hood's sheet
    assert response.status_code == 200
    assert Order.objects.get(phase=game.phase, battle_ship__ship_key="hood").data == {
        "course": 290.0,
        "speed": 18.0,
        "cleared_for_action": True,
        "damage_preference": "spare_guns",
    }
    assert game.battle.ships.get(ship_key="hood").campaign_ship.sheet["preference"] == "spare_guns"


def test_ww2_speed_input_is_bounded_by_what_the_damaged_ship_can_make() -> None:
    game = _game(CASES[0])
    state = game.phase.state_before
    hood = next(s for s in state["ships"] if s["id"] == "hood")
    marked = hood["sheet"]["marked"]
    services.battle_ship_edit(
        battle=game.battle,
        ship_key="hood",
        user=game.umpire,
        # Two of four engine rooms gone (the rules' speed, W38) and the sheet's note of it, as a resolution
        # leaves them.
        changes={"sheet": {**hood["sheet"], "marked": {**marked, "engine": 2}, "max_speed": 13.5}},
        reason="half the engine rooms flooded",
    )
    client = _client(game.players["britain"])

    page = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    full = _post(client, "order_save", game, "hood", {"course": "300", "speed": "27"}, headers=HX)

    assert 'name="speed" value="13.5" step="any" min="0" max="13.5"' in page
    assert "Legal now: 0 to 13.5 knots. Hood can make 13.5 knots now" in page
    assert full.status_code == 400
    assert ("Not allowed:", "Hood can make at most 13.5 knots now (W38).") in _errors(_html(full))
    # Above the old top of the field (45): the same message, not "Must be at most 45 knots."
    fast = _post(client, "order_save", game, "hood", {"course": "300", "speed": "50"}, headers=HX)
    assert fast.status_code == 400
    assert _errors(_html(fast)) == [("Not allowed:", "Hood can make at most 13.5 knots now (W38).")]


def test_ww2_a_torpedo_mount_hood_lacks_is_refused_next_to_the_mount_naming_hers() -> None:
    game = _game(CASES[0])
    client = _client(game.players["britain"])

    response = _post(client, "order_save", game, "hood", {**CASES[0].valid, "torpedo_mount": "7"}, headers=HX)

    html = _html(response)
    assert response.status_code == 400
    assert _errors(html) == [
        (
            "Not allowed:",
            "Hood has no torpedo mount 7: her mounts are 0 (port mount 1), 1 (starboard mount 1); "
            "-1 launches from every loaded mount that bears.",
        )
    ]
    assert '<div id="o-hood-torpedo_mount-errors">' in html
    assert _options(html, "hood", "torpedo_mount") == ["-1", "0", "1", "7"]  # 7 kept, "(not allowed)"
    assert not Order.objects.exists()


def test_sail_an_unsaved_vessels_distance_starts_empty_as_far_as_she_can_NW_SAIL_38() -> None:
    """The hold default keeps the last move's distance (A7); the form leaves Distance empty (the rules read
    it as "as far as she can"): a distance copied from the default order went stale when the turn changed,
    and Guerriere, hove to at the start (0 mm), showed 0, with which any turn ordered did nothing."""
    import rules
    from battles.order_forms import initial_data, phase_state

    game = _game(CASES[4])
    state = phase_state(game.phase)
    rs = rules.get_ruleset(state.ruleset)
    guerriere, constitution = state.ship("guerriere"), state.ship("constitution")

    page = _html(_client(game.players["usa"]).get(reverse("battles:battle", args=[game.battle.pk])))

    assert rs.default_order(state, guerriere, "hold").data == {"turn": 0.0, "speed": 0.0}  # A7 unchanged
    assert "speed" not in initial_data(rs, state, guerriere, None, {})
    assert initial_data(rs, state, constitution, None, {})["turn"] == 0.0
    assert '<input type="number" name="speed" step="any" min="80" max="160"' in page  # no value="160"
    assert "Sail: 160 mm (between 80 and 160)" in page


def test_a_class_name_that_says_class_is_not_doubled_in_the_ship_summary() -> None:
    game = _game(CASES[3])  # acw_river, First Memphis: Louisville is of the "City class ironclad"

    html = _html(_client(game.players["union"]).get(reverse("battles:battle", args=[game.battle.pk])))

    assert html.count('<span class="ship-orders__class muted">City class ironclad</span>') == 4
    assert '<span class="ship-orders__class muted">Ellet ram class</span>' in html  # Queen of the West
    assert "class class" not in html


def test_acw_a_course_in_small_letters_is_saved_and_a_malformed_one_says_what_a_course_is() -> None:
    """NW-ACW-20: "f" is the course F (it was refused as "not f"), saved as "F" (NW-ACW-21); "F F" is told
    what a course is, with an example (it was "Use only F (one hex), L and R (30-degree turns); not  .")."""
    game = _game(CASES[3])
    client = _client(game.players["union"])
    order = {"astern": "true", "fire_rear": "price"}

    spaced = _post(client, "order_save", game, "benton", {**order, "course": "F F"}, headers=HX)
    small = _post(client, "order_save", game, "benton", {**order, "course": "f"}, headers=HX)

    assert spaced.status_code == 400
    assert _errors(_html(spaced)) == [
        (
            "Not allowed:",
            "Write the course as letters only, F (one hex), L and R (a 30-degree turn to port or starboard), "
            "for example FFRF; this one has a space.",
        )
    ]
    assert small.status_code == 200 and "Orders saved for Benton." in _html(small)
    assert "Course F astern: costs 1 hex of her 1 hex" in _html(small)
    # stored as the rule book writes it (NW-ACW-21; it was stored "f" and shown so in the orders table)
    assert Order.objects.get(battle_ship__ship_key="benton").data["course"] == "F"


# --- the side's ready flag and the phase status ----------------------------------------------------------


def test_ready_toggle_with_htmx_and_what_the_other_side_sees() -> None:
    case = CASES[0]
    game = _game(case)
    britain = _client(game.players["britain"])
    services.orders_submit(
        phase=game.phase, user=game.players["britain"], ship_key="hood", data={**case.saved, "course": 301.5}
    )

    response = britain.post(
        reverse("battles:side_ready", args=[game.battle.pk]),
        {"phase": str(game.phase.pk), "ready": "1"},
        headers=HX,
    )
    enemy_page = _html(_client(game.players["germany"]).get(reverse("battles:battle", args=[game.battle.pk])))
    undo = britain.post(
        reverse("battles:side_ready", args=[game.battle.pk]), {"phase": str(game.phase.pk), "ready": "0"}
    )

    html = _html(response)
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="panel phase-status" id="phase"')
    assert "Your side is ready." in html and "Royal Navy: <strong>ready</strong>" in html
    assert 'hx-trigger="every 10s [!document.hidden]"' in html
    assert "Royal Navy: <strong>ready</strong>" in enemy_page
    assert 'id="ship-hood"' not in enemy_page and "301.5" not in enemy_page
    assert 'id="ship-bismarck"' in enemy_page
    assert undo.status_code == 302
    assert PhaseSide.objects.get(phase=game.phase, side__key="britain").ready is False


def test_when_the_last_side_is_ready_the_page_reloads_to_show_the_result(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(CASES[1])
    url = reverse("battles:side_ready", args=[game.battle.pk])
    first = game.phase
    services.side_set_ready(phase=first, user=game.players["britain"])

    with django_capture_on_commit_callbacks(execute=True):
        response = _client(game.players["germany"]).post(
            url, {"phase": str(first.pk), "ready": "1"}, headers=HX
        )

    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"  # the phase closed: the page reloads and shows where it stands
    assert Phase.objects.get(pk=first.pk).status == "resolved"


def test_ready_for_a_closed_phase_is_refused_with_a_message() -> None:
    game = _game(CASES[1])
    Phase.objects.filter(pk=game.phase.pk).update(status="resolving")

    response = _client(game.players["britain"]).post(
        reverse("battles:side_ready", args=[game.battle.pk]), {"phase": str(game.phase.pk)}, headers=HX
    )

    assert response.status_code == 409
    assert services.READY_TOO_LATE in _html(response)  # about readiness, not orders
    assert 'hx-trigger="every 2s [!document.hidden]"' in _html(
        response
    )  # resolving: the page polls for the result


def test_status_poll_answers_the_partial_or_reloads_when_the_phase_changed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(CASES[1])
    client = _client(game.players["britain"])
    first = game.phase
    url = reverse("battles:battle_status", args=[game.battle.pk])

    same = client.get(url, {"phase": first.pk, "status": "open"}, headers=HX)
    Phase.objects.filter(pk=first.pk).update(status="resolving")
    closed = client.get(url, {"phase": first.pk, "status": "open"}, headers=HX)
    polling = client.get(url, {"phase": first.pk, "status": "resolving"}, headers=HX)
    Phase.objects.filter(pk=first.pk).update(status="open")
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    resolved = client.get(url, {"phase": first.pk, "status": "resolving"}, headers=HX)
    plain = client.get(url)

    assert same.status_code == 200 and "HX-Refresh" not in same
    assert "Royal Navy: giving orders" in _html(
        same
    ) and 'hx-trigger="every 10s [!document.hidden]"' in _html(same)
    assert closed["HX-Refresh"] == "true"
    assert 'hx-trigger="every 2s [!document.hidden]"' in _html(polling)
    assert "The orders are in and the phase is being resolved." in _html(polling)
    assert resolved["HX-Refresh"] == "true"
    assert plain.status_code == 302


def test_the_battle_page_shows_the_countdown_and_the_deadline_of_my_side() -> None:
    game = _game(CASES[1])
    phase = game.phase
    deadline = timezone.now().replace(microsecond=0) + timedelta(hours=30)
    PhaseSide.objects.filter(phase=phase, side__key="britain").update(deadline=deadline)

    page = _html(_client(game.players["britain"]).get(reverse("battles:battle", args=[game.battle.pk])))

    assert f'data-deadline="{deadline.isoformat()}"' in page
    assert "(1\xa0day, 5\xa0hours left)" in page
    assert '<script src="/static/js/orders.js" defer></script>' in page
    assert '"code": "40[09]", "swap": true' in page


def test_other_sides_orders_are_never_rendered_before_resolution() -> None:
    game = _game(CASES[0])
    services.orders_submit(
        phase=game.phase,
        user=game.players["germany"],
        ship_key="bismarck",
        data={"course": 123.5, "speed": 21},
    )

    page = _html(_client(game.players["britain"]).get(reverse("battles:battle", args=[game.battle.pk])))
    forged = _client(game.players["britain"]).post(
        _url("order_check", game, "bismarck"), {"phase": str(game.phase.pk)}, headers=HX
    )

    assert "123.5" not in page and 'id="ship-bismarck"' not in page
    assert forged.status_code == 404 and "123.5" not in _html(forged)


def test_check_without_javascript_renders_the_page_with_the_checked_form() -> None:
    case = CASES[0]
    game = _game(case)

    response = _post(_client(game.players["britain"]), "order_check", game, "hood", case.valid)

    html = _html(response)
    assert response.status_code == 200
    assert "<html" in html and 'id="phase"' in html
    assert "These orders are legal. Save them to send them." in html
    assert case.preview in html
    assert 'name="speed" value="20"' in html  # the form keeps what was posted
    assert not Order.objects.exists()


def test_field_errors_are_tied_to_their_inputs_for_screen_readers() -> None:
    case = CASES[0]
    game = _game(case)

    response = _post(_client(game.players["britain"]), "order_check", game, "hood", case.over_max, headers=HX)

    html = _html(response)
    assert 'aria-describedby="o-hood-speed-help o-hood-speed-errors" aria-invalid="true"' in html
    assert '<div id="o-hood-speed-errors"><p class="error error--illegal">' in html
    assert '<label for="o-hood-speed">Speed (knots)</label>' in html


def test_a_check_never_aborts_a_save_of_the_same_form() -> None:
    """The checks (the fields' on change, the Check button) are dropped while the form's save is in flight
    and aborted by a save (htmx ``abort``); with ``replace`` a check 150 ms after the last change cancelled
    the "Save orders" click that caused it (tests/e2e/test_orders_browser.py plays it in Chromium)."""
    game = _game(CASES[0])

    html = _html(_client(game.players["britain"]).get(reverse("battles:battle", args=[game.battle.pk])))

    check = reverse("battles:order_check", args=[game.battle.pk, "hood"])
    assert (
        f'<div class="order-types" hx-post="{check}" hx-trigger="change delay:150ms" '
        'hx-sync="closest form:abort">'
    ) in html
    assert f'hx-post="{check}" hx-sync="closest form:abort">Check</button>' in html
    assert 'hx-swap="outerHTML" hx-sync="this:replace"' in html  # the save replaces a check in flight
    assert "form:replace" not in html


def test_a_select_with_a_long_option_takes_two_columns_of_the_order_fields() -> None:
    """ultra_simple's turn select ("30 degrees to starboard") was cut off in one column (tests/e2e measures
    it in Chromium); "2 hexes" and "before moving" fit one."""
    import re

    game = _game(CASES[1])

    html = _html(_client(game.players["britain"]).get(reverse("battles:battle", args=[game.battle.pk])))

    fields = {
        name: cls
        for cls, name in re.findall(r'<div class="field ([^"]*)">\s*<label for="o-kgv-([a-z_]+)">', html)
    }
    assert fields == {
        "hexes": "field--select",
        "turn": "field--select field--wide",
        "turn_after": "field--select",
        "target": "field--select",
    }


@pytest.mark.parametrize("hexes", ["100000", "-100000"])
def test_an_absurd_number_of_hexes_is_refused_without_previewing_or_listing_it(hexes: str) -> None:
    """A forged ``hexes=100000`` (or 10**24) in ultra_simple is malformed (at most 2, U08): the panel must
    not preview the move hex by hex nor offer "turn after hex 1 ... 100000" (that ate the server's memory)."""
    game = _game(CASES[1])
    client = _client(game.players["britain"])

    response = _post(client, "order_check", game, "kgv", {"hexes": hexes, "turn": "0"}, headers=HX)

    html = _html(response)
    assert response.status_code == 200
    assert ("Invalid:", "Must be at most 2.") in _errors(html) or (
        "Invalid:",
        "Must be at least 1.",
    ) in _errors(html)
    assert _options(html, "kgv", "turn_after") == ["0", "1", "2"]
    assert "Ends at" not in html
    assert len(html) < 50_000
    assert not Order.objects.exists()


# --- a fleet of more than three ships: folded, each ship's form loaded when opened (order_panel) ----------


def test_a_big_fleet_is_folded_and_a_ships_form_loads_when_it_is_opened() -> None:
    case = CASES[2]  # Santiago de Cuba: Spain has six ships
    game = _game(case)
    services.orders_submit(phase=game.phase, user=game.players["spain"], ship_key="teresa", data=case.saved)
    client = _client(game.players["spain"])
    url = _url("order_panel", game, "teresa")

    page = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    htmx = client.get(url, {"phase": game.phase.pk}, headers=HX)
    plain = client.get(url)

    assert page.count('<details class="ship-orders ship-orders--folded') == 6
    assert 'name="ship_key"' not in page  # no form on the page until a ship is opened
    assert (
        '<details class="ship-orders ship-orders--folded ship-orders--saved" id="ship-teresa"\n'
        f'         hx-get="{url}?phase={game.phase.pk}" hx-trigger="toggle once" hx-swap="outerHTML">'
    ) in page
    assert f'<a href="{url}">Orders for Infanta Maria Teresa</a>' in page  # without JavaScript
    assert htmx.status_code == 200
    assert (
        _html(htmx)
        .lstrip()
        .startswith('<details class="ship-orders ship-orders--saved" id="ship-teresa" open>')
    )
    assert "<html" not in _html(htmx) and 'name="ship_key" value="teresa"' in _html(htmx)
    assert '<option value="gloucester" selected>' in _html(htmx)  # the saved order
    assert plain.status_code == 200
    assert "<h1>Orders for Infanta Maria Teresa</h1>" in _html(plain)
    assert f'action="{_url("order_save", game, "teresa")}"' in _html(plain)
    assert '<option value="gloucester" selected>' in _html(plain)


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_another_sides_ships_orders_page_is_no_ship_at_all(headers: dict[str, str]) -> None:
    import re

    game = _game(CASES[2])
    client = _client(game.players["spain"])

    theirs = client.get(_url("order_panel", game, "indiana"), headers=headers)
    nothing = client.get(_url("order_panel", game, "no_such_ship"), headers=headers)

    def text(response: Any) -> str:  # the CSRF token differs from one answer to the next
        return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", _html(response))

    assert theirs.status_code == nothing.status_code == 404
    assert "There is no such ship under your command in this battle." in _html(theirs)
    assert text(theirs) == text(nothing)
    assert "indiana" not in _html(theirs).lower()


def test_a_ships_form_asked_for_a_closed_phase_reloads_the_page_or_says_so(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(CASES[2])
    first = game.phase
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    assert game.phase.number == 2 and game.phase.status == "open"
    client = _client(game.players["spain"])
    url = _url("order_panel", game, "teresa")

    htmx = client.get(url, {"phase": first.pk}, headers=HX)
    plain = client.get(url, {"phase": first.pk})
    current = client.get(url)
    forged = client.get(url, {"phase": "1 OR 1=1"})

    assert htmx.status_code == 200 and htmx["HX-Refresh"] == "true"
    assert plain.status_code == 409
    assert "This phase is closed: orders are no longer accepted." in _html(plain)
    assert current.status_code == 200 and f'name="phase" value="{game.phase.pk}"' in _html(current)
    assert forged.status_code == 404 and "There is no such phase in this battle." in _html(forged)


def test_after_my_sides_deadline_the_page_says_orders_are_final_and_offers_no_ready_toggle() -> None:
    game = _game(CASES[1])
    phase = game.phase
    PhaseSide.objects.filter(phase=phase, side__key="britain").update(
        deadline=timezone.now() - timedelta(minutes=5)
    )
    url = reverse("battles:battle", args=[game.battle.pk])

    mine = _html(_client(game.players["britain"]).get(url))
    other = _html(_client(game.players[next(k for k in game.players if k != "britain")]).get(url))

    assert 'id="deadline-passed"' in mine and "(passed)" in mine
    assert "orders can no longer be saved or changed in this phase" in mine
    assert 'id="ready-toggle"' not in mine and "left)</span>" not in mine
    # the other side's deadline is the phase's (none here): it still orders and may say it is ready
    assert 'id="deadline-passed"' not in other and 'id="ready-toggle"' in other
    assert "Royal Navy: orders closed (deadline passed)" in other and "Royal Navy: giving orders" not in other


def test_after_my_sides_deadline_the_order_form_shows_the_orders_without_save_and_ready_says_why() -> None:
    """A fresh-user check found Save, Check and Repeat still offered after the side's deadline (each answered
    409), and the refused ready saying the phase had closed while it waited for the other side."""
    case = CASES[1]
    game = _game(case)
    phase = game.phase
    PhaseSide.objects.filter(phase=phase, side__key=case.side).update(
        deadline=timezone.now() - timedelta(minutes=5)
    )
    client = _client(game.players[case.side])

    page = _html(client.get(reverse("battles:battle", args=[game.battle.pk])))
    panel = _html(client.get(_url("order_panel", game, case.ship), headers=HX))
    ready = client.post(
        reverse("battles:side_ready", args=[game.battle.pk]),
        {"phase": str(phase.pk), "ready": "1"},
        headers=HX,
    )

    for html in (page, panel):
        assert f"Orders closed: the deadline of {case.name}'s side has passed." in html
        assert "Save orders</button>" not in html and "Repeat last orders</button>" not in html
    assert ready.status_code == 409
    assert "Your side&#x27;s deadline has passed, so it can no longer be marked ready" in _html(ready)
    assert "This phase has already closed" not in _html(ready)


def test_ww2_a_ship_without_torpedo_tubes_is_offered_no_torpedo_launch() -> None:
    """The order page leaves out an order type the ship can never give (RuleSet.order_type_applies): Prince
    of Wales has no torpedo mounts, so no "Torpedo launch" with a mount "from -1 to 11"; Hood has two.
    Saving Prince of Wales' orders without those fields still works (they take their defaults)."""
    game = _game(CASES[0])
    client = _client(game.players["britain"])

    # each ship's whole panel, as the page's Check button gets it
    panels = {
        key: _html(_post(client, "order_check", game, key, {"course": "300", "speed": "20"}, headers=HX))
        for key in ("hood", "prince_of_wales")
    }

    assert "Torpedo launch" in panels["hood"] and 'name="torpedo_mount"' in panels["hood"]
    assert "Torpedo launch" not in panels["prince_of_wales"]
    assert 'name="torpedo_mount"' not in panels["prince_of_wales"]
    saved = _post(client, "order_save", game, "prince_of_wales", {"course": "300", "speed": "20"}, headers=HX)
    assert saved.status_code == 200
    assert Order.objects.get(battle_ship__ship_key="prince_of_wales").data["course"] == 300


def test_sail_a_working_party_is_bounded_by_the_men_she_may_land_NW_SAIL_23() -> None:
    """Land a working party showed "From 0 to 2000" for a frigate of 440 points (fresh-user check): the input
    is bounded by what she may land now, all but 20% of her starting points (440 - 88 = 352), and says so."""
    game = _game(CASES[4])
    client = _client(game.players["usa"])

    html = _html(_post(client, "order_check", game, "constitution", {"turn": "0"}, headers=HX))

    tag = re.search(r'<input type="number" name="land_party"[^>]*>', html)
    assert tag is not None and 'min="0"' in tag.group(0) and 'max="352"' in tag.group(0)
    assert "At most 352 men now: 20% of her 440 points stay aboard." in html
    assert "From 0 to 2000" not in html


@pytest.mark.parametrize("typed", ["banana", "2", "yes please"])
def test_a_checkbox_posted_with_other_text_is_a_form_error_not_a_yes(typed: str) -> None:
    """A fresh-user check posted ``strike=0`` and ``strike=banana``: Django's checkbox read both as ticked,
    and Constitution would have struck her colours. Any text but a checkbox's is refused, nothing saved."""
    game = _game(CASES[4])
    client = _client(game.players["usa"])

    response = _post(client, "order_save", game, "constitution", {"turn": "0", "strike": typed}, headers=HX)

    assert response.status_code == 400
    assert f"Tick the box or leave it: {typed!r} is neither." in html_unescape(_html(response))
    assert not Order.objects.filter(phase=game.phase).exists()


@pytest.mark.parametrize(("typed", "saved"), [("0", False), ("false", False), ("on", True), ("true", True)])
def test_a_checkbox_reads_what_a_checkbox_sends(typed: str, saved: bool) -> None:
    game = _game(CASES[4])
    client = _client(game.players["usa"])

    response = _post(client, "order_save", game, "constitution", {"turn": "0", "strike": typed}, headers=HX)

    assert response.status_code == 200
    assert bool(Order.objects.get(phase=game.phase).data.get("strike")) is saved


def test_a_player_whose_sides_ships_are_all_under_other_captains_is_told_so() -> None:
    """A fresh-user check: with every ship of Kriegsmarine under another player, the side's first player was
    told "Your side gives no orders in this phase.", which is false."""
    game = _game(CASES[1])
    other = UserFactory()
    services.membership_add(campaign=game.campaign, user=other, role="player", side=game.side("germany"))
    for bship in game.battle.ships.filter(campaign_ship__side__key="germany"):
        services.campaign_ship_assign(campaign_ship=bship.campaign_ship, user=game.umpire, commander=other)

    page = re.sub(
        r"\s+",
        " ",
        _html(_client(game.players["germany"]).get(reverse("battles:battle", args=[game.battle.pk]))),
    )

    assert (
        f"Your side's ships are under other captains, who give their orders: Bismarck ({other.username})."
    ) in page
    assert "Your side gives no orders in this phase." not in page


def _checkbox(html: str, name: str) -> str:
    tags = re.findall(rf'<input type="checkbox" name="{name}"[^>]*>', html)
    assert len(tags) == 1, tags
    return tags[0]


def test_a_checkbox_shows_the_order_as_saved_and_a_tick_sends_yes() -> None:
    """A fresh-user check found every box of an order drawn ticked and with ``value="false"``: the saved
    order's ``false`` came back to the widget as text, Django's checkbox drew any text but "" as ticked, and a
    ticked box then sent "false". Constitution's boxes were all ticked, Strike colours among them, and none
    could be ticked for real. The box is clear for no and for an order not given, ticked for yes, with no
    value of its own (a ticked box sends "on")."""
    game = _game(CASES[4])
    client = _client(game.players["usa"])
    panel = _url("order_panel", game, "constitution")

    fresh = _html(client.get(panel, headers=HX))
    for name in ("strike", "row", "tack"):
        assert _checkbox(fresh, name) == (
            f'<input type="checkbox" name="{name}" aria-describedby="o-constitution-{name}-help" '
            f'id="o-constitution-{name}">'
        )

    saved = _post(client, "order_save", game, "constitution", {"turn": "0", "strike": "false"}, headers=HX)
    assert saved.status_code == 200 and Order.objects.get(phase=game.phase).data.get("strike") is not True
    assert " checked" not in _checkbox(_html(client.get(panel, headers=HX)), "strike")

    # the hidden "false" comes first, the ticked box after it: what a browser sends when the box is ticked
    ticked = _post(
        client, "order_save", game, "constitution", {"turn": "0", "strike": ["false", "on"]}, headers=HX
    )
    assert ticked.status_code == 200 and Order.objects.get(phase=game.phase).data["strike"] is True
    assert _checkbox(_html(client.get(panel, headers=HX)), "strike").endswith(" checked>")


def test_acw_gunfire_says_why_every_enemy_in_reach_is_legal_in_every_arc_NW_ACW_10() -> None:
    """A fresh-user check read "8 legal now" under each of Benton's four arcs, every enemy south of her
    bow, as a fault: the target is judged after the move (NW-ACW-10), and the panel now says so."""
    game = _game(CASES[3])
    html = _html(_client(game.players["union"]).get(_url("order_panel", game, "benton"), headers=HX))

    assert "Any enemy in reach may be named for any arc: the move may bring her into it" in html
    assert html.count("8 legal now.") == 4  # front, port, starboard, rear: the Confederate rams
