"""``acw_river``: the American Civil War riverine hex rules (seed 002), on hexes with 12 facings.

Umpire actions (capture of a grounded vessel, unloading a transport, placing batteries and mines) are in
:mod:`rules.rulesets.acw_river.umpire`.
"""

from .ruleset import RULESET, AcwRiver
from .umpire import (
    capture_grounded,
    place_battery,
    place_mine,
    place_terrain,
    storm_strength,
    unload_transport,
)

__all__ = [
    "RULESET",
    "AcwRiver",
    "capture_grounded",
    "place_battery",
    "place_mine",
    "place_terrain",
    "storm_strength",
    "unload_transport",
]
