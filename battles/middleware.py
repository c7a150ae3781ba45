"""Show times in the logged-in user's time zone (their profile; UTC without one); send htmx requests of
logged-out users to the login page."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import resolve_url
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme


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


class HtmxLoginRequiredMiddleware(LoginRequiredMiddleware):
    """Django's LoginRequiredMiddleware, but an htmx request of a logged-out user (logged out in another tab,
    session expired) tells htmx to load the login page (``HX-Redirect``), coming back to the page it was on.
    Redirected like a plain request, htmx put the whole login page inside the ship's panel, and the login then
    sent the user to the POST-only URL the panel had posted to (405)."""

    def handle_no_permission(self, request: HttpRequest, view_func: Any) -> HttpResponse:
        if request.headers.get("HX-Request") != "true":
            return super().handle_no_permission(request, view_func)
        url = resolve_url(self.get_login_url(view_func))
        current = request.headers.get("HX-Current-URL", "")
        if url_has_allowed_host_and_scheme(current, allowed_hosts={request.get_host()}):
            query = QueryDict(mutable=True)
            query["next"] = urlsplit(current).path
            url = f"{url}?{query.urlencode(safe='/')}"
        return HttpResponse(status=204, headers={"HX-Redirect": url})
