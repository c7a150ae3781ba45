"""The one family of errors services raise for a user to read, and the helpers that show them.

A service raises ``ApplicationError(code, message)`` (or a subclass) for anything a user did that cannot be
done: a late order, an expired invitation, a ship that is not theirs. Views turn it into a form error or a
4xx response with :func:`add_to_form` / :func:`error_response`; never a 500, and nothing saved is lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class Refusal(PermissionDenied):
    """A 403 whose message is written for the user: the 403 page shows it. The text of any other
    ``PermissionDenied`` (Django's, a library's) is never shown."""


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: the site's 403 page, with the refusal's message when it is a :class:`Refusal`."""
    refusal = str(exception) if isinstance(exception, Refusal) else ""
    return render(request, "403.html", {"refusal": refusal}, status=403)


class ApplicationError(Exception):
    """An error a user can read. ``code`` is stable (tests and htmx handlers match on it); ``fields`` maps
    form field names to messages when the error belongs to fields; ``status`` is the HTTP status a view
    answers with."""

    status: int = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        fields: Mapping[str, Sequence[str]] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields: dict[str, list[str]] = {k: list(v) for k, v in (fields or {}).items()}
        if status is not None:
            self.status = status

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class PermissionDeniedError(ApplicationError):
    """The user may not do this (answered 403)."""

    status = 403


class ConflictError(ApplicationError):
    """The thing changed under the user: a phase closed, an invitation was used (answered 409)."""

    status = 409


def add_to_form(form: Any, error: ApplicationError) -> None:
    """Add ``error`` to a Django form: field messages on fields the form has, the rest as non-field errors."""
    placed = False
    for name, messages in error.fields.items():
        target = name if name in getattr(form, "fields", {}) else None
        for message in messages:
            form.add_error(
                target, message if target else f"{name}: {message}" if name != "__all__" else message
            )
            placed = True
    if not placed:
        form.add_error(None, error.message)


def error_response(
    request: HttpRequest,
    error: ApplicationError,
    *,
    template: str | None = None,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """Answer a request with ``error``: a page (or htmx partial) from ``template``, else a plain message."""
    from django.shortcuts import render

    if template is not None:
        return render(request, template, {**(context or {}), "error": error}, status=error.status)
    return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
