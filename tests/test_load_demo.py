"""``manage.py load_demo`` makes the admin login, is safe to run twice and refuses production."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from navalwar import demo

pytestmark = pytest.mark.django_db


def run_load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_twice_makes_one_admin_and_prints_the_login() -> None:
    first = run_load_demo()
    second = run_load_demo()

    admins = get_user_model().objects.filter(username=demo.ADMIN_USERNAME)
    assert admins.count() == 1
    admin = admins.get()
    assert admin.is_staff and admin.is_superuser
    assert "Created the admin login." in first
    assert "already there" in second
    for output in (first, second):
        # Columns are padded to the longest user name (later loaders add longer ones).
        assert re.search(rf"^  admin +{demo.ADMIN_PASSWORD}  site admin \(/admin/\)$", output, re.MULTILINE)


def test_the_demo_admin_can_log_in_to_the_admin_site(client: Client) -> None:
    run_load_demo()

    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": demo.ADMIN_USERNAME, "password": demo.ADMIN_PASSWORD, "next": "/admin/"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_load_demo_refuses_production(settings) -> None:  # type: ignore[no-untyped-def]
    settings.PRODUCTION = True

    with pytest.raises(CommandError, match="DJANGO_ENV=production"):
        call_command("load_demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username=demo.ADMIN_USERNAME).exists()


def test_loaders_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def first() -> demo.DemoReport:
        calls.append("first")
        return demo.DemoReport(logins=(demo.DemoLogin(username="p1", password="pw-one", role="player"),))

    def second() -> demo.DemoReport:
        calls.append("second")
        return demo.DemoReport(notes=("made a campaign",))

    monkeypatch.setattr("tests.test_load_demo.first_loader", first, raising=False)
    monkeypatch.setattr("tests.test_load_demo.second_loader", second, raising=False)
    monkeypatch.setattr(
        demo, "LOADERS", ["tests.test_load_demo.first_loader", "tests.test_load_demo.second_loader"]
    )

    output = run_load_demo()

    assert calls == ["first", "second"]
    assert "p1  pw-one  player" in output
    assert "tests.test_load_demo.second_loader: made a campaign" in output
