"""Orders and ship sheets in words (battles/display.py): the turn log's Orders table and the ship sheet page
show the rule set's labels and formatted values, not JSON (QA: ww2-log-s0.png, ww2-hood-s0.png)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import display, services
from battles.models import BattleShip, Order
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_value_text_formats_booleans_numbers_ship_keys_and_objects() -> None:
    names = {"bismarck": "Bismarck"}
    assert display.value_text(True) == "yes" and display.value_text(False) == "no"
    assert display.value_text(310.0) == "310" and display.value_text(6.75) == "6.75"
    assert display.value_text("bismarck", names) == "Bismarck"
    assert (
        display.value_text({"course": 310.0, "speed": 27.0, "aa": 0, "fires": []})
        == "aa 0, course 310, speed 27"  # keys sorted: jsonb keeps no order
    )
    assert display.value_text({"bismarck": 2}, names) == "Bismarck 2"
    assert display.value_text([2, 2]) == "2, 2"
    assert display.value_text("keep_afloat") == "keep afloat" and display.value_text("Fire aft") == "Fire aft"


def test_order_rows_use_the_rule_sets_labels_and_units_and_skip_empty_fields() -> None:
    ww2 = rules.get_ruleset("ww2_jackson")
    data = {
        "course": 310.0,
        "speed": 27.0,
        "cleared_for_action": True,
        "damage_preference": "keep_afloat",
        "target_main": "bismarck",
        "searchlight": "",
        "dc_area": "",
    }
    assert display.order_rows(ww2, data, {"bismarck": "Bismarck"}) == [
        ("Course", "310 degrees"),
        ("Speed", "27 knots"),
        ("Main battery target", "Bismarck"),
        ("Cleared for action", "yes"),
        ("Damage allocation", "keep afloat"),
    ]


def test_the_log_shows_orders_as_labelled_text_not_json() -> None:
    game = scenario_campaign("denmark_strait_1941")
    services.orders_submit(
        phase=game.phase,
        user=game.umpire,
        ship_key="hood",
        data={
            "course": 310,
            "speed": 27,
            "target_main": "bismarck",
            "searchlight": "",
            "cleared_for_action": True,
            "damage_preference": "keep_afloat",
        },
    )
    html = _client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1")
    page = html.content.decode()

    orders = page.split('<table class="orders-table">')[1].split("</table>")[0]
    assert "<dt>Course</dt><dd>310 degrees</dd>" in orders
    assert "<dt>Speed</dt><dd>27 knots</dd>" in orders
    assert "<dt>Main battery target</dt><dd>Bismarck</dd>" in orders
    assert "<dt>Cleared for action</dt><dd>yes</dd>" in orders
    assert "<dt>Damage allocation</dt><dd>keep afloat</dd>" in orders
    assert "{" not in orders and "cleared_for_action" not in orders and "Searchlight on" not in orders


def test_the_ww2_ship_sheet_shows_labels_and_words_not_keys_and_json() -> None:
    game = scenario_campaign("denmark_strait_1941")
    page = _client(game.players["britain"]).get(reverse("battles:ship_sheet", args=[game.battle.pk, "hood"]))
    html = page.content.decode()

    sheet = html.split("<h2>Status sheet</h2>")[1].split('<h2 class="section-gap">Class</h2>')[0]
    assert '<th scope="row">Max speed</th><td>27</td>' in sheet
    assert '<th scope="row">Preference</th><td>keep afloat</td>' in sheet
    marked = "aa 0, above 0, above armoured 0, damage control 0, engine 0, fire control 0, underwater 0"
    assert f'<th scope="row">Marked</th><td>{marked}</td>' in sheet  # keys sorted, on SQLite and PostgreSQL
    assert '<th scope="row">Cleared</th><td>yes</td>' in sheet
    assert '<th scope="row">Loaded</th><td>port mount 1: 2 of 2, starboard mount 1: 2 of 2</td>' in sheet
    # empty lists and objects are left out, the rows at nought folded
    assert "Guns lost" not in sheet and "Helm" not in sheet and "Conditions" not in sheet
    assert '<th scope="row">Reloads</th><td>0</td>' in sheet.split('<details class="sheet-quiet">')[1]
    assert "[" not in sheet and "{" not in sheet and "GUNS_LOST" not in sheet and "guns_lost" not in sheet


def test_change_rows_list_only_what_changed_with_sheet_keys_at_the_top() -> None:
    before = {"status": "damaged", "sheet": {"damage": 4, "guns_lost": ["A"], "protection": 9}}
    after = {"status": "active", "sheet": {"damage": 0, "guns_lost": [], "protection": 9, "refit": True}}
    assert display.change_rows(before, after) == [
        ("Damage", "4", "0"),
        ("Guns lost", "A", "-"),
        ("Refit", "-", "yes"),
        ("Status", "damaged", "active"),
    ]
    assert display.change_rows(after, after) == []


def test_order_rows_leave_out_the_torpedo_and_damage_control_defaults_when_none_is_ordered() -> None:
    """The log showed "Mount: -1", "Torpedoes: 0" and "Box ...: 0" for a ship that fired no torpedo and
    did no damage control (fresh-user check)."""
    ww2 = rules.get_ruleset("ww2_jackson")
    quiet = {
        "course": 310.0,
        "speed": 27.0,
        "turn_direction": "auto",
        "torpedo_target": "",
        "torpedo_mount": -1,
        "torpedo_number": 0,
        "dc_action": "none",
        "dc_area": "",
        "dc_index": 0,
        "dc_repair": "",
        "cleared_for_action": True,
        "damage_preference": "keep_afloat",
    }
    assert display.order_rows(ww2, quiet) == [
        ("Course", "310 degrees"),
        ("Speed", "27 knots"),
        ("Turn", "auto"),
        ("Cleared for action", "yes"),
        ("Damage allocation", "keep afloat"),
    ]
    fired = {**quiet, "torpedo_target": "bismarck", "dc_action": "fire"}
    assert display.order_rows(ww2, fired, {"bismarck": "Bismarck"})[3:6] == [
        ("Torpedo target", "Bismarck"),
        ("Torpedo mount", "every loaded mount that bears"),
        ("Torpedoes", "every loaded tube"),
    ]
    assert ("Damage control action", "fire") in display.order_rows(ww2, fired)
    assert not any(label.startswith("Box") for label, _ in display.order_rows(ww2, fired))
    restore = {**quiet, "torpedo_target": "bismarck", "torpedo_mount": 1, "torpedo_number": 2}
    restore |= {"dc_action": "restore", "dc_area": "main", "dc_index": 0}
    rows = display.order_rows(ww2, restore)
    assert ("Torpedo mount", "1") in rows and ("Torpedoes", "2") in rows
    assert ("Box area to restore", "main") in rows and ("Box (turret or mount number)", "0") in rows


def test_the_ww2_ship_sheet_lays_out_armament_and_arcs_as_tables() -> None:
    """The class section showed the guns, torpedo mounts and arcs as one long paragraph each (fresh-user
    check): a table per field now, a row per gun box, a column per field of the class schema's row."""
    game = scenario_campaign("denmark_strait_1941")
    page = _client(game.players["britain"]).get(reverse("battles:ship_sheet", args=[game.battle.pk, "hood"]))
    html = page.content.decode()

    klass = html.split('<h2 class="section-gap">Class</h2>')[1].split("</section>\n\n")[0]
    guns = klass.split(">Main and secondary armament boxes</h3>")[1]
    guns = guns.split("</table>")[0]
    assert '<th scope="col">Box (turret or mount)</th>' in guns
    assert '<th scope="col">Calibre (inches)</th>' in guns
    assert "<td>A turret</td><td>main</td><td>15</td>" in guns
    assert guns.count("<tr>") == 1 + 9  # the header and Hood's nine gun boxes
    torps = klass.split("Torpedo mount boxes</h3>")[1].split("</table>")[0]
    assert "<td>port mount 1</td><td>21</td><td>2</td><td>port</td><td>yes</td>" in torps
    arcs = klass.split(">Arcs</h3>")[1]
    assert '<h4 class="chart-sub__title">Broadside port</h4>' in arcs
    assert "<td>24, 48, 72</td>" in arcs
    assert "calibre 15, forward yes" not in klass and "battery main, bfn" not in klass
    assert '<th scope="row">Rated speed</th><td>29 knots</td>' in klass


def test_the_log_shows_a_torpedo_mount_and_a_turn_in_the_words_the_order_form_offered() -> None:
    """The log showed ww2_jackson's torpedo mount by its index ("Torpedo mount: 1") and ultra_simple's turn
    as a signed number ("-60"), where the order form had offered "1: starboard mount 1" and "60 degrees to
    port" (display.hint_choices of the ship's order hints in the phase's state)."""
    game = scenario_campaign("denmark_strait_1941")
    # (saved as it stands: at the scenario's opening range no mount of hers bears, so the service refuses it)
    hood = BattleShip.objects.get(battle=game.battle, ship_key="hood")
    data = {"course": 310, "speed": 27, "torpedo_target": "bismarck", "torpedo_mount": 1}
    Order.objects.create(phase=game.phase, battle_ship=hood, side=hood.campaign_ship.side, data=data)
    page = _client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1")
    orders = page.content.decode().split('<table class="orders-table">')[1].split("</table>")[0]
    assert "<dt>Torpedo mount</dt><dd>1: starboard mount 1</dd>" in orders

    game = scenario_campaign("bismarck_last_battle_1941")
    ship = rules.from_json(rules.BattleState, game.battle.state).ships[0]
    data = {"hexes": 1, "turn": -60, "turn_after": 0}
    services.orders_submit(phase=game.phase, user=game.umpire, ship_key=ship.id, data=data)
    page = _client(game.umpire).get(reverse("battles:battle_log", args=[game.battle.pk]) + "?phase=1")
    orders = page.content.decode().split('<table class="orders-table">')[1].split("</table>")[0]
    assert "<dt>Turn (degrees, + to starboard)</dt><dd>60 degrees to port</dd>" in orders
    assert "<dt>Hexes</dt><dd>1 hex</dd>" in orders


def test_order_rows_show_a_value_among_the_choices_by_its_words_and_others_as_before() -> None:
    us = rules.get_ruleset("ultra_simple")
    choices = {"turn": {"-60": "60 degrees to port", "0": "no turn"}, "hexes": {"2": "2 hexes"}}
    rows = display.order_rows(
        us, {"hexes": 2, "turn": -60, "target": "bismarck"}, {"bismarck": "Bismarck"}, choices
    )
    assert [text for _, text in rows] == ["2 hexes", "60 degrees to port", "Bismarck"]
    # a value the choices do not hold is shown as before
    assert [text for _, text in display.order_rows(us, {"hexes": 1, "turn": -30}, None, choices)] == [
        "1",
        "-30",
    ]


@pytest.mark.parametrize(
    ("ruleset", "unit"),
    [
        ("ww2_jackson", "knots"),  # its speed order field's unit
        ("sail_1700", "mm"),  # its speed order field is the distance of a move
        ("ultra_simple", "hexes per turn"),  # no speed order field: a hex rule set (rules.model)
        ("acw_river", "hexes per turn"),
        ("memoir_sea", "hexes per turn"),
    ],
)
def test_a_ships_speed_is_labelled_in_the_rule_sets_unit(ruleset: str, unit: str) -> None:
    assert display.speed_unit(rules.get_ruleset(ruleset)) == unit


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("Admiral", "Admiral class"),
        ("City class ironclad", "City class ironclad"),
        ("Tribal Class", "Tribal Class"),
        ("Classic", "Classic class"),  # the word, not the letters
        ("Fubuki (Shirayuki, Ayanami)", "Fubuki (Shirayuki, Ayanami) class"),
    ],
)
def test_a_class_label_says_class_once(name: str, label: str) -> None:
    assert display.class_label(name) == label


def test_a_table_position_is_shown_to_a_tenth_of_its_unit() -> None:
    """The ship page and the map's card showed the engine's (39.6612, 10.6708) where the ships table showed
    (44, 5.5) (fresh-user check): every page shows a point to a tenth, a hex as it is."""
    from battles.templatetags.battles_tags import position
    from rules.model import Hex, Point

    assert position(Point(x=39.6612, y=10.6708)) == "(39.7, 10.7)"
    assert position(Point(x=44.0, y=5.5)) == "(44, 5.5)"
    assert position(Point(x=200, y=0.04)) == "(200, 0)"
    assert position(Hex(q=3, r=-2)) == "(3, -2)"
