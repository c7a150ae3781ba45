from django.db import models
from django.utils import timezone


class WorkerHeartbeat(models.Model):
    """A row a Celery worker writes to prove it reaches the broker and the database (see tasks.heartbeat)."""

    token = models.CharField(max_length=64, unique=True)
    hostname = models.CharField(max_length=255)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.token} from {self.hostname} at {self.created_at:%Y-%m-%d %H:%M:%S}"
