"""Show times in the logged-in user's time zone (their profile; UTC without one)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class UserTimezoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            from battles.models import UserProfile

            name = UserProfile.objects.filter(user=user).values_list("time_zone", flat=True).first() or "UTC"
            try:
                timezone.activate(zoneinfo.ZoneInfo(name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
