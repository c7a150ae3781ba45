"""``rules.base.validate_fields`` (written for speed) gives the errors, in the order, of the plain checks it
replaced, kept here as they were: random payloads against specs of every field type."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import validate_fields
from rules.model import JSON, FieldErrors, FieldSpec
from rules.registry import all_rulesets


def plain_validate_fields(
    specs: Sequence[FieldSpec], data: Mapping[str, JSON], prefix: str = ""
) -> FieldErrors:
    """Check ``data`` against field specs: presence, type, bounds, choices, inline rows.

    Return errors keyed by field name (``rows`` fields report ``name.<i>.<sub>``). Unknown keys are
    reported under ``__all__``.
    """
    errors: FieldErrors = {}

    def add(name: str, msg: str) -> None:
        errors.setdefault(prefix + name, []).append(msg)

    known = {s.name for s in specs}
    unknown = sorted(set(data) - known)
    if unknown:
        add("__all__", f"unknown fields: {', '.join(unknown)}")
    for spec in specs:
        value = data.get(spec.name)
        if value is None or value == "":
            if spec.required:
                add(spec.name, "This field is required.")
            continue
        if spec.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                else:
                    add(spec.name, "Enter a whole number.")
                    continue
        elif spec.type == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                add(spec.name, "Enter a number.")
                continue
        elif spec.type == "bool":
            if not isinstance(value, bool):
                add(spec.name, "Enter true or false.")
            continue
        elif spec.type in ("str", "choice"):
            if not isinstance(value, str):
                add(spec.name, "Enter text.")
                continue
            if spec.type == "choice" and value not in spec.choices:
                add(spec.name, f"Select a valid choice: {', '.join(spec.choices)}.")
            if spec.max is not None and len(value) > spec.max:
                add(spec.name, f"At most {int(spec.max)} characters.")
            continue
        elif spec.type == "rows":
            if not isinstance(value, list):
                add(spec.name, "Enter a list of rows.")
                continue
            if spec.min is not None and len(value) < spec.min:
                add(spec.name, f"At least {int(spec.min)} row(s).")
            if spec.max is not None and len(value) > spec.max:
                add(spec.name, f"At most {int(spec.max)} rows.")
            for i, row in enumerate(value):
                if not isinstance(row, dict):
                    add(f"{spec.name}.{i}", "Each row must be an object.")
                    continue
                for k, v in plain_validate_fields(
                    spec.fields, row, prefix=f"{prefix}{spec.name}.{i}."
                ).items():
                    errors.setdefault(k, []).extend(v)
            continue
        assert isinstance(value, (int, float))
        if spec.min is not None and value < spec.min:
            add(spec.name, f"Must be at least {spec.min:g}{' ' + spec.unit if spec.unit else ''}.")
        if spec.max is not None and value > spec.max:
            add(spec.name, f"Must be at most {spec.max:g}{' ' + spec.unit if spec.unit else ''}.")
    return errors


ROW = (FieldSpec(name="calibre", label="Calibre", type="float", min=4, max=20, unit="in"),)
SPECS = (
    FieldSpec(name="n", label="N", type="int", min=1, max=5, unit="hexes"),
    FieldSpec(name="x", label="X", type="float", required=False, min=0),
    FieldSpec(name="b", label="B", type="bool", required=False),
    FieldSpec(name="c", label="C", type="choice", required=False, choices=("a", "b"), max=1),
    FieldSpec(name="s", label="S", type="str", required=False, max=3),
    FieldSpec(name="rows", label="Rows", type="rows", required=False, min=1, max=2, fields=ROW),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "a", "b", "abcd", "F"]),
)
VALUES = st.one_of(
    SCALARS, st.lists(st.one_of(SCALARS, st.dictionaries(st.sampled_from(["calibre", "z"]), SCALARS)))
)
KEYS = st.sampled_from(["n", "x", "b", "c", "s", "rows", "zz", "aa", "course", "target", "speed", "turn"])


@settings(max_examples=400)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_same_errors_as_the_plain_checks(data: dict[str, JSON]) -> None:
    got = validate_fields(SPECS, data)
    assert list(got.items()) == list(plain_validate_fields(SPECS, data).items())


@settings(max_examples=200, deadline=None)  # the first example loads every rule set
@given(st.data())
def test_same_errors_for_every_rule_sets_orders(data: st.DataObject) -> None:
    for rs in all_rulesets():
        specs = rs.order_fields()
        payload = data.draw(st.dictionaries(st.sampled_from([f.name for f in specs] + ["zz"]), SCALARS))
        got = validate_fields(specs, payload, prefix="p.")
        assert list(got.items()) == list(plain_validate_fields(specs, payload, prefix="p.").items())


@settings(max_examples=400)
@given(st.dictionaries(KEYS, SCALARS, max_size=6))
def test_same_errors_without_rows(data: dict[str, JSON]) -> None:
    # SPECS without its rows field: most payloads go through _plainly_valid first
    specs = SPECS[:-1]
    got = validate_fields(specs, data)
    assert list(got.items()) == list(plain_validate_fields(specs, data).items())


def test_plainly_valid_payloads_have_no_errors() -> None:
    specs = SPECS[:-1]
    for data in ({"n": 1}, {"n": 5, "x": 0.5, "b": True, "c": "a", "s": "abc"}, {"n": 2, "x": 3, "s": ""}):
        assert validate_fields(specs, data) == {} == plain_validate_fields(specs, data)
