"""Bundled reference data: every class of every registered rule set (scenarios and reference tables), loaded
twice without duplicates, each accepted by its rule set. Expectations come from the rules registry, so rule
sets merged later are covered as they are registered."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

import rules
from fleets.models import Nation, Ship, ShipClass
from fleets.reference import navy_style, reference_classes
from rules.rulesets.ww2_jackson.classes import CLASSES
from rules.scenario import bundled_scenarios

pytestmark = pytest.mark.django_db


def expected_classes() -> set[tuple[str, str]]:
    """Every (rule set, key) the rules bundle: scenario classes plus each rule set's reference_classes()."""
    keys = {(sc.ruleset, c.key) for sc in bundled_scenarios().values() for c in sc.classes}
    for rs in rules.all_rulesets():
        keys |= {(rs.key, str(c["key"])) for c in rs.reference_classes()}
    return keys


def loaded() -> set[tuple[str, str]]:
    return set(ShipClass.objects.values_list("ruleset", "key"))


def run() -> str:
    out = StringIO()
    call_command("load_reference_data", stdout=out, stderr=out)
    return out.getvalue()


def test_loads_every_bundled_class_twice_without_duplicates() -> None:
    first = run()
    counts = (ShipClass.objects.count(), Nation.objects.count(), Ship.objects.count())
    second = run()

    assert loaded() == expected_classes()
    assert (ShipClass.objects.count(), Nation.objects.count(), Ship.objects.count()) == counts
    assert ShipClass.objects.count() == len(expected_classes())
    assert f"Reference classes: {counts[0]} new, 0 updated, 0 unchanged; {counts[2]} new ships." in first
    assert f"Reference classes: 0 new, 0 updated, {counts[0]} unchanged; 0 new ships." in second


def test_every_registered_rule_set_with_scenarios_has_classes() -> None:
    run()

    with_scenarios = {sc.ruleset for sc in bundled_scenarios().values()}
    assert with_scenarios <= set(ShipClass.objects.values_list("ruleset", flat=True))
    assert set(rules.ruleset_keys()) >= with_scenarios


def test_every_bundled_class_validates_and_keeps_its_source_and_heuristic_flag() -> None:
    run()

    refs = {(r.ruleset, r.key): r for r in reference_classes()}
    for ship_class in ShipClass.objects.select_related("nation"):
        ref = refs[(ship_class.ruleset, ship_class.key)]
        assert ship_class.stats_errors() == {}, (ship_class.ruleset, ship_class.key)
        assert ship_class.stats == ref.stats
        assert ship_class.source_note, (ship_class.ruleset, ship_class.key)
        assert ship_class.heuristic is ref.heuristic
        if ref.nation:
            assert ship_class.nation is not None
            assert ship_class.nation.colour == navy_style(ref.nation)[1]


def test_scenario_ships_are_made_once() -> None:
    run()
    run()

    for scenario in bundled_scenarios().values():
        for ship in scenario.ships:
            assert (
                Ship.objects.filter(
                    name=ship.name, ship_class__ruleset=scenario.ruleset, ship_class__key=ship.class_key
                ).count()
                == 1
            )


def test_ultra_simple_bismarck_scenario_classes() -> None:
    run()

    bismarck = ShipClass.objects.get(ruleset="ultra_simple", key="bismarck")
    assert bismarck.name == "Bismarck"
    assert bismarck.nation is not None and bismarck.nation.name == "Germany"
    assert bismarck.stats["tonnage"] == 41700
    assert bismarck.source_note.startswith("8 x 15 in (4/4/8), 41,700 t")
    assert list(bismarck.ships.values_list("name", flat=True)) == ["Bismarck"]


def test_reference_tables_and_heuristic_classes_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule set's reference_classes() (seed 001's table, ACW types; here ww2_jackson's A4 heuristic Hood,
    its navy spelt "Great Britain" for this test) win over the scenario's copy of the class."""
    hood_entry = CLASSES["hood"]
    monkeypatch.setitem(CLASSES, "hood", {**hood_entry, "nation": "Great Britain"})

    run()

    hood = ShipClass.objects.get(ruleset="ww2_jackson", key="hood")
    assert hood.heuristic is True
    assert hood.nation is not None and hood.nation.name == "Britain"  # "Great Britain" in the data
    assert hood.source_note == hood_entry["source"]
    assert hood.source_note.endswith("Boxes by the A4 house heuristic.")
    assert hood.stats == hood_entry["stats"]
    assert loaded() == expected_classes()


def test_an_edited_reference_class_is_restored() -> None:
    run()
    bismarck = ShipClass.objects.get(ruleset="ultra_simple", key="bismarck")
    bismarck.stats = dict(bismarck.stats, tonnage=50000)
    bismarck.save()

    output = run()

    bismarck.refresh_from_db()
    assert bismarck.stats["tonnage"] == 41700
    assert "1 updated" in output


def test_load_demo_loads_the_reference_data() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)

    assert loaded() == expected_classes()
    assert "fleets.demo.load_reference: Reference classes:" in out.getvalue()


def test_navy_styles() -> None:
    assert navy_style("Britain") == ("GB", "#1f4e9c")
    assert navy_style("Royal Navy") == ("GB", "#1f4e9c")
    assert navy_style("Confederate States") == ("CSA", "#78909c")
    short, colour = navy_style("Free Republic of Ruritania")
    assert short == "FROR"
    assert colour == navy_style("Free Republic of Ruritania")[1]
    assert colour.startswith("#") and len(colour) == 7
