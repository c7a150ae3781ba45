"""The registry of rule sets, as python-chess has ``VARIANTS`` and ``find_variant``.

Keys are those of ``../shared/seeds/INDEX.md``; campaigns store them.
"""

from __future__ import annotations

import importlib
from functools import cache

from .base import RuleSet
from .errors import UnknownRuleset

# key -> module that defines ``RULESET``. Each rule set lives in rules/rulesets/<key>/.
_MODULES: dict[str, str] = {
    "acw_river": "rules.rulesets.acw_river",
    "memoir_sea": "rules.rulesets.memoir_sea",
    "sail_1700": "rules.rulesets.sail_1700",
    "ultra_simple": "rules.rulesets.ultra_simple",
    "ww2_jackson": "rules.rulesets.ww2_jackson",
}


@cache
def get_ruleset(key: str) -> RuleSet:
    """Return the rule set registered under ``key``.

    Raise :class:`~rules.errors.UnknownRuleset` naming the known keys when there is none.
    """
    module = _MODULES.get(key)
    if module is None:
        raise UnknownRuleset(f"unknown rule set {key!r}; known: {', '.join(sorted(_MODULES))}")
    ruleset = importlib.import_module(module).RULESET
    assert isinstance(ruleset, RuleSet)
    return ruleset


def ruleset_keys() -> tuple[str, ...]:
    """Return the keys of every registered rule set, sorted."""
    return tuple(sorted(_MODULES))


def all_rulesets() -> tuple[RuleSet, ...]:
    """Return every registered rule set, sorted by key."""
    return tuple(get_ruleset(k) for k in ruleset_keys())
