"""factory-boy factories shared by all tests."""

import copy

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

    name = factory.Sequence(lambda n: f"Ruritania {n}")
    short_name = factory.LazyAttribute(lambda nation: nation.name[:3].upper())
    colour = "#1f4e9c"


class ShipClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "fleets.ShipClass"

    ruleset = "ultra_simple"
    name = factory.Sequence(lambda n: f"Class {n}")
    key = factory.LazyAttribute(lambda sc: sc.name.lower().replace(" ", "_"))
    nation = factory.SubFactory(NationFactory)
    type = factory.LazyAttribute(lambda sc: str(sc.stats.get("type", "")))
    stats = factory.LazyFunction(lambda: copy.deepcopy(ULTRA_SIMPLE_STATS))
    source_note = "Factory data."
    heuristic = False


class ShipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "fleets.Ship"

    name = factory.Sequence(lambda n: f"HMS Example {n}")
    ship_class = factory.SubFactory(ShipClassFactory)
    pennant = ""
