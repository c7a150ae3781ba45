"""Admin for nations, ship classes and ships, for admins who are not programmers.

A ship class's stats are edited through a form generated from its rule set's class schema (fleets.forms): the
add page first asks for the rule set (``?ruleset=KEY``), then shows that rule set's fields and inline rows.
The change page previews the status sheet. Actions duplicate and export classes; "Import classes" takes a
JSON or CSV file and reports every rejected row with its reasons.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

import rules
from navalwar.errors import ApplicationError

from .forms import ImportForm, ShipClassForm, shipclass_form
from .models import Nation, Ship, ShipClass
from .presentation import sheet_view
from .services import shipclass_duplicate, shipclass_export, shipclass_import, shipclass_save


@admin.register(Nation)
class NationAdmin(admin.ModelAdmin):
    list_display = ("name", "short_name", "colour_swatch", "class_count")
    search_fields = ("name", "short_name")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Nation]:
        return super().get_queryset(request).annotate(n_classes=Count("classes"))

    @admin.display(description="Colour", ordering="colour")
    def colour_swatch(self, obj: Nation) -> str:
        return format_html(
            '<span style="display:inline-block;width:1em;height:1em;background:{};border:1px solid #999;'
            'vertical-align:middle"></span> {}',
            obj.colour,
            obj.colour,
        )

    @admin.display(description="Classes", ordering="n_classes")
    def class_count(self, obj: Nation) -> int:
        return getattr(obj, "n_classes", 0)


class ShipInline(admin.TabularInline):
    model = Ship
    extra = 1
    fields = ("name", "pennant")


@admin.register(ShipClass)
class ShipClassAdmin(admin.ModelAdmin):
    change_form_template = "admin/fleets/shipclass/change_form.html"
    change_list_template = "admin/fleets/shipclass/change_list.html"
    form = ShipClassForm
    inlines = (ShipInline,)
    list_display = ("name", "ruleset", "nation", "type", "heuristic", "ship_count", "updated_at")
    list_filter = ("ruleset", ("nation", admin.RelatedOnlyFieldListFilter), "type", "heuristic")
    list_select_related = ("nation",)
    search_fields = ("name", "key", "type", "nation__name", "source_note")
    actions = ("duplicate_selected", "export_json", "export_csv")
    prepopulated_fields = {"key": ("name",)}
    fieldsets = (
        (None, {"fields": ("ruleset", "name", "key", "nation", "type")}),
        ("Source", {"fields": ("source_note", "heuristic")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[ShipClass]:
        return super().get_queryset(request).annotate(n_ships=Count("ships"))

    @admin.display(description="Ships", ordering="n_ships")
    def ship_count(self, obj: ShipClass) -> int:
        return getattr(obj, "n_ships", 0)

    # --- the rule set decides the form ----------------------------------------------------------------

    @staticmethod
    def _requested_ruleset(request: HttpRequest) -> str:
        return request.POST.get("ruleset") or request.GET.get("ruleset") or ""

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        key = obj.ruleset if obj is not None else self._requested_ruleset(request)
        kwargs["form"] = shipclass_form(key)
        return super().get_form(request, obj, change, **kwargs)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        if self._requested_ruleset(request) not in rules.ruleset_keys():
            context = {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": "Add ship class: choose the rule set",
                "rulesets": rules.all_rulesets(),
                "has_view_permission": self.has_view_permission(request),
            }
            return TemplateResponse(request, "admin/fleets/shipclass/choose_ruleset.html", context)
        return super().add_view(request, form_url, extra_context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is not None and obj.rule_set is None:
            self.message_user(
                request,
                f"{obj.name} belongs to the rule set {obj.ruleset!r}, which is not installed; "
                "it cannot be edited.",
                messages.ERROR,
            )
            return HttpResponseRedirect(reverse("admin:fleets_shipclass_changelist"))
        return super().change_view(request, object_id, form_url, extra_context)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> HttpResponse:
        form = context["adminform"].form
        context["stats_form"] = form.stats_form
        context["stats_ruleset"] = form.ruleset
        if obj is not None and obj.pk and obj.rule_set is not None:
            saved = ShipClass.objects.select_related("nation").get(pk=obj.pk)
            context["preview"] = sheet_view(obj.rule_set, saved.stats)
            context["preview_class"] = saved
        return super().render_change_form(request, context, add, change, form_url, obj)

    def save_model(self, request: HttpRequest, obj: ShipClass, form: Any, change: bool) -> None:
        shipclass_save(ship_class=obj)

    # --- actions -------------------------------------------------------------------------------------

    @admin.action(description="Duplicate selected classes")
    def duplicate_selected(self, request: HttpRequest, queryset: QuerySet[ShipClass]) -> HttpResponse | None:
        copies = []
        for ship_class in queryset:
            try:
                copies.append(shipclass_duplicate(ship_class=ship_class))
            except ApplicationError as exc:
                self.message_user(request, f"{ship_class.name}: {exc.message}", messages.ERROR)
        if len(copies) == 1:
            self.message_user(request, f"Made {copies[0].name}; edit it below.", messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:fleets_shipclass_change", args=[copies[0].pk]))
        if copies:
            self.message_user(request, f"Duplicated {len(copies)} classes.", messages.SUCCESS)
        return None

    def _export(self, queryset: QuerySet[ShipClass], fmt: str) -> HttpResponse:
        body = shipclass_export(queryset=queryset, fmt=fmt)  # type: ignore[arg-type]
        content_type = "application/json" if fmt == "json" else "text/csv"
        response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="ship-classes.{fmt}"'
        return response

    @admin.action(description="Export selected classes (JSON)")
    def export_json(self, request: HttpRequest, queryset: QuerySet[ShipClass]) -> HttpResponse:
        return self._export(queryset, "json")

    @admin.action(description="Export selected classes (CSV)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[ShipClass]) -> HttpResponse:
        return self._export(queryset, "csv")

    # --- import ---------------------------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path("import/", self.admin_site.admin_view(self.import_view), name="fleets_shipclass_import"),
        ]
        return extra + super().get_urls()

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request) or not self.has_change_permission(request):
            return HttpResponse("You may not import ship classes.", status=403)
        report = None
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                report = shipclass_import(
                    content=form.cleaned_data["file"].read(),
                    fmt=form.cleaned_data["format"],
                    check_only=form.cleaned_data["check_only"],
                )
            except ApplicationError as exc:
                form.add_error("file", exc.message)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import ship classes",
            "form": form,
            "report": report,
            "has_view_permission": self.has_view_permission(request),
        }
        return TemplateResponse(request, "admin/fleets/shipclass/import.html", context)


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ("name", "pennant", "ship_class", "ruleset", "nation")
    list_filter = ("ship_class__ruleset", ("ship_class__nation", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("ship_class", "ship_class__nation")
    search_fields = ("name", "pennant", "ship_class__name")
    autocomplete_fields = ("ship_class",)

    @admin.display(description="Rule set", ordering="ship_class__ruleset")
    def ruleset(self, obj: Ship) -> str:
        return obj.ship_class.ruleset

    @admin.display(description="Nation", ordering="ship_class__nation__name")
    def nation(self, obj: Ship) -> str:
        return obj.ship_class.nation.name if obj.ship_class.nation else ""
