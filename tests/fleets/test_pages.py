"""Players' pages: the class list, a class's record sheet or card, and the quick reference of every rule
set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

import rules
from fleets.presentation import chart_sections, humanize, json_block, sheet_view
from fleets.services import reference_data_load
from tests.factories import NationFactory, ShipClassFactory, ShipFactory
from tests.fleets.helpers import reference_stats

pytestmark = pytest.mark.django_db

HOOD = reference_stats("ww2_jackson", "hood")  # the A4 house-heuristic record sheet of the bundled Hood


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(
    "url",
    ["/fleets/", "/fleets/classes/ultra_simple/bismarck/", "/fleets/rules/", "/fleets/rules/ultra_simple/"],
)
def test_pages_need_a_login(client: Client, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_class_list_filters_by_rule_set_nation_and_name(user_client: Client) -> None:
    britain, germany = NationFactory(name="Britain"), NationFactory(name="Germany")
    ShipClassFactory(name="Rodney", key="rodney", nation=britain)
    ShipClassFactory(name="Bismarck", key="bismarck", nation=germany)
    ShipClassFactory(name="Hood", key="hood", nation=britain, ruleset="ww2_jackson", stats=HOOD)

    def names(query: str) -> list[str]:
        response = user_client.get(f"/fleets/{query}")
        assert response.status_code == 200
        return [c.name for c in response.context["classes"]]

    assert names("") == ["Rodney", "Bismarck", "Hood"]  # by rule set key, nation, name
    assert names("?ruleset=ultra_simple") == ["Rodney", "Bismarck"]
    assert names("?ruleset=ww2_jackson") == ["Hood"]
    assert names(f"?nation={britain.pk}") == ["Rodney", "Hood"]
    assert names("?q=bis") == ["Bismarck"]
    assert names("?ruleset=nonsense") == ["Rodney", "Bismarck", "Hood"]  # an invalid filter is ignored


def test_class_list_htmx_returns_only_the_results(user_client: Client) -> None:
    ShipClassFactory(name="Rodney", key="rodney")

    response = user_client.get("/fleets/?q=rod", headers={"HX-Request": "true"})

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results"')
    assert "HX-Request" in response["Vary"]
    assert "<html" not in html
    assert 'href="/fleets/classes/ultra_simple/rodney/"' in html


def test_ultra_simple_class_page_is_a_card_with_derived_values(user_client: Client) -> None:
    reference_data_load()

    response = user_client.get("/fleets/classes/ultra_simple/bismarck/")

    assert response.status_code == 200
    html = response.content.decode()
    page = text(html)
    assert 'class="sheet sheet--card"' in html
    assert "Standard tonnage 41,700 t" in page
    assert "Main guns by calibre" in page
    assert "15 4 4 8" in page  # calibre, forward, aft, broadside
    assert "Protection 10" in page  # 41,700 / 4,000 rounded (seed 003, 4.0)
    assert "Derived values" in page
    assert "Ships of the class" in page and "Bismarck" in page
    assert "8 x 15 in (4/4/8), 41,700 t" in page


def test_record_sheet_draws_boxes_by_area_with_armour_and_arcs(user_client: Client) -> None:
    ship_class = ShipClassFactory(name="Hood", key="hood", ruleset="ww2_jackson", stats=HOOD, heuristic=True)
    ShipFactory(name="Hood", ship_class=ship_class, pennant="51")

    response = user_client.get("/fleets/classes/ww2_jackson/hood/")

    html = response.content.decode()
    page = text(html)
    assert 'class="sheet sheet--record"' in html
    assert "House heuristic" in page and "one box per turret or mount" in page
    assert re.search(r"Main\s*<span class=\"sheet-area__count\">4</span>", html)
    assert re.search(r"Secondary\s*<span class=\"sheet-area__count\">5</span>", html)
    assert "A turret B 2 \u00d7 15 in fwd brd B turret" in page  # armour B, 2 x 15 in, fwd + brd
    assert "Y turret B 2 \u00d7 15 in aft brd" in page
    assert "port 4in HA 1 4 \u00d7 4 in brd Side: port" in page  # a wing mount (NW-WW2-02)
    assert "centreline 4in HA 2 \u00d7 4 in aft brd" in page
    assert "port mount 1 2 tubes \u00d7 21 in Side: port Fixed tubes (battleship, -3): yes" in page
    # AA, above-water (plain and armoured), underwater, engine, damage control and fire control boxes
    assert html.count('<span class="box" aria-hidden="true"></span>') == 3 + 9 + 8 + 8 + 4 + 3 + 2
    assert "General above-water boxes with the belt letter 8 B" in page  # the belt letter on the area
    assert "General underwater boxes 8 B" in page  # the underwater protection letter on the area
    assert "B Belt armour letter (armoured general above-water boxes)" in page
    assert "48 boxes in all" in page  # 4 + 5 gun boxes, 2 torpedo mounts and 37 counted boxes
    assert "Combat speed knots 27" in page  # class_summary: 29 kn rated, less 2 above 20 (line 395)
    assert "Hood 51" in page


def test_sheet_view_is_generic_over_the_schema() -> None:
    view = sheet_view(rules.get_ruleset("ww2_jackson"), HOOD)

    assert [(a.label, len(a.boxes), a.armour) for a in view.areas] == [
        ("Main", 4, ""),
        ("Secondary", 5, ""),
        ("Torpedo mount boxes", 2, ""),
        ("AA armament boxes", 3, ""),
        ("General above-water boxes (no armour)", 9, ""),
        ("General above-water boxes with the belt letter", 8, "B"),
        ("General underwater boxes", 8, "B"),
        ("Engine boxes", 4, ""),
        ("Damage control boxes", 3, ""),
        ("Fire control boxes", 2, ""),
    ]
    assert [(b.title, b.detail, b.armour, b.arcs) for b in view.areas[0].boxes] == [
        ("A turret", "2 \u00d7 15 in", "B", ("fwd", "brd")),
        ("B turret", "2 \u00d7 15 in", "B", ("fwd", "brd")),
        ("X turret", "2 \u00d7 15 in", "B", ("aft", "brd")),
        ("Y turret", "2 \u00d7 15 in", "B", ("aft", "brd")),
    ]
    torpedo = view.areas[2].boxes[0]
    assert (torpedo.title, torpedo.detail, torpedo.arcs) == ("port mount 1", "2 tubes \u00d7 21 in", ())
    assert [(i.label, i.value) for i in view.items] == [
        ("Type", "battlecruiser"),
        ("Standard displacement", "42,670 t"),
        ("Rated speed", "29 kn"),
        ("Turning circle", "\u2014"),
        ("Fire control radar", "none"),
        ("Aircraft aboard", "0"),
        ("Reload torpedoes", "0"),
        ("Authored with the A4 house heuristic", "yes"),
    ]
    assert [(i.label, i.value) for i in view.armour] == [
        ("Underwater protection class", "B"),
        ("Belt armour letter (armoured general above-water boxes)", "B"),
    ]


def test_json_blocks() -> None:
    assert json_block([1, 2.5, None]).text == "1, 2.5, —"
    kv = json_block({"tons_per_point": 4000, "minimum": 1})
    assert kv.kv and [(r[0].text, r[1].text) for r in kv.rows] == [
        ("Tons per point", "4000"),
        ("Minimum", "1"),
    ]
    table = json_block([{"max_hexes": 2, "d6_needed": 4}, {"max_hexes": 4, "d6_needed": 5}])
    assert table.headers == ("Max hexes", "D6 needed")
    assert [[c.text for c in row] for row in table.rows] == [["2", "4"], ["4", "5"]]
    matrix = json_block({"15": {"A": 1, "B": "NO"}, "8": {"A": 2}})
    assert matrix.headers == ("", "A", "B")
    assert [[c.text for c in row] for row in matrix.rows] == [["15", "1", "NO"], ["8", "2", "—"]]
    nested = json_block({"capital": [{"low": 1, "high": 5, "result": {"kind": "fire"}}], "note": "x"})
    assert nested.kind == "sections"
    assert [s.title for s in nested.sections] == ["", "Capital"]
    assert nested.sections[1].block.rows[0][2].block is not None
    assert humanize("HIT_LOCATION_LONG") == "Hit location long"


@pytest.mark.parametrize("key", rules.ruleset_keys())
def test_quick_reference_shows_every_chart(user_client: Client, key: str) -> None:
    rs = rules.get_ruleset(key)

    response = user_client.get(f"/fleets/rules/{key}/")

    assert response.status_code == 200
    html = response.content.decode()
    for name in rs.tables():
        assert f'id="chart-{name}"' in html
    assert "/static/css/fleets.css" in html
    assert len(chart_sections(rs.tables())) == len(rs.tables())


def test_quick_reference_values(user_client: Client) -> None:
    page = text(user_client.get("/fleets/rules/ultra_simple/").content.decode())

    assert "Range bands" in page
    assert "Max hexes D6 needed 2 4 4 5 6 6" in page
    assert "Ship class fields" in page


def test_unknown_rule_set_and_class_are_404(user_client: Client) -> None:
    assert user_client.get("/fleets/rules/chess/").status_code == 404
    assert user_client.get("/fleets/classes/ultra_simple/nothing/").status_code == 404


def test_print_stylesheet_hides_navigation_and_keeps_charts_whole() -> None:
    from django.contrib.staticfiles import finders

    path: Any = finders.find("css/fleets.css")
    css = Path(path).read_text(encoding="utf-8")
    media_print = css[css.index("@media print") :]
    assert ".chart-index" in media_print and "display: none" in media_print
    assert "break-inside: avoid" in media_print


def test_nav_links_to_fleets(user_client: Client) -> None:
    assert 'href="/fleets/"' in user_client.get("/").content.decode()
