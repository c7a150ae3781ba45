"""Import of ship classes from JSON and CSV: good rows are imported, bad ones reported row by row."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fleets.models import Nation, ShipClass
from fleets.resources import COLUMNS
from fleets.services import shipclass_export, shipclass_import
from navalwar.errors import ApplicationError
from tests.factories import ShipClassFactory
from tests.fleets.helpers import sample_stats

pytestmark = pytest.mark.django_db

IMPORT = "/admin/fleets/shipclass/import/"


def _row(key: str, stats: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "ruleset": "ultra_simple",
        "key": key,
        "name": key.title(),
        "nation": "Britain",
        "type": "battleship",
        "stats": stats,
        "source_note": "Test file.",
        "heuristic": False,
        **extra,
    }


def mixed_rows() -> list[Any]:
    good = sample_stats("ultra_simple")
    too_light = dict(good, tonnage=100)
    more_forward = json.loads(json.dumps(good))
    more_forward["guns"][0]["forward"] = 12
    return [
        _row("nelson", good),  # 1 good
        _row("light", too_light),  # 2 tonnage below the minimum
        _row("rodney", good, nation="Great Britain"),  # 3 good, nation spelt another way
        _row("arcs", more_forward),  # 4 more guns forward than aboard
        _row("chess", good, ruleset="chess"),  # 5 unknown rule set
        "not a class",  # 6 not an object
        _row("Bad Key!", good),  # 7 not a slug
        _row("nameless", good, name=""),  # 8 no name
        _row("strange", good, heuristic="maybe"),  # 9 not a boolean
    ]


def test_json_import_takes_the_good_rows_and_reports_the_bad_ones() -> None:
    report = shipclass_import(content=json.dumps(mixed_rows()), fmt="json")

    assert sorted(ShipClass.objects.values_list("key", flat=True)) == ["nelson", "rodney"]
    assert Nation.objects.get().name == "Britain"  # "Great Britain" is the same navy
    assert [(r.number, r.key, r.outcome) for r in report.rows] == [
        (1, "nelson", "new"),
        (2, "light", "rejected"),
        (3, "rodney", "new"),
        (4, "arcs", "rejected"),
        (5, "chess", "rejected"),
        (6, "", "rejected"),
        (7, "Bad Key!", "rejected"),
        (8, "nameless", "rejected"),
        (9, "strange", "rejected"),
    ]
    reasons = {r.number: r.errors for r in report.rejected}
    assert reasons[2] == ("stats: tonnage: Must be at least 500 tons.",)
    assert reasons[4] == ("stats: guns.0.forward: More guns bear forward (12) than the ship carries (8).",)
    assert reasons[5] == ("ruleset: Value 'chess' is not a valid choice.",)
    assert reasons[6] == ("The row is not a JSON object.",)
    assert reasons[7] == (
        "key: Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.",
    )
    assert reasons[8] == ("name: This field cannot be blank.",)
    assert reasons[9] == ("heuristic: Enter true or false, not 'maybe'.",)
    assert report.imported == 2


def test_csv_import_reads_stats_as_json_text() -> None:
    good = sample_stats("ultra_simple")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["ruleset", "key", "name", "nation", "type", "stats", "source_note", "heuristic"])
    writer.writerow(["ultra_simple", "nelson", "Nelson", "Britain", "", json.dumps(good), "", "0"])
    writer.writerow(["ultra_simple", "broken", "Broken", "Britain", "", "{tonnage: 3", "", "0"])
    writer.writerow(["ultra_simple", "listy", "Listy", "", "", "[1, 2]", "", "1"])
    # a lone surrogate escape was saved, and the class pages then failed with a 500
    writer.writerow(["ultra_simple", "odd", "Odd", "", "", json.dumps(dict(good, type="\ud800")), "", "0"])

    report = shipclass_import(content=out.getvalue().encode(), fmt="csv")

    assert list(ShipClass.objects.values_list("key", "type")) == [("nelson", "battleship")]
    assert [(r.number, r.outcome) for r in report.rows] == [
        (1, "new"),
        (2, "rejected"),
        (3, "rejected"),
        (4, "rejected"),
    ]
    assert report.rows[1].errors[0].startswith("stats: The stats are not valid JSON (")
    assert report.rows[2].errors == ('stats: The stats must be a JSON object, like {"tonnage": 36000, ...}.',)
    assert report.rows[3].errors == (
        "stats: The stats are not valid JSON (\\ud800 is half of a UTF-16 surrogate pair, no character).",
    )


def test_an_existing_class_is_updated_and_an_unchanged_one_reported_so() -> None:
    ShipClassFactory(key="nelson", name="Nelson", nation__name="Britain", source_note="Test file.")
    stats = sample_stats("ultra_simple")
    rows = [_row("nelson", dict(stats, tonnage=33950)), _row("nelson", dict(stats, tonnage=33950))]

    report = shipclass_import(content=json.dumps(rows), fmt="json")

    assert [r.outcome for r in report.rows] == ["updated", "unchanged"]
    assert ShipClass.objects.get(key="nelson").stats["tonnage"] == 33950


def test_check_only_saves_nothing() -> None:
    report = shipclass_import(content=json.dumps(mixed_rows()), fmt="json", check_only=True)

    assert report.count_new == 2
    assert len(report.rejected) == 7
    assert report.imported == 0
    assert not ShipClass.objects.exists()
    assert not Nation.objects.exists()


def _csv(*rows: list[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["ruleset", "key", "name", "nation", "type", "stats", "source_note", "heuristic"])
    writer.writerows(rows)
    return out.getvalue()


NUL_REFUSAL = "A NUL character (\\u0000) cannot be saved."


def test_a_nul_in_a_csv_cell_rejects_its_row() -> None:
    """NW-CAMP-18: a name with a NUL was imported (a 500 on PostgreSQL); in the key, the import failed."""
    good = json.dumps(sample_stats("ultra_simple"))
    content = _csv(
        ["ultra_simple", "nelson", "Nel\x00son", "Britain", "", good, "", "0"],
        ["ultra_simple", "ro\x00dney", "Rodney", "Britain", "", good, "", "0"],
        ["ultra_simple", "hood", "Hood", "Brit\x00ain", "", good, "", "0"],
        ["ultra_simple", "kgv", "King George V", "Britain", "", good, "\x00", "0"],
        ["ultra_simple", "warspite", "Warspite", "Britain", "", good, "", "0"],
    )

    report = shipclass_import(content=content.encode(), fmt="csv")

    assert [(r.number, r.key, r.name, r.outcome, r.errors) for r in report.rows] == [
        (1, "nelson", "Nelson", "rejected", (f"name: {NUL_REFUSAL}",)),
        (2, "rodney", "Rodney", "rejected", (f"key: {NUL_REFUSAL}",)),
        (3, "hood", "Hood", "rejected", (f"nation: {NUL_REFUSAL}",)),
        (4, "kgv", "King George V", "rejected", (f"source_note: {NUL_REFUSAL}",)),
        (5, "warspite", "Warspite", "new", ()),
    ]
    assert list(ShipClass.objects.values_list("key", flat=True)) == ["warspite"]
    assert list(Nation.objects.values_list("name", flat=True)) == ["Britain"]


def test_a_nul_or_lone_surrogate_escape_in_json_rejects_its_row() -> None:
    """NW-CAMP-18: "\\u0000" in a name or the stats was imported (a 500 on PostgreSQL); a lone surrogate
    refused the whole file, now only its row."""
    good = sample_stats("ultra_simple")
    rows = [
        _row("nelson", good, name="Nelson\x00"),
        _row("rodney", dict(good, type="battle\x00ship")),
        _row("hood", good, name="\ud800"),
        _row("warspite", good, extra_column="\x00"),  # not a column: not read
    ]

    report = shipclass_import(content=json.dumps(rows), fmt="json")

    assert [(r.number, r.key, r.name, r.outcome, r.errors) for r in report.rows] == [
        (1, "nelson", "Nelson", "rejected", (f"name: {NUL_REFUSAL}",)),
        (2, "rodney", "Rodney", "rejected", (f"stats: {NUL_REFUSAL}",)),
        (3, "hood", "?", "rejected", ("name: \\ud800 is half of a UTF-16 surrogate pair, no character.",)),
        (4, "warspite", "Warspite", "new", ()),
    ]
    assert list(ShipClass.objects.values_list("key", flat=True)) == ["warspite"]


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        pytest.param(_csv([""] * 8), "csv", id="csv-blank-cells"),
        pytest.param(json.dumps([dict.fromkeys(COLUMNS)]), "json", id="json-all-null"),
        pytest.param("[{}]", "json", id="json-empty-object"),
    ],
)
def test_a_row_of_no_values_is_rejected_not_unchanged(content: str, fmt: str) -> None:
    """The fresh-user check: a row of nulls was reported "unchanged" (NW-CAMP-18)."""
    report = shipclass_import(content=content, fmt=fmt)  # type: ignore[arg-type]

    assert [(r.number, r.outcome, r.errors) for r in report.rows] == [
        (1, "rejected", ("The row is empty: a class has at least a ruleset, a key and a name.",))
    ]
    assert not ShipClass.objects.exists()


def test_export_then_import_round_trips() -> None:
    ShipClassFactory(key="nelson", nation__name="Britain")
    ShipClassFactory(key="rodney", nation__name="Britain", heuristic=True)
    for fmt in ("json", "csv"):
        text = shipclass_export(queryset=ShipClass.objects.all(), fmt=fmt)  # type: ignore[arg-type]

        report = shipclass_import(content=text, fmt=fmt)  # type: ignore[arg-type]

        assert [r.outcome for r in report.rows] == ["unchanged", "unchanged"], fmt


@pytest.mark.parametrize(
    ("content", "fmt", "message"),
    [
        pytest.param("{not json", "json", "The file is not valid JSON", id="bad-json"),
        pytest.param('"a string"', "json", "A JSON import is a list of ship class objects.", id="not-a-list"),
        pytest.param(
            "name,stats\nNelson,{}\n", "csv", "The file has no ruleset or key column.", id="no-key-column"
        ),
    ],
)
def test_unreadable_files_are_refused_whole(content: str, fmt: str, message: str) -> None:
    with pytest.raises(ApplicationError) as info:
        shipclass_import(content=content, fmt=fmt)  # type: ignore[arg-type]

    assert info.value.code == "bad_file"
    assert info.value.message.startswith(message)


def test_admin_import_page_reports_row_by_row(admin_client_: Client) -> None:
    upload = SimpleUploadedFile("classes.json", json.dumps(mixed_rows()).encode(), "application/json")

    response = admin_client_.post(IMPORT, {"file": upload})

    assert response.status_code == 200
    html = response.content.decode()
    assert "9 rows: 2 imported (2 new, 0 updated), 0 unchanged, 7 rejected." in html
    assert "guns.0.forward: More guns bear forward (12) than the ship carries (8)." in html
    assert sorted(ShipClass.objects.values_list("key", flat=True)) == ["nelson", "rodney"]


def test_admin_import_needs_a_known_format(admin_client_: Client) -> None:
    upload = SimpleUploadedFile("classes.txt", b"[]", "text/plain")

    response = admin_client_.post(IMPORT, {"file": upload})

    assert response.context["form"].errors["format"] == [
        "Choose the format: the file name ends neither in .json nor .csv."
    ]


def test_admin_import_shows_a_bad_file_next_to_the_file_field(admin_client_: Client) -> None:
    upload = SimpleUploadedFile("classes.json", b"{oops", "application/json")

    response = admin_client_.post(IMPORT, {"file": upload})

    assert response.status_code == 200
    assert response.context["form"].errors["file"][0].startswith("The file is not valid JSON")


def test_import_page_is_for_staff_only(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.get(IMPORT)

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
