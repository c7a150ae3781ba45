"""Bad input to the umpire's battle and campaign forms is a message or a 4xx, never a 500, and saves nothing:
JSON with NaN, infinities, nesting deeper than Python's recursion limit or a lone surrogate escape (a ship
edit, a repair, terrain), a phase number of thousands of digits in the log's URL, and a heading the river and
Memoir rules refuse."""

from __future__ import annotations

import json
import re
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

import rules
from battles import services
from battles.models import Battle, CampaignShip, RepairRecord, ShipEdit
from fleets.models import Ship
from navalwar.errors import ApplicationError
from rules.model import Conditions, Hex
from tests.factories import scenario_campaign
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _plant(game: Any, key: str, **sheet: Any) -> None:
    """Give ship ``key`` these sheet entries (ultra_simple's sheet holds numbers only)."""
    state = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
    ship = state.ship(key)
    planted = state.with_ships({key: replace(ship, sheet={**ship.sheet, **sheet})})
    Battle.objects.filter(pk=game.battle.pk).update(state=rules.to_json(planted))


def _edit(game: Any, key: str = "kgv", *, reason: str = "Engine trouble", **typed: Any) -> Any:
    """Post the edit form of ship ``key`` as the umpire, typing ``typed`` (tests.utils.ship_edit_post)."""
    url = reverse("battles:ship_sheet", args=[game.battle.pk, key])
    return _client(game.umpire).post(url, ship_edit_post(game.battle, key, reason=reason, **typed))


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        pytest.param(DEEP, "the JSON is nested too deeply", id="deep"),
        pytest.param("[NaN]", "NaN is not a number JSON can store", id="nan"),
        pytest.param("[-Infinity]", "-Infinity is not a number JSON can store", id="infinity"),
        pytest.param("[1e400]", "1e400 is too large a number", id="1e400"),
        pytest.param(
            '["\\ud800"]',
            "\\ud800 is half of a UTF-16 surrogate pair, no character",
            id="surrogate",
        ),
    ],
)
def test_a_ship_edit_with_json_no_column_can_store_is_a_field_error(
    game: Any, typed: str, reason: str
) -> None:
    """A sheet entry holding a list or an object is typed as JSON, the one box of the edit form that takes
    JSON (its numbers are number fields: NaN, infinities and 1e400 are no number there either)."""
    _plant(game, "kgv", note=[])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _edit(game, sheet_note=typed)

    assert response.status_code == 400
    assert f'<p class="error">{escape(f"Not valid JSON: {reason}.")}</p>' in _text(response)
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


@pytest.mark.parametrize(
    ("typed", "field", "message"),
    [
        pytest.param(
            {"heading": "45"},
            "heading",
            "King George V: heading 45 is not one of the 12 hex facings (multiples of 30 degrees).",
            id="between-facings",
        ),
        pytest.param(
            {"q": "200"}, "q", "King George V: hex (200, 3) is off the 24 x 18 map.", id="off-the-map"
        ),
        pytest.param(
            {"sheet_note": "[1, -1000000]"},
            "sheet_note",
            "King George V: sheet note.1 is -1000000: a sheet holds numbers from 0 to 1,000,000.",
            id="negative-sheet-number",
        ),
    ],
)
def test_a_ship_edit_the_engine_could_not_resolve_is_an_error_at_its_field(
    game: Any, typed: dict[str, str], field: str, message: str
) -> None:
    """rules.check_state (NW-CAMP-04): an edit that would leave a ship the engine cannot resolve (a hang, a
    rules error at the next resolution) is refused, at the one value changed, and nothing is saved. (A
    negative or huge number in a number field, or a speed of 400 digits, is the field's own error:
    tests/battles/test_ship_edit_form.py.)"""
    _plant(game, "kgv", note=[1])
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _edit(game, **typed)

    assert response.status_code == 400
    html = response.content.decode()
    where = html[html.index(f'name="{field}"') :]
    assert where.index(f'<p class="error">{escape(message)}</p>') < where.index('<div class="field')
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


@pytest.mark.parametrize("moved", ["kgv", "rodney"])
def test_a_ship_edit_that_puts_two_ships_afloat_in_one_hex_is_a_message(game: Any, moved: str) -> None:
    """NW-CAMP-07: whichever of the two ships comes first in the battle's order, the edit of the one moved is
    refused, naming the other; nothing is saved. A sunk ship's hex may be taken."""
    state = rules.from_json(rules.BattleState, game.battle.state)
    other = "rodney" if moved == "kgv" else "kgv"
    there = state.ship(other).position
    url = reverse("battles:ship_sheet", args=[game.battle.pk, moved])
    before = Battle.objects.get(pk=game.battle.pk).state
    post = ship_edit_post(game.battle, moved, reason="Collision", q=there.q, r=there.r)

    response = _client(game.umpire).post(url, post)

    assert response.status_code == 400
    first, second = sorted((moved, other), key=[s.id for s in state.ships].index)
    assert escape(
        f"{state.ship(second).name}: at the position of {state.ship(first).name}; two ships afloat may not "
        "share one hex "
        "(docs/rulings.md NW-CAMP-07)."
    ) in _text(response)
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0
    # once the other ship is sunk, her hex may be taken
    services.battle_ship_edit(
        battle=game.battle, ship_key=other, user=game.umpire, changes={"status": "sunk"}, reason="Sunk"
    )
    assert _client(game.umpire).post(url, post).status_code == 302


@pytest.mark.parametrize(
    ("sheet", "reason"),
    [
        pytest.param(DEEP, "the JSON is nested too deeply", id="deep"),
        pytest.param('{"damage": NaN}', "NaN is not a number JSON can store", id="nan"),
        pytest.param('{"damage": 1e999}', "1e999 is too large a number", id="1e999"),
        pytest.param(
            '{"damage": 0, "protection": 0, "\\udc00": 1}',
            "\\udc00 is half of a UTF-16 surrogate pair, no character",
            id="surrogate",
        ),
    ],
)
def test_a_repair_with_json_no_column_can_store_is_a_form_error(game: Any, sheet: str, reason: str) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    before = kgv.sheet
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])

    response = _client(game.umpire).post(
        url, {"action": "repair", "status": "active", "sheet": sheet, "reason": "Dry dock"}
    )

    assert response.status_code == 400
    assert f"Not valid JSON: {reason}" in _text(response)
    kgv.refresh_from_db()
    assert (kgv.sheet, RepairRecord.objects.count()) == (before, 0)


@pytest.mark.parametrize("moon", ["full", "Bright", "none "])
def test_an_unknown_moon_is_a_form_error_not_no_moon(game: Any, moon: str) -> None:
    """A moon the form does not offer ("full") was saved as "none" without a word (fresh-user check)."""
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    foe = game.campaign.ships.exclude(side=cs.side).order_by("pk").first()
    data = {
        "name": "Night",
        "night": "on",
        "moon": moon,
        f"use_{cs.pk}": "on",
        f"a_{cs.pk}": 3,
        f"b_{cs.pk}": 4,
        f"use_{foe.pk}": "on",
        f"a_{foe.pk}": 6,
        f"b_{foe.pk}": 4,
    }

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert escape(f"The moon is one of: none, dim, bright (given: {moon!r}).") in response.content.decode()
    assert Battle.objects.count() == 1
    # the form's choices are the rules' own
    assert typing.get_args(typing.get_type_hints(Conditions)["moon"]) == ("none", "dim", "bright")
    data["moon"] = "bright"
    assert (
        _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data).status_code
        == 302
    )
    assert Battle.objects.latest("pk").state["conditions"]["moon"] == "bright"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("a", "1_0", "King George V, q: '1_0' is not a whole number."),
        ("b", "٣", "King George V, r: '٣' is not a whole number."),
        ("heading", "0_0", "King George V, heading: '0_0' is not a number."),
        ("speed", "nan", "King George V, speed: 'nan' is not a number."),
        ("width", "1e2", "The map's width: enter the number in plain digits: 1e2 has an exponent."),
        ("width", "1e9", "The map's width: enter the number in plain digits: 1e9 has an exponent."),
    ],
)
def test_a_set_up_number_that_is_not_plain_is_a_form_error(
    game: Any, field: str, value: str, message: str
) -> None:
    """int() and float() read ``1_0`` as 10 and ``٣`` as 3: a position typed with a slip was taken as
    another (navalwar.numbers). The message names the field and says what the text is not (a fresh-user check
    typed 1e9 and was told only that the numbers must be numbers)."""
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    data = {
        "name": "Typo",
        f"use_{cs.pk}": "on",
        f"a_{cs.pk}": "3",
        f"b_{cs.pk}": "4",
        f"heading_{cs.pk}": "0",
    }
    data[field if field == "width" else f"{field}_{cs.pk}"] = value

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert escape(message) in _text(response)
    assert Battle.objects.count() == 1


@pytest.mark.parametrize(
    ("props", "reason"),
    [
        pytest.param('{"depth": NaN}', "NaN is not a number JSON can store", id="nan"),
        pytest.param(
            '{"name": "\\ud800"}', "\\ud800 is half of a UTF-16 surrogate pair, no character", id="surrogate"
        ),
    ],
)
def test_terrain_with_json_no_page_can_show_is_a_form_error(game: Any, props: str, reason: str) -> None:
    """A lone surrogate escape was saved, and then every page showing it failed with a 500."""
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.order_by("pk").first()
    terrain = '[{"kind": "shoal", "position": {"q": 1, "r": 1}, "props": ' + props + "}]"
    data = {"name": "Shoals", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, "terrain": terrain}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    message = f"Terrain must be a JSON list of features (kind, position, props, visible_to): {reason}"
    assert message in _text(response)
    assert Battle.objects.count() == 1


@pytest.mark.parametrize("param", ["phase", "phase_id"])
def test_a_phase_number_of_thousands_of_digits_is_no_such_phase(game: Any, param: str) -> None:
    url = reverse("battles:battle_log", args=[game.battle.pk]) + f"?{param}=" + "9" * 5000

    assert _client(game.players["britain"]).get(url).status_code == 404
    assert _client(game.umpire).get(url).status_code == 404


@pytest.mark.parametrize(
    ("scenario_key", "refusal"),
    [
        pytest.param(
            "first_memphis_1862", "heading 45.0 is not a hex facing (multiples of 30 degrees)", id="acw"
        ),
        pytest.param(
            "santiago_de_cuba_1898", "heading 45.0 is not a hex-side facing (multiples of 60)", id="memoir"
        ),
    ],
)
def test_a_heading_the_rules_refuse_is_a_form_error_on_every_hex_rule_set(
    scenario_key: str, refusal: str
) -> None:
    """acw_river and memoir_sea refuse it with ValueError, which battle_create let through (a 500)."""
    game = scenario_campaign(scenario_key)
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = game.campaign.ships.select_related("ship").order_by("pk").first()
    foe = game.campaign.ships.exclude(side=cs.side).order_by("pk").first()
    data = {"name": "Askew", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 45}
    data.update({f"use_{foe.pk}": "on", f"a_{foe.pk}": 6, f"b_{foe.pk}": 4, f"heading_{foe.pk}": 0})

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert f"The rules refuse this set-up: {cs.ship.name}: {refusal}" in _text(response)
    assert Battle.objects.count() == 1


# --- the umpire's ship edit: each field's shape, said in words (a fresh-user check) -----------------------

SHIP_EDIT_REFUSALS = [
    pytest.param('{"sheet": {"damage": "x"}}', 'sheet damage must be a number, not "x".', id="sheet-text"),
    pytest.param('{"sheet": {"damage": true}}', "sheet damage must be a number, not true.", id="sheet-bool"),
    pytest.param('{"sheet": {"damage": [1]}}', "sheet damage must be a number, not [1].", id="sheet-list"),
    pytest.param(
        '{"sheet": {"foo": 1}}',
        "the sheet has no entry foo (a sheet edit changes the entries it has: damage, protection).",
        id="sheet-unknown-key",
    ),
    pytest.param(
        '{"sheet": [1]}',
        'sheet must be an object of the entries to change, such as {"damage": 2}, not [1].',
        id="sheet-list-not-object",
    ),
    pytest.param('{"speed": true}', "speed must be a number, not true.", id="speed-bool"),
    pytest.param('{"speed": "2"}', 'speed must be a number, not "2".', id="speed-text"),
    pytest.param(
        '{"speed": 1e29}', "King George V: speed must be 1,000,000 or less, not 1e+29.", id="speed-huge"
    ),
    pytest.param('{"heading": true}', "heading must be a number, not true.", id="heading-bool"),
    pytest.param(
        '{"heading": 720}', "King George V: heading 720 is not from 0 up to 360 (360 is 0).", id="heading-720"
    ),
    pytest.param(
        '{"heading": -90}', "King George V: heading -90 is not from 0 up to 360", id="heading-negative"
    ),
    pytest.param('{"flags": "x"}', 'flags must be a list of text, such as ["on fire"], not "x".', id="flags"),
    pytest.param(
        '{"flags": [1]}', 'flags must be a list of text, such as ["on fire"], not [1].', id="flags-1"
    ),
    pytest.param(
        '{"position": {"q": 1.5, "r": 0}}', "position q must be a whole number (a hex), not 1.5.", id="q-1.5"
    ),
    pytest.param(
        '{"position": {"q": 1, "r": true}}',
        "position r must be a whole number (a hex), not true.",
        id="r-bool",
    ),
    pytest.param(
        '{"position": [1, 2]}',
        'position must be {"q": whole number, "r": whole number} for a hex or {"x": number, "y": number}, '
        "not [1, 2].",
        id="position-list",
    ),
    pytest.param(
        '{"position": {"q": 1}}',
        'position must be {"q": whole number, "r": whole number} for a hex or {"x": number, "y": number}, '
        'not {"q": 1}.',
        id="position-no-r",
    ),
    pytest.param('{"position": {"x": "a", "y": 0}}', 'position x must be a number, not "a".', id="x-text"),
    pytest.param(
        '{"status": "floating"}',
        'Unknown status "floating"; a ship is one of: active, sunk, struck, withdrawn, captured.',
        id="status",
    ),
    pytest.param(
        '{"colour": 1}',
        "Unknown fields: colour. The changes may set: status, flags, heading, speed, sheet, position.",
        id="unknown-field",
    ),
    pytest.param(
        '{"speed": true, "flags": null}',
        'flags must be a list of text, such as ["on fire"], not null; speed must be a number, not true.',
        id="two-at-once",
    ),
]


@pytest.mark.parametrize(("changes", "message"), SHIP_EDIT_REFUSALS)
def test_a_ship_edit_of_the_wrong_shape_is_refused_in_words(game: Any, changes: str, message: str) -> None:
    """A sheet edit changes only the entries the sheet has, to a value of the same kind; speed and heading
    are numbers (not true or false) from 0 to 1,000,000 and from 0 up to 360; flags a list of text; a hex
    position whole numbers. Each was saved before (a string damage later read as 0, speed true as 1) or
    refused with Python's words ("list indices must be integers or slices, not str"). The page's form sends
    values of the right kind only; the service says so in words to any caller."""
    before = Battle.objects.get(pk=game.battle.pk).state

    with pytest.raises(ApplicationError) as refused:
        services.battle_ship_edit(
            battle=game.battle,
            ship_key="kgv",
            user=game.umpire,
            changes=json.loads(changes),
            reason="Engine trouble",
        )

    assert message in refused.value.message
    for python in ("indices", "NoneType", "object is not", "Traceback", "int()", "float()"):
        assert python not in refused.value.message
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param({}, id="nothing-typed"),
        pytest.param(
            {"speed": "2.0", "heading": "120.", "sheet_damage": "0", "flags": " , "}, id="the-values-she-has"
        ),
    ],
)
def test_a_ship_edit_that_changes_nothing_is_refused_and_saves_nothing(
    game: Any, typed: dict[str, str]
) -> None:
    """An edit that leaves the ship as she is was saved and logged as "(nothing changed)" under its reason."""
    ship = rules.from_json(rules.BattleState, game.battle.state).ship("kgv")
    assert (ship.speed, ship.heading, ship.sheet["damage"]) == (2.0, 120.0, 0)
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _edit(game, **typed)

    assert response.status_code == 400
    assert "Nothing to change: the ship already is as the changes say. Nothing was saved." in _text(response)
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0


def test_a_refused_ship_edit_shows_the_form_again_with_what_was_typed(game: Any) -> None:
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])

    response = _edit(game, reason="Shell hit <aft>", sheet_damage="x", speed="3")

    html = response.content.decode()
    assert 'name="sheet_damage" value="x"' in html and 'name="speed" value="3"' in html
    assert f'name="reason" value="{escape("Shell hit <aft>")}"' in html
    # and a fresh page has the form filled with her values, and no reason
    html = _client(game.umpire).get(url).content.decode()
    assert 'name="sheet_damage" value="0"' in html and 'name="speed" value="2"' in html
    assert '<input type="text" name="reason" maxlength="500" required id="id_reason">' in html


def test_a_ship_edit_of_the_right_shape_is_saved(game: Any) -> None:
    response = _edit(game, status="active", flags="on fire", heading="360", sheet_damage="2", q="3.0", r="4")

    assert response.status_code == 302
    ship = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state).ship("kgv")
    assert (ship.flags, ship.heading, ship.speed, ship.sheet["damage"]) == (("on fire",), 0.0, 2.0, 2)
    assert (ship.position, ShipEdit.objects.get().reason) == (Hex(q=3, r=4), "Engine trouble")


def test_a_sheet_entry_that_is_null_takes_any_value(game: Any) -> None:
    _plant(game, "kgv", note=None)

    response = _edit(game, reason="Umpire's note", sheet_note='["rudder jammed"]')

    assert response.status_code == 302
    state = rules.from_json(rules.BattleState, Battle.objects.get(pk=game.battle.pk).state)
    assert state.ship("kgv").sheet["note"] == ["rudder jammed"]


@pytest.mark.parametrize("length", [501, 100_000])
def test_a_reason_over_500_characters_is_refused(game: Any, length: int) -> None:
    """A 100,000-character reason made the ship page 947,000 px wide; the log is no place for an essay."""
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _edit(game, reason="x" * length, speed="1")

    assert response.status_code == 400
    assert _text(response).count(f"Keep the reason to 500 characters (it has {length}).") == 1
    assert "reason: Keep the reason" not in _text(response)  # said once, at the field
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == 0
    services.battle_ship_edit(
        battle=game.battle, ship_key="kgv", user=game.umpire, changes={"speed": 1}, reason="x" * 500
    )
    assert ShipEdit.objects.count() == 1


# --- repairs between battles: the ship's sheet, repaired (NW-CAMP-05) -------------------------------------


def _repair(game: Any, cship: Any, sheet: str, reason: str = "Dry dock") -> Any:
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, cship.pk])
    return _client(game.umpire).post(
        url, {"action": "repair", "status": "active", "sheet": sheet, "reason": reason}
    )


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        pytest.param(
            "{}",
            "The sheet is empty. A repair sets the ship's whole sheet, as the box shows it; an empty one "
            "would lose her damage, crew and the rest, which her next battle would make afresh. Change the "
            "values in the box (to undo all damage, set each one back to its value when new) (NW-CAMP-05).",
            id="empty",
        ),
        pytest.param(
            '{"hull": "banana"}',
            "The sheet has no entry hull (a sheet edit changes the entries it has: damage, protection).",
            id="unknown-key",
        ),
        pytest.param(
            '{"damage": "banana", "protection": 9}',
            'Sheet damage must be a number, not "banana".',
            id="text-for-a-number",
        ),
        pytest.param(
            '{"damage": false, "protection": 9}', "Sheet damage must be a number, not false.", id="bool"
        ),
        pytest.param(
            '{"damage": -5, "protection": 9}',
            "Sheet damage is -5: a sheet holds numbers from 0 to 1,000,000.",
            id="negative",
        ),
        pytest.param(
            '{"damage": 1000001, "protection": 9}',
            "Sheet damage is 1000001: a sheet holds numbers from 0 to 1,000,000.",
            id="over-a-million",
        ),
        pytest.param(
            '{"protection": 9}',
            "The sheet lacks damage: a repair sets the whole sheet, and an entry left out would be made "
            "afresh at her next battle (NW-CAMP-05).",
            id="missing-key",
        ),
    ],
)
def test_nw_camp_05_a_repair_that_is_not_the_ships_sheet_repaired_is_a_form_error(
    game: Any, sheet: str, message: str
) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    before = kgv.sheet

    response = _repair(game, kgv, sheet)

    assert response.status_code == 400
    assert escape(message) in _text(response)
    assert escape(sheet) in response.content.decode()  # the form keeps what was typed
    kgv.refresh_from_db()
    assert (kgv.sheet, RepairRecord.objects.count()) == (before, 0)


def test_nw_camp_05_a_constitution_keeps_her_crew_grade_through_a_repair_and_her_next_battle() -> None:
    """The fresh-user check: a repair of {} (or of a sheet without the grade) was saved, and her next battle
    rolled her crew grade afresh ("good" became "poor")."""
    game = scenario_campaign("sail_constitution_vs_guerriere_1812")
    services.battle_end(battle=game.battle, user=game.umpire)
    cship = game.campaign.ships.get(ship__name="Constitution")
    sheet = dict(cship.sheet)
    assert sheet["grade"] == "good"

    for bad in ("{}", json.dumps({k: v for k, v in sheet.items() if k != "grade"})):
        assert "NW-CAMP-05" in _text(_repair(game, cship, bad))
    cship.refresh_from_db()
    assert (cship.sheet, RepairRecord.objects.count()) == (sheet, 0)

    assert _repair(game, cship, json.dumps(dict(sheet, points=400, fires=["forecastle"]))).status_code == 302
    cship.refresh_from_db()
    assert (cship.sheet["points"], cship.sheet["grade"], cship.sheet["fires"]) == (
        400,
        "good",
        ["forecastle"],
    )
    assert "Sheet grade must be text, not 3." in _text(_repair(game, cship, json.dumps(dict(sheet, grade=3))))

    second = services.battle_create_from_scenario(
        campaign=game.campaign,
        scenario_key="sail_constitution_vs_guerriere_1812",
        user=game.umpire,
        name="Rematch",
    )
    state = rules.from_json(rules.BattleState, second.state)
    constitution = next(s for s in state.ships if s.name == "Constitution")
    assert (constitution.sheet["grade"], constitution.sheet["points"]) == ("good", 400)


def test_nw_camp_05_a_ship_that_has_not_fought_has_no_sheet_to_repair(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    ship = Ship.objects.create(name="Duke of York", ship_class=kgv.ship.ship_class)
    new = services.campaign_ship_add(campaign=game.campaign, side=kgv.side, ship=ship)

    response = _repair(game, new, '{"damage": 1}')

    assert escape(
        "Duke of York has no sheet yet: her rules make it when she first fights; edit it then, on her page "
        "in the battle (NW-CAMP-05)."
    ) in _text(response)
    assert RepairRecord.objects.count() == 0
    # her status may be repaired: the sheet as the form shows it ({}) is no change
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, new.pk])
    data = {"action": "repair", "status": "withdrawn", "sheet": "{}", "reason": "Refit"}
    assert _client(game.umpire).post(url, data).status_code == 302
    new.refresh_from_db()
    assert (new.status, new.sheet) == ("withdrawn", {})


def test_a_repair_reason_over_500_characters_is_a_form_error(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")

    response = _repair(game, kgv, json.dumps(kgv.sheet), reason="x" * 100_000)

    assert "Ensure this value has at most 500 characters (it has 100000)." in _text(response)
    assert RepairRecord.objects.count() == 0
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(campaign_ship=kgv, user=game.umpire, reason="x" * 501, sheet=kgv.sheet)
    assert exc.value.code == "reason_too_long"


def test_user_text_breaks_rather_than_widening_the_page() -> None:
    """Reasons, campaign descriptions and messages quoting what was typed may be one long word."""
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "navalwar.css").read_text()
    assert "p, li, dd { overflow-wrap: anywhere; }" in css


# --- the battle form: a set-up the engine could not resolve (rules.check_state; NW-CAMP-04, -07, -08) -----


def _setup_post(game: Any, **extra: Any) -> dict[str, Any]:
    """The battle form with the campaign's first two ships of different sides, on hexes (3, 4) and (9, 4)."""
    first = game.campaign.ships.select_related("ship").order_by("pk").first()
    foe = game.campaign.ships.exclude(side=first.side).order_by("pk").first()
    data: dict[str, Any] = {"name": "Set-up", "width": 24, "height": 18}
    for cs, a in ((first, 3), (foe, 9)):
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": a, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 0}
    for key, value in extra.items():  # "speed_first": the first ship's speed; "a_foe": the foe's q
        if key.endswith("_first"):
            data[f"{key.removesuffix('_first')}_{first.pk}"] = value
        elif key.endswith("_foe"):
            data[f"{key.removesuffix('_foe')}_{foe.pk}"] = value
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("scenario_key", "extra", "message"),
    [
        pytest.param(
            "bismarck_last_battle_1941", {"speed_first": "-5"}, "speed must be 0 or more, not -5", id="speed"
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"speed_first": "1" + "0" * 308},
            "speed must be 1,000,000 or less, not 1e+308",
            id="huge-speed",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"a_foe": "3"},
            "two ships afloat may not share one hex (docs/rulings.md NW-CAMP-07)",
            id="two-ships-one-hex",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"wind_from": "720"},
            "wind_from 720 is not from 0 up to 360 degrees (360 is 0)",
            id="wind-720",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"weather": "x" * 5000},
            "weather has 5000 characters; at most 100",
            id="long-weather",
        ),
        pytest.param(
            "first_memphis_1862",
            {"terrain": '[{"kind": "land", "position": {"q": 500, "r": 500}}]'},
            "terrain 1 (land): off the 24 x 18 map",
            id="terrain-off-map",
        ),
        pytest.param(
            "first_memphis_1862",
            {"terrain": '[{"kind": "land", "position": {"x": 1, "y": 2}}]'},
            "terrain 1 (land): position must be a hex {q, r}",
            id="terrain-point-on-hexes",
        ),
        pytest.param(
            "first_memphis_1862",
            {"terrain": '[{"kind": "volcano", "position": {"q": 5, "r": 5}}]'},
            "terrain 1 (volcano): unknown kind; terrain kinds are one of: land, shore, battery, fort, mine",
            id="terrain-kind",
        ),
        pytest.param(
            "first_memphis_1862",
            {"terrain": '[{"kind": "mine", "position": {"q": 5, "r": 5}, "visible_to": ["nobody"]}]'},
            "terrain 1 (mine): visible_to names no side of the battle: nobody",
            id="terrain-seen-by-no-side",
        ),
        pytest.param(
            "first_memphis_1862",
            {"terrain": '[{"kind": "land", "position": {"q": 3, "r": 4}}]'},
            "on land, where no ship afloat goes (NW-CAMP-08)",
            id="ship-on-land",
        ),
    ],
)
def test_a_set_up_the_engine_could_not_resolve_is_a_form_error(
    scenario_key: str, extra: dict[str, str], message: str
) -> None:
    """A fresh-user check created battles with a negative speed, two ships in one hex, a wind from 720 degrees
    and terrain of no kind, off the map or under a ship: the form now refuses them (in the ships' names)
    and nothing is saved."""
    game = scenario_campaign(scenario_key)
    services.battle_end(battle=game.battle, user=game.umpire)
    url = reverse("battles:battle_new", args=[game.campaign.pk])

    response = _client(game.umpire).post(url, _setup_post(game, **extra))

    assert response.status_code == 400
    assert "The rules refuse this set-up: " in _text(response)
    assert "ship &#x27;s" not in _text(response)  # ships by name, not by id
    assert escape(message) in _text(response)
    assert Battle.objects.count() == 1
    assert _client(game.umpire).post(url, _setup_post(game)).status_code == 302  # the same, without the slip


def test_a_repair_of_a_ship_in_a_battle_still_on_is_refused_with_409_naming_the_battle(game: Any) -> None:
    """A fresh-user check repaired a ship in a live battle: refused, but answered 200 as if the form were
    good, and told only "is in an active battle"."""
    kgv = game.campaign.ships.get(ship__name="King George V")
    before = CampaignShip.objects.get(pk=kgv.pk).sheet

    response = _repair(game, kgv, json.dumps(kgv.sheet))

    assert response.status_code == 409
    assert escape(
        f"King George V is in {game.battle.name}, a battle still on: edit her there, on her ship sheet, or "
        "repair her once it is over. Nothing was changed."
    ) in _text(response)
    assert CampaignShip.objects.get(pk=kgv.pk).sheet == before
    assert RepairRecord.objects.count() == 0


def test_a_repair_form_with_errors_is_answered_400(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")

    response = _repair(game, kgv, json.dumps(kgv.sheet), reason="")

    assert response.status_code == 400
    assert RepairRecord.objects.count() == 0
