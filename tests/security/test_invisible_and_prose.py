"""A name holds no invisible character (docs/rulings.md NW-CAMP-33: "Hood\\u200b" looks like "Hood" and is
another name), and a reason or description no direction control that turns the text after it (NW-CAMP-34:
an end reason holding U+202E turned the rest of the log line around); both refused with a message where they
come in, nothing saved. The marks (U+200E, U+200F, U+061C) stay allowed in a reason: a note in Arabic may
need one."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Battle, Campaign, RepairRecord, ShipEdit, UmpireAction
from navalwar.errors import ApplicationError
from navalwar.text import INVISIBLE, SPILLING_CONTROLS, name_problem, prose_problem
from tests.factories import StaffUserFactory, scenario_campaign
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db

ZWSP = "\u200b"
RLO = "\u202e"
ZWSP_MESSAGE = (
    "a name may not hold an invisible character (here U+200B ZERO WIDTH SPACE): it would look like another "
    "name and be a different one; type the name without it"
)
RLO_MESSAGE = (
    "The text may not hold a Unicode direction control (here U+202E RIGHT-TO-LEFT OVERRIDE): it turns the "
    "order of the text after it, on the page around it too; write it without it."
)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


INVISIBLES = sorted(INVISIBLE)


@pytest.mark.parametrize("char", INVISIBLES, ids=[f"U+{ord(c):04X}" for c in INVISIBLES])
def test_every_invisible_character_is_refused_in_a_name(char: str) -> None:
    assert name_problem(f"Hood{char}") is not None
    assert name_problem(f"{char}Hood") is not None


def test_the_message_names_the_character() -> None:
    assert name_problem(f"Hood{ZWSP}") == ZWSP_MESSAGE
    assert name_problem("Hood\tII") == (
        "a name may not hold an invisible character (here U+0009 a control character): it would look like "
        "another name and be a different one; type the name without it"
    )


@pytest.mark.parametrize("char", ["\x00", "\x01", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9f"])
def test_control_characters_are_refused_in_a_name(char: str) -> None:
    assert name_problem(f"Ho{char}od") is not None


@pytest.mark.parametrize(
    "name",
    [
        "Hood",
        "Ōyodo",
        "\u0645\u06cc\u200c\u0647\u0646",  # Persian, with a zero width non-joiner (U+200C)
        "\U0001f3f4\u200d\u2620\ufe0f Jolly Roger",  # an emoji sequence joined by U+200D
        "Prinz\u00a0Eugen",  # a no-break space is seen: a space
    ],
)
def test_joiners_and_seen_characters_stay_allowed(name: str) -> None:
    assert name_problem(name) is None


SPILLING = sorted(SPILLING_CONTROLS)


@pytest.mark.parametrize("char", SPILLING, ids=[f"U+{ord(c):04X}" for c in SPILLING])
def test_a_reason_may_not_hold_a_control_that_turns_what_follows(char: str) -> None:
    assert prose_problem(f"Fog {char}came down") is not None


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c"])
def test_a_reason_may_hold_a_direction_mark(mark: str) -> None:
    assert prose_problem(f"\u05e2\u05e8\u05e4\u05dc{mark} (fog)") is None


def test_a_reason_may_hold_a_zero_width_space_or_a_tab() -> None:
    """A reason is not a name: nothing is told apart by it."""
    assert prose_problem(f"Fog{ZWSP}\tcame down") is None


# --- where names and reasons come in ---------------------------------------------------------------------


def _new_campaign(client: Client, **typed: str) -> Any:
    data = {
        "name": "Box",
        "ruleset": "ultra_simple",
        "default_orders": "hold",
        "deadline_hours": "24",
        "sides": "north\nsouth",
    }
    return client.post(reverse("battles:campaign_new"), {**data, **typed})


def test_the_campaign_form_refuses_a_name_with_a_zero_width_space() -> None:
    response = _new_campaign(_client(StaffUserFactory()), name=f"Box{ZWSP}")

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [ZWSP_MESSAGE[0].upper() + ZWSP_MESSAGE[1:] + "."]
    assert not Campaign.objects.exists()


def test_the_campaign_form_refuses_a_side_name_with_a_zero_width_space() -> None:
    response = _new_campaign(_client(StaffUserFactory()), sides=f"north, North{ZWSP}\nsouth")

    assert response.context["form"].errors["sides"] == [f"Side north: {ZWSP_MESSAGE}."]
    assert not Campaign.objects.exists()


def test_the_campaign_form_refuses_a_description_turning_the_page() -> None:
    response = _new_campaign(_client(StaffUserFactory()), description=f"A {RLO}campaign")

    assert response.context["form"].errors["description"] == [RLO_MESSAGE]
    assert not Campaign.objects.exists()


def test_the_service_refuses_a_description_turning_the_page() -> None:
    with pytest.raises(ApplicationError) as exc:
        services.campaign_create(
            name="Box",
            ruleset="ultra_simple",
            created_by=StaffUserFactory(),
            description=f"A {RLO}campaign",
            sides=[{"key": "north"}, {"key": "south"}],
        )
    assert (exc.value.code, exc.value.fields) == ("bad_text", {"description": [RLO_MESSAGE]})
    assert not Campaign.objects.exists()


def test_an_end_reason_turning_the_log_is_refused_and_the_battle_goes_on() -> None:
    game = scenario_campaign()
    url = reverse("battles:umpire", args=[game.battle.pk])

    client = _client(game.umpire)

    response = client.post(url, {"action": "end", "winner": "", "reason": f"Fog {RLO}now"})

    assert response.status_code == 302
    assert f'<li class="message message--error">{RLO_MESSAGE}</li>' in _text(client.get(response.url))
    assert Battle.objects.get(pk=game.battle.pk).status == "active"
    assert not UmpireAction.objects.filter(kind="end").exists()
    with pytest.raises(ApplicationError) as exc:
        services.battle_end(battle=game.battle, user=game.umpire, reason=f"Fog {RLO}now")
    assert exc.value.code == "bad_text"


def test_an_end_reason_with_a_mark_ends_the_battle() -> None:
    game = scenario_campaign()

    services.battle_end(battle=game.battle, user=game.umpire, reason="\u05e2\u05e8\u05e4\u05dc\u200f.")

    assert Battle.objects.get(pk=game.battle.pk).end_reason == "\u05e2\u05e8\u05e4\u05dc\u200f."


def test_a_repair_reason_turning_the_page_is_a_form_error() -> None:
    game = scenario_campaign()
    services.battle_end(battle=game.battle, user=game.umpire)
    kgv = game.campaign.ships.get(ship__name="King George V")
    url = reverse("battles:campaign_ship", args=[game.campaign.pk, kgv.pk])

    response = _client(game.umpire).post(
        url, {"action": "repair", "status": "active", "sheet": json.dumps(kgv.sheet), "reason": f"{RLO}dock"}
    )

    assert RLO_MESSAGE.replace("'", "&#x27;") in _text(response)
    assert RepairRecord.objects.count() == 0
    with pytest.raises(ApplicationError) as exc:
        services.campaign_ship_repair(
            campaign_ship=kgv, user=game.umpire, reason=f"{RLO}dock", sheet=kgv.sheet
        )
    assert exc.value.code == "bad_text"


def test_a_ship_edit_reason_turning_the_page_is_a_form_error() -> None:
    game = scenario_campaign()
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "kgv"])

    response = _client(game.umpire).post(
        url, ship_edit_post(game.battle, "kgv", reason=f"{RLO}engines", speed="1")
    )

    assert RLO_MESSAGE in _text(response)
    assert ShipEdit.objects.count() == 0
