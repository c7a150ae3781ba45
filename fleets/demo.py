"""The fleets loader of ``manage.py load_demo`` (listed in navalwar/demo.py LOADERS)."""

from __future__ import annotations

from navalwar.demo import DemoReport

from .services import reference_data_load


def load_reference() -> DemoReport:
    """Load the bundled ship classes of every rule set (same as ``manage.py load_reference_data``)."""
    report = reference_data_load()
    notes = [
        f"Reference classes: {report.created} new, {report.updated} updated, {report.unchanged} unchanged; "
        f"{report.ships_created} new ships."
    ]
    notes += [f"Rejected by its rule set: {line}" for line in report.rejected]
    return DemoReport(notes=tuple(notes))
