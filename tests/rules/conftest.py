"""Fixtures of the rules tests. They need no Django: the rules package is pure Python."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules import registry


@pytest.fixture
def fake_ruleset(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the two-phase ``fake`` rule set of ``tests/rules/fake_ruleset.py`` for one test."""
    monkeypatch.setitem(registry._MODULES, "fake", "tests.rules.fake_ruleset")
    registry.get_ruleset.cache_clear()
    yield "fake"
    registry.get_ruleset.cache_clear()
