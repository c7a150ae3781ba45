"""Demo data for ``python manage.py load_demo``.

A loader is a function ``() -> DemoReport`` that makes its rows idempotently (safe to run twice). To add demo
data, write a loader in your app (e.g. ``battles/demo.py: load_campaigns``) and append its dotted path to
``LOADERS`` below; the command runs them in order, each in its own transaction, and prints every login.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

# Run in this order. Later issues append their loaders here (campaigns need the users made first).
LOADERS: list[str] = [
    "navalwar.demo.load_accounts",
    "fleets.demo.load_reference",
    "battles.demo.load_campaigns",
]

# Demo passwords are public on purpose: demo data is for a laptop, and load_demo refuses production.
ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "navalwar-admin"


@dataclass(frozen=True, slots=True, kw_only=True)
class DemoLogin:
    username: str
    password: str
    role: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DemoReport:
    logins: tuple[DemoLogin, ...] = ()
    notes: tuple[str, ...] = ()


def demo_user_ensure(
    *, username: str, password: str, email: str = "", is_staff: bool = False, is_superuser: bool = False
) -> bool:
    """Create the user or reset it to the given password and flags; return True if it was created.

    Resetting keeps the printed logins true however often the command runs.
    """
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username, defaults={"email": email})
    user.email = email or user.email
    user.is_staff = is_staff
    user.is_superuser = is_superuser
    user.is_active = True
    user.set_password(password)
    user.save()
    return created


def load_accounts() -> DemoReport:
    """Make the site administrator (staff and superuser) who can log in to /admin/."""
    created = demo_user_ensure(
        username=ADMIN_USERNAME,
        password=ADMIN_PASSWORD,
        email="admin@navalwar.invalid",
        is_staff=True,
        is_superuser=True,
    )
    return DemoReport(
        logins=(DemoLogin(username=ADMIN_USERNAME, password=ADMIN_PASSWORD, role="site admin (/admin/)"),),
        notes=("Created the admin login." if created else "Admin login already there; password reset.",),
    )
