"""Fixtures of the battles tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Hash factory passwords with MD5: PBKDF2's 1M rounds cost about a second per user on a slow machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
