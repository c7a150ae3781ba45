"""The umpire's ship edit on the ship page (battles.forms.ShipEditForm): a form built from the ship as she
stands, a field for each of her values and each entry of her record sheet, of the value's kind and filled
with it; only the values the umpire changes go to ``services.battle_ship_edit``. A bad value is an error at
its field (400, the form shown again with what was typed) and saves nothing."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

import rules
from battles import display, services
from battles.models import Battle, ShipEdit
from tests.factories import UserFactory, scenario_campaign
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db

NOTHING = "Nothing to change: the ship already is as the changes say. Nothing was saved."


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _ship(game: Any, key: str) -> rules.ShipState:
    return rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state).ship(key)


def _tag(html: str, name: str) -> str:
    """Return the opening tag of the form's field ``name`` (not its ``initial-`` twin)."""
    found = re.findall(rf'<(?:input|select|textarea)\b[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    assert len(found) == 1, (name, found)
    return found[0]


def _textarea(html: str, name: str) -> str:
    found = re.search(rf'<textarea\b[^>]*\bname="{re.escape(name)}"[^>]*>\n?(.*?)</textarea>', html, re.S)
    assert found, name
    return found.group(1)


def _field(html: str, name: str) -> str:
    """Return the ``<div class="field...">`` holding the field ``name``, up to the next field."""
    start = html.index(_tag(html, name))
    div = html.rindex('<div class="field', 0, start)
    end = html.find('<div class="field', start)
    return html[div : end if end != -1 else len(html)]


def _label(html: str, name: str) -> str:
    found = re.search(rf'<label for="id_{re.escape(name)}">(.*?)</label>', html, re.S)
    assert found, name
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def _plant(game: Any, key: str, **sheet: Any) -> None:
    """Give ship ``key`` these sheet entries (kinds her rule set's sheet lacks)."""
    state = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
    ship = state.ship(key)
    planted = state.with_ships({key: replace(ship, sheet={**ship.sheet, **sheet})})
    Battle.objects.filter(pk=game.battle.pk).update(state=rules.to_json(planted))


@pytest.fixture
def game_kgv() -> Any:
    """ultra_simple's Bismarck scenario: King George V (kgv) at hex (10, 3), heading 120, speed 2."""
    return scenario_campaign("bismarck_last_battle_1941")


def test_the_form_shows_a_hex_ship_as_she_stands_a_field_of_each_kind() -> None:
    """acw_river (hex12): status, heading on the 12 facings, speed in hexes, q and r, flags; the sheet's
    numbers, yes/no entries, a text, a list and a null entry, each filled with her value."""
    game = scenario_campaign("first_memphis_1862")
    _plant(game, "benton", note="rudder jammed", hits=[1, 2])
    ship = _ship(game, "benton")
    assert (ship.position.q, ship.position.r, ship.heading, ship.speed, ship.flags) == (
        4,
        6,
        0.0,
        1.0,
        ("astern",),
    )

    html = (
        _client(game.umpire)
        .get(reverse("battles:ship_sheet", args=[game.battle.pk, "benton"]))
        .content.decode()
    )

    assert "Changes (JSON" not in html
    status = html[html.index('<select name="status"') : html.index("</select>")]
    assert '<option value="active" selected>Active</option>' in status
    assert '<option value="captured">Captured</option>' in status
    assert _label(html, "heading") == "Heading (degrees from north)"
    assert 'value="0"' in _tag(html, "heading") and 'step="30"' in _tag(html, "heading")
    assert _label(html, "speed") == "Speed (hexes per turn)"
    assert 'type="number"' in _tag(html, "speed") and 'value="1"' in _tag(html, "speed")
    assert (_label(html, "q"), _label(html, "r")) == ("Hex q", "Hex r")
    assert 'value="4"' in _tag(html, "q") and 'value="6"' in _tag(html, "r")
    assert 'name="x"' not in html and 'name="y"' not in html
    assert 'value="astern"' in _tag(html, "flags")
    # the sheet: an int, labelled as the sheet shows its key
    assert _label(html, "sheet_speed_forward") == "Speed forward"
    tag = _tag(html, "sheet_resistance")
    assert 'type="number"' in tag and 'value="24"' in tag and 'min="0"' in tag and 'max="1000000"' in tag
    # true or false: a checkbox, ticked as she is
    assert 'type="checkbox"' in _tag(html, "sheet_astern") and "checked" in _tag(html, "sheet_astern")
    assert "checked" not in _tag(html, "sheet_aground")
    assert _label(html, "sheet_aground") == "Aground"
    # text, and the nested or null entries as small JSON boxes
    assert 'type="text"' in _tag(html, "sheet_note") and 'value="rudder jammed"' in _tag(html, "sheet_note")
    assert _textarea(html, "sheet_hits") == "[1, 2]"
    assert "JSON: a list." in _field(html, "sheet_hits")
    assert _textarea(html, "sheet_aground_turn") == ""
    assert "JSON; empty for none." in _field(html, "sheet_aground_turn")
    assert _label(html, "reason") == "Reason (logged, up to 500 characters)"
    assert "required" in _tag(html, "reason")


def test_the_form_shows_a_table_ship_as_she_stands_a_field_of_each_kind() -> None:
    """ww2_jackson (table, inches): x and y in inches, speed in knots, any heading; her sheet's numbers
    (whole and not), yes/no entries, text, lists, objects and a null entry."""
    game = scenario_campaign("denmark_strait_1941")
    ship = _ship(game, "hood")

    html = (
        _client(game.umpire)
        .get(reverse("battles:ship_sheet", args=[game.battle.pk, "hood"]))
        .content.decode()
    )

    assert (_label(html, "x"), _label(html, "y")) == ("x (east, inches)", "y (south, inches)")
    assert 'value="70"' in _tag(html, "x") and 'value="64"' in _tag(html, "y")
    assert 'step="any"' in _tag(html, "x") and 'name="q"' not in html
    assert _label(html, "speed") == "Speed (knots)" and 'value="27"' in _tag(html, "speed")
    assert 'value="310"' in _tag(html, "heading") and 'step="any"' in _tag(html, "heading")
    assert 'value="27"' in _tag(html, "sheet_max_speed") and 'step="any"' in _tag(html, "sheet_max_speed")
    assert _label(html, "sheet_max_speed") == "Max speed"
    assert 'type="number"' in _tag(html, "sheet_wrecked_engines") and 'value="0"' in _tag(
        html, "sheet_wrecked_engines"
    )
    assert "checked" in _tag(html, "sheet_cleared") and "checked" not in _tag(html, "sheet_fired")
    assert 'type="text"' in _tag(html, "sheet_preference") and 'value="keep_afloat"' in _tag(
        html, "sheet_preference"
    )
    assert _textarea(html, "sheet_loaded") == "[2, 2]"
    assert _textarea(html, "sheet_conditions") == "{}" and "JSON: an object." in _field(
        html, "sheet_conditions"
    )
    # her damage boxes marked, an object of numbers: a number field per box under its own heading
    marked = ship.sheet["marked"]
    assert isinstance(marked, dict) and marked and 'name="sheet_marked"' not in html
    boxes = sorted(marked)
    assert [
        (_label(html, f"sheet_marked__{i}"), 'type="number"' in _tag(html, f"sheet_marked__{i}"))
        for i, _ in enumerate(marked)
    ] == [(display.key_label(k), True) for k in marked]
    assert "<legend>Marked</legend>" in html and boxes
    assert _textarea(html, "sheet_helm") == ""
    # one field per entry of her sheet (an entry per box of an object of numbers)
    names = re.findall(r'<(?:input|textarea)\b[^>]*\bname="sheet_(\w+?)(?:__\d+)?"', html)
    assert sorted(set(names)) == sorted(ship.sheet)


def test_one_damage_box_of_an_object_is_edited_and_the_rest_kept() -> None:
    """ww2_jackson's boxes marked (an object of counts): typing 2 in one box sends the object with that box
    changed and every other box as it was (the service merges a sheet's top level only)."""
    game = scenario_campaign("denmark_strait_1941")
    before = _ship(game, "hood")
    marked = before.sheet["marked"]
    assert isinstance(marked, dict)
    box = list(marked).index("engine")
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "hood"])

    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "hood", **{f"sheet_marked__{box}": "2"})
    )

    assert response.status_code == 302
    after = _ship(game, "hood")
    # the max speed follows the engine boxes (W38, NW-WW2-28): two of four gone, half of 27 knots
    assert after.sheet == {**before.sheet, "marked": {**marked, "engine": 2}, "max_speed": 13.5}
    assert after.sheet["marked"]["engine"] == 2 and list(after.sheet["marked"]) == list(marked)  # type: ignore[index,call-overload]
    bad = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "hood", **{f"sheet_marked__{box}": "-1"})
    )
    assert bad.status_code == 400 and _ship(game, "hood") == after


def test_a_millimetre_table_says_mm() -> None:
    game = scenario_campaign("sail_constitution_vs_guerriere_1812")

    html = (
        _client(game.umpire)
        .get(reverse("battles:ship_sheet", args=[game.battle.pk, "constitution"]))
        .content.decode()
    )

    assert (_label(html, "x"), _label(html, "y")) == ("x (east, mm)", "y (south, mm)")
    assert _label(html, "speed") == "Speed (mm)" and 'value="160"' in _tag(html, "speed")


@pytest.mark.parametrize(
    ("scenario", "key", "entry", "typed"),
    [
        pytest.param("bismarck_last_battle_1941", "kgv", "damage", 3, id="hex"),
        pytest.param("denmark_strait_1941", "hood", "wrecked_engines", 2, id="table"),
    ],
)
def test_changing_one_sheet_number_edits_only_that_entry(
    scenario: str, key: str, entry: str, typed: int
) -> None:
    game = scenario_campaign(scenario)
    before = _ship(game, key)
    url = reverse("battles:ship_sheet", args=[game.battle.pk, key])

    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, key, **{f"sheet_{entry}": str(typed)})
    )

    assert response.status_code == 302
    after = _ship(game, key)
    assert after == replace(before, sheet={**before.sheet, entry: typed})
    edit = ShipEdit.objects.get()
    assert edit.changes() == [f"sheet {entry}: 0 -> {typed}"]
    page = _client(game.umpire).get(url).content.decode()
    assert f"(sheet {entry}: 0 -&gt; {typed})" in page
    assert f'value="{typed}"' in _tag(page, f"sheet_{entry}")  # the form shows her as she is now


def test_the_ships_own_values_and_a_checkbox_and_json_are_edited_as_typed() -> None:
    game = scenario_campaign("denmark_strait_1941")
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "hood"])
    post = ship_edit_post(
        game.battle,
        "hood",
        status="withdrawn",
        heading="90.5",
        speed="12",
        x="71",
        y="64",
        flags="on_fire, dead_in_water",
        sheet_cleared=False,
        sheet_preference="spare_main",
        sheet_loaded="[1, 2]",
    )

    assert _client(game.umpire).post(url, post).status_code == 302

    ship = _ship(game, "hood")
    assert (ship.status, ship.heading, ship.speed) == ("withdrawn", 90.5, 12.0)
    assert (ship.position.x, ship.position.y, ship.flags) == (71.0, 64.0, ("on_fire", "dead_in_water"))
    assert (ship.sheet["cleared"], ship.sheet["preference"], ship.sheet["loaded"]) == (
        False,
        "spare_main",
        [1, 2],
    )
    assert ShipEdit.objects.get().changes() == [
        'flags: [] -> ["on_fire", "dead_in_water"]',
        "heading: 310.0 -> 90.5",
        'position: {"x": 70.0, "y": 64.0} -> {"x": 71.0, "y": 64.0}',
        "sheet cleared: true -> false",
        "sheet loaded: [2, 2] -> [1, 2]",
        'sheet preference: "keep_afloat" -> "spare_main"',
        "speed: 27.0 -> 12.0",
        'status: "active" -> "withdrawn"',
    ]


@pytest.mark.parametrize(
    ("name", "typed", "message"),
    [
        pytest.param("speed", "fast", "Enter a number.", id="speed-text"),
        pytest.param("speed", "NaN", "Enter a number.", id="speed-nan"),
        pytest.param(
            "speed", "1e400", "Enter the number in plain digits: 1e400 has an exponent.", id="speed-exponent"
        ),
        pytest.param("q", "-1e9", "Enter the number in plain digits: -1e9 has an exponent.", id="q-exponent"),
        pytest.param("speed", "9" * 400, "Enter a number.", id="speed-400-digits"),
        pytest.param("speed", "-2", "Ensure this value is greater than or equal to 0.", id="speed-negative"),
        pytest.param("heading", "400", "Ensure this value is less than or equal to 360.", id="heading-400"),
        pytest.param("heading", "", "This field is required.", id="heading-empty"),
        pytest.param("q", "1.5", "Enter a whole number.", id="q-half"),
        pytest.param("sheet_damage", "x", "Enter a whole number.", id="sheet-text"),
        pytest.param("sheet_damage", "2.5", "Enter a whole number.", id="sheet-half"),
        pytest.param(
            "sheet_damage", "-1", "Ensure this value is greater than or equal to 0.", id="sheet-negative"
        ),
        pytest.param(
            "sheet_damage", "1000001", "Ensure this value is less than or equal to 1000000.", id="sheet-huge"
        ),
    ],
)
def test_a_bad_number_is_an_error_at_its_field_with_a_400(
    game_kgv: Any, name: str, typed: str, message: str
) -> None:
    game = game_kgv
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "kgv", reason="Shell hit <aft>", **{"speed": "1", name: typed})
    )

    assert response.status_code == 400
    html = response.content.decode()
    field = _field(html, name)
    assert f'<p class="error">{escape(message)}</p>' in field and "field--error" in field
    assert f'value="{typed}"' in _tag(html, name) or typed == ""  # what was typed, shown again
    assert 'value="1"' in _tag(html, "speed") or name == "speed"
    assert f'value="{escape("Shell hit <aft>")}"' in _tag(html, "reason")
    assert "Nothing was saved: see the fields marked below." in html
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


def test_an_unchanged_form_is_refused_as_nothing_to_change(game_kgv: Any) -> None:
    game = game_kgv
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(url, ship_edit_post(game.battle, "kgv"))

    assert response.status_code == 400
    assert f'<div class="form-errors" role="alert"><p>{NOTHING}</p></div>' in response.content.decode()
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


def test_a_change_saved_while_the_form_was_open_is_kept(game_kgv: Any) -> None:
    """The form sends only what the umpire changed from what it showed: damage scored after the page was
    opened (here by another edit; a resolved phase alike) is not put back to the value the form showed."""
    game = game_kgv
    post = ship_edit_post(game.battle, "kgv", speed="1")  # the form as the umpire opened it: damage 0
    services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"sheet": {"damage": 3}}, reason="Hit"
    )

    response = _client(game.umpire).post(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"]), post)

    assert response.status_code == 302
    ship = _ship(game, "kgv")
    assert (ship.speed, ship.sheet["damage"]) == (1.0, 3)
    assert ShipEdit.objects.order_by("pk").last().changes() == ["speed: 2.0 -> 1.0"]


@pytest.mark.parametrize("who", ["britain", "germany", "observer"])
def test_a_post_from_anyone_but_the_umpire_is_refused(game_kgv: Any, who: str) -> None:
    game = game_kgv
    if who == "observer":
        user = UserFactory()
        services.membership_add(campaign=game.campaign, user=user, role="observer")
    else:
        user = game.players[who]
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(user).post(
        reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"]),
        ship_edit_post(game.battle, "kgv", speed="1"),
    )

    assert response.status_code == 403
    assert "Only an umpire of this campaign may do that." in response.content.decode()
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0
    page = _client(user).get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])).content.decode()
    assert "Edit this ship" not in page and 'name="reason"' not in page


def test_no_form_once_the_battle_is_over(game_kgv: Any) -> None:
    game = game_kgv
    services.battle_end(battle=game.battle, user=game.umpire)

    page = (
        _client(game.umpire).get(reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])).content.decode()
    )

    assert "Edit this ship" not in page


def test_a_sheet_key_that_is_no_plain_word_gets_a_field_by_its_place(game_kgv: Any) -> None:
    game = game_kgv
    _plant(game, "kgv", **{"boiler room": 1})

    response = _client(game.umpire).post(
        reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"]),
        ship_edit_post(game.battle, "kgv", sheet__0="2"),
    )

    assert response.status_code == 302
    assert _ship(game, "kgv").sheet["boiler room"] == 2


@pytest.mark.parametrize(
    ("scenario", "key", "top", "message"),
    [
        ("bismarck_last_battle_1941", "kgv", "2", "King George V makes at most 2 hexes per turn"),
        ("denmark_strait_1941", "hood", "27", "Hood makes at most 27 knots"),
        ("santiago_de_cuba_1898", "indiana", "3", "Indiana makes at most 3 hexes per turn"),
        ("first_memphis_1862", "benton", "2", "Benton makes at most 2 hexes per turn"),
        ("sail_constitution_vs_guerriere_1812", "constitution", "200", "Constitution makes at most 200 mm"),
    ],
)
def test_a_speed_above_her_class_is_an_error_at_the_speed_NW_CAMP_29(
    scenario: str, key: str, top: str, message: str
) -> None:
    """NW-CAMP-29: the umpire may set a ship's speed from 0 to what her class makes undamaged
    (``RuleSet.top_speed``: ultra_simple's 2 hexes, Hood's 27 knots of combat speed from 29 rated (line
    395), Indiana's class speed 3, Benton's speed forward 2, a 4th rate's 200 mm on the beam or quarter
    (S07)); 999 is refused at the speed with a 400 and nothing saved; her top speed itself is taken."""
    game = scenario_campaign(scenario)
    url = reverse("battles:ship_sheet", args=[game.battle.pk, key])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(url, ship_edit_post(game.battle, key, speed="999"))

    assert response.status_code == 400
    expected = f"{message} (her class, undamaged), not 999. Nothing was saved."
    assert f'<p class="error">{escape(expected)}</p>' in _field(response.content.decode(), "speed")
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0

    low = "1" if _ship(game, key).speed == 0.0 else "0"  # (a change: her speed now is refused as none)
    response = _client(game.umpire).post(url, ship_edit_post(game.battle, key, speed=low))
    assert response.status_code == 302 and _ship(game, key).speed == float(low)
    response = _client(game.umpire).post(url, ship_edit_post(game.battle, key, speed=top))
    assert response.status_code == 302 and _ship(game, key).speed == float(top)


def test_no_bundled_scenario_ship_starts_above_her_top_speed() -> None:
    """NW-CAMP-29's bound holds for every ship of every bundled scenario as it takes station."""
    from rules.scenario import bundled_scenarios, scenario_state

    over = []
    for key, sc in bundled_scenarios().items():
        rs = rules.get_ruleset(sc.ruleset)
        state, _ = scenario_state(sc, rules.SeededDice(1))
        over += [(key, s.id, s.speed) for s in state.ships if s.speed > (rs.top_speed(s) or 0.0)]
    assert over == []
