"""The landing page and the base layout (htmx, CSRF header, navigation, messages)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import StaffUserFactory

pytestmark = pytest.mark.django_db


def test_landing_welcomes_visitors(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Naval campaigns, played by web" in html
    assert f'href="{reverse("login")}"' in html
    assert "Log out" not in html


def test_landing_greets_a_logged_in_user_by_name(client: Client) -> None:
    user = StaffUserFactory(username="jellicoe", first_name="John", last_name="Jellicoe")
    client.force_login(user)

    html = client.get("/").content.decode()

    assert "Welcome aboard, John Jellicoe" in html
    assert reverse("password_change") in html
    assert reverse("admin:index") in html
    assert "Log out" in html


def test_base_layout_loads_bundled_htmx_and_sends_csrf_as_a_header(user_client: Client) -> None:
    response = user_client.get("/")
    html = response.content.decode()
    token = response.context["csrf_token"]

    assert '<script src="/static/django_htmx/htmx' in html
    assert "unpkg.com" not in html and "cdn" not in html.lower()
    assert f"""hx-headers='{{"X-CSRFToken": "{token}"}}'""" in html
    assert '<meta name="viewport"' in html
    assert "/static/css/navalwar.css" in html


def test_partials_loader_is_installed(user_client: Client) -> None:
    from django.template import engines

    loaders = engines["django"].engine.loaders

    assert loaders[0][0] == "template_partials.loader.Loader"


def test_admin_login_page_is_public(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200


def test_unknown_url_is_404_for_a_user(user_client: Client) -> None:
    assert user_client.get("/no-such-page/").status_code == 404
