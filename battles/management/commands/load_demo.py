from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.module_loading import import_string

from navalwar import demo


class Command(BaseCommand):
    help = "Load demo logins and data (safe to run twice). Loaders are listed in navalwar/demo.py LOADERS."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even with DJANGO_ENV=production (resets demo passwords).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION and not options["force"]:
            raise CommandError("Refusing demo data with DJANGO_ENV=production (use --force to insist).")
        logins: list[demo.DemoLogin] = []
        for path in demo.LOADERS:
            loader = import_string(path)
            with transaction.atomic():
                report: demo.DemoReport = loader()
            logins.extend(report.logins)
            for note in report.notes:
                self.stdout.write(f"{path}: {note}")
        self.stdout.write(self.style.SUCCESS("Demo logins:"))
        width = max((len(login.username) for login in logins), default=8)
        for login in logins:
            self.stdout.write(f"  {login.username:<{width}}  {login.password}  {login.role}")
