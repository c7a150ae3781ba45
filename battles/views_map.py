"""Pages of the battle map: the map at any phase per side (A2) with its replay, the selected ship's arcs and
status sheet, the movement-order preview, the SVG download, and the umpire's set-up editor.

Views are small: selectors read (battles/selectors.py, battles/map_selectors.py), services write
(battles/map_services.py), the rules adjudicate, battles/mapsvg.py draws. Every page works without
JavaScript (links and plain forms); with htmx the map panel is swapped in place (``#map-panel``), and
static/js/map.js adds the arrow keys and the PNG download.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

import rules
from battles import map_services, services
from battles.display import sheet_rows
from battles.forms import ConditionsForm
from battles.map_forms import ShipPlaceForm, TerrainPaintForm, order_data_from_query
from battles.map_selectors import MapStep, map_ship_get, map_step_get
from battles.mapsvg import FLAG_TEXT, gun_arcs, move_fields, move_preview, render_map
from battles.models import Battle, BattleStatus
from battles.selectors import Viewer, battle_get, order_get, phase_open_for, require_umpire
from battles.templatetags.battles_tags import position
from navalwar.errors import ApplicationError, add_to_form
from rules.model import BattleState, Position, ShipState

MAP_SIZE = 900


def _int_param(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError as exc:
        raise Http404(f"Bad {name}.") from exc


def _map_url(battle: Battle, step: int, ship: str | None = None) -> str:
    url = reverse("battles:battle_map", args=[battle.pk]) + f"?step={step}"
    return url + (f"&ship={ship}" if ship else "")


def _position_text(ship: ShipState) -> str:
    pos = ship.position
    return f"hex ({pos.q}, {pos.r})" if hasattr(pos, "q") else position(pos)  # (to a tenth, as the pages)


def _state_text(ship: ShipState) -> str:
    flags = [FLAG_TEXT.get(f, f.replace("_", " ")) for f in ship.flags]
    return ", ".join([ship.status, *flags])


def _preview(
    request: HttpRequest, battle: Battle, viewer: Viewer, step: MapStep, ship: ShipState | None
) -> dict[str, Any] | None:
    """Return the order-preview form's context for the selected ship, or None when it takes no orders now."""
    if ship is None or not step.is_latest or not ship.active or battle.status != BattleStatus.ACTIVE:
        return None
    if not (viewer.side_key is None or ship.side == viewer.side_key):
        return None
    phase = phase_open_for(battle=battle)
    if phase is None or ship.side not in (phase.sides or []):
        return None
    fields = move_fields(step.state.ruleset)
    if not fields:
        return None
    view = rules.get_ruleset(step.state.ruleset).view_for(step.state, viewer.side_key)
    asked = "preview" in request.GET
    names = {f.name for f in fields}
    if asked:
        data = order_data_from_query(fields, request.GET)
    else:
        # the saved order's movement, else the default (A7: keep course and speed)
        saved = order_get(phase=phase, viewer=viewer, ship_key=ship.id)
        if saved is not None:
            data = {k: v for k, v in saved.data.items() if k in names}
        else:
            try:
                default = rules.get_ruleset(view.ruleset).default_order(view, view.ship(ship.id), "hold")
                data = {k: v for k, v in default.data.items() if k in names}
            except Exception:
                data = {}
    path: list[Position] = []
    lines: list[str] = []
    errors: dict[str, list[str]] = {}
    if asked:
        path, lines, errors = move_preview(view, ship.id, data, side=ship.side)
    rows = [
        {
            "spec": f,
            "value": data.get(f.name, f.default if f.default is not None else ""),
            "errors": errors.get(f.name, []),
        }
        for f in fields
    ]
    other = [m for k, msgs in errors.items() if k not in names for m in msgs]
    return {
        "rows": rows,
        "path": path,
        "lines": lines,
        "errors": errors,
        "other_errors": other,
        "asked": asked,
    }


def _panel_context(request: HttpRequest, battle: Battle, viewer: Viewer) -> dict[str, Any]:
    step = map_step_get(battle=battle, viewer=viewer, index=_int_param(request, "step"))
    selected_key = request.GET.get("ship") or None
    ship: ShipState | None = None
    full = False
    if selected_key:
        ship, full = map_ship_get(step=step, viewer=viewer, ship_key=selected_key)
    preview = _preview(request, battle, viewer, step, ship)
    svg = render_map(
        step.state,
        viewer_side=viewer.side_key,
        events=step.events,
        previous=step.previous,
        selected=ship.id if ship is not None else None,
        preview_path=preview["path"] if preview else None,
        size=MAP_SIZE,
        link=lambda s: _map_url(battle, step.index, s.id),
        hx_target="#map-panel",
        link_attrs={"hx-push-url": "true"},
        title=f"{battle.name}: {step.label}",
        caption=step.label,
    )
    rs = rules.get_ruleset(step.state.ruleset)
    arcs = [
        {
            "label": a.label,
            "range": f"{a.range:g}",
            # a band per hex (memoir_sea's countdown) says nothing a list of numbers would
            "bands": ", ".join(f"{b:g}" for b in a.bands) if 0 < len(a.bands) <= 3 else "",
        }
        for a in (gun_arcs(step.state, ship) if ship is not None and full else [])
        if a.range > 0  # an arc where no gun bears owns its boundary on the map but is not listed
    ]
    names = {s.id: s.name for s in step.state.ships}
    rows, quiet = sheet_rows(ship.sheet, names, rs.sheet_texts(ship, names)) if ship is not None else ([], [])
    return {
        "battle": battle,
        "viewer": viewer,
        "step": step,
        "svg": mark_safe(svg),  # render_map escapes every text it puts in the SVG
        "ship": ship,
        "full": full,
        "own": ship is not None and (viewer.side_key is None or ship.side == viewer.side_key),
        "sheet_rows": rows,
        "sheet_quiet": quiet,
        "position": _position_text(ship) if ship is not None else "",
        "ship_state": _state_text(ship) if ship is not None else "",
        "arcs": arcs,
        "unit": "hexes" if rs.geometry.startswith("hex") else ("mm" if rs.geometry == "table_mm" else "in"),
        "preview": preview,
        "map_url": reverse("battles:battle_map", args=[battle.pk]),
        "svg_url": reverse("battles:battle_map_svg", args=[battle.pk]) + f"?step={step.index}",
        "nav": {
            # None at the step itself: the page shows a disabled button, as for prev/next
            "first": _map_url(battle, 0, selected_key) if step.index != 0 else None,
            "prev": _map_url(battle, step.prev, selected_key) if step.prev is not None else None,
            "next": _map_url(battle, step.next, selected_key) if step.next is not None else None,
            "last": _map_url(battle, step.last, selected_key) if step.index != step.last else None,
        },
        "side_name": next((s.name for s in step.state.sides if s.key == viewer.side_key), ""),
    }


@login_required
@vary_on_headers("HX-Request")
@require_http_methods(["GET"])
def battle_map(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The map at any replay step (``?step=N``, default the latest), a ship selected with ``?ship=key``, and
    with ``?preview=1`` the movement fields of an order previewed as a path. htmx gets the panel only."""
    battle, viewer = battle_get(user=request.user, battle_id=battle_id)
    ctx = _panel_context(request, battle, viewer)
    if getattr(request, "htmx", False):
        return render(request, "battles/map/page.html#panel", ctx)
    return render(request, "battles/map/page.html", ctx)


@login_required
@require_http_methods(["GET"])
def battle_map_svg(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The map of a replay step as an SVG file to download (for club newsletters)."""
    battle, viewer = battle_get(user=request.user, battle_id=battle_id)
    step = map_step_get(battle=battle, viewer=viewer, index=_int_param(request, "step"))
    label = f"{battle.name}: {step.label}"
    svg = render_map(
        step.state,
        viewer_side=viewer.side_key,
        events=step.events,
        previous=step.previous,
        size=MAP_SIZE,
        title=label,
        caption=label,
    )
    slug = re.sub(r"[^a-z0-9]+", "-", battle.name.lower()).strip("-") or "battle"
    who = viewer.side_key if viewer.side_key else ("umpire" if viewer.side_key is None else "observer")
    response = HttpResponse(
        '<?xml version="1.0" encoding="UTF-8"?>\n' + svg, content_type="image/svg+xml; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{slug}-step-{step.index}-{who}.svg"'
    return response


# --- the umpire's set-up editor ----------------------------------------------------------------------------


def _setup_context(
    battle: Battle,
    viewer: Viewer,
    state: BattleState,
    place_form: ShipPlaceForm,
    paint_form: TerrainPaintForm,
    conditions_form: ConditionsForm,
    selected: str | None,
    tool: str,
) -> dict[str, Any]:
    rs = rules.get_ruleset(state.ruleset)
    svg = render_map(
        state,
        viewer_side=None,
        selected=selected,
        size=MAP_SIZE,
        cells=True,
        show_arcs=False,
        link=lambda s: reverse("battles:battle_setup_map", args=[battle.pk]) + f"?ship={s.id}",
    )
    return {
        "battle": battle,
        "viewer": viewer,
        "svg": mark_safe(svg),
        "place_form": place_form,
        "paint_form": paint_form,
        "conditions_form": conditions_form,
        "visibility": state.conditions.visibility,
        "unit": "hexes" if rs.geometry.startswith("hex") else ("mm" if rs.geometry == "table_mm" else "in"),
        "terrain_kinds": rs.terrain_kinds,
        "ruleset": rs,
        "hexes": rs.geometry.startswith("hex"),
        "tool": tool,
    }


@login_required
@require_http_methods(["GET", "POST"])
def battle_setup_map(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The umpire's set-up editor: place and turn ships, paint terrain and mines, set the conditions, before
    the battle starts.

    POST ``action=place`` (ShipPlaceForm), ``action=paint`` (TerrainPaintForm; kind ``clear`` removes the
    terrain of a place) or ``action=conditions`` (ConditionsForm, the battle form's: NW-CAMP-20). Errors
    (form or rules) come back on the form with status 400; success redirects to the editor (or, with htmx,
    re-renders it)."""
    battle, viewer = battle_get(user=request.user, battle_id=battle_id)
    require_umpire(viewer)
    if battle.status != BattleStatus.SETUP:
        return redirect("battles:battle_map", battle_id=battle.pk)
    state = rules.from_json(BattleState, battle.state)
    rs = rules.get_ruleset(state.ruleset)
    selected = request.GET.get("ship") or request.POST.get("place-ship") or None
    action = request.POST.get("action", "")
    place_form = ShipPlaceForm(
        request.POST if action == "place" else None, state=state, prefix="place", initial={"ship": selected}
    )
    # the paint tool keeps its kind, side and depth from one click to the next (redirect below)
    keep = ("kind", "side", "depth", "radius")
    paint_form = TerrainPaintForm(
        request.POST if action == "paint" else None,
        state=state,
        prefix="paint",
        terrain_kinds=rs.terrain_kinds,
        initial={k: request.GET[k] for k in keep if request.GET.get(k)},
    )
    c = state.conditions
    conditions_form = ConditionsForm(
        request.POST if action == "conditions" else None,
        ruleset=state.ruleset,
        prefix="cond",
        initial={
            "night": c.night,
            "moon": c.moon,
            "weather": c.weather or "",
            "wind_from": f"{c.wind_from:g}" if c.wind_from is not None else "",
            "wind_force": c.wind_force or "",
        },
    )
    tool = "paint" if action == "paint" or request.GET.get("tool") == "paint" else "place"
    status = 200
    if request.method == "POST" and action == "conditions":
        # the battle's conditions (NW-CAMP-20): the battle form's fields and checks (ConditionsForm)
        if conditions_form.is_valid() and conditions_form.conditions is not None:
            try:
                services.battle_setup_conditions_set(
                    battle=battle, user=request.user, conditions=conditions_form.conditions
                )
            except ApplicationError as error:
                add_to_form(conditions_form, error)
                status = error.status
            else:
                url = reverse("battles:battle_setup_map", args=[battle.pk])
                return redirect(url + (f"?{urlencode({'ship': selected})}" if selected else ""))
        else:
            status = 400
    elif request.method == "POST":
        form: ShipPlaceForm | TerrainPaintForm = place_form if action == "place" else paint_form
        if action not in ("place", "paint"):
            status = 400
        elif form.is_valid():
            try:
                if action == "place":
                    map_services.battle_setup_ship_place(
                        battle=battle,
                        user=request.user,
                        ship_key=form.cleaned_data["ship"],
                        position=form.cleaned_data["position"],
                        heading=form.cleaned_data.get("heading"),
                    )
                elif form.cleaned_data["kind"] == "clear":
                    map_services.battle_setup_terrain_clear(
                        battle=battle, user=request.user, position=form.cleaned_data["position"]
                    )
                else:
                    assert isinstance(form, TerrainPaintForm)
                    map_services.battle_setup_terrain_paint(
                        battle=battle,
                        user=request.user,
                        position=form.cleaned_data["position"],
                        kind=form.cleaned_data["kind"],
                        side=form.cleaned_data.get("side") or "",
                        props=form.props(),
                    )
            except ApplicationError as error:
                add_to_form(form, error)
                status = error.status
            else:
                params = {"ship": selected or ""}
                if action == "paint":
                    params["tool"] = "paint"
                    params.update({k: str(form.cleaned_data.get(k) or "") for k in keep})
                query = urlencode({k: v for k, v in params.items() if v})
                url = reverse("battles:battle_setup_map", args=[battle.pk])
                return redirect(url + (f"?{query}" if query else ""))
        else:
            status = 400
    ctx = _setup_context(
        battle,
        viewer,
        rules.from_json(BattleState, battle.state),
        place_form,
        paint_form,
        conditions_form,
        selected,
        tool,
    )
    return render(request, "battles/map/setup.html", ctx, status=status)


@login_required
@require_POST
def battle_start(request: HttpRequest, battle_id: int) -> HttpResponse:
    """Start a battle in set-up: the set-up editor's and the battle page's "Start battle" (umpire only;
    docs/rulings.md NW-CAMP-21). ``services.battle_start`` checks the state and opens the first phase as a
    battle created and started at once does; the umpire lands on the battle page.

    A refusal is a message, nothing changed: a battle already started (a second click, another tab) on the
    battle page; a set-up the rules refuse (``bad_setup``) back in the set-up editor, to be mended there."""
    battle, viewer = battle_get(user=request.user, battle_id=battle_id)
    require_umpire(viewer)
    try:
        phase = services.battle_start(battle=battle, user=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
        if error.code == "bad_setup":
            return redirect("battles:battle_setup_map", battle_id=battle.pk)
        return redirect("battles:battle", battle.pk)
    messages.success(request, f"The battle has started: phase {phase.number} is open for orders.")
    return redirect("battles:battle", battle.pk)
