from django.contrib import admin

from battles.models import WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["token", "hostname", "created_at"]
    readonly_fields = ["token", "hostname", "created_at"]
