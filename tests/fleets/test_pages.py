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
from tests.fleets.record_ruleset import HOOD

pytestmark = pytest.mark.django_db


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


def test_class_list_filters_by_rule_set_nation_and_name(user_client: Client, record_ruleset: str) -> None:
    britain, germany = NationFactory(name="Britain"), NationFactory(name="Germany")
    ShipClassFactory(name="Rodney", key="rodney", nation=britain)
    ShipClassFactory(name="Bismarck", key="bismarck", nation=germany)
    ShipClassFactory(name="Hood", key="hood", nation=britain, ruleset="record", stats=HOOD)

    def names(query: str) -> list[str]:
        response = user_client.get(f"/fleets/{query}")
        assert response.status_code == 200
        return [c.name for c in response.context["classes"]]

    assert names("") == ["Hood", "Rodney", "Bismarck"]  # by rule set, nation, name
    assert names("?ruleset=ultra_simple") == ["Rodney", "Bismarck"]
    assert names(f"?nation={britain.pk}") == ["Hood", "Rodney"]
    assert names("?q=bis") == ["Bismarck"]
    assert names("?ruleset=nonsense") == ["Hood", "Rodney", "Bismarck"]  # an invalid filter is ignored


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


def test_record_sheet_draws_boxes_by_area_with_armour_and_arcs(
    user_client: Client, record_ruleset: str
) -> None:
    ship_class = ShipClassFactory(name="Hood", key="hood", ruleset="record", stats=HOOD, heuristic=True)
    ShipFactory(name="Hood", ship_class=ship_class, pennant="51")

    response = user_client.get("/fleets/classes/record/hood/")

    html = response.content.decode()
    page = text(html)
    assert 'class="sheet sheet--record"' in html
    assert "House heuristic" in page and "one box per turret or mount" in page
    assert re.search(r"Main\s*<span class=\"sheet-area__count\">2</span>", html)
    assert "A B 2 \u00d7 15 in fwd brd" in page  # turret A: armour B, 2 x 15 in, fwd + brd
    assert "Y B 2 \u00d7 15 in aft brd" in page
    assert "S1 2 \u00d7 4 in brd" in page
    assert "Box 1 2 tubes \u00d7 21 in" in page  # torpedo mount boxes
    # above-water, underwater and engine boxes
    assert html.count('<span class="box" aria-hidden="true"></span>') == 8 + 3 + 4
    assert "General underwater boxes 3 C" in page  # the area carries the underwater protection letter
    assert "B Belt armour letter" in page
    assert "Main guns 4" in page  # class_summary
    assert "19 boxes in all" in page
    assert "Hood 51" in page


def test_sheet_view_is_generic_over_the_schema(record_ruleset: str) -> None:
    view = sheet_view(rules.get_ruleset("record"), HOOD)

    assert [(a.label, len(a.boxes)) for a in view.areas] == [
        ("Main", 2),
        ("Secondary", 1),
        ("Torpedo mount boxes", 1),
        ("General above-water boxes", 8),
        ("General underwater boxes", 3),
        ("Engine boxes", 4),
    ]
    turret = view.areas[0].boxes[0]
    assert (turret.title, turret.detail, turret.armour, turret.arcs) == (
        "A",
        "2 \u00d7 15 in",
        "B",
        ("fwd", "brd"),
    )
    assert [(i.label, i.value) for i in view.items] == [
        ("Type", "battleship"),
        ("Standard displacement", "42,100 t"),
        ("Rated speed", "31 kn"),
        ("Authored with the A4 house heuristic", "yes"),
    ]
    assert [(i.label, i.value) for i in view.armour] == [
        ("Belt armour letter", "B"),
        ("Underwater protection class", "C"),
    ]
    assert [a.armour for a in view.areas] == ["", "", "", "", "C", ""]


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
