from typing import Any

from django import forms
from django.contrib import admin
from django.forms.models import BaseInlineFormSet

from battles.models import (
    SIDES_MAX,
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
    side_colour,
)


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["token", "hostname", "created_at"]
    readonly_fields = ["token", "hostname", "created_at"]


class SideForm(forms.ModelForm):
    """A side as the admin edits it: its colour a CSS hex colour, as /campaigns/new/ has it (#1f4e9c)."""

    class Meta:
        model = Side
        fields = "__all__"  # noqa: DJ007 (the admin lays out the fields; this form only checks)

    def clean_colour(self) -> str:
        colour = str(self.cleaned_data.get("colour") or "")
        normal = side_colour(colour)
        if normal is None:
            raise forms.ValidationError(f"{colour!r}: enter a CSS colour like #1f4e9c.")
        return normal  # #rrggbb in lower case, as the campaign form keeps it (NW-CAMP-35)


class SideFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """A campaign's sides as the admin edits them: no two of one colour (NW-CAMP-35: the map tells them apart
    by it; ``#F00`` is ``#ff0000``)."""

    def clean(self) -> None:
        super().clean()
        seen: dict[str, str] = {}
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if not data or data.get("DELETE") or "colour" not in data:
                continue
            colour, name = data["colour"], str(data.get("name") or data.get("key") or "a side")
            if colour in seen:
                raise forms.ValidationError(
                    f"{seen[colour]} and {name} have the same colour ({colour}): give each side its own."
                )
            seen[colour] = name
        kept = [
            f for f in self.forms if getattr(f, "cleaned_data", None) and not f.cleaned_data.get("DELETE")
        ]
        if len(kept) > SIDES_MAX:
            raise forms.ValidationError(f"A campaign has at most {SIDES_MAX} sides (these are {len(kept)}).")


class SideInline(admin.TabularInline):
    model = Side
    form = SideForm
    formset = SideFormSet
    extra = 0
    max_num = SIDES_MAX  # (NW-CAMP-35: the page offers no more; SideFormSet refuses more posted)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


class CampaignForm(forms.ModelForm):
    """A campaign as the admin edits it: its settings checked as the campaign page checks them
    (``services.campaign_settings_clean``), so a settings value of the wrong shape ("x", null, hours as
    text) is a form error, not a later 500 on the campaign's pages."""

    class Meta:
        model = Campaign
        fields = "__all__"  # noqa: DJ007 (the admin lays out the fields; this form only checks)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        settings = data.get("settings")
        if "settings" in self.errors:
            return data
        if not isinstance(settings, dict):
            self.add_error("settings", 'The settings must be a JSON object, e.g. {"deadline_hours": 48}.')
            return data
        from battles import services
        from navalwar.errors import ApplicationError

        sides = list(self.instance.sides.values_list("key", flat=True)) if self.instance.pk else None
        try:
            data["settings"] = services.campaign_settings_clean(
                ruleset=str(data.get("ruleset") or self.instance.ruleset), settings=settings, sides=sides
            )
        except ApplicationError as exc:
            messages = [f"{k}: {' '.join(v)}" for k, v in (exc.fields or {}).items()] or [exc.message]
            self.add_error("settings", messages)
        return data


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    form = CampaignForm
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
