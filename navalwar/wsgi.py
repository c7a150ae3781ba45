"""WSGI entry point: ``gunicorn navalwar.wsgi:application``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "navalwar.settings")

application = get_wsgi_application()
