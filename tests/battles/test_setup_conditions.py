"""The set-up editor's Conditions tool (battles/views_map.py ``battle_setup_map``, ``action=conditions``;
``services.battle_setup_conditions_set``; docs/rulings.md NW-CAMP-20): the battle form's fields and checks
(``battles.forms.ConditionsForm``, one form for both), the state checked with ``rules.check_state``
(NW-CAMP-08), form errors with 400 and nothing saved, umpire only, set-up only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from battles import services
from battles.models import Battle
from navalwar.errors import ApplicationError
from rules.model import BattleState, Conditions
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

SAIL = "sail_constitution_vs_guerriere_1812"  # sail_1700: a table in millimetres, wind and weather
PLATE = "river_plate_1939"  # ww2_jackson: a table in inches, by day


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _url(battle: Battle) -> str:
    return reverse("battles:battle_setup_map", args=[battle.pk])


def _state(battle: Battle) -> BattleState:
    battle.refresh_from_db()
    return rules.from_json(BattleState, battle.state)


def _post(**fields: str) -> dict[str, str]:
    return {"action": "conditions", **{f"cond-{k}": v for k, v in fields.items()}}


def _conditions(c: Conditions) -> tuple[Any, ...]:
    return (c.night, c.moon, c.wind_from, c.wind_force, c.weather, c.visibility)


# --- success, one per geometry family ------------------------------------------------------------------


def test_a_hex_battle_takes_new_conditions() -> None:
    """ultra_simple (hexes, 12 facings): the conditions are the umpire's, shown on the form and the map."""
    game = scenario_campaign(start=False)
    umpire = _client(game.umpire)
    before = _state(game.battle)
    form = umpire.get(_url(game.battle)).content.decode()
    assert '<h2 id="conditions-title">Conditions</h2>' in form
    assert '<input type="hidden" name="action" value="conditions">' in form

    response = umpire.post(
        _url(game.battle) + "?ship=kgv",
        _post(night="on", moon="dim", weather="squalls", wind_from="270", wind_force="fresh"),
    )

    assert response.status_code == 302 and response["Location"] == _url(game.battle) + "?ship=kgv"
    after = _state(game.battle)
    assert _conditions(after.conditions) == (True, "dim", 270.0, "fresh", "squalls", None)
    assert after.ships == before.ships and after.terrain == before.terrain
    page = umpire.get(_url(game.battle)).content.decode()
    assert 'name="cond-night" id="id_cond-night" checked' in page
    assert '<option value="dim" selected>dim</option>' in page
    assert 'value="270"' in page and 'value="squalls"' in page
    assert "Night, dim moon; wind from the W, fresh; squalls" in page  # the map's legend


def test_a_table_battle_in_inches_takes_new_conditions_and_its_set_up_line_follows() -> None:
    """ww2_jackson (a table in inches): A6, "Night is a battle setting (day, night with no moon, dim moon,
    bright moon)". The set-up's line said "day action" after the umpire made it night: it is written again."""
    game = scenario_campaign(PLATE, start=False)
    assert [e["text"] for e in game.battle.setup_events] == ["4 ships take station; day action."]

    response = _client(game.umpire).post(_url(game.battle), _post(night="on", moon="bright", weather="haze"))

    assert response.status_code == 302
    after = _state(game.battle)
    assert _conditions(after.conditions) == (True, "bright", None, None, "haze", None)
    # NW-WW2-25: at night, a line a side, for that side
    assert [(e["text"], e["visible_to"]) for e in Battle.objects.get(pk=game.battle.pk).setup_events] == [
        ("1 ship of Kriegsmarine takes station; night action.", ["germany"]),
        ("3 ships of Royal Navy (Force G) take station; night action.", ["britain"]),
    ]


def test_a_sail_battle_works_out_its_weather_and_visibility_from_the_chart() -> None:
    """sail_1700 (a table in millimetres), 4.: "Throw two Decimal dice to determine the weather, wind
    strength and visibility. Visibility is halved at night." and the chart's "Fog and Mist 200 500 1500 ...
    4 8 10" (light breeze): fog with a light breeze is weather number 10 at its best, 1,500 mm, 750 at
    night. The set-up's weather line is written again; the initiative and crew rolls stay."""
    game = scenario_campaign(SAIL, start=False)
    kinds_before = [e["kind"] for e in game.battle.setup_events]

    response = _client(game.umpire).post(
        _url(game.battle), _post(night="on", moon="none", weather="fog", wind_force="light", wind_from="90")
    )

    assert response.status_code == 302
    c = _state(game.battle).conditions
    assert _conditions(c) == (True, "none", 90.0, "light", "fog", 750.0)
    assert (c.extra["weather_number"], c.extra["weather_visibility"]) == (10, 1500)
    events = Battle.objects.get(pk=game.battle.pk).setup_events
    weather = [e["text"] for e in events if e["kind"] in ("wind", "weather")]
    assert weather == [
        "Weather fog, a light breeze; wind from 90 degrees; visibility 750 mm (halved at night) (4., 5., A2)."
    ]
    assert [e["kind"] for e in events if e["kind"] not in ("wind", "weather")] == [
        k for k in kinds_before if k not in ("wind", "weather")
    ]
    page = _client(game.umpire).get(_url(game.battle)).content.decode()
    assert "Visibility 750 mm: not set here" in page


def test_sail_keeps_its_weather_number_while_the_weather_stays() -> None:
    """4.: "Fog and Mist 200 500 1500 ... 4 8 10" (light breeze): a rolled weather number 4 (fog, a light
    breeze, 200 mm) is kept when only the night changes, its visibility halved ("Visibility is halved at
    night"): 100 mm, not the best band's (number 10, 750 mm at night). Left empty, the weather and wind force
    are rolled afresh, as at creation."""
    game = scenario_campaign(SAIL, start=False)
    battle = Battle.objects.get(pk=game.battle.pk)
    rolled = {"weather_number": 4, "weather_visibility": 200}
    battle.state = {
        **battle.state,
        "conditions": {
            **battle.state["conditions"],
            "weather": "fog",
            "wind_force": "light",
            "visibility": 200.0,
            "extra": rolled,
        },
    }
    battle.save(update_fields=["state"])
    umpire = _client(game.umpire)

    kept = umpire.post(_url(battle), _post(night="on", weather="fog", wind_force="light", wind_from="180"))

    assert kept.status_code == 302
    night = _state(battle).conditions
    assert _conditions(night) == (True, "none", 180.0, "light", "fog", 100.0)
    assert night.extra == rolled

    assert umpire.post(_url(battle), _post(wind_from="45")).status_code == 302
    again = _state(battle).conditions
    assert again.weather is not None and again.wind_force is not None and again.wind_from == 45.0
    assert isinstance(again.extra["weather_number"], int)


# --- refusals: form errors, 400, nothing saved -----------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "fields", "message"),
    [
        pytest.param(
            "bismarck_last_battle_1941",
            {"wind_from": "720"},
            "wind_from 720 is not from 0 up to 360 degrees (360 is 0).",
            id="NW-CAMP-08-wind-720",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"wind_from": "-1"},
            "wind_from -1 is not from 0 up to 360 degrees (360 is 0).",
            id="NW-CAMP-08-wind-negative",
        ),
        pytest.param("bismarck_last_battle_1941", {"wind_from": "west"}, "Enter a number.", id="wind-text"),
        pytest.param("bismarck_last_battle_1941", {"wind_from": "nan"}, "Enter a number.", id="wind-nan"),
        pytest.param("bismarck_last_battle_1941", {"wind_from": "1_0"}, "Enter a number.", id="wind-1_0"),
        pytest.param(
            "bismarck_last_battle_1941", {"wind_from": "1" + "0" * 400}, "Enter a number.", id="wind-inf"
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            {"moon": "full"},
            "The moon is one of: none, dim, bright (given: &#x27;full&#x27;).",
            id="moon-full",
        ),
        pytest.param(
            PLATE,
            {"weather": "x" * 5000},
            "weather has 5000 characters; at most 100.",
            id="NW-CAMP-08-long-weather",
        ),
        pytest.param(
            SAIL,
            {"wind_force": "Gale", "weather": "storm"},
            "Wind and weather: wind_force &#x27;Gale&#x27; is not one of sail_1700&#x27;s: calm, light, "
            "moderate, strong, gale (NW-SAIL-35).",
            id="NW-SAIL-35-capital-Gale",
        ),
        pytest.param(
            SAIL,
            {"wind_force": "gale", "weather": "clear"},
            "Wind and weather: the weather chart (4.; S04, S05) has no clear with a gale; clear comes "
            "with calm, light, moderate, strong (NW-SAIL-35).",
            id="NW-SAIL-35-no-clear-gale",
        ),
    ],
)
def test_a_bad_condition_is_a_form_error_and_nothing_is_saved(
    scenario: str, fields: dict[str, str], message: str
) -> None:
    game = scenario_campaign(scenario, start=False)
    before = (Battle.objects.get(pk=game.battle.pk).state, Battle.objects.get(pk=game.battle.pk).setup_events)

    response = _client(game.umpire).post(_url(game.battle), _post(**fields))

    assert response.status_code == 400
    assert message in response.content.decode()
    after = Battle.objects.get(pk=game.battle.pk)
    assert (after.state, after.setup_events) == before


def test_the_battle_form_and_the_editor_give_one_message() -> None:
    """One form (ConditionsForm) for both pages: the battle form's refusal of a moon it does not offer is the
    editor's, word for word."""
    game = scenario_campaign(start=False)
    umpire = _client(game.umpire)

    editor = umpire.post(_url(game.battle), _post(moon="Bright")).content.decode()
    form = umpire.post(
        reverse("battles:battle_new", args=[game.campaign.pk]), {"moon": "Bright"}
    ).content.decode()

    message = '<p class="error">The moon is one of: none, dim, bright (given: &#x27;Bright&#x27;).</p>'
    assert message in editor and message in form


def test_a_nul_in_a_condition_is_refused_and_nothing_is_saved() -> None:
    """NW-CAMP-18: a NUL in form data is a 400 saying so (PostgreSQL cannot store it), on every database."""
    game = scenario_campaign(start=False)
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(_url(game.battle), _post(weather="fog\x00", wind_force="\x00"))

    assert response.status_code == 400
    assert Battle.objects.get(pk=game.battle.pk).state == before


def test_a_negative_visibility_is_refused_by_check_state() -> None:
    """NW-CAMP-08: "the visibility is below 0" is refused. The visibility is not the umpire's to set here
    (NW-CAMP-20: a posted one is not read); a state holding a negative one (stored before NW-CAMP-08) is
    refused whole by ``rules.check_state``, the message on the form, and nothing is saved."""
    game = scenario_campaign(start=False)
    ignored = _client(game.umpire).post(_url(game.battle), _post(night="on", visibility="-5"))
    assert ignored.status_code == 302
    assert _state(game.battle).conditions.visibility is None
    battle = Battle.objects.get(pk=game.battle.pk)
    battle.state = {**battle.state, "conditions": {**battle.state["conditions"], "visibility": -5}}
    battle.save(update_fields=["state"])

    response = _client(game.umpire).post(_url(game.battle), _post(moon="dim"))

    assert response.status_code == 400
    assert "<p>visibility -5 must be 0 or more.</p>" in response.content.decode()
    assert Battle.objects.get(pk=game.battle.pk).state == battle.state
    with pytest.raises(ApplicationError) as exc:
        services.battle_setup_conditions_set(
            battle=battle, user=game.umpire, conditions=Conditions(moon="dim")
        )
    assert exc.value.code == "bad_setup"


# --- who, and when --------------------------------------------------------------------------------------


def test_players_observers_and_strangers_may_not_set_the_conditions() -> None:
    """Umpire only (selectors.require_umpire): a member who is not the umpire gets 403, someone who may not
    see the campaign 404, and the service refuses them too; nothing is saved."""
    game = scenario_campaign(start=False)
    observer = UserFactory()
    services.membership_add(campaign=game.campaign, user=observer, role="observer")
    stranger = scenario_campaign().umpire
    before = Battle.objects.get(pk=game.battle.pk).state
    post = _post(night="on", moon="bright")

    for user, status in ((game.players["britain"], 403), (observer, 403), (stranger, 404)):
        for headers in ({}, {"HX-Request": "true"}):
            assert _client(user).post(_url(game.battle), post, headers=headers).status_code == status
        with pytest.raises(ApplicationError) as exc:
            services.battle_setup_conditions_set(
                battle=game.battle, user=user, conditions=Conditions(night=True)
            )
        assert exc.value.code == "not_umpire"

    assert Battle.objects.get(pk=game.battle.pk).state == before


def test_a_started_battle_keeps_its_conditions() -> None:
    """The editor sends a started battle's umpire to the map, as for the other tools; the service refuses."""
    game = scenario_campaign()  # started: phase 1 is open
    before = Battle.objects.get(pk=game.battle.pk).state

    response = _client(game.umpire).post(_url(game.battle), _post(night="on"))

    assert response.status_code == 302
    assert response["Location"] == reverse("battles:battle_map", args=[game.battle.pk])
    with pytest.raises(ApplicationError) as exc:
        services.battle_setup_conditions_set(
            battle=game.battle, user=game.umpire, conditions=Conditions(night=True)
        )
    assert (exc.value.code, exc.value.status) == ("battle_started", 409)
    assert Battle.objects.get(pk=game.battle.pk).state == before
