"""factory-boy factories shared by all tests."""

import factory
from django.contrib.auth import get_user_model

# Long enough for the 12-character minimum; every factory user has it unless a test says otherwise.
DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"captain{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@club.invalid")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    password = factory.django.Password(DEFAULT_PASSWORD)
    is_active = True


class StaffUserFactory(UserFactory):
    username = factory.Sequence(lambda n: f"umpire{n}")
    is_staff = True


# --- battles ---------------------------------------------------------------------------------------------
# Campaigns, sides and memberships; ``scenario_campaign`` builds a whole playable campaign from a bundled
# scenario, ``big_battle`` a battle with N ultra_simple ships (query-count tests).


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "battles.Campaign"

    name = factory.Sequence(lambda n: f"Campaign {n}")
    ruleset = "ultra_simple"
    settings = factory.LazyFunction(
        lambda: {"default_orders": "fire_nearest", "deadline_hours": 48, "reminder_hours": 12}
    )
    created_by = factory.SubFactory(StaffUserFactory)


class SideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "battles.Side"
        django_get_or_create = ("campaign", "key")

    campaign = factory.SubFactory(CampaignFactory)
    key = factory.Sequence(lambda n: f"side{n}")
    name = factory.LazyAttribute(lambda side: side.key.title())
    colour = "#336699"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "battles.Membership"

    side = factory.SubFactory(SideFactory)
    campaign = factory.LazyAttribute(lambda m: m.side.campaign if m.side is not None else CampaignFactory())
    user = factory.SubFactory(UserFactory)
    role = "player"


class UmpireMembershipFactory(MembershipFactory):
    side = None
    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(StaffUserFactory)
    role = "umpire"


# --- fleets ------------------------------------------------------------------------------------------------

# A valid Ultra Simple class (seed 003's Bismarck). Other rule sets: pass ruleset= and stats= (for example a
# bundled class's stats from fleets.reference.reference_classes()).
ULTRA_SIMPLE_STATS = {
    "type": "battleship",
    "tonnage": 41700,
    "belt": 12.6,
    "speed": 30,
    "guns": [{"calibre": 15, "forward": 4, "aft": 4, "broadside": 8}],
}


class NationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "fleets.Nation"
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Nation {n}")
    short_name = factory.LazyAttribute(lambda nation: nation.name[:3].upper())
    colour = "#1f4e9c"


class ShipClassFactory(factory.django.DjangoModelFactory):
    """An ultra_simple battleship class (KGV's numbers, seed 003)."""

    class Meta:
        model = "fleets.ShipClass"
        django_get_or_create = ("ruleset", "key")

    ruleset = "ultra_simple"
    key = factory.Sequence(lambda n: f"class{n}")
    name = factory.LazyAttribute(lambda c: c.key.title())
    nation = factory.SubFactory(NationFactory)
    type = "battleship"
    stats = factory.LazyFunction(
        lambda: {
            "type": "battleship",
            "tonnage": 36727,
            "belt": 14.7,
            "speed": 28,
            "guns": [{"calibre": 14, "forward": 6, "aft": 4, "broadside": 10}],
        }
    )
    source_note = "Factory data."
    heuristic = False


class ShipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "fleets.Ship"

    name = factory.Sequence(lambda n: f"HMS Ship {n}")
    ship_class = factory.SubFactory(ShipClassFactory)


class CampaignShipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "battles.CampaignShip"

    side = factory.SubFactory(SideFactory)
    campaign = factory.LazyAttribute(lambda cs: cs.side.campaign)
    ship = factory.SubFactory(ShipFactory)


class ScenarioCampaign:
    """A campaign made from a bundled scenario: an umpire, one player per side, and an active battle."""

    def __init__(self, *, campaign, umpire, players, battle) -> None:  # type: ignore[no-untyped-def]
        self.campaign = campaign
        self.umpire = umpire
        self.players = players  # side key -> user
        self.battle = battle

    @property
    def phase(self):  # type: ignore[no-untyped-def]
        from battles.selectors import phase_current

        return phase_current(battle=self.battle)

    def side(self, key: str):  # type: ignore[no-untyped-def]
        return self.campaign.sides.get(key=key)


def scenario_campaign(
    scenario_key: str = "bismarck_last_battle_1941", *, settings: dict | None = None, **battle_kwargs
) -> ScenarioCampaign:  # type: ignore[type-arg]
    """Return a campaign of the scenario's rule set with its sides, an umpire, a player per side and the
    battle created from the scenario (started: its first phase is open)."""
    from battles import services
    from rules.scenario import bundled_scenarios

    scenario = bundled_scenarios()[scenario_key]
    umpire = StaffUserFactory()
    campaign = services.campaign_create(
        name=f"{scenario.name} campaign",
        ruleset=scenario.ruleset,
        created_by=umpire,
        settings=settings if settings is not None else {"default_orders": "fire_nearest"},
        sides=[{"key": s.key, "name": s.name, "colour": s.colour} for s in scenario.sides],
    )
    players = {}
    for side in campaign.sides.all():
        players[side.key] = UserFactory()
        services.membership_add(campaign=campaign, user=players[side.key], role="player", side=side)
    battle = services.battle_create_from_scenario(
        campaign=campaign, scenario_key=scenario_key, user=umpire, **battle_kwargs
    )
    return ScenarioCampaign(campaign=campaign, umpire=umpire, players=players, battle=battle)


def big_battle(n_ships: int, *, settings: dict | None = None) -> ScenarioCampaign:  # type: ignore[type-arg]
    """Return an active ultra_simple battle of ``n_ships`` ships, half a side each, facing each other across a
    60 x 60 hex map, 2 hexes apart in their lines (out of range of each other at first: 12+ hexes)."""
    from battles import services
    from rules.geometry import offset_to_hex
    from rules.model import MapSpec

    umpire = StaffUserFactory()
    campaign = services.campaign_create(
        name=f"Big battle {n_ships}",
        ruleset="ultra_simple",
        created_by=umpire,
        settings=settings if settings is not None else {"default_orders": "fire_nearest"},
        sides=[{"key": "north", "name": "North Fleet"}, {"key": "south", "name": "South Fleet"}],
    )
    players = {}
    ship_class = ShipClassFactory()
    placements = []
    for index, side in enumerate(campaign.sides.order_by("pk")):
        players[side.key] = UserFactory()
        services.membership_add(campaign=campaign, user=players[side.key], role="player", side=side)
        for i in range(n_ships // 2):
            cship = CampaignShipFactory(side=side, ship=ShipFactory(ship_class=ship_class))
            col, row = (i % 28) * 2 + 1, (i // 28) * 2 + (1 if index == 0 else 40)
            placements.append(
                services.Placement(
                    campaign_ship=cship,
                    position=offset_to_hex(col, row),
                    heading=0.0 if index == 1 else 180.0,
                    speed=1,
                    ship_key=f"{side.key}{i}",
                )
            )
    battle = services.battle_create(
        campaign=campaign,
        user=umpire,
        name=f"Battle of {n_ships}",
        placements=placements,
        map_spec=MapSpec(geometry="hex12", width=60, height=60),
    )
    return ScenarioCampaign(campaign=campaign, umpire=umpire, players=players, battle=battle)
