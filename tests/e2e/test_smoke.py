"""Chromium smoke test: the login page renders with its stylesheet and htmx, and a player can log in."""

import pytest

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_log_in_and_out_in_chromium(live_server, chromium_page) -> None:  # type: ignore[no-untyped-def]
    UserFactory(username="beatty", first_name="David", last_name="Beatty")
    page = chromium_page

    page.goto(f"{live_server.url}/accounts/login/")
    header_colour = page.eval_on_selector(".site-header", "el => getComputedStyle(el).backgroundColor")
    assert header_colour == "rgb(11, 37, 69)"  # navalwar.css loaded (--navy)
    assert page.evaluate("typeof window.htmx") == "object"  # bundled htmx loaded

    page.fill("#id_username", "beatty")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("button[type=submit]")

    page.wait_for_selector("text=Welcome aboard, David Beatty")
    page.click("text=Log out")
    page.wait_for_selector("text=You are logged out.")
