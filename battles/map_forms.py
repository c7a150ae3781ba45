"""Forms of the battle map: the set-up editor's ship and terrain forms, and the movement-order preview.

Form validation only (types, required fields, a position on this kind of map); the services and the rules
decide the rest.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from navalwar.numbers import PlainFloatField, PlainIntegerField, plain_float, plain_int
from rules.model import JSON, BattleState, FieldSpec, Hex, Point, Position


class _PositionForm(forms.Form):
    """A position: ``q``/``r`` on a hex map, ``x``/``y`` (inches or millimetres) on a table."""

    q = PlainIntegerField(required=False, label="Hex q")
    r = PlainIntegerField(required=False, label="Hex r")
    x = PlainFloatField(required=False, label="x (east)")
    y = PlainFloatField(required=False, label="y (south)")

    def __init__(self, *args: Any, state: BattleState, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.state = state
        self.hexes = state.map.geometry.startswith("hex")
        for name in ("x", "y") if self.hexes else ("q", "r"):
            self.fields[name].widget = forms.HiddenInput()
        if not self.hexes:
            unit = "mm" if state.map.geometry == "table_mm" else "inches"
            self.fields["x"].label = f"x (east, {unit})"
            self.fields["y"].label = f"y (south, {unit})"

    def position(self, required: bool) -> Position | None:
        data = self.cleaned_data
        names = ("q", "r") if self.hexes else ("x", "y")
        values = [data.get(n) for n in names]
        if all(v is None for v in values):
            if required:
                self.add_error(names[0], "Click a place on the map, or enter its coordinates.")
            return None
        if any(v is None for v in values):
            self.add_error(names[1] if values[0] is not None else names[0], "Enter both coordinates.")
            return None
        if self.hexes:
            return Hex(q=int(values[0]), r=int(values[1]))  # type: ignore[arg-type]
        return Point(x=float(values[0]), y=float(values[1]))  # type: ignore[arg-type]


class ShipPlaceForm(_PositionForm):
    """Place and/or turn one ship (the set-up editor)."""

    ship = forms.ChoiceField(label="Ship")
    heading = PlainFloatField(
        required=False, label="Heading (degrees from north)", min_value=0, max_value=360
    )

    field_order = ["ship", "q", "r", "x", "y", "heading"]

    def __init__(self, *args: Any, state: BattleState, **kwargs: Any) -> None:
        super().__init__(*args, state=state, **kwargs)
        self.fields["ship"].choices = [(s.id, f"{s.name} ({s.side})") for s in state.ships]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["position"] = self.position(required=False)
        if data["position"] is None and data.get("heading") is None and not self.errors:
            self.add_error(None, "Give a new place, a new heading, or both.")
        return data


class TerrainPaintForm(_PositionForm):
    """Paint (or clear) the terrain of one place (the set-up editor)."""

    kind = forms.ChoiceField(label="Terrain")
    side = forms.ChoiceField(required=False, label="Side (mines: the side that laid them)")
    depth = PlainFloatField(required=False, min_value=0, label="Depth (fathoms, shoals)")
    radius = PlainFloatField(required=False, min_value=0, label="Radius (table shoals)")
    name = forms.CharField(required=False, max_length=60)
    guns = PlainIntegerField(required=False, min_value=0, label="Guns (batteries)")
    dice = PlainIntegerField(required=False, min_value=0, label="Fire dice (batteries, forts)")
    facing = PlainFloatField(required=False, min_value=0, max_value=360, label="Facing (degrees, batteries)")

    field_order = ["kind", "q", "r", "x", "y", "side", "depth", "radius", "name", "guns", "dice", "facing"]

    def __init__(self, *args: Any, state: BattleState, terrain_kinds: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, state=state, **kwargs)
        self.fields["kind"].choices = [(k, k) for k in terrain_kinds] + [("clear", "clear (remove)")]
        self.fields["side"].choices = [("", "-")] + [(s.key, s.name) for s in state.sides]
        if self.hexes:
            self.fields["radius"].widget = forms.HiddenInput()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["position"] = self.position(required=True)
        return data

    def props(self) -> dict[str, JSON]:
        """Return the rule-set props given (depth, radius, name, guns, dice, facing), without empty ones."""
        out: dict[str, JSON] = {}
        for key in ("depth", "radius", "name", "guns", "dice", "facing"):
            value = self.cleaned_data.get(key)
            if value not in (None, ""):
                out[key] = value
        return out


def order_data_from_query(fields: tuple[FieldSpec, ...], query: QueryDict) -> dict[str, JSON]:
    """Return an order payload from query parameters named as the rule set's fields, typed by their specs.

    Text that is no plain number (``1_0`` and ``٣`` are not: navalwar.numbers) is kept as text, so the rule
    set's validation reports it ("Enter a number.").
    Absent fields are left out (the rule set's default order fills them in), but for a yes/no field
    (acw_river's ``astern``, sail_1700's ``tack`` and ``row``): absent, it is False, as the page's form sends
    an unchecked box (not at all). A hand-made URL without ``astern`` kept the default order's value, engines
    astern for a vessel going astern, while the form showed the box unchecked.
    """
    out: dict[str, JSON] = {}
    for spec in fields:
        if spec.type == "bool":
            out[spec.name] = query.get(spec.name) in ("on", "true", "1")
            continue
        raw = query.get(spec.name)
        if raw is None or raw == "":
            continue
        value: JSON = raw
        if spec.type == "int":
            value = plain_int(raw)
        elif spec.type == "float":
            value = plain_float(raw)
        out[spec.name] = raw if value is None else value  # plain ASCII numbers only (navalwar.numbers)
    return out
