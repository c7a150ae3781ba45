"""Writes for the battles app (HackSoft style: keyword-only ``<entity>_<action>`` functions)."""

import socket

from django.db import transaction

from battles.models import WorkerHeartbeat


def heartbeat_record(*, token: str, hostname: str | None = None) -> WorkerHeartbeat:
    """Store the heartbeat ``token`` once; a second call with the same token returns the first row."""
    with transaction.atomic():
        heartbeat, _created = WorkerHeartbeat.objects.get_or_create(
            token=token, defaults={"hostname": hostname or socket.gethostname()}
        )
    return heartbeat
