"""Show times in the logged-in user's time zone (their profile; UTC without one); send htmx requests of
logged-out users to the login page; refuse requests holding a NUL character."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.middleware import LoginRequiredMiddleware
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render, resolve_url
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from navalwar.text import NUL


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


class RefuseNulMiddleware:
    """Answer 400 to a request whose path, query string or form data (names or values) holds a NUL character
    (0x00): PostgreSQL refuses NUL in any text it is sent (``A string literal cannot contain NUL (0x00)
    characters``), so a save, or even a look-up, carrying one was a 500 there (SQLite took it). Django's
    forms.CharField refuses NUL, but raw form values (a battle's name and weather, an end's reason), URL
    arguments and query strings reached the database unchecked. No one types a NUL; the page says what was
    wrong and nothing is saved (docs/rulings.md NW-CAMP-18). Uploaded files' contents are the view's to
    check (the class import rejects such rows)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            message = "The request holds a NUL character (0x00), which cannot be saved. Nothing was saved."
            if request.headers.get("HX-Request") == "true":
                return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
            return render(request, "400.html", {"message": message}, status=400)
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    data = [request.GET]
    if request.method == "POST" and request.content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        data.append(request.POST)
    return any(NUL in key or any(NUL in v for v in values) for q in data for key, values in q.lists())


class MethodNotAllowedPageMiddleware:
    """Give a 405 with no body (``require_POST`` and the like: a form's address opened in the browser, say
    ``/battles/5/umpire/``) the site's page saying so, with a link to the page the address belongs to (the
    address less its last part, when that is a page). An htmx request, or a 405 with a body, is left as it
    is; the ``Allow`` header stays."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.headers.get("HX-Request") == "true":
            return response
        allowed = response.headers.get("Allow", "")
        page = render(
            request, "405.html", {"allowed": allowed, "back": _page_above(request.path)}, status=405
        )
        page.headers["Allow"] = allowed
        return page


def _page_above(path: str) -> str | None:
    """Return the address of the page ``path`` belongs to (``/battles/5/orders/hood/`` -> ``/battles/5/``):
    the nearest shorter address the site knows, or None."""
    parts = [p for p in path.split("/") if p]
    while parts:
        parts.pop()
        candidate = "/" + "/".join(parts) + ("/" if parts else "")
        try:
            resolve(candidate)
        except Resolver404:
            continue
        return candidate
    return None
