"""Reads of the fleets app. Ship classes and nations are reference data every logged-in member may read."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404

from .models import Nation, ShipClass


def shipclass_list(*, user: Any, ruleset: str = "", nation: str = "", q: str = "") -> QuerySet[ShipClass]:
    """Return the classes, filtered by rule set key, nation id and a name fragment, with their ship counts."""
    qs = ShipClass.objects.select_related("nation").annotate(ship_count=Count("ships"))
    if ruleset:
        qs = qs.filter(ruleset=ruleset)
    if nation:
        qs = qs.filter(nation_id=nation) if nation.isdigit() else qs.none()
    if q:
        qs = qs.filter(name__icontains=q)
    return qs.order_by("ruleset", "nation__name", "name")


def shipclass_get(*, user: Any, ruleset: str, key: str) -> ShipClass:
    """Return one class by rule set and key, with its nation and ships; raise Http404 when there is none."""
    ship_class = (
        ShipClass.objects.select_related("nation")
        .prefetch_related("ships")
        .filter(ruleset=ruleset, key=key)
        .first()
    )
    if ship_class is None:
        raise Http404("No such ship class.")
    return ship_class


def nation_choices(*, user: Any) -> list[tuple[str, str]]:
    """Return (id, name) of the nations that have classes, for filters."""
    return [
        (str(n.pk), n.name) for n in Nation.objects.filter(classes__isnull=False).distinct().order_by("name")
    ]
