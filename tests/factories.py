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
