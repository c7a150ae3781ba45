"""NW-ACW-22, NW-MEM-09, NW-MEM-10, NW-US-06 and NW-US-07: the umpire's edit of an acw_river, memoir_sea or
ultra_simple sheet is refused when an entry holds what the engine would read as something else (a count of 2.5
points, 1 for true, a ram's bow in a ship that is not in the battle) or what no afloat ship could have
(protection 0); what the engine writes is saved."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle, ShipEdit
from navalwar.errors import ApplicationError
from rules.base import sheet_kind_errors
from tests.factories import scenario_campaign
from tests.utils import battle_ship, sheet_edit

pytestmark = pytest.mark.django_db

MEMPHIS, SANTIAGO = "first_memphis_1862", "santiago_de_cuba_1898"


@pytest.mark.parametrize(
    ("scenario", "key", "sheet", "message"),
    [
        pytest.param(
            MEMPHIS, "benton", {"lost": 2.5}, "sheet lost must be a whole number, 0 or more", id="acw-lost"
        ),
        pytest.param(MEMPHIS, "benton", {"astern": 1}, "sheet astern must be true or false", id="acw-astern"),
        pytest.param(
            MEMPHIS,
            "benton",
            {"embedded_in": "nosuch"},
            "sheet embedded_in must be a ship of the battle (not herself) or null",
            id="acw-embedded-in-no-ship",
        ),
        pytest.param(
            MEMPHIS,
            "benton",
            {"embedded_in": "benton"},
            "sheet embedded_in must be a ship of the battle (not herself) or null",
            id="acw-embedded-in-herself",
        ),
        pytest.param(
            MEMPHIS,
            "benton",
            {"loaded": True},
            "sheet loaded must be null: she is no transport",
            id="acw-loaded",
        ),
        pytest.param(
            MEMPHIS,
            "benton",
            {"lost": 99},
            "sheet lost (99) must be at most her resistance",
            id="acw-lost-99",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            "kgv",
            {"damage": 2.5},
            "sheet damage must be a whole number, 0 or more",
            id="ultra-damage",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            "kgv",
            {"protection": 0},
            "sheet protection (0) must be 1 or more: the least a ship has (4.0, U12)",
            id="ultra-protection-0",
        ),
        pytest.param(
            "bismarck_last_battle_1941",
            "kgv",
            {"damage": 99},
            "sheet damage (99) sinks her, with protection ",
            id="ultra-damage-sinks-her",
        ),
        pytest.param(
            SANTIAGO,
            "indiana",
            {"damage": 1.5},
            "sheet damage must be a whole number, 0 or more",
            id="mem-damage",
        ),
        pytest.param(
            SANTIAGO,
            "indiana",
            {"breaking_off": 0},
            "sheet breaking_off must be true or false",
            id="mem-breaking-off",
        ),
        pytest.param(
            SANTIAGO,
            "indiana",
            {"critical_point": 30},
            "sheet critical_point (30) must be below her flotation",
            id="mem-critical-point",
        ),
        pytest.param(
            SANTIAGO,
            "indiana",
            {"flotation": 0},
            "sheet critical_point (7) must be below her flotation (0)",
            id="mem-flotation-0-no-critical-point-below",
        ),
        pytest.param(
            SANTIAGO,
            "indiana",
            {"damage": 99},
            "sheet damage (99) sinks her, with flotation ",
            id="mem-damage-sinks-her",
        ),
    ],
)
def test_a_sheet_entry_of_the_wrong_shape_is_refused_and_nothing_saved(
    scenario: str, key: str, sheet: dict[str, Any], message: str
) -> None:
    game = scenario_campaign(scenario)
    before = Battle.objects.get(pk=game.battle.pk).state

    with pytest.raises(ApplicationError) as refused:
        sheet_edit(game, key, sheet)

    assert refused.value.code == "bad_edit" and message in refused.value.message
    assert Battle.objects.get(pk=game.battle.pk).state == before and not ShipEdit.objects.exists()


@pytest.mark.parametrize(
    ("scenario", "key", "sheet"),
    [
        pytest.param(
            MEMPHIS,
            "benton",
            {"lost": 5, "astern": True, "aground": True, "aground_turn": 1, "embedded_in": "van_dorn"},
            id="acw",
        ),
        pytest.param(
            SANTIAGO, "indiana", {"damage": 6, "torpedoes_left": 0, "breaking_off": True}, id="memoir"
        ),
    ],
)
def test_a_sheet_of_her_shape_is_saved(scenario: str, key: str, sheet: dict[str, Any]) -> None:
    game = scenario_campaign(scenario)

    sheet_edit(game, key, sheet)

    after = battle_ship(game, key).sheet
    assert {k: after[k] for k in sheet} == sheet


def test_sheet_kind_errors_checks_only_the_entries_given() -> None:
    kinds = {"lost": "whole", "astern": "bool", "turn": "whole?", "bow_in": "ship?"}
    assert sheet_kind_errors({"lost": -1, "turn": None, "extra": "x"}, kinds, "a", {"a", "b"}) == [  # type: ignore[arg-type]
        "lost must be a whole number, 0 or more"
    ]
    assert sheet_kind_errors({"astern": True, "bow_in": "b"}, kinds, "a", {"a", "b"}) == []  # type: ignore[arg-type]
