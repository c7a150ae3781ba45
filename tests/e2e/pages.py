"""Helpers the browser tests share."""

from __future__ import annotations

from typing import Any

from tests.factories import DEFAULT_PASSWORD


def log_in(page: Any, base: str, username: str) -> None:
    """Log ``username`` (a factory user: ``tests.factories.DEFAULT_PASSWORD``) in by the login page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Log out")
