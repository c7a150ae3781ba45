"""The orders of a player's turn, from the battle page: one panel per ship, the ready flag, the phase status.

htmx requests get partials of ``battles/orders.html`` (``ship_panel``, ``phase_status``); plain form posts
(no JavaScript) get a redirect to the battle page with a message, or the battle page itself with the ship's
form and its errors. Views check shapes and who asks (selectors), call a service, and render: the rules
validate, the services save.

Statuses: 200 a form (with its errors, for "check"), 400 orders the rules or the form refuse (nothing saved),
404 a ship the user may not order (another side's ship looks like no ship at all), 409 a phase closed, rolled
back or past its deadline, 413 a payload larger than any order form.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import RFC3986_SUBDELIMS
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from battles import order_forms, selectors, services
from battles.models import Battle, BattleShip, Phase, PhaseStatus
from navalwar.errors import ApplicationError, ConflictError

logger = logging.getLogger(__name__)

TEMPLATE = "battles/orders.html"
# An order form is well under 2 KB; a post a hundred times that is not an order.
MAX_ORDER_BYTES = 32 * 1024
# A player with more ships than this gets them folded on the battle page, each form loaded when opened
# (``order_panel``): building and rendering a hundred forms made a 200-ship page take seconds
# (docs/performance.md). Up to this many, every form is on the page, open.
FOLD_ABOVE = 3
POLL_SECONDS = {PhaseStatus.OPEN: 10, PhaseStatus.RESOLVING: 2, PhaseStatus.FAILED: 15}


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def message_response(request: HttpRequest, message: str, status: int, battle_id: int | None = None) -> Any:
    """Answer with a message only: plain text for htmx (shown by static/js/orders.js), a page otherwise."""
    if _htmx(request):
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    ctx = {"message": message, "battle_id": battle_id}
    return render(request, "battles/order_error.html", ctx, status=status)


def limit_size(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse a request body larger than any order form (413), before anything reads it."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > MAX_ORDER_BYTES:
            return message_response(
                request,
                f"The request is too large ({length} bytes; orders take at most "
                f"{MAX_ORDER_BYTES // 1024} KB). Nothing was saved.",
                413,
            )
        return view(request, *args, **kwargs)

    return wrapper


def _phase_posted(request: HttpRequest, battle: Battle) -> Phase:
    """Return the phase the form was made for (``phase`` in the post). A form for a phase that has been
    resolved or rolled back since is refused (409) rather than applied to the next phase."""
    raw = request.POST.get("phase", "")
    if not raw.isdigit() or len(raw) > 18:
        raise ApplicationError("no_phase", "The form does not say which phase it is for; reload the page.")
    phase = Phase.objects.filter(battle=battle, pk=int(raw)).select_related("battle__campaign").first()
    if phase is None:
        raise ApplicationError("no_phase", "There is no such phase in this battle.", status=404)
    order_forms.check_phase_open(phase)
    return phase


def _target(request: HttpRequest, battle_id: int, ship_key: str) -> tuple[Battle, Any, Phase, BattleShip]:
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    phase = _phase_posted(request, bat)
    bship = selectors.order_ship_get(phase=phase, viewer=viewer, ship_key=ship_key)
    return bat, viewer, phase, bship


def _battle_url(battle: Battle, anchor: str = "orders") -> str:
    return reverse("battles:battle", args=[battle.pk]) + f"#{anchor}"


def _panel_response(
    request: HttpRequest, battle: Battle, viewer: Any, panel: order_forms.OrderPanel, status: int = 200
) -> HttpResponse:
    """Render one ship's panel: the partial for htmx, else the battle page with this panel in place."""
    if _htmx(request):
        ctx = {"battle": battle, "viewer": viewer, "panel": panel}
        return render(request, f"{TEMPLATE}#ship_panel", ctx, status=status)
    from battles.views import _battle_context

    ctx = _battle_context(request, battle, viewer, bound={panel.key: panel})
    return render(request, "battles/battle.html", ctx, status=status)


def _guarded(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """Turn the errors of who-may-order checks into a message with the right status, never a 500."""

    @wraps(view)
    def wrapper(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
        try:
            return view(request, battle_id, ship_key)
        except Http404:
            msg = "There is no such ship under your command in this battle."
            return message_response(request, msg, 404, battle_id)
        except ApplicationError as error:
            return message_response(request, error.message, error.status, battle_id)

    return wrapper


# --- one ship --------------------------------------------------------------------------------------------


def _phase_asked(request: HttpRequest, battle: Battle) -> Phase:
    """Return the phase a panel is asked for: ``?phase=`` (the phase the battle page shows), else the battle's
    phase open for orders. 404 for a phase not of this battle; 409 when the phase takes no orders (closed,
    rolled back) or none is open."""
    raw = request.GET.get("phase", "")
    if raw:
        if not raw.isdigit() or len(raw) > 18:
            raise ApplicationError("no_phase", "There is no such phase in this battle.", status=404)
        phase = Phase.objects.filter(battle=battle, pk=int(raw)).select_related("battle__campaign").first()
        if phase is None:
            raise ApplicationError("no_phase", "There is no such phase in this battle.", status=404)
    else:
        phase = selectors.phase_open_for(battle=battle)
        if phase is None:
            raise ConflictError("phase_closed", "No phase of this battle is open for orders.")
    order_forms.check_phase_open(phase)
    return phase


@require_GET
@_guarded
def order_panel(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """One ship's order panel, unbound (its saved order, else the defaults). htmx: the ``ship_panel`` partial
    that replaces the ship's folded row when the player opens it on the battle page (a phase closed since
    makes htmx reload the page, which shows why); otherwise a page of its own, the no-JavaScript way to a
    folded ship's orders. 404 for a ship the user may not order (as on every order endpoint), 409 when no
    phase takes orders."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    try:
        phase = _phase_asked(request, bat)
    except ConflictError:
        if _htmx(request):
            return HttpResponseClientRefresh()
        raise
    bship = selectors.order_ship_get(phase=phase, viewer=viewer, ship_key=ship_key)
    panel = order_forms.panel_for(phase=phase, viewer=viewer, bship=bship)
    if _htmx(request):
        return _panel_response(request, bat, viewer, panel)
    ctx = {"battle": bat, "campaign": bat.campaign, "viewer": viewer, "phase": phase, "panel": panel}
    return render(request, "battles/order_page.html", ctx)


@require_POST
@limit_size
@_guarded
def order_check(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """Validate a ship's order as edited and show the rules' errors and preview; save nothing."""
    bat, viewer, phase, bship = _target(request, battle_id, ship_key)
    panel = order_forms.panel_for(phase=phase, viewer=viewer, bship=bship, post=request.POST)
    try:
        order_forms.check_deadline(phase, bship.campaign_ship.side_id)
    except ApplicationError as error:
        panel.add_error(error)
        return _panel_response(request, bat, viewer, panel, status=error.status)
    if panel.ok:
        panel.message = ("info", "These orders are legal. Save them to send them.")
    return _panel_response(request, bat, viewer, panel)


@require_POST
@limit_size
@_guarded
def order_save(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """Validate and save one ship's order (services.orders_submit). Errors leave the saved order as it was."""
    bat, viewer, phase, bship = _target(request, battle_id, ship_key)
    panel = order_forms.panel_for(phase=phase, viewer=viewer, bship=bship, post=request.POST)
    return _submit(request, bat, viewer, phase, bship, panel, done="Orders saved for {name}.")


def _submit(
    request: HttpRequest,
    bat: Battle,
    viewer: Any,
    phase: Phase,
    bship: BattleShip,
    panel: order_forms.OrderPanel,
    *,
    done: str,
) -> HttpResponse:
    if not panel.ok:
        panel.message = ("error", "The orders have errors: nothing was saved.")
        return _panel_response(request, bat, viewer, panel, status=400)
    try:
        services.orders_submit(phase=phase, user=request.user, battle_ship=bship, data=panel.data)
    except ApplicationError as error:
        panel.add_error(error)
        panel.message = ("error", "Nothing was saved.")
        return _panel_response(request, bat, viewer, panel, status=error.status)
    text = done.format(name=panel.ship.name)
    if not _htmx(request):
        messages.success(request, text)
        return HttpResponseRedirect(_battle_url(bat, panel.dom_id))
    fresh = order_forms.panel_for(phase=phase, viewer=viewer, bship=bship)
    fresh.message = ("success", f"{text} ({timezone.localtime():%H:%M})")
    return _panel_response(request, bat, viewer, fresh)


@require_POST
@limit_size
@_guarded
def order_clear(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """Withdraw a ship's saved order: it follows the campaign's default orders (A7)."""
    bat, viewer, phase, bship = _target(request, battle_id, ship_key)
    ship = order_forms.orderable_ship(phase, bship)
    had = services.orders_delete(phase=phase, user=request.user, ship_key=bship.ship_key)
    text = (
        f"Orders withdrawn for {ship.name}: default orders apply."
        if had
        else f"{ship.name} had no orders saved: default orders apply."
    )
    if not _htmx(request):
        messages.success(request, text)
        return HttpResponseRedirect(_battle_url(bat, f"ship-{order_forms._slug(bship.ship_key)}"))
    panel = order_forms.panel_for(phase=phase, viewer=viewer, bship=bship)
    panel.message = ("success", text)
    return _panel_response(request, bat, viewer, panel)


@require_POST
@limit_size
@_guarded
def order_repeat(request: HttpRequest, battle_id: int, ship_key: str) -> HttpResponse:
    """Give a ship the order it had in the previous resolved phase, if the rules still allow it."""
    bat, viewer, phase, bship = _target(request, battle_id, ship_key)
    previous = selectors.order_previous(phase=phase, battle_ship=bship)
    if previous is None:
        ship = order_forms.orderable_ship(phase, bship)
        raise ApplicationError("no_previous_orders", f"{ship.name} has no earlier orders to repeat.")
    panel = order_forms.panel_for(
        phase=phase, viewer=viewer, bship=bship, post=order_forms.post_from_data(previous.data)
    )
    return _submit(
        request,
        bat,
        viewer,
        phase,
        bship,
        panel,
        done=f"{{name}} repeats her orders of phase {previous.phase.number}.",
    )


# --- the side and the phase ------------------------------------------------------------------------------


_UNSET: Any = object()


def status_context(
    battle: Battle, viewer: Any, *, phase: Phase | None = _UNSET, phase_sides: list[Any] | None = None
) -> dict[str, Any]:
    """Return what the ``phase_status`` partial shows: the phase, who is ready (only that, for other sides),
    the viewer's deadline, whether its resolution is delayed, and how often the page asks again. ``phase``
    and ``phase_sides`` when the caller has them already."""
    if phase is _UNSET:
        phase = selectors.phase_current(battle=battle)
    if phase_sides is None:
        phase_sides = selectors.phase_sides(phase=phase) if phase else []
    own = viewer.side.key if viewer.side is not None else None
    my_ready = next((ps for ps in phase_sides if own is not None and ps.side.key == own), None)
    deadline = None
    if phase is not None:
        deadline = my_ready.effective_deadline(phase) if my_ready is not None else phase.deadline
        if my_ready is None:  # the umpire's and an observer's deadline: when the phase closes
            deadline = phase.closes_at(phase_sides)
    poll = POLL_SECONDS.get(phase.status) if phase is not None and battle.status == "active" else None  # type: ignore[call-overload]
    # the side's own deadline passed while the phase waits for others: its orders and readiness are final
    # (services._ordering_side refuses both), so the page must not offer them
    now, open_ = timezone.now(), phase is not None and phase.status == "open"
    for ps in phase_sides:  # each side's own deadline passed: "orders closed", not "giving orders"
        ps.orders_closed = open_ and ps.deadline_passed(phase, now)
    passed = my_ready is not None and my_ready.orders_closed
    return {
        "battle": battle,
        "viewer": viewer,
        "phase": phase,
        "resolution_delayed": selectors.phase_resolution_delayed(phase=phase),
        "phase_sides": phase_sides,
        "my_ready": my_ready,
        "my_deadline": deadline,
        "my_deadline_passed": passed,
        "poll_seconds": poll,
    }


@require_GET
def battle_status(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The phase status, polled by the battle page: who is ready, the deadline; when the phase the page shows
    has changed (resolved, failed, closed, rolled back), tell htmx to reload the page (the result shows)."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    ctx = status_context(bat, viewer)
    phase = ctx["phase"]
    shown = (request.GET.get("phase", ""), request.GET.get("status", ""))
    if not _htmx(request):
        return HttpResponseRedirect(_battle_url(bat, "phase"))
    if phase is None or shown != (str(phase.pk), phase.status):
        return HttpResponseClientRefresh()
    return render(request, f"{TEMPLATE}#phase_status", ctx)


@require_POST
@limit_size
def side_ready(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Mark the user's side ready (``ready=1``) or not ready (``ready=0``) in the phase the page shows."""
    bat, viewer = selectors.battle_get(user=request.user, battle_id=battle_id)
    ready = False
    level, text, status, code = "success", "", 200, ""
    try:
        ready = ready_flag(request.POST.get("ready"))
        text = "Your side is ready." if ready else "Your side is no longer ready."
        phase = _phase_posted(request, bat)
        services.side_set_ready(phase=phase, user=request.user, ready=ready)
    except ApplicationError as error:
        level, text, status = "error", services.ready_refusal(error), error.status
        code = error.code
    if not _htmx(request):
        if code == "bad_ready":  # not from the site's own form: answer it, do not redirect
            return message_response(request, text, status, bat.pk)
        getattr(messages, level)(request, text)
        return HttpResponseRedirect(_battle_url(bat, "phase"))
    ctx = status_context(bat, viewer)
    current = ctx["phase"]
    if (
        status == 200
        and current is not None
        and (str(current.pk), current.status)
        != (
            request.POST.get("phase"),
            PhaseStatus.OPEN,
        )
    ):
        # Every side is ready: the phase closed (and may be resolved already); the forms on the page are
        # done with, so show the page as it now is.
        return HttpResponseClientRefresh()
    ctx["message"] = (level, text)
    return render(request, f"{TEMPLATE}#phase_status", ctx, status=status)


def ready_flag(raw: str | None) -> bool:
    """Return the ``ready`` value of a ready form: ``"1"`` (or none given) ready, ``"0"`` not ready. Raise
    ``bad_ready`` (400) for anything else: "banana" was read as "not ready" without a word."""
    if raw is None or raw == "1":
        return True
    if raw == "0":
        return False
    shown = raw if len(raw) <= 40 else raw[:40] + "..."
    raise ApplicationError(
        "bad_ready",
        f"The ready flag is 1 (my side is ready) or 0 (not ready yet), not {shown}. Nothing was changed.",
    )


def ship_url_maker(name: str, battle_id: int) -> Callable[[str], str]:
    """Return ``key -> reverse(name, args=[battle_id, key])`` for a URL pattern ending in ``<str:ship_key>/``
    (or with more after it), reversing once: a page listing 200 ships spent a tenth of its time in reverse().
    A key with a slash, or empty, gets reverse() itself (which refuses it)."""
    marker = "0shipkey0"
    template = reverse(name, args=[battle_id, marker])
    head, tail = template.split(marker)

    def url(key: str) -> str:
        if not key or "/" in key:
            return reverse(name, args=[battle_id, key])
        return head + quote(key, safe=RFC3986_SUBDELIMS + "/~:@") + tail

    return url


def orders_context(
    battle: Battle,
    viewer: Any,
    phase: Phase | None,
    bound: dict[str, order_forms.OrderPanel] | None = None,
    *,
    phase_sides: list[Any] | None = None,
) -> dict[str, Any]:
    """Return what the battle page's orders section needs: the panels, and the viewer's side's ships under
    other players' command. ``phase_sides`` when the caller has read them (``selectors.phase_sides``)."""
    if phase is None or phase.status != PhaseStatus.OPEN or phase.superseded:
        return {"order_panels": [], "ships_of_others": []}
    bships = selectors.battle_ships_for(battle=battle)
    panels = order_forms.panels_for(
        battle=battle,
        phase=phase,
        viewer=viewer,
        bound=bound,
        battle_ships=bships,
        fold_above=FOLD_ABOVE,
        phase_sides=phase_sides,
    )
    panel_url = ship_url_maker("battles:order_panel", battle.pk)
    for panel in panels:
        if isinstance(panel, order_forms.FoldedPanel):
            panel.url = panel_url(panel.key)
    others: list[BattleShip] = []
    if viewer.side is not None:
        mine = {p.key for p in panels}
        others = [
            b
            for b in bships
            if b.campaign_ship.side_id == viewer.side.pk and b.ship_key not in mine and b.status == "active"
        ]
    # the viewer's side orders now, every ship of it under another captain: said as such, not "no orders"
    others_only = not panels and bool(others) and viewer.side.key in (phase.sides or [])
    return {"order_panels": panels, "ships_of_others": others, "others_only": others_only}


__all__ = [
    "battle_status",
    "order_check",
    "order_clear",
    "order_panel",
    "order_repeat",
    "order_save",
    "orders_context",
    "side_ready",
    "status_context",
]
