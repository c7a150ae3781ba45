"""NW-SAIL-40: the umpire's edit of a sail_1700 sheet is refused when it holds what the engine could not have
written (it read ``grade: "nonsense"`` as an average crew and burned ``fires: [{"x": 1}]`` as a new fire)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle, ShipEdit
from navalwar.errors import ApplicationError
from tests.factories import scenario_campaign
from tests.utils import battle_ship, sheet_edit, ship_edit_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Any:
    return scenario_campaign("sail_constitution_vs_guerriere_1812")


REFUSED = [
    pytest.param({"grade": "nonsense"}, "sheet grade must be one of: good, average, poor (8.)", id="grade"),
    pytest.param({"grade": "Good"}, "sheet grade must be one of: good, average, poor (8.)", id="grade-case"),
    pytest.param({"sails": "reefed"}, "sheet sails must be one of: set, furled (22.)", id="sails"),
    pytest.param(
        {"fires": [{"x": 1}]},
        "sheet fires must be a list of the attempts made to put out each fire, 0 to 3 (14., S27)",
        id="fires-object",
    ),
    pytest.param(
        {"fires": [4]},
        "sheet fires must be a list of the attempts made to put out each fire, 0 to 3 (14., S27)",
        id="fire-of-4-attempts",
    ),
    pytest.param(
        {
            "broadsides": {
                "starboard": {"ready_turn": 1, "shot": "grape"},
                "port": {"ready_turn": 1, "shot": "round"},
            }
        },
        "sheet broadsides must give starboard and port each a ready_turn (a turn) and a shot "
        "(round or double) (11.)",
        id="broadside-shot",
    ),
    pytest.param(
        {"broadsides": {"starboard": {"ready_turn": 1, "shot": "round"}}},
        "sheet broadsides must give starboard and port each a ready_turn (a turn) and a shot",
        id="broadside-missing",
    ),
    pytest.param(
        {"guns": {"starboard": 27, "port": 27, "bow": 2}},
        "sheet guns must give the guns left on each side: starboard and port (whole numbers)",
        id="guns-bow",
    ),
    pytest.param(
        {"mast_hits": 1.5}, "sheet mast_hits must be a whole number, 0 or more", id="mast-hits-fraction"
    ),
    pytest.param(
        {"captured_by": 5},
        "sheet captured_by must be the id of the ship that took her, or null (16.)",
        id="captor",
    ),
    pytest.param(
        {"sink_in": "soon"},
        "sheet sink_in must be a whole number of her moves before she sinks, or null (13., S25)",
        id="sink-in",
    ),
    pytest.param(
        {"entangled_with": "nosuch"},
        "sheet entangled_with must be another ship of the battle, or null for none",
        id="entangled-no-such-ship",
    ),
    pytest.param(
        {"towed_by": "constitution"},
        "sheet towed_by must be another ship of the battle, or null for none",
        id="towed-by-herself",
    ),
    pytest.param(
        {"mortar_ranged_on": "fort"},
        "sheet mortar_ranged_on must be a ship or shore battery of the battle, or null (23.)",
        id="mortar-no-such-battery",
    ),
    pytest.param(
        {"melee": {"attacker": "guerriere"}},
        "sheet melee must be null or an attacker and a defender (ships of the battle) and a deck "
        "(whole number)",
        id="melee-shape",
    ),
    pytest.param(
        {"melee": {"attacker": "guerriere", "defender": "guerriere", "deck": 1}},
        "sheet melee: she must be its attacker or its defender, against another ship",
        id="melee-without-her",
    ),
    pytest.param(
        {"melee": {"attacker": "constitution", "defender": "guerriere", "deck": 3}},
        "sheet melee: deck must be from 1 to 2 (the defender's decks: 15., S30), not 3",
        id="melee-deck",
    ),
    pytest.param(
        {"entangle_heading": 400},
        "sheet entangle_heading must be a number of degrees, from 0 to 360",
        id="entangle-heading",
    ),
]


@pytest.mark.parametrize(("sheet", "message"), REFUSED)
def test_a_sheet_the_engine_could_not_have_written_is_refused_and_nothing_saved(
    game: Any, sheet: dict[str, Any], message: str
) -> None:
    before = Battle.objects.get(pk=game.battle.pk).state
    edits = ShipEdit.objects.count()

    with pytest.raises(ApplicationError) as refused:
        sheet_edit(game, "constitution", sheet)

    assert refused.value.code == "bad_edit"
    assert f"Constitution: {message}" in refused.value.message
    assert Battle.objects.get(pk=game.battle.pk).state == before
    assert ShipEdit.objects.count() == edits


def test_each_problem_is_named_once(game: Any) -> None:
    with pytest.raises(ApplicationError) as refused:
        sheet_edit(game, "constitution", {"grade": "nonsense", "sails": "reefed"})

    assert refused.value.message == (
        "Constitution: sheet grade must be one of: good, average, poor (8.); "
        "Constitution: sheet sails must be one of: set, furled (22.)."
    )


def test_a_sheet_of_the_engines_shapes_is_saved(game: Any) -> None:
    """What the engine itself writes passes: fires with attempts made, a melee, an entanglement, double shot
    loading, guns lost, a countdown to sinking, sails furled; and an empty text for no ship."""
    sheet = {
        "grade": "poor",
        "sails": "furled",
        "make_sail_left": 3,
        "fires": [0, 3, 1],
        "guns": {"starboard": 20, "port": 27},
        "broadsides": {
            "starboard": {"ready_turn": 3, "shot": "double"},
            "port": {"ready_turn": 1, "shot": "round"},
        },
        "entangled_with": "guerriere",
        "entangle_heading": 247.5,
        "entangle_distance": 40,
        "melee": {"attacker": "guerriere", "defender": "constitution", "deck": 2},
        "sink_in": 3,
        "sink_reason": "holed on the rocks",
        "towing": "",
        "mortar_ranged_on": None,
        "mast_hits": 2,
        "dismasted": False,
    }

    sheet_edit(game, "constitution", sheet)

    after = battle_ship(game, "constitution").sheet
    assert {k: after[k] for k in sheet} == sheet


def test_the_page_says_why_with_a_400(game: Any) -> None:
    """The ship page's form: the refusal in words, status 400, the ship as she was."""
    client = Client(raise_request_exception=False)
    client.force_login(game.umpire)
    before = battle_ship(game, "constitution")
    url = reverse("battles:ship_sheet", args=[game.battle.pk, "constitution"])

    response = client.post(url, ship_edit_post(game.battle, "constitution", sheet_grade="nonsense"))

    assert response.status_code == 400
    assert "grade must be one of: good, average, poor (8.)" in response.content.decode()
    assert battle_ship(game, "constitution") == before
