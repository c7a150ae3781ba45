"""Fixtures of the fleets tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import UserFactory


@pytest.fixture
def superuser(db: None) -> Any:
    return UserFactory(username="fisher", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client_(client: Client, superuser: Any) -> Client:
    """A client logged in as a superuser (force_login: axes refuses client.login())."""
    client.force_login(superuser)
    return client
