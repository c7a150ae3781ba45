from django.contrib import admin

from battles.models import (
    Battle,
    BattleShip,
    Campaign,
    CampaignShip,
    Invitation,
    LogEvent,
    Membership,
    Notification,
    Order,
    Phase,
    PhaseSide,
    RepairRecord,
    ShipEdit,
    Side,
    UmpireAction,
    UserProfile,
    WorkerHeartbeat,
)


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["token", "hostname", "created_at"]
    readonly_fields = ["token", "hostname", "created_at"]


class SideInline(admin.TabularInline):
    model = Side
    extra = 0


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "created_by", "created_at"]
    list_filter = ["ruleset"]
    inlines = [SideInline, MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["campaign", "side", "role", "expires_at", "used_by", "used_at", "revoked_at"]
    readonly_fields = ["token", "used_by", "used_at", "revoked_by", "revoked_at"]


@admin.register(CampaignShip)
class CampaignShipAdmin(admin.ModelAdmin):
    list_display = ["ship", "campaign", "side", "commander", "status"]
    list_filter = ["status", "campaign"]


@admin.register(RepairRecord, ShipEdit)
class RecordAdmin(admin.ModelAdmin):
    """Repairs and ship edits are records: read only (make a new one through the umpire's pages)."""

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


class BattleShipInline(admin.TabularInline):
    model = BattleShip
    extra = 0
    raw_id_fields = ["campaign_ship"]


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "status", "winner", "created_at"]
    list_filter = ["status"]
    inlines = [BattleShipInline]
    readonly_fields = ["state"]


class PhaseSideInline(admin.TabularInline):
    model = PhaseSide
    extra = 0


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    """Phases are written by services; the admin shows them (the seed is a secret until resolution)."""

    list_display = ["battle", "number", "turn", "status", "superseded", "deadline", "resolved_at"]
    list_filter = ["status", "superseded"]
    exclude = ["seed"]
    readonly_fields = ["state_before", "state_after", "seed_hash", "error"]
    inlines = [PhaseSideInline]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["phase", "battle_ship", "side", "submitted_by", "updated_at"]


@admin.register(LogEvent)
class LogEventAdmin(admin.ModelAdmin):
    list_display = ["phase", "seq", "kind", "text"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(UmpireAction)
class UmpireActionAdmin(admin.ModelAdmin):
    """The record of the umpires' actions (NW-CAMP-11): written by services, read here, never edited."""

    list_display = ["battle", "kind", "umpire", "at", "text"]
    list_filter = ["kind"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register([UserProfile, Notification])
