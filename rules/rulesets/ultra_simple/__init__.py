"""``ultra_simple``: Archduke Piccolo's Ultra Simple Naval Rules (seed 003), on hexes with 12 facings."""

from .ruleset import RULESET, UltraSimple

__all__ = ["RULESET", "UltraSimple"]
