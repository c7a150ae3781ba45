"""Orders saved before NW-ACW-21 / NW-MEM-08 with a course in small letters ("ffr") are written in capitals
("FFR"), as orders are saved since (``RuleSet.canonical_order``): the orders table shows one spelling."""

from __future__ import annotations

from typing import Any

from django.db import migrations


COURSE_FIELDS = ("course",)
"""The course fields of acw_river and memoir_sea (``RuleSet.course_fields`` when this was written)."""
CAPITALS = str.maketrans("flr", "FLR")
"""``rules.base.course_text``'s table when this was written (a migration keeps its own copy)."""


def course_capitals(apps: Any, schema_editor: Any) -> None:
    order_model = apps.get_model("battles", "Order")
    for key in ("acw_river", "memoir_sea"):
        for order in order_model.objects.filter(phase__battle__campaign__ruleset=key).iterator():
            data = dict(order.data) if isinstance(order.data, dict) else None
            if data is None:
                continue
            changed = False
            for name in COURSE_FIELDS:
                value = data.get(name)
                if isinstance(value, str) and value:
                    text = value.translate(CAPITALS)
                    if text != value:
                        data[name], changed = text, True
            if changed:
                order.data = data
                order.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("battles", "0010_invitation_revoked")]

    operations = [migrations.RunPython(course_capitals, migrations.RunPython.noop)]
