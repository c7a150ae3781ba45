"""The deterministic-dice hook (``settings.NAVALWAR_DICE_SEED_BASE``, tests and development only).

Unset, every seed comes from ``secrets``; set, the set-up's and each phase's seed is the first 63 bits of
``sha256(f"{base}:{battle_id}:{purpose}")`` (purpose: ``setup``, the phase number, ``<number>:<k>`` for the
k-th re-opening after a roll-back), and the phase shows that seed's hash (A8). Production refuses the setting
(tests/test_settings.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from battles import services
from battles.models import Phase
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db


def derived(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def test_without_the_hook_seeds_are_drawn_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter([101, 202, 303])
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: next(drawn))

    game = scenario_campaign()

    assert game.phase.seed == 202  # 101 was the set-up's
    assert services.dice_seed(battle_id=game.battle.pk, purpose="2") == 303


def test_with_the_hook_every_seed_is_derived(settings: Any, django_capture_on_commit_callbacks: Any) -> None:
    settings.NAVALWAR_DICE_SEED_BASE = "e2e-base"
    game = scenario_campaign()
    battle_id = game.battle.pk
    first = game.phase

    assert first.seed == derived(f"e2e-base:{battle_id}:1")
    assert first.seed < 2**63
    assert first.seed_hash == hashlib.sha256(str(first.seed).encode()).hexdigest()

    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=first, user=game.umpire)
    second = game.phase
    assert (second.number, second.seed) == (2, derived(f"e2e-base:{battle_id}:2"))

    reopened = services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)
    # A re-opened phase 1 must not reuse the seed made public when the first phase 1 resolved (A8).
    assert reopened.seed == derived(f"e2e-base:{battle_id}:1:1")
    assert Phase.objects.get(pk=first.pk).umpire_seed == first.seed != reopened.seed


def test_the_same_base_and_battle_give_the_same_set_up(settings: Any) -> None:
    settings.NAVALWAR_DICE_SEED_BASE = "e2e-base"
    game = scenario_campaign("sail_constitution_vs_guerriere_1812")

    assert game.battle.setup_events  # the sail set-up rolls (wind, initiative)
    import rules
    from rules.scenario import bundled_scenarios, scenario_state

    scenario = bundled_scenarios()["sail_constitution_vs_guerriere_1812"]
    seed = derived(f"e2e-base:{game.battle.pk}:setup")
    from dataclasses import replace

    _state, events = scenario_state(
        replace(scenario, options={**scenario.options, "default_orders": "fire_nearest"}),
        rules.SeededDice(seed),
    )
    assert game.battle.setup_events == [rules.to_json(e) for e in events]
