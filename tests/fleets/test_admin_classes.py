"""The ship class admin: a form generated from each rule set's schema; the rule set's errors next to the
fields; nothing invalid saved; preview, duplicate and export.

The cases are computed from the rules registry and each rule set's bundled classes, so a rule set merged
later is covered without editing this file; rule-set specific cross-field cases are listed in
CROSS_FIELD_CASES.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

import rules
from fleets.models import ShipClass
from fleets.services import shipclass_save
from navalwar.errors import ApplicationError
from rules.model import FieldSpec
from tests.factories import ULTRA_SIMPLE_STATS, NationFactory, ShipClassFactory
from tests.fleets.helpers import class_post, reference_stats, sample_stats

pytestmark = pytest.mark.django_db

ADD = "/admin/fleets/shipclass/add/"


def _change(pk: int) -> str:
    return f"/admin/fleets/shipclass/{pk}/change/"


# --- invalid cases, derived from the schema -

Mutator = Callable[[dict[str, Any]], None]


def _scalar(rs: rules.RuleSet, pred: Callable[[FieldSpec], bool], stats: dict[str, Any]) -> FieldSpec | None:
    return next((s for s in rs.class_schema() if s.type != "rows" and s.name in stats and pred(s)), None)


def generic_cases(key: str) -> list[tuple[str, Mutator, str]]:
    """Return (case id, mutation of a valid class's stats, the field key that must carry the error)."""
    rs = rules.get_ruleset(key)
    stats = sample_stats(key)
    cases: list[tuple[str, Mutator, str]] = []
    spec = _scalar(rs, lambda s: s.required, stats)
    if spec:
        cases.append(("missing-field", lambda st, n=spec.name: st.pop(n), spec.name))
    spec = _scalar(rs, lambda s: s.type in ("int", "float") and s.min is not None and s.min >= 0, stats)
    if spec:
        cases.append(("negative-number", lambda st, n=spec.name: st.__setitem__(n, -1), spec.name))
    spec = _scalar(rs, lambda s: s.type in ("int", "float") and s.max is not None, stats)
    if spec:
        absurd = int(spec.max * 1000 + 1)  # type: ignore[operator]
        cases.append(("absurd-number", lambda st, n=spec.name, v=absurd: st.__setitem__(n, v), spec.name))
    for rows in rs.class_schema():
        cal = next((f for f in rows.fields if f.name == "calibre"), None)
        if rows.type == "rows" and cal is not None and stats.get(rows.name):
            bad = 99 if (cal.max or 0) < 99 else int(cal.max * 10)  # type: ignore[operator]
            cases.append(
                (
                    "unknown-calibre",
                    lambda st, n=rows.name, v=bad: st[n][0].__setitem__("calibre", v),
                    f"{rows.name}.0.calibre",
                )
            )
            break
    return cases


def _more_forward_than_aboard(stats: dict[str, Any]) -> None:
    stats["guns"][0]["forward"] = stats["guns"][0]["broadside"] + 1


def _no_arc(stats: dict[str, Any]) -> None:
    stats["guns"][0].update(forward=False, aft=False, broadside=False)


def _update(**values: Any) -> Mutator:
    """Return a mutation setting several top-level keys."""

    def mutate(stats: dict[str, Any]) -> None:
        stats.update(values)

    return mutate


def _set(path: str, value: Any) -> Mutator:
    """Return a mutation setting ``guns.0.calibre``-style paths."""

    def mutate(stats: dict[str, Any]) -> None:
        *head, last = path.split(".")
        target: Any = stats
        for part in head:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return mutate


# Cross-field checks of each rule set (its check_class), on its first bundled class: (case id, mutation, the
# field key, the exact message). Cases of rule sets not registered on this branch are not collected.
CROSS_FIELD_CASES: dict[str, list[tuple[str, Mutator, str, str]]] = {
    "ultra_simple": [
        (
            "arc-with-more-guns-than-aboard",
            _more_forward_than_aboard,
            "guns.0.forward",
            "More guns bear forward (9) than the ship carries (8).",
        )
    ],
    "ww2_jackson": [
        (
            "gun-box-in-no-arc",
            _no_arc,
            "guns.0.broadside",
            "The box bears in no arc: tick forward, aft or broadside.",
        ),
        (
            "unknown-torpedo-calibre",
            _set("torpedoes.0.calibre", 20),
            "torpedoes.0.calibre",
            "Torpedoes are 18, 21 or 24 inches (lines 164-186).",
        ),
    ],
    "sail_1700": [
        (
            "more-guns-on-the-sides-than-aboard",
            _set("guns_starboard", 40),
            "guns_starboard",
            "40 starboard + 27 port is more than the 54 guns aboard.",
        ),
        (
            "NW-SAIL-30-merchant-points-not-a-tenth",
            _update(service="merchant", man_of_war_points=500, points=60),
            "points",
            "A merchantman has 10% of the crew of a man of war of comparable size (26., S41): 50 points "
            "for a man of war of 500.",
        ),
        (
            "NW-SAIL-30-transport-keeps-half-her-guns",
            _update(service="transport", man_of_war_points=500, points=50, man_of_war_guns=64),
            "guns",
            "A transport converted from a man of war has 50% of her guns removed (26.): 32 guns of her 64.",
        ),
    ],
    "acw_river": [
        (
            "faster-astern-than-ahead",
            _set("speed_back", 3),
            "speed_back",
            "Speed back cannot exceed speed forward (lines 17-25).",
        )
    ],
    "memoir_sea": [
        (
            "critical-point-at-flotation",
            _set("critical_point", 23),
            "critical_point",
            "The Critical Point (23) must be below the Flotation Value (23) (M08).",
        )
    ],
}

GENERIC = [pytest.param(k, c, id=f"{k}-{c[0]}") for k in rules.ruleset_keys() for c in generic_cases(k)]
CROSS = [
    pytest.param(k, c, id=f"{k}-{c[0]}") for k in rules.ruleset_keys() for c in CROSS_FIELD_CASES.get(k, [])
]


def shown_errors(response: Any) -> dict[str, list[str]]:
    """Return the errors the page shows by the rule set's keys (``tonnage``, ``guns.0.forward``, ``guns``)."""
    form = response.context["stats_form"]
    out: dict[str, list[str]] = {k: list(v) for k, v in form.errors.items()}
    for name, formset in form.formsets.items():
        if formset.non_form_errors():
            out[name] = list(formset.non_form_errors())
        for i, row in enumerate(formset.forms):
            for field, messages in row.errors.items():
                out[f"{name}.{i}.{field}"] = list(messages)
    return out


# --- the add page asks for the rule set, then shows its fields ---------------------------------------------


def test_add_asks_for_the_rule_set_first(admin_client_: Client) -> None:
    response = admin_client_.get(ADD)

    assert response.status_code == 200
    html = response.content.decode()
    assert "choose the rule set" in html
    for key in rules.ruleset_keys():
        assert f'href="?ruleset={key}"' in html


@pytest.mark.parametrize("key", rules.ruleset_keys())
def test_add_form_has_a_real_field_for_every_schema_field(admin_client_: Client, key: str) -> None:
    response = admin_client_.get(f"{ADD}?ruleset={key}")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="stats"' not in html  # no raw JSON box
    for spec in rules.get_ruleset(key).class_schema():
        name = f"stats-{spec.name}"
        if spec.type in ("int", "float"):
            assert f'type="number" name="{name}"' in html, spec.name
        elif spec.type == "choice":
            assert f'<select name="{name}"' in html, spec.name
        elif spec.type == "bool":
            assert f'type="checkbox" name="{name}"' in html, spec.name
        elif spec.type == "str":
            assert f'type="text" name="{name}"' in html, spec.name
        else:
            assert f'name="{name}-TOTAL_FORMS"' in html, spec.name
            for sub in spec.fields:
                assert f'name="{name}-0-{sub.name}"' in html, f"{spec.name}.{sub.name}"


def test_number_fields_carry_the_schema_bounds(admin_client_: Client) -> None:
    html = admin_client_.get(f"{ADD}?ruleset=ultra_simple").content.decode()

    assert '<input type="number" name="stats-tonnage" min="500" max="100000" step="1" required' in html
    assert '<option value="battleship" selected>Battleship</option>' in html


# --- valid classes save; invalid ones show the rule set's errors and save nothing -


@pytest.mark.parametrize("key", rules.ruleset_keys())
def test_create_a_valid_class_for_every_rule_set(admin_client_: Client, key: str) -> None:
    stats = sample_stats(key)
    nation = NationFactory(name="Britain")

    response = admin_client_.post(f"{ADD}?ruleset={key}", class_post(key, stats, nation=str(nation.pk)))

    assert response.status_code == 302, shown_errors(response)
    saved = ShipClass.objects.get(ruleset=key, key="test_class")
    assert saved.stats == stats
    assert saved.nation == nation
    assert saved.stats_errors() == {}


@pytest.mark.parametrize(("key", "case"), GENERIC)
def test_invalid_stats_show_the_rule_sets_error_next_to_the_field(
    admin_client_: Client, key: str, case: tuple[str, Mutator, str]
) -> None:
    _, mutate, field = case
    stats = sample_stats(key)
    mutate(stats)
    expected = rules.get_ruleset(key).validate_class(stats)
    assert field in expected  # the case is one the rule set refuses

    response = admin_client_.post(f"{ADD}?ruleset={key}", class_post(key, stats))

    assert response.status_code == 200
    assert shown_errors(response)[field] == expected[field]
    assert "Please correct the error" in response.content.decode()
    # not the model's errors about the empty stats of a new class ("type: This field is required.")
    assert response.context["adminform"].form.non_field_errors() == [
        "The stats have errors: see the fields below."
    ]
    assert not ShipClass.objects.exists()


@pytest.mark.parametrize(("key", "case"), CROSS)
def test_cross_field_errors_land_on_the_row_cell(
    admin_client_: Client, key: str, case: tuple[str, Mutator, str, str]
) -> None:
    _, mutate, field, message = case
    stats = sample_stats(key)
    mutate(stats)

    response = admin_client_.post(f"{ADD}?ruleset={key}", class_post(key, stats))

    assert response.status_code == 200
    assert shown_errors(response)[field] == [message]
    assert not ShipClass.objects.exists()


def test_ultra_simple_messages_are_the_rule_books_words(admin_client_: Client) -> None:
    stats = sample_stats("ultra_simple")
    stats["tonnage"] = -1
    stats["speed"] = 450
    stats["guns"][0]["calibre"] = 99
    data = class_post("ultra_simple", stats)

    response = admin_client_.post(f"{ADD}?ruleset=ultra_simple", data)

    errors = shown_errors(response)
    assert errors["tonnage"] == ["Must be at least 500 tons."]
    assert errors["speed"] == ["Must be at most 45 knots."]
    assert errors["guns.0.calibre"] == ["Must be at most 20 inches."]
    html = response.content.decode()
    assert html.index("Must be at least 500 tons.") < html.index('name="stats-tonnage"')
    assert not ShipClass.objects.exists()


def test_too_many_rows_is_an_error_on_the_rows(admin_client_: Client) -> None:
    stats = sample_stats("ultra_simple")
    stats["guns"] = [dict(stats["guns"][0], calibre=c) for c in (11, 12, 13, 14, 15)]

    response = admin_client_.post(f"{ADD}?ruleset=ultra_simple", class_post("ultra_simple", stats))

    assert shown_errors(response)["guns"] == ["At most 4 rows."]
    assert not ShipClass.objects.exists()


def test_a_class_with_no_gun_rows_is_refused(admin_client_: Client) -> None:
    stats = sample_stats("ultra_simple")
    stats["guns"] = []

    response = admin_client_.post(f"{ADD}?ruleset=ultra_simple", class_post("ultra_simple", stats))

    assert shown_errors(response)["guns"] == ["At least 1 row(s)."]
    assert not ShipClass.objects.exists()


def test_text_in_a_number_field_is_refused(admin_client_: Client) -> None:
    data = class_post("ultra_simple", sample_stats("ultra_simple"))
    data["stats-tonnage"] = "heavy"

    response = admin_client_.post(f"{ADD}?ruleset=ultra_simple", data)

    assert shown_errors(response)["tonnage"] == ["Enter a whole number."]
    assert not ShipClass.objects.exists()


def test_record_sheet_schema_round_trips_through_the_form(admin_client_: Client) -> None:
    """ww2_jackson's record sheet (A4): rows of choices, armour letters ("" is a letter: none), arcs and
    fixed tubes as checkboxes, wing mounts' sides."""
    stats = reference_stats("ww2_jackson", "hood")

    response = admin_client_.post(f"{ADD}?ruleset=ww2_jackson", class_post("ww2_jackson", stats, key="hood"))

    assert response.status_code == 302, shown_errors(response)
    saved = ShipClass.objects.get(ruleset="ww2_jackson")
    assert saved.stats == stats
    assert saved.type == "battlecruiser"  # taken from the stats when left blank


@pytest.mark.parametrize(
    ("field", "value", "key", "message"),
    [
        pytest.param("tonnage", -5, "tonnage", "Must be at least 50 tons.", id="negative-tonnage"),
        pytest.param("engine", None, "engine", "This field is required.", id="missing-engine-boxes"),
        pytest.param(
            "belt",
            "",
            "belt",
            "Armoured general above-water boxes need the belt letter.",
            id="cross-field-belt",
        ),
    ],
)
def test_record_sheet_errors(admin_client_: Client, field: str, value: Any, key: str, message: str) -> None:
    stats = reference_stats("ww2_jackson", "hood")
    if value is None:
        stats.pop(field)
    else:
        stats[field] = value

    response = admin_client_.post(f"{ADD}?ruleset=ww2_jackson", class_post("ww2_jackson", stats, key="hood"))

    assert shown_errors(response)[key] == [message]
    assert not ShipClass.objects.exists()


def test_unknown_rule_set_in_the_query_goes_back_to_the_choice(admin_client_: Client) -> None:
    response = admin_client_.get(f"{ADD}?ruleset=chess")

    assert response.status_code == 200
    assert "choose the rule set" in response.content.decode()


# --- change page ------------------------------------------------------------------------------------------


def test_change_page_shows_the_saved_values_and_a_sheet_preview(admin_client_: Client) -> None:
    ship_class = ShipClassFactory(name="Bismarck", key="bismarck", stats=copy.deepcopy(ULTRA_SIMPLE_STATS))

    response = admin_client_.get(_change(ship_class.pk))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="stats-tonnage" value="41700"' in html
    assert 'name="stats-guns-0-calibre" value="15"' in html
    assert 'name="stats-guns-TOTAL_FORMS" value="3"' in html  # one row and two blank ones
    assert "Status sheet preview" in html
    assert 'class="sheet sheet--card"' in html


def test_editing_a_row_and_deleting_another(admin_client_: Client) -> None:
    stats = sample_stats("ultra_simple")
    stats["guns"].append({"calibre": 6, "forward": 2, "aft": 2, "broadside": 6})
    ship_class = ShipClassFactory(stats=stats, key="mixed")
    data = class_post("ultra_simple", stats, name=ship_class.name, key="mixed")
    data.update({"stats-guns-INITIAL_FORMS": "2", "stats-guns-0-forward": "2", "stats-guns-1-DELETE": "on"})

    response = admin_client_.post(_change(ship_class.pk), data)

    assert response.status_code == 302, shown_errors(response)
    ship_class.refresh_from_db()
    assert ship_class.stats["guns"] == [{"calibre": 15, "forward": 2, "aft": 4, "broadside": 8}]


def test_a_failed_edit_keeps_the_saved_class(admin_client_: Client) -> None:
    ship_class = ShipClassFactory(key="kgv")
    before = copy.deepcopy(ship_class.stats)
    data = class_post("ultra_simple", dict(before, tonnage=10), name=ship_class.name, key="kgv")

    response = admin_client_.post(_change(ship_class.pk), data)

    assert response.status_code == 200
    ship_class.refresh_from_db()
    assert ship_class.stats == before


def test_the_rule_set_of_a_class_cannot_be_changed_by_the_form(admin_client_: Client) -> None:
    ship_class = ShipClassFactory(key="kgv")
    data = class_post("ultra_simple", ship_class.stats, name=ship_class.name, key="kgv")
    data["ruleset"] = "ww2_jackson"

    response = admin_client_.post(_change(ship_class.pk), data)

    assert response.status_code == 200
    ship_class.refresh_from_db()
    assert ship_class.ruleset == "ultra_simple"


def test_duplicate_keys_under_one_rule_set_are_refused(admin_client_: Client) -> None:
    ShipClassFactory(key="test_class")

    response = admin_client_.post(
        f"{ADD}?ruleset=ultra_simple", class_post("ultra_simple", sample_stats("ultra_simple"))
    )

    assert response.status_code == 200
    assert ShipClass.objects.count() == 1


# --- the model and the service refuse invalid stats too -


def test_service_and_model_refuse_invalid_stats() -> None:
    ship_class = ShipClass(
        ruleset="ultra_simple", key="bad", name="Bad", stats={"type": "battleship", "tonnage": -1, "guns": []}
    )

    with pytest.raises(ApplicationError) as info:
        shipclass_save(ship_class=ship_class)

    assert info.value.code == "invalid_class"
    assert info.value.fields["stats"] == ["tonnage: Must be at least 500 tons.", "guns: At least 1 row(s)."]
    assert not ShipClass.objects.exists()


# --- list, actions ------------------------------------------------------------------------------------------


def test_changelist_searches_and_filters(admin_client_: Client) -> None:
    britain, germany = NationFactory(name="Britain"), NationFactory(name="Germany")
    ShipClassFactory(name="Rodney", key="rodney", nation=britain)
    ShipClassFactory(name="Bismarck", key="bismarck", nation=germany)

    by_search = admin_client_.get("/admin/fleets/shipclass/?q=rod")
    by_nation = admin_client_.get(f"/admin/fleets/shipclass/?nation__id__exact={germany.pk}")
    by_ruleset = admin_client_.get("/admin/fleets/shipclass/?ruleset__exact=ultra_simple")

    assert [c.name for c in by_search.context["cl"].result_list] == ["Rodney"]
    assert [c.name for c in by_nation.context["cl"].result_list] == ["Bismarck"]
    assert {c.name for c in by_ruleset.context["cl"].result_list} == {"Rodney", "Bismarck"}
    assert "Import classes" in by_search.content.decode()


def test_duplicate_action_makes_an_editable_copy(admin_client_: Client) -> None:
    original = ShipClassFactory(name="Rodney", key="rodney")

    response = admin_client_.post(
        "/admin/fleets/shipclass/", {"action": "duplicate_selected", "_selected_action": [original.pk]}
    )

    copy_ = ShipClass.objects.get(key="rodney_copy")
    assert response.status_code == 302
    assert response["Location"] == _change(copy_.pk)
    assert copy_.name == "Rodney (copy)"
    assert copy_.stats == original.stats
    admin_client_.post(
        "/admin/fleets/shipclass/", {"action": "duplicate_selected", "_selected_action": [original.pk]}
    )
    assert ShipClass.objects.filter(key="rodney_copy_2").exists()


def test_export_selected_as_json_and_csv(admin_client_: Client) -> None:
    nation = NationFactory(name="Britain")
    a = ShipClassFactory(name="Rodney", key="rodney", nation=nation)
    ShipClassFactory(name="Nelson", key="nelson")

    as_json = admin_client_.post(
        "/admin/fleets/shipclass/", {"action": "export_json", "_selected_action": [a.pk]}
    )
    as_csv = admin_client_.post(
        "/admin/fleets/shipclass/", {"action": "export_csv", "_selected_action": [a.pk]}
    )

    assert as_json["Content-Disposition"] == 'attachment; filename="ship-classes.json"'
    assert json.loads(as_json.content) == [
        {
            "ruleset": "ultra_simple",
            "key": "rodney",
            "name": "Rodney",
            "nation": "Britain",
            "type": "battleship",
            "stats": a.stats,
            "source_note": "Factory data.",
            "heuristic": False,
        }
    ]
    rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert len(rows) == 1
    assert rows[0]["key"] == "rodney"
    assert json.loads(rows[0]["stats"]) == a.stats


def test_a_class_of_an_uninstalled_rule_set_is_not_edited(admin_client_: Client) -> None:
    ship_class = ShipClassFactory(key="old")
    ShipClass.objects.filter(pk=ship_class.pk).update(ruleset="retired")

    response = admin_client_.get(_change(ship_class.pk), follow=True)

    assert response.redirect_chain[-1][0] == "/admin/fleets/shipclass/"
    assert "which is not installed; it cannot be edited." in response.content.decode()
