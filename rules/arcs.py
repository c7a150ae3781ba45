"""Arcs of fire and gun ranges, as the map draws them: the shape every rule set returns, and the A5 arcs.

A rule set says where a ship's guns bear through :meth:`rules.base.RuleSet.arcs`, which returns a list of
:class:`ArcSpec`. The generic default (:func:`default_arcs`) is A5's (``../shared/rulings-product.md`` A5):
forward within 30 degrees of the bow, aft within 30 degrees of the stern, each broadside the rest. Rule sets
with their own arcs build them in ``rules/rulesets/<key>/arcs.py``, mostly with :func:`a5_arcs`.

Angles are degrees relative to the bow, clockwise (0 = dead ahead, 90 = starboard beam); ranges and bands
are in the rule set's unit (hexes, inches or millimetres). Nothing here decides whether a shot is legal: the
rule set's gunnery does; arcs only tell the player where the guns bear and how far.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .model import BattleState, ShipState

A5_FORWARD_DEG = 30.0
"""A5: a bearing within this many degrees of the bow is in the forward arc."""
A5_AFT_DEG = 30.0
"""A5: a bearing within this many degrees of the stern is in the aft arc."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ArcSpec:
    """One arc of fire of a ship.

    ``label``: what the map calls it (``forward``, ``port abeam``, ``starboard 15in``...). ``start`` to
    ``end``: degrees relative to the bow, clockwise; ``end`` may exceed 360 when the arc crosses the bow
    (forward within 30 degrees is 330 to 390). ``range``: the longest range, in the rule set's unit
    (hexes, inches or millimetres). ``bands``: the range-band edges shorter than ``range``, nearest first,
    in the same unit (a hex at ``d`` is in band ``sum(1 for b in bands if b < d)``).
    """

    label: str
    start: float
    end: float
    range: float
    bands: tuple[float, ...] = field(default_factory=tuple)


def num(value: object, default: float = 0.0) -> float:
    """Return ``value`` as a finite float: numbers and numeric strings; ``default`` for anything else
    (booleans, None, NaN, infinities, text)."""
    if isinstance(value, bool):
        return default
    if isinstance(value, str):
        try:
            out = float(value)
        except ValueError:
            return default
        return out
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else default
    return default


def mapping(value: object) -> Mapping[str, object]:
    """Return ``value`` if it is a mapping, else an empty one (for reading tables and ship data safely)."""
    return value if isinstance(value, Mapping) else {}


def gun_rows(ship: ShipState) -> list[Mapping[str, object]]:
    """Return the rows of the ship class's ``guns`` list that are objects (an empty list when it has none)."""
    rows = ship.stats.get("guns")
    return [r for r in rows if isinstance(r, Mapping)] if isinstance(rows, list) else []


def a5_arcs(
    forward: float,
    aft: float,
    ranges: Mapping[str, float],
    bands: Mapping[str, Sequence[float]] | None = None,
    labels: Mapping[str, str] | None = None,
    beam_first: bool = False,
    silent_ends: bool = False,
) -> list[ArcSpec]:
    """Return the arcs forward, aft, starboard and port that have a positive range in ``ranges``.

    ``forward`` / ``aft``: the half-widths of the end arcs in degrees (A5: 30). ``ranges`` and ``bands`` are
    keyed ``forward``, ``aft``, ``starboard``, ``port``; ``broadside`` stands for both beams when a beam has
    no key of its own. Bands not strictly between 0 and the arc's range are dropped. ``labels`` renames
    arcs. Arcs come end arcs first (a bearing on a boundary counts as the end arc, as
    :func:`rules.geometry.arc_of` has it, and the map gives each hex to the first arc that holds it), or the
    beams first with ``beam_first`` (rule sets whose boundary hexes are on the beam: M04, NW-ACW-01).
    ``silent_ends``: an end arc with no range is kept, with range 0, so that it still owns the bearings on its
    boundary where no gun bears (``ultra_simple``: a target exactly 30 degrees off the stern of a ship with no
    aft guns is in the aft arc, and nothing fires at it; docs/rulings.md NW-US-ARC-01).
    """
    spans = {
        "forward": (360.0 - forward, 360.0 + forward),
        "aft": (180.0 - aft, 180.0 + aft),
        "starboard": (forward, 180.0 - aft),
        "port": (180.0 + aft, 360.0 - forward),
    }
    names = labels or {}
    bmap = bands or {}
    out = []
    for key, (a, b) in spans.items():
        beam = key in ("starboard", "port")
        rng = ranges.get(key, ranges.get("broadside", 0.0) if beam else 0.0)
        if silent_ends and not beam and not (rng and rng > 0):
            out.append(ArcSpec(label=names.get(key, key), start=a, end=b, range=0.0))
        elif rng and rng > 0:
            bb = tuple(bmap.get(key, bmap.get("broadside", ())) if beam else bmap.get(key, ()))
            out.append(
                ArcSpec(
                    label=names.get(key, key),
                    start=a,
                    end=b,
                    range=float(rng),
                    bands=tuple(x for x in bb if 0 < x < rng),
                )
            )
    if beam_first:
        beams = ("starboard", "port", names.get("starboard"), names.get("port"))
        out.sort(key=lambda arc: arc.label not in beams)
    return out


def default_arcs(tables: Mapping[str, object], state: BattleState, ship: ShipState) -> list[ArcSpec]:
    """Return A5's arcs (30 degrees either side of bow and stern, the broadsides between) all at one range.

    The range is the rule set's ``max_range_hexes`` or ``max_range`` from its ``tables()`` JSON, else 6 on
    a hex map and 24 (inches or millimetres) on a table. No bands.
    """
    hexes = state.map.geometry.startswith("hex")
    rng = num(tables.get("max_range_hexes", tables.get("max_range")), 6.0 if hexes else 24.0)
    return a5_arcs(A5_FORWARD_DEG, A5_AFT_DEG, {"forward": rng, "aft": rng, "broadside": rng})
