"""The battle map: a standalone SVG of a battle at one phase, as one side sees it (A2), or the umpire.

Pure: no database, no request. :func:`render_map` takes a :class:`rules.model.BattleState` and returns an
``<svg>`` string; it calls the rule set's ``view_for`` itself, so a ship, mine or torpedo hidden from the
viewer is never drawn, and it draws only the events :func:`rules.base.event_visible` lets the viewer see.

Geometry (see :mod:`rules.geometry`):

- Table rule sets (``table_in``, ``table_mm``): x east, y south, in inches or millimetres, origin at the
  north-west corner of the table; headings in degrees clockwise from north.
- Hex rule sets (``hex6``, ``hex12``): flat-topped hexes in axial (q, r); the map is ``width`` columns by
  ``height`` rows in the "odd-q" offset layout.

The SVG's user units are pixels: the map is ``size`` pixels wide, plus a legend band at the bottom. Every ship
marker is a ``<g class="ship ...">`` with ``id``, ``data-ship``, ``data-side``, ``data-status``,
``data-flags`` and its map position (``data-x``/``data-y`` or ``data-q``/``data-r``), translated to its place
and carrying a hull (``class="hull"``) filled with its side's colour and turned to its heading. Tests and htmx
use these.

Arcs and gun ranges of the selected ship come from the rule set: :meth:`rules.base.RuleSet.arcs` returns
:class:`rules.arcs.ArcSpec` (label, start and end in degrees relative to the bow, clockwise, range and bands
in the map's unit). Nothing here knows a rule set's arcs: each lives in ``rules/rulesets/<key>/arcs.py``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

from rules.arcs import ArcSpec, default_arcs
from rules.base import event_visible
from rules.geometry import SQRT3, hex_bearing, hex_center, hex_distance, hexes_within, norm_deg, on_hex_map
from rules.model import JSON, BattleState, Event, Hex, MapSpec, Point, Position, ShipState, TerrainFeature
from rules.registry import get_ruleset

__all__ = [
    "ArcSpec",
    "Frame",
    "frame_for",
    "gun_arcs",
    "move_fields",
    "move_preview",
    "positions_of",
    "render_map",
    "ship_marker_xy",
    "visible_ships",
]

PAD = 26.0
"""Pixels around the map area: edge rulers, and room for ships on the edge."""
MIN_WIDTH = 560.0
"""The narrowest map drawn (a portrait river map is centred in it), so that the legend fits."""
LEGEND_ROW = 17.0
"""Pixels of a row of the legend under the map."""
CHAR_PX = 6.2
"""Rough width of a legend character at 11 px, for laying out the legend without measuring text."""
SCALE_CHAR_PX = 7.2
"""A generous width of a character of the scale bar's label (digits are 7 px at 11 px), to keep the bar
clear of it."""
DEFAULT_COLOUR = "#6b7785"
_COLOUR_RE = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$")
_ID_RE = re.compile(r"[^A-Za-z0-9_-]")

SEA = "#e8f2f8"
GRID = "#a9c0d3"
TERRAIN_FILL = {
    "land": "#e2d3a8",
    "shore": "#efe4bf",
    "island": "#e2d3a8",
    "town": "#d8c6a0",
    "fort": "#d9c9a0",
    "battery": "#e2d3a8",
}
SHOAL_FILLS = ("#9fcbe6", "#b3d6ec", "#c6e1f1", "#d6eaf5")
"""Shallower water darker, as on a chart: <= 2, <= 4, <= 8, deeper (fathoms)."""

STYLE = """
.nw-map{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.nw-map .sea{fill:#e8f2f8}
.nw-map .table-edge{fill:none;stroke:#0b2545;stroke-width:1.5}
.nw-map .grid{fill:none;stroke:#a9c0d3;stroke-width:.7}
.nw-map .foot{fill:none;stroke:#c6d6e3;stroke-width:.6;stroke-dasharray:2 4}
.nw-map .ruler{fill:#5b6b7c;font-size:9px}
.nw-map .ruler line{stroke:#5b6b7c;stroke-width:.8}
.nw-map .terrain{stroke:#8a7a4f;stroke-width:.8}
.nw-map .terrain.shoal{stroke:#6d9cbd;stroke-width:.5;stroke-dasharray:2 2}
.nw-map .depth{fill:#1c4f73;font-size:9px;font-style:italic;text-anchor:middle;dominant-baseline:central}
.nw-map .place{fill:#5a4a24;font-size:10px;font-style:italic;text-anchor:middle;paint-order:stroke;
stroke:#fff;stroke-width:2.5px;stroke-opacity:.6}
.nw-map .place.water{fill:#1c4f73}
.nw-map .work{stroke:#3d3320;stroke-width:1.1}
.nw-map .mine{fill:#16202c;stroke:#16202c}
.nw-map .mine circle.ring{fill:none;stroke-dasharray:1.5 1.5}
.nw-map .night{fill:#071426;opacity:.55}
.nw-map .trail{fill:none;stroke-width:2;stroke-dasharray:5 3;stroke-linecap:round;stroke-linejoin:round;
opacity:.75}
.nw-map .trail-dot{opacity:.6}
.nw-map .shot{stroke:#c2410c;stroke-width:1.4;fill:none;opacity:.85}
.nw-map .shot.miss{stroke-dasharray:3 3;opacity:.6}
.nw-map .shot.torpedo{stroke:#0f766e;stroke-dasharray:1 3;stroke-width:1.8;stroke-linecap:round}
.nw-map .burst{fill:#f59e0b;stroke:#b91c1c;stroke-width:1}
.nw-map .splash{fill:#fff;stroke:#5b8db8;stroke-width:1}
.nw-map .torp{fill:#0f766e}
.nw-map .torp-label{fill:#0f766e;font-size:9px}
.nw-map .hull{stroke:#0b1420;stroke-width:.8;stroke-linejoin:round}
.nw-map .deck{fill:#fff;opacity:.85}
.nw-map .label{font-size:10.5px;fill:#0b2545;text-anchor:middle;paint-order:stroke;stroke:#fff;
stroke-width:3px;stroke-linejoin:round}
.nw-map .night-on .label{fill:#fff;stroke:#0a1a33}
.nw-map .ship a{cursor:pointer}
.nw-map .ship.status-sunk .hull{opacity:.45;stroke-dasharray:2 1.5}
.nw-map .ship.status-sunk .label,.nw-map .ship.status-withdrawn .label{font-style:italic;fill:#5b6b7c}
.nw-map .ship.status-struck .hull,.nw-map .ship.status-captured .hull{opacity:.75}
.nw-map .ship.sinking .hull{opacity:.6}
.nw-map .wreck{stroke:#16202c;stroke-width:1.4;fill:none}
.nw-map .flame{fill:#f97316;stroke:#b91c1c;stroke-width:.6}
.nw-map .waves{fill:none;stroke:#1d6fa5;stroke-width:1.1}
.nw-map .badge rect{fill:#fff;stroke:#16202c;stroke-width:.7}
.nw-map .badge text{font-size:7.5px;font-weight:700;fill:#16202c;text-anchor:middle;dominant-baseline:central}
.nw-map .struck-flag{fill:#fff;stroke:#16202c;stroke-width:.7}
.nw-map .selected-ring{fill:none;stroke:#c9a227;stroke-width:2.2;stroke-dasharray:4 2}
.nw-map .arc{stroke-width:1}
.nw-map .band{fill:none;stroke-width:.7;stroke-dasharray:2 3;stroke-opacity:.6}
.nw-map .arc-label{font-size:9px;fill:#0b2545;paint-order:stroke;stroke:#fff;stroke-width:2.5px}
.nw-map .preview{fill:none;stroke:#c9a227;stroke-width:2.4;stroke-dasharray:6 3;stroke-linecap:round}
.nw-map .ghost{fill:none;stroke:#c9a227;stroke-width:1.4;stroke-dasharray:2 2}
.nw-map .compass circle{fill:#fff;fill-opacity:.85;stroke:#0b2545;stroke-width:.8}
.nw-map .compass text{font-size:9px;font-weight:700;fill:#0b2545;text-anchor:middle;dominant-baseline:central}
.nw-map .wind{stroke:#0b2545;stroke-width:2;fill:#0b2545}
.nw-map .legend{font-size:11px;fill:#16202c}
.nw-map .legend-bg{fill:#fff;stroke:#d6e0ea}
.nw-map .legend .muted{fill:#5b6b7c}
.nw-map .scalebar rect{stroke:#16202c;stroke-width:.8}
.nw-map .coords{fill:#6f8aa3;text-anchor:middle;dominant-baseline:central;pointer-events:none;opacity:.8}
.nw-map.night-on .coords{fill:#b9cadb}
.nw-map .cell{fill:transparent;stroke:none;cursor:crosshair}
.nw-map .cell:hover{fill:#c9a227;fill-opacity:.25}
"""


# --- projection ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Frame:
    """How map positions become SVG pixels.

    ``scale`` is pixels per map unit (inch, millimetre) on a table, or pixels per hex size (centre to
    corner) on a hex map. ``ox``, ``oy``: the pixel of map point (0, 0) (table) or of hex-size point (0, 0)
    (hex). ``left``, ``top``, ``map_w``, ``map_h``: the map area in pixels; ``width``/``height``: the SVG
    down to the legend.
    """

    geometry: str
    cols: float
    rows: float
    scale: float
    ox: float
    oy: float
    left: float
    top: float
    map_w: float
    map_h: float
    width: float
    height: float

    @property
    def hexes(self) -> bool:
        """Return True for hex maps."""
        return self.geometry.startswith("hex")

    @property
    def unit_px(self) -> float:
        """Return pixels per unit of range: one inch/millimetre, or one hex (centre to centre)."""
        return self.scale * SQRT3 if self.hexes else self.scale

    def xy(self, pos: Position) -> tuple[float, float]:
        """Return the pixel of a position (a table point, or the centre of a hex)."""
        if isinstance(pos, Hex):
            c = hex_center(pos)
            return self.ox + c.x * self.scale, self.oy + c.y * self.scale
        return self.ox + pos.x * self.scale, self.oy + pos.y * self.scale


def frame_for(spec: MapSpec, size: int = 900) -> Frame:
    """Return the projection of a map fitted into ``size`` x ``size`` pixels (map area plus padding).

    A landscape map is ``size`` pixels wide; a portrait one (a river) is ``size`` pixels high and at least
    :data:`MIN_WIDTH` wide, centred. ``height`` stops under the map: the legend goes below it.
    """
    size = max(200, int(size))
    inner = size - 2 * PAD
    gutter = PAD  # left of the map: room for the left ruler's labels on a table
    if spec.geometry.startswith("hex"):
        cols, rows = max(1, int(spec.width)), max(1, int(spec.height))
        world_w = 1.5 * cols + 0.5
        world_h = SQRT3 * (rows + (0.5 if cols > 1 else 0.0))
    else:
        cols = float(spec.width) if spec.width > 0 else 1.0  # type: ignore[assignment]
        rows = float(spec.height) if spec.height > 0 else 1.0  # type: ignore[assignment]
        world_w, world_h = float(cols), float(rows)
        gutter = max(PAD, ruler_label_room(f"{rows:g}"))
    scale = min((size - gutter - PAD) / world_w, inner / world_h)
    map_w, map_h = world_w * scale, world_h * scale
    width = max(map_w + gutter + PAD, min(MIN_WIDTH, size))
    left = gutter + (width - map_w - gutter - PAD) / 2
    if spec.geometry.startswith("hex"):
        ox, oy = left + scale, PAD + SQRT3 / 2 * scale
    else:
        ox, oy = left, PAD
    return Frame(
        geometry=spec.geometry,
        cols=cols,
        rows=rows,
        scale=scale,
        ox=ox,
        oy=oy,
        left=left,
        top=PAD,
        map_w=map_w,
        map_h=map_h,
        width=width,
        height=PAD * 2 + map_h,
    )


RULER_DIGIT_PX = 5.8
"""Width of a digit of the rulers' 9 px labels (DejaVu Sans: 0.636 em), rounded up."""
RULER_GAP = 6.0
"""Pixels between a ruler's label and the map's edge."""


def ruler_label_room(label: str) -> float:
    """Return the pixels a left-ruler label needs left of the map: its width, the gap and 3 px to spare
    (sail_1700's "1000" at 26 px lost its first digit to the SVG's edge)."""
    return RULER_DIGIT_PX * len(label) + RULER_GAP + 3.0


def _f(v: float) -> str:
    """Return a pixel coordinate with one decimal, without a trailing ``.0``."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _a(v: Any) -> str:
    """Return text escaped for an attribute or element body."""
    return _esc(v) if type(v) is str else escape(str(v), quote=True)


@lru_cache(maxsize=8192)
def _esc(v: str) -> str:
    # names, ids and keys come back render after render (replay, htmx swaps): escape each once
    return escape(v, quote=True)


@lru_cache(maxsize=4096)
def _safe_id(s: str) -> str:
    return _ID_RE.sub("_", s)


def _colour(c: str | None) -> str:
    return c if c and _COLOUR_RE.match(c) else DEFAULT_COLOUR


def _num(v: JSON | Any, default: float = 0.0) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                return default
        return default
    return float(v) if math.isfinite(v) else default


def _pos_of(d: Any) -> Position | None:
    """Return a position from ``{"q", "r"}``, ``{"x", "y"}``, ``[x, y]`` or a Position; None if it is none."""
    if isinstance(d, (Hex, Point)):
        return d
    if type(d) is dict or isinstance(d, Mapping):
        if "q" in d and "r" in d:
            try:
                return Hex(q=int(d["q"]), r=int(d["r"]))
            except (TypeError, ValueError):
                return None
        if "x" in d and "y" in d:
            x, y = _num(d["x"], math.nan), _num(d["y"], math.nan)
            return None if math.isnan(x) or math.isnan(y) else Point(x=x, y=y)
        return None
    if isinstance(d, (list, tuple)) and len(d) == 2:
        x, y = _num(d[0], math.nan), _num(d[1], math.nan)
        return None if math.isnan(x) or math.isnan(y) else Point(x=x, y=y)
    return None


def _pixels_of(fr: Frame, items: Sequence[Any]) -> list[tuple[float, float]]:
    """Return the pixels of JSON positions (``{"q", "r"}`` or ``{"x", "y"}``), skipping what is not one."""
    out = []
    sc, ox, oy = fr.scale, fr.ox, fr.oy
    for d in items:
        if type(d) is dict:
            q, r = d.get("q"), d.get("r")
            if type(q) is int and type(r) is int:
                out.append((ox + 1.5 * q * sc, oy + SQRT3 * (r + q / 2.0) * sc))
                continue
            x, y = d.get("x"), d.get("y")
            if type(x) in (int, float) and type(y) in (int, float):
                out.append((ox + x * sc, oy + y * sc))
                continue
        p = _pos_of(d)
        if p is not None:
            out.append(fr.xy(p))
    return out


def _rad_xy(cx: float, cy: float, bearing_deg: float, r: float) -> tuple[float, float]:
    """Return the pixel ``r`` pixels from (cx, cy) along a bearing (clockwise from north)."""
    a = math.radians(bearing_deg)
    return cx + r * math.sin(a), cy - r * math.cos(a)


# --- arcs and ranges -------------------------------------------------------------------------------------


def gun_arcs(state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return the arcs of fire and gun ranges of ``ship``: the rule set's :meth:`~rules.base.RuleSet.arcs`
    (each rule set's ``rules/rulesets/<key>/arcs.py``; A5's default arcs for a rule set without its own).
    Never raises for odd ship data: when the rule set's arcs fail, A5's default arcs are drawn."""
    rs = get_ruleset(state.ruleset)
    try:
        return list(rs.arcs(state, ship))
    except Exception:  # a rule set still being written, or odd ship data, must not break the map
        try:
            tables = rs.tables()
        except Exception:
            tables = {}
        return default_arcs(tables, state, ship)


# --- pieces of the drawing -------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _hex_grid_path(cols: int, rows: int, scale: float, ox: float, oy: float) -> str:
    """Return one path drawing every hex outline of the map (cached: the grid does not change)."""
    s = scale
    a = s / 2
    h = s * SQRT3 / 2
    rel = f"l{_f(-a)} {_f(h)}h{_f(-s)}l{_f(-a)} {_f(-h)}l{_f(a)} {_f(-h)}h{_f(s)}z"
    parts = []
    for col in range(cols):
        for row in range(rows):
            q = col
            r = row - (col - (col & 1)) // 2
            x = ox + 1.5 * q * s
            y = oy + SQRT3 * (r + q / 2.0) * s
            parts.append(f"M{_f(x + s)} {_f(y)}{rel}")
    return "".join(parts)


def _hex_cell(fr: Frame, h: Hex) -> str:
    """Return the path data of one hex."""
    x, y = fr.xy(h)
    s = fr.scale
    a, hh = s / 2, s * SQRT3 / 2
    return f"M{_f(x + s)} {_f(y)}l{_f(-a)} {_f(hh)}h{_f(-s)}l{_f(-a)} {_f(-hh)}l{_f(a)} {_f(-hh)}h{_f(s)}z"


def _nice(target: float, steps: Sequence[float]) -> float:
    for s in steps:
        if s >= target:
            return s
    return steps[-1]


def _sector(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    """Return the path of a pie sector from bearing a0 to a1 (clockwise) of radius r pixels."""
    sweep = a1 - a0
    if sweep >= 359.9:
        return (
            f"M{_f(cx - r)} {_f(cy)}a{_f(r)} {_f(r)} 0 1 1 {_f(2 * r)} 0a{_f(r)} {_f(r)} 0 1 1 "
            f"{_f(-2 * r)} 0z"
        )
    x0, y0 = _rad_xy(cx, cy, a0, r)
    x1, y1 = _rad_xy(cx, cy, a1, r)
    large = 1 if sweep > 180 else 0
    return f"M{_f(cx)} {_f(cy)}L{_f(x0)} {_f(y0)}A{_f(r)} {_f(r)} 0 {large} 1 {_f(x1)} {_f(y1)}z"


def _arc_line(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    x0, y0 = _rad_xy(cx, cy, a0, r)
    x1, y1 = _rad_xy(cx, cy, a1, r)
    large = 1 if a1 - a0 > 180 else 0
    return f"M{_f(x0)} {_f(y0)}A{_f(r)} {_f(r)} 0 {large} 1 {_f(x1)} {_f(y1)}"


_SHIP_TYPE_SCALE = {
    "battleship": 1.0,
    "battlecruiser": 1.0,
    "pre_dreadnought": 0.95,
    "capital": 1.0,
    "carrier": 1.05,
    "heavy_cruiser": 0.88,
    "cruiser": 0.85,
    "light_cruiser": 0.8,
    "armoured_cruiser": 0.88,
    "protected_cruiser": 0.8,
    "destroyer": 0.65,
    "torpedo_boat": 0.55,
    "gunboat": 0.6,
    "monitor": 0.7,
    "ironclad": 0.75,
    "ram": 0.7,
    "1st": 1.0,
    "2nd": 0.97,
    "3rd": 0.93,
    "4th": 0.88,
    "5th": 0.84,
    "6th": 0.8,
    "unrated": 0.7,
    "frigate": 0.86,
    "sloop": 0.72,
    "brig": 0.7,
}


def _type_scale(ship: ShipState) -> float:
    for key in ("type", "rate"):
        v = ship.stats.get(key)
        if isinstance(v, str):
            k = v.strip().lower().replace(" ", "_").replace("-", "_")
            for cand in (k, k.split("_")[-1]):
                if cand in _SHIP_TYPE_SCALE:
                    return _SHIP_TYPE_SCALE[cand]
    return 0.9


def _hull_id(ctx: _Ctx, length: float) -> str:
    """Return the id of the hull symbol of this length, defining it on first use (one per ship type)."""
    key = round(length, 1)
    hid = ctx.hulls.get(key)
    if hid is None:
        hid = f"{ctx.pid}-hull-{len(ctx.hulls)}"
        ctx.hulls[key] = hid
        beam = key * 0.26
        ctx.defs.append(
            f'<g id="{hid}"><path d="{_hull_path(key, beam)}"/><circle class="deck" '
            f'cy="{_f(-key * 0.18)}" r="{_f(beam * 0.22)}"/></g>'
        )
    return hid


def _hull_path(length: float, beam: float) -> str:
    """Return a hull outline pointing north, centred on (0, 0): a fine bow, straight sides, a round stern."""
    h = length / 2
    w = beam / 2
    return (
        f"M0 {_f(-h)}C{_f(w * 0.9)} {_f(-h * 0.55)} {_f(w)} {_f(-h * 0.2)} {_f(w)} {_f(h * 0.35)}"
        f"L{_f(w * 0.8)} {_f(h * 0.92)}Q0 {_f(h * 1.04)} {_f(-w * 0.8)} {_f(h * 0.92)}"
        f"L{_f(-w)} {_f(h * 0.35)}C{_f(-w)} {_f(-h * 0.2)} {_f(-w * 0.9)} {_f(-h * 0.55)} 0 {_f(-h)}z"
    )


def _compass_name(deg: float) -> str:
    names = (
        "N",
        "NNE",
        "NE",
        "ENE",
        "E",
        "ESE",
        "SE",
        "SSE",
        "S",
        "SSW",
        "SW",
        "WSW",
        "W",
        "WNW",
        "NW",
        "NNW",
    )
    return names[int((norm_deg(deg) + 11.25) // 22.5) % 16]


@dataclass(slots=True)
class _Ctx:
    fr: Frame
    state: BattleState
    viewer: str | None
    colours: dict[str, str]
    names: dict[str, str]
    px: dict[str, tuple[float, float]]
    ship_names: dict[str, str]
    ship_len: float
    pid: str
    lengths: dict[str, float] = field(default_factory=dict)
    hulls: dict[float, str] = field(default_factory=dict)
    defs: list[str] = field(default_factory=list)


def _ship_pixels(fr: Frame, ships: Sequence[ShipState]) -> dict[str, tuple[float, float]]:
    """Return each drawn ship's pixel; ships sharing a position are fanned out around it."""
    groups: dict[tuple[float, float], list[ShipState]] = {}
    for s in ships:
        groups.setdefault(fr.xy(s.position), []).append(s)
    out: dict[str, tuple[float, float]] = {}
    spread = (fr.scale * 0.42) if fr.hexes else 7.0
    for (x, y), group in groups.items():
        if len(group) == 1:
            out[group[0].id] = (x, y)
            continue
        for i, s in enumerate(group):
            a = 2 * math.pi * i / len(group)
            out[s.id] = (x + spread * math.sin(a), y - spread * math.cos(a))
    return out


def ship_marker_xy(
    state: BattleState, ship_id: str, *, viewer_side: str | None, size: int = 900
) -> tuple[float, float]:
    """Return the pixel where :func:`render_map` draws a ship (tests, and the set-up editor's drag handles).

    Raise KeyError when the viewer cannot see the ship.
    """
    view = get_ruleset(state.ruleset).view_for(state, viewer_side)
    fr = frame_for(view.map, size)
    return _ship_pixels(fr, [s for s in view.ships if s.status != "withdrawn"])[ship_id]


def _terrain(ctx: _Ctx, terrain: Sequence[TerrainFeature], out: list[str]) -> None:
    """Draw the terrain the viewer may see (``view_for`` already dropped the rest): hex terrain as filled
    hexes, one path per kind; table terrain as polygons (``props.polygon``) or circles (``props.radius``),
    largest first so that an island shows on its shoal; shoal depths in fathoms (a depth of 0 is dry), names,
    batteries (a square, its guns' facing), forts (a star) and mines (the chart's spiked ball)."""
    fr = ctx.fr
    if not terrain:
        return
    out.append('<g class="terrain-layer">')
    by_kind: dict[str, list[str]] = {}
    shapes: list[tuple[float, str]] = []
    marks: list[str] = []
    texts: list[str] = []
    named: list[tuple[float, float]] = []
    for t in terrain:
        kind = t.kind
        props = t.props if isinstance(t.props, Mapping) else {}
        pos = t.position
        cls = _a(_safe_id(kind))
        data = f' data-kind="{cls}"'
        if isinstance(pos, Hex):
            data += f' data-q="{pos.q}" data-r="{pos.r}"'
        elif isinstance(pos, Point):
            data += f' data-x="{pos.x:g}" data-y="{pos.y:g}"'
        if t.visible_to is not None:
            data += f' data-visible-to="{_a(" ".join(t.visible_to))}"'
        x, y = fr.xy(pos)
        poly = props.get("polygon")
        radius = _num(props.get("radius"), 0.0)
        name = props.get("name")
        if kind == "mine":
            r = max(3.0, min(fr.scale * 0.28 if fr.hexes else 6.0, 9.0))
            spikes = "".join(
                f"M{_f(x + r * math.cos(k * math.pi / 4))} {_f(y + r * math.sin(k * math.pi / 4))}"
                f"L{_f(x + r * 1.5 * math.cos(k * math.pi / 4))} "
                f"{_f(y + r * 1.5 * math.sin(k * math.pi / 4))}"
                for k in range(8)
            )
            side = str(props.get("side") or (t.visible_to[0] if t.visible_to else ""))
            surfaced = bool(props.get("surfaced"))
            what = "Mine washed to the surface" if surfaced else "Mine"
            flag = ' data-surfaced="1"' if surfaced else ""
            marks.append(
                f'<g class="terrain mine"{data} data-side="{_a(side)}"{flag}><title>{what} (laid by '
                f"{_a(ctx.names.get(side, side) or 'unknown')})</title>"
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"/><path d="{spikes}" '
                f'stroke-width="1.2"/></g>'
            )
            continue
        depth = _num(props.get("depth"), math.nan)
        if kind == "shoal" and depth <= 0:
            fill = TERRAIN_FILL["land"]  # dry at any tide: an island
        elif kind == "shoal":
            fill = SHOAL_FILLS[0 if depth <= 2 else 1 if depth <= 4 else 2 if depth <= 8 else 3]
        else:
            fill = TERRAIN_FILL.get(kind, "#e2d3a8")
        shape, area = "", 0.0
        if isinstance(poly, list) and len(poly) >= 3:
            pts = [_pos_of(p) for p in poly]
            if all(isinstance(p, Point) for p in pts):
                xy = [fr.xy(p) for p in pts if p is not None]
                shape = "M" + "L".join(f"{_f(px)} {_f(py)}" for px, py in xy) + "z"
                area = abs(sum(xy[i - 1][0] * xy[i][1] - xy[i][0] * xy[i - 1][1] for i in range(len(xy)))) / 2
        elif isinstance(pos, Hex) and kind not in ("battery", "fort"):
            by_kind.setdefault(f"{kind}|{fill}", []).append(_hex_cell(fr, pos))
        elif radius > 0 and isinstance(pos, Point):
            r = radius * fr.scale
            shape = (
                f"M{_f(x - r)} {_f(y)}a{_f(r)} {_f(r)} 0 1 0 {_f(2 * r)} 0"
                f"a{_f(r)} {_f(r)} 0 1 0 {_f(-2 * r)} 0z"
            )
            area = math.pi * r * r
        if shape:
            title = f"<title>{_a(name)}</title>" if name else ""
            shapes.append(
                (area, f'<path class="terrain {cls}"{data} fill="{fill}" d="{shape}">{title}</path>')
            )
        if kind == "shoal" and not math.isnan(depth) and depth > 0:
            texts.append(f'<text class="depth" x="{_f(x)}" y="{_f(y)}">{depth:g}</text>')
        if name and not isinstance(pos, Hex) and kind not in ("battery", "fort"):
            dy = 11 if kind == "shoal" and depth > 0 else 0
            while any(abs(x - px) < 40 and abs(y + dy - py) < 10 for px, py in named):
                dy += 11  # two names at one place (an island on its shoal): one under the other
            named.append((x, y + dy))
            texts.append(
                f'<text class="place{" water" if kind == "shoal" and depth > 0 else ""}" '
                f'x="{_f(x)}" y="{_f(y + dy)}">{_a(name)}</text>'
            )
        if kind in ("battery", "fort"):
            if isinstance(pos, Hex):
                by_kind.setdefault(f"land|{TERRAIN_FILL['land']}", []).append(_hex_cell(fr, pos))
            side = str(props.get("side", ""))
            colour = ctx.colours.get(side, "#3d3320")
            k = max(5.0, min(fr.scale * 0.45 if fr.hexes else 8.0, 11.0))
            label = str(name or props.get("id", kind))
            facts = [f"{kind.capitalize()}: {label}"]
            if side:
                facts.append(ctx.names.get(side, side))
            for key, what in (
                ("guns", "guns"),
                ("dice", "dice"),
                ("resistance", "resistance"),
                ("points", "points"),
            ):
                if key in props:
                    facts.append(f"{_num(props.get(key)):g} {what}")
            silenced = bool(props.get("lost") or props.get("silenced")) or (
                "resistance" in props and _num(props.get("resistance"), 1) <= 0
            )
            if silenced:
                facts.append("silenced")
            title = f"<title>{_a(', '.join(facts))}</title>"
            cross = (
                f'<path class="work" d="M{_f(x - k)} {_f(y - k)}L{_f(x + k)} {_f(y + k)}M{_f(x + k)} '
                f'{_f(y - k)}L{_f(x - k)} {_f(y + k)}" stroke-width="1.6"/>'
                if silenced
                else ""
            )
            sdata = f'{data} data-side="{_a(side)}"' + (' data-silenced="1"' if silenced else "")
            if kind == "fort":
                radii = [k if i % 2 == 0 else k * 0.5 for i in range(10)]
                star = (
                    "M"
                    + "L".join(
                        f"{_f(x + rr * math.sin(i * math.pi / 5))} {_f(y - rr * math.cos(i * math.pi / 5))}"
                        for i, rr in enumerate(radii)
                    )
                    + "z"
                )
                marks.append(
                    f'<g class="terrain fort"{sdata}>{title}<path class="work" fill="{colour}" '
                    f'd="{star}"/>{cross}</g>'
                )
            else:
                facing = _num(props.get("facing"), math.nan)
                gun = ""
                if not math.isnan(facing):
                    gx, gy = _rad_xy(x, y, facing, k * 1.5)
                    gun = f'<path class="work" d="M{_f(x)} {_f(y)}L{_f(gx)} {_f(gy)}" stroke-width="2"/>'
                marks.append(
                    f'<g class="terrain battery"{sdata}>{title}{gun}<rect class="work" '
                    f'fill="{colour}" x="{_f(x - k / 1.4)}" y="{_f(y - k / 1.4)}" '
                    f'width="{_f(k * 1.42)}" height="{_f(k * 1.42)}"/>{cross}</g>'
                )
    for key, cells in by_kind.items():
        kind, fill = key.split("|", 1)
        out.append(f'<path class="terrain {_a(_safe_id(kind))}" fill="{fill}" d="{"".join(cells)}"/>')
    out.extend(shape for _, shape in sorted(shapes, key=lambda a: -a[0]))
    out.extend(marks)
    out.extend(texts)
    out.append("</g>")


def _rulers(fr: Frame, unit: str, out: list[str]) -> None:
    """Edge rulers and a faint grid: every foot on an inch table, every 200 mm on a millimetre table."""
    step = _nice(
        fr.cols / 8,
        (1, 2, 3, 6, 12, 24, 36, 48) if unit == "in" else (10, 20, 50, 100, 200, 250, 500, 1000, 2000),
    )
    lines = []
    ticks = []
    n = int(fr.cols // step)
    for i in range(0, n + 1):
        x = fr.ox + i * step * fr.scale
        if 0 < i * step < fr.cols:
            lines.append(f"M{_f(x)} {_f(fr.oy)}V{_f(fr.oy + fr.map_h)}")
        ticks.append(
            f'<line x1="{_f(x)}" y1="{_f(fr.oy - 4)}" x2="{_f(x)}" y2="{_f(fr.oy)}"/>'
            f'<text x="{_f(x)}" y="{_f(fr.oy - 7)}" text-anchor="middle">{i * step:g}</text>'
        )
    m = int(fr.rows // step)
    for j in range(0, m + 1):
        y = fr.oy + j * step * fr.scale
        if 0 < j * step < fr.rows:
            lines.append(f"M{_f(fr.ox)} {_f(y)}H{_f(fr.ox + fr.map_w)}")
        if j:
            ticks.append(
                f'<line x1="{_f(fr.ox - 4)}" y1="{_f(y)}" x2="{_f(fr.ox)}" y2="{_f(y)}"/>'
                f'<text x="{_f(fr.ox - RULER_GAP)}" y="{_f(y + 3)}" text-anchor="end">{j * step:g}</text>'
            )
    if lines:
        out.append(f'<path class="foot" d="{"".join(lines)}"/>')
    out.append(f'<g class="ruler">{"".join(ticks)}</g>')


def _trails(ctx: _Ctx, events: Sequence[Event], previous: BattleState | None, out: list[str]) -> None:
    fr = ctx.fr
    shown = ctx.px
    ships = {s.id: s for s in ctx.state.ships}
    prev = {s.id: s for s in previous.ships} if previous is not None else {}
    drawn: set[str] = set()
    parts: list[str] = []
    for e in events:
        if e.kind != "move" or not e.ship_id or e.ship_id not in shown:
            continue
        path = e.data.get("path") if isinstance(e.data, Mapping) else None
        xy = _pixels_of(fr, path) if isinstance(path, list) else []
        if len(xy) < 2:
            continue
        colour = ctx.colours.get(ships[e.ship_id].side, DEFAULT_COLOUR)
        d = "M" + "L".join(f"{_f(x)} {_f(y)}" for x, y in xy)
        parts.append(f'<path class="trail" data-ship="{_a(e.ship_id)}" stroke="{colour}" d="{d}"/>')
        if fr.hexes:
            parts.extend(
                f'<circle class="trail-dot" cx="{_f(x)}" cy="{_f(y)}" r="2.2" fill="{colour}"/>'
                for x, y in xy[:-1]
            )
        drawn.add(e.ship_id)
    # A rule set that gave no path: a straight line from where the ship was to where it is.
    for sid, old in prev.items():
        if sid in drawn or sid not in shown or sid not in ships:
            continue
        if old.position == ships[sid].position:
            continue
        x0, y0 = fr.xy(old.position)
        x1, y1 = fr.xy(ships[sid].position)
        colour = ctx.colours.get(ships[sid].side, DEFAULT_COLOUR)
        parts.append(
            f'<path class="trail" data-ship="{_a(sid)}" stroke="{colour}" '
            f'd="M{_f(x0)} {_f(y0)}L{_f(x1)} {_f(y1)}"/>'
        )
    if parts:
        out.append(f'<g class="trails" clip-path="url(#{ctx.pid}-clip)">' + "".join(parts) + "</g>")


def _hits_of(e: Event) -> float:
    d = e.data if isinstance(e.data, Mapping) else {}
    for key in ("hits", "points"):
        if key in d:
            return _num(d.get(key))
    return 1.0 if e.outcome == "hit" else 0.0


def _burst(x: float, y: float, r: float) -> str:
    pts = []
    for i in range(16):
        rr = r if i % 2 == 0 else r * 0.45
        a = i * math.pi / 8
        pts.append(f"{_f(x + rr * math.sin(a))} {_f(y - rr * math.cos(a))}")
    return "M" + "L".join(pts) + "z"


def _fire(ctx: _Ctx, events: Sequence[Event], out: list[str]) -> None:
    """Gunfire lines firer -> target and where hits landed; torpedo tracks. Only known positions are used."""
    fr = ctx.fr
    batteries: dict[str, tuple[float, float]] = {}
    for t in ctx.state.terrain:
        if t.kind in ("battery", "fort"):
            bid = t.props.get("id") if isinstance(t.props, Mapping) else None
            if bid is not None:
                batteries[str(bid)] = fr.xy(t.position)
    agg: dict[tuple[str, str, str], list[Any]] = {}
    for e in events:
        k = e.kind
        if k not in ("fire", "torpedo", "torpedo_hit", "mortar"):
            continue
        weapon = (
            "torpedo"
            if k.startswith("torpedo") or (isinstance(e.data, Mapping) and e.data.get("weapon") == "torpedo")
            else "gun"
        )
        src: tuple[float, float] | None = None
        # a firer the viewer cannot see is neither drawn nor named (A2): its shots arrive from nowhere
        src_key = ""
        if e.ship_id and e.ship_id in ctx.px:
            src_key = e.ship_id
            src = ctx.px[e.ship_id]
        elif isinstance(e.data, Mapping) and str(e.data.get("battery", "")) in batteries and not e.ship_id:
            src_key = "battery:" + str(e.data.get("battery"))
            src = batteries[str(e.data.get("battery"))]
        # sail_1700's data["at"]: the point of her track she fired from (a ship fires during her move, 11.),
        # so the line starts there, not at where she ended the move; it ends at the target
        at = _pos_of(e.data.get("at")) if isinstance(e.data, Mapping) else None
        if src is not None and at is not None and isinstance(at, Point) and not fr.hexes:
            src = fr.xy(at)
        dst: tuple[float, float] | None = None
        if e.target_id and e.target_id in ctx.px:
            dst = ctx.px[e.target_id]
        if dst is None and src is None:
            continue
        key = (src_key, e.target_id if dst is not None and e.target_id else "", weapon)
        slot = agg.setdefault(key, [src, dst, 0.0, 0, k])
        if k == "torpedo_hit":
            slot[2] = max(slot[2], _hits_of(e))
        else:
            slot[2] += _hits_of(e)
            slot[3] += 1
    if not agg:
        return
    lines: list[str] = []
    marks: list[str] = []
    r = max(5.0, min(fr.scale * 0.35 if fr.hexes else 7.0, 10.0))
    burst_defined = False
    for (src_key, target, weapon), (src, dst, hits, _n, _k) in agg.items():
        cls = "shot torpedo" if weapon == "torpedo" else "shot"
        if not hits:
            cls += " miss"
        data = f' data-firer="{_a(src_key)}" data-target="{_a(target)}" data-hits="{hits:g}"'
        if src is not None and dst is not None:
            # stop short of the target so the burst stays readable
            dx, dy = dst[0] - src[0], dst[1] - src[1]
            dist = math.hypot(dx, dy) or 1.0
            ex, ey = dst[0] - dx / dist * r * 0.6, dst[1] - dy / dist * r * 0.6
            lines.append(
                f'<path class="{cls}"{data} d="M{_f(src[0])} {_f(src[1])}L{_f(ex)} {_f(ey)}" '
                f'marker-end="url(#{ctx.pid}-arrow)"/>'
            )
        if dst is not None:
            if hits:
                if not burst_defined:
                    ctx.defs.append(f'<path id="{ctx.pid}-burst" d="{_burst(0, 0, r)}"/>')
                    burst_defined = True
                marks.append(
                    f'<use class="burst"{data} href="#{ctx.pid}-burst" x="{_f(dst[0] + r * 0.3)}" '
                    f'y="{_f(dst[1] - r * 0.3)}"><title>{hits:g} hit(s)</title></use>'
                )
            else:
                marks.append(
                    f'<g class="splash"{data}><circle cx="{_f(dst[0] - r * 0.5)}" '
                    f'cy="{_f(dst[1] + r * 0.4)}"'
                    f' r="{_f(r * 0.3)}"/><circle cx="{_f(dst[0] + r * 0.6)}" '
                    f'cy="{_f(dst[1] - r * 0.2)}" '
                    f'r="{_f(r * 0.22)}"/></g>'
                )
    out.append('<g class="gunfire">' + "".join(lines) + "".join(marks) + "</g>")


def _torpedoes(ctx: _Ctx, out: list[str]) -> None:
    """Torpedoes in the water the viewer may see (view_for removed the others)."""
    fr = ctx.fr
    parts = []
    for p in ctx.state.pending:
        if "torpedo" not in p.kind:
            continue
        d = p.data if isinstance(p.data, Mapping) else {}
        pos = _pos_of(d.get("position")) or _pos_of(d)
        firer = str(d.get("firer", ""))
        target = str(d.get("target", p.ship_id or ""))
        src = ctx.px.get(firer)
        dst = ctx.px.get(target)
        if pos is not None:
            x, y = fr.xy(pos)
        elif src is not None and dst is not None:
            x, y = (src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2
        elif src is not None:
            x, y = src[0] + 12, src[1] + 12
        else:
            continue
        bearing_deg = math.degrees(math.atan2(dst[0] - x, -(dst[1] - y))) if dst is not None else 0.0
        track = ""
        if src is not None:
            track = f'<path class="shot torpedo" d="M{_f(src[0])} {_f(src[1])}L{_f(x)} {_f(y)}"/>'
        due = f", due turn {p.due_turn}" if p.due_turn is not None else ""
        n = d.get("number")
        label = f"{int(_num(n))} torpedo(es)" if n is not None else "torpedoes"
        parts.append(
            f'<g class="torpedo" data-pending="{_a(p.id)}" data-target="{_a(target if dst else "")}">'
            f"<title>{_a(label)} from {_a(ctx.ship_names.get(firer, 'your ship'))}"
            f"{_a(due)}</title>{track}"
            f'<g transform="translate({_f(x)} {_f(y)}) rotate({bearing_deg:.0f})">'
            f'<path class="torp" d="M0 -7L2 -4V6L0 8L-2 6V-4z"/></g>'
            f'<text class="torp-label" x="{_f(x + 6)}" '
            f'y="{_f(y - 6)}">{_a(due.lstrip(", ") or "torpedoes")}</text>'
            f"</g>"
        )
    if parts:
        out.append('<g class="torpedoes">' + "".join(parts) + "</g>")


LABEL_CHAR_PX = 5.9
"""Rough width of a label character at 10.5 px, for placing labels without measuring text."""


def _place_labels(
    ctx: _Ctx, ships: Sequence[ShipState], selected: str | None
) -> dict[str, tuple[float, float, str] | None]:
    """Return each ship's label offset and anchor, or None to leave it off (its name stays in the tooltip).

    Greedy, as a cartographer would: the selected ship, then the viewer's, then the others; each label tries
    below, above, right and left of its marker and takes the first place clear of markers and earlier
    labels. On a crowded map a label with no clear place is left off; with few ships it goes below anyway.
    """
    cell = 64.0
    boxes: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def add(b: tuple[float, float, float, float]) -> None:
        for i in range(int(b[0] // cell), int(b[2] // cell) + 1):
            for j in range(int(b[1] // cell), int(b[3] // cell) + 1):
                boxes.setdefault((i, j), []).append(b)

    def free(b: tuple[float, float, float, float]) -> bool:
        for i in range(int(b[0] // cell), int(b[2] // cell) + 1):
            for j in range(int(b[1] // cell), int(b[3] // cell) + 1):
                for o in boxes.get((i, j), ()):
                    if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                        return False
        return True

    lengths = ctx.lengths
    for s in ships:
        x, y = ctx.px[s.id]
        r = lengths[s.id] * 0.42
        add((x - r, y - r, x + r, y + r))
    crowded = len(ships) > 12
    order = sorted(
        ships,
        key=lambda s: (s.id != selected, not (ctx.viewer is None or s.side == ctx.viewer), not s.active),
    )
    out: dict[str, tuple[float, float, str] | None] = {}
    for s in order:
        x, y = ctx.px[s.id]
        half = lengths[s.id] * 0.5
        w = LABEL_CHAR_PX * len(s.name) + 8
        options = (
            (0.0, half + 10, "middle"),
            (0.0, -half - 4, "middle"),
            (half * 0.6 + 4, 4.0, "start"),
            (-half * 0.6 - 4, 4.0, "end"),
        )
        chosen = None
        for dx, dy, anchor in options:
            left = x + dx - (w / 2 if anchor == "middle" else 0 if anchor == "start" else w)
            b = (left, y + dy - 10, left + w, y + dy + 2)
            if free(b):
                chosen = (dx, dy, anchor)
                add(b)
                break
        if chosen is None and (not crowded or s.id == selected):
            chosen = options[0]
        out[s.id] = chosen
    return out


FLAG_TEXT = {
    "on_fire": "on fire",
    "dead_in_water": "dead in the water",
    "sinking": "sinking",
    "aground": "aground",
    "dismasted": "dismasted",
    "struck": "struck",
    "illuminated": "illuminated",
    "searchlight": "searchlight on",
    "listing": "listing",
    "fired": "fired this turn",
    "breaking_off": "breaking off",
    "jury_mast": "jury mast",
    "anchored": "anchored",
    "abandoned": "abandoned",
    "boarding": "boarding",
    "entangled": "entangled",
}


def _ship(
    ctx: _Ctx,
    s: ShipState,
    link: Callable[[ShipState], str] | None,
    link_attrs: str,
    selected: str | None,
    label: tuple[float, float, str] | None,
    out: list[str],
) -> None:
    x, y = ctx.px[s.id]
    colour = ctx.colours.get(s.side, DEFAULT_COLOUR)
    flags = set(s.flags)
    if s.status == "struck":
        flags.add("struck")
    if s.status == "sunk":
        flags.discard("sinking")
    fl = sorted(flags) if flags else []
    state_cls = " ".join(_safe_id(f) for f in fl)
    pos = s.position
    where = (
        f' data-q="{pos.q}" data-r="{pos.r}"'
        if isinstance(pos, Hex)
        else f' data-x="{pos.x:g}" data-y="{pos.y:g}"'
    )
    own = ctx.viewer is None or s.side == ctx.viewer
    cls = f"ship side-{_safe_id(s.side)} status-{_safe_id(s.status)} {'own' if own else 'enemy'}"
    if state_cls:
        cls += " " + state_cls
    if s.id == selected:
        cls += " selected"
    length = ctx.lengths[s.id]
    side_name = ctx.names.get(s.side, s.side)
    states = [FLAG_TEXT.get(f, f.replace("_", " ")) for f in fl]
    if s.status not in ("active", "struck"):
        states.insert(0, s.status)
    title = (
        f"{s.name}{' (' + s.class_name + ')' if s.class_name else ''}, {side_name}: heading {s.heading:g}°"
    )
    if states:
        title += ", " + ", ".join(states)
    out.append(
        f'<g class="{cls}" id="{ctx.pid}-ship-{_safe_id(s.id)}" data-ship="{_a(s.id)}" '
        f'data-side="{_a(s.side)}" data-status="{_a(s.status)}" '
        f'data-flags="{_a(" ".join(fl))}" '
        f'data-heading="{s.heading:g}"{where} transform="translate({_f(x)} {_f(y)})">'
    )
    out.append(f"<title>{_a(title)}</title>")
    if link is not None:
        href = _a(link(s))
        hx = f' hx-get="{href}"' if link_attrs else ""
        out.append(f'<a href="{href}"{hx}{link_attrs} aria-label="{_a(s.name)}">')
    if s.id == selected:
        out.append(f'<circle class="selected-ring" r="{_f(length * 0.72)}"/>')
    if s.status == "sunk":
        # the chart symbol for a wreck: a keel line crossed by three masts
        w = length * 0.45
        out.append(
            f'<path class="wreck" d="M{_f(-w)} 0H{_f(w)}M{_f(-w * 0.5)} -4V4M0 -5V5M{_f(w * 0.5)} -4V4"/>'
        )
    tilt = " rotate(12)" if "sinking" in flags else ""
    out.append(
        f'<use class="hull" href="#{_hull_id(ctx, length)}" fill="{colour}" '
        f'transform="rotate({s.heading:g}){tilt}"/>'
    )
    gx, gy = length * 0.42, -length * 0.36
    if "on_fire" in flags:
        out.append(
            f'<path class="flame" d="M{_f(gx)} {_f(gy + 5)}c-4 0-5-4-2-7c0 2 1 3 2 3c0-3 1-5 '
            f"3-6c-1 3 2 4 2 "
            f'7c0 2-2 3-5 3z"/>'
        )
    if "struck" in flags or s.status == "captured":
        fx, fy = -length * 0.45, -length * 0.45
        out.append(f'<path class="struck-flag" d="M{_f(fx)} {_f(fy + 9)}V{_f(fy)}h7v4.5h-7"/>')
    if "sinking" in flags:
        w = length * 0.4
        out.append(
            f'<path class="waves" d="M{_f(-w)} {_f(length * 0.32)}q{_f(w / 4)} -3 {_f(w / 2)} '
            f"0t{_f(w / 2)} 0"
            f't{_f(w / 2)} 0t{_f(w / 2)} 0"/>'
        )
    if "dead_in_water" in flags or "aground" in flags:
        txt = "DIW" if "dead_in_water" in flags else "AGR"
        bx, by = length * 0.48, length * 0.2
        out.append(
            f'<g class="badge"><rect x="{_f(bx - 8)}" y="{_f(by - 5)}" width="16" height="10" rx="2"/>'
            f'<text x="{_f(bx)}" y="{_f(by)}">{txt}</text></g>'
        )
    if label is not None:
        dx, dy, anchor = label
        style = "" if anchor == "middle" else f' text-anchor="{anchor}"'
        out.append(f'<text class="label" x="{_f(dx)}" y="{_f(dy)}"{style}>{_a(s.name)}</text>')
    if link is not None:
        out.append("</a>")
    out.append("</g>")


def _arc_opacity(a: ArcSpec, band: int) -> float:
    """Return the fill opacity of a hex in ``band`` of arc ``a``: the nearer, the darker (more likely to hit);
    the broadside a little lighter than the end arcs, so that the arcs part where they meet."""
    n = len(a.bands)
    base = 0.3 - 0.2 * band / n if n else 0.24
    return round(base * (0.7 if a.label.split(" ")[0] in ("starboard", "port", "abeam") else 1.0), 3)


def _arcs(ctx: _Ctx, ship: ShipState, out: list[str]) -> None:
    """Draw the arcs of fire and gun ranges of ``ship``: on a hex map the hexes themselves, shaded by range
    band (range counts hex steps and bearings run centre to centre, A5); on a table, sectors with band
    rings."""
    arcs = gun_arcs(ctx.state, ship)
    if not any(a.range > 0 for a in arcs):
        return
    fr = ctx.fr
    cx, cy = ctx.px[ship.id]
    colour = ctx.colours.get(ship.side, DEFAULT_COLOUR)
    unit = "hexes" if fr.hexes else ("mm" if fr.geometry == "table_mm" else "in")
    parts = [f'<g class="arcs" data-ship="{_a(ship.id)}" clip-path="url(#{ctx.pid}-clip)">']
    labels = []
    if fr.hexes and isinstance(ship.position, Hex):
        here = ship.position
        reach = int(max(a.range for a in arcs))
        cells: dict[tuple[int, int], list[str]] = {}
        for h in hexes_within(here, reach):
            if h == here or not on_hex_map(h, fr.cols, fr.rows):
                continue
            rel = norm_deg(hex_bearing(here, h) - ship.heading)
            d = hex_distance(here, h)
            for i, a in enumerate(arcs):
                if a.start - 1e-6 <= rel <= a.end + 1e-6 or a.start - 1e-6 <= rel + 360 <= a.end + 1e-6:
                    # the first arc holding the bearing owns the hex, in range or not: a hex on memoir_sea's
                    # 60-degree line is abeam (M04), never ahead at a longer range than abeam
                    if d <= a.range + 1e-9:
                        band = sum(1 for b in a.bands if b < d)
                        cells.setdefault((i, band), []).append(_hex_cell(fr, h))
                    break
        for (i, band), paths in sorted(cells.items()):
            a = arcs[i]
            parts.append(
                f'<path class="arc" data-arc="{_a(a.label)}" data-band="{band}" '
                f'data-range="{a.range:g}" '
                f'fill="{colour}" fill-opacity="{_arc_opacity(a, band)}" stroke="none" '
                f'd="{"".join(paths)}"><title>{_a(a.label)}: {a.range:g} {unit}</title></path>'
            )
    else:
        for a in arcs:
            if a.range <= 0:  # an arc where no gun bears (ArcSpec): nothing to draw on a table
                continue
            a0, a1 = ship.heading + a.start, ship.heading + a.end
            radii = [*a.bands, a.range]
            for band, rr in enumerate(radii):
                parts.append(
                    f'<path class="arc" data-arc="{_a(a.label)}" data-band="{band}" '
                    f'data-range="{a.range:g}" fill="{colour}" fill-opacity="0.07" '
                    f'stroke="{colour}" stroke-opacity="{0.5 if band == len(radii) - 1 else 0.2}" '
                    f'd="{_sector(cx, cy, rr * fr.unit_px, a0, a1)}"><title>{_a(a.label)}: '
                    f"{rr:g} {unit}"
                    f"</title></path>"
                )
    for a in arcs:
        if a.range <= 0:
            continue
        a0, a1 = ship.heading + a.start, ship.heading + a.end
        r = min(a.range * fr.unit_px, max(fr.map_w, fr.map_h))
        lx, ly = _rad_xy(cx, cy, (a0 + a1) / 2, min(r * 0.8, r - 10))
        lx = min(max(lx, fr.left + 40), fr.left + fr.map_w - 40)
        ly = min(max(ly, fr.top + 12), fr.top + fr.map_h - 6)
        labels.append(
            f'<text class="arc-label" x="{_f(lx)}" y="{_f(ly)}" text-anchor="middle">{_a(a.label)} '
            f"{a.range:g} {unit}</text>"
        )
    parts.append("</g>")
    parts.append('<g class="arc-labels">' + "".join(labels) + "</g>")
    out.append("".join(parts))


def _preview(ctx: _Ctx, ship: ShipState | None, path: Sequence[Position], out: list[str]) -> None:
    pts = [p for p in (_pos_of(p) for p in path) if p is not None]
    if ship is not None and (not pts or pts[0] != ship.position):
        pts.insert(0, ship.position)
    if len(pts) < 2:
        return
    fr = ctx.fr
    xy = [fr.xy(p) for p in pts]
    if ship is not None:
        xy[0] = ctx.px.get(ship.id, xy[0])
    d = "M" + "L".join(f"{_f(x)} {_f(y)}" for x, y in xy)
    (x0, y0), (x1, y1) = xy[-2], xy[-1]
    heading = math.degrees(math.atan2(x1 - x0, -(y1 - y0)))
    length = ctx.lengths.get(ship.id, ctx.ship_len) if ship is not None else ctx.ship_len
    out.append(
        f'<g class="order-preview" data-ship="{_a(ship.id if ship else "")}">'
        f'<path class="preview" d="{d}" marker-end="url(#{ctx.pid}-arrow-brass)"/>'
        f'<g transform="translate({_f(x1)} {_f(y1)}) rotate({heading:.0f})"><path class="ghost" '
        f'd="{_hull_path(length, length * 0.26)}"/></g></g>'
    )


def _night(ctx: _Ctx, out: list[str]) -> None:
    """Shade the sea at night; with a visibility, leave clear circles round the viewer's own ships."""
    fr = ctx.fr
    c = ctx.state.conditions
    vis = c.visibility
    holes = []
    if vis and vis > 0:
        r = vis * fr.unit_px
        for s in ctx.state.ships:
            if s.active and (ctx.viewer is not None and s.side == ctx.viewer) and s.id in ctx.px:
                x, y = ctx.px[s.id]
                holes.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"/>')
    rect = f'x="{_f(fr.left)}" y="{_f(fr.top)}" width="{_f(fr.map_w)}" height="{_f(fr.map_h)}"'
    clip = f' clip-path="url(#{ctx.pid}-clip)"'
    if holes:
        # one group at 60 %: where the lookouts' circles overlap the sea is no lighter than in one circle
        out.append(
            f'<mask id="{ctx.pid}-night-mask"><rect {rect} fill="#fff"/>'
            f'<g fill="#000" opacity=".6">{"".join(holes)}</g></mask>'
            f'<rect class="night" {rect}{clip} mask="url(#{ctx.pid}-night-mask)"/>'
        )
    else:
        out.append(f'<rect class="night" {rect}{clip}/>')


COMPASS_R = 22.0
"""Radius of the compass rose (pixels)."""
COMPASS_ROOM = 2 * COMPASS_R + 12.0
"""Pixels the compass takes at the right end of the legend, under the map: it used to stand in the map's
top-right corner, over the hexes and ships there (a fresh-user check could not see or click a ship under
it)."""


def _compass(ctx: _Ctx, cx: float, cy: float, out: list[str]) -> None:
    """North mark and, when the rules have one, the wind: an arrow blowing from ``wind_from``; centred on
    (``cx``, ``cy``), in the legend (:func:`_legend`), never over the map."""
    c = ctx.state.conditions
    parts = [
        f'<g class="compass" transform="translate({_f(cx)} {_f(cy)})"><circle r="{_f(COMPASS_R)}"/>'
        '<path d="M0 -21L3 -13H-3z" fill="#0b2545"/><text y="-7">N</text>'
    ]
    if c.wind_from is not None:
        frm = norm_deg(c.wind_from)
        x0, y0 = _rad_xy(0, 0, frm, 17)
        x1, y1 = _rad_xy(0, 0, frm + 180, 13)
        force = (
            f", {get_ruleset(ctx.state.ruleset).condition_label('wind_force', c.wind_force)}"
            if c.wind_force
            else ""
        )
        parts.append(
            f'<g class="wind" data-wind-from="{frm:g}"><title>Wind from the {_compass_name(frm)} '
            f'({frm:g}°){_a(force)}</title><path d="M{_f(x0)} {_f(y0)}L{_f(x1)} {_f(y1)}" '
            f'marker-end="url(#{ctx.pid}-arrow-wind)"/>'
            f'<circle cx="{_f(x0)}" cy="{_f(y0)}" r="2.2"/></g>'
        )
    parts.append("</g>")
    out.append("".join(parts))


def _conditions_text(ctx: _Ctx, ruleset_title: str) -> str:
    fr = ctx.fr
    c = ctx.state.conditions
    bits = []
    if c.night:
        bits.append(f"Night{', ' + c.moon + ' moon' if c.moon and c.moon != 'none' else ''}")
    rs = get_ruleset(ctx.state.ruleset)  # the chart's labels where the rules read the text (NW-SAIL-35)
    if c.wind_from is not None:
        force = f", {rs.condition_label('wind_force', c.wind_force)}" if c.wind_force else ""
        bits.append(f"wind from the {_compass_name(c.wind_from)}{force}")
    if c.weather:
        bits.append(rs.condition_label("weather", c.weather))
    if c.visibility:
        unit = "hexes" if fr.hexes else ("mm" if fr.geometry == "table_mm" else "in")
        bits.append(f"visibility {c.visibility:g} {unit}")
    return "; ".join(bits) or ruleset_title


def _legend(ctx: _Ctx, ruleset_title: str, out: list[str], caption: str | None = None) -> float:
    """Draw the legend under the map: the sides in their colours (wrapping), the turn and whose view it is
    with the scale at the right, and the conditions. Return its height in pixels."""
    fr = ctx.fr
    st = ctx.state
    x0 = PAD
    edge = fr.width - PAD  # the legend's right edge
    x1 = edge - COMPASS_ROOM  # its rows end before the compass
    y0 = fr.height - PAD + 8
    parts: list[str] = []
    # row(s) 1: sides
    x, y = x0 + 10, y0 + 15
    for s in st.sides:
        w = 28 + CHAR_PX * len(s.name)
        if x > x0 + 10 and x + w > x1 - 10:
            x, y = x0 + 10, y + LEGEND_ROW
        colour = ctx.colours.get(s.key, DEFAULT_COLOUR)
        parts.append(
            f'<g class="legend-side" data-side="{_a(s.key)}"><rect x="{_f(x)}" y="{_f(y - 8)}" '
            f'width="14" height="9" rx="2" fill="{colour}"/><text x="{_f(x + 19)}" y="{_f(y)}">'
            f"{_a(s.name)}</text></g>"
        )
        x += w
    # row 2: turn and view, scale at the right
    y += LEGEND_ROW
    if fr.hexes:
        w = fr.unit_px
        label = f"{int(fr.cols)} x {int(fr.rows)} hexes"
        parts.append(
            f'<g class="scalebar" data-unit="hex"><path d="{_hex_cell_at(x1 - 18, y - 4, 7)}" '
            f'fill="{SEA}" stroke="#16202c" stroke-width=".8"/><text x="{_f(x1 - 30)}" y="{_f(y)}" '
            f'text-anchor="end">{label}</text></g>'
        )
        scale_w = 40 + CHAR_PX * len(label)
    else:
        mm = fr.geometry == "table_mm"
        steps = (10, 20, 50, 100, 200, 250, 500, 1000) if mm else (1, 2, 3, 6, 12, 24, 36)
        length = _nice(fr.cols / 6, steps)
        label = f"{length:g} mm = {length * 10:g} m" if mm else f"{length:g} inches"
        w = length * fr.scale
        # the label ends 10 px inside the legend's border whatever the font (anchored at its end); the bar
        # keeps clear of it by a generous estimate of its width (CHAR_PX was short for "500 mm = 5000 m")
        lx = x1 - 10
        bx = lx - SCALE_CHAR_PX * len(label) - 8 - w
        segs = "".join(
            f'<rect x="{_f(bx + i * w / 4)}" y="{_f(y - 6)}" width="{_f(w / 4)}" height="5" '
            f'fill="{"#16202c" if i % 2 == 0 else "#fff"}"/>'
            for i in range(4)
        )
        parts.append(
            f'<g class="scalebar" data-unit="{"mm" if mm else "in"}" data-length="{length:g}">{segs}'
            f'<text x="{_f(lx)}" y="{_f(y)}" text-anchor="end">{_a(label)}</text></g>'
        )
        scale_w = x1 - bx + 10
    if ctx.viewer is None:
        view = "Umpire's view: everything"
    elif ctx.viewer == "":  # an observer (no side): what every side sees
        view = "Observer's view: what every side sees"
    else:
        view = f"Seen by {ctx.names.get(ctx.viewer, ctx.viewer)}"
    text = f"{caption or f'Turn {st.turn}'} · {view}"
    room = int((x1 - x0 - 20 - scale_w) / CHAR_PX)
    if len(text) > room:
        text = text[: max(8, room - 1)] + "…"
    parts.append(f'<text x="{_f(x0 + 10)}" y="{_f(y)}" class="muted view">{_a(text)}</text>')
    # row 3: conditions
    y += LEGEND_ROW
    cond = _conditions_text(ctx, ruleset_title)
    room = int((x1 - x0 - 20) / CHAR_PX)
    if len(cond) > room:
        cond = cond[: room - 1] + "…"
    parts.append(f'<text x="{_f(x0 + 10)}" y="{_f(y)}" class="conditions">{_a(cond)}</text>')
    height = y - y0 + 9
    out.append(
        f'<g class="legend"><rect class="legend-bg" x="{_f(x0)}" y="{_f(y0)}" width="{_f(edge - x0)}" '
        f'height="{_f(height)}" rx="4"/>' + "".join(parts) + "</g>"
    )
    _compass(ctx, edge - COMPASS_ROOM / 2, y0 + height / 2, out)
    return y0 + height + 8


def _hex_cell_at(x: float, y: float, s: float) -> str:
    a, hh = s / 2, s * SQRT3 / 2
    return f"M{_f(x + s)} {_f(y)}l{_f(-a)} {_f(hh)}h{_f(-s)}l{_f(-a)} {_f(-hh)}l{_f(a)} {_f(-hh)}h{_f(s)}z"


COORD_MIN_SCALE = 15.0
"""The smallest hex (pixels, centre to corner) whose every hex is labelled with its coordinates: a label of
0.34 of it (4.5 px and up) fits between the hex's neighbours."""
COORD_GAP_PX = (36.0, 16.0)
"""Pixels between the labels of a map whose hexes are too small for one each: across (a 7 px "100,-50" is
about 30 px wide) and down."""
COORD_STEPS = (2, 5, 10, 20, 50, 100, 200, 500, 1000)


def coordinate_step(fr: Frame) -> int:
    """Return k: every k-th column and row of a hex map is labelled with its coordinates (1: every hex), so
    the labels are at least :data:`COORD_GAP_PX` apart; a round number (2, 5, 10...) when k > 1."""
    if fr.scale >= COORD_MIN_SCALE:
        return 1
    need = max(COORD_GAP_PX[0] / (1.5 * fr.scale), COORD_GAP_PX[1] / (SQRT3 * fr.scale))
    return int(_nice(need, COORD_STEPS))


def _coordinates(fr: Frame, out: list[str]) -> None:
    """Label each hex with its axial coordinates ``q,r``, as the orders, the battle form and the log name a
    hex ("moves 2 hex(es) to (16,2)"), small and faint near the top of the hex, under the ships. A map whose
    hexes are too small for a label each is labelled every k-th column and row (:func:`coordinate_step`), each
    label centred on its hex: a grid of reference points, not a blur."""
    out.append(
        _coordinate_labels(
            int(fr.cols),
            int(fr.rows),
            coordinate_step(fr),
            round(fr.scale, 4),
            round(fr.ox, 3),
            round(fr.oy, 3),
        )
    )


@lru_cache(maxsize=32)
def _coordinate_labels(cols: int, rows: int, step: int, scale: float, ox: float, oy: float) -> str:
    """Return the ``<g class="coords">`` of :func:`_coordinates` (cached, as the grid: it does not change)."""
    font = 7.0 if step > 1 else min(8.0, max(4.5, 0.34 * scale))
    lift = scale * SQRT3 / 2 * 0.62 if step == 1 else 0.0  # from the centre towards the hex's top side
    parts = [f'<g class="coords" font-size="{_f(font)}" aria-hidden="true">']
    for col in range(0, cols, step):
        for row in range(0, rows, step):
            q, r = col, row - (col - (col & 1)) // 2
            x, y = ox + 1.5 * q * scale, oy + SQRT3 * (r + q / 2.0) * scale
            parts.append(f'<text x="{_f(x)}" y="{_f(y - lift)}">{q},{r}</text>')
    parts.append("</g>")
    return "".join(parts)


def _cells(fr: Frame, out: list[str]) -> None:
    """Clickable hex cells for the set-up editor (one element per hex with its axial coordinates)."""
    parts = ['<g class="cells">']
    for col in range(int(fr.cols)):
        for row in range(int(fr.rows)):
            h = Hex(q=col, r=row - (col - (col & 1)) // 2)
            parts.append(f'<path class="cell" data-q="{h.q}" data-r="{h.r}" d="{_hex_cell(fr, h)}"/>')
    parts.append("</g>")
    out.append("".join(parts))


# --- the map ---------------------------------------------------------------------------------------------


def render_map(
    state: BattleState,
    *,
    viewer_side: str | None,
    events: Sequence[Event] = (),
    selected: str | None = None,
    preview_path: Sequence[Position] | None = None,
    side_colours: Mapping[str, str] | None = None,
    size: int = 900,
    link: Callable[[ShipState], str] | None = None,
    hx_target: str | None = None,
    link_attrs: Mapping[str, str] | None = None,
    previous: BattleState | None = None,
    cells: bool = False,
    id_prefix: str = "nw",
    title: str | None = None,
    caption: str | None = None,
    show_arcs: bool = True,
) -> str:
    """Return a standalone ``<svg>`` of the battle as ``viewer_side`` sees it (None: the umpire, A2).

    - ``events``: the last phase's events; only those :func:`rules.base.event_visible` shows the viewer are
      drawn (movement trails from ``move`` events' ``data["path"]``, gunfire lines and hits from ``fire``,
      ``torpedo`` and ``mortar`` events). Positions come only from the viewer's view of the state.
    - ``previous``: the state before the phase: trails for ships whose move event has no path.
    - ``selected``: a ship id; drawn with a ring, and its arcs and gun ranges when it is the viewer's own
      (or the umpire looks). ``preview_path``: positions of a move being entered, drawn from the selected
      ship.
    - ``side_colours``: side key -> CSS colour, overriding the state's; ``size``: the map's width in pixels.
    - ``link``: ship -> URL; each marker becomes a link. With ``hx_target`` (a CSS selector) it is also an
      htmx ``hx-get`` swapping that element's inner HTML; ``link_attrs`` adds attributes to every link
      (``{"hx-push-url": "true"}``) and makes it an ``hx-get`` too.
    - ``cells``: add a clickable element per hex (``class="cell"``, ``data-q``/``data-r``) for the editor.
    - ``id_prefix``: prefix of every ``id`` in the SVG, so that two maps can share a page.
    - ``title``: the SVG's accessible title; ``caption``: what the legend says the map shows (default
      "Turn N", the state's turn). ``show_arcs``: False leaves the selected ship's arcs off (the editor).

    Raise :class:`rules.errors.UnknownRuleset` if the state's rule set is not registered.
    """
    rs = get_ruleset(state.ruleset)
    view = rs.view_for(state, viewer_side)
    prev_view = rs.view_for(previous, viewer_side) if previous is not None else None
    fr = frame_for(view.map, size)
    pid = _safe_id(id_prefix) or "nw"
    colours = {s.key: _colour(s.colour) for s in view.sides}
    for k, v in (side_colours or {}).items():
        colours[k] = _colour(v)
    names = {s.key: s.name for s in view.sides}
    drawn = [s for s in view.ships if s.status != "withdrawn"]
    px = _ship_pixels(fr, drawn)
    if fr.hexes:
        ship_len = fr.scale * 1.5
    else:
        ship_len = max(16.0, min(30.0, (3.0 if fr.geometry == "table_in" else 60.0) * fr.scale))
    ctx = _Ctx(
        fr=fr,
        state=view,
        viewer=viewer_side,
        colours=colours,
        names=names,
        px=px,
        ship_names={s.id: s.name for s in view.ships},
        ship_len=ship_len,
        pid=pid,
        lengths={s.id: ship_len * _type_scale(s) for s in drawn},
    )
    sides = state.side_keys()
    seen_events = [e for e in events if event_visible(e, viewer_side, sides)]

    own = sum(1 for s in drawn if viewer_side is None or s.side == viewer_side)
    enemy = len(drawn) - own
    if viewer_side == "":  # an observer (no side)
        heading = title or f"Battle map, turn {view.turn}, as an observer sees it (what every side sees)"
    else:
        who = "the umpire" if viewer_side is None else names.get(viewer_side, viewer_side)
        heading = title or f"Battle map, turn {view.turn}, as {who} sees it"
    desc = (
        f"{rs.title}. {len(drawn)} ship(s) shown"
        + (f": {own} own, {enemy} enemy" if viewer_side else "")
        + f". {'Night. ' if view.conditions.night else ''}"
        + (
            "Map "
            + f"{int(fr.cols)} x {int(fr.rows)} hexes, labelled q,r as the orders and the log name them."
            if fr.hexes
            else f"Table {fr.cols:g} x {fr.rows:g} {'mm' if fr.geometry == 'table_mm' else 'inches'}."
        )
    )

    out: list[str] = []
    w = fr.width
    out.append("")  # the <svg> tag, once the legend's height is known
    out.append(f'<title id="{pid}-title">{_a(heading)}</title><desc id="{pid}-desc">{_a(desc)}</desc>')
    out.append(f"<style>{STYLE}</style>")
    if fr.hexes:
        grid = _hex_grid_path(
            int(fr.cols), int(fr.rows), round(fr.scale, 4), round(fr.ox, 3), round(fr.oy, 3)
        )
        shape = f'<path id="{pid}-grid" d="{grid}"/>'
        clip = f'<use href="#{pid}-grid"/>'
    else:
        shape = ""
        clip = f'<rect x="{_f(fr.left)}" y="{_f(fr.top)}" width="{_f(fr.map_w)}" height="{_f(fr.map_h)}"/>'
    out.append(
        f'<defs>{shape}<clipPath id="{pid}-clip">{clip}</clipPath>'
        f'<marker id="{pid}-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" '
        f'orient="auto-start-reverse"><path d="M0 1L10 5L0 9z" fill="#c2410c"/></marker>'
        f'<marker id="{pid}-arrow-brass" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10z" fill="#c9a227"/></marker>'
        f'<marker id="{pid}-arrow-wind" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="#0b2545"/></marker></defs>'
    )
    out.append("")  # the white sheet under everything, as high as the <svg>
    sheet = len(out) - 1

    # sea, terrain, grid
    if fr.hexes:
        out.append(f'<use class="sea" href="#{pid}-grid"/>')
        _terrain(ctx, view.terrain, out)
        out.append(f'<use class="grid" href="#{pid}-grid"/>')
    else:
        out.append(
            f'<rect class="sea" x="{_f(fr.ox)}" y="{_f(fr.oy)}" width="{_f(fr.map_w)}" '
            f'height="{_f(fr.map_h)}"/>'
        )
        _rulers(fr, "mm" if fr.geometry == "table_mm" else "in", out)
        _terrain(ctx, view.terrain, out)
        out.append(
            f'<rect class="table-edge" x="{_f(fr.ox)}" y="{_f(fr.oy)}" width="{_f(fr.map_w)}" '
            f'height="{_f(fr.map_h)}"/>'
        )
    if view.conditions.night:
        _night(ctx, out)
    if fr.hexes:  # after the night's shade, which would hide them
        _coordinates(fr, out)
    if cells and fr.hexes:
        _cells(fr, out)

    sel = next((s for s in drawn if s.id == selected), None)
    if show_arcs and sel is not None and (viewer_side is None or sel.side == viewer_side) and sel.active:
        _arcs(ctx, sel, out)
    _trails(ctx, seen_events, prev_view, out)
    _fire(ctx, seen_events, out)
    _torpedoes(ctx, out)
    if preview_path:
        _preview(ctx, sel, preview_path, out)

    out.append('<g class="ships">')
    # sunk ships underneath, then the living; the selected ship on top
    labels = _place_labels(ctx, drawn, selected)
    attrs = dict(link_attrs or {})
    if hx_target:
        attrs = {"hx-target": hx_target, "hx-swap": "innerHTML", **attrs}
    extra = "".join(f' {_a(_safe_id(k))}="{_a(v)}"' for k, v in attrs.items())
    for s in sorted(drawn, key=lambda s: (s.status == "active", s.id == selected)):
        _ship(ctx, s, link, extra, selected, labels[s.id], out)
    out.append("</g>")
    if ctx.defs:
        out.append("<defs>" + "".join(ctx.defs) + "</defs>")
    h = _legend(ctx, rs.title, out, caption)
    out.append("</svg>")
    night = " night-on" if view.conditions.night else ""
    out[0] = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="nw-map{night}" '
        f'viewBox="0 0 {_f(w)} {_f(h)}" width="{_f(w)}" height="{_f(h)}" role="img" '
        f'aria-labelledby="{pid}-title {pid}-desc" data-ruleset="{_a(view.ruleset)}" '
        f'data-geometry="{_a(fr.geometry)}" data-turn="{view.turn}" data-phase="{view.phase}" '
        f'data-viewer="{_a(viewer_side or "")}" data-scale="{fr.scale:.4f}" data-ox="{fr.ox:.2f}" '
        f'data-oy="{fr.oy:.2f}">'
    )
    out[sheet] = f'<rect width="{_f(w)}" height="{_f(h)}" fill="#fff"/>'
    return "".join(out)


def visible_ships(state: BattleState, viewer_side: str | None) -> list[ShipState]:
    """Return the ships :func:`render_map` draws for ``viewer_side``: those in its view still on the table."""
    view = get_ruleset(state.ruleset).view_for(state, viewer_side)
    return [s for s in view.ships if s.status != "withdrawn"]


def positions_of(iterable: Iterable[Mapping[str, Any]]) -> list[Position]:
    """Return positions from JSON ``{"q", "r"}`` / ``{"x", "y"}`` items, skipping what is not a position."""
    return [p for p in (_pos_of(d) for d in iterable) if p is not None]


# --- order preview ---------------------------------------------------------------------------------------

MOVE_ORDER_KEYS = ("move", "movement")
"""Keys of the rule sets' movement order types (``RuleSet.order_types``)."""


def move_fields(ruleset: str) -> tuple[Any, ...]:
    """Return the field specs of the rule set's movement order type(s): what the preview form asks for."""
    rs = get_ruleset(ruleset)
    return tuple(f for ot in rs.order_types if ot.key in MOVE_ORDER_KEYS for f in ot.fields)


def move_preview(
    state: BattleState, ship_id: str, data: Mapping[str, JSON], *, side: str | None = None
) -> tuple[list[Position], list[str], dict[str, list[str]]]:
    """Return where a movement order would take a ship, as the map previews it before the order is saved.

    The rules adjudicate it: the ship's default "hold" order (A7) with ``data`` laid over it is resolved
    (:meth:`RuleSet.resolve_phase`) on a copy of the state holding that ship alone, so that nothing else
    moves, fires or gets in the way, with fixed dice; the path is its ``move`` event's ``data["path"]`` (or
    start to end). ``state`` should be the viewer's view (A2) so nothing hidden is used. Return the path,
    the rule set's :meth:`RuleSet.preview` lines, and the errors :meth:`RuleSet.validate_orders` finds in
    the order (field -> messages, empty when legal). Never raises for a bad order: the errors say why.
    """
    from rules.dice import SeededDice
    from rules.model import ShipOrder

    rs = get_ruleset(state.ruleset)
    ship = state.ship(ship_id)
    alone = replace_state(state, ships=(ship,), pending=())
    try:
        base = dict(rs.default_order(alone, ship, "hold").data)
    except Exception:
        base = {}
    order = ShipOrder(ship_id=ship_id, data={**base, **data})
    errors: dict[str, list[str]] = {}
    try:
        errs = rs.validate_orders(state, side if side is not None else ship.side, [order])
        errors = {k: list(v) for k, v in errs.for_ship(ship_id).items()}
    except Exception as exc:  # a half-typed order: say so, draw nothing
        errors = {"__all__": [str(exc) or type(exc).__name__]}
    lines: list[str] = []
    if not errors:
        try:
            lines = list(rs.preview(state, ship, order))
        except Exception:
            lines = []
    path: list[Position] = []
    if errors:
        return path, lines, errors
    try:
        result = rs.resolve_phase(alone, {ship_id: order}, SeededDice(0))
    except Exception as exc:
        return path, lines, {"__all__": [f"The rules cannot preview this order: {exc}"]}
    for e in result.events:
        if e.kind == "move" and e.ship_id == ship_id and isinstance(e.data.get("path"), list):
            path = positions_of(p for p in e.data["path"] if isinstance(p, Mapping))  # type: ignore[union-attr]
    if not path:
        moved = next((s for s in result.state.ships if s.id == ship_id), ship)
        path = [ship.position, moved.position] if moved.position != ship.position else []
    return path, lines, errors


def replace_state(state: BattleState, **changes: Any) -> BattleState:
    """Return ``state`` with ``changes`` (dataclasses.replace, typed for the callers here)."""
    from dataclasses import replace

    return replace(state, **changes)
