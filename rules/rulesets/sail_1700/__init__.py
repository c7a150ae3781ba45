"""``sail_1700``: Naval Wargame Rules 1700-1830 (seed 001), on a millimetre table with alternate moves."""

from .ruleset import RULESET, Sail1700

__all__ = ["RULESET", "Sail1700"]
