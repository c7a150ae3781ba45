"""``ww2_jackson``: the Jackson Gamers' WWII naval rules (seed 000): D20 gunnery, damage, torpedoes,
movement."""

from .ruleset import RULESET, WW2Jackson

__all__ = ["RULESET", "WW2Jackson"]
