"""Log in, log out, wrong passwords, the axes throttle, password rules, password reset."""

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.password_validation import validate_password
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

WRONG_PASSWORD_TEXT = "Please enter a correct username and password"


def log_in(client: Client, username: str, password: str, next_url: str = ""):  # type: ignore[no-untyped-def]
    data = {"username": username, "password": password}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("login"), data)


def test_login_page_is_public(client: Client) -> None:
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content


def test_login_with_the_right_password(client: Client) -> None:
    user = UserFactory(username="nelson")

    response = log_in(client, "nelson", DEFAULT_PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == reverse("landing")
    assert client.session[SESSION_KEY] == str(user.pk)
    assert "Welcome aboard" in client.get(reverse("landing")).content.decode()


def test_login_honours_next(client: Client) -> None:
    UserFactory(username="nelson")

    response = log_in(client, "nelson", DEFAULT_PASSWORD, next_url=reverse("password_change"))

    assert response["Location"] == reverse("password_change")


def test_wrong_password_shows_the_form_again(client: Client) -> None:
    UserFactory(username="nelson")

    response = log_in(client, "nelson", "not-the-password")

    assert response.status_code == 200
    assert WRONG_PASSWORD_TEXT in response.content.decode()
    assert SESSION_KEY not in client.session


def test_axes_locks_out_after_five_failures_even_with_the_right_password(client: Client) -> None:
    UserFactory(username="nelson")
    for _ in range(4):
        assert log_in(client, "nelson", "not-the-password").status_code == 200

    fifth = log_in(client, "nelson", "not-the-password")
    then_right = log_in(client, "nelson", DEFAULT_PASSWORD)

    assert fifth.status_code == 429
    assert then_right.status_code == 429
    assert "Too many failed log-ins" in then_right.content.decode()
    assert SESSION_KEY not in client.session


def test_axes_lockout_is_per_username(client: Client) -> None:
    UserFactory(username="nelson")
    UserFactory(username="collingwood")
    for _ in range(5):
        log_in(client, "nelson", "not-the-password")

    response = log_in(client, "collingwood", DEFAULT_PASSWORD)

    assert response.status_code == 302


def test_a_success_resets_the_failure_count(client: Client) -> None:
    UserFactory(username="nelson")
    for _ in range(4):
        log_in(client, "nelson", "not-the-password")
    assert log_in(client, "nelson", DEFAULT_PASSWORD).status_code == 302
    client.post(reverse("logout"))

    for _ in range(4):
        assert log_in(client, "nelson", "not-the-password").status_code == 200


def test_logout_is_post_only_and_says_so(user_client: Client) -> None:
    assert user_client.get(reverse("logout")).status_code == 405

    response = user_client.post(reverse("logout"), follow=True)

    assert response.redirect_chain == [(reverse("landing"), 302)]
    assert SESSION_KEY not in user_client.session
    assert "You are logged out." in response.content.decode()


def test_pages_need_login_except_public_ones(client: Client) -> None:
    for name in ("landing", "login", "password_reset", "password_reset_done", "password_reset_complete"):
        assert client.get(reverse(name)).status_code == 200, name

    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('password_change')}"


@pytest.mark.parametrize(
    ("password", "valid"),
    [
        pytest.param("eleven-char", False, id="11-chars-too-short"),
        pytest.param("twelve-chars", True, id="12-chars-ok"),
        pytest.param("password1234", False, id="common"),
        pytest.param("830164729351", False, id="numeric"),
    ],
)
def test_password_rules(password: str, valid: bool) -> None:
    if valid:
        validate_password(password)
    else:
        with pytest.raises(ValidationError):
            validate_password(password)


def test_password_change_rejects_a_short_password(user_client: Client) -> None:
    response = user_client.post(
        reverse("password_change"),
        {"old_password": DEFAULT_PASSWORD, "new_password1": "Sh0rt-pw!", "new_password2": "Sh0rt-pw!"},
    )

    assert response.status_code == 200
    assert "at least 12 characters" in response.content.decode()


def test_password_change(user_client: Client, user) -> None:  # type: ignore[no-untyped-def]
    new = "broadside-at-dawn-42"

    response = user_client.post(
        reverse("password_change"),
        {"old_password": DEFAULT_PASSWORD, "new_password1": new, "new_password2": new},
    )

    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_reset_mails_a_link_that_sets_a_new_password(client: Client) -> None:
    user = UserFactory(username="nelson", email="nelson@club.invalid")

    response = client.post(reverse("password_reset"), {"email": "nelson@club.invalid"})

    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Navalwar: reset your password"
    match = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert match is not None
    set_password_url = client.get(match.group(1))["Location"]  # Django swaps the token for a session one
    new = "broadside-at-dawn-42"
    done = client.post(set_password_url, {"new_password1": new, "new_password2": new})
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(new)


def test_no_open_sign_up(client: Client) -> None:
    assert client.get("/accounts/signup/").status_code in (302, 404)
    assert client.get("/accounts/register/").status_code in (302, 404)


def test_an_htmx_request_after_logging_out_sends_the_whole_page_to_the_login(client: Client) -> None:
    """Logged out in another tab, a player saves an order: htmx followed the redirect and put the whole login
    page inside the ship's panel, and the login then sent them to the POST-only order URL (405). Now htmx is
    told to load the login page, coming back to the battle page."""
    response = client.post(
        "/battles/4/orders/kgv/",
        {"phase": "6"},
        headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/battles/4/#ship-kgv"},
    )

    assert response.status_code == 204
    assert response["HX-Redirect"] == "/accounts/login/?next=/battles/4/"
    plain = client.post("/battles/4/orders/kgv/", {"phase": "6"})
    assert plain.status_code == 302 and plain["Location"] == "/accounts/login/?next=/battles/4/orders/kgv/"
    foreign = client.get(
        "/battles/4/status/", headers={"HX-Request": "true", "HX-Current-URL": "http://evil/x"}
    )
    assert foreign["HX-Redirect"] == "/accounts/login/"
