"""Chromium: the class page and the quick reference fit a phone, and print without the site's chrome."""

import pytest

from fleets.services import reference_data_load
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Elements of <main> that stick out to the right of the window, other than inside a scrolling table box.
OVERFLOW = """() => [...document.querySelectorAll('main *')].filter(el => {
  if (el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1) return false;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (getComputedStyle(p).overflowX === 'auto') return false;
  }
  return true;
}).length"""


def test_class_page_and_quick_reference_on_a_phone_and_on_paper(  # type: ignore[no-untyped-def]
    live_server, chromium_page
) -> None:
    reference_data_load()
    UserFactory(username="tovey")
    page = chromium_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "tovey")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Welcome aboard")

    page.goto(f"{live_server.url}/fleets/classes/ultra_simple/bismarck/")
    assert page.is_visible(".sheet")
    assert page.evaluate(OVERFLOW) == 0

    page.goto(f"{live_server.url}/fleets/rules/ultra_simple/")
    assert page.is_visible("#chart-range_bands table")
    assert page.evaluate(OVERFLOW) == 0
    page.emulate_media(media="print")
    assert not page.is_visible(".site-header")
    assert not page.is_visible(".chart-index")
    assert page.is_visible("#chart-range_bands table")


def test_class_list_filters_with_htmx(live_server, chromium_page) -> None:  # type: ignore[no-untyped-def]
    reference_data_load()
    UserFactory(username="tovey")
    page = chromium_page
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "tovey")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Welcome aboard")

    page.goto(f"{live_server.url}/fleets/?ruleset=ultra_simple")
    page.fill("#id_q", "nels")
    page.wait_for_selector("#results >> text=1 class")
    assert page.inner_text("#results tbody").strip().startswith("Nelson")
    assert "q=nels" in page.url
