"""Error pages (400, 403, 404, 500) are the site's own, styled, and leak nothing; /bench/bare/ exists only
for the benchmark (NAVALWAR_BENCH=1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.views import defaults

from battles import selectors
from navalwar.errors import Refusal, permission_denied
from tests.factories import UserFactory, scenario_campaign
from tests.utils import clean_env, run_python

pytestmark = pytest.mark.django_db

LEAKS = ("Traceback", "RuntimeError", "secret detail", 'File "', "DEBUG")


def test_404_is_the_site_page(user_client: Client) -> None:
    response = user_client.get("/no/such/page/")

    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in html
    assert "/static/css/navalwar.css" in html
    assert "Back to my battles" in html  # base layout, with the logged-in user's navigation
    assert "Log out" in html


def test_another_campaigns_battle_is_the_same_404(user_client: Client) -> None:
    game = scenario_campaign()

    response = user_client.get(f"/battles/{game.battle.pk}/")

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()
    assert "No such" not in response.content.decode()


def test_403_is_the_site_page(rf: RequestFactory, user: Any) -> None:
    request = rf.get("/somewhere/")
    request.user = user

    for handler in (defaults.permission_denied, permission_denied):  # Django's view, and our handler403
        response = handler(request, PermissionDenied("secret detail"))

        html = response.content.decode()
        assert response.status_code == 403
        assert "<h1>Not allowed</h1>" in html
        assert "secret detail" not in html


def test_403_shows_a_refusal_written_for_the_user(rf: RequestFactory, user: Any) -> None:
    request = rf.get("/somewhere/")
    request.user = user

    response = permission_denied(request, Refusal("Only an umpire of this campaign may do that."))

    html = response.content.decode()
    assert response.status_code == 403
    assert '<p id="refusal">Only an umpire of this campaign may do that.</p>' in html
    assert "nothing was changed" in html


def test_400_is_the_site_page(rf: RequestFactory, user: Any) -> None:
    request = rf.get("/somewhere/")
    request.user = user

    response = defaults.bad_request(request, Exception("secret detail"))

    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in response.content.decode()


def test_an_exception_in_a_view_gives_the_500_page_without_details(
    monkeypatch: pytest.MonkeyPatch, user: Any
) -> None:
    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(selectors, "battle_get", broken)
    client = Client(raise_request_exception=False)
    client.force_login(user)

    response = client.get("/battles/1/")

    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in html
    assert "Nothing is ever half-saved" in html
    assert "/static/css/navalwar.css" in html
    for leak in LEAKS:
        assert leak not in html


def test_the_bench_view_is_not_routed_by_default(user_client: Client) -> None:
    assert user_client.get("/bench/bare/").status_code == 404


def test_the_bench_view_answers_ok_with_navalwar_bench_set() -> None:
    code = (
        "import django; django.setup()\n"
        "from django.urls import resolve\n"
        "from django.test import RequestFactory\n"
        "from django.contrib.auth.models import AnonymousUser\n"
        "match = resolve('/bench/bare/')\n"
        "request = RequestFactory().get('/bench/bare/'); request.user = AnonymousUser()\n"
        "response = match.func(request)\n"
        "print(match.url_name, response.status_code, response.content.decode())\n"
    )
    with_bench = run_python(code, clean_env(NAVALWAR_BENCH="1"))
    without = run_python(code, clean_env())

    assert with_bench.stdout.strip() == "bench_bare 200 ok", with_bench.stderr
    assert "Resolver404" in without.stderr


def test_a_refusal_is_logged_on_one_line_and_a_500_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """navalwar.logs.NoTracebackForRefusals: a player pressing an umpire's button is routine (a 403 and
    Django's one-line warning); a fault keeps its traceback for the admin."""
    game = scenario_campaign()
    client = Client(raise_request_exception=False)
    client.force_login(game.players["britain"])

    with caplog.at_level("WARNING", logger="django.request"):
        response = client.post(f"/battles/{game.battle.pk}/umpire/", {"action": "close"})
    (refused,) = [r for r in caplog.records if r.name == "django.request"]

    assert response.status_code == 403
    assert refused.getMessage() == f"Forbidden (Permission denied): /battles/{game.battle.pk}/umpire/"
    assert refused.exc_info is None

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(selectors, "battle_get", broken)
    caplog.clear()
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get(f"/battles/{game.battle.pk}/").status_code == 500
    (fault,) = [r for r in caplog.records if r.name == "django.request"]
    assert fault.exc_info is not None and fault.exc_info[0] is RuntimeError


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "back"),
    [
        pytest.param("/battles/5/umpire/", "/battles/5/", id="umpire-form"),
        pytest.param("/battles/5/orders/hood/", "/battles/5/", id="orders-form"),
        pytest.param("/campaigns/5/settings/", "/campaigns/5/", id="settings-form"),
    ],
)
def test_a_form_address_opened_in_the_browser_gets_a_page_not_a_blank_405(path: str, back: str) -> None:
    """A POST-only address opened with GET was a blank 405 (fresh-user check). Now the site's page says it
    is a form's address, links the page it belongs to and keeps the Allow header; htmx gets the bare 405."""
    client = Client()
    client.force_login(UserFactory())

    response = client.get(path)
    htmx = client.get(path, headers={"HX-Request": "true"})

    html = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "Not a page to open" in html and "This address is where a form sends" in html
    assert f'<a href="{back}">open the page it belongs to</a>' in html
    assert (htmx.status_code, htmx.content) == (405, b"")
