"""Log-in throttling and password length, where tests/test_accounts.py and tests/test_settings.py stop.

Already covered there (not repeated): ``check --deploy`` clean in production, production refusing to start
without its secrets or with DEBUG, the axes lock-out after five wrong passwords on the log-in form (429,
even with the right password, per user name), a success resetting the count, the 11/12-character boundary
of the validators, short passwords at password change and invitation sign-up.

Here: the lock-out also closes the admin's log-in, cannot be dodged with a forged ``X-Forwarded-For``
(axes reads REMOTE_ADDR only: the proxy's address), and every form that sets a password refuses 11
characters and takes 12.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from battles import services
from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

ELEVEN = "eleven-char"  # 11 characters, not common, not numeric
TWELVE = "twelve-chars"


def _fail_five_times(client: Client, username: str) -> None:
    for _ in range(5):
        client.post(reverse("login"), {"username": username, "password": "not-the-password"})


def test_a_lock_out_also_closes_the_admin_log_in(client: Client) -> None:
    StaffUserFactory(username="organiser", is_superuser=True)
    _fail_five_times(client, "organiser")

    response = client.post(
        reverse("admin:login"), {"username": "organiser", "password": DEFAULT_PASSWORD, "next": "/admin/"}
    )

    assert response.status_code == 429
    assert SESSION_KEY not in client.session


def test_a_forged_forwarded_for_header_does_not_dodge_the_lock_out(client: Client) -> None:
    UserFactory(username="nelson")
    _fail_five_times(client, "nelson")

    response = client.post(
        reverse("login"),
        {"username": "nelson", "password": DEFAULT_PASSWORD},
        headers={"X-Forwarded-For": "203.0.113.7", "X-Real-IP": "203.0.113.7"},
    )

    assert response.status_code == 429
    assert SESSION_KEY not in client.session


def test_the_lock_out_counts_wrong_passwords_sent_with_rotating_forwarded_for_headers(client: Client) -> None:
    UserFactory(username="nelson")
    for i in range(5):
        client.post(
            reverse("login"),
            {"username": "nelson", "password": "not-the-password"},
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
        )

    response = client.post(reverse("login"), {"username": "nelson", "password": DEFAULT_PASSWORD})

    assert response.status_code == 429


def _invitation_signup(password: str) -> tuple[Any, bool]:
    game = scenario_campaign()
    invitation = services.invitation_create(
        campaign=game.campaign, created_by=game.umpire, side=game.side("britain")
    )
    response = Client().post(
        reverse("battles:invitation", args=[invitation.token]),
        {"username": "newcomer", "password": password, "password_again": password},
    )
    return response, get_user_model().objects.filter(username="newcomer").exists()


def _user() -> Any:
    """A user whose names cannot resemble the test passwords: Django's UserAttributeSimilarityValidator
    refuses "twelve-chars" for a Faker first name such as "Charles" (quick ratio 0.74 >= 0.7), which made
    these tests fail now and then."""
    return UserFactory(first_name="Horatio", last_name="Nelson")


def _password_change(password: str) -> tuple[Any, bool]:
    user = _user()
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": DEFAULT_PASSWORD, "new_password1": password, "new_password2": password},
    )
    user.refresh_from_db()
    return response, user.check_password(password)


def _password_reset(password: str) -> tuple[Any, bool]:
    user = _user()
    client = Client()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    set_password_url = client.get(reverse("password_reset_confirm", args=[uid, token]))["Location"]
    response = client.post(set_password_url, {"new_password1": password, "new_password2": password})
    user.refresh_from_db()
    return response, user.check_password(password)


@pytest.mark.parametrize(
    "form", [_invitation_signup, _password_change, _password_reset], ids=lambda f: f.__name__
)
def test_every_form_that_sets_a_password_refuses_eleven_characters(form: Any) -> None:
    response, set_it = form(ELEVEN)

    assert response.status_code == 200
    assert "This password is too short. It must contain at least 12 characters." in response.content.decode()
    assert set_it is False


@pytest.mark.parametrize(
    "form", [_invitation_signup, _password_change, _password_reset], ids=lambda f: f.__name__
)
def test_every_form_that_sets_a_password_takes_twelve(form: Any) -> None:
    response, set_it = form(TWELVE)

    assert response.status_code == 302
    assert set_it is True
