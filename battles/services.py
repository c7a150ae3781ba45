"""Writes for the battles app (HackSoft style: keyword-only ``<entity>_<action>`` functions).

Each top-level service is one ``transaction.atomic()``; Celery tasks are enqueued with ``delay_on_commit``
(ids only). Errors a user can read are :class:`navalwar.errors.ApplicationError` with a stable code.

Locking order (to avoid deadlocks): phase rows first, then the battle row. Every write that depends on a
phase being open locks the phase row (``select_for_update``) and compares deadlines with the database's
clock (``Now()``), so an order and a closing phase are serialised: the order is either saved before the close
or refused with ``phase_closed`` / ``deadline_passed``.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import secrets
import socket
import time
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, NoReturn

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db import connection as db_connection
from django.db.models import F, Max, Q
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.formats import date_format

import rules
from battles import display, selectors, sheet_edits
from battles.models import (
    BATTLE_ENDED,
    BATTLE_ENDED_REOPENED,
    CAMPAIGN_DESCRIPTION_MAX,
    SIDE_PALETTE,
    SIDES_MAX,
    Battle,
    BattleShip,
    BattleStatus,
    Campaign,
    CampaignShip,
    Invitation,
    LogEvent,
    Membership,
    Order,
    Phase,
    PhaseErrorKind,
    PhaseSide,
    PhaseStatus,
    RepairRecord,
    Role,
    ShipEdit,
    ShipStatus,
    Side,
    UmpireAction,
    UmpireActionKind,
    UserProfile,
    WorkerHeartbeat,
    campaign_ship_named,
    ship_name_taken_message,
    side_colour,
)
from fleets import services as fleet_services
from fleets.models import Nation, Ship, ShipClass
from navalwar.celery import BROKER_ERRORS
from navalwar.errors import ApplicationError, ConflictError, PermissionDeniedError
from navalwar.text import name_problem, prose_problem
from rules.base import DEFAULT_POLICIES, side_list, validate_fields
from rules.geometry import hex_to_offset, on_hex_map, on_table
from rules.model import BattleState, Conditions, Event, Hex, MapSpec, Point, ShipOrder, ShipState, SideInfo

logger = logging.getLogger(__name__)

DEFAULT_DEADLINE_HOURS = 48
DEFAULT_REMINDER_HOURS = 12
INVITATION_DAYS = 7
# A phase in "resolving" longer than this with no worker holding it is re-enqueued by the sweep.
RESOLVE_STALE_SECONDS = 120
# A resolve task that finds its phase still resolving but its row locked tries to claim it again for this
# long, CLAIM_RETRY_SECONDS apart: a request holds the lock for a moment (an order refused after the close
# locks the row to check it), another run of the task for the whole resolution (that one is left to it).
CLAIM_WAIT_SECONDS = 2.0
CLAIM_RETRY_SECONDS = 0.1
# The battle page says resolution is delayed for a phase in "resolving" longer than this (a worker normally
# takes well under a second), or at once when its resolve task could not be sent (the broker was down).
RESOLVE_DELAYED_SECONDS = 60
# Automatic retries of a resolution that failed for a transient reason (TRANSIENT_RESOLVE_ERRORS) or whose
# worker was lost: the sweep sends the resolve task again at most this many times, the n-th time (n = 0, 1..)
# no sooner than min(RETRY_BASE_SECONDS * 2**n, RETRY_MAX_SECONDS) after the failure; then the phase fails.
AUTO_RETRY_LIMIT = 5
RETRY_BASE_SECONDS = 60
RETRY_MAX_SECONDS = 30 * 60
# What a resolution raises when the database or the broker is unavailable: worth trying again as it is.
# Anything else comes from the rules (or our own code) on this state and these orders, and would fail again.
TRANSIENT_RESOLVE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, *BROKER_ERRORS)
# Test-only hook (integration tests): seconds the resolution sleeps inside its transaction before commit.
TEST_SLEEP_ENV = "NAVALWAR_TEST_RESOLVE_SLEEP"
# Ready (or not ready) pressed after the phase closed or its deadline passed: about readiness, not orders.
READY_TOO_LATE = (
    "This phase has already closed, so your side can no longer be marked ready or not ready: the phase is "
    "resolved with the orders given (ships without orders follow the default orders)."
)
# Ready (or not ready) pressed after the side's own deadline passed, while the phase waits for other sides.
READY_PAST_DEADLINE = (
    "Your side's deadline has passed, so it can no longer be marked ready or not ready: its orders stand as "
    "saved (ships without orders follow the default orders), and the phase resolves when the other sides are "
    "ready or their deadlines pass."
)


def ready_refusal(error: ApplicationError) -> str:
    """Return what to tell a player whose ready (or not ready) was refused with ``error``."""
    if error.code == "deadline_passed":
        return READY_PAST_DEADLINE
    if error.code == "phase_closed":
        return READY_TOO_LATE
    return error.message


CAMPAIGN_SETTING_KEYS = ("default_orders", "deadline_hours", "reminder_hours")


# --- small helpers ---------------------------------------------------------------------------------------


def heartbeat_record(*, token: str, hostname: str | None = None) -> WorkerHeartbeat:
    """Store the heartbeat ``token`` once; a second call with the same token returns the first row."""
    with transaction.atomic():
        heartbeat, _created = WorkerHeartbeat.objects.get_or_create(
            token=token, defaults={"hostname": hostname or socket.gethostname()}
        )
    return heartbeat


def seed_hash(seed: int) -> str:
    """Return the SHA-256 hex digest of ``str(seed)``, shown when a phase opens (A8)."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def dice_seed(*, battle_id: int, purpose: str) -> int:
    """Return a new 63-bit dice seed for ``battle_id`` (``purpose``: a phase number, or ``setup``).

    In play the seed comes from ``secrets`` and stays secret until its phase is resolved (A8). With the
    test and development hook ``settings.NAVALWAR_DICE_SEED_BASE`` set (production refuses it, see
    navalwar/settings.py) it is derived instead: the first 63 bits of
    ``sha256(f"{base}:{battle_id}:{purpose}")``, so an end-to-end test (or a developer) replays the same
    dice in the web process and in the Celery worker.
    """
    base = getattr(django_settings, "NAVALWAR_DICE_SEED_BASE", "")
    if not base:
        return secrets.randbits(63)
    digest = hashlib.sha256(f"{base}:{battle_id}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _membership(campaign_id: int, user: Any) -> Membership | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.select_related("side").filter(campaign_id=campaign_id, user=user).first()


def _require_umpire(campaign_id: int, user: Any) -> Membership:
    membership = _membership(campaign_id, user)
    if membership is None or membership.role != Role.UMPIRE:
        raise PermissionDeniedError("not_umpire", "Only an umpire of this campaign may do that.")
    return membership


def _lock_phase(phase_id: int) -> Phase:
    """Lock a phase row and read the database clock with it (``phase.db_now``)."""
    try:
        return (
            Phase.objects.select_for_update(of=("self",))
            .select_related("battle__campaign")
            .annotate(db_now=Now())
            .get(pk=phase_id)
        )
    except Phase.DoesNotExist as exc:
        raise ApplicationError("no_phase", "There is no such phase.", status=404) from exc


def _umpire_action(
    battle: Battle,
    user: Any,
    kind: str,
    text: str,
    *,
    phase: Phase | None = None,
    side: Side | None = None,
) -> UmpireAction:
    """Record an umpire's action on ``battle`` (who, when, what, in words) in the acting service's transaction
    (docs/rulings.md NW-CAMP-11)."""
    return UmpireAction.objects.create(
        battle=battle,
        phase=phase,
        side=side,
        umpire=user if getattr(user, "is_authenticated", False) else None,
        kind=kind,
        text=text,
    )


def _name_checked(name: str, *, field: str = "name", whose: str = "") -> None:
    """Raise ``bad_name`` on ``field`` when ``name`` holds what no name may (a Unicode direction control,
    a NUL: ``navalwar.text.name_problem``, docs/rulings.md NW-CAMP-24); ``whose`` starts the message
    (``"Side 'Royal Navy': "``)."""
    problem = name_problem(name)
    if problem:
        message = f"{whose}{problem[0].upper() if not whose else problem[0]}{problem[1:]}."
        raise ApplicationError("bad_name", message, fields={field: [message]})


def _prose_checked(text: str, *, field: str) -> None:
    """Raise ``bad_text`` on ``field`` when a reason or description holds what none may (a direction control
    that turns the text after it, a NUL: ``navalwar.text.prose_problem``, docs/rulings.md NW-CAMP-34)."""
    problem = prose_problem(text)
    if problem:
        message = f"{problem[0].upper()}{problem[1:]}."
        raise ApplicationError("bad_text", message, fields={field: [message]})


def _side_colours(
    sides: Sequence[Mapping[str, Any]], taken: Sequence[str] = (), *, field: str = "sides"
) -> list[str]:
    """Return each side's colour as kept (``side_colour``), those given none the first of
    :data:`SIDE_PALETTE` free (not given nor ``taken``); raise ``bad_colour`` for one that is no colour and
    ``same_colour`` for two sides of one colour (docs/rulings.md NW-CAMP-35)."""
    used = {side_colour(c) for c in taken} - {None}
    out: list[str] = []
    for side in sides:
        given = str(side.get("colour") or "")
        colour = side_colour(given) if given else ""
        if colour is None:
            message = f"Side {side['key']}: {given!r} is no colour; enter a CSS colour like #1f4e9c."
            raise ApplicationError("bad_colour", message, fields={field: [message]})
        if colour and colour in used:
            message = (
                f"Side {side['key']}: another side has the colour {colour}; give each side its own (the "
                "map tells them apart by it)."
            )
            raise ApplicationError("same_colour", message, fields={field: [message]})
        used.add(colour)
        out.append(colour)
    free = iter([c for c in SIDE_PALETTE if c not in used])
    return [c or next(free, "#888888") for c in out]


def _when(moment: datetime) -> str:
    """A moment as the site's pages show it: ``Thu 3 Dec 2026 03:27 UTC`` (in the site's time zone)."""
    return date_format(timezone.localtime(moment), "D j M Y H:i T")


def _state(data: Mapping[str, Any]) -> BattleState:
    return rules.from_json(BattleState, data)


def _battle_options(campaign: Campaign, sides: Sequence[str]) -> dict[str, Any]:
    """Return the campaign settings copied into BattleState.options: default_orders and rule-set options,
    an option's list of sides kept to the battle's ``sides`` (NW-CAMP-10)."""
    rs = rules.get_ruleset(campaign.ruleset)
    keys = {"default_orders"} | {spec.name for spec in rs.options}
    options = {k: v for k, v in (campaign.settings or {}).items() if k in keys}
    return rs.options_for_sides(options, sides)


def carried_sheet(*, ruleset: str, sheet: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the part of a campaign ship's sheet a new battle carries (``RuleSet.sheet_between_battles``):
    her damage and losses, but not the values the rule set works out from a campaign option at set-up
    (``RuleSet.option_sheet_keys``, NW-CAMP-01) nor the state of her last battle (a searchlight on, a fire
    burning, steering damage until turn 2 of that battle: ``RuleSet.battle_only_sheet_keys``, NW-CAMP-17),
    which the new battle's set-up gives afresh."""
    return rules.get_ruleset(ruleset).sheet_between_battles(sheet or {})


def repair_form_sheet(*, ruleset: str, sheet: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the entries of a campaign ship's sheet that her repair form shows and a repair must give
    (NW-CAMP-05): those her next battle carries (the keys :func:`carried_sheet` keeps), with their values as
    stored. Not shown: her last battle's own state (NW-CAMP-17) and the values each battle works out from an
    option (NW-CAMP-01); a repair keeps them as they are."""
    current = dict(sheet or {})
    carried = carried_sheet(ruleset=ruleset, sheet=current)
    return {k: v for k, v in current.items() if k in carried}


# --- profiles --------------------------------------------------------------------------------------------


def profile_get(*, user: Any) -> UserProfile:
    """Return the user's profile, creating it with the defaults (UTC, e-mail on) the first time."""
    profile, _ = UserProfile.objects.get_or_create(user=user)
    return profile


def profile_update(
    *, user: Any, time_zone: str, email_notifications: bool, email: str | None = None
) -> UserProfile:
    """Set a user's time zone (an IANA name), e-mail opt-in and, when given, e-mail address (``""`` for none).
    Raise ``bad_time_zone`` for unknown zones, ``no_email`` when e-mails are asked for without an address."""
    import zoneinfo

    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ApplicationError(
            "bad_time_zone", f"Unknown time zone {time_zone!r}.", fields={"time_zone": ["Unknown time zone."]}
        ) from exc
    if email is not None:
        email = email.strip()
        if email_notifications and not email:
            message = "Give an e-mail address for the turn e-mails, or turn them off."
            raise ApplicationError("no_email", message, fields={"email": [message]})
    with transaction.atomic():
        profile, _ = UserProfile.objects.select_for_update().get_or_create(user=user)
        profile.time_zone = time_zone
        profile.email_notifications = email_notifications
        profile.save()
        if email is not None and email != user.email:
            user.email = email
            user.save(update_fields=["email"])
    return profile


# --- campaigns -------------------------------------------------------------------------------------------


def campaign_settings_clean(
    *, ruleset: str, settings: Mapping[str, Any], sides: Sequence[str] | None = None
) -> dict[str, Any]:
    """Return campaign settings checked against A7's policies and the rule set's options.

    Keys: ``default_orders`` (hold | fire_nearest | captain; default fire_nearest), ``deadline_hours``
    (1-720, default 48), ``reminder_hours`` (0-240, default 12; 0 = no reminder; fewer than the deadline's)
    and the rule set's
    options (``rules.get_ruleset(key).options``); an option listing sides names only keys of ``sides``, the
    campaign's side keys, when given (NW-CAMP-10). Raise ``bad_settings`` with field messages.
    """
    try:
        rs = rules.get_ruleset(ruleset)
    except rules.UnknownRuleset as exc:
        raise ApplicationError("unknown_ruleset", str(exc), fields={"ruleset": [str(exc)]}) from exc
    errors: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    policy = settings.get("default_orders", "fire_nearest")
    if policy not in DEFAULT_POLICIES:
        errors["default_orders"] = [f"Select one of {', '.join(DEFAULT_POLICIES)}."]
    out["default_orders"] = policy
    for key, default, lo, hi in (
        ("deadline_hours", DEFAULT_DEADLINE_HOURS, 1, 720),
        ("reminder_hours", DEFAULT_REMINDER_HOURS, 0, 240),
    ):
        value = settings.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            errors[key] = [f"Enter a number of hours from {lo} to {hi}."]
        out[key] = value
    reminder, hours = out["reminder_hours"], out["deadline_hours"]
    if not errors and reminder and reminder >= hours:
        errors["reminder_hours"] = [
            f"A reminder {reminder:g} hours before a {hours:g}-hour deadline would go out as the phase "
            "opens: give fewer hours than the deadline, or 0 for no reminder."
        ]
    option_names = {spec.name for spec in rs.options}
    options = {k: v for k, v in settings.items() if k in option_names}
    option_errors = validate_fields(tuple(replace(s, required=False) for s in rs.options), options)
    errors.update(option_errors)
    if sides is not None:
        for name, messages in rs.option_side_errors(options, sides).items():
            errors.setdefault(name, []).extend(messages)
    unknown = sorted(set(settings) - option_names - set(CAMPAIGN_SETTING_KEYS))
    if unknown:
        errors.setdefault("__all__", []).append(f"Unknown settings: {', '.join(unknown)}.")
    if errors:
        raise ApplicationError("bad_settings", "The campaign settings have errors.", fields=errors)
    for name in rs.option_side_lists:
        if isinstance(options.get(name), str):
            # "britain,britain," is saved as "britain": each side once, no empty keys (NW-CAMP-18)
            options[name] = ",".join(dict.fromkeys(side_list(options[name])))
    out.update(options)
    return out


def campaign_create(
    *,
    name: str,
    ruleset: str,
    created_by: Any,
    description: str = "",
    settings: Mapping[str, Any] | None = None,
    sides: Sequence[Mapping[str, Any]] = (),
) -> Campaign:
    """Create a campaign with its sides; ``created_by`` becomes its first umpire.

    ``sides`` are ``{"key", "name", "colour"?, "nation"?: Nation}``. Raise ``bad_settings`` /
    ``unknown_ruleset``, ``bad_name`` for a blank name or one longer than its column (120 characters),
    or a campaign or side name holding a direction control (NW-CAMP-24), and ``description_too_long`` for
    a description over :data:`battles.models.CAMPAIGN_DESCRIPTION_MAX` characters.
    """
    name_max = Campaign._meta.get_field("name").max_length or 0
    if not name.strip() or len(name) > name_max:
        message = f"Give the campaign a name of 1 to {name_max} characters (it has {len(name.strip())})."
        raise ApplicationError("bad_name", message, fields={"name": [message]})
    _name_checked(name)
    for side in sides:
        side_name = side.get("name") or side["key"]
        _name_checked(side_name, field="sides", whose=f"Side {side['key']}: ")
    if len(sides) > SIDES_MAX:
        message = f"A campaign has at most {SIDES_MAX} sides (this has {len(sides)}), each of its own colour."
        raise ApplicationError("too_many_sides", message, fields={"sides": [message]})
    colours = _side_colours(sides)
    if len(description) > CAMPAIGN_DESCRIPTION_MAX:
        limit, length = CAMPAIGN_DESCRIPTION_MAX, len(description)
        message = f"Keep the description to {limit} characters (it has {length})."
        raise ApplicationError("description_too_long", message, fields={"description": [message]})
    _prose_checked(description, field="description")
    keys = [side["key"] for side in sides]
    clean = campaign_settings_clean(ruleset=ruleset, settings=settings or {}, sides=keys)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name, ruleset=ruleset, description=description, settings=clean, created_by=created_by
        )
        for side, colour in zip(sides, colours, strict=True):
            Side.objects.create(
                campaign=campaign,
                key=side["key"],
                name=side.get("name") or side["key"],
                colour=colour,
                nation=side.get("nation"),
            )
        if created_by is not None:
            Membership.objects.create(campaign=campaign, user=created_by, role=Role.UMPIRE)
    return campaign


def campaign_settings_update(*, campaign: Campaign, user: Any, settings: Mapping[str, Any]) -> Campaign:
    """Replace a campaign's settings (umpire only). Running battles keep the options they began with."""
    with transaction.atomic():
        _require_umpire(campaign.pk, user)
        sides = list(Side.objects.filter(campaign=campaign).values_list("key", flat=True))
        clean = campaign_settings_clean(ruleset=campaign.ruleset, settings=settings, sides=sides)
        campaign.settings = clean
        campaign.save(update_fields=["settings"])
    return campaign


def side_create(
    *, campaign: Campaign, key: str, name: str, colour: str = "", nation: Nation | None = None
) -> Side:
    """Add a side to a campaign; one given no colour gets the first of the palette free. Raise
    ``side_exists`` when the key is taken, ``bad_name`` for a name holding a direction control (NW-CAMP-24),
    ``too_many_sides`` past :data:`SIDES_MAX`, ``bad_colour`` and ``same_colour`` for a colour that is none
    or another side's (NW-CAMP-35)."""
    _name_checked(name)
    with transaction.atomic():
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # one side added at a time
        if Side.objects.filter(campaign=campaign, key=key).exists():
            raise ApplicationError(
                "side_exists", f"The campaign already has a side {key!r}.", fields={"key": ["Already used."]}
            )
        taken = list(Side.objects.filter(campaign=campaign).values_list("colour", flat=True))
        if len(taken) >= SIDES_MAX:
            message = f"The campaign has {len(taken)} sides, the most it may have ({SIDES_MAX})."
            raise ApplicationError("too_many_sides", message, fields={"key": [message]})
        (kept,) = _side_colours([{"key": key, "colour": colour}], taken, field="colour")
        return Side.objects.create(campaign=campaign, key=key, name=name, colour=kept, nation=nation)


def membership_add(*, campaign: Campaign, user: Any, role: str, side: Side | None = None) -> Membership:
    """Make ``user`` a member of ``campaign``. Players need a side of that campaign.

    Raise ``already_member`` when the user is already in the campaign, ``side_required`` / ``bad_side``.
    """
    if role not in Role.values:
        raise ApplicationError("bad_role", f"Unknown role {role!r}.")
    if role == Role.PLAYER and side is None:
        raise ApplicationError("side_required", "A player must belong to a side.")
    if side is not None and side.campaign_id != campaign.pk:
        raise ApplicationError("bad_side", "That side is not in this campaign.")
    with transaction.atomic():
        if Membership.objects.filter(campaign=campaign, user=user).exists():
            raise ConflictError("already_member", f"{user} is already a member of {campaign}.")
        return Membership.objects.create(
            campaign=campaign, user=user, role=role, side=side if role != Role.UMPIRE else None
        )


# --- invitations -----------------------------------------------------------------------------------------


def invitation_create(
    *,
    campaign: Campaign,
    created_by: Any,
    role: str = Role.PLAYER,
    side: Side | None = None,
    expires_in: timedelta = timedelta(days=INVITATION_DAYS),
) -> Invitation:
    """Create a single-use invitation link (umpire only); players' invitations name a side, and only theirs
    (an umpire or observer sees every side or none: a side there would be listed but mean nothing). Raise
    ``side_required``, ``side_not_for_role``, ``bad_side``."""
    if role == Role.PLAYER and side is None:
        raise ApplicationError(
            "side_required", "A player's invitation must name a side.", fields={"side": ["Choose a side."]}
        )
    if role != Role.PLAYER and side is not None:
        message = f"Only a player's invitation names a side: an {role} has none. Leave the side empty."
        raise ApplicationError("side_not_for_role", message, fields={"side": [message]})
    if side is not None and side.campaign_id != campaign.pk:
        raise ApplicationError("bad_side", "That side is not in this campaign.")
    with transaction.atomic():
        _require_umpire(campaign.pk, created_by)
        return Invitation.objects.create(
            campaign=campaign,
            side=side,
            role=role,
            token=secrets.token_urlsafe(32),
            expires_at=timezone.now() + expires_in,
            created_by=created_by,
        )


def _invitation_lock(token: str) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("campaign", "side")
        .annotate(db_now=Now())
        .filter(token=token)
        .first()
    )
    if invitation is None:
        raise ApplicationError("invitation_unknown", "This invitation link is not valid.", status=404)
    if invitation.used_at is not None:
        raise ConflictError("invitation_used", "This invitation has already been used.")
    if invitation.revoked_at is not None:  # NW-CAMP-26
        raise ApplicationError(
            "invitation_revoked",
            "This invitation was revoked by the campaign's umpire: ask them for a new link.",
            status=410,
        )
    if invitation.expires_at <= invitation.db_now:  # type: ignore[attr-defined]
        raise ApplicationError(
            "invitation_expired", "This invitation has expired; ask your umpire for a new one.", status=410
        )
    return invitation


def invitation_check(*, token: str) -> Invitation:
    """Return the invitation if it can still be used; raise ``invitation_unknown|used|revoked|expired``
    otherwise."""
    with transaction.atomic():
        return _invitation_lock(token)


def invitation_revoke(*, campaign: Campaign, invitation_id: int, user: Any) -> Invitation:
    """Revoke an unused invitation of ``campaign`` (umpire only; docs/rulings.md NW-CAMP-26): its link no
    longer works and says it was revoked (``invitation_revoked``, 410). The invitation keeps who revoked it
    and when (``revoked_by``, ``revoked_at``), as it keeps who used it. Return it, saved.

    Raise ``not_umpire`` (403), ``invitation_unknown`` (404: none of this campaign has that id),
    ``invitation_used`` (409: its user is a member now; nothing changes) and ``invitation_revoked`` (409: a
    second click; nothing changes). An expired invitation may be revoked: its link then says revoked."""
    with transaction.atomic():
        _require_umpire(campaign.pk, user)
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("side")
            .filter(campaign=campaign, pk=invitation_id)
            .first()
        )
        if invitation is None:
            raise ApplicationError(
                "invitation_unknown", "There is no such invitation in this campaign.", status=404
            )
        if invitation.used_at is not None:
            raise ConflictError(
                "invitation_used",
                "This invitation has already been used: its user is a member of the campaign now. Nothing "
                "was changed.",
            )
        if invitation.revoked_at is not None:
            raise ConflictError(
                "invitation_revoked", "This invitation is already revoked. Nothing was changed."
            )
        invitation.revoked_by = user
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_by", "revoked_at"])
    return invitation


def invitation_accept(*, token: str, user: Any) -> Membership:
    """Use an invitation: ``user`` joins its campaign with its role and side. Single use, under a lock."""
    with transaction.atomic():
        invitation = _invitation_lock(token)
        membership = membership_add(
            campaign=invitation.campaign, user=user, role=invitation.role, side=invitation.side
        )
        invitation.used_by = user
        invitation.used_at = timezone.now()
        invitation.save(update_fields=["used_by", "used_at"])
    return membership


def invitation_accept_new_user(*, token: str, username: str, password: str, email: str = "") -> Membership:
    """Create an account (the only sign-up path) and use the invitation with it, in one transaction.

    The user name must pass the user model's validators (letters, digits and @/./+/-/_), the password the
    site's validators (12 characters at least). Raise ``bad_signup`` with field messages, or the invitation
    errors.
    """
    user_model = get_user_model()
    with transaction.atomic():
        _invitation_lock(token)
        errors: dict[str, list[str]] = {}
        username = username.strip()
        # (what create_user would save: NFKC, "ﬁsh" -> "fish"; the login form does not fold it so)
        normalized = user_model.normalize_username(username)
        if not username:
            errors["username"] = ["Enter a user name."]
        elif normalized != username:
            errors["username"] = [
                f"Type the user name in plain letters: it would be saved as {normalized!r}, and that is "
                "what you would log in with."
            ]
        elif _username_taken(user_model, username):
            errors["username"] = ["That user name is taken."]
        else:
            # The user model's own rules (letters, digits and @/./+/-/_ only, 150 characters at most): the
            # admin and the login form refuse any other user name.
            try:
                user_model._meta.get_field(user_model.USERNAME_FIELD).run_validators(username)
            except ValidationError as exc:
                errors["username"] = list(exc.messages)
        candidate = user_model(username=username, email=email)
        try:
            validate_password(password, candidate)
        except ValidationError as exc:
            errors["password"] = list(exc.messages)
        if errors:
            raise ApplicationError("bad_signup", "The account could not be created.", fields=errors)
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(username=username, email=email, password=password)
        except IntegrityError as exc:  # taken in the meantime (another sign-up with the same name)
            message = "That user name is taken."
            raise ApplicationError(
                "bad_signup", "The account could not be created.", fields={"username": [message]}
            ) from exc
        return invitation_accept(token=token, user=user)


def _username_taken(user_model: Any, username: str) -> bool:
    """Whether another account has ``username`` in any case: SQLite's ``iexact`` folds ASCII letters only,
    so a name with others (``Émile``, ``émile``) is compared case-folded in Python as well."""
    if user_model.objects.filter(username__iexact=username).exists():
        return True
    if username.isascii():
        return False
    folded = username.casefold()
    names = user_model.objects.values_list("username", flat=True)
    return any(name.casefold() == folded for name in names.iterator())


# --- campaign ships --------------------------------------------------------------------------------------


def campaign_ship_add(
    *,
    campaign: Campaign,
    side: Side,
    ship: Ship,
    commander: Any = None,
    sheet: Mapping[str, Any] | None = None,
) -> CampaignShip:
    """Put a fleets Ship into a campaign on ``side``, commanded by ``commander`` (a player of that side).
    Raise ``ship_name_taken`` (409) when another ship of the campaign has her name in any case
    (docs/rulings.md NW-CAMP-25), ``ship_in_campaign`` (409) when she is in it already."""
    if side.campaign_id != campaign.pk:
        raise ApplicationError("bad_side", "That side is not in this campaign.")
    if ship.ship_class.ruleset != campaign.ruleset:
        raise ApplicationError(
            "wrong_ruleset",
            f"{ship} is a {ship.ship_class.ruleset} ship; this campaign plays {campaign.ruleset}.",
        )
    with transaction.atomic():
        if commander is not None:
            _require_player_of(campaign, commander, side)
        _lock_campaign(campaign)  # two ships of one name added at once (NW-CAMP-25)
        other = campaign_ship_named(campaign.pk, ship.name, exclude_ship_id=ship.pk)
        if other is not None:
            message = ship_name_taken_message(other)
            raise ConflictError("ship_name_taken", message, fields={"name": [message]})
        cship, created = CampaignShip.objects.get_or_create(
            campaign=campaign,
            ship=ship,
            defaults={"side": side, "commander": commander, "sheet": dict(sheet or {})},
        )
        if not created:
            raise ConflictError("ship_in_campaign", f"{ship} is already in this campaign.")
    return cship


def campaign_ship_commission(
    *, campaign: Campaign, user: Any, side: Side, ship_class: ShipClass, name: str, pennant: str = ""
) -> CampaignShip:
    """Put a named ship of ``ship_class`` into the campaign on ``side`` (umpire only): the fleets Ship of
    that name and class, made if there is none yet (its pennant then ``pennant``), joins the campaign with a
    new sheet (her first battle fills it from the class) and no commander. A ship already in the fleet list
    without a pennant takes the one typed; one with another pennant is refused (``pennant_differs``, on the
    pennant field): the umpire typed the pennant of another ship, or meant another ship of that name.

    Raise ``not_umpire`` (403); ``bad_name`` for a blank name, one over 120 characters or one holding a
    direction control (NW-CAMP-24); ``wrong_ruleset``
    for a class of another rule set and ``bad_side`` for a side of another campaign (a forged post);
    ``pennant_differs`` as above;
    ``ship_in_campaign`` (409) when that ship is in the campaign already, ``ship_name_taken`` (409, on the
    name field) when another ship of the campaign has that name in any case (a ship of another class, or
    "HOOD" for "Hood": NW-CAMP-25). Nothing is saved when refused.
    """
    name, pennant = name.strip(), pennant.strip()
    name_max = Ship._meta.get_field("name").max_length or 0
    pennant_max = Ship._meta.get_field("pennant").max_length or 0
    if not name or len(name) > name_max:
        message = f"Give the ship a name of 1 to {name_max} characters."
        raise ApplicationError("bad_name", message, fields={"name": [message]})
    _name_checked(name)
    if len(pennant) > pennant_max:
        message = f"Keep the pennant to {pennant_max} characters."
        raise ApplicationError("bad_pennant", message, fields={"pennant": [message]})
    with transaction.atomic():
        _require_umpire(campaign.pk, user)
        if ship_class.ruleset != campaign.ruleset:
            message = (
                f"{ship_class.name} is a {ship_class.ruleset} class; this campaign plays {campaign.ruleset}."
            )
            raise ApplicationError("wrong_ruleset", message, fields={"ship_class": [message]})
        if side.campaign_id != campaign.pk:
            raise ApplicationError(
                "bad_side", "That side is not in this campaign.", fields={"side": ["No such side."]}
            )
        ship, created = Ship.objects.get_or_create(
            name=name, ship_class=ship_class, defaults={"pennant": pennant}
        )
        if CampaignShip.objects.filter(campaign=campaign, ship=ship).exists():
            raise ConflictError(
                "ship_in_campaign",
                f"{ship.name} ({ship_class.name}) is already in this campaign. Nothing was added.",
            )
        if not created and pennant and pennant != ship.pennant:
            if ship.pennant:
                message = (
                    f"The fleet list already has {ship.name} ({ship_class.name}) with pennant "
                    f"{ship.pennant}: leave the pennant blank or type {ship.pennant} to add her, or give "
                    "another name for another ship."
                )
                raise ApplicationError("pennant_differs", message, fields={"pennant": [message]})
            ship.pennant = pennant  # she had none: the one typed is hers now
            ship.save(update_fields=["pennant"])
        return campaign_ship_add(campaign=campaign, side=side, ship=ship)


def _require_player_of(campaign: Campaign, user: Any, side: Side) -> None:
    if not Membership.objects.filter(campaign=campaign, user=user, role=Role.PLAYER, side=side).exists():
        raise ApplicationError("not_player_of_side", f"{user} is not a player of {side}.")


def campaign_ship_assign(*, campaign_ship: CampaignShip, user: Any, commander: Any) -> CampaignShip:
    """Give a ship to a player of its side, or to nobody (``commander=None``: any player of the side)."""
    with transaction.atomic():
        _require_umpire(campaign_ship.campaign_id, user)
        if commander is not None:
            _require_player_of(campaign_ship.campaign, commander, campaign_ship.side)
        campaign_ship.commander = commander
        campaign_ship.save(update_fields=["commander"])
    return campaign_ship


def _derived_values_unchanged(cship: CampaignShip, sheet: Mapping[str, Any]) -> None:
    """Refuse a repair that changes a sheet value the next battle works out again from an option
    (NW-CAMP-01): the change would be lost without a word."""
    campaign = Campaign.objects.only("ruleset").get(pk=cship.campaign_id)
    rs = rules.get_ruleset(campaign.ruleset)
    labels = {spec.name: spec.label for spec in rs.options}
    errors = [
        f"{key} is worked out again from the ship's class and the campaign's option "
        f"'{labels.get(option, option)}' when each battle is set up; a repair cannot change it (NW-CAMP-01)."
        for option, keys in rs.option_sheet_keys.items()
        for key in keys
        if key in sheet and sheet[key] != (cship.sheet or {}).get(key)
    ]
    if errors:
        raise ApplicationError("derived_sheet_value", " ".join(errors), fields={"sheet": errors})


def _repaired_sheet(
    cship: CampaignShip, sheet: Mapping[str, Any], status: str | None = None
) -> dict[str, Any]:
    """Return the sheet a repair saves, or refuse it (``bad_sheet``, a message on the sheet field).

    NW-CAMP-05: a repair sets the entries of the ship's sheet that her next battle carries, as the form shows
    them (:func:`repair_form_sheet`): each of them given, of the same kind as now, numbers from 0 to
    1,000,000 (NW-CAMP-04), no entry she lacks. A carried entry left out is refused (her next battle would
    work it out afresh: a crew grade rolled again, damage gone), and so is an empty sheet: there is no "reset
    to new". The entries her next battle does not carry (her last battle's own state, NW-CAMP-17, and those
    worked out from an option at each battle, NW-CAMP-01) may be left out; they keep their stored values. A
    ship that has not fought has no sheet yet: only ``{}`` (no change) is taken for her.
    """
    current: dict[str, Any] = dict(cship.sheet or {})
    if not current:
        if sheet:
            message = (
                f"{cship} has no sheet yet: her rules make it when she first fights; edit it then, on her "
                "page in the battle (NW-CAMP-05)."
            )
            raise ApplicationError("bad_sheet", message, fields={"sheet": [message]})
        return {}
    carried = repair_form_sheet(ruleset=cship.campaign.ruleset, sheet=current)
    if not sheet and carried:
        message = (
            "The sheet is empty. A repair sets the ship's whole sheet, as the box shows it; an empty one "
            "would lose her damage, crew and the rest, which her next battle would make afresh. Change the "
            "values in the box (to undo all damage, set each one back to its value when new) (NW-CAMP-05)."
        )
        raise ApplicationError("bad_sheet", message, fields={"sheet": [message]})
    problems = sheet_edits.sheet_problems(current, sheet)
    missing = [k for k in carried if k not in sheet]
    if missing:
        names = ", ".join(sheet_edits.key_shown(k) for k in missing)
        problems.append(
            f"the sheet lacks {names}: a repair sets the whole sheet, and an entry left out would be made "
            "afresh at her next battle (NW-CAMP-05)"
        )
    repaired = {**{k: v for k, v in current.items() if k not in carried}, **sheet}
    if not problems:
        # what her next battle's rules would refuse (a gun box she has not, a grade of no choice...), and
        # the old sheet did not hold: she could join no battle (NW-CAMP-37)
        problems = _repair_problems(cship, current, repaired, status)
    if problems:
        _refuse_sheet(problems)
    return repaired


def _refuse_sheet(problems: Sequence[str]) -> NoReturn:
    """Raise ``bad_sheet`` with ``problems``, each a sentence, at the repair form's sheet field."""
    errors = [p[0].upper() + p[1:] + "." for p in problems]
    raise ApplicationError("bad_sheet", " ".join(errors), fields={"sheet": errors})


def _repair_problems(
    cship: CampaignShip, current: Mapping[str, Any], repaired: Mapping[str, Any], status: str | None
) -> list[str]:
    """Return what her next battle's rules would refuse in the ``repaired`` sheet, with the ``status`` the
    repair gives her (None: hers now), and did not refuse in her ``current`` sheet with her status now
    (docs/rulings.md NW-CAMP-37): a sunk ship brought back with the damage that sank her is refused (a
    fresh-user check saved Bismarck active at 13 of 10 points); a sunk ship's sheet may show any damage."""
    before = _next_battle_sheet_problems(cship, current, cship.status)
    after = _next_battle_sheet_problems(cship, repaired, status or cship.status)
    return [p for p in after if p not in before]


def _next_battle_sheet_problems(
    cship: CampaignShip, sheet: Mapping[str, Any], status: str | None = None
) -> list[str]:
    """Return what the rules find in the sheet ``cship`` would take to her next battle (:func:`carried_sheet`
    of ``sheet``) once her rule set has set it up: ``rules.check_state``'s sheet checks of a battle of her
    alone, each message starting ``sheet`` (``"sheet guns_lost: 999 is not one of her gun boxes..."``), or
    what the set-up raises (docs/rulings.md NW-CAMP-37)."""
    ruleset = cship.campaign.ruleset
    rs = rules.get_ruleset(ruleset)
    width, height = rs.default_map
    position = Hex(q=1, r=1) if rs.geometry.startswith("hex") else Point(x=width / 2, y=height / 2)
    ship = ShipState(
        id="repaired",
        name=cship.ship.name,
        side=cship.side.key,
        class_name=cship.ship.ship_class.name,
        position=position,
        heading=0.0,
        speed=0.0,
        # she fights her next battle active if she may fight one (NW-CAMP-36); else as she is
        status="active" if (status or cship.status) in FIGHTING_STATUSES else (status or cship.status),
        stats=dict(cship.ship.ship_class.stats),
        sheet=carried_sheet(ruleset=ruleset, sheet=sheet),
    )
    state = BattleState(
        ruleset=ruleset,
        map=MapSpec(geometry=rs.geometry, width=width, height=height),
        sides=(SideInfo(key=cship.side.key, name=cship.side.name),),
        ships=(ship,),
        options=_battle_options(cship.campaign, [cship.side.key]),
    )
    # the sheet as given first: a set-up reads some entries leniently and writes them anew (ww2_jackson's
    # boxes marked {"above": "lots"} came out as 0 and were saved as "lots"); what the rules work out from
    # the rest (ww2_jackson's max_speed, NW-WW2-28) is worked out for the check, as the next battle will
    given = [f"sheet {p}" for p in rs.sheet_errors(state, rs.sheet_refreshed(state, ship))]
    if given:
        return given
    try:
        state, _ = rs.setup(state, rules.SeededDice(0))
        set_up = state.ship("repaired")
    except (rules.RulesError, ValueError, TypeError, KeyError) as exc:
        return [f"the rules refuse it: {exc}"]
    return [f"sheet {p}" for p in rs.sheet_errors(state, set_up)]


def campaign_ship_repair(
    *,
    campaign_ship: CampaignShip,
    user: Any,
    reason: str,
    sheet: Mapping[str, Any] | None = None,
    status: str | None = None,
) -> RepairRecord:
    """Repair (or otherwise edit) a campaign ship between battles; record before, after and the reason.

    Refused (``ship_in_battle``) while the ship is in an active battle: use :func:`battle_ship_edit` there;
    ``derived_sheet_value`` for a change to a value each battle works out from an option (NW-CAMP-01);
    ``bad_sheet`` for a sheet that is not the ship's sheet repaired (NW-CAMP-05: :func:`_repaired_sheet`);
    ``reason_too_long`` for a reason over 500 characters; ``nothing_to_change`` for one that leaves her as
    she is.
    """
    reason = _reason_checked(reason, "Give a reason for the repair.")
    if status is not None and status not in ShipStatus.values:
        raise ApplicationError("bad_status", f"Unknown status {sheet_edits.shown(status)}.")
    with transaction.atomic():
        _require_umpire(campaign_ship.campaign_id, user)
        cship = CampaignShip.objects.select_for_update().get(pk=campaign_ship.pk)
        if sheet is not None:
            _derived_values_unchanged(cship, sheet)
        live = (
            BattleShip.objects.filter(campaign_ship=cship, battle__status=BattleStatus.ACTIVE)
            .select_related("battle")
            .first()
        )
        if live is not None:
            raise ConflictError(
                "ship_in_battle",
                f"{cship.ship.name} is in {live.battle.name}, a battle still on: edit her there, on her ship "
                "sheet, or repair her once it is over. Nothing was changed.",
            )
        if sheet is not None:
            sheet = _repaired_sheet(cship, sheet, status)
        elif status is not None and status != cship.status and cship.sheet:
            # her sheet as it is, with the status given: brought back with the damage that sank her?
            problems = _repair_problems(cship, cship.sheet, cship.sheet, status)
            if problems:
                _refuse_sheet(problems)
        before = {"status": cship.status, "sheet": cship.sheet}
        if (sheet is None or sheet == cship.sheet) and (status is None or status == cship.status):
            # as an edit in a battle (battle_ship_edit): a record of "Nothing changed." under a reason that
            # says something happened would mislead whoever reads her history
            message = "Nothing to change: she already is as the repair says. Nothing was saved."
            raise ApplicationError("nothing_to_change", message, fields={"sheet": [message]})
        if sheet is not None:
            cship.sheet = sheet
        if status is not None and status != cship.status:
            cship.status = status
            cship.status_changed_at = timezone.now()
        cship.save()
        return RepairRecord.objects.create(
            campaign_ship=cship,
            umpire=user,
            reason=reason,
            before=before,
            after={"status": cship.status, "sheet": cship.sheet},
            battle_id=cship.status_battle_id,  # her last fate's battle: where a ship brought back was lost
        )


# --- battles ---------------------------------------------------------------------------------------------


def _class_for_scenario(ruleset: str, sc_class: Any) -> ShipClass:
    # the navy's one spelling, as the demo data and the admin's import have it ("USA" is "United States"):
    # get_or_create by the scenario's own spelling made a second nation of each navy
    nation = fleet_services.nation_ensure(name=sc_class.nation or "")
    ship_class, _ = ShipClass.objects.get_or_create(
        ruleset=ruleset,
        key=sc_class.key,
        defaults={
            "name": sc_class.name,
            "nation": nation,
            "type": sc_class.type,
            "stats": sc_class.stats,
            "source_note": sc_class.source,
            "heuristic": sc_class.heuristic,
        },
    )
    return ship_class


def scenario_missing_sides(scenario: Any, side_keys: Iterable[str]) -> list[str]:
    """Return the scenario's sides the campaign lacks, by name with their key, in the scenario's order:
    ``['Royal Navy (key "britain")', 'Kriegsmarine (key "germany")']``; empty when it has them all.
    ``scenario`` is a ``rules.scenario.Scenario``; ``side_keys`` the campaign's side keys."""
    have = set(side_keys)
    return [f'{s.name or s.key} (key "{s.key}")' for s in scenario.sides if s.key not in have]


LIVE_BATTLE_STATUSES = (BattleStatus.SETUP, BattleStatus.ACTIVE)
FIGHTING_STATUSES = (ShipStatus.ACTIVE, ShipStatus.WITHDRAWN)
"""The campaign statuses of a ship that may fight a battle (:func:`battle_create`)."""


def _lock_campaign(campaign: Campaign) -> None:
    """Lock the campaign row: battle creations of one campaign run one at a time (NW-CAMP-02)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()


def _refuse_ships_in_live_battles(campaign: Campaign, cship_ids: Iterable[int]) -> None:
    """Raise ``ship_in_battle`` when any of these campaign ships is already in a battle of the campaign that
    is in set-up or active (NW-CAMP-02), naming the ships and their battle, e.g. ``"Hood, Repulse are
    already in the battle "Denmark Strait" (active): a ship fights one battle at a time; end that battle
    or leave them out."``. Call with the campaign row locked (:func:`_lock_campaign`)."""
    busy = (
        BattleShip.objects.filter(
            campaign_ship_id__in=list(cship_ids),
            battle__campaign=campaign,
            battle__status__in=LIVE_BATTLE_STATUSES,
        )
        .select_related("battle", "campaign_ship__ship")
        .order_by("battle_id", "pk")
    )
    by_battle: dict[int, tuple[Battle, list[str]]] = {}
    for bs in busy:
        by_battle.setdefault(bs.battle_id, (bs.battle, []))[1].append(bs.campaign_ship.ship.name)
    if not by_battle:
        return
    errors = []
    for battle, names in by_battle.values():
        verb = "is" if len(names) == 1 else "are"
        status = "in set-up" if battle.status == BattleStatus.SETUP else "active"
        errors.append(f'{", ".join(names)} {verb} already in the battle "{battle.name}" ({status}).')
    errors.append("A ship fights one battle at a time: end that battle first or leave those ships out.")
    raise ConflictError("ship_in_battle", " ".join(errors))


def battle_create_from_scenario(
    *,
    campaign: Campaign,
    scenario_key: str,
    user: Any,
    name: str = "",
    start: bool = True,
    deadline: datetime | None = None,
) -> Battle:
    """Create a battle from a bundled scenario (``rules.scenario.bundled_scenarios()``), umpire only.

    Ship classes and ships are created or reused in fleets (get_or_create on (ruleset, key)); each scenario
    ship becomes a CampaignShip of the campaign side with the scenario side's key (reused, with the sheet and
    status it carries, when the campaign already has it; the values worked out from the options are worked
    out again, :func:`carried_sheet`) and a BattleShip whose ``ship_key`` is the scenario
    ship's id. Ships the campaign has lost (sunk, struck, captured) stay out. With ``start`` the battle
    becomes active and its first phase opens. Raise ``unknown_scenario``, ``wrong_ruleset``, ``missing_side``
    (naming the sides, :func:`scenario_missing_sides`), ``ship_in_battle`` when a campaign ship of the
    scenario is already in a battle of the campaign in set-up or active (NW-CAMP-02); nothing is saved then.
    """
    from rules.scenario import bundled_scenarios, scenario_state

    _name_checked(name)
    scenario = bundled_scenarios().get(scenario_key)
    if scenario is None:
        raise ApplicationError("unknown_scenario", f"No bundled scenario {scenario_key!r}.")
    if scenario.ruleset != campaign.ruleset:
        raise ApplicationError(
            "wrong_ruleset",
            f"{scenario.name} is a {scenario.ruleset} scenario; this campaign plays {campaign.ruleset}.",
        )
    with transaction.atomic():
        _require_umpire(campaign.pk, user)
        _lock_campaign(campaign)
        sides = {s.key: s for s in Side.objects.filter(campaign=campaign)}
        missing = scenario_missing_sides(scenario, sides)
        if missing:
            raise ApplicationError(
                "missing_side",
                f"The campaign has no side {' or '.join(missing)} for {scenario.name}: "
                "add it (same key) or choose another scenario.",
            )
        classes = {c.key: _class_for_scenario(campaign.ruleset, c) for c in scenario.classes}
        wanted = {(sc_ship.name, classes[sc_ship.class_key].pk) for sc_ship in scenario.ships}
        _refuse_ships_in_live_battles(
            campaign,
            (
                cs.pk
                for cs in CampaignShip.objects.filter(campaign=campaign).select_related("ship")
                if (cs.ship.name, cs.ship.ship_class_id) in wanted
            ),
        )
        battle = Battle.objects.create(
            campaign=campaign,
            name=name or scenario.name,
            scenario_key=scenario.key,
            created_by=user,
        )
        cships = {cs.ship_id: cs for cs in CampaignShip.objects.filter(campaign=campaign)}
        fleet = [
            Ship.objects.get_or_create(name=sc_ship.name, ship_class=classes[sc_ship.class_key])[0]
            for sc_ship in scenario.ships
        ]
        # a scenario ship new to the campaign may not take the name of one of its ships (NW-CAMP-25)
        for ship in fleet:
            other = None if ship.pk in cships else campaign_ship_named(campaign.pk, ship.name)
            if other is not None:
                then = "Rename the campaign's ship (admin) or choose another scenario."
                raise ConflictError(
                    "ship_name_taken",
                    f"{scenario.name} brings {ship.name} ({ship.ship_class.name}). "
                    + ship_name_taken_message(other, then=then),
                )
        # A ship the campaign has carries her sheet into the scenario's, before the rule set's set-up: it
        # works out what depends on her damage (a damaged ship starts no faster than she can make) and fills
        # her last battle's state afresh, or from the scenario (NW-CAMP-17).
        carried = {
            sc_ship.id: carried_sheet(ruleset=campaign.ruleset, sheet=cship.sheet)
            for sc_ship, ship in zip(scenario.ships, fleet, strict=True)
            if (cship := cships.get(ship.pk)) is not None
            and cship.status in (ShipStatus.ACTIVE, ShipStatus.WITHDRAWN)
        }
        state, setup_events = scenario_state(
            replace(
                scenario,
                options={**scenario.options, **_battle_options(campaign, [s.key for s in scenario.sides])},
                # the campaign's names of the sides, which the set-up's lines already use (the log names a
                # side as the campaign does)
                sides=tuple(
                    replace(s, name=sides[s.key].name, colour=sides[s.key].colour) for s in scenario.sides
                ),
                ships=tuple(
                    replace(sc_ship, sheet={**sc_ship.sheet, **carried[sc_ship.id]})
                    if sc_ship.id in carried
                    else sc_ship
                    for sc_ship in scenario.ships
                ),
            ),
            rules.SeededDice(dice_seed(battle_id=battle.pk, purpose="setup")),
        )
        ships: list[ShipState] = []
        battle_ships = []
        for sc_ship, ship, st_ship in zip(scenario.ships, fleet, state.ships, strict=True):
            cship = cships.get(ship.pk)
            if cship is None:
                cship = CampaignShip.objects.create(
                    campaign=campaign, side=sides[sc_ship.side], ship=ship, sheet=dict(st_ship.sheet)
                )
            elif cship.status not in (ShipStatus.ACTIVE, ShipStatus.WITHDRAWN):
                continue
            else:
                st_ship = replace(st_ship, side=cship.side.key)
            ships.append(st_ship)
            battle_ships.append(BattleShip(battle=battle, campaign_ship=cship, ship_key=sc_ship.id))
        # the campaign's losses may leave one side no ship of the scenario: refused as a battle of chosen
        # ships is (NW-CAMP-23), and nothing is saved (the transaction)
        afloat_sides = {st.side for st in ships}
        if len(afloat_sides) < 2:
            names = ", ".join(sides[s.key].name for s in scenario.sides if s.key not in afloat_sides)
            raise ApplicationError(
                "one_side",
                f"A battle needs ships of at least two sides: the campaign has lost every ship of this "
                f"scenario's {names or 'other sides'} (sunk, struck or captured). Nothing was created.",
                fields={"scenario": ["Every ship of one side of this scenario is lost to the campaign."]},
            )
        BattleShip.objects.bulk_create(battle_ships)
        state = replace(
            state,
            ships=tuple(ships),
            sides=tuple(
                SideInfo(key=s.key, name=sides[s.key].name, colour=sides[s.key].colour)
                for s in scenario.sides
            ),
        )
        battle.state = rules.to_json(state)
        battle.save(update_fields=["state"])
        _setup_events_store(battle, setup_events)
        if start:
            _battle_start(battle, deadline=deadline)
    return battle


def _setup_events_store(battle: Battle, events: Iterable[Event]) -> None:
    """Keep the set-up's events (wind, weather, initiative...) on the battle; pages filter them per side."""
    battle.setup_events = [rules.to_json(e) for e in events]
    battle.save(update_fields=["setup_events"])


@dataclass(frozen=True, slots=True, kw_only=True)
class Placement:
    """Where a campaign ship starts a battle: position (a Hex or Point), heading (degrees) and speed."""

    campaign_ship: CampaignShip
    position: Hex | Point
    heading: float = 0.0
    speed: float = 0.0
    ship_key: str = ""


def map_bounds(map_spec: MapSpec) -> str:
    """Return the map's bounds in its own units, for a message: ``"24 x 18 hexes (columns 0-23, rows 0-17)"``,
    ``"96 x 72 inches (x 0-96, y 0-72)"``, ``"2400 x 1800 mm (x 0-2400, y 0-1800)"``.

    A hex map (``hex6``/``hex12``) holds the columns 0 <= col < width and rows 0 <= row < height of its
    "odd-q" layout (``rules.geometry.hex_to_offset``); a table (``table_in``/``table_mm``) holds
    0 <= x <= width, 0 <= y <= height, the origin at its north-west corner (``rules.geometry.on_table``).
    """
    w, h = map_spec.width, map_spec.height
    if map_spec.geometry.startswith("hex"):
        return f"{w:g} x {h:g} hexes (columns 0-{math.ceil(w) - 1}, rows 0-{math.ceil(h) - 1})"
    unit = "mm" if map_spec.geometry == "table_mm" else "inches"
    return f"{w:g} x {h:g} {unit} (x 0-{w:g}, y 0-{h:g})"


def placement_errors(*, placements: Sequence[Placement], map_spec: MapSpec) -> list[str]:
    """Return one message per placement that is off the map (none: every ship starts on it), e.g.
    ``"Hood at q 30, r 5 (column 30, row 20) is off the map: 24 x 18 hexes (columns 0-23, rows 0-17)."``

    A placement of the wrong kind (a table point on a hex map, or a hex on a table) is reported too. The
    set-up editor makes the same check on each ship it places (``map_services``); this is the battle form's.
    """
    errors = []
    hexes = map_spec.geometry.startswith("hex")
    bounds = map_bounds(map_spec)
    for p in placements:
        name = p.campaign_ship.ship.name
        pos = p.position
        if hexes and isinstance(pos, Hex):
            col, row = hex_to_offset(pos)
            if not on_hex_map(pos, map_spec.width, map_spec.height):
                errors.append(
                    f"{name} at q {pos.q}, r {pos.r} (column {col}, row {row}) is off the map: {bounds}."
                )
        elif not hexes and isinstance(pos, Point):
            if not on_table(pos, map_spec.width, map_spec.height):
                errors.append(f"{name} at x {pos.x:g}, y {pos.y:g} is off the map: {bounds}.")
        else:
            errors.append(f"{name} needs {'a hex (q, r)' if hexes else 'a table (x, y)'} position.")
    return errors


def heading_errors(*, placements: Sequence[Placement], map_spec: MapSpec) -> list[str]:
    """Return one message per placement whose heading (degrees clockwise from north) is no compass heading:
    not from 0 up to 360 (360 counts as 0, as in the umpire's ship edit), NaN or infinite; e.g.
    ``"Hood: heading 720 is not a compass heading. Give 0 up to 360 degrees, clockwise from north (0 is
    north, 90 east; 360 counts as 0)."``, on a hex map naming its facings. Whether a heading is one of the
    hex facings is the rules' to say (``RuleSet.setup``, ``rules.check_state``); four of the five rule sets
    turned 720 into 0 there without a word (docs/rulings.md NW-CAMP-23)."""
    facings = {"hex6": 6, "hex12": 12}.get(map_spec.geometry)
    hint = "0 is north, 90 east"
    if facings:
        step = 360 // facings
        hint = f"on this hex map one of the {facings} facings 0, {step}, {2 * step} ... {360 - step}"
    hint += "; 360 counts as 0"
    return [
        f"{p.campaign_ship.ship.name}: heading {p.heading:g} is not a compass heading. "
        f"Give 0 up to 360 degrees, clockwise from north ({hint})."
        for p in placements
        if not (math.isfinite(p.heading) and 0 <= p.heading <= 360)
    ]


def sides_error(*, sides: Iterable[Side]) -> str | None:
    """Return why a battle whose ships are of ``sides`` (one side per ship) may not be created, or None: it
    needs ships of at least two sides (docs/rulings.md NW-CAMP-23; a battle of one side's ships is over when
    its first phase resolves, ``rules.base.RuleSet.outcome``). No ship at all is ``no_ships``'s to say."""
    distinct = {side.pk: side for side in sides}
    if len(distinct) != 1:
        return None
    (side,) = distinct.values()
    return (
        f"A battle needs ships of at least two sides: every ship chosen is of {side.name}. "
        "Choose a ship of another side too."
    )


def battle_create(
    *,
    campaign: Campaign,
    user: Any,
    name: str,
    placements: Sequence[Placement],
    map_spec: MapSpec | None = None,
    conditions: Conditions | None = None,
    terrain: Sequence[Any] = (),
    start: bool = True,
    deadline: datetime | None = None,
) -> Battle:
    """Create a battle from the campaign's own ships (umpire only): each placement gives a ship's start.

    The map defaults to the rule set's default size. Ships carry their campaign sheet, but for the values
    the battle's options work out again (:func:`carried_sheet`, NW-CAMP-01). The rule set's
    set-up (``RuleSet.setup``) completes the state; its errors (a heading that is not a hex facing...)
    and what ``rules.check_state`` finds in the state (NW-CAMP-04, -07, -08) come back as ``bad_setup``,
    no ship as ``no_ships``, ships of one side only as ``one_side`` (NW-CAMP-23). A heading of 360 is taken
    as 0. Raise ``ship_unavailable`` for a ship the campaign has lost, ``off_map`` (one message per ship,
    :func:`placement_errors`) for a start off the map, ``bad_heading`` (:func:`heading_errors`) for a
    heading not from 0 up to 360 degrees, ``bad_setup`` too for a starting speed above what her class makes
    undamaged (``RuleSet.top_speed``, NW-CAMP-29), ``ship_in_battle`` for a ship already in a battle of the
    campaign in set-up or active (NW-CAMP-02); nothing is saved then.
    """
    _name_checked(name)
    rs = rules.get_ruleset(campaign.ruleset)
    if not placements:
        raise ApplicationError("no_ships", "Place at least one ship.")
    width, height = rs.default_map
    map_spec = map_spec or MapSpec(geometry=rs.geometry, width=width, height=height)
    off_map = placement_errors(placements=placements, map_spec=map_spec)
    if off_map:
        raise ApplicationError("off_map", " ".join(off_map), fields={"position": off_map})
    bad_headings = heading_errors(placements=placements, map_spec=map_spec)
    if bad_headings:
        raise ApplicationError("bad_heading", " ".join(bad_headings), fields={"heading": bad_headings})
    # 360 is 0 (as the ship edit has it); four rule sets' set-ups turned any heading into 0 up to 360
    placements = [replace(p, heading=0.0) if p.heading == 360 else p for p in placements]
    with transaction.atomic():
        _require_umpire(campaign.pk, user)
        _lock_campaign(campaign)
        sides = list(Side.objects.filter(campaign=campaign))
        cship_ids = [p.campaign_ship.pk for p in placements]
        _refuse_ships_in_live_battles(campaign, cship_ids)
        cships = {
            cs.pk: cs
            for cs in CampaignShip.objects.select_related("ship__ship_class", "side").filter(
                campaign=campaign, pk__in=cship_ids
            )
        }
        ships: list[ShipState] = []
        keys: list[str] = []
        for p in placements:
            cs = cships.get(p.campaign_ship.pk)
            if cs is None:
                raise ApplicationError("bad_ship", f"{p.campaign_ship} is not in this campaign.")
            if cs.status not in FIGHTING_STATUSES:
                raise ApplicationError("ship_unavailable", f"{cs} is {cs.status} and cannot fight.")
            key = p.ship_key or f"s{cs.pk}"
            keys.append(key)
            ships.append(
                ShipState(
                    id=key,
                    name=cs.ship.name,
                    side=cs.side.key,
                    class_name=cs.ship.ship_class.name,
                    position=p.position,
                    heading=float(p.heading),
                    speed=float(p.speed),
                    stats=dict(cs.ship.ship_class.stats),
                    sheet=carried_sheet(ruleset=campaign.ruleset, sheet=cs.sheet),
                )
            )
        one_side = sides_error(sides=[cships[p.campaign_ship.pk].side for p in placements])
        if one_side:
            raise ApplicationError("one_side", one_side)
        state = BattleState(
            ruleset=campaign.ruleset,
            map=map_spec,
            sides=tuple(SideInfo(key=s.key, name=s.name, colour=s.colour) for s in sides),
            ships=tuple(ships),
            conditions=conditions or Conditions(),
            terrain=tuple(terrain),
            options=_battle_options(campaign, [s.key for s in sides]),
        )
        battle = Battle.objects.create(campaign=campaign, name=name, created_by=user)
        try:
            state, setup_events = rs.setup(
                state, rules.SeededDice(dice_seed(battle_id=battle.pk, purpose="setup"))
            )
        except (rules.RulesError, ValueError, TypeError, KeyError) as exc:
            # acw_river and memoir_sea refuse a heading that is no hex facing with ValueError (as the set-up
            # editor's map_services._validated expects): it was a 500 here
            raise ApplicationError("bad_setup", f"The rules refuse this set-up: {exc}") from exc
        # what the engine could not resolve (a negative speed, two ships in one hex, terrain of another rule
        # set or off the map, a wind from 720 degrees...: rules.check_state, NW-CAMP-04, -07, -08), in the
        # ships' names
        problems = _state_problems(state)
        if problems:
            raise ApplicationError("bad_setup", "The rules refuse this set-up: " + "; ".join(problems) + ".")
        # a starting speed above what her class makes undamaged, as the ship edit refuses it (NW-CAMP-29): the
        # rules' set-up cut it to what she makes without a word (the speeds as placed, before the set-up)
        fast = [too_fast for ship in ships if (too_fast := _above_top_speed(rs, ship))]
        if fast:
            raise ApplicationError("bad_setup", "Starting speeds: " + "; ".join(fast) + ".")
        battle.state = rules.to_json(state)
        battle.save(update_fields=["state"])
        BattleShip.objects.bulk_create(
            BattleShip(battle=battle, campaign_ship=cships[p.campaign_ship.pk], ship_key=k)
            for p, k in zip(placements, keys, strict=True)
        )
        _setup_events_store(battle, setup_events)
        if start:
            _battle_start(battle, deadline=deadline)
    return battle


CONDITION_EVENT_KINDS = ("setup", "wind", "weather")
"""Kinds of the set-up's events that tell of the conditions: ww2_jackson's "setup" ("day action"), sail_1700's
wind and weather rolls and its weather line. A change of the conditions replaces them (NW-CAMP-20)."""

CONDITION_FIELDS = ("wind_from", "wind_force", "weather")
"""Condition fields a ``rules.check_state`` message may start with (NW-CAMP-08): its form field."""


def battle_setup_conditions_set(*, battle: Battle, user: Any, conditions: Conditions) -> Battle:
    """Set the conditions of a battle in set-up (umpire only; docs/rulings.md NW-CAMP-20): ``night``,
    ``moon``, ``wind_from`` (degrees clockwise from north), ``wind_force`` and ``weather`` of ``conditions``,
    as ``battles.forms.ConditionsForm`` gives them. Return the battle, saved.

    The rest is not the umpire's to set: the visibility stays (sail_1700 works it out from its weather and
    the night: 4., A2), and so does the rule set's ``extra`` while the weather and wind force stay; with
    another weather or force it is dropped and the set-up works it out again (sail_1700's weather number).
    The rule set's set-up runs again (a wind, weather and force left empty are rolled where the rules roll
    them: sail_1700), the state is checked with ``rules.check_state`` (NW-CAMP-08, NW-SAIL-35), and the
    set-up's events that tell of the conditions (:data:`CONDITION_EVENT_KINDS`) are replaced by the new
    ones. Raise ``not_umpire``, ``battle_started`` (the battle has left set-up), ``bad_setup`` (the rule
    set's set-up or ``check_state`` refuses; the field in ``fields`` where there is one); nothing is saved.
    """
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        locked = Battle.objects.select_for_update().get(pk=battle.pk)
        if locked.status != BattleStatus.SETUP:
            raise ConflictError(
                "battle_started", "The battle has started: its conditions can no longer change."
            )
        state = _state(locked.state)
        rs = rules.get_ruleset(state.ruleset)
        old = state.conditions
        same_weather = (old.weather, old.wind_force) == (conditions.weather, conditions.wind_force)
        given = replace(
            old,
            night=conditions.night,
            moon=conditions.moon,
            wind_from=conditions.wind_from,
            wind_force=conditions.wind_force,
            weather=conditions.weather,
            extra=dict(old.extra) if same_weather else {},
        )
        dice = rules.SeededDice(dice_seed(battle_id=locked.pk, purpose="setup-conditions"))
        try:
            new, events = rs.setup(replace(state, conditions=given), dice)
        except (rules.RulesError, ValueError, TypeError, KeyError) as exc:
            raise ApplicationError("bad_setup", f"The rules refuse these conditions: {exc}") from exc
        problems = rules.check_state(new)
        if problems:
            names = {f"ship {s.id!r}": s.name for s in new.ships}
            shown = []
            for problem in problems:
                for key, name in names.items():
                    problem = problem.replace(key, name)
                shown.append(problem)
            fields: dict[str, list[str]] = {}
            for problem in shown:
                field = next((f for f in CONDITION_FIELDS if problem.startswith(f + " ")), "__all__")
                fields.setdefault(field, []).append(problem + ".")
            raise ApplicationError(
                "bad_setup", "The rules refuse these conditions: " + "; ".join(shown) + ".", fields=fields
            )
        from battles.map_services import state_keeping_extra

        locked.state = state_keeping_extra(new, locked.state)
        old_events = list(locked.setup_events or [])
        at = next(
            (i for i, e in enumerate(old_events) if e.get("kind") in CONDITION_EVENT_KINDS), len(old_events)
        )
        kept = [e for e in old_events if e.get("kind") not in CONDITION_EVENT_KINDS]  # (none before ``at``)
        fresh = [rules.to_json(e) for e in events if e.kind in CONDITION_EVENT_KINDS]
        locked.setup_events = kept[:at] + fresh + kept[at:]
        locked.save(update_fields=["state", "setup_events"])
    return locked


def _state_problems(state: BattleState) -> list[str]:
    """Return what ``rules.check_state`` finds in ``state`` (NW-CAMP-04, -07, -08), each ship named by her
    name rather than her id (``"ship 'kgv'"`` -> ``"King George V"``)."""
    return _ships_named(rules.check_state(state), state)


def _ships_named(problems: list[str], state: BattleState) -> list[str]:
    """Return ``problems`` (``rules.check_state``'s) with each ship named by her name rather than her id:
    a battle of the campaign's ships has ids such as ``s40``, which no page shows."""
    for s in state.ships:
        key = f"ship {s.id!r}"
        problems = [p.replace(key, s.name) for p in problems]
    return problems


def battle_start(*, battle: Battle, user: Any, deadline: datetime | None = None) -> Phase:
    """Start a battle in set-up (umpire only; docs/rulings.md NW-CAMP-21): it becomes active and its first
    phase opens, as when a battle is created and started at once (the same code, :func:`_battle_start`; the
    deadline, unless given, counts from now). The set-up's rolls stand (the rule set's set-up is not run
    again); the state is checked with ``rules.check_state`` as the battle form's is (NW-CAMP-08), since
    the set-up editor's edits run the rule set's set-up but not every check. Return the phase opened.

    Raise ``not_umpire``, ``battle_started`` (409: the battle has left set-up, for instance by a second
    click on Start; nothing changes, no second phase opens) and ``bad_setup`` (the rules refuse the state,
    each problem named; the battle stays in set-up).
    """
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        if battle.status != BattleStatus.SETUP:
            done = "is over" if battle.status == BattleStatus.FINISHED else "has already started"
            raise ConflictError("battle_started", f"The battle {done}: nothing was changed.")
        problems = _state_problems(_state(battle.state))
        if problems:
            raise ApplicationError(
                "bad_setup",
                "The rules refuse this set-up: " + "; ".join(problems) + ". Change it in the set-up editor.",
            )
        return _battle_start(battle, deadline=deadline)


def _battle_start(battle: Battle, *, deadline: datetime | None) -> Phase:
    battle.status = BattleStatus.ACTIVE
    battle.started_at = timezone.now()
    battle.save(update_fields=["status", "started_at"])
    return _phase_open(battle, _state(battle.state), deadline=deadline)


def _phase_open(
    battle: Battle,
    state: BattleState,
    *,
    deadline: datetime | None = None,
    number: int | None = None,
    notify: bool = True,
) -> Phase:
    """Open the next phase of ``battle`` for ``state`` (inside the caller's transaction). ``notify=False``:
    the caller sends the "phase open" mail itself (after the "resolved" one, NW-CAMP-14; see
    :func:`_resolve_locked`)."""
    from battles import tasks

    rs = rules.get_ruleset(state.ruleset)
    plan = rs.phase_plan(state)
    spec = plan[min(state.phase, len(plan) - 1)]
    numbers = list(Phase.objects.filter(battle=battle).values_list("number", "superseded"))
    if number is None:
        number = max((n for n, superseded in numbers if not superseded), default=0) + 1
    if deadline is None:
        hours = (battle.campaign.settings or {}).get("deadline_hours", DEFAULT_DEADLINE_HOURS)
        deadline = timezone.now() + timedelta(hours=float(hours))
    # A phase re-opened by a roll-back gets a seed of its own, also with the deterministic hook.
    replaced = sum(1 for n, _superseded in numbers if n == number)
    seed = dice_seed(battle_id=battle.pk, purpose=f"{number}" if not replaced else f"{number}:{replaced}")
    phase = Phase.objects.create(
        battle=battle,
        number=number,
        turn=state.turn,
        phase_index=state.phase,
        name=spec.name,
        sides=list(spec.sides),
        deadline=deadline,
        seed=seed,
        seed_hash=seed_hash(seed),
        state_before=rules.to_json(state),
    )
    sides = {s.key: s for s in Side.objects.filter(campaign_id=battle.campaign_id, key__in=spec.sides)}
    phase_sides = []
    for key in spec.sides:
        side = sides.get(key)
        if side is None:
            raise ApplicationError("missing_side", f"The campaign has no side {key!r}.")
        # A side with nothing able to take orders is ready at once.
        nothing = not rs.orderable_ships(state, key)
        phase_sides.append(
            PhaseSide(phase=phase, side=side, ready=nothing, ready_at=timezone.now() if nothing else None)
        )
    PhaseSide.objects.bulk_create(phase_sides)
    if notify:
        tasks.notify_phase_opened.delay_on_commit(phase.pk)
    if all(ps.ready for ps in phase_sides):
        _phase_close(phase, reason="all_ready")
    return phase


def _phase_close(phase: Phase, *, reason: str) -> None:
    """Close an open phase (the caller holds its lock): no more orders; enqueue its resolution on commit."""
    from battles import tasks

    Phase.objects.filter(pk=phase.pk).update(
        status=PhaseStatus.RESOLVING,
        closed_at=Now(),
        close_reason=reason,
        error_kind="",
        auto_retries=0,
        retry_at=None,
    )
    phase.status = PhaseStatus.RESOLVING
    phase.close_reason = reason
    tasks.resolve_phase.delay_on_commit(phase.pk)


# --- orders and readiness --------------------------------------------------------------------------------


def _check_open(phase: Phase) -> None:
    refused = phase.orders_refused()
    if refused is not None:
        raise ConflictError(*refused)


def _ordering_side(phase: Phase, user: Any, side: Side) -> PhaseSide:
    phase_side = PhaseSide.objects.filter(phase=phase, side=side).first()
    if phase_side is None:
        raise ApplicationError("side_not_ordering", f"{side.name} gives no orders in this phase.")
    if phase_side.deadline_passed(phase, phase.db_now):  # type: ignore[attr-defined]
        raise ConflictError(
            "deadline_passed", "The deadline for this phase has passed: orders are no longer accepted."
        )
    return phase_side


def orders_submit(
    *,
    phase: Phase,
    user: Any,
    data: Mapping[str, Any],
    ship_key: str | None = None,
    battle_ship: BattleShip | None = None,
) -> Order:
    """Save (or replace) the orders of one ship for an open phase and return the Order row.

    ``data`` is the rule set's order payload (its ``order_types`` fields). The user must be a player of the
    ship's side (its commander, when it has one) or an umpire. The phase row is locked and the deadline
    compared with the database clock, so an order racing the close is either saved before it or refused.
    Nothing saved is lost: an order that fails validation leaves the previous one in place.

    Raise ``ApplicationError`` with code ``no_ship``, ``not_your_ship``, ``phase_closed``,
    ``phase_superseded``, ``deadline_passed``, ``side_not_ordering``, or ``bad_orders`` (``fields`` holds
    the rules' messages per field, invalid and illegal together).
    """
    if (ship_key is None) == (battle_ship is None):
        raise TypeError("give exactly one of ship_key and battle_ship")
    if not isinstance(data, Mapping):
        raise ApplicationError("bad_orders", "Orders must be a JSON object.")
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _check_open(phase)
        lookup = {"ship_key": ship_key} if ship_key is not None else {"pk": battle_ship.pk}  # type: ignore[union-attr]
        bship = (
            BattleShip.objects.select_related("campaign_ship__side")
            .filter(battle_id=phase.battle_id, **lookup)
            .first()
        )
        if bship is None:
            raise ApplicationError("no_ship", "There is no such ship in this battle.", status=404)
        side = bship.campaign_ship.side
        membership = _membership(phase.battle.campaign_id, user)
        is_umpire = membership is not None and membership.role == Role.UMPIRE
        if not is_umpire:
            commander_id = bship.campaign_ship.commander_id
            if (
                membership is None
                or membership.role != Role.PLAYER
                or membership.side_id != side.pk
                or (commander_id is not None and commander_id != user.pk)
            ):
                raise PermissionDeniedError(
                    "not_your_ship", "That ship is not under your command.", status=404
                )
        _ordering_side(phase, user, side)
        state = _state(phase.state_before)
        order = ShipOrder(ship_id=bship.ship_key, data=dict(data))
        errors = rules.validate_orders(state, side.key, [order])
        if not errors.ok:
            raise ApplicationError(
                "bad_orders", "The orders have errors.", fields=errors.for_ship(bship.ship_key)
            )
        # stored as the rule book writes it (a course "f" as "F"): one spelling on every page (NW-ACW-21)
        stored = dict(rules.get_ruleset(state.ruleset).canonical_order(order).data)
        now = timezone.now()
        saved, _created = Order.objects.update_or_create(
            phase=phase,
            battle_ship=bship,
            defaults={"side": side, "data": stored, "submitted_by": user, "updated_at": now},
            create_defaults={
                "side": side,
                "data": stored,
                "submitted_by": user,
                "updated_at": now,
                "created_at": now,
            },
        )
    return saved


def orders_delete(*, phase: Phase, user: Any, ship_key: str) -> bool:
    """Withdraw the saved orders of one ship (the ship will follow default orders, A7). Same checks as
    :func:`orders_submit`; return True if there was an order."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _check_open(phase)
        order = (
            Order.objects.select_related("battle_ship__campaign_ship__side")
            .filter(phase=phase, battle_ship__ship_key=ship_key)
            .first()
        )
        if order is None:
            return False
        cship = order.battle_ship.campaign_ship
        membership = _membership(phase.battle.campaign_id, user)
        if not (
            membership
            and (
                membership.role == Role.UMPIRE
                or (
                    membership.role == Role.PLAYER
                    and membership.side_id == cship.side_id
                    and cship.commander_id in (None, user.pk)
                )
            )
        ):
            raise PermissionDeniedError("not_your_ship", "That ship is not under your command.", status=404)
        _ordering_side(phase, user, cship.side)
        order.delete()
    return True


def side_set_ready(*, phase: Phase, user: Any, ready: bool = True) -> PhaseSide:
    """Mark the user's side ready (or not ready) in an open phase. When every ordering side is ready the
    phase closes and its resolution is enqueued after commit.

    Raise ``not_a_player``, ``side_not_ordering``, ``phase_closed``, ``deadline_passed``.
    """
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _check_open(phase)
        membership = _membership(phase.battle.campaign_id, user)
        if membership is None or membership.role != Role.PLAYER or membership.side is None:
            raise PermissionDeniedError("not_a_player", "Only a player of an ordering side can be ready.")
        phase_side = _ordering_side(phase, user, membership.side)
        phase_side.ready = ready
        phase_side.ready_at = timezone.now() if ready else None
        phase_side.save(update_fields=["ready", "ready_at"])
        if ready and not PhaseSide.objects.filter(phase=phase, ready=False).exists():
            _phase_close(phase, reason="all_ready")
    return phase_side


def phase_close(*, phase: Phase, user: Any, reason: str = "umpire") -> Phase:
    """Close an open phase now and resolve it ("resolve now", umpire only). Raise ``phase_closed``."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _require_umpire(phase.battle.campaign_id, user)
        _check_open(phase)
        _phase_close(phase, reason=reason)
        text = f"Resolve now: phase {phase.number} closed before its deadline and sent to resolution."
        _umpire_action(phase.battle, user, UmpireActionKind.RESOLVE_NOW, text, phase=phase)
    return phase


def phase_extend_deadline(*, phase: Phase, user: Any, deadline: datetime, side: Side | None = None) -> Phase:
    """Move the deadline of an open phase for every side, or for one ``side`` only (umpire only, A7).

    A deadline for all sides clears earlier per-side deadlines. Raise ``phase_closed``, ``deadline_in_past``.
    """
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _require_umpire(phase.battle.campaign_id, user)
        _check_open(phase)
        if deadline <= phase.db_now:  # type: ignore[attr-defined]
            raise ApplicationError(
                "deadline_in_past",
                "The new deadline must be in the future.",
                fields={"deadline": ["Must be in the future."]},
            )
        if side is None:
            phase.deadline = deadline
            phase.save(update_fields=["deadline"])
            PhaseSide.objects.filter(phase=phase, deadline__lt=deadline).update(deadline=None)
        else:
            updated = PhaseSide.objects.filter(phase=phase, side=side).update(deadline=deadline)
            if not updated:
                raise ApplicationError("side_not_ordering", f"{side.name} gives no orders in this phase.")
        whose = "every side" if side is None else side.name
        text = f"Deadline of phase {phase.number} moved to {_when(deadline)} for {whose}."
        _umpire_action(phase.battle, user, UmpireActionKind.EXTEND_DEADLINE, text, phase=phase, side=side)
    return phase


# --- resolution ------------------------------------------------------------------------------------------


def retry_delay(attempt: int) -> timedelta:
    """Return the wait before automatic retry ``attempt`` (0-based): 1, 2, 4, 8, 16 minutes..., at most 30."""
    return timedelta(seconds=min(RETRY_BASE_SECONDS * 2 ** max(attempt, 0), RETRY_MAX_SECONDS))


def phase_resolve(*, phase_id: int) -> str:
    """Resolve a closed phase exactly once; return ``resolved``, ``skipped``, ``retrying`` or ``failed``.

    Claims the phase with ``select_for_update(skip_locked=True)`` on status ``resolving``: a phase already
    resolved (or open, failed, superseded) makes this run return ``skipped`` at once. A phase still
    ``resolving`` whose row is locked is tried again every ``CLAIM_RETRY_SECONDS`` for ``CLAIM_WAIT_SECONDS``:
    a request that locked it for a moment (an order refused after the close) lets go, and the phase is
    resolved now rather than by the sweep minutes later; another run that holds it resolves it (this run
    returns ``skipped`` once it has, or once the wait is over). The orders, default orders (A7, filled in by
    ``rules.resolve_turn``), the new state, the events, the ship statuses and the next phase are written in
    the same transaction as the claim, so a run killed half-way leaves nothing behind and the phase stays
    ``resolving`` for the sweep.

    On failure the transaction rolls back and the error is kept on the phase (:func:`_resolve_failed`): a
    transient one (``TRANSIENT_RESOLVE_ERRORS``: database or broker unavailable) leaves it ``resolving`` with
    a ``retry_at`` for the sweep and returns ``retrying``; any other (the rules raised on this state and
    these orders) marks it ``failed``, tells the umpires and returns ``failed``: only an umpire retries it.
    """
    give_up_at = time.monotonic() + CLAIM_WAIT_SECONDS
    while True:
        outcome = _resolve_claimed(phase_id)
        if outcome != "locked":
            return outcome
        if time.monotonic() >= give_up_at:
            return "skipped"
        time.sleep(CLAIM_RETRY_SECONDS)


def _resolve_claimed(phase_id: int) -> str:
    """Claim the phase and resolve it (see :func:`phase_resolve`); return ``locked`` when it is still
    ``resolving`` but its row is locked by someone else."""
    try:
        with transaction.atomic():
            phase = (
                Phase.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("battle__campaign")
                .filter(pk=phase_id, status=PhaseStatus.RESOLVING, superseded=False)
                .first()
            )
            if phase is None:
                waiting = Phase.objects.filter(pk=phase_id, status=PhaseStatus.RESOLVING, superseded=False)
                return "locked" if waiting.exists() else "skipped"
            _resolve_locked(phase)
            return "resolved"
    except TRANSIENT_RESOLVE_ERRORS as exc:  # rolled back; the sweep sends it again after a backoff
        logger.warning("phase %s could not be resolved for now: %s", phase_id, exc)
        return _resolve_failed(phase_id, exc, transient=True)
    except Exception as exc:  # rolled back; keep the error on the phase for the umpire
        logger.exception("phase %s failed to resolve", phase_id)
        return _resolve_failed(phase_id, exc, transient=False)


def _resolve_failed(phase_id: int, exc: BaseException, *, transient: bool) -> str:
    """Keep a failed resolution's error on its phase (still ``resolving``); return ``retrying`` or ``failed``.

    Transient: the phase stays ``resolving`` with ``retry_at`` = now + :func:`retry_delay` (``auto_retries``)
    for the sweep. Otherwise ``failed`` (``error_kind="rules"``) and the umpires are mailed. When the database
    is still down this write fails too: it is logged and the phase, still ``resolving`` with nothing written,
    is found stale by the sweep.
    """
    from battles import tasks

    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:4000]
    if transient and not db_connection.in_atomic_block:
        db_connection.close_if_unusable_or_obsolete()  # a killed connection: the write below reconnects
    try:
        with transaction.atomic():
            phase = (
                Phase.objects.select_for_update()
                .filter(pk=phase_id, status=PhaseStatus.RESOLVING, superseded=False)
                .first()
            )
            if phase is None:  # resolved (or rolled back) by someone else meanwhile
                return "skipped"
            if transient and phase.auto_retries >= AUTO_RETRY_LIMIT:
                Phase.objects.filter(pk=phase_id).update(attempts=F("attempts") + 1)
                _phase_give_up(phase, last_error=detail)
                return "failed"
            if transient:
                Phase.objects.filter(pk=phase_id).update(
                    error=detail,
                    error_kind=PhaseErrorKind.TRANSIENT,
                    attempts=F("attempts") + 1,
                    retry_at=Now() + retry_delay(phase.auto_retries),
                )
                return "retrying"
            Phase.objects.filter(pk=phase_id).update(
                status=PhaseStatus.FAILED,
                error=detail,
                error_kind=PhaseErrorKind.RULES,
                attempts=F("attempts") + 1,
                retry_at=None,
            )
            tasks.notify_phase_failed.delay_on_commit(phase_id)
            return "failed"
    except TRANSIENT_RESOLVE_ERRORS:
        logger.exception("could not record the failure of phase %s; the sweep will find it", phase_id)
        return "retrying"


def _resolve_locked(phase: Phase) -> None:
    from battles import tasks

    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=phase.battle_id)
    state = _state(phase.state_before)
    orders = [
        ShipOrder(ship_id=key, data=data)
        for key, data in Order.objects.filter(phase=phase).values_list("battle_ship__ship_key", "data")
    ]
    result = rules.resolve_turn(state, orders, rules.SeededDice(phase.seed))
    sleep = os.environ.get(TEST_SLEEP_ENV)
    if sleep:
        time.sleep(float(sleep))
    base = (LogEvent.objects.filter(phase=phase).aggregate(n=Max("seq"))["n"] or 0) + 1
    LogEvent.objects.bulk_create(
        LogEvent(
            phase=phase,
            seq=base + i,
            kind=e.kind,
            text=e.text,
            ship_key=e.ship_id or "",
            target_key=e.target_id or "",
            visible_to=list(e.visible_to) if e.visible_to is not None else None,
            data=rules.to_json(e),
        )
        for i, e in enumerate(result.events)
    )
    new_state = result.state
    opened: Phase | None = None
    Phase.objects.filter(pk=phase.pk).update(
        status=PhaseStatus.RESOLVED,
        state_after=rules.to_json(new_state),
        resolved_at=Now(),
        attempts=F("attempts") + 1,
        error="",
        error_kind="",
        retry_at=None,
        enqueue_failed_at=None,
    )
    battle.state = rules.to_json(new_state)
    _ships_sync(battle, new_state)
    if new_state.finished:
        battle.status = BattleStatus.FINISHED
        battle.winner = new_state.winner or ""
        battle.end_reason = "A side has nothing left able to fight."
        battle.finished_at = timezone.now()
        battle.save(update_fields=["state", "status", "winner", "end_reason", "finished_at"])
    else:
        battle.save(update_fields=["state"])
        opened = _phase_open(battle, new_state, notify=False)
    # One task mails "phase N resolved" and then "phase N+1 open", in that order (NW-CAMP-14): two tasks
    # enqueued in that order may still run side by side on two workers.
    tasks.notify_phase_resolved.delay_on_commit(phase.pk, opened.pk if opened is not None else None)


def _ships_sync(battle: Battle, state: BattleState) -> None:
    """Copy ship statuses (and the sheets carried through the campaign) from ``state`` to the rows.

    Only rows that changed are written, with one bulk update each, so the cost does not grow with the
    number of ships that did nothing.
    """
    ships = state.ship_map()
    changed_bs: list[BattleShip] = []
    changed_cs: list[CampaignShip] = []
    now = timezone.now()
    for bs in BattleShip.objects.filter(battle=battle).select_related("campaign_ship"):
        ship = ships.get(bs.ship_key)
        if ship is None:
            continue
        if bs.status != ship.status:
            bs.status = ship.status
            changed_bs.append(bs)
        cs = bs.campaign_ship
        if cs.status != ship.status or cs.sheet != ship.sheet:
            if cs.status != ship.status:
                cs.status_changed_at = now
                cs.status_battle_id = battle.pk if ship.status != ShipStatus.ACTIVE else None
            cs.status = ship.status
            cs.sheet = ship.sheet
            changed_cs.append(cs)
    if changed_bs:
        BattleShip.objects.bulk_update(changed_bs, ["status"])
    if changed_cs:
        CampaignShip.objects.bulk_update(
            changed_cs, ["status", "sheet", "status_changed_at", "status_battle"]
        )


def _phase_give_up(phase: Phase, *, last_error: str) -> None:
    """Fail a ``resolving`` phase whose automatic retries are spent (the caller holds its lock); mail the
    umpires on commit."""
    from battles import tasks

    last = last_error or "the worker resolving it was lost, with no error recorded"
    Phase.objects.filter(pk=phase.pk).update(
        status=PhaseStatus.FAILED,
        error_kind=PhaseErrorKind.GAVE_UP,
        retry_at=None,
        error=f"Gave up after {phase.auto_retries} automatic retries. Last error: {last}"[:4000],
    )
    tasks.notify_phase_failed.delay_on_commit(phase.pk)


def phase_enqueue_failed(*, phase_id: int) -> bool:
    """Record that the resolve task of a closed phase could not be sent (the broker was down).

    Called after the closing transaction committed (battles.tasks.ResolvePhaseTask). The phase stays
    ``resolving``; the battle page says its resolution is delayed, and the next sweep sends it again without
    waiting for it to be stale. Return False when the phase is no longer waiting (resolved meanwhile).
    """
    with transaction.atomic():
        updated = Phase.objects.filter(pk=phase_id, status=PhaseStatus.RESOLVING, superseded=False).update(
            enqueue_failed_at=Now()
        )
    return bool(updated)


def phase_retry(*, phase: Phase, user: Any) -> Phase:
    """Put a failed phase back to ``resolving`` and enqueue it again (umpire only); the automatic retries
    (``auto_retries``) start again from nought. Raise ``not_failed`` for a phase that is not ``failed``."""
    with transaction.atomic():
        phase = _lock_phase(phase.pk)
        _require_umpire(phase.battle.campaign_id, user)
        if phase.status != PhaseStatus.FAILED or phase.superseded:
            raise ConflictError("not_failed", "Only a failed phase can be retried.")
        _phase_close(phase, reason="retry")
        text = f"Retry: phase {phase.number}, which failed to resolve, sent to resolution again."
        _umpire_action(phase.battle, user, UmpireActionKind.RETRY, text, phase=phase)
    return phase


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepReport:
    closed: tuple[int, ...] = ()
    requeued: tuple[int, ...] = ()
    gave_up: tuple[int, ...] = ()
    reminders: tuple[int, ...] = ()


def phases_sweep(*, stale_seconds: float = RESOLVE_STALE_SECONDS) -> SweepReport:
    """Close open phases whose deadline passed (every not-ready side's deadline, by the database clock);
    re-enqueue phases in ``resolving`` that no worker holds; enqueue deadline reminders. Return what was done.

    A ``resolving`` phase is sent again when its resolve task could not be sent (the broker was down:
    :func:`phase_enqueue_failed`; not counted as a retry), when its ``retry_at`` has come (a transient
    failure, :func:`_resolve_failed`), or, with no ``retry_at``, when it was closed more than
    ``stale_seconds`` ago (a worker killed mid-resolution). The last two count in ``auto_retries`` and set
    ``retry_at`` to now + :func:`retry_delay`, so a re-sent task has that long to finish before it is taken as
    lost; once ``AUTO_RETRY_LIMIT`` retries are spent the phase is ``failed`` (``error_kind="gave_up"``) and
    the umpires are mailed. A task still queued behind a long backlog also counts as lost: running it twice is
    harmless (:func:`phase_resolve` skips a phase that is no longer ``resolving``)."""
    from battles import tasks

    closed: list[int] = []
    requeued: list[int] = []
    with transaction.atomic():
        overdue = Phase.objects.filter(
            status=PhaseStatus.OPEN, superseded=False, battle__status=BattleStatus.ACTIVE
        ).filter(Q(deadline__lte=Now()) | Q(phase_sides__deadline__lte=Now()))
        candidates = list(
            Phase.objects.select_for_update(skip_locked=True)
            .annotate(db_now=Now())
            .filter(pk__in=overdue.values("pk"))
        )
        for phase in candidates:
            waiting = [
                ps
                for ps in PhaseSide.objects.filter(phase=phase, ready=False)
                if (ps.deadline or phase.deadline) is None or (ps.deadline or phase.deadline) > phase.db_now
            ]
            if not waiting:
                _phase_close(phase, reason="deadline")
                closed.append(phase.pk)
    gave_up: list[int] = []
    with transaction.atomic():
        stale = list(
            Phase.objects.select_for_update(skip_locked=True)
            .annotate(db_now=Now())
            .filter(status=PhaseStatus.RESOLVING, superseded=False)
            .filter(
                Q(enqueue_failed_at__isnull=False)
                | Q(retry_at__lte=Now())
                | Q(retry_at__isnull=True, closed_at__lte=Now() - timedelta(seconds=stale_seconds))
            )
        )
        for phase in stale:
            db_now = phase.db_now  # type: ignore[attr-defined]
            if phase.enqueue_failed_at is not None:  # never reached a worker: the broker was down
                Phase.objects.filter(pk=phase.pk).update(enqueue_failed_at=None)
            elif phase.auto_retries >= AUTO_RETRY_LIMIT:
                _phase_give_up(phase, last_error=phase.error)
                gave_up.append(phase.pk)
                continue
            else:
                Phase.objects.filter(pk=phase.pk).update(
                    auto_retries=F("auto_retries") + 1,
                    retry_at=db_now + retry_delay(phase.auto_retries + 1),
                    error_kind=PhaseErrorKind.TRANSIENT,
                    error=phase.error or "The resolution did not finish (its worker or task was lost).",
                )
            tasks.resolve_phase.delay_on_commit(phase.pk)  # marks the phase again if the send fails
            requeued.append(phase.pk)
    reminders = phases_remind_due()
    return SweepReport(
        closed=tuple(closed), requeued=tuple(requeued), gave_up=tuple(gave_up), reminders=tuple(reminders)
    )


def phases_remind_due() -> list[int]:
    """Enqueue a reminder task for each open phase whose deadline is within its campaign's reminder window.

    The reminder task sends each user of a side that is not ready one e-mail per phase (Notification rows).
    """
    from battles import tasks

    out: list[int] = []
    horizon = Now() + timedelta(hours=240)
    phases = (
        Phase.objects.filter(
            status=PhaseStatus.OPEN,
            superseded=False,
            battle__status=BattleStatus.ACTIVE,
            deadline__isnull=False,
            deadline__gt=Now(),
            deadline__lte=horizon,
        )
        .select_related("battle__campaign")
        .annotate(db_now=Now())
    )
    for phase in phases:
        hours = float((phase.battle.campaign.settings or {}).get("reminder_hours", DEFAULT_REMINDER_HOURS))
        if hours and phase.deadline - phase.db_now <= timedelta(hours=hours):  # type: ignore[attr-defined,operator]
            tasks.notify_phase_reminder.delay(phase.pk)
            out.append(phase.pk)
    return out


# --- umpire tools ----------------------------------------------------------------------------------------


def battle_rollback(*, battle: Battle, user: Any, to_number: int, deadline: datetime | None = None) -> Phase:
    """Roll a battle back to the start of phase ``to_number`` (umpire only).

    That phase and every later one are marked superseded (nothing is deleted: they stay visible with their
    orders and logs); the battle state, ship statuses and campaign sheets return to that phase's
    ``state_before``; a new phase ``to_number`` opens with a new seed. A finished battle becomes active again,
    unless one of its ships is now in another live battle of the campaign (``ship_in_battle``, NW-CAMP-02),
    fought in a battle created since (``fought_since``, NW-CAMP-19) or was repaired since (``repaired_since``,
    NW-CAMP-06). Raise ``no_phase`` for a number the battle has not reached.
    """
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        # Phase rows first, then the battle row (the order phase_resolve locks them in).
        phases = list(
            Phase.objects.select_for_update().filter(battle=battle, superseded=False).order_by("number")
        )
        battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        phases = list(Phase.objects.filter(battle=battle, superseded=False).order_by("number"))
        target = next((p for p in phases if p.number == to_number), None)
        if target is None:
            raise ApplicationError(
                "no_phase",
                f"The battle has no phase {to_number} to roll back to.",
                fields={"to_number": ["No such phase."]},
            )
        Phase.objects.filter(battle=battle, superseded=False, number__gte=to_number).update(
            superseded=True, close_reason="rolled_back"
        )
        if battle.status == BattleStatus.FINISHED:
            _refuse_revival(battle, doing="rolling it back", done="rolled back")
        opened = _battle_resume(battle, target.state_before, number=to_number, deadline=deadline)
        text = f"Roll back: the battle went back to the start of phase {to_number}, which opened again."
        _umpire_action(battle, user, UmpireActionKind.ROLLBACK, text, phase=opened)
        return opened


def _refuse_revival(battle: Battle, *, doing: str, done: str) -> None:
    """Refuse to bring the finished ``battle`` back to life (a roll back or a reopen: ``doing`` and ``done``
    name it in the messages) while one of its ships is in another live battle (NW-CAMP-02), fought in a
    battle created since (NW-CAMP-19) or was repaired since it ended (NW-CAMP-06): her sheet and status would
    go back to this battle's. Locks the campaign first (as battle creation does)."""
    _lock_campaign(battle.campaign)
    ship_ids = BattleShip.objects.filter(battle=battle).values_list("campaign_ship_id", flat=True)
    _refuse_ships_in_live_battles(battle.campaign, ship_ids)
    _refuse_fought_since(battle, ship_ids, doing=doing, done=done)
    _refuse_repaired_since(battle, ship_ids, doing=doing, done=done)


def _battle_resume(battle: Battle, state_before: Any, *, number: int, deadline: datetime | None) -> Phase:
    """Put ``battle`` back to ``state_before`` (a phase's JSON state before it), active, with no winner or
    end, its ships' statuses and campaign sheets as that state has them, and open phase ``number`` with a new
    seed (a roll back, a reopen). Inside the caller's transaction, its rows locked."""
    state = _state(state_before)
    battle.state = state_before
    battle.status = BattleStatus.ACTIVE
    battle.winner = ""
    battle.end_reason = ""
    battle.finished_at = None
    battle.save(update_fields=["state", "status", "winner", "end_reason", "finished_at"])
    _ships_sync(battle, state)
    return _phase_open(battle, state, number=number, deadline=deadline)


def _refuse_repaired_since(
    battle: Battle, campaign_ship_ids: Any, *, doing: str = "rolling it back", done: str = "rolled back"
) -> None:
    """Raise ``repaired_since`` if a ship of the finished ``battle`` was repaired after it ended: rolling it
    back (or reopening it, as ``doing`` and ``done`` say) would put the ship's sheet and status back to the
    battle's, silently undoing the repair, while the repair stayed in her record (docs/rulings.md
    NW-CAMP-06)."""
    if battle.finished_at is None:
        return
    repaired = sorted(
        set(
            RepairRecord.objects.filter(
                campaign_ship_id__in=campaign_ship_ids, at__gt=battle.finished_at
            ).values_list("campaign_ship__ship__name", flat=True)
        )
    )
    if repaired:
        raise ConflictError(
            "repaired_since",
            f"{', '.join(repaired)} {'was' if len(repaired) == 1 else 'were'} repaired after this battle "
            f"ended: {doing} would undo the repair. Nothing was {done}; the battle stays over.",
        )


def _refuse_fought_since(
    battle: Battle, campaign_ship_ids: Any, *, doing: str = "rolling it back", done: str = "rolled back"
) -> None:
    """Raise ``fought_since`` if a ship of the finished ``battle`` is in a battle of the campaign created
    after it (docs/rulings.md NW-CAMP-19): bringing it back would put her sheet and status back to this
    battle's, undoing that battle's damage and losses (a ship sunk there afloat again). A battle still live
    is refused before, as ``ship_in_battle`` (NW-CAMP-02)."""
    later = (
        BattleShip.objects.filter(
            campaign_ship_id__in=list(campaign_ship_ids),
            battle__campaign_id=battle.campaign_id,
            battle__created_at__gt=battle.created_at,
        )
        .exclude(battle=battle)
        .select_related("battle", "campaign_ship__ship")
        .order_by("battle__created_at", "pk")
    )
    by_battle: dict[int, tuple[Battle, list[str]]] = {}
    for bs in later:
        by_battle.setdefault(bs.battle_id, (bs.battle, []))[1].append(bs.campaign_ship.ship.name)
    if by_battle:
        fought = "; ".join(
            f'{", ".join(names)} fought in the battle "{b.name}"' for b, names in by_battle.values()
        )
        raise ConflictError(
            "fought_since",
            f"{fought} after this battle ended: {doing} would undo that battle's damage and losses. "
            f"Nothing was {done}; the battle stays over.",
        )


END_REASON_DEFAULT = "Ended by the umpire."
"""The reason logged for an umpire's end given none, or only spaces (docs/rulings.md NW-CAMP-28)."""


def battle_end(*, battle: Battle, user: Any, winner: str = "", reason: str = END_REASON_DEFAULT) -> Battle:
    """End a battle now (umpire only). An open or failed phase is marked superseded (not played). ``reason``
    is logged trimmed; a blank one is :data:`END_REASON_DEFAULT` (NW-CAMP-28); one holding a direction control
    that turns the text after it is refused (``bad_text``, NW-CAMP-34)."""
    reason = reason.strip() or END_REASON_DEFAULT
    _prose_checked(reason, field="reason")
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        list(
            Phase.objects.select_for_update()
            .filter(battle=battle, superseded=False)
            .exclude(status=PhaseStatus.RESOLVED)
        )
        battle = Battle.objects.select_for_update().get(pk=battle.pk)
        if battle.status == BattleStatus.FINISHED:
            raise ConflictError("battle_finished", "The battle is already over.")
        if winner and not Side.objects.filter(campaign_id=battle.campaign_id, key=winner).exists():
            raise ApplicationError("bad_side", f"No side {winner!r}.", fields={"winner": ["No such side."]})
        in_play = (
            Phase.objects.filter(battle=battle, superseded=False).exclude(status=PhaseStatus.RESOLVED).first()
        )
        Phase.objects.filter(battle=battle, superseded=False).exclude(status=PhaseStatus.RESOLVED).update(
            superseded=True, close_reason=BATTLE_ENDED
        )
        won = Side.objects.filter(campaign_id=battle.campaign_id, key=winner).first() if winner else None
        text = (
            "End: the battle ended"
            + (f" in phase {in_play.number}, which was not played" if in_play is not None else "")
            + (f"; winner {won.name}" if won is not None else "; no winner")
            + f". {reason}"
        )
        _umpire_action(battle, user, UmpireActionKind.END, text, phase=in_play)
        state = replace(_state(battle.state), finished=True, winner=winner or None)
        battle.state = rules.to_json(state)
        battle.status = BattleStatus.FINISHED
        battle.winner = winner
        battle.end_reason = reason
        battle.finished_at = timezone.now()
        battle.save(update_fields=["state", "status", "winner", "end_reason", "finished_at"])
    return battle


def battle_reopen(*, battle: Battle, user: Any, deadline: datetime | None = None) -> Phase:
    """Undo the umpire's "End the battle" (umpire only, docs/rulings.md NW-CAMP-09): the battle is active
    again in the state it had when it was ended (the ``state_before`` of the phase the end left unplayed: not
    finished, no winner), its end reason, winner and end time are cleared, and a phase with that number opens
    with a new seed and deadline. The phase the end superseded stays superseded, its close reason
    ``battle_ended_reopened``; its orders stay with it, for the record.

    Raise ``not_umpire`` (403); ``battle_not_finished`` for a battle not over, ``not_ended_by_umpire`` for one
    the rules finished (a roll back undoes that) or one ended before its first phase (409); and, as a roll
    back of a finished battle, ``ship_in_battle`` (NW-CAMP-02), ``fought_since`` (NW-CAMP-19) and
    ``repaired_since`` (NW-CAMP-06).
    """
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        # Phase rows first, then the battle row (the order phase_resolve and battle_rollback lock them in).
        list(Phase.objects.select_for_update().filter(battle=battle, superseded=False))
        battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
        if battle.status != BattleStatus.FINISHED:
            message = "The battle is not over: there is nothing to reopen. Nothing was changed."
            raise ConflictError("battle_not_finished", message)
        ended = selectors.phase_ended_by_umpire(battle=battle)
        if ended is None:
            raise ConflictError(
                "not_ended_by_umpire",
                "The battle was not ended by the umpire"
                + (
                    " (its last phase finished it): to play on, roll it back to a phase."
                    if Phase.objects.filter(battle=battle).exists()
                    else ", or it ended before its first phase: there is no phase to reopen."
                )
                + " Nothing was changed.",
            )
        _refuse_revival(battle, doing="reopening it", done="reopened")
        Phase.objects.filter(pk=ended.pk).update(close_reason=BATTLE_ENDED_REOPENED)
        opened = _battle_resume(battle, ended.state_before, number=ended.number, deadline=deadline)
        text = f"Reopen: the battle the umpire ended is on again, and phase {ended.number} opened again."
        _umpire_action(battle, user, UmpireActionKind.REOPEN, text, phase=opened)
        return opened


SHIP_EDIT_FIELDS = ("status", "flags", "heading", "speed", "sheet", "position")


def _reason_checked(reason: str, missing: str) -> str:
    """Return an umpire's reason, stripped; refuse none (``missing`` says so) or one over
    :data:`battles.sheet_edits.REASON_MAX` characters (``reason_too_long``)."""
    text = reason.strip()
    if not text:
        raise ApplicationError("reason_required", missing, fields={"reason": ["Required."]})
    if len(text) > sheet_edits.REASON_MAX:
        message = f"Keep the reason to {sheet_edits.REASON_MAX} characters (it has {len(text)})."
        raise ApplicationError("reason_too_long", message, fields={"reason": [message]})
    _prose_checked(text, field="reason")  # NW-CAMP-34
    return text


def _ship_edit_values(ship: ShipState, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Return the ShipState fields ``changes`` set, each checked for its shape; raise ``bad_edit`` in words.

    Whether the result is a ship the engine can resolve (on the map, a hex facing...) is
    ``rules.check_state``'s to say, once the fields are in place."""
    kwargs: dict[str, Any] = {}
    problems: list[str] = []
    if "status" in changes:
        if changes["status"] not in ShipStatus.values:
            raise ApplicationError(
                "bad_status",
                f"Unknown status {sheet_edits.shown(changes['status'])}; "
                f"a ship is one of: {', '.join(ShipStatus.values)}.",
            )
        kwargs["status"] = changes["status"]
    for key, read in (
        ("flags", sheet_edits.flags_value),
        ("heading", lambda v: sheet_edits.number_value("heading", v)),
        ("speed", lambda v: sheet_edits.number_value("speed", v)),
    ):
        if key in changes:
            try:
                kwargs[key] = read(changes[key])
            except ValueError as exc:
                problems.append(str(exc))
    if kwargs.get("heading") == 360:
        kwargs["heading"] = 0.0  # 360 is 0; other headings outside 0 up to 360 are refused (check_state)
    if "sheet" in changes:
        new = changes["sheet"]
        if not isinstance(new, dict):
            problems.append(
                'sheet must be an object of the entries to change, such as {"damage": 2}, '
                f"not {sheet_edits.shown(new)}"
            )
        else:
            problems.extend(sheet_edits.sheet_problems(ship.sheet, new, numbers=False))  # check_state
            kwargs["sheet"] = {**ship.sheet, **new}
    if "position" in changes:
        try:
            pos = sheet_edits.position_value(changes["position"])
        except ValueError as exc:
            problems.append(str(exc))
        else:
            q_r = "q" in changes["position"]
            kwargs["position"] = Hex(q=int(pos[0]), r=int(pos[1])) if q_r else Point(x=pos[0], y=pos[1])
    if problems:
        raise ApplicationError("bad_edit", "; ".join(problems) + ".")
    return kwargs


def _top_speed_checked(battle: Battle, ship: rules.ShipState, changes: Mapping[str, Any]) -> None:
    """Refuse (``bad_edit``, at the speed) a speed edited above what her class makes undamaged
    (``RuleSet.top_speed``): docs/rulings.md NW-CAMP-29. A speed left alone is not checked."""
    if "speed" not in changes:
        return
    too_fast = _above_top_speed(rules.get_ruleset(battle.campaign.ruleset), ship)
    if too_fast:
        message = f"{too_fast}. Nothing was saved."
        raise ApplicationError("bad_edit", message, fields={"speed": [message]})


def _above_top_speed(rs: rules.RuleSet, ship: rules.ShipState) -> str | None:
    """Return why ``ship.speed`` is above what her class makes undamaged (``RuleSet.top_speed``,
    docs/rulings.md NW-CAMP-29), ``"Hood makes at most 27 knots (her class, undamaged), not 999"``, or
    None."""
    top = rs.top_speed(ship)
    if top is None or ship.speed <= top + 1e-9:
        return None
    unit = display.speed_unit(rs)
    return f"{ship.name} makes at most {top:g} {unit} (her class, undamaged), not {ship.speed:g}"


def battle_ship_edit(
    *, battle: Battle, ship_key: str, user: Any, changes: Mapping[str, Any], reason: str
) -> ShipEdit:
    """Edit a ship's state in an active battle (umpire only), with a logged reason.

    ``changes`` may set ``status``, ``flags`` (list), ``heading``, ``speed``, ``sheet`` (merged into the
    sheet) and ``position`` ({q, r} or {x, y}). The battle state and the open phase's ``state_before`` both
    change (orders are checked against it). Refused while a phase is resolving (``phase_resolving``), and
    when it would change nothing (``nothing_to_change``).
    """
    reason = _reason_checked(reason, "Give a reason for the edit.")
    unknown = [k for k in changes if k not in SHIP_EDIT_FIELDS]
    if unknown:
        raise ApplicationError(
            "bad_edit",
            f"Unknown fields: {', '.join(sheet_edits.key_shown(k) for k in unknown[:5])}. "
            f"The changes may set: {', '.join(SHIP_EDIT_FIELDS)}.",
        )
    with transaction.atomic():
        _require_umpire(battle.campaign_id, user)
        current = list(
            Phase.objects.select_for_update()
            .filter(battle=battle, superseded=False)
            .exclude(status__in=[PhaseStatus.RESOLVED])
        )
        battle = Battle.objects.select_for_update().get(pk=battle.pk)
        if battle.status != BattleStatus.ACTIVE:
            raise ConflictError("battle_not_active", "Only a ship in an active battle can be edited here.")
        if any(p.status == PhaseStatus.RESOLVING for p in current):
            raise ConflictError("phase_resolving", "A phase is being resolved; try again in a moment.")
        bship = BattleShip.objects.filter(battle=battle, ship_key=ship_key).first()
        if bship is None:
            raise ApplicationError("no_ship", "There is no such ship in this battle.", status=404)
        state = _state(battle.state)
        ship = state.ship(ship_key)
        before = rules.to_json(ship)
        kwargs = _ship_edit_values(ship, changes)
        new_ship = replace(ship, **kwargs)
        if "sheet" in kwargs:  # what the rules work out from the boxes follows them (NW-WW2-28: max_speed)
            new_ship = rules.get_ruleset(state.ruleset).sheet_refreshed(
                state, new_ship, given=changes["sheet"]
            )
        if rules.to_json(new_ship) == before:
            # an edit that leaves the ship as she is would only log "(nothing changed)" under a reason that
            # says something happened (no changes typed, or the values she has already)
            message = "Nothing to change: the ship already is as the changes say. Nothing was saved."
            raise ApplicationError("nothing_to_change", message, fields={"changes": [message]})
        new_state = state.with_ships({ship_key: new_ship})
        # refused when the edit would make a ship the engine could not resolve: off the map and active, a
        # heading between hex facings, a negative or huge sheet number... (rules.check_state, NW-CAMP-04)
        mine = f"ship {ship_key!r}"
        # her own problems, and two ships afloat in one position when she is either (NW-CAMP-07)
        problems = [
            p
            for p in rules.check_state(new_state)
            if p.startswith(mine) or f"at the position of {mine};" in p
        ]
        if problems:
            raise ApplicationError("bad_edit", "; ".join(_ships_named(problems, new_state)) + ".")
        # after the shape checks: a speed of 1e29 is refused as out of range, not as above her top speed
        _top_speed_checked(battle, new_ship, changes)
        battle.state = rules.to_json(new_state)
        battle.save(update_fields=["state"])
        for phase in current:
            if phase.status in (PhaseStatus.OPEN, PhaseStatus.FAILED):
                phase_state = _state(phase.state_before).with_ships({ship_key: new_ship})
                Phase.objects.filter(pk=phase.pk).update(state_before=rules.to_json(phase_state))
        _ships_sync(battle, new_state)
        return ShipEdit.objects.create(
            battle=battle,
            battle_ship=bship,
            phase=min(current, key=lambda p: p.number, default=None),  # the phase in play (one at a time)
            umpire=user,
            reason=reason,
            before=before,
            after=rules.to_json(new_ship),
        )


__all__ = [
    "Placement",
    "SweepReport",
    "battle_create",
    "battle_create_from_scenario",
    "battle_end",
    "battle_reopen",
    "battle_rollback",
    "battle_setup_conditions_set",
    "battle_ship_edit",
    "battle_start",
    "campaign_create",
    "campaign_settings_clean",
    "campaign_settings_update",
    "campaign_ship_add",
    "campaign_ship_assign",
    "campaign_ship_commission",
    "campaign_ship_repair",
    "dice_seed",
    "heartbeat_record",
    "invitation_accept",
    "invitation_accept_new_user",
    "invitation_check",
    "invitation_create",
    "membership_add",
    "orders_delete",
    "orders_submit",
    "phase_close",
    "phase_enqueue_failed",
    "phase_extend_deadline",
    "phase_resolve",
    "phase_retry",
    "phases_sweep",
    "profile_get",
    "profile_update",
    "seed_hash",
    "side_create",
    "side_set_ready",
]
