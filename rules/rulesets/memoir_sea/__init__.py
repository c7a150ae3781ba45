"""``memoir_sea``: Memoir of Battle at Sea (seed 004), on hexes with the six side facings."""

from .ruleset import RULESET, MemoirSea

__all__ = ["RULESET", "MemoirSea"]
