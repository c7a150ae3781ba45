"""The registry and what every rule set declares (issue 3: key, title, version, geometry, dice, phases,
order types, class schema with field-level validation)."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from rules import RuleSet, UnknownRuleset, all_rulesets, get_ruleset, ruleset_keys
from rules.base import validate_fields
from rules.dice import DieKind, SeededDice
from rules.errors import RulesError
from rules.model import JSON, FieldSpec, Geometry
from rules.scenario import bundled_scenarios, scenario_state

KEYS = ruleset_keys()


def test_unknown_key_names_the_known_keys() -> None:
    with pytest.raises(UnknownRuleset) as exc:
        get_ruleset("ww3_hyperspace")
    assert str(exc.value) == f"unknown rule set 'ww3_hyperspace'; known: {', '.join(KEYS)}"
    assert isinstance(exc.value, KeyError) and isinstance(exc.value, RulesError)


def test_keys_and_the_list_of_all_rule_sets() -> None:
    assert "ultra_simple" in KEYS
    assert list(KEYS) == sorted(KEYS)
    assert [rs.key for rs in all_rulesets()] == list(KEYS)
    assert get_ruleset("ultra_simple") is get_ruleset("ultra_simple")


@pytest.mark.parametrize("key", KEYS)
def test_a_rule_set_declares_its_metadata(key: str) -> None:
    rs = get_ruleset(key)
    assert isinstance(rs, RuleSet)
    assert rs.key == key
    assert rs.title and rs.version and rs.source.startswith("seeds/")
    assert rs.geometry in get_args(Geometry)
    assert rs.unit in ("inches", "millimetres", "hexes")
    assert (rs.unit == "hexes") == rs.geometry.startswith("hex")
    assert rs.dice and set(rs.dice) <= set(get_args(DieKind))
    keys = [ot.key for ot in rs.order_types]
    assert keys and len(keys) == len(set(keys))
    names = [f.name for f in rs.order_fields()]
    assert len(names) == len(set(names)), (
        "order fields must have distinct names: a payload is one flat object"
    )
    assert isinstance(rs.stacking, bool)
    json.dumps(rs.describe(), allow_nan=False)
    json.dumps(rs.tables(), allow_nan=False)


@pytest.mark.parametrize("key", KEYS)
def test_the_phase_plan_names_the_battles_sides(key: str) -> None:
    rs = get_ruleset(key)
    for sc in bundled_scenarios(key).values():
        state, _ = scenario_state(sc, SeededDice(0))
        plan = rs.phase_plan(state)
        assert plan, "a turn has at least one phase (A1)"
        for phase in plan:
            assert phase.name and set(phase.sides) <= set(state.side_keys())
        assert set().union(*(p.sides for p in plan)) == set(state.side_keys()), (
            "every side orders in some phase"
        )


def _walk(specs: tuple[FieldSpec, ...]) -> list[FieldSpec]:
    return [s for spec in specs for s in [spec, *_walk(spec.fields)]]


@pytest.mark.parametrize("key", KEYS)
def test_the_class_schema_reports_field_level_errors(key: str) -> None:
    rs = get_ruleset(key)
    schema = rs.class_schema()
    for spec in _walk(schema):
        assert spec.type in ("int", "float", "str", "bool", "choice", "rows")
        assert spec.type != "choice" or spec.choices
        assert spec.type != "rows" or spec.fields
        assert spec.min is None or spec.max is None or spec.min <= spec.max
    required = {s.name for s in schema if s.required}
    errors = rs.validate_class({})
    assert {k for k in errors if k != "__all__"} == required
    assert all(errors[k] == ["This field is required."] for k in required)
    assert rs.validate_class({"no_such_stat": 1})["__all__"] == ["unknown fields: no_such_stat"]
    for sc in bundled_scenarios(key).values():
        for c in sc.classes:
            assert rs.validate_class(c.stats) == {}, c.key


@pytest.mark.parametrize("key", KEYS)
def test_options_have_valid_defaults(key: str) -> None:
    rs = get_ruleset(key)
    defaults: dict[str, JSON] = {o.name: o.default for o in rs.options if o.default is not None}
    assert validate_fields(rs.options, defaults) == {}


SPECS = (
    FieldSpec(name="n", label="N", type="int", min=1, max=5, unit="hexes"),
    FieldSpec(name="x", label="X", type="float", required=False, min=0),
    FieldSpec(name="b", label="B", type="bool", required=False),
    FieldSpec(name="c", label="C", type="choice", required=False, choices=("a", "b")),
    FieldSpec(name="s", label="S", type="str", required=False, max=3),
    FieldSpec(
        name="rows",
        label="Rows",
        type="rows",
        required=False,
        min=1,
        max=2,
        fields=(FieldSpec(name="calibre", label="Calibre", type="float", min=4, max=20),),
    ),
)


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        pytest.param({"n": 3}, {}, id="ok"),
        pytest.param({"n": 3.0}, {}, id="integral-float-as-int"),
        pytest.param({}, {"n": ["This field is required."]}, id="required"),
        pytest.param({"n": ""}, {"n": ["This field is required."]}, id="empty-string-is-missing"),
        pytest.param({"n": 2.5}, {"n": ["Enter a whole number."]}, id="not-whole"),
        pytest.param({"n": True}, {"n": ["Enter a whole number."]}, id="bool-not-int"),
        pytest.param({"n": 0}, {"n": ["Must be at least 1 hexes."]}, id="below-min"),
        pytest.param({"n": 6}, {"n": ["Must be at most 5 hexes."]}, id="above-max"),
        pytest.param({"n": 1, "x": "1"}, {"x": ["Enter a number."]}, id="text-for-float"),
        pytest.param({"n": 1, "x": float("nan")}, {"x": ["Enter a number."]}, id="nan"),
        pytest.param({"n": 1, "x": -0.5}, {"x": ["Must be at least 0."]}, id="float-below-min"),
        pytest.param({"n": 1, "b": 1}, {"b": ["Enter true or false."]}, id="bool"),
        pytest.param({"n": 1, "c": "z"}, {"c": ["Select a valid choice: a, b."]}, id="choice"),
        pytest.param({"n": 1, "s": 4}, {"s": ["Enter text."]}, id="str"),
        pytest.param({"n": 1, "s": "abcd"}, {"s": ["At most 3 characters."]}, id="str-too-long"),
        pytest.param({"n": 1, "rows": {}}, {"rows": ["Enter a list of rows."]}, id="rows-not-list"),
        pytest.param({"n": 1, "rows": []}, {"rows": ["At least 1 row(s)."]}, id="rows-min"),
        pytest.param({"n": 1, "rows": [{"calibre": 5}] * 3}, {"rows": ["At most 2 rows."]}, id="rows-max"),
        pytest.param(
            {"n": 1, "rows": [{"calibre": 3}, 7]},
            {"rows.0.calibre": ["Must be at least 4."], "rows.1": ["Each row must be an object."]},
            id="row-errors-name-the-row",
        ),
        pytest.param(
            {"n": 1, "zz": 1, "aa": 2}, {"__all__": ["unknown fields: aa, zz"]}, id="unknown-fields"
        ),
    ],
)
def test_validate_fields(data: dict[str, JSON], errors: dict[str, list[str]]) -> None:
    assert validate_fields(SPECS, data) == errors
