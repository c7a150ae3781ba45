"""Send one request as one role, inside a transaction rolled back afterwards (so no request sees another's
writes), and describe the answer: its status, or ``login`` for a redirect to the log-in page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

LOGIN = "login"  # a 302 to the log-in page (LoginRequiredMiddleware)
ADMIN_LOGIN = "admin-login"  # a 302 to the admin's log-in page


def client_for(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def describe(response: Any) -> int | str:
    """Return the response's status, with redirects to a log-in page named as such."""
    if response.status_code == 302:
        location = response["Location"]
        if location.startswith(reverse("admin:login")):
            return ADMIN_LOGIN
        if location.startswith(reverse(settings.LOGIN_URL) + "?next="):
            return LOGIN
    return int(response.status_code)


def request(
    user: Any,
    method: str,
    url: str,
    data: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    **client_kwargs: Any,
) -> Any:
    """Send ``method url`` as ``user`` with a fresh client; roll the database back afterwards."""
    with transaction.atomic():
        client = client_for(user, **client_kwargs)
        if method == "GET":
            response = client.get(url, headers=headers)
        else:
            response = (
                client.generic(method, url, headers=headers)
                if method != "POST"
                else (client.post(url, data or {}, headers=headers))
            )
        transaction.set_rollback(True)
    return response
