"""The Celery app. Configured from Django settings (``CELERY_*``), see navalwar/settings.py.

Run a worker with ``celery -A navalwar worker`` and exactly one ``celery -A navalwar beat`` per site.
Tasks are ``DjangoTask`` instances, so services enqueue with ``task.delay_on_commit(...)``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "navalwar.settings")

app = Celery("navalwar", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
