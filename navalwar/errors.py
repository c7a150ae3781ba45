"""The one error family of the site's services: a stable code, a message a player can read, field errors.

Services raise :class:`ApplicationError`; :func:`apply_to_form` turns one into form errors so a view shows it
next to the fields it names (never a 500 for bad input).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import forms


class ApplicationError(Exception):
    """A request the site refuses: ``code`` is stable (tests and htmx handlers match on it), ``message`` is
    for people, ``fields`` maps a form field name (``__all__`` for the whole form) to messages."""

    def __init__(self, code: str, message: str, *, fields: Mapping[str, Sequence[str]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields: dict[str, list[str]] = {k: list(v) for k, v in (fields or {}).items()}

    def __str__(self) -> str:
        return self.message


def apply_to_form(form: forms.BaseForm, error: ApplicationError) -> None:
    """Add ``error`` to ``form``: each field message next to its field when the form has it, else on top."""
    placed = False
    for name, messages in error.fields.items():
        target = name if name in form.fields else None
        for message in messages:
            form.add_error(target, message if target or name == "__all__" else f"{name}: {message}")
            placed = True
    if not placed:
        form.add_error(None, error.message)
