"""Bundled ship classes of ``ww2_jackson`` for the scenarios, authored with the A4 house heuristic.

Every class here is marked ``heuristic: true``: the record sheet (W02) is not in the seed, so its boxes are
made by the house heuristic of ``../shared/rulings-product.md`` A4 (:func:`heuristic_stats`) from the
historical data in ``../shared/scenarios/01, 02, 04``; armour letters, underwater classes and radar grades
are those scenarios' assessments. The scenario JSON files are built from these (see :func:`scenario_classes`).
"""

from __future__ import annotations

from ...model import JSON
from . import tables as T

Gun = tuple[str, float, int, str, bool, bool, str, str]
"""A gun box: (name, calibre, guns, armour, forward, aft, side, kind)."""


def _family(ship_type: str) -> str:
    if ship_type in ("destroyer", "small_craft"):
        return "destroyer"
    if ship_type == "cruiser":
        return "cruiser"
    return "capital"


def heuristic_stats(
    *,
    ship_type: str,
    tonnage: int,
    speed: float,
    main: list[Gun],
    secondary: list[Gun],
    light_aa_barrels: int,
    torpedoes: list[tuple[str, int, int, str, bool]],
    reloads: int,
    belt: str,
    underwater_protection: str,
    radar: str,
    aircraft: int = 0,
    turning: str = "",
    family: str = "",
) -> dict[str, JSON]:
    """Return class stats by the A4 house heuristic.

    Main armament: one box per turret or mount (given). Secondary: one box per two mounts, per mount on
    cruisers (given already grouped). AA: one box per eight light barrels (rounded down, at least one if
    any). General above water: capital ships one per 2,500 t, cruisers one per 1,000 t, destroyers one per
    500 t, at least 2; half of them (rounded down) carry the belt letter. General underwater: half the
    above-water count, at least 1. Engines 4 (2 destroyers); damage control 3 / 2 / 1; fire control 2 / 1 / 1.
    """
    fam = family or _family(ship_type)
    above = max(2, tonnage // T.HEURISTIC_TONS_PER_ABOVE_BOX[fam])
    armoured = above // 2 if belt else 0
    aa = light_aa_barrels // T.HEURISTIC_AA_BARRELS_PER_BOX
    if light_aa_barrels and aa == 0:
        aa = 1
    guns: list[JSON] = []
    for area, rows in (("main", main), ("secondary", secondary)):
        for name, cal, n, arm, fwd, aft, side, kind in rows:
            guns.append(
                {
                    "name": name,
                    "area": area,
                    "calibre": cal,
                    "kind": kind,
                    "guns": n,
                    "armour": arm,
                    "forward": fwd,
                    "aft": aft,
                    "broadside": True,
                    "side": side,
                }
            )
    torps: list[JSON] = [
        {"name": nm, "calibre": cal, "tubes": tubes, "side": side, "fixed": fixed}
        for nm, cal, tubes, side, fixed in torpedoes
    ]
    return {
        "type": ship_type,
        "tonnage": tonnage,
        "speed": speed,
        "turning": turning,
        "underwater_protection": underwater_protection,
        "belt": belt,
        "radar": radar,
        "aircraft": aircraft,
        "guns": guns,
        "torpedoes": torps,
        "torpedo_reloads": reloads,
        "aa": aa,
        "above": above - armoured,
        "above_armoured": armoured,
        "underwater": max(1, above // 2),
        "engine": T.HEURISTIC_ENGINES[fam],
        "damage_control": T.HEURISTIC_DC[fam],
        "fire_control": T.HEURISTIC_FC[fam],
        "heuristic": True,
    }


def _turrets(
    cal: float, arm: str, fwd: list[int], aft: list[int], kind: str = "standard", names: str = "ABXYZ"
) -> list[Gun]:
    out: list[Gun] = []
    i = 0
    for n in fwd:
        out.append((f"{names[i]} turret", cal, n, arm, True, False, "centre", kind))
        i += 1
    for n in aft:
        out.append((f"{names[i]} turret", cal, n, arm, False, True, "centre", kind))
        i += 1
    return out


def _wings(
    cal: float, arm: str, per_side: list[int], kind: str = "standard", label: str = "secondary"
) -> list[Gun]:
    """Secondary boxes on each beam: ``per_side`` lists the guns in each box on one side."""
    out: list[Gun] = []
    for side in ("port", "starboard"):
        for j, n in enumerate(per_side):
            out.append((f"{side} {label} {j + 1}", cal, n, arm, False, False, side, kind))
    return out


def _tubes(
    cal: int, per_side: list[int], fixed: bool = False, centre: list[int] | None = None
) -> list[tuple[str, int, int, str, bool]]:
    out: list[tuple[str, int, int, str, bool]] = []
    for j, n in enumerate(centre or []):
        out.append((f"centreline mount {j + 1}", cal, n, "centre", fixed))
    for side in ("port", "starboard"):
        for j, n in enumerate(per_side):
            out.append((f"{side} mount {j + 1}", cal, n, side, fixed))
    return out


CLASSES: dict[str, dict[str, JSON]] = {}


def _add(key: str, name: str, nation: str, source: str, stats: dict[str, JSON]) -> None:
    CLASSES[key] = {
        "key": key,
        "name": name,
        "nation": nation,
        "type": str(stats["type"]),
        "stats": stats,
        "source": source + " Boxes by the A4 house heuristic.",
        "heuristic": True,
    }


# --- 01 Denmark Strait ------------------------------------------------------------------------------
_add(
    "hood",
    "Hood",
    "Britain",
    "42,670 t std; 8 x 15 in (4/4/8) turrets B; 14 x 4 in HA in 7 twin; 3 x 8-barrel pom-poms; 4 x 21 in "
    "fixed TT "
    "2 per side, no reloads; ~28-29 kn by 1941 (29 used); UW B, belt B; no FC radar: shared/scenarios/"
    "01_denmark_strait_1941.md; hoopandstick.blogspot.com (HMS Hood).",
    heuristic_stats(
        ship_type="battlecruiser",
        tonnage=42670,
        speed=29,
        main=_turrets(15, "B", [2, 2], [2, 2]),
        secondary=[
            *_wings(4, "", [4, 2], label="4in HA"),
            ("centreline 4in HA", 4, 2, "", False, True, "centre", "standard"),
        ],
        light_aa_barrels=24,
        torpedoes=_tubes(21, [2], fixed=True),
        reloads=0,
        belt="B",
        underwater_protection="B",
        radar="none",
    ),
)
_add(
    "king_george_v",
    "King George V",
    "Britain",
    "36,727 t std; 10 x 14 in (6/4/10) in A quad, B twin, Y quad, armour A; 16 x 5.25 in (8 twin, 8 per "
    "broadside; 5 in row); 4 x 8-barrel pom-poms; 28 kn; UW A, belt A; Type 284: adequate: shared/scenarios/"
    "01_denmark_strait_1941.md; tomstockton.us KGV.",
    heuristic_stats(
        ship_type="battleship",
        tonnage=36727,
        speed=28,
        main=[
            ("A turret", 14, 4, "A", True, False, "centre", "standard"),
            ("B turret", 14, 2, "A", True, False, "centre", "standard"),
            ("Y turret", 14, 4, "A", False, True, "centre", "standard"),
        ],
        secondary=_wings(5.25, "", [4, 4]),
        light_aa_barrels=32,
        torpedoes=[],
        reloads=0,
        belt="A",
        underwater_protection="A",
        radar="adequate",
        aircraft=2,
    ),
)
_add(
    "bismarck",
    "Bismarck",
    "Germany",
    "41,700 t std; 8 x 15 in (4/4/8) armour A; 12 x 5.9 in (6 twin, 3 per side; 6 in new row) and 16 x 4.1 "
    "in HA "
    "(8 twin; 4 in row); ~36 light AA barrels; 30 kn; UW A, belt A; FuMO 23: poor; 4 Arado: shared/scenarios/"
    "01_denmark_strait_1941.md; ww2ships.com Bismarck.",
    heuristic_stats(
        ship_type="battleship",
        tonnage=41700,
        speed=30,
        main=_turrets(15, "A", [2, 2], [2, 2], names="ABCD"),
        secondary=_wings(5.9, "D", [4, 2], kind="new", label="15cm")
        + _wings(4.1, "", [4, 4], label="10.5cm HA"),
        light_aa_barrels=36,
        torpedoes=[],
        reloads=0,
        belt="A",
        underwater_protection="A",
        radar="poor",
        aircraft=4,
    ),
)
_add(
    "admiral_hipper",
    "Admiral Hipper (Prinz Eugen)",
    "Germany",
    "14,680 t std (sources differ); 8 x 8 in (4/4/8) armour D; 12 x 4.1 in HA (6 twin; one box per mount on "
    "cruisers); ~20 light AA barrels; 12 x 21 in in 4 triple mounts, 6 per side, reloads not verified "
    "(none); "
    "32.5 kn; UW D, belt D; FuMO: poor: shared/scenarios/01_denmark_strait_1941.md; "
    "lasecondaguerramondiale.org.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=14680,
        speed=32.5,
        main=_turrets(8, "D", [2, 2], [2, 2], names="ABCD"),
        secondary=_wings(4.1, "", [2, 2, 2], label="10.5cm HA"),
        light_aa_barrels=20,
        torpedoes=_tubes(21, [3, 3]),
        reloads=0,
        belt="D",
        underwater_protection="D",
        radar="poor",
        aircraft=3,
    ),
)

# --- 02 River Plate ---------------------------------------------------------------------------------
_add(
    "deutschland",
    "Deutschland (Admiral Graf Spee)",
    "Germany",
    "12,100 t std; 6 x 11 in (3/3/6) in 2 triple turrets, armour D; 8 x 5.9 in single, 4 per broadside (6 "
    "in new "
    "row); ~18 light AA barrels; 8 x 21 in in 2 quadruple deck mounts, 4 per side, reloads not verified "
    "(none); "
    "28 kn; UW D, belt E (80 mm); Seetakt: poor. A small capital ship (scenario note): capital critical "
    "table, "
    "cruiser turning circle; her boxes use the heuristic's cruiser rates (she has a cruiser's tonnage), a "
    "house "
    "departure from A4 flagged here: shared/scenarios/02_river_plate_1939.md; grokipedia Graf Spee.",
    heuristic_stats(
        ship_type="battleship",
        tonnage=12100,
        speed=28,
        main=_turrets(11, "D", [3], [3]),
        secondary=_wings(5.9, "", [2, 2], kind="new", label="15cm"),
        light_aa_barrels=18,
        torpedoes=_tubes(21, [4]),
        reloads=0,
        belt="E",
        underwater_protection="D",
        radar="poor",
        aircraft=1,
        turning="cruiser",
        family="cruiser",
    ),
)
_add(
    "york",
    "York (Exeter)",
    "Britain",
    "8,390 t std; 6 x 8 in (4/2/6) in 3 twin turrets, armour E (1 in); 4 x 4 in HA single; 2 x 21 in triple "
    "mounts, 3 per side; 32 kn; UW D, belt E (3 in); no radar: shared/scenarios/02_river_plate_1939.md; "
    "navypedia Exeter.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=8390,
        speed=32,
        main=_turrets(8, "E", [2, 2], [2]),
        secondary=_wings(4, "", [1, 1], label="4in HA"),
        light_aa_barrels=8,
        torpedoes=_tubes(21, [3]),
        reloads=0,
        belt="E",
        underwater_protection="D",
        radar="none",
        aircraft=2,
    ),
)
_add(
    "leander",
    "Leander (Ajax, Achilles)",
    "Britain",
    "7,270 t std; 8 x 6 in new (4/4/8) in 4 twin turrets, armour E; 4 x 4 in HA single; 12 x 0.5 in MG; 2 x "
    "21 in "
    "quadruple mounts, 4 per side; 32.5 kn; UW E, belt E (3 in); no radar: shared/scenarios/"
    "02_river_plate_1939.md; navypedia Achilles.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=7270,
        speed=32.5,
        main=_turrets(6, "E", [2, 2], [2, 2], kind="new"),
        secondary=_wings(4, "", [1, 1], label="4in HA"),
        light_aa_barrels=12,
        torpedoes=_tubes(21, [4]),
        reloads=0,
        belt="E",
        underwater_protection="E",
        radar="none",
        aircraft=1,
    ),
)

# --- 04 Guadalcanal, 14-15 November 1942 ------------------------------------------------------------
_add(
    "north_carolina",
    "North Carolina (Washington)",
    "United States",
    "35,000 t std; 9 x 16 in (6/3/9) armour A; 20 x 5 in (10 twin, 10 per broadside); 28 kn; UW A, belt A; "
    "SG + Mk 3: adequate: shared/scenarios/04_guadalcanal_14-15nov1942.md; Wikipedia North Carolina class.",
    heuristic_stats(
        ship_type="battleship",
        tonnage=35000,
        speed=28,
        main=_turrets(16, "A", [3, 3], [3]),
        secondary=_wings(5, "", [4, 4, 2]),
        light_aa_barrels=40,
        torpedoes=[],
        reloads=0,
        belt="A",
        underwater_protection="A",
        radar="adequate",
        aircraft=3,
    ),
)
_add(
    "south_dakota",
    "South Dakota",
    "United States",
    "35,000 t std; 9 x 16 in (6/3/9) armour A; 16 x 5 in (8 twin, 8 per broadside); 27.5 kn; UW A, belt A "
    "(12.2 in inclined); adequate radar: shared/scenarios/04_guadalcanal_14-15nov1942.md; pwencycl South "
    "Dakota.",
    heuristic_stats(
        ship_type="battleship",
        tonnage=35000,
        speed=27.5,
        main=_turrets(16, "A", [3, 3], [3]),
        secondary=_wings(5, "", [4, 4]),
        light_aa_barrels=40,
        torpedoes=[],
        reloads=0,
        belt="A",
        underwater_protection="A",
        radar="adequate",
        aircraft=3,
    ),
)
_dd = "No belt, no underwater protection (scenario)."
_add(
    "sims",
    "Sims (Walke)",
    "United States",
    "1,570 t std; 4 x 5 in (2/2/4); 8 x 21 in in 2 quad centreline mounts, no reloads; 37 kn trials; poor "
    "radar. " + _dd + " shared/scenarios/04_guadalcanal_14-15nov1942.md; midway1942.ru Sims.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1570,
        speed=37,
        main=[
            ("mount 51", 5, 1, "", True, False, "centre", "standard"),
            ("mount 52", 5, 1, "", True, False, "centre", "standard"),
            ("mount 53", 5, 1, "", False, True, "centre", "standard"),
            ("mount 54", 5, 1, "", False, True, "centre", "standard"),
        ],
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(21, [], centre=[4, 4]),
        reloads=0,
        belt="",
        underwater_protection="",
        radar="poor",
    ),
)
_add(
    "benham",
    "Benham",
    "United States",
    "1,637 t std; 4 x 5 in (2/2/4); 16 x 21 in in 4 quad wing mounts (8 per side), no reloads; 38.5 kn; poor "
    "radar. " + _dd + " shared/scenarios/04_guadalcanal_14-15nov1942.md; pwencycl Benham class.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1637,
        speed=38.5,
        main=[
            ("mount 51", 5, 1, "", True, False, "centre", "standard"),
            ("mount 52", 5, 1, "", True, False, "centre", "standard"),
            ("mount 53", 5, 1, "", False, True, "centre", "standard"),
            ("mount 54", 5, 1, "", False, True, "centre", "standard"),
        ],
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(21, [4, 4]),
        reloads=0,
        belt="",
        underwater_protection="",
        radar="poor",
    ),
)
_add(
    "mahan",
    "Mahan (Preston)",
    "United States",
    "1,500 t std; 5 x 5 in (2/3/5); 12 x 21 in, 1 centreline + 2 wing quad mounts (8 per side), no reloads; "
    "37 kn; poor radar. " + _dd + " shared/scenarios/04_guadalcanal_14-15nov1942.md; destroyerhistory.org.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1500,
        speed=37,
        main=[
            ("mount 51", 5, 1, "", True, False, "centre", "standard"),
            ("mount 52", 5, 1, "", True, False, "centre", "standard"),
            ("mount 53", 5, 1, "", False, True, "centre", "standard"),
            ("mount 54", 5, 1, "", False, True, "centre", "standard"),
            ("mount 55", 5, 1, "", False, True, "centre", "standard"),
        ],
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(21, [4], centre=[4]),
        reloads=0,
        belt="",
        underwater_protection="",
        radar="poor",
    ),
)
_add(
    "gleaves",
    "Gleaves (Gwin)",
    "United States",
    "1,630 t std; 4 x 5 in (2/2/4; 4-5 in sources, 4 used); 10 x 21 in in 2 quintuple centreline mounts, no "
    "reloads; 37.4 kn; poor radar. "
    + _dd
    + " shared/scenarios/04_guadalcanal_14-15nov1942.md; Wikipedia Gwin.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1630,
        speed=37.4,
        main=[
            ("mount 51", 5, 1, "", True, False, "centre", "standard"),
            ("mount 52", 5, 1, "", True, False, "centre", "standard"),
            ("mount 53", 5, 1, "", False, True, "centre", "standard"),
            ("mount 54", 5, 1, "", False, True, "centre", "standard"),
        ],
        secondary=[],
        light_aa_barrels=6,
        torpedoes=_tubes(21, [], centre=[5, 5]),
        reloads=0,
        belt="",
        underwater_protection="",
        radar="poor",
    ),
)
_add(
    "kongo",
    "Kongo (Kirishima)",
    "Japan",
    "31,720 t std (1937); 8 x 14 in (4/4/8) armour C (9 in turrets); 16 x 6 in casemates as built, 8 per "
    "broadside (6 in old row); 30.5 kn; UW C, belt C (8 in); no radar: shared/scenarios/"
    "04_guadalcanal_14-15nov1942.md; Kongo class.",
    heuristic_stats(
        ship_type="battlecruiser",
        tonnage=31720,
        speed=30.5,
        main=_turrets(14, "C", [2, 2], [2, 2]),
        secondary=_wings(6, "", [4, 4], kind="old", label="casemates"),
        light_aa_barrels=20,
        torpedoes=[],
        reloads=0,
        belt="C",
        underwater_protection="C",
        radar="none",
        aircraft=3,
    ),
)
_add(
    "takao",
    "Takao (Atago, Takao)",
    "Japan",
    "~11,350 t std; 10 x 8 in (6/4/10) armour D (1 in turrets; D per scenario); 4 x 4.7 in HA single (5 in "
    "row); "
    "16 x 24 in in 4 quad mounts, 8 per side, 8 reloads; 34-35.5 kn (34 used); UW D, belt D; no radar: "
    "shared/scenarios/04_guadalcanal_14-15nov1942.md; combinedfleet.com.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=11350,
        speed=34,
        main=_turrets(8, "D", [2, 2, 2], [2, 2], names="12345"),
        secondary=_wings(4.7, "", [1, 1], label="12cm HA"),
        light_aa_barrels=8,
        torpedoes=_tubes(24, [4, 4]),
        reloads=8,
        belt="D",
        underwater_protection="D",
        radar="none",
        aircraft=3,
    ),
)
_add(
    "nagara",
    "Nagara",
    "Japan",
    "5,170 t std; 7 x 5.5 in single (~6 per broadside; 6 in old row), armour E; 8 x 24 in in 4 twin mounts, "
    "4 per "
    "side, 8 reloads (reloads per the scenario); 36 kn; UW E, belt E; no radar: shared/scenarios/"
    "04_guadalcanal_14-15nov1942.md; Nagara class.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=5170,
        speed=36,
        main=[
            ("No. 1 gun", 5.5, 1, "", True, False, "centre", "old"),
            ("No. 2 gun", 5.5, 1, "", True, False, "centre", "old"),
            ("port No. 3-4 guns", 5.5, 2, "", False, False, "port", "old"),
            ("starboard No. 3-4 guns", 5.5, 2, "", False, False, "starboard", "old"),
            ("No. 7 gun", 5.5, 1, "", False, True, "centre", "old"),
        ],
        secondary=[],
        light_aa_barrels=8,
        torpedoes=_tubes(24, [2, 2]),
        reloads=8,
        belt="E",
        underwater_protection="E",
        radar="none",
        aircraft=1,
    ),
)
_add(
    "sendai",
    "Sendai",
    "Japan",
    "5,195 t std; 7 x 5.5 in single (~6 per broadside; 6 in old row); 8 x 24 in in 4 twin mounts, 4 per "
    "side, "
    "8 reloads; 35.25 kn; UW E, belt E; no radar: shared/scenarios/04_guadalcanal_14-15nov1942.md; "
    "shipshub.com.",
    heuristic_stats(
        ship_type="cruiser",
        tonnage=5195,
        speed=35.25,
        main=[
            ("No. 1 gun", 5.5, 1, "", True, False, "centre", "old"),
            ("No. 2 gun", 5.5, 1, "", True, False, "centre", "old"),
            ("port No. 3-4 guns", 5.5, 2, "", False, False, "port", "old"),
            ("starboard No. 3-4 guns", 5.5, 2, "", False, False, "starboard", "old"),
            ("No. 7 gun", 5.5, 1, "", False, True, "centre", "old"),
        ],
        secondary=[],
        light_aa_barrels=8,
        torpedoes=_tubes(24, [2, 2]),
        reloads=8,
        belt="E",
        underwater_protection="E",
        radar="none",
        aircraft=1,
    ),
)
_add(
    "fubuki",
    "Fubuki (Shirayuki, Hatsuyuki, Inazuma, Shikinami, Uranami, Ayanami)",
    "Japan",
    "1,750 t std; 6 x 5 in in 3 twin mounts (2/4/6); 9 x 24 in in 3 triple centreline mounts, 9 reloads "
    "(18 torpedoes as built); 34-38 kn (35 used); no radar. " + _dd + " shared/scenarios/"
    "04_guadalcanal_14-15nov1942.md; pwencycl Fubuki class.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1750,
        speed=35,
        main=_turrets(5, "", [2], [2, 2]),
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(24, [], centre=[3, 3, 3]),
        reloads=9,
        belt="",
        underwater_protection="",
        radar="none",
    ),
)
_add(
    "asashio",
    "Asashio (Asagumo)",
    "Japan",
    "2,000 t std; 6 x 5 in (2/4/6); 8 x 24 in in 2 quad centreline mounts, 8 reloads; 35 kn; no radar. "
    + _dd
    + " shared/scenarios/04_guadalcanal_14-15nov1942.md; navypedia Asashio.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=2000,
        speed=35,
        main=_turrets(5, "", [2], [2, 2]),
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(24, [], centre=[4, 4]),
        reloads=8,
        belt="",
        underwater_protection="",
        radar="none",
    ),
)
_add(
    "shiratsuyu",
    "Shiratsuyu (Samidare)",
    "Japan",
    "1,685 t std; 5 x 5 in (2/3/5); 8 x 24 in in 2 quad centreline mounts, 8 reloads; 34 kn; no radar. "
    + _dd
    + " shared/scenarios/04_guadalcanal_14-15nov1942.md; Shiratsuyu class.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=1685,
        speed=34,
        main=_turrets(5, "", [2], [1, 2]),
        secondary=[],
        light_aa_barrels=4,
        torpedoes=_tubes(24, [], centre=[4, 4]),
        reloads=8,
        belt="",
        underwater_protection="",
        radar="none",
    ),
)
_add(
    "akizuki",
    "Akizuki (Teruzuki)",
    "Japan",
    "2,700 t std; 8 x 3.9 in in 4 twin mounts (4/4/8; 4 in row); 4 x 24 in in 1 quad centreline mount, 4 "
    "reloads; 33 kn; no radar. "
    + _dd
    + " shared/scenarios/04_guadalcanal_14-15nov1942.md; pwencycl Akizuki.",
    heuristic_stats(
        ship_type="destroyer",
        tonnage=2700,
        speed=33,
        main=_turrets(3.9, "", [2, 2], [2, 2]),
        secondary=[],
        light_aa_barrels=8,
        torpedoes=_tubes(24, [], centre=[4]),
        reloads=4,
        belt="",
        underwater_protection="",
        radar="none",
    ),
)


def reference_classes() -> tuple[dict[str, JSON], ...]:
    """Return every bundled class (``{"key", "name", "nation", "type", "stats", "source", "heuristic"}``)."""
    return tuple(CLASSES[k] for k in sorted(CLASSES))


def scenario_classes(keys: list[str]) -> list[JSON]:
    """Return the bundled classes a scenario uses, in the given order."""
    return [CLASSES[k] for k in keys]
