from typing import Any

from django.core.management.base import BaseCommand, CommandError

from fleets.services import reference_data_load


class Command(BaseCommand):
    help = (
        "Load the bundled ship classes of every registered rule set: its scenarios' classes and its "
        "reference tables (safe to run twice)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = reference_data_load()
        for ruleset, count in sorted(report.per_ruleset.items()):
            self.stdout.write(f"  {ruleset}: {count} classes")
        self.stdout.write(
            f"Reference classes: {report.created} new, {report.updated} updated, "
            f"{report.unchanged} unchanged; {report.ships_created} new ships."
        )
        if report.rejected:
            for line in report.rejected:
                self.stderr.write(f"  rejected {line}")
            raise CommandError(f"{len(report.rejected)} bundled classes were refused by their rule set.")
