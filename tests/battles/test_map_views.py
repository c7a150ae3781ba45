"""Map pages (battles/views_map.py): the map at any replay step per side (A2), ship selection, the move
preview, the SVG download and the umpire's set-up editor (battles/map_services.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

# Until the battles models are merged (branch battles), this module has nothing to test.
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

import rules
from battles import map_services, services
from battles.models import Battle, LogEvent, Phase
from navalwar.errors import ApplicationError
from rules.model import BattleState, Hex, Point
from tests.factories import UserFactory, scenario_campaign

pytestmark = pytest.mark.django_db

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.fixture(autouse=True)
def _fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def resolve_phases(game: Any, n: int, capture: Any) -> None:
    """Close and resolve ``n`` phases as the umpire (default orders for every ship, A7)."""
    for _ in range(n):
        with capture(execute=True):
            services.phase_close(phase=game.phase, user=game.umpire)


def svg_of(html: str) -> ET.Element:
    m = re.search(r"<svg xmlns=.*?</svg>", html, re.S)
    assert m, "no map in the page"
    return ET.fromstring(m.group(0))


def ships_on(root: ET.Element) -> set[str]:
    return {
        g.get("data-ship", "")
        for g in root.iterfind(".//svg:g[@data-ship]", NS)
        if "ship" in (g.get("class") or "").split()
    }


def map_url(battle: Battle, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("battles:battle_map", args=[battle.pk]) + (f"?{query}" if query else "")


# --- the map and its replay ------------------------------------------------------------------------------


def test_map_page_steps_through_the_replay(django_capture_on_commit_callbacks: Any) -> None:
    game = scenario_campaign()
    resolve_phases(game, 2, django_capture_on_commit_callbacks)
    client = client_for(game.players["britain"])

    page = client.get(map_url(game.battle))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-step="2"' in html and "Phase 2: turn 2" in html and "step 2 of 2" in html
    assert f'href="{map_url(game.battle, step=1)}"' in html  # previous
    assert 'data-replay="next"' not in html  # the last step has no next
    root = svg_of(html)
    assert root.get("data-viewer") == "britain"
    assert ships_on(root) == {"kgv", "rodney", "bismarck"}
    # this phase's log: the events Britain may see, in order
    phase2 = Phase.objects.get(battle=game.battle, number=2)
    rows = list(LogEvent.objects.filter(phase=phase2).order_by("seq"))
    visible = [e.text for e in rows if e.visible_for("britain")]
    hidden = [e.text for e in rows if not e.visible_for("britain")]
    assert visible and [t for t in visible if escape(t) not in html] == []
    assert not any(f'<li class="log-damage">{escape(t)}</li>' in html for t in hidden)

    opening = client.get(map_url(game.battle, step=0)).content.decode()
    assert "Opening positions" in opening and 'data-replay="prev"' not in opening
    first = Phase.objects.get(battle=game.battle, number=1)
    state = rules.from_json(BattleState, first.state_before)
    kgv = svg_of(opening).find(".//svg:g[@data-ship='kgv']", NS)
    assert kgv is not None and (kgv.get("data-q"), kgv.get("data-r")) == (
        str(state.ship("kgv").position.q),
        str(state.ship("kgv").position.r),
    )  # type: ignore[union-attr]

    assert client.get(map_url(game.battle, step=3)).status_code == 404
    assert client.get(map_url(game.battle, step="x")).status_code == 404


def test_htmx_gets_the_panel_only() -> None:
    game = scenario_campaign()
    client = client_for(game.players["germany"])
    response = client.get(map_url(game.battle, step=0), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and '<nav class="replay"' in html and "<svg" in html
    assert "HX-Request" in response["Vary"]
    full = client.get(map_url(game.battle, step=0))
    assert "<html" in full.content.decode()


def test_strangers_get_404() -> None:
    game = scenario_campaign()
    client = client_for(UserFactory())
    assert client.get(map_url(game.battle)).status_code == 404
    assert client.get(reverse("battles:battle_map_svg", args=[game.battle.pk])).status_code == 404
    assert Client().get(map_url(game.battle)).status_code == 302  # to the login page


def test_hidden_enemies_are_not_in_the_page() -> None:
    """A2: at night in ww2_jackson a side sees enemies within 20 inches, lit, on fire or firing."""
    game = scenario_campaign("guadalcanal_1942")
    state = rules.from_json(BattleState, game.battle.state)
    rs = rules.get_ruleset(state.ruleset)
    seen = {s.id for s in rs.view_for(state, "usa").ships}
    hidden = {s.id for s in state.ships} - seen
    assert hidden, "the scenario hides some Japanese ships at night"
    html = client_for(game.players["usa"]).get(map_url(game.battle)).content.decode()
    assert ships_on(svg_of(html)) == seen
    labels = {t.text for t in svg_of(html).iter("{http://www.w3.org/2000/svg}text")}
    for sid in hidden:
        assert f'data-ship="{sid}"' not in html
        assert state.ship(sid).name not in labels and f'aria-label="{state.ship(sid).name}"' not in html
    umpire = client_for(game.umpire).get(map_url(game.battle)).content.decode()
    assert ships_on(svg_of(umpire)) == {s.id for s in state.ships}
    # asking for a hidden ship by name is a 404, not a leak
    asked = client_for(game.players["usa"]).get(map_url(game.battle, ship=sorted(hidden)[0]))
    assert asked.status_code == 404


def test_selecting_own_ship_shows_sheet_arcs_and_enemy_only_what_is_known() -> None:
    game = scenario_campaign()
    client = client_for(game.players["britain"])
    html = client.get(map_url(game.battle, step=0, ship="kgv")).content.decode()
    assert '<section class="ship-card"' in html and "Status sheet" in html and "your ship" in html
    assert "forward: 6 hexes" in html and "starboard: 6 hexes" in html
    assert '<th scope="row">Protection</th><td>9</td>' in html
    root = svg_of(html)
    arcs = root.find(".//svg:g[@class='arcs']", NS)
    assert arcs is not None and arcs.get("data-ship") == "kgv"

    enemy = client.get(map_url(game.battle, step=0, ship="bismarck")).content.decode()
    assert "enemy: what your side knows" in enemy and "Known to your side" in enemy
    card = enemy.split('<section class="ship-card"')[1].split("</section>")[0]
    # ultra_simple's public_sheet (A2): the damage scored on her, not her protection
    assert '<th scope="row">Damage</th><td>0</td>' in card and "Protection" not in card
    assert svg_of(enemy).find(".//svg:g[@class='arcs']", NS) is None
    assert "Preview a move" not in enemy


def test_move_preview_draws_the_path_and_reports_illegal_orders() -> None:
    game = scenario_campaign()
    client = client_for(game.players["britain"])
    # the form starts from the default order (A7: keep course and speed; the scenario's 2 hexes)
    start = client.get(map_url(game.battle, ship="kgv")).content.decode()
    assert '<input id="pv-hexes" name="hexes" value="2"' in start
    assert '<input id="pv-turn" name="turn" value="0"' in start
    url = map_url(game.battle, ship="kgv", preview=1, hexes=2, turn=30, turn_after=1)
    html = client.get(url).content.decode()
    assert "Ends at (11,4) facing 150 degrees." in html
    preview = svg_of(html).find(".//svg:g[@class='order-preview']", NS)
    assert preview is not None and preview.get("data-ship") == "kgv"
    line = preview.find("svg:path[@class='preview']", NS)
    assert line is not None and line.get("d", "").count("L") == 2

    bad = client.get(map_url(game.battle, ship="kgv", preview=1, hexes=2, turn=45)).content.decode()
    assert "One turn of 30 or 60 degrees, or none (2.0)." in bad
    assert svg_of(bad).find(".//svg:g[@class='order-preview']", NS) is None
    # nothing was saved
    assert not game.phase.orders.exists()
    # the other side's ship takes no preview
    assert "Preview a move" not in client.get(map_url(game.battle, ship="bismarck")).content.decode()


def test_svg_download() -> None:
    game = scenario_campaign()
    game.battle.name = "Bismarck's Last Battle"
    game.battle.save(update_fields=["name"])
    response = client_for(game.players["germany"]).get(
        reverse("battles:battle_map_svg", args=[game.battle.pk]) + "?step=0"
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    disposition = 'attachment; filename="bismarck-s-last-battle-step-0-germany.svg"'
    assert response["Content-Disposition"] == disposition
    body = response.content.decode()
    assert body.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')
    root = ET.fromstring(body.split("\n", 1)[1])
    assert root.get("data-viewer") == "germany" and ships_on(root) == {"kgv", "rodney", "bismarck"}


# --- the umpire's set-up editor ----------------------------------------------------------------------------


def setup_url(battle: Battle, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("battles:battle_setup_map", args=[battle.pk]) + (f"?{query}" if query else "")


def state_of(battle: Battle) -> BattleState:
    battle.refresh_from_db()
    return rules.from_json(BattleState, battle.state)


def test_setup_editor_places_and_turns_ships_validated_by_the_rules() -> None:
    game = scenario_campaign(start=False)
    battle = game.battle
    assert battle.status == "setup"
    umpire = client_for(game.umpire)
    page = umpire.get(setup_url(battle, ship="kgv"))
    assert page.status_code == 200
    root = svg_of(page.content.decode())
    assert len(root.findall(".//svg:path[@class='cell']", NS)) == 24 * 18

    ok = umpire.post(
        setup_url(battle),
        {"action": "place", "place-ship": "kgv", "place-q": 12, "place-r": 2, "place-heading": 150},
    )
    assert ok.status_code == 302 and ok["Location"] == setup_url(battle, ship="kgv")
    kgv = state_of(battle).ship("kgv")
    assert (kgv.position, kgv.heading) == (Hex(q=12, r=2), 150.0)

    # ultra_simple 2.0: headings are the 12 hex facings (the rule set's set-up refuses 45)
    bad = umpire.post(setup_url(battle), {"action": "place", "place-ship": "kgv", "place-heading": 45})
    assert bad.status_code == 400
    message = "The rules refuse this set-up: King George V: heading 45 is not a hex facing"
    assert message in bad.content.decode()
    assert state_of(battle).ship("kgv").heading == 150.0
    # NW-CAMP-23, as the battle form: 720 is refused, by the form and by the service, not stored as north
    wild = umpire.post(setup_url(battle), {"action": "place", "place-ship": "kgv", "place-heading": 720})
    assert wild.status_code == 400 and "less than or equal to 360" in wild.content.decode()
    with pytest.raises(ApplicationError) as refused:
        map_services.battle_setup_ship_place(battle=battle, user=game.umpire, ship_key="kgv", heading=720)
    assert refused.value.fields == {
        "heading": ["Enter a heading from 0 up to 360 degrees (clockwise from north)."]
    }
    assert state_of(battle).ship("kgv").heading == 150.0

    on_top = umpire.post(
        setup_url(battle), {"action": "place", "place-ship": "rodney", "place-q": 12, "place-r": 2}
    )
    assert on_top.status_code == 400 and "King George V is already there" in on_top.content.decode()
    # the ship already there is named whatever the battle's order (a fresh-user check placed the earlier
    # ship on the later one and was told the moved ship was already there)
    rodney_at = state_of(battle).ship("rodney").position
    under = umpire.post(
        setup_url(battle),
        {"action": "place", "place-ship": "kgv", "place-q": rodney_at.q, "place-r": rodney_at.r},
    )
    assert under.status_code == 400 and "Rodney is already there" in under.content.decode()
    assert "King George V is already there" not in under.content.decode()
    off = umpire.post(
        setup_url(battle), {"action": "place", "place-ship": "rodney", "place-q": 40, "place-r": 0}
    )
    assert off.status_code == 400 and "Rodney would be off the map (24 x 18)." in off.content.decode()
    assert state_of(battle).ship("rodney").position == Hex(q=10, r=5)

    # players may not, and once the battle has started nobody may
    assert client_for(game.players["britain"]).get(setup_url(battle)).status_code == 403
    services.battle_start(battle=battle, user=game.umpire)
    assert umpire.get(setup_url(battle)).status_code == 302
    with pytest.raises(ApplicationError) as exc:
        map_services.battle_setup_ship_place(battle=battle, user=game.umpire, ship_key="kgv", heading=0)
    assert exc.value.code == "battle_started"


def test_setup_paints_terrain_and_mines_only_their_side_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    """A3: mines are placed secretly by the side that laid them. ultra_simple has no terrain of its own: the
    test lends it acw_river's kinds."""
    rs = rules.get_ruleset("ultra_simple")
    monkeypatch.setattr(rs, "terrain_kinds", ("land", "shore", "battery", "fort", "mine"))
    monkeypatch.setattr(rs, "impassable_terrain", ("land", "battery", "fort"))
    game = scenario_campaign(start=False)
    battle = game.battle
    umpire = client_for(game.umpire)

    mine = umpire.post(
        setup_url(battle),
        {"action": "paint", "paint-kind": "mine", "paint-q": 5, "paint-r": 5, "paint-side": "germany"},
    )
    # the paint tool stays as it was for the next click
    assert mine.status_code == 302
    assert mine["Location"] == setup_url(battle, tool="paint", kind="mine", side="germany")
    again = umpire.get(mine["Location"]).content.decode()
    assert 'value="paint" form="none" checked' in again and '<option value="mine" selected>' in again
    no_side = umpire.post(
        setup_url(battle), {"action": "paint", "paint-kind": "mine", "paint-q": 6, "paint-r": 5}
    )
    assert no_side.status_code == 400 and "Choose the side it belongs to" in no_side.content.decode()
    land = umpire.post(
        setup_url(battle), {"action": "paint", "paint-kind": "land", "paint-q": 0, "paint-r": 0}
    )
    assert land.status_code == 302
    terrain = state_of(battle).terrain
    assert [(t.kind, t.position, t.visible_to, t.props.get("side")) for t in terrain] == [
        ("mine", Hex(q=5, r=5), ("germany",), "germany"),
        ("land", Hex(q=0, r=0), None, None),
    ]
    # no ship on land
    on_land = umpire.post(
        setup_url(battle), {"action": "place", "place-ship": "kgv", "place-q": 0, "place-r": 0}
    )
    assert on_land.status_code == 400 and "cannot be placed on land" in on_land.content.decode()

    services.battle_start(battle=battle, user=game.umpire)
    for side, expected in (("germany", 1), ("britain", 0)):
        html = client_for(game.players[side]).get(map_url(battle)).content.decode()
        assert len(svg_of(html).findall(".//svg:g[@class='terrain mine']", NS)) == expected
    umpire_html = client_for(game.umpire).get(map_url(battle)).content.decode()
    assert len(svg_of(umpire_html).findall(".//svg:g[@class='terrain mine']", NS)) == 1

    # clearing a hex removes its terrain
    battle2 = scenario_campaign(start=False).battle
    monkeypatch.setattr(rs, "terrain_kinds", ("land",))
    umpire2 = Battle.objects.get(pk=battle2.pk).campaign.memberships.get(role="umpire").user
    map_services.battle_setup_terrain_paint(battle=battle2, user=umpire2, position=Hex(q=1, r=1), kind="land")
    map_services.battle_setup_terrain_clear(battle=battle2, user=umpire2, position=Hex(q=1, r=1))
    assert state_of(battle2).terrain == ()


def test_setup_paints_a_table_shoal_for_sail() -> None:
    """sail_1700 terrain: a shoal with its depth in fathoms and radius in millimetres (A3)."""
    game = scenario_campaign("sail_constitution_vs_guerriere_1812", start=False)
    umpire = client_for(game.umpire)
    ok = umpire.post(
        setup_url(game.battle),
        {
            "action": "paint",
            "paint-kind": "shoal",
            "paint-x": 1200,
            "paint-y": 300,
            "paint-depth": 3,
            "paint-radius": 80,
            "paint-name": "Middle Ground",
        },
    )
    assert ok.status_code == 302
    (shoal,) = state_of(game.battle).terrain
    assert (shoal.kind, shoal.position, shoal.props) == (
        "shoal",
        Point(x=1200.0, y=300.0),
        {"depth": 3.0, "radius": 80.0, "name": "Middle Ground"},
    )
    no_depth = umpire.post(
        setup_url(game.battle), {"action": "paint", "paint-kind": "shoal", "paint-x": 10, "paint-y": 10}
    )
    assert no_depth.status_code == 400 and "depth in fathoms" in no_depth.content.decode()
    html = umpire.get(setup_url(game.battle)).content.decode()
    assert "Middle Ground" in html


def test_first_and_last_are_disabled_at_the_first_and_last_step(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """QA britain_ultra_simple-12: at "step 0 of 0" First and Last looked clickable (links to this step); and
    "step 0 of 0" said nothing a player could use: the opening positions say no phase is resolved yet."""
    game = scenario_campaign()
    client = client_for(game.players["britain"])
    only = client.get(map_url(game.battle)).content.decode()
    assert "step 0 of 0" not in only and "no phase resolved yet" in only
    assert '<span class="button button--small is-disabled" aria-disabled="true">&laquo; First</span>' in only
    assert '<span class="button button--small is-disabled" aria-disabled="true">Last &raquo;</span>' in only
    assert 'data-replay="first"' not in only and 'data-replay="last"' not in only

    resolve_phases(game, 1, django_capture_on_commit_callbacks)
    first = client.get(map_url(game.battle, step=0)).content.decode()
    assert "step 0 of 1" in first
    assert (
        'data-replay="first"' not in first
        and f'data-replay="last" href="{map_url(game.battle, step=1)}"' in first
    )
    last = client.get(map_url(game.battle, step=1)).content.decode()
    assert (
        f'data-replay="first" href="{map_url(game.battle, step=0)}"' in last
        and 'data-replay="last"' not in last
    )


def test_a_preview_url_without_a_yes_no_field_means_no() -> None:
    """A hand-made preview URL without ``astern`` kept the default order's engines astern (A7: keep course and
    speed) for a vessel going astern, while the form showed the box unchecked: absent is unchecked."""
    from django.http import QueryDict

    from battles.map_forms import order_data_from_query
    from battles.mapsvg import move_fields

    fields = move_fields("acw_river")
    assert order_data_from_query(fields, QueryDict("course=F")) == {"course": "F", "astern": False}
    assert order_data_from_query(fields, QueryDict("course=F&astern=on")) == {"course": "F", "astern": True}

    game = scenario_campaign("first_memphis_1862")
    doc = dict(game.battle.state)
    ship = next(s for s in doc["ships"] if s["side"] in game.phase.sides and s["sheet"].get("speed_back"))
    ship["sheet"] = {**ship["sheet"], "astern": True}
    Battle.objects.filter(pk=game.battle.pk).update(state=doc)
    client = client_for(game.players[ship["side"]])
    html = client.get(map_url(game.battle, ship=ship["id"], preview=1, course="F")).content.decode()
    ahead = client.get(
        map_url(game.battle, ship=ship["id"], preview=1, course="F", astern="")
    ).content.decode()
    astern = client.get(
        map_url(game.battle, ship=ship["id"], preview=1, course="F", astern="on")
    ).content.decode()
    assert '<input type="checkbox" id="pv-astern" name="astern">' in html
    # (it was astern, (4,7))
    assert "<li>Course F ahead: costs 1 hex of her 1 hex; ends at (4,5) facing 0.</li>" in html
    assert "<li>Course F ahead: costs 1 hex of her 1 hex; ends at (4,5) facing 0.</li>" in ahead
    assert "<li>Course F astern: costs 1 hex of her 1 hex; ends at (4,7) facing 0.</li>" in astern


def test_a_preview_url_with_a_whole_number_too_long_for_int_is_refused_not_a_500() -> None:
    """``int()`` refuses text of more than 4,300 digits with a ValueError: the preview's whole number field
    (the hexes moved) then failed with a 500; it is text the rules refuse, as any other that is no number."""
    game = scenario_campaign()
    client = client_for(game.players["britain"])
    response = client.get(map_url(game.battle, ship="kgv", preview=1, hexes="9" * 5000, turn=0))
    assert response.status_code == 200
    assert svg_of(response.content.decode()).find(".//svg:g[@class='order-preview']", NS) is None
