"""Pages of the battles app. Views validate forms, call a service or a selector, and render; no game logic.

Every page is scoped by the user through battles.selectors (another campaign's or side's object is a 404).
Umpire-only pages and forms (GET and POST) answer 404 to someone who may not see the campaign and 403 to a
member who is not its umpire (``selectors.require_umpire``), before anything is read or saved.
POST views answer htmx requests with the ``orders`` partial of the battle page and plain posts with a
redirect, so the site works without JavaScript.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from battles import display, selectors, services
from battles.forms import (
    SETUP_FIRST_HELP,
    SETUP_FIRST_LABEL,
    CampaignForm,
    CampaignSettingsForm,
    CampaignShipAddForm,
    ConditionsForm,
    ExtendDeadlineForm,
    InvitationForm,
    ProfileForm,
    RepairForm,
    ScenarioBattleForm,
    ShipEditForm,
    SignupForm,
    default_orders_label,
    json_loads_checked,
)
from battles.models import Battle, BattleStatus, CampaignShip, Order, Phase, PhaseStatus
from navalwar.errors import ApplicationError, Refusal, add_to_form
from navalwar.numbers import EXPONENT, plain_float, plain_int
from navalwar.text import name_problem
from rules.base import event_visible
from rules.model import BattleState, Event

try:  # the SVG map is written by another developer (battles/mapsvg.py); the page works without it
    from battles.mapsvg import render_map  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - depends on the merge order
    render_map = None

logger = logging.getLogger(__name__)


def _error_message(error: ApplicationError) -> str:
    """Return the error's message, then its field messages (``name: message``), but those that only say the
    message again."""
    detail = "; ".join(
        f"{name}: {' '.join(msgs)}" if name != "__all__" else " ".join(msgs)
        for name, msgs in error.fields.items()
        if msgs != [error.message]
    )
    return f"{error.message} {detail}".strip() if detail else error.message


def _form_errors_message(form: Any) -> str:
    """Return a form's errors as one line for a flash message, each field named by its label (the page shows
    labels, not field names): ``"Hours to give orders in each phase: This field is required."``."""
    parts = []
    for name, errors in form.errors.items():
        text = " ".join(str(e) for e in errors)
        parts.append(f"{form[name].label}: {text}" if name in form.fields else text)
    return " ".join(parts)


# --- dashboard, settings, invitations --------------------------------------------------------------------


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """Render the user's campaigns and the phases waiting for their orders, deadlines in their time zone."""
    memberships = selectors.memberships_for_user(user=request.user)
    waiting = selectors.phases_waiting_for_user(user=request.user)
    umpired = selectors.phases_umpired_by_user(user=request.user)
    battles = selectors.battles_for_user(user=request.user)
    return render(
        request,
        "battles/dashboard.html",
        {"memberships": memberships, "waiting": waiting, "umpired": umpired, "battles": battles},
    )


@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """Let a user set their e-mail address, time zone and e-mail opt-in."""
    profile = selectors.profile_for(user=request.user)
    form = ProfileForm(
        request.POST or None,
        initial={
            "email": request.user.email,
            "time_zone": profile.time_zone,
            "email_notifications": profile.email_notifications,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            data = dict(form.cleaned_data)
            if "email" not in request.POST:
                data["email"] = None  # a post without the field (not the page's form) leaves it as it is
            services.profile_update(user=request.user, **data)
        except ApplicationError as error:
            add_to_form(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("battles:settings")
    return render(request, "battles/settings.html", {"form": form})


@login_not_required
@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Show an invitation; a logged-in user joins with one click, a visitor creates an account here."""
    try:
        invite = services.invitation_check(token=token)
    except ApplicationError as error:
        return render(request, "battles/invitation.html", {"error": error}, status=error.status)
    form = SignupForm(request.POST or None) if not request.user.is_authenticated else None
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                membership = services.invitation_accept(token=token, user=request.user)
            elif form is not None and form.is_valid():
                membership = services.invitation_accept_new_user(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"],
                    email=form.cleaned_data["email"],
                )
                login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                membership = None
        except ApplicationError as error:
            if form is not None and error.fields:
                add_to_form(form, error)
            else:
                return render(request, "battles/invitation.html", {"error": error}, status=error.status)
        else:
            if membership is not None:
                messages.success(request, f"Welcome to {membership.campaign.name}.")
                return redirect("battles:campaign", membership.campaign_id)
    # A member already (the umpire trying the link, a player opening it twice): say so here, with the way
    # in, rather than offer a Join button that is refused (409) after the click.
    member = selectors.membership_in(campaign=invite.campaign, user=request.user)
    return render(request, "battles/invitation.html", {"invite": invite, "form": form, "member": member})


# --- campaigns -------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Let a staff member (a club organiser) create a campaign; they become its umpire."""
    if not request.user.is_staff:
        raise Refusal("Only club organisers create campaigns.")
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            campaign = services.campaign_create(
                name=data["name"],
                ruleset=data["ruleset"],
                description=data["description"],
                created_by=request.user,
                settings={"default_orders": data["default_orders"], "deadline_hours": data["deadline_hours"]},
                sides=data["sides"],
            )
        except ApplicationError as error:
            add_to_form(form, error)
        else:
            sides = "; ".join(f"{s.name} (key {s.key}, colour {s.colour})" for s in campaign.sides.all())
            messages.success(request, f"Campaign created with the sides {sides}.")
            for note in form.key_notes:  # a key typed with capitals or spaces is saved otherwise
                messages.info(request, note)
            return redirect("battles:campaign", campaign.pk)
    return render(request, "battles/campaign_new.html", {"form": form})


def _campaign_context(request: HttpRequest, campaign: Any, viewer: selectors.Viewer) -> dict[str, Any]:
    sides = selectors.fleets_for_campaign(campaign=campaign)
    losses, fates_hidden = selectors.campaign_losses(campaign=campaign, viewer=viewer)
    ctx: dict[str, Any] = {
        "campaign": campaign,
        "viewer": viewer,
        "ruleset": rules.get_ruleset(campaign.ruleset),
        "default_orders_label": default_orders_label(
            (campaign.settings or {}).get("default_orders") or "fire_nearest"
        ),
        "sides": sides,
        "side_names": {side.key: side.name for side in sides},
        "battles": selectors.battles_for_campaign(campaign=campaign),
        "losses": losses,
        "returned": selectors.returned_to_service(campaign=campaign),
        "fates_hidden": fates_hidden,
        "members": campaign.memberships.select_related("user", "side").order_by(
            "role", "side", "user__username"
        ),
    }
    if viewer.is_umpire:
        ctx["settings_form"] = _settings_form(campaign)
        ctx["invite_form"] = InvitationForm(campaign=campaign)
        ctx["ship_form"] = CampaignShipAddForm(campaign=campaign)
        ctx["scenario_form"] = ScenarioBattleForm(campaign=campaign)
        ctx["invitations"] = campaign.invitations.filter(
            used_at__isnull=True, revoked_at__isnull=True
        ).select_related("side")
    return ctx


@require_GET
def campaign(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Render a campaign: sides and fleets, battles, ships lost; the umpire's tools for umpires."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    return render(request, "battles/campaign.html", _campaign_context(request, camp, viewer))


def _settings_form(campaign: Any, data: Any = None) -> CampaignSettingsForm:
    rs = rules.get_ruleset(campaign.ruleset)
    initial = {spec.name: spec.default for spec in rs.options}
    initial |= {"default_orders": "fire_nearest", "deadline_hours": 48, "reminder_hours": 12}
    initial |= campaign.settings or {}
    sides = list(campaign.sides.order_by("pk"))
    return CampaignSettingsForm(data, initial=initial, ruleset=campaign.ruleset, sides=sides)


@require_POST
def campaign_settings(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Save the campaign's settings (umpire): A7's default orders, deadlines and the rule set's options.
    Battles already created keep the options they started with; a change mid-campaign is answered with a
    warning of what will and will not change (``selectors.settings_change_summary``, NW-CAMP-01). A refusal
    shows the campaign page again with the settings as typed and their errors (400)."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    form = _settings_form(camp, request.POST)
    status = 400
    if form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if v is not None and v != ""}
        old = dict(camp.settings or {})
        try:
            services.campaign_settings_update(campaign=camp, user=request.user, settings=data)
        except ApplicationError as error:
            add_to_form(form, error)
            status = error.status
        else:
            messages.success(request, "Campaign settings saved; new battles use them.")
            # NW-CAMP-01: what the change does and does not do to the battles and ships already there
            for line in selectors.settings_change_summary(campaign=camp, old=old, new=camp.settings):
                messages.warning(request, line)
            return redirect("battles:campaign", camp.pk)
    messages.error(request, "The settings have errors. " + _form_errors_message(form))
    ctx = _campaign_context(request, camp, viewer)
    ctx["settings_form"] = form
    return render(request, "battles/campaign.html", ctx, status=status)


@require_POST
def campaign_invite(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Create an invitation link (umpire)."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    form = InvitationForm(request.POST, campaign=camp)
    if form.is_valid():
        try:
            invite = services.invitation_create(
                campaign=camp,
                created_by=request.user,
                role=form.cleaned_data["role"],
                side=form.cleaned_data["side"],
                expires_in=timedelta(days=form.cleaned_data["days"]),
            )
        except ApplicationError as error:
            messages.error(request, _error_message(error))
        else:
            url = request.build_absolute_uri(reverse("battles:invitation", args=[invite.token]))
            messages.success(request, f"Invitation link (single use): {url}")
    else:
        messages.error(request, "The invitation form has errors. " + _form_errors_message(form))
    return redirect("battles:campaign", camp.pk)


@require_POST
def invitation_revoke(request: HttpRequest, campaign_id: int, invitation_id: int) -> HttpResponse:
    """Revoke an unused invitation (umpire; docs/rulings.md NW-CAMP-26), back to the campaign page with what
    happened: its link now says it was revoked. A used or already revoked one is refused there, with why."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    try:
        invite = services.invitation_revoke(campaign=camp, invitation_id=invitation_id, user=request.user)
    except ApplicationError as error:
        if error.status == 404:
            raise Http404(error.message) from error
        messages.error(request, _error_message(error))
    else:
        whom = invite.get_role_display().lower() + (f" of {invite.side.name}" if invite.side else "")
        messages.success(request, f"The invitation for a {whom} is revoked: its link no longer works.")
    return redirect(reverse("battles:campaign", args=[camp.pk]) + "#invitations")


@require_POST
def campaign_ship_new(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Add a named ship of one of the rule set's classes to a side (umpire). A refusal shows the campaign page
    again with the form as typed and its errors (400, or 409 for a ship already in the campaign)."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    form = CampaignShipAddForm(request.POST, campaign=camp)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            cship = services.campaign_ship_commission(
                campaign=camp,
                user=request.user,
                side=data["side"],
                ship_class=data["ship_class"],
                name=data["name"],
                pennant=data["pennant"],
            )
        except ApplicationError as error:
            add_to_form(form, error)
            status = error.status
        else:
            messages.success(
                request, f"{cship.ship.name} ({cship.ship.ship_class.name}) joined {cship.side.name}."
            )
            return redirect(reverse("battles:campaign", args=[camp.pk]) + "#umpire")
    ctx = _campaign_context(request, camp, viewer)
    ctx["ship_form"] = form
    return render(request, "battles/campaign.html", ctx, status=status)


@require_POST
def battle_scenario(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Create and start a battle from a bundled scenario (umpire)."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    form = ScenarioBattleForm(request.POST, campaign=camp)
    if not form.is_valid():
        messages.error(request, "The battle was not created. " + _form_errors_message(form))
        return redirect("battles:campaign", camp.pk)
    setup_first = form.cleaned_data["setup_first"]
    try:
        battle = services.battle_create_from_scenario(
            campaign=camp,
            scenario_key=form.cleaned_data["scenario"],
            user=request.user,
            name=form.cleaned_data["name"],
            start=not setup_first,
        )
    except ApplicationError as error:
        messages.error(request, _error_message(error))
        return redirect("battles:campaign", camp.pk)
    return _after_create(request, battle, setup_first=setup_first)


def _after_create(request: HttpRequest, battle: Battle, *, setup_first: bool) -> HttpResponse:
    """Where the umpire lands after creating a battle: its page, or, created in set-up (NW-CAMP-21), the
    set-up editor, with what to do there."""
    if not setup_first:
        return redirect("battles:battle", battle.pk)
    messages.success(
        request,
        f"{battle.name} is created in set-up: place the ships, paint the terrain and set the conditions, "
        "then press Start battle.",
    )
    return redirect("battles:battle_setup_map", battle_id=battle.pk)


def _finite(text: Any) -> float:
    """Return ``text`` as a finite number; ValueError for text, NaN and infinities (JSON cannot hold them),
    and for what is no plain ASCII number (``1_0``, ``٣``: navalwar.numbers)."""
    parsed = plain_float(text) if isinstance(text, str) else float(text)
    if parsed is None:
        raise ValueError(f"{text!r} is not a plain number")
    value = parsed
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def _whole(text: str) -> int:
    """Return ``text`` as a whole number; ValueError for what is no plain ASCII one (navalwar.numbers)."""
    value = plain_int(text)
    if value is None:
        raise ValueError(f"{text!r} is not a plain whole number")
    return value


def _terrain_example(rs: rules.RuleSet) -> str:
    """A terrain list the battle form shows as its example: a feature of the rule set's first kind, at a
    position of its geometry (a hex, or a point in its unit); empty for a rule set without terrain."""
    if not rs.terrain_kinds:
        return ""
    width, height = rs.default_map
    hexes = rs.geometry.startswith("hex")
    at = {"q": 3, "r": 4} if hexes else {"x": round(width / 4), "y": round(height / 4)}
    return json.dumps([{"kind": rs.terrain_kinds[0], "position": at, "props": {}, "visible_to": None}])


def _set_up_number(label: str, text: str, errors: list[str], *, whole: bool = False) -> float | None:
    """Return ``text`` as a finite number (a whole one for ``whole``), or None with a message, starting with
    ``label`` ("Hood, x"), added to ``errors``: what it is not, as the site's number fields say it
    (navalwar.numbers: no exponent, no digit group underscores, no other script's digits)."""
    shown = text.strip()[:20]
    try:
        value = float(_whole(text)) if whole else _finite(text)
    except ValueError:
        if EXPONENT.fullmatch(text):
            errors.append(f"{label}: enter the number in plain digits: {shown} has an exponent.")
        elif whole:
            errors.append(f"{label}: {shown!r} is not a whole number.")
        else:
            errors.append(f"{label}: {shown!r} is not a number.")
        return None
    return value


@require_http_methods(["GET", "POST"])
def battle_new(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Create a battle from the campaign's own ships: one row per ship with its start (umpire)."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    rs = rules.get_ruleset(camp.ruleset)
    hexes = rs.geometry.startswith("hex")
    ships = list(
        CampaignShip.objects.filter(campaign=camp, status__in=["active", "withdrawn"])
        .select_related("ship__ship_class", "side")
        .order_by("side", "pk")
    )
    errors: list[str] = []
    # night, moon, wind and weather: one form with the set-up editor's Conditions tool (NW-CAMP-20)
    conditions_form = ConditionsForm(
        request.POST if request.method == "POST" else None, ruleset=camp.ruleset, auto_id="%s"
    )
    # create the battle in set-up, to open the set-up editor before it starts (NW-CAMP-21)
    setup_first = bool(request.POST.get("setup_first")) if request.method == "POST" else False
    status = 200  # a refused post shows the form again as typed, with its errors: 400 (409 for a busy ship)
    if request.method == "POST":
        from rules.model import Hex, MapSpec, Point, TerrainFeature

        status = 400

        placements = []
        for cs in ships:
            if not request.POST.get(f"use_{cs.pk}"):
                continue
            a, b = request.POST.get(f"a_{cs.pk}", ""), request.POST.get(f"b_{cs.pk}", "")
            if not a.strip() or not b.strip():
                axes = "q and r" if hexes else "x and y"
                errors.append(f"{cs.ship.name} is in the battle: give her a starting position ({axes}).")
                continue
            # every number of hers that is none is said, by name, at once
            name = cs.ship.name
            if hexes:
                q, r = (
                    _set_up_number(f"{name}, q", a, errors, whole=True),
                    _set_up_number(f"{name}, r", b, errors, whole=True),
                )
            else:
                q, r = _set_up_number(f"{name}, x", a, errors), _set_up_number(f"{name}, y", b, errors)
            heading = _set_up_number(f"{name}, heading", request.POST.get(f"heading_{cs.pk}") or "0", errors)
            speed = _set_up_number(f"{name}, speed", request.POST.get(f"speed_{cs.pk}") or "0", errors)
            if q is None or r is None or heading is None or speed is None:
                continue
            position = Hex(q=int(q), r=int(r)) if hexes else Point(x=q, y=r)
            placements.append(
                services.Placement(campaign_ship=cs, position=position, heading=heading, speed=speed)
            )
        width = _set_up_number("The map's width", request.POST.get("width") or str(rs.default_map[0]), errors)
        height = _set_up_number(
            "The map's height", request.POST.get("height") or str(rs.default_map[1]), errors
        )
        width, height = width if width is not None else 0.0, height if height is not None else 0.0
        # the conditions form shows its own errors, at its fields
        conditions = conditions_form.conditions if conditions_form.is_valid() else None
        terrain: tuple[TerrainFeature, ...] = ()
        try:
            terrain = rules.from_json(
                tuple[TerrainFeature, ...], json_loads_checked(request.POST.get("terrain") or "[]")
            )
        except (ValueError, RecursionError, rules.InvalidDocument) as exc:
            errors.append(
                f"Terrain must be a JSON list of features (kind, position, props, visible_to): {exc}"
            )
        most = (10 * rs.default_map[0], 10 * rs.default_map[1])
        if not errors and (width < 1 or height < 1):
            errors.append(
                f"The map's width and height must each be at least 1 (given: {width:g} x {height:g})."
            )
        elif not errors and not (width <= most[0] and height <= most[1]):
            # The map is drawn square by square (hexes): a 10**12 x 10**12 map ran the server out of memory.
            errors.append(f"The map is at most {most[0]:g} x {most[1]:g} (ten times the rule set's default).")
        battle_name = request.POST.get("name", "").strip()
        if not battle_name:  # (the field is required: a blank name made a battle called "Battle")
            errors.append("Give the battle a name.")
        if len(battle_name) > 120:  # Battle.name
            errors.append("The name has at most 120 characters.")
        name_refused = name_problem(request.POST.get("name", ""))  # a direction control (NW-CAMP-24)
        if name_refused:
            errors.append(f"The name: {name_refused}.")
        if not errors:  # the set-up editor checks each ship it places; this form checks them all at once
            map_spec = MapSpec(geometry=rs.geometry, width=width, height=height)
            errors += services.placement_errors(placements=placements, map_spec=map_spec)
            errors += services.heading_errors(placements=placements, map_spec=map_spec)
        # the ships ticked, placed or not (a ship with no position yet still counts for her side)
        one_side = services.sides_error(sides=[cs.side for cs in ships if request.POST.get(f"use_{cs.pk}")])
        if one_side:  # NW-CAMP-23
            errors.append(one_side)
        if not errors and conditions is not None:
            try:
                battle = services.battle_create(
                    campaign=camp,
                    user=request.user,
                    name=battle_name,
                    placements=placements,
                    map_spec=map_spec,
                    conditions=conditions,
                    terrain=terrain,
                    start=not setup_first,
                )
            except ApplicationError as error:
                errors.append(_error_message(error))
                status = error.status
            else:
                return _after_create(request, battle, setup_first=setup_first)
    busy = selectors.ships_in_live_battles(campaign=camp)
    posted = request.method == "POST"
    rows = [
        {
            "cs": cs,
            "busy": busy.get(cs.pk),
            # A ship in another live battle starts unticked (NW-CAMP-02); a refused post keeps what was typed.
            "use": bool(request.POST.get(f"use_{cs.pk}")) if posted else cs.pk not in busy,
            "a": request.POST.get(f"a_{cs.pk}", ""),
            "b": request.POST.get(f"b_{cs.pk}", ""),
            "heading": request.POST.get(f"heading_{cs.pk}", "0"),
            "speed": request.POST.get(f"speed_{cs.pk}", "0"),
        }
        for cs in ships
    ]
    return render(
        request,
        "battles/battle_new.html",
        {
            "campaign": camp,
            "rows": rows,
            "busy_count": sum(1 for r in rows if r["busy"]),
            "hexes": hexes,
            "ruleset": rs,
            "terrain_example": _terrain_example(rs),
            "errors": errors,
            "conditions_form": conditions_form,
            "post": request.POST,
            "setup_first": setup_first,
            "setup_first_label": SETUP_FIRST_LABEL,
            "setup_first_help": SETUP_FIRST_HELP,
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def campaign_ship(request: HttpRequest, campaign_id: int, ship_id: int) -> HttpResponse:
    """Umpire's page for a campaign ship: assign its commander, repair it (recorded), see its repairs."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    selectors.require_umpire(viewer)
    cship = (
        CampaignShip.objects.select_related("ship__ship_class", "side", "commander")
        .filter(campaign=camp, pk=ship_id)
        .first()
    )
    if cship is None:
        raise Http404("No such ship.")
    form = RepairForm(
        request.POST if request.POST.get("action") == "repair" else None,
        initial={
            "status": cship.status,
            "sheet": json.dumps(
                services.repair_form_sheet(ruleset=camp.ruleset, sheet=cship.sheet), indent=1
            ),
        },
    )
    players = camp.memberships.filter(role="player", side=cship.side).select_related("user")
    # a refused repair shows the form again as typed, with its errors: 400, or the refusal's own status (409
    # for a ship in a battle still on, which is edited in the battle)
    status = 200
    if request.method == "POST":
        status = 400
        try:
            if request.POST.get("action") == "assign":
                chosen = request.POST.get("commander", "")
                commander = next((m.user for m in players if str(m.user_id) == chosen), None)
                if chosen and commander is None:  # not "any player": a player of her side, or nothing changes
                    messages.error(
                        request, f"Choose a player of {cship.side.name}, or any player; nothing was changed."
                    )
                    return redirect("battles:campaign_ship", camp.pk, cship.pk)
                services.campaign_ship_assign(campaign_ship=cship, user=request.user, commander=commander)
                messages.success(
                    request,
                    f"Commander set: {commander.get_username()}."
                    if commander is not None
                    else f"Any player of {cship.side.name} may now order her.",
                )
                return redirect("battles:campaign_ship", camp.pk, cship.pk)
            if form.is_valid():
                services.campaign_ship_repair(
                    campaign_ship=cship,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    sheet=form.cleaned_data["sheet"],
                    status=form.cleaned_data["status"] or None,
                )
                messages.success(request, "Repair recorded.")
                return redirect("battles:campaign_ship", camp.pk, cship.pk)
        except ApplicationError as error:
            add_to_form(form, error)
            status = error.status
    repairs = list(cship.repairs.select_related("umpire"))
    for r in repairs:
        r.changes = display.change_rows(r.before, r.after)  # type: ignore[attr-defined]
    return render(
        request,
        "battles/campaign_ship.html",
        {"campaign": camp, "cship": cship, "form": form, "players": players, "repairs": repairs},
        status=status,
    )


@require_GET
def campaign_sinkings(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Render the roll of ships sunk, struck, captured and withdrawn across the campaign."""
    camp, viewer = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    losses = selectors.sinkings_for_campaign(campaign=camp, viewer=viewer)
    returned = selectors.returned_to_service(campaign=camp)
    ctx = {"campaign": camp, "battle": None, "campaign_losses": losses, "returned": returned}
    return render(request, "battles/sinkings.html", ctx)


# --- battles ---------------------------------------------------------------------------------------------


def _events(rows: Any) -> list[Event]:
    return [rules.from_json(Event, row.data) for row in rows]


def _map_svg(state: Any, viewer: selectors.Viewer, events: list[Event]) -> str:
    if render_map is None:
        return ""
    try:
        return mark_safe(render_map(state, viewer_side=viewer.side_key, events=events))
    except Exception:  # the map must never take the battle page down
        logger.exception("render_map failed")
        return ""


def _conditions_shown(state: BattleState) -> dict[str, str]:
    """Return the weather and wind force as the page shows them: the rule set's label for a chart's value
    ("moderate breeze", "fog and mist": NW-SAIL-35), else the text as given."""
    rs = rules.get_ruleset(state.ruleset)
    c = state.conditions
    return {
        "weather": rs.condition_label("weather", c.weather),
        "wind_force": rs.condition_label("wind_force", c.wind_force),
    }


def _battle_context(
    request: HttpRequest,
    battle: Battle,
    viewer: selectors.Viewer,
    bound: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the battle page's context; ``bound`` holds order panels just posted (battles.order_views)."""
    from battles import order_forms, order_views

    full = rules.from_json(BattleState, battle.state)
    phase = selectors.phase_current(battle=battle)
    if phase is not None and phase.status == PhaseStatus.OPEN and phase.state_before == battle.state:
        # An open phase starts from the battle's state: read it once for the page and the order forms.
        order_forms.remember_state(phase, full)
    state = selectors.state_for(battle=battle, viewer=viewer, parsed=full)
    last_resolved = (
        Phase.objects.filter(battle=battle, superseded=False, status=PhaseStatus.RESOLVED)
        .defer("state_before", "state_after")  # only its number and turn are shown
        .order_by("-number")
        .first()
    )
    log_rows = selectors.log_events_for(phase=last_resolved, viewer=viewer) if last_resolved else []
    events = _events(log_rows)
    own = viewer.side.key if viewer.side is not None else None
    ships = sorted(state.ships, key=lambda s: (s.side != own, s.side, s.name))
    sheet_url = order_views.ship_url_maker("battles:ship_sheet", battle.pk)
    phase_sides = selectors.phase_sides(phase=phase) if phase else []
    my_ready = next((ps for ps in phase_sides if own is not None and ps.side.key == own), None)
    setup = [
        e
        for e in (rules.from_json(Event, d) for d in battle.setup_events)
        if event_visible(e, viewer.side_key, full.side_keys())
    ]
    ctx: dict[str, Any] = {
        "battle": battle,
        "campaign": battle.campaign,
        "viewer": viewer,
        "state": state,
        "ships": ships,
        "ship_rows": [(s, sheet_url(s.id)) for s in ships],
        "side_names": {side.key: side.name for side in state.sides},
        "phase": phase,
        "phase_sides": phase_sides,
        "my_ready": my_ready,
        "last_resolved": last_resolved,
        "log_rows": log_rows,
        "setup_events": setup,
        "conditions_shown": _conditions_shown(state),
        "map_svg": _map_svg(state, viewer, events),
        **order_views.status_context(battle, viewer, phase=phase, phase_sides=phase_sides),
        **order_views.orders_context(battle, viewer, phase, bound, phase_sides=phase_sides),
    }
    if viewer.is_umpire:
        # (a whole page only: an htmx poll's partial has no umpire's forms to fill)
        kept = {} if request.htmx else request.session.pop(f"umpire_kept_{battle.pk}", None) or {}
        if kept.get("action") == "extend":  # refused: the form as typed, with its field errors
            ctx["extend_form"] = ExtendDeadlineForm(kept, campaign=battle.campaign)
            ctx["extend_form"].is_valid()
        else:
            ctx["extend_form"] = ExtendDeadlineForm(campaign=battle.campaign)
        ctx["end_kept"] = kept if kept.get("action") == "end" else {}
        ctx.update(_umpire_confirmations(battle, phase, phase_sides))
        ctx["rollback_choices"], ctx["rollback_default"] = _rollback_choices(battle)
        ctx["reopen_phase"] = selectors.phase_ended_by_umpire(battle=battle)
        if ctx["reopen_phase"] is not None:
            ctx["confirm_reopen"] = _reopen_confirmation(ctx["reopen_phase"])
    return ctx


def _rollback_choices(battle: Battle) -> tuple[list[tuple[int, str]], int | None]:
    """Return the phases the umpire may roll the battle back to, as (number, label), and the one chosen at
    first: the most recent resolved phase (rolling back to phase 1 by a slip would undo the whole battle).

    Offered: the resolved phases, and a failed phase as "restart" (its orders are not used; the players give
    new ones). The phase open for orders is not offered: rolling back to it would only draw a new seed and
    throw away the orders and ready flags given so far; a resolving phase is being worked on."""
    rows = list(
        Phase.objects.filter(battle=battle, superseded=False)
        .order_by("number")
        .values_list("number", "turn", "status")
    )
    choices: list[tuple[int, str]] = []
    for number, turn, status in rows:
        if status == PhaseStatus.RESOLVED:
            choices.append((number, f"Phase {number} (turn {turn})"))
        elif status == PhaseStatus.FAILED:
            choices.append((number, f"Phase {number} (turn {turn}): restart it, for new orders"))
    resolved = [number for number, _turn, status in rows if status == PhaseStatus.RESOLVED]
    default = resolved[-1] if resolved else (choices[-1][0] if choices else None)
    return choices, default


def _umpire_confirmations(battle: Battle, phase: Phase | None, phase_sides: list[Any]) -> dict[str, str]:
    """Return what the umpire's destructive buttons ask before they act (a browser ``confirm()``; a post
    without JavaScript goes through): each names what is lost."""
    waiting = [ps.side.name for ps in phase_sides if not ps.ready]
    number = phase.number if phase is not None else 0
    resolve = f"Close phase {number} now and resolve it with the orders given?"
    if waiting:
        verb = "is" if len(waiting) == 1 else "are"
        resolve += (
            f" {', '.join(waiting)} {verb} still giving orders: the time left to the deadline is lost, and "
            "ships without orders follow the default orders."
        )
    end = "End the battle now?"
    if phase is not None and phase.status in (PhaseStatus.OPEN, PhaseStatus.FAILED):
        end += f" Phase {number} is not played: its orders are kept for the record, never resolved."
    rollback = (
        "Roll back to the start of {phase}? That phase and every later one are superseded (kept in the log, "
        "never played again): their results, orders and ready flags are lost to the battle, and the phase "
        "opens again with a new dice seed."
    )
    if battle.status == "finished":
        rollback += " The battle is over: this reopens it, and its result and winner are cleared."

    return {"confirm_resolve": resolve, "confirm_end": end, "confirm_rollback": rollback}


def _reopen_confirmation(phase: Phase) -> str:
    """Return what "Reopen the battle" asks before it acts (NW-CAMP-09), naming what changes."""
    return (
        f"Reopen the battle? Its end is undone: the result and winner are cleared, and phase {phase.number} "
        "opens again as it stood when the battle was ended, with a new dice seed and deadline. The orders "
        "given in it before the end stay in the log, unused: the sides give their orders again."
    )


@require_GET
def battle(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Render a battle: its state, deadline, who is ready, the map, the latest log and the orders panel."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    ctx = _battle_context(request, bat, viewer)
    if getattr(request, "htmx", False) and request.GET.get("partial") == "orders":
        return render(request, "battles/battle.html#orders", ctx)
    return render(request, "battles/battle.html", ctx)


def _after_post(request: HttpRequest, bat: Battle, viewer: selectors.Viewer) -> HttpResponse:
    if getattr(request, "htmx", False):
        return render(request, "battles/battle.html#orders", _battle_context(request, bat, viewer))
    return HttpResponseRedirect(reverse("battles:battle", args=[bat.pk]) + "#orders")


@require_POST
def ready_post(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Mark the user's side ready (``ready=1``) or not ready (``ready=0``) in the open phase."""
    from battles import order_views

    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    try:
        ready = order_views.ready_flag(request.POST.get("ready"))
    except ApplicationError as error:  # not from the site's own form: answer it, do not redirect
        return order_views.message_response(request, error.message, error.status, bat.pk)
    phase = selectors.phase_open_for(battle=bat)
    stated = request.POST.get("phase")
    if phase is None or (stated is not None and stated != str(phase.pk)):
        # A form for a phase resolved since (a second tab, a double submit) is not applied to the next phase,
        # as the htmx ready (order_views.side_ready) refuses it.
        messages.error(request, services.READY_TOO_LATE)
        return _after_post(request, bat, viewer)
    try:
        services.side_set_ready(phase=phase, user=request.user, ready=ready)
    except ApplicationError as error:
        messages.error(request, services.ready_refusal(error))  # (as the htmx ready's, order_views)
    else:
        messages.success(request, "Your side is ready." if ready else "Your side is no longer ready.")
    return _after_post(request, bat, viewer)


@require_POST
def umpire_post(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The umpire's battle tools: resolve now, extend a deadline, retry, roll back, end the battle, reopen
    a battle the umpire ended."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    selectors.require_umpire(viewer)
    action = request.POST.get("action", "")
    if action == "reopen":
        return _reopen_post(request, bat)
    phase = selectors.phase_current(battle=bat)
    try:
        stated = request.POST.get("phase", "")
        if (
            action in ("resolve_now", "retry", "extend")
            and stated
            and (phase is None or stated != str(phase.number))
        ):
            # The form named the phase it was shown for: a second tab or a double submit must not act on the
            # phase that opened since (a "Resolve now" closed phase 5 before any side had ordered in it).
            now = f"phase {phase.number} is {phase.get_status_display().lower()} now" if phase else "no phase"
            raise ApplicationError(
                "stale_phase", f"This was for phase {stated[:18]}, and {now}. Nothing was changed."
            )
        if action == "resolve_now" and phase is not None:
            services.phase_close(phase=phase, user=request.user)
            messages.success(request, f"Phase {phase.number} closed; it is being resolved.")
        elif action == "retry" and phase is not None:
            services.phase_retry(phase=phase, user=request.user)
            messages.success(request, f"Phase {phase.number} is being resolved again.")
        elif action == "extend" and phase is not None:
            form = ExtendDeadlineForm(request.POST, campaign=bat.campaign)
            if not form.is_valid():
                problem = _form_errors_message(form)
                raise ApplicationError("bad_form", f"The deadline was not moved. {problem}")
            side = form.cleaned_data["side"]
            before = _deadline_of(phase, side)
            services.phase_extend_deadline(
                phase=phase, user=request.user, deadline=form.cleaned_data["deadline"], side=side
            )
            kept = [] if side is not None else _later_side_deadlines(phase)
            messages.success(request, _extended_message(before, form.cleaned_data["deadline"], side, kept))
        elif action == "rollback":
            raw = request.POST.get("to_number", "").strip()
            if not raw:
                # an empty number is no phase 0 ("The battle has no phase 0" read as a fault of the battle)
                raise ApplicationError(
                    "bad_form", "Give the phase number to roll back to. Nothing was rolled back."
                )
            plain = plain_int(raw)  # 1_0 and an Arabic-Indic digit are no phase number (int() read them)
            if plain is None or plain != float(raw):
                raise ApplicationError(
                    "bad_form",
                    "Give the phase number to roll back to as a whole number. Nothing was rolled back.",
                )
            number = plain
            if (
                phase is not None
                and number == phase.number
                and phase.status in (PhaseStatus.OPEN, PhaseStatus.RESOLVING)
            ):
                # The open (or resolving) phase: a "roll back" would only draw a new seed and throw away the
                # orders and ready flags given so far. The form does not offer it.
                raise ApplicationError(
                    "rollback_current",
                    f"Phase {number} is {phase.get_status_display().lower()} now: there is nothing to roll "
                    "back in it. Choose a resolved phase.",
                )
            reopened = services.battle_rollback(battle=bat, user=request.user, to_number=number)
            messages.success(request, f"Rolled back: phase {reopened.number} is open again.")
        elif action == "end":
            reason = request.POST.get("reason", "").strip()
            reason_length = len(reason)
            if reason_length > 200:  # Battle.end_reason
                raise ApplicationError(
                    "bad_form",
                    f"The reason has at most 200 characters (this one has {reason_length}); the battle "
                    "was not ended.",
                )
            services.battle_end(
                battle=bat,
                user=request.user,
                winner=request.POST.get("winner", ""),
                reason=reason,  # (blank: the service's default, NW-CAMP-28)
            )
            messages.success(request, "The battle is over.")
        else:
            raise ApplicationError("bad_action", "Unknown action.")
    except ValueError:
        messages.error(request, "Give a phase number.")
    except ApplicationError as error:
        # The services' refusals of these actions are whole sentences; their field details ("to_number: No
        # such phase.") only repeat them in the form's field names.
        messages.error(request, error.message or _error_message(error))
        if action in KEPT_FIELDS:  # what was typed comes back in the form (the page is drawn again, GET)
            request.session[f"umpire_kept_{bat.pk}"] = {
                "action": action,
                **{k: request.POST.get(k, "")[:200] for k in KEPT_FIELDS[action]},
            }
    return redirect("battles:battle", bat.pk)


KEPT_FIELDS = {"extend": ("deadline", "side"), "end": ("winner", "reason")}
"""The umpire's tools whose typed values a refusal keeps for the page drawn after it (a fresh-user check
typed a deadline in the past, and the form came back empty beside the message)."""


def _reopen_post(request: HttpRequest, bat: Battle) -> HttpResponse:
    """Reopen a battle the umpire ended (NW-CAMP-09). A refusal is answered with its status (409: the battle
    is not over, the rules finished it, a ship is in another battle or was repaired since) and the message,
    on a page linking back to the battle; nothing was changed."""
    try:
        reopened = services.battle_reopen(battle=bat, user=request.user)
    except ApplicationError as error:
        ctx = {"battle": bat, "campaign": bat.campaign, "message": error.message or _error_message(error)}
        return render(request, "battles/umpire_refused.html", ctx, status=error.status)
    messages.success(request, f"Reopened: the battle is on again, and phase {reopened.number} is open.")
    return redirect("battles:battle", bat.pk)


def _deadline_of(phase: Phase, side: Any) -> Any:
    """Return the deadline ``side`` has in ``phase`` now (its own, else the phase's); for all sides (None)
    the phase's."""
    if side is not None:
        own = phase.phase_sides.filter(side=side).values_list("deadline", flat=True).first()
        if own is not None:
            return own
    return phase.deadline


def _later_side_deadlines(phase: Phase) -> list[tuple[str, Any]]:
    """Return (side name, deadline) of each side that keeps an own deadline after a change for all sides
    (``services.phase_extend_deadline`` clears only the earlier ones)."""
    rows = phase.phase_sides.filter(deadline__isnull=False).select_related("side").order_by("side__name")
    return [(ps.side.name, ps.deadline) for ps in rows]


def _extended_message(before: Any, after: Any, side: Any, kept: Sequence[tuple[str, Any]] = ()) -> str:
    """Return the umpire's message after a deadline change: moving it earlier is allowed (the umpire may
    shorten a phase everyone agreed to speed up), but said plainly, with the old and new times. ``kept``:
    the sides that keep a later deadline of their own after a change for all sides."""

    def shown(moment: Any) -> str:
        return timezone.localtime(moment).strftime("%a %-d %b %Y %H:%M %Z")

    who = side.name if side is not None else "every side"
    if side is None and kept:
        who += " but " + " and ".join(name for name, _ in kept)
    when = shown(after)
    if before is not None and after < before:
        text = (
            f"Deadline moved EARLIER for {who}: now {when} (it was {shown(before)}). The players have less "
            "time than they were told; tell them."
        )
    else:
        text = f"Deadline extended for {who}: now {when}."
    if kept:
        text += " " + "; ".join(f"{name} keeps its later deadline, {shown(at)}" for name, at in kept) + "."
    return text


def _small_number(text: str) -> bool:
    """True for 1 to 18 ASCII digits (a database id or a phase number)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _log_order_rows(
    ruleset: rules.RuleSet, phase: Phase, orders: list[Order], names: dict[str, str]
) -> list[tuple[Order, list[tuple[str, str]]]]:
    """Return each order of ``phase`` with its rows (:func:`display.order_rows`), its values in the words
    the order form offered them in that phase (the ship's hints in the phase's state before)."""
    try:
        state = rules.from_json(rules.BattleState, phase.state_before) if phase.state_before else None
    except (TypeError, ValueError, KeyError):  # a state the engine cannot read: the rows without words
        state = None
    ships = {s.id: s for s in state.ships} if state is not None else {}
    out = []
    for o in orders:
        ship = ships.get(o.battle_ship.ship_key)
        choices = (
            display.hint_choices(ruleset.order_hints(state, ship, o.data))
            if state is not None and ship is not None
            else None
        )
        out.append((o, display.order_rows(ruleset, o.data, names, choices)))
    return out


@require_GET
def battle_log(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Render the turn log of one phase (``?phase=<number>``, or ``?phase_id=`` for a superseded one): every
    roll with its modifiers, the number needed and the result, filtered for the viewer's side (A2)."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    phases = selectors.phases_for_log(battle=bat)
    chosen: Phase | None = None
    # a number of more than 18 digits is no phase (navalwar.converters): int() of 4,300 digits raised a 500
    if request.GET.get("phase_id", "").isdigit():
        raw = request.GET["phase_id"]
        chosen = next((p for p in phases if _small_number(raw) and p.pk == int(raw)), None)
    elif request.GET.get("phase", "").isdigit():
        number = int(request.GET["phase"]) if _small_number(request.GET["phase"]) else -1
        chosen = next((p for p in phases if p.number == number and not p.superseded), None)
    else:
        chosen = next(
            (p for p in reversed(phases) if p.status == PhaseStatus.RESOLVED and not p.superseded), None
        )
        # else the latest phase still in play (after a roll back, the one open again), not a superseded one
        current = [p for p in phases if not p.superseded]
        chosen = chosen or (current[-1] if current else phases[-1] if phases else None)
    if chosen is None and (request.GET.get("phase") or request.GET.get("phase_id")):
        raise Http404("No such phase.")
    rows = selectors.log_events_for(phase=chosen, viewer=viewer) if chosen else []
    orders = selectors.orders_for_viewer(phase=chosen, viewer=viewer) if chosen else []
    names = {s.id: s.name for s in rules.from_json(rules.BattleState, bat.state).ships}
    ruleset = rules.get_ruleset(bat.campaign.ruleset)
    order_rows = _log_order_rows(ruleset, chosen, orders, names) if chosen else []
    events = [(row, rules.from_json(Event, row.data)) for row in rows]
    return render(
        request,
        "battles/battle_log.html",
        {
            "battle": bat,
            "campaign": bat.campaign,
            "viewer": viewer,
            "phases": phases,
            "phase": chosen,
            "entries": [(row, event, _needed_text(ruleset, event)) for row, event in events],
            "orders": order_rows,
            "names": names,
            "edits": selectors.ship_edits_for(battle=bat, viewer=viewer, phase=chosen) if chosen else [],
            "umpire_actions": selectors.umpire_actions_for(battle=bat, viewer=viewer),
        },
    )


def _needed_text(ruleset: rules.RuleSet, event: Event) -> str:
    """The turn log's Needed column: what the die must show (``RuleSet.die_needed``), and where modifiers
    are added to the roll, the number the modified roll needs too: ``"20+ on the die (16+ with
    modifiers)"``. A fresh-user check read "Needed 16+" beside "a D20 of 20+ hits" as a misread die."""
    if event.needed is None:
        return ""
    die = ruleset.die_needed(event)
    if die is None or die == event.needed:
        return f"{event.needed}+"
    return f"{die}+ on the die ({event.needed}+ with modifiers)"


@require_http_methods(["GET", "POST"])
def ship_sheet(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """Render a ship's status sheet: full for its own side and the umpire, the public sheet for others (A2).
    The umpire edits the ship's state here, with a reason (``ShipEditForm``: only the values changed are
    sent); a form error or a refusal shows the form again with what was typed (400; 409 for a phase being
    resolved) and saves nothing."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    if request.method == "POST":
        selectors.require_umpire(viewer)  # before the ship is looked up: the same answer for every ship
    bship, ship, full = selectors.ship_get(battle=bat, viewer=viewer, ship_key=ship_key)
    state = rules.from_json(rules.BattleState, bat.state)
    edit_form: ShipEditForm | None = None
    status = 200
    if request.method == "POST":
        edit_form = ShipEditForm(request.POST, state=state, ship_key=ship_key)
        if not edit_form.is_valid():
            status = 400
        else:
            changes = edit_form.changes()
            try:
                services.battle_ship_edit(
                    battle=bat,
                    ship_key=ship_key,
                    user=request.user,
                    changes=changes,
                    reason=edit_form.cleaned_data["reason"],
                )
            except ApplicationError as error:
                edit_form.add_refusal(error, changes)
                status = error.status
            else:
                messages.success(request, "Ship edited; the edit is in the log.")
                return redirect("battles:ship_sheet", bat.pk, ship_key)
    elif viewer.is_umpire and bat.status == BattleStatus.ACTIVE:
        edit_form = ShipEditForm(state=state, ship_key=ship_key)
    rs = rules.get_ruleset(bat.campaign.ruleset)
    hits = []
    if not full:
        # A2: of an enemy ship, the hits the viewer's side scored on it, where the log shows them.
        rows = selectors.log_events_for_ship(battle=bat, viewer=viewer, ship_key=ship_key)
        hits = [r for r in rows if r.target_key == ship_key]
    names = {s.id: s.name for s in state.ships}
    sheet_rows, sheet_quiet = display.sheet_rows(ship.sheet, names, rs.sheet_texts(ship, names))
    return render(
        request,
        "battles/ship.html",
        {
            "battle": bat,
            "campaign": bat.campaign,
            "viewer": viewer,
            "bship": bship,
            "ship": ship,
            "side_name": next((sd.name for sd in bat.campaign.sides.all() if sd.key == ship.side), ship.side),
            "full": full,
            "sheet_rows": sheet_rows,
            "sheet_quiet": sheet_quiet,
            "class_rows": display.class_rows(
                rs.class_schema(), ship.stats, rs.class_summary(ship.stats), names
            )
            if full
            else [],
            "hits": hits,
            "edits": (
                edits := [
                    e
                    for e in selectors.ship_edits_for(battle=bat, viewer=viewer)
                    if e.battle_ship_id == bship.pk
                ]
            ),
            "edits_undone": selectors.ship_edits_undone(edits),
            "edit_form": edit_form,
        },
        status=status,
    )


@require_GET
def battle_sinkings(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Render the ships sunk, struck, captured and withdrawn in a battle."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    losses = selectors.sinkings_for_battle(battle=bat, viewer=viewer)
    ctx = {"campaign": bat.campaign, "battle": bat, "battle_losses": losses}
    return render(request, "battles/sinkings.html", ctx)
