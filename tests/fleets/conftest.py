"""Fixtures of the fleets tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from rules import registry
from tests.factories import UserFactory


@pytest.fixture
def superuser(db: None) -> Any:
    return UserFactory(username="fisher", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client_(client: Client, superuser: Any) -> Client:
    """A client logged in as a superuser (force_login: axes refuses client.login())."""
    client.force_login(superuser)
    return client


@pytest.fixture
def record_ruleset(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the ww2-like ``record`` rule set of tests/fleets/record_ruleset.py for one test."""
    monkeypatch.setitem(registry._MODULES, "record", "tests.fleets.record_ruleset")
    registry.get_ruleset.cache_clear()
    yield "record"
    registry.get_ruleset.cache_clear()
