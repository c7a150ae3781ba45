"""Text that users type is escaped on every page, in the SVG map too (it is marked safe after
battles.mapsvg escapes it): campaign, side and battle names, side colours, user names, an umpire's reason,
an order preview. A marker with markup in it is planted through the site's own forms and every page of the
battle is scanned for it unescaped. A side's colour, which goes into a ``style`` attribute, must be a
``#rgb`` colour."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Campaign
from tests.factories import StaffUserFactory, UserFactory
from tests.utils import ship_edit_post

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script>'
EVIL_ATTR = '"><img src=x onerror=alert(1)>'
EVIL_CSS = "red;background-image:url(https://tracker.invalid/x)"  # refused: not a colour


def _pages(client: Client, campaign: Campaign, battle_id: int, ship_keys: list[str]) -> dict[str, str]:
    urls = [
        reverse("battles:dashboard"),
        reverse("battles:campaign", args=[campaign.pk]),
        reverse("battles:campaign_sinkings", args=[campaign.pk]),
        reverse("battles:battle", args=[battle_id]),
        reverse("battles:battle_log", args=[battle_id]) + "?phase=1",
        reverse("battles:battle_sinkings", args=[battle_id]),
        reverse("battles:battle_map", args=[battle_id]),
        reverse("battles:battle_map_svg", args=[battle_id]),
        *(reverse("battles:ship_sheet", args=[battle_id, key]) for key in ship_keys),
        *(reverse("battles:battle_map", args=[battle_id]) + f"?ship={key}" for key in ship_keys),
    ]
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = response.content.decode()
    return out


def test_what_users_type_is_escaped_everywhere(django_capture_on_commit_callbacks: Any) -> None:
    umpire = StaffUserFactory(username="umpire_x")
    client = Client()
    client.force_login(umpire)
    form = {
        "name": f"Campaign {EVIL}",
        "ruleset": "ultra_simple",
        "description": EVIL,
        "default_orders": "fire_nearest",
        "deadline_hours": "48",
        "sides": f"britain, Royal {EVIL}, {EVIL_CSS}\ngermany, Kriegs{EVIL_ATTR}, #333333",
    }
    refused = client.post(reverse("battles:campaign_new"), form)
    assert "enter a CSS colour like #1f4e9c." in refused.content.decode()  # a colour goes into style=""
    assert not Campaign.objects.exists()
    client.post(
        reverse("battles:campaign_new"), {**form, "sides": form["sides"].replace(EVIL_CSS, "#1f4e9c")}
    )
    campaign = Campaign.objects.get(created_by=umpire)
    response = client.post(
        reverse("battles:battle_scenario", args=[campaign.pk]),
        {"scenario": "bismarck_last_battle_1941", "name": f"Battle {EVIL}"},
    )
    battle_id = int(response["Location"].rstrip("/").split("/")[-1])
    player = UserFactory(username="cpt_x")
    services.membership_add(
        campaign=campaign, user=player, role="player", side=campaign.sides.get(key="britain")
    )
    edited = client.post(
        reverse("battles:ship_sheet", args=[battle_id, "bismarck"]),
        ship_edit_post(campaign.battles.get(), "bismarck", reason=f"Because {EVIL}", flags=EVIL),
    )
    assert edited.status_code == 302
    phase = campaign.battles.get().phases.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_close(phase=phase, user=umpire)

    keys = ["kgv", "rodney", "bismarck"]
    for who in (umpire, player):
        viewer = Client()
        viewer.force_login(who)
        pages = _pages(viewer, campaign, battle_id, keys)
        raw = {
            url: [m for m in (EVIL, EVIL_ATTR, "<img src=x", "<script>alert") if m in html]
            for url, html in pages.items()
        }
        assert {url: found for url, found in raw.items() if found} == {}, who
        # ...and they were on the pages, escaped: the scan would have seen them
        svg = pages[reverse("battles:battle_map_svg", args=[battle_id])]
        assert "Royal &lt;script&gt;" in svg and "Kriegs&quot;&gt;&lt;img" in svg
        ship = pages[reverse("battles:ship_sheet", args=[battle_id, "bismarck"])]
        assert "&lt;script&gt;alert(" in ship
        assert "&lt;script&gt;alert(" in pages[reverse("battles:campaign", args=[campaign.pk])]
