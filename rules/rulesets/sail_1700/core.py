"""Pure look-ups of ``sail_1700``: the charts of :mod:`.tables` read as the S-rulings say.

Nothing here touches a battle state: numbers in, numbers out. Units: millimetres, degrees clockwise from
north. Source: ``seeds/001_bb5ec6dbb79b532f.txt``; rulings S01-S46 (``../shared/rulings.md``) and NW-SAIL-n
(``docs/rulings.md``).
"""

from __future__ import annotations

import math

from ...base import round_half_up
from ...dice import decimal_as_1_100
from ...geometry import signed_deg
from . import tables as T


def wind_from_roll(d100: int) -> tuple[str, float]:
    """Return (name, degrees the wind blows from) for a roll of two decimal dice 00-99 (3.; S01, S02: 00 =
    100)."""
    n = decimal_as_1_100(d100)
    for low, high, name, deg in T.WIND_DIRECTION:
        if low <= n <= high:
            return name, deg
    raise ValueError(f"no wind band for {n}")  # pragma: no cover - the table covers 1-100


def weather_from_number(n: int) -> tuple[str, str, int | None]:
    """Return (condition, wind force, visibility mm or None = unlimited) for a weather number 1-100 (4.;
    S04)."""
    for low, high, cond, force, vis in T.WEATHER_CHART:
        if low <= n <= high:
            return cond, force, vis
    raise ValueError(f"no weather band for {n}")


def wind_force_text(force: str) -> str:
    """Return a wind force as the texts write it, with its article: the weather chart's label ("a calm", "a
    light breeze", "a strong breeze", "a gale": 4., :data:`.tables.WIND_FORCE_LABELS`; NW-SAIL-35), not the
    key with "breeze" after it ("a gale breeze"). A force not of the chart reads "a <force> wind"."""
    label = T.WIND_FORCE_LABELS.get(force)
    return f"a {label}" if label is not None else f"a {force} wind"


def weather_number_for(condition: str, force: str) -> int | None:
    """Return the middle weather number of the best-visibility band with this condition and wind (set-ups)."""
    best: tuple[float, int] | None = None
    for low, high, cond, f, vis in T.WEATHER_CHART:
        if cond == condition and f == force:
            key = math.inf if vis is None else float(vis)
            if best is None or key > best[0]:
                best = (key, (low + high) // 2)
    return None if best is None else best[1]


def weather_step(current: int, target: int) -> int:
    """Return the weather number one move later: 10 points toward ``target``, the last step shorter (S06)."""
    if abs(target - current) <= T.WEATHER_STEP_PER_MOVE:
        return target
    return current + (T.WEATHER_STEP_PER_MOVE if target > current else -T.WEATHER_STEP_PER_MOVE)


def wind_step(current: float, target: float, sense: str) -> float:
    """Return the wind direction one move later: 45 degrees toward ``target`` in ``sense`` (veer = clockwise,
    S03).

    The last step is shorter when less than 45 degrees remain that way round.
    """
    if abs(signed_deg(target - current)) < 1e-9:
        return target % 360.0
    remaining = (target - current) % 360.0 if sense == "veer" else (current - target) % 360.0
    step = min(T.WIND_SHIFT_PER_MOVE_DEG, remaining)
    return (current + step) % 360.0 if sense == "veer" else (current - step) % 360.0


def visibility_mm(base: int | None, night: bool) -> float | None:
    """Return the visibility in mm: the weather's, halved at night (4., A2); None = unlimited."""
    if base is None:
        return None
    return base * T.NIGHT_VISIBILITY_FACTOR if night else float(base)


def weather_effect(condition: str, force: str) -> tuple[str, float]:
    """Return (firing rule, speed factor) for the weather (5.; S05). Unlisted pairs: normal firing and
    speed."""
    return T.WEATHER_EFFECTS.get((condition, force), ("all", 1.0))


def is_rated(rate: str) -> bool:
    """Return True for 1st to 6th rates (the 'rated vessels' of 5. and 11.)."""
    return rate != "unrated"


def efficiency_grade(d6: int) -> str:
    """Return the crew efficiency grade for an ordinary die (8.)."""
    return T.EFFICIENCY_GRADES[d6]


def point_of_sailing(heading: float, wind_from: float) -> tuple[str, float]:
    """Return (sector, theta): theta = angle between heading and the wind's eye, 0-180 (S08).

    Sectors: ``irons`` (< 22.5, not allowed except tacking), ``bow``, ``beam_quarter``, ``aft``.
    """
    theta = abs(signed_deg(wind_from - heading))
    for bound, name in T.POINTS_OF_SAILING:
        if theta < bound:
            return name, theta
    return "aft", theta  # pragma: no cover


def base_speed(rate: str, sector: str) -> float:
    """Return the sailing speed in mm per move for a rate and a point of sailing (6.; S07). Irons: 0."""
    if sector == "irons":
        return 0.0
    return float(T.SAILING_SPEEDS[T.RATE_SPEED_GROUP[rate]][sector])


def speed_reduction_pct(mast_hits: int, severe_underwater: bool) -> int:
    """Return the cumulative reduction of sailing speed in percent of base speed (S11: the percentages
    add)."""
    return mast_hits * T.MAST_DAMAGE_REDUCTION_PCT + (
        T.SEVERE_UNDERWATER_REDUCTION_PCT if severe_underwater else 0
    )


def turning_radius(rate: str) -> float:
    """Return the radius in mm of the vessel's turning circle (29.; NW-SAIL-1)."""
    return T.TURNING_CIRCLE_DIAMETER_MM[T.TURNING_CIRCLE_BY_RATE[rate]] / 2.0


def crosses_fore(heading: float, turn: float, wind_from: float) -> bool:
    """Return True if turning ``turn`` degrees from ``heading`` would pass through or end in the 'Fore'
    section.

    The Fore section is within 22.5 degrees either side of the wind's eye (S43). A vessel that starts inside
    it (in irons after a wind shift or a wheel hit) may turn out of it the short way (NW-SAIL-2).
    """
    a = signed_deg(wind_from - heading)  # where the wind is, relative to the bow (+ = starboard)
    b = a - turn  # relative wind after the turn, unwrapped
    lo, hi = min(a, b), max(a, b)
    f = T.CLOSEST_TO_WIND_DEG
    in_irons = abs(a) < f
    for k in (-2, -1, 0, 1, 2):
        c = 360.0 * k
        if in_irons and k == 0:
            away = (a >= 0 and turn <= 0) or (a <= 0 and turn >= 0)
            if not away or abs(b) < f - 1e-9:
                return True
            continue
        if lo < c + f - 1e-9 and hi > c - f + 1e-9:
            return True
    return False


def range_band(distance: float, rate: str, double: bool = False) -> str | None:
    """Return ``short``, ``medium``, ``long`` or None (out of range) for a firer of ``rate`` (11.).

    Bounds are inclusive (100 mm is short for rated vessels, 101 medium). Double shot halves every range.
    """
    bands = T.GUNNERY_RANGES["rated" if is_rated(rate) else "unrated"]
    factor = T.DOUBLE_SHOT_RANGE_FACTOR if double else 1.0
    for bound, name in zip(bands, ("short", "medium", "long"), strict=True):
        if distance <= bound * factor + 1e-9:
            return name
    return None


def max_range(rate: str, double: bool = False) -> float:
    """Return the longest range in mm of a firer of ``rate`` (11.)."""
    bands = T.GUNNERY_RANGES["rated" if is_rated(rate) else "unrated"]
    return bands[2] * (T.DOUBLE_SHOT_RANGE_FACTOR if double else 1.0)


def in_arc_of_fire(rel_bearing: float, arc: float = T.ARC_OF_FIRE_DEG) -> bool:
    """Return True if a relative bearing lies within ``arc`` degrees of either beam (S12)."""
    return abs(abs(rel_bearing) - 90.0) <= arc + 1e-9


def rake_of(target_rel_to_firer: float) -> str | None:
    """Return ``bow`` or ``stern`` if the firer lies on the target's keel line ahead or astern (S13,
    NW-SAIL-3).

    ``target_rel_to_firer`` is the bearing from the target to the firer relative to the target's bow.
    """
    r = abs(target_rel_to_firer)
    if r <= T.RAKE_ARC_DEG + 1e-9:
        return "bow"
    if r >= 180.0 - T.RAKE_ARC_DEG - 1e-9:
        return "stern"
    return None


def nationality_modifier(nation: str) -> int:
    """Return +1 British or American, 0 Dutch, Danish or French, -1 any other nation (12.)."""
    if nation in T.NATION_BONUS:
        return T.FIRING_FACTOR_MODIFIERS["british_american"]
    if nation in T.NATION_NEUTRAL:
        return 0
    return T.FIRING_FACTOR_MODIFIERS["other_nationality"]


def firing_factor_modifiers(
    *,
    grade: str,
    nation: str,
    range_name: str,
    rake: str | None = None,
    land_based: bool = False,
    first_time: bool = False,
    wind_force: str = "moderate",
    merchant: bool = False,
) -> list[tuple[str, int]]:
    """Return the firing-factor modifiers that apply, as (label citing the rule, value) (12.; S13, S15)."""
    m = T.FIRING_FACTOR_MODIFIERS
    out: list[tuple[str, int]] = []
    if rake == "stern":
        out.append(("stern rake (12., S13)", m["stern_rake"]))
    elif rake == "bow":
        out.append(("bow rake (12., S13)", m["bow_rake"]))
    if land_based:
        out.append(("guns land based (12.)", m["land_based"]))
    if grade == "good":
        out.append(("efficiency Good (12.)", m["grade_good"]))
    elif grade == "poor":
        out.append(("efficiency Poor (12.)", m["grade_poor"]))
    nat = nationality_modifier(nation)
    if nat > 0:
        out.append(("British or American (12.)", nat))
    elif nat < 0:
        out.append((f"nationality {nation} (12.)", nat))
    if range_name == "short":
        out.append(("short range (12.)", m["short_range"]))
    elif range_name == "long":
        out.append(("long range (12.)", m["long_range"]))
    if first_time:
        out.append(("first time fired (12., S15)", m["first_time_fired"]))
    if wind_force in ("calm", "light"):
        out.append(("calm or light breeze (12.)", m["calm_or_light"]))
    elif wind_force == "strong":
        out.append(("strong breeze (12.)", m["strong_breeze"]))
    elif wind_force == "gale":
        out.append(("gale (12.)", m["gale"]))
    if merchant:
        out.append(("merchantman or transport firing (12., S15)", m["merchant_or_transport"]))
    return out


def chart_cell(count: int, ff: int) -> tuple[int, int]:
    """Return (points, guns destroyed / casualties) for 1-30 guns or men at a firing factor (28.; S14).

    FF <= 0: no effect; FF >= 20 reads column 19. ``count`` must be 0-30 (0 gives no effect).
    """
    if count <= 0 or ff < T.FF_MIN_EFFECT:
        return 0, 0
    if count > T.CHART_MAX_ROW:
        raise ValueError(f"{count} is beyond the chart's 30 rows; use chart_result")
    col = min(ff, T.FF_MAX_COLUMN)
    return T.GUNNERY_CHART[count - 1][col - 1]


def split_count(count: int) -> list[int]:
    """Return the parts a count is looked up in: as many 30s as possible, then the remainder (S22)."""
    parts = [T.CHART_MAX_ROW] * (count // T.CHART_MAX_ROW)
    if count % T.CHART_MAX_ROW:
        parts.append(count % T.CHART_MAX_ROW)
    return parts


def chart_result(count: int, ff: int, double: bool = False) -> tuple[int, int]:
    """Return (points, bracket figure) for any number of guns or men (28.; S22 split; double shot doubles)."""
    if 0 < count <= T.CHART_MAX_ROW:
        # one part (S22 splits beyond 30 rows only): chart_cell() of it, written out (every broadside)
        if ff < T.FF_MIN_EFFECT:
            return 0, 0
        pts, bracket = T.GUNNERY_CHART[count - 1][(ff if ff < T.FF_MAX_COLUMN else T.FF_MAX_COLUMN) - 1]
        return (2 * pts, 2 * bracket) if double else (pts, bracket)
    pts = 0
    bracket = 0
    for part in split_count(count):
        p, b = chart_cell(part, ff)
        pts += p
        bracket += b
    if double:
        return 2 * pts, 2 * bracket
    return pts, bracket


def damage_rolls(points: int) -> int:
    """Return how many damage-chart rolls a volley of ``points`` gives: one per 50 or part (S24)."""
    if points <= 0:
        return 0
    return -(-points // T.DAMAGE_POINTS_PER_ROLL)


def _damage_band(d100: int) -> str:
    for low, high, code in T.DAMAGE_CHART:
        if low <= d100 <= high:
            return code
    raise ValueError(f"no damage band for {d100}")


DAMAGE_BY_ROLL: tuple[str, ...] = tuple(_damage_band(v) for v in range(100))
"""The damage chart read once for every roll 00-99 (:func:`damage_result` of each)."""


def damage_result(d100: int) -> str:
    """Return the damage-chart result code for two decimal dice read 00-99 (13.; S02: 00 = 0)."""
    return DAMAGE_BY_ROLL[d100] if 0 <= d100 < 100 else _damage_band(d100)


def fire_needed(attempt: int, third_exact: bool = False) -> tuple[int, bool]:
    """Return (score, exact) needed on the average die to put out a fire at attempt 1-4 (14.; S27)."""
    needed = T.FIRE_ATTEMPT_NEEDED[attempt - 1]
    return needed, third_exact and attempt == 3


def rake_gun_split(lost: int, starboard: int, port: int) -> tuple[int, int]:
    """Return (starboard, port) guns lost in a rake: evenly split (S26); an odd gun from the side with more
    guns left, starboard on a tie (NW-SAIL-6)."""
    half = lost // 2
    sb, pt = half, half
    if lost % 2:
        if port > starboard:
            pt += 1
        else:
            sb += 1
    return sb, pt


def separation_modifiers(same_side: bool, broadside_to_broadside: bool) -> list[tuple[str, int]]:
    """Return the modifiers to the average die to separate entangled vessels (19.; S33)."""
    out: list[tuple[str, int]] = []
    if same_side:
        out.append(("vessels on the same side (19., S33)", T.ENTANGLE_MODIFIERS["same_side"]))
    if broadside_to_broadside:
        out.append(("broadside to broadside (19.)", T.ENTANGLE_MODIFIERS["broadside_to_broadside"]))
    return out


def broadside_to_broadside(h1: float, h2: float) -> bool:
    """Return True when two keels lie within 45 degrees of parallel (either way round; NW-SAIL-5)."""
    d = abs(signed_deg(h1 - h2))
    return d <= T.BROADSIDE_TO_BROADSIDE_DEG or d >= 180.0 - T.BROADSIDE_TO_BROADSIDE_DEG


def entangled_motion(h1: float, s1: float, h2: float, s2: float) -> tuple[float, int]:
    """Return (heading, mm) of an entangled pair: the average of both courses and speeds (19.; S34 whole mm).

    The heading is the mean of the two direction vectors weighted equally; opposite courses keep the first.
    """
    x = math.sin(math.radians(h1)) + math.sin(math.radians(h2))
    y = math.cos(math.radians(h1)) + math.cos(math.radians(h2))
    heading = h1 % 360.0 if abs(x) < 1e-9 and abs(y) < 1e-9 else math.degrees(math.atan2(x, y)) % 360.0
    return heading, math.floor((s1 + s2) / 2.0)


def ships_boats(rate: str) -> int:
    """Return the boats a vessel carries (20.)."""
    return T.SHIPS_BOATS[rate]


def grounding_depth(rate: str, guns: int) -> int:
    """Return the depth in fathoms at or below which the vessel runs aground (21.; S36)."""
    if rate in T.GROUNDING_DEPTH_BY_RATE:
        return T.GROUNDING_DEPTH_BY_RATE[rate]
    for low, high, fathoms in T.GROUNDING_DEPTH_BY_GUNS:
        if guns >= low and (high is None or guns <= high):
            return fathoms
    raise ValueError(f"no grounding depth for {guns} guns")  # pragma: no cover


def grounding_damage(points_start: int) -> int:
    """Return the points lost on running aground: 10% of the starting points, rounded (21.; S37)."""
    return round_half_up(points_start * T.GROUNDING_DAMAGE_FRACTION)


def refloat_total(avg: int, helpers: int) -> int:
    """Return the refloating score: the average die +1 per assisting vessel (21.; S35); 5 floats off."""
    return avg + helpers * T.REFLOAT_ASSIST_BONUS


def decks(rate: str) -> int:
    """Return the decks fought over in boarding (15.; S30)."""
    return T.DECKS_BY_RATE[rate]


def boarding_party(points: int) -> int:
    """Return the men an attacker boards with: all but 20% left aboard, rounded (15.)."""
    return points - round_half_up(points * T.BOARDING_LEAVE_ABOARD_FRACTION)


def boarding_modifiers(grade: str, nation: str) -> list[tuple[str, int]]:
    """Return the boarding die modifiers: efficiency grade and nationality (15.; S29)."""
    out: list[tuple[str, int]] = []
    if grade == "good":
        out.append(("efficiency Good (15., S29)", T.BOARDING_MODIFIERS["grade_good"]))
    elif grade == "poor":
        out.append(("efficiency Poor (15., S29)", T.BOARDING_MODIFIERS["grade_poor"]))
    nat = nationality_modifier(nation)
    if nat:
        out.append((f"nationality {nation} (15., S29)", nat))
    return out


def melee_casualties(men: int, roll: int) -> int:
    """Return the casualties a party of ``men`` inflicts with a modified roll (15.; S29: <= 0 none; S22
    split)."""
    if roll <= 0 or men <= 0:
        return 0
    return chart_result(men, roll)[1]


def prize_crew(points_start: int) -> int:
    """Return the prize crew: 10% of the captured class's full crew, rounded (16.)."""
    return round_half_up(points_start * T.PRIZE_CREW_FRACTION)


def marines(points: int, guns: int) -> int:
    """Return the marines aboard: one per gun on vessels of over 101 points (25.; S40, part of the crew)."""
    return guns if points > T.MARINES_ABOVE_POINTS else 0


def can_row(points_start: int) -> bool:
    """Return True if the vessel may be rowed: 99 points or less (10.; S40 literal). The points are the
    vessel's size: a merchantman's or transport's comparable man of war's (NW-SAIL-37)."""
    return points_start <= T.ROW_MAX_POINTS


def merchant_points(man_of_war_points: int) -> int:
    """Return a merchantman's crew/damage points: 10% of a man of war of comparable size (26.)."""
    return round_half_up(man_of_war_points * T.MERCHANT_CREW_FRACTION)


def transport_from(guns: int, points: int) -> tuple[int, int]:
    """Return (guns, points) of a transport converted from a man of war: half the guns, 10% crew (26.;
    S41)."""
    return guns - round_half_up(guns * T.TRANSPORT_GUNS_FRACTION), round_half_up(
        points * T.TRANSPORT_CREW_FRACTION
    )


def guns_per_side(guns: int) -> tuple[int, int]:
    """Return (starboard, port): half each, the odd gun to starboard (S42)."""
    return guns - guns // 2, guns // 2


def mortar_ranging(d100: int) -> tuple[str, float]:
    """Return (result, fraction of the distance) for the mortar ranging roll (23.; S02: 00 = 100)."""
    n = decimal_as_1_100(d100)
    for low, high, name, frac in T.MORTAR_RANGING:
        if low <= n <= high:
            return name, frac
    raise ValueError(f"no ranging band for {n}")  # pragma: no cover


def battery_points(guns: int, construction: str) -> int:
    """Return a shore battery's damage points: per 2 mm gun section 10 open, 30 earth, 40 stone (24.)."""
    return guns * T.BATTERY_POINTS_PER_GUN[construction]


def battery_garrison(guns: int) -> int:
    """Return the garrison of a permanent battery: six men a gun plus 50% marines or troops (24.)."""
    base = guns * T.BATTERY_GARRISON_PER_GUN
    return base + round_half_up(base * T.BATTERY_GARRISON_TROOPS_FRACTION)


def battery_hit_radius(guns: int) -> float:
    """Return how near (mm) a mortar shell must fall to a battery's position to hit it: 20 mm as for a vessel
    (NW-SAIL-9), or half the battery's frontage of 2 mm a gun when that is longer (24.; NW-SAIL-26)."""
    return max(T.MORTAR_HIT_RADIUS_MM, guns * T.BATTERY_GUN_SPACING_MM / 2.0)


def works_men_moves(task: str) -> int:
    """Return the men-moves one unit of a shore work takes: men x moves of 24. (line 337).

    ``task`` is ``prepare`` (one gun position: 20 x 10 = 200), ``gun`` (position one gun: 15 x 5 = 75) or
    ``earthworks`` (2 mm: 10 x 10 = 100). Raises KeyError for another task. NW-SAIL-23: the work is counted in
    men-moves, so 10 men prepare a position in 20 moves.
    """
    men, moves = T.BATTERY_WORKS[T.WORKS_TASKS[task]]
    return men * moves


def works_moves_needed(task: str, men: int, units: int = 1) -> int:
    """Return the working moves ``men`` need for ``units`` of a task (24.; NW-SAIL-23), rounded up.

    Raises ValueError when ``men`` is not positive.
    """
    if men <= 0:
        raise ValueError("a working party needs at least one man")
    return -(-works_men_moves(task) * units // men)


def works_party_max(points: int, points_start: int) -> int:
    """Return the most men a vessel may land: all but 20% of her starting points, rounded up, stay aboard
    (NW-SAIL-23; S41: men are crew/damage points). Never negative."""
    keep = math.ceil(points_start * T.WORKS_KEEP_ABOARD_FRACTION - 1e-9)
    return max(0, points - keep)


def works_section_points(earthed: bool) -> int:
    """Return the points of one 2 mm gun section of a battery raised by a party: 30 behind earthworks, else
    10 (open) (24.)."""
    return T.BATTERY_POINTS_PER_GUN["earth" if earthed else "open"]


def manned_guns(guns: int, party: int) -> int:
    """Return the guns a working party can serve: six men a gun (24.; NW-SAIL-25)."""
    return max(0, min(guns, party // T.WORKS_MEN_PER_GUN))


def weather_guns_allowed(guns: int, rate: str, firing: str) -> int:
    """Return how many of ``guns`` may fire in the weather (5.; S44: floor(guns / 3) may not)."""
    if firing == "none":
        return 0
    if firing in ("rated", "rated_two_thirds") and not is_rated(rate):
        return 0
    if firing == "rated_two_thirds":
        return guns - guns // 3
    return guns
