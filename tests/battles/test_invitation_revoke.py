"""The umpire revokes an unused invitation (docs/rulings.md NW-CAMP-26): a POST from the campaign page's
list of unused invitations, umpire only, through ``services.invitation_revoke``; the invitation keeps who
revoked it and when; its link then says it was revoked (410), to a visitor and a logged-in user alike, and
neither joins with it. Before, an invitation sent to the wrong address could not be taken back."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Invitation, Membership
from navalwar.errors import ApplicationError
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

REVOKED = "This invitation was revoked by the campaign&#x27;s umpire: ask them for a new link."


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _html(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _invite(game: Any, **kwargs: Any) -> Invitation:
    return services.invitation_create(
        campaign=game.campaign, created_by=game.umpire, side=game.campaign.sides.get(key="germany"), **kwargs
    )


def _revoke_url(game: Any, invitation: Invitation) -> str:
    return reverse("battles:invitation_revoke", args=[game.campaign.pk, invitation.pk])


def test_the_umpire_revokes_an_invitation_from_the_campaign_page_and_its_link_says_so(game: Any) -> None:
    invitation = _invite(game)
    kept = _invite(game)
    umpire = _client(game.umpire)
    page = _html(umpire.get(reverse("battles:campaign", args=[game.campaign.pk])))
    assert f'action="{_revoke_url(game, invitation)}"' in page  # a Revoke button for each unused one
    assert f'action="{_revoke_url(game, kept)}"' in page

    response = umpire.post(_revoke_url(game, invitation), follow=True)

    assert response.redirect_chain == [
        (reverse("battles:campaign", args=[game.campaign.pk]) + "#invitations", 302)
    ]
    html = _html(response)
    assert "The invitation for a player of Kriegsmarine is revoked: its link no longer works." in html
    assert invitation.token not in html and kept.token in html  # no longer listed as unused
    invitation.refresh_from_db()
    assert (invitation.revoked_by, invitation.used_at) == (game.umpire, None)
    assert invitation.revoked_at is not None
    link = reverse("battles:invitation", args=[invitation.token])
    for visitor in (None, UserFactory()):
        shown = _client(visitor).get(link)
        assert shown.status_code == 410
        assert REVOKED in _html(shown)
        assert "Join" not in _html(shown) and "Create your account" not in _html(shown)
    members = Membership.objects.count()
    joined = _client(UserFactory()).post(link)
    signed_up = _client().post(link, {"username": "newcomer", "password": "a-long-enough-pw-42"})
    assert joined.status_code == signed_up.status_code == 410
    assert Membership.objects.count() == members
    with pytest.raises(ApplicationError) as exc:
        services.invitation_accept(token=invitation.token, user=UserFactory())
    assert (exc.value.code, exc.value.status) == ("invitation_revoked", 410)
    assert _client().get(reverse("battles:invitation", args=[kept.token])).status_code == 200


def test_a_used_or_revoked_invitation_is_not_revoked_again(game: Any) -> None:
    used = _invite(game)
    services.invitation_accept(token=used.token, user=UserFactory())
    revoked = _invite(game)
    services.invitation_revoke(campaign=game.campaign, invitation_id=revoked.pk, user=game.umpire)
    revoked.refresh_from_db()
    first_revoke = revoked.revoked_at

    for invitation, code, message in (
        (
            used,
            "invitation_used",
            "This invitation has already been used: its user is a member of the campaign now. Nothing was "
            "changed.",
        ),
        (revoked, "invitation_revoked", "This invitation is already revoked. Nothing was changed."),
    ):
        with pytest.raises(ApplicationError) as exc:
            services.invitation_revoke(campaign=game.campaign, invitation_id=invitation.pk, user=game.umpire)
        assert (exc.value.code, exc.value.status, exc.value.message) == (code, 409, message)
        response = _client(game.umpire).post(_revoke_url(game, invitation), follow=True)
        assert response.status_code == 200
        assert message in response.content.decode()
    used.refresh_from_db()
    revoked.refresh_from_db()
    assert used.revoked_at is None and revoked.revoked_at == first_revoke


def test_an_expired_invitation_may_be_revoked(game: Any) -> None:
    expired = _invite(game, expires_in=timedelta(seconds=-1))

    services.invitation_revoke(campaign=game.campaign, invitation_id=expired.pk, user=game.umpire)

    assert REVOKED in _html(_client().get(reverse("battles:invitation", args=[expired.token])))


def test_only_the_campaigns_umpire_revokes_and_only_its_own_invitations(game: Any) -> None:
    invitation = _invite(game)
    other = scenario_campaign()
    theirs = services.invitation_create(
        campaign=other.campaign, created_by=other.umpire, side=other.campaign.sides.get(key="britain")
    )

    player = _client(game.players["britain"]).post(_revoke_url(game, invitation))
    stranger = _client(other.umpire).post(_revoke_url(game, invitation))
    # another campaign's invitation under this campaign's URL: no such invitation here
    elsewhere = _client(game.umpire).post(
        reverse("battles:invitation_revoke", args=[game.campaign.pk, theirs.pk])
    )
    get = _client(game.umpire).get(_revoke_url(game, invitation))

    assert (player.status_code, stranger.status_code, elsewhere.status_code, get.status_code) == (
        403,
        404,
        404,
        405,
    )
    assert "Only an umpire of this campaign may do that." in _html(player)
    assert not Invitation.objects.filter(revoked_at__isnull=False).exists()
    with pytest.raises(ApplicationError) as exc:
        services.invitation_revoke(
            campaign=game.campaign, invitation_id=invitation.pk, user=game.players["britain"]
        )
    assert (exc.value.code, exc.value.status) == ("not_umpire", 403)
