"""Sign-up through an invitation keeps to the user model's user names (found by QA: "<b>evil</b>" and
"new player" were accepted; Django's admin and user forms refuse such names, so the account could not then
be edited)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from battles import services
from navalwar.errors import ApplicationError
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

INVALID = "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."


@pytest.fixture
def invitation() -> Any:
    game = scenario_campaign()
    return services.invitation_create(
        campaign=game.campaign, created_by=game.umpire, side=game.campaign.sides.get(key="britain")
    )


@pytest.mark.parametrize("username", ["<b>evil</b>", "new player", "tab\there"])
def test_a_user_name_outside_the_user_models_characters_is_refused(invitation: Any, username: str) -> None:
    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept_new_user(
            token=invitation.token, username=username, password="home-fleet-1941-kgv"
        )

    assert exc.value.code == "bad_signup"
    assert exc.value.fields == {"username": [INVALID]}
    assert not get_user_model().objects.filter(username=username).exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_the_sign_up_page_shows_the_refusal_next_to_the_user_name(invitation: Any) -> None:
    response = Client().post(
        reverse("battles:invitation", args=[invitation.token]),
        {
            "username": "<b>evil</b>",
            "password": "home-fleet-1941-kgv",
            "password_again": "home-fleet-1941-kgv",
        },
    )

    assert response.status_code == 200
    assert '<p class="error">Enter a valid username.' in response.content.decode()
    assert not get_user_model().objects.filter(username="<b>evil</b>").exists()


def test_letters_digits_and_the_usual_marks_still_sign_up(invitation: Any) -> None:
    membership = services.invitation_accept_new_user(
        token=invitation.token, username="j.tovey+hf@1941_x-y", password="home-fleet-1941-kgv"
    )

    assert membership.user.username == "j.tovey+hf@1941_x-y"


def _second_invitation(invitation: Any) -> Any:
    return services.invitation_create(
        campaign=invitation.campaign, created_by=invitation.created_by, side=invitation.side
    )


def test_a_user_name_django_would_save_otherwise_is_refused_not_a_500(invitation: Any) -> None:
    """create_user saves a name NFKC-normalised ("ﬁsh" -> "fish"); the check ran on the name typed, so a
    second "ﬁsh" was a 500 (IntegrityError), and the first could not log in as typed (fresh-user check)."""
    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept_new_user(
            token=invitation.token, username="ﬁsh", password="home-fleet-1941-kgv"
        )

    assert exc.value.fields == {
        "username": [
            "Type the user name in plain letters: it would be saved as 'fish', and that is what you would "
            "log in with."
        ]
    }
    assert not get_user_model().objects.filter(username="fish").exists()


def test_a_user_name_taken_in_another_case_is_refused_beyond_ascii(invitation: Any) -> None:
    """SQLite's iexact folds ASCII only: Émile and émile were two accounts (fresh-user check)."""
    services.invitation_accept_new_user(
        token=invitation.token, username="Émile", password="home-fleet-1941-kgv"
    )

    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept_new_user(
            token=_second_invitation(invitation).token, username="émile", password="home-fleet-1941-kgv"
        )

    assert exc.value.fields == {"username": ["That user name is taken."]}
    assert get_user_model().objects.filter(username__in=["Émile", "émile"]).count() == 1
