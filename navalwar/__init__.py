"""Navalwar project package: settings, URLs, WSGI/ASGI entry points and the Celery app."""

# Load the Celery app whenever Django starts so that @shared_task binds to it and `delay_on_commit` works.
from navalwar.celery import app as celery_app

__all__ = ["celery_app"]
