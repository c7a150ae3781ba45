"""Each side of a campaign has a colour of its own, kept as ``#rrggbb`` in lower case, and a campaign has at
most ten sides, as many as the palette has colours (docs/rulings.md NW-CAMP-35: the map tells the sides apart
by colour; a fresh-user check made two sides "#FF0000" and "#ff0000", and another 502 sides)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import SIDE_PALETTE, SIDES_MAX, Campaign, Side, side_colour
from navalwar.errors import ApplicationError
from tests.factories import StaffUserFactory, UserFactory
from tests.utils import admin_campaign_post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("#1F4E9C", "#1f4e9c"), ("#F00", "#ff0000"), (" #abc ", "#aabbcc"), ("red", None), ("#12345", None)],
)
def test_side_colour(typed: str, kept: str | None) -> None:
    assert side_colour(typed) == kept


def test_the_palette_has_a_colour_for_each_side_a_campaign_may_have() -> None:
    assert SIDES_MAX == len(SIDE_PALETTE) == len(set(SIDE_PALETTE)) == 10
    assert all(side_colour(c) == c for c in SIDE_PALETTE)


def _new_campaign(sides: str) -> Any:
    client = Client()
    client.force_login(StaffUserFactory())
    data = {"name": "Box", "ruleset": "ultra_simple", "default_orders": "hold", "deadline_hours": "24"}
    return client.post(reverse("battles:campaign_new"), {**data, "sides": sides})


@pytest.mark.parametrize("second", ["#ff0000", "#FF0000", "#f00"])
def test_two_sides_of_one_colour_are_a_form_error(second: str) -> None:
    response = _new_campaign(f"north, North, #FF0000\nsouth, South, {second}")

    assert response.status_code == 200
    assert response.context["form"].errors["sides"] == [
        "Sides north and south have the same colour (#ff0000): give each side its own, or leave one out to "
        "be given a free one."
    ]
    assert not Campaign.objects.exists()


def test_colours_are_kept_in_lower_case_six_digits() -> None:
    response = _new_campaign("north, North, #F00\nsouth, South, #1F4E9C")

    assert response.status_code == 302
    assert list(Side.objects.values_list("key", "colour")) == [("north", "#ff0000"), ("south", "#1f4e9c")]


def test_eleven_sides_are_a_form_error_and_ten_are_a_campaign() -> None:
    eleven = "\n".join(f"side{i}" for i in range(11))

    response = _new_campaign(eleven)

    assert response.context["form"].errors["sides"] == [
        "A campaign has at most 10 sides (this has 11): each side needs a colour of its own on the map."
    ]
    assert not Campaign.objects.exists()
    assert _new_campaign("\n".join(f"side{i}" for i in range(10))).status_code == 302
    assert sorted(Side.objects.values_list("colour", flat=True)) == sorted(SIDE_PALETTE)


def test_the_service_refuses_too_many_sides_and_one_colour_twice() -> None:
    umpire = StaffUserFactory()
    make = lambda sides: services.campaign_create(  # noqa: E731
        name="Box", ruleset="ultra_simple", created_by=umpire, sides=sides
    )
    with pytest.raises(ApplicationError) as exc:
        make([{"key": f"s{i}"} for i in range(502)])
    assert exc.value.code == "too_many_sides"
    with pytest.raises(ApplicationError) as exc:
        make([{"key": "a", "colour": "#ABC"}, {"key": "b", "colour": "#aabbcc"}])
    assert (exc.value.code, exc.value.message) == (
        "same_colour",
        "Side b: another side has the colour #aabbcc; give each side its own (the map tells them apart by "
        "it).",
    )
    assert not Campaign.objects.exists()
    # sides given none get the palette's first colours not given to another
    campaign = make([{"key": "a"}, {"key": "b", "colour": SIDE_PALETTE[0]}, {"key": "c"}])
    assert list(campaign.sides.values_list("colour", flat=True)) == [
        SIDE_PALETTE[1],
        SIDE_PALETTE[0],
        SIDE_PALETTE[2],
    ]


def test_side_create_gives_a_free_colour_and_refuses_the_eleventh_side() -> None:
    campaign = services.campaign_create(
        name="Box", ruleset="ultra_simple", created_by=UserFactory(), sides=[{"key": "a"}, {"key": "b"}]
    )
    with pytest.raises(ApplicationError) as exc:
        services.side_create(campaign=campaign, key="c", name="C", colour=SIDE_PALETTE[0].upper())
    assert exc.value.code == "same_colour"
    for i in range(8):
        services.side_create(campaign=campaign, key=f"x{i}", name=f"X{i}")
    assert sorted(campaign.sides.values_list("colour", flat=True)) == sorted(SIDE_PALETTE)
    with pytest.raises(ApplicationError) as exc:
        services.side_create(campaign=campaign, key="eleventh", name="Eleventh", colour="#123456")
    assert exc.value.code == "too_many_sides"
    assert campaign.sides.count() == 10


@pytest.fixture
def campaign() -> Campaign:
    return services.campaign_create(
        name="Channel 1940",
        ruleset="ultra_simple",
        created_by=UserFactory(),
        sides=[
            {"key": "britain", "name": "Royal Navy", "colour": "#1f4e9c"},
            {"key": "germany", "name": "Kriegsmarine", "colour": "#8c1c13"},
        ],
    )


def _admin_post(client: Client, campaign: Campaign, **fields: Any) -> Any:
    data = admin_campaign_post(campaign, **fields)
    return client.post(reverse("admin:battles_campaign_change", args=[campaign.pk]), data)


def test_the_admin_refuses_two_sides_of_one_colour(admin_client: Client, campaign: Campaign) -> None:
    response = _admin_post(admin_client, campaign, **{"sides-1-colour": "#1F4E9C"})

    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.non_form_errors() == [
        "Royal Navy and Kriegsmarine have the same colour (#1f4e9c): give each side its own."
    ]
    assert list(campaign.sides.values_list("colour", flat=True)) == ["#1f4e9c", "#8c1c13"]


def test_the_admin_keeps_a_colour_in_lower_case(admin_client: Client, campaign: Campaign) -> None:
    response = _admin_post(admin_client, campaign, **{"sides-1-colour": "#F00"})

    assert response.status_code == 302
    assert list(campaign.sides.values_list("colour", flat=True)) == ["#1f4e9c", "#ff0000"]


def test_the_admin_refuses_an_eleventh_side(admin_client: Client, campaign: Campaign) -> None:
    data = admin_campaign_post(campaign, settings=json.dumps(campaign.settings))
    data["sides-TOTAL_FORMS"] = "11"
    for i in range(2, 11):
        data |= {
            f"sides-{i}-campaign": str(campaign.pk),
            f"sides-{i}-key": f"s{i}",
            f"sides-{i}-name": f"S{i}",
            f"sides-{i}-colour": f"#0000{i:02d}",
        }

    response = admin_client.post(reverse("admin:battles_campaign_change", args=[campaign.pk]), data)

    assert response.status_code == 200
    errors = response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert any("at most 10" in e for e in errors), errors
    assert campaign.sides.count() == 2
