"""Rebuild the ww2_jackson scenario JSON files: `python tests/rules/ww2_jackson/build_scenarios.py` from the
repo root.

The classes come from rules/rulesets/ww2_jackson/classes.py (A4 house heuristic); positions from
shared/scenarios."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from rules.rulesets.ww2_jackson.classes import scenario_classes


def ship(id, name, cls, side, x, y, heading, speed):
    return {
        "id": id,
        "name": name,
        "class_key": cls,
        "side": side,
        "position": {"x": x, "y": y},
        "heading": heading,
        "speed": speed,
    }


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


SCALE = (
    "Ground scale (the seed has none): 1 inch = 400 yards, so the 15-inch long range of 72 inches is 28,800 "
    "yards; a turn is about three minutes (26 knots = 6.5 inches)."
)

write(
    "rules/scenarios/ww2_jackson_denmark_strait_1941.json",
    {
        "ruleset": "ww2_jackson",
        "key": "denmark_strait_1941",
        "name": "Battle of the Denmark Strait, 24 May 1941",
        "description": (
            "05:52: Hood and Prince of Wales, closing at a fine angle on course 300, open fire at about "
            "26,000 yards (65 inches, long range) on Bismarck and Prinz Eugen, steering 220 at 27-28 knots; "
            "only the British forward turrets bear (the British head 310 here, not the historical ~300, so "
            "that the enemy at ~336 lies inside the 30-degree forward arc of A5, as it did for their real "
            "turret arcs). Full daylight. Hood blew up at about 06:00; Prince of "
            "Wales broke off at about 06:09 after 3 hits on Bismarck. " + SCALE
        ),
        "date": "1941-05-24",
        "sources": ["shared/scenarios/01_denmark_strait_1941.md", "seeds/000_6c8b418afcdd1c2b.txt"],
        "map": {"geometry": "table_in", "width": 96, "height": 72},
        "sides": [
            {"key": "britain", "name": "Royal Navy", "colour": "#1f4e9c"},
            {"key": "germany", "name": "Kriegsmarine", "colour": "#8c1c13"},
        ],
        "classes": scenario_classes(["hood", "king_george_v", "bismarck", "admiral_hipper"]),
        "ships": [
            ship("hood", "Hood", "hood", "britain", 70.0, 64.0, 310, 27),
            ship("prince_of_wales", "Prince of Wales", "king_george_v", "britain", 71.8, 66.0, 310, 26),
            ship("prinz_eugen", "Prinz Eugen", "admiral_hipper", "germany", 41.4, 8.6, 220, 27),
            ship("bismarck", "Bismarck", "bismarck", "germany", 44.0, 5.5, 220, 27),
        ],
        "conditions": {
            "night": False,
            "moon": "none",
            "weather": "full daylight, good visibility; British steaming into wind and sea",
            "visibility": None,
        },
        "options": {"default_orders": "captain"},
        "turns": 12,
    },
)

write(
    "rules/scenarios/ww2_jackson_river_plate_1939.json",
    {
        "ruleset": "ww2_jackson",
        "key": "river_plate_1939",
        "name": "Battle of the River Plate, 13 December 1939",
        "description": (
            "06:18-06:20: Admiral Graf Spee, closing from the north-west, opens fire on Exeter at about "
            "19,500 yards; Exeter, turned west to engage from the south, replies at 18,700 yards (47 "
            "inches); "
            "Ajax and Achilles engage from the east on about 340. Sunrise 05:56, extreme visibility. No ship "
            "sank in the action. " + SCALE
        ),
        "date": "1939-12-13",
        "sources": ["shared/scenarios/02_river_plate_1939.md", "seeds/000_6c8b418afcdd1c2b.txt"],
        "map": {"geometry": "table_in", "width": 96, "height": 72},
        "sides": [
            {"key": "germany", "name": "Kriegsmarine", "colour": "#8c1c13"},
            {"key": "britain", "name": "Royal Navy (Force G)", "colour": "#1f4e9c"},
        ],
        "classes": scenario_classes(["deutschland", "york", "leander"]),
        "ships": [
            ship("graf_spee", "Admiral Graf Spee", "deutschland", "germany", 40.0, 14.0, 150, 24),
            ship("exeter", "Exeter", "york", "britain", 42.0, 61.0, 300, 28),
            ship("ajax", "Ajax", "leander", "britain", 62.0, 56.0, 340, 28),
            ship("achilles", "Achilles", "leander", "britain", 60.0, 58.5, 340, 28),
        ],
        "conditions": {
            "night": False,
            "moon": "none",
            "weather": "cloudless, extreme visibility; fresh south-east breeze, low swell",
            "visibility": None,
        },
        "options": {"default_orders": "captain"},
        "turns": 12,
    },
)

write(
    "rules/scenarios/ww2_jackson_guadalcanal_1942.json",
    {
        "ruleset": "ww2_jackson",
        "key": "guadalcanal_1942",
        "name": "Second Naval Battle of Guadalcanal, night of 14-15 November 1942",
        "description": (
            "About 23:30: Task Force 64 in column (Walke, Benham, Preston, Gwin, Washington, South Dakota) "
            "west-bound south of Savo at 23 knots; the Nagara screen and Ayanami west of Savo closing; the "
            "bombardment group (Kirishima, Atago, Takao) approaching from the north-west; the Sendai sweep "
            "north-east, turned away. Night, dim setting moon, low cloud: ships are in sight within 20 "
            "inches or when lit, burning or firing (A2). " + SCALE
        ),
        "date": "1942-11-14",
        "sources": ["shared/scenarios/04_guadalcanal_14-15nov1942.md", "seeds/000_6c8b418afcdd1c2b.txt"],
        "map": {"geometry": "table_in", "width": 96, "height": 72},
        "sides": [
            {"key": "usa", "name": "US Navy (TF 64)", "colour": "#1f4e9c"},
            {"key": "japan", "name": "Imperial Japanese Navy", "colour": "#b0201a"},
        ],
        "classes": scenario_classes(
            [
                "north_carolina",
                "south_dakota",
                "sims",
                "benham",
                "mahan",
                "gleaves",
                "kongo",
                "takao",
                "nagara",
                "sendai",
                "fubuki",
                "asashio",
                "shiratsuyu",
                "akizuki",
            ]
        ),
        "ships": [
            ship("walke", "Walke", "sims", "usa", 50.0, 44.0, 270, 23),
            ship("benham", "Benham", "benham", "usa", 52.0, 44.0, 270, 23),
            ship("preston", "Preston", "mahan", "usa", 54.0, 44.0, 270, 23),
            ship("gwin", "Gwin", "gleaves", "usa", 56.0, 44.0, 270, 23),
            ship("washington", "Washington", "north_carolina", "usa", 62.0, 44.0, 270, 23),
            ship("south_dakota", "South Dakota", "south_dakota", "usa", 65.0, 44.0, 270, 23),
            ship("ayanami", "Ayanami", "fubuki", "japan", 34.0, 52.0, 80, 26),
            ship("nagara", "Nagara", "nagara", "japan", 28.0, 34.0, 110, 26),
            ship("shirayuki", "Shirayuki", "fubuki", "japan", 26.0, 33.0, 110, 26),
            ship("hatsuyuki", "Hatsuyuki", "fubuki", "japan", 24.0, 32.0, 110, 26),
            ship("inazuma", "Inazuma", "fubuki", "japan", 22.0, 31.0, 110, 26),
            ship("samidare", "Samidare", "shiratsuyu", "japan", 29.0, 36.5, 110, 26),
            ship("asagumo", "Asagumo", "asashio", "japan", 27.0, 35.5, 110, 26),
            ship("teruzuki", "Teruzuki", "akizuki", "japan", 25.0, 34.5, 110, 26),
            ship("atago", "Atago", "takao", "japan", 22.0, 12.0, 135, 24),
            ship("takao", "Takao", "takao", "japan", 20.0, 10.0, 135, 24),
            ship("kirishima", "Kirishima", "kongo", "japan", 18.0, 8.0, 135, 24),
            ship("sendai", "Sendai", "sendai", "japan", 82.0, 16.0, 0, 24),
            ship("shikinami", "Shikinami", "fubuki", "japan", 84.0, 18.0, 0, 24),
            ship("uranami", "Uranami", "fubuki", "japan", 80.0, 18.0, 0, 24),
        ],
        "conditions": {
            "night": True,
            "moon": "dim",
            "weather": "setting quarter moon, low cloud",
            "visibility": 20,
        },
        "options": {"default_orders": "captain"},
        "turns": 12,
    },
)
