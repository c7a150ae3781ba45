"""The bundled reference classes, gathered from the rules registry, and the navies' map colours.

Every registered rule set contributes the classes of its bundled scenarios
(``rules.scenario.bundled_scenarios``) and its ``reference_classes()`` (seed 001's whole table for
``sail_1700``, the ACW ship types...). Nothing here is a list of rule sets: a rule set merged later is
covered as soon as it is registered.
"""

from __future__ import annotations

import colorsys
import hashlib
from dataclasses import dataclass, field

import rules
from rules.model import JSON
from rules.scenario import bundled_scenarios


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceClass:
    """One bundled class: where it comes from (``origin``: a scenario's name or "reference table")."""

    ruleset: str
    key: str
    name: str
    nation: str = ""
    type: str = ""
    stats: dict[str, JSON] = field(default_factory=dict)
    source: str = ""
    heuristic: bool = False
    origin: str = ""
    ships: tuple[str, ...] = ()


def _text(value: JSON) -> str:
    return value if isinstance(value, str) else ""


def reference_classes() -> list[ReferenceClass]:
    """Return every bundled class of every registered rule set, one per (rule set, key).

    Scenario classes come first (file-name order), then each rule set's reference table; a later entry with
    the same key is the same class and replaces the earlier one's data but keeps the scenario's ship names.
    """
    out: dict[tuple[str, str], ReferenceClass] = {}
    registered = set(rules.ruleset_keys())
    for scenario in bundled_scenarios().values():
        if scenario.ruleset not in registered:
            continue
        for c in scenario.classes:
            ships = tuple(s.name for s in scenario.ships if s.class_key == c.key)
            previous = out.get((scenario.ruleset, c.key))
            out[(scenario.ruleset, c.key)] = ReferenceClass(
                ruleset=scenario.ruleset,
                key=c.key,
                name=c.name,
                nation=c.nation,
                type=c.type,
                stats=dict(c.stats),
                source=c.source or f"Scenario: {scenario.name}",
                heuristic=c.heuristic,
                origin=scenario.name,
                ships=tuple(dict.fromkeys((previous.ships if previous else ()) + ships)),
            )
    for rs in rules.all_rulesets():
        for entry in rs.reference_classes():
            key = _text(entry.get("key"))
            previous = out.get((rs.key, key))
            stats = entry.get("stats")
            out[(rs.key, key)] = ReferenceClass(
                ruleset=rs.key,
                key=key,
                name=_text(entry.get("name")) or key,
                nation=_text(entry.get("nation")),
                type=_text(entry.get("type")),
                stats=dict(stats) if isinstance(stats, dict) else {},
                source=_text(entry.get("source")) or f"{rs.title}: {rs.source}",
                heuristic=entry.get("heuristic") is True,
                origin="reference table",
                ships=previous.ships if previous else (),
            )
    return list(out.values())


# Map colours and short names of navies the bundled data names. Aliases map to one navy; an unknown navy
# gets a stable colour made from its name.
NAVIES: dict[str, tuple[str, str]] = {
    "Britain": ("GB", "#1f4e9c"),
    "Germany": ("DE", "#5a5a5a"),
    "United States": ("US", "#2a7ab0"),
    "Japan": ("JP", "#b3261e"),
    "France": ("FR", "#3559c7"),
    "Spain": ("ES", "#c9a227"),
    "Italy": ("IT", "#1e7b4f"),
    "Russia": ("RU", "#6b3fa0"),
    "Netherlands": ("NL", "#e07b00"),
    "Denmark": ("DK", "#c2185b"),
    "Sweden": ("SE", "#0097a7"),
    "Portugal": ("PT", "#2e7d32"),
    "Ottoman Empire": ("OT", "#8c1c13"),
    "Austria-Hungary": ("AH", "#8d6e63"),
    "China": ("CN", "#d84315"),
    "Australia": ("AU", "#00838f"),
    "New Zealand": ("NZ", "#37474f"),
    "Union": ("USA", "#283593"),
    "Confederacy": ("CSA", "#78909c"),
}
ALIASES: dict[str, str] = {
    "great britain": "Britain",
    "united kingdom": "Britain",
    "uk": "Britain",
    "british": "Britain",
    "royal navy": "Britain",
    "england": "Britain",
    "german": "Germany",
    "kriegsmarine": "Germany",
    "usa": "United States",
    "us": "United States",
    "united states of america": "United States",
    "american": "United States",
    "us navy": "United States",
    "japanese": "Japan",
    "french": "France",
    "spanish": "Spain",
    "italian": "Italy",
    "dutch": "Netherlands",
    "holland": "Netherlands",
    "russian": "Russia",
    "danish": "Denmark",
    "swedish": "Sweden",
    "federal": "Union",
    "union navy": "Union",
    "us union": "Union",
    "confederate": "Confederacy",
    "confederate states": "Confederacy",
    "csa": "Confederacy",
    "confederate states navy": "Confederacy",
}


def canonical_navy(name: str) -> str:
    """Return the one name of a navy the data spells several ways (``Great Britain`` -> ``Britain``)."""
    name = " ".join(name.split())
    return ALIASES.get(name.lower(), name)


def navy_style(name: str) -> tuple[str, str]:
    """Return (short name, map colour) for a navy's name: the known navies' own, else made from the name."""
    known = NAVIES.get(canonical_navy(name))
    if known:
        return known
    digest = hashlib.sha256(name.encode()).digest()
    r, g, b = colorsys.hls_to_rgb(digest[0] / 255, 0.38, 0.55)
    short = "".join(w[0] for w in name.split() if w)[:4].upper() if " " in name else name[:3].upper()
    return short, f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
