"""An order with two bad fields shows both at once, each at its field (docs/rulings.md NW-CAMP-30).

Found by a fresh-user check: a rule set's own checks stopped at the first error (ultra_simple's target was
not checked after a refused turn, acw_river's fire orders not after a course that was no course, sail_1700's
targets not after a refused move, memoir_sea's course named only its first turn without a hex before it),
so the player fixed one field and was then told about the next. A check that needs the other fields well
formed still waits for them (the rules' illegal checks wait for every field to be valid; a range taken from
where the move ends waits for a legal move), but errors of one layer are all shown. Each case posts the
order to ``order_check`` and ``order_save`` with htmx and ``order_save`` as a plain post (the battle page
with the ship's form), and checks the exact messages at each field, and that nothing is saved.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles.models import Order
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}

ACW_COURSE = (
    "Write the course as letters only, F (one hex), L and R (a 30-degree turn to port or starboard), "
    "for example FFRF; this one has 'X'."
)
CASES = [
    pytest.param(
        "bismarck_last_battle_1941",
        "britain",
        "kgv",
        {"hexes": "1", "turn": "45", "turn_after": "0", "target": "rodney"},
        [
            ("turn", "Not allowed:", "One turn of 30 or 60 degrees, or none (2.0)."),
            ("target", "Not allowed:", "Rodney is on your side."),
        ],
        id="ultra_simple-turn-and-own-ship",
    ),
    pytest.param(
        "first_memphis_1862",
        "union",
        "benton",
        {"course": "FX", "astern": "true", "fire_front": "louisville"},
        [
            ("course", "Not allowed:", ACW_COURSE),
            ("fire_front", "Not allowed:", "Louisville is on your side."),
        ],
        id="acw_river-course-and-own-ship",
    ),
    pytest.param(
        "santiago_de_cuba_1898",
        "spain",
        "teresa",
        {"course": "LR", "target": ""},
        [
            ("course", "Not allowed:", "Turn 1 (L) needs a forward hex first (M10)."),
            ("course", "Not allowed:", "Turn 2 (R) needs a forward hex first (M10)."),
        ],
        id="memoir_sea-two-turns-without-a-hex",
    ),
    pytest.param(
        "santiago_de_cuba_1898",
        "spain",
        "teresa",
        {"course": "FFFF", "target": "brooklyn"},
        [
            ("course", "Not allowed:", "The course costs 4 hexes; the ship moves 3 (Movement, M10)."),
            (
                "target",
                "Not allowed:",
                "Brooklyn is 7 hexes away ahead: no die left at that range (countdown 3-3-2-2-1-1, M05).",
            ),
        ],
        id="memoir_sea-course-and-target",
    ),
    pytest.param(
        "denmark_strait_1941",
        "britain",
        "hood",
        {"course": "300", "speed": "30", "target_secondary": "bismarck"},
        [
            ("speed", "Not allowed:", "Hood can make at most 27 knots now (W38)."),
            (
                "target_secondary",
                "Not allowed:",
                "Hood cannot fire its secondary battery at Bismarck: Bismarck is beyond the secondary "
                "battery's range (58.6 in).",
            ),
        ],
        id="ww2_jackson-speed-and-target",
    ),
    pytest.param(
        "denmark_strait_1941",
        "britain",
        "hood",
        {"course": "west", "speed": "fast"},
        [("course", "Invalid:", "Enter a number."), ("speed", "Invalid:", "Enter a number.")],
        id="ww2_jackson-two-malformed-numbers",
    ),
]


@pytest.fixture(autouse=True)
def _fixed_setup_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set battles up from a fixed number, as tests/battles/test_orders_views.py does."""
    from battles import services as battle_services

    monkeypatch.setattr(battle_services.secrets, "randbits", lambda bits: 12345)


def _field_errors(html: str, ship: str) -> list[tuple[str, str, str]]:
    """Return (field, kind, message) of every error shown at a field of ``ship``'s form, in page order."""
    out = []
    for name, block in re.findall(rf'<div id="o-{ship}-([a-z_0-9]+)-errors">(.*?)</div>', html, re.S):
        for kind, msg in re.findall(
            r'<p class="error[^"]*"><span class="error-kind">([^<]*)</span> ([^<]*)</p>', block
        ):
            out.append((name, kind, msg))
    return out


def _post(game: Any, client: Client, name: str, ship: str, data: dict[str, str], **kwargs: Any) -> Any:
    url = reverse(f"battles:{name}", args=[game.battle.pk, ship])
    return client.post(url, {"phase": str(game.phase.pk), **data}, **kwargs)


@pytest.mark.parametrize(("scenario", "side", "ship", "data", "expected"), CASES)
def test_every_error_of_an_order_is_shown_at_its_field_at_once(
    scenario: str, side: str, ship: str, data: dict[str, str], expected: list[tuple[str, str, str]]
) -> None:
    game = scenario_campaign(scenario)
    client = Client()
    client.force_login(game.players[side])
    shown = [(name, kind, escape(msg)) for name, kind, msg in expected]

    check = _post(game, client, "order_check", ship, data, headers=HX)
    save = _post(game, client, "order_save", ship, data, headers=HX)
    plain = _post(game, client, "order_save", ship, data)

    assert (check.status_code, save.status_code, plain.status_code) == (200, 400, 400)
    for response in (check, save, plain):
        html = response.content.decode()
        assert _field_errors(html, ship) == shown
        assert f"{len(expected)} errors</span>" in html
    assert "The orders have errors: nothing was saved." in save.content.decode()
    assert "The orders have errors: nothing was saved." in plain.content.decode()
    assert not Order.objects.exists()
