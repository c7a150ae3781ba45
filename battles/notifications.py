"""E-mail about phases: opened (with the deadline), resolved, and a reminder before the deadline.

Each mail is one ``Notification`` row (unique per user, phase and kind) created and committed before the mail
goes out, so a task delivered twice never mails anyone twice. Users opt out on the settings page
(``UserProfile.email_notifications``; no profile means opted in).
"""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from battles.models import Membership, Notification, NotificationKind, Phase, PhaseStatus, Role, UserProfile

logger = logging.getLogger(__name__)


def _site_url(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://127.0.0.1:8000").rstrip("/") + path


def _local(dt: Any, user: Any, profiles: dict[int, UserProfile]) -> str:
    if dt is None:
        return "no deadline"
    profile = profiles.get(user.pk)
    try:
        tz = zoneinfo.ZoneInfo(profile.time_zone if profile else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return timezone.localtime(dt, tz).strftime("%a %d %b %Y %H:%M %Z")


def _send(phase: Phase, kind: str, users: Iterable[Any], subject: str, body: Any) -> int:
    users = [u for u in users if u.email]
    profiles = {p.user_id: p for p in UserProfile.objects.filter(user__in=users)}
    sent = 0
    for user in users:
        profile = profiles.get(user.pk)
        if profile is not None and not profile.email_notifications:
            continue
        try:
            with transaction.atomic():
                note = Notification.objects.create(user=user, phase=phase, kind=kind)
        except IntegrityError:
            continue  # already sent (or being sent) for this event
        try:
            send_mail(subject, body(user, profiles), None, [user.email])
        except Exception:  # a mail server failure must not fail the task for the others
            logger.exception("could not mail %s about phase %s", user, phase.pk)
            continue
        Notification.objects.filter(pk=note.pk).update(sent_at=timezone.now())
        sent += 1
    return sent


def _members(phase: Phase, *, roles: Iterable[str], side_keys: Iterable[str] | None = None) -> list[Any]:
    qs = Membership.objects.filter(campaign_id=phase.battle.campaign_id, role__in=list(roles)).select_related(
        "user", "side"
    )
    out = []
    keys = set(side_keys) if side_keys is not None else None
    for m in qs:
        if m.role == Role.PLAYER and keys is not None and (m.side is None or m.side.key not in keys):
            continue
        out.append(m.user)
    return out


def _phase(phase_id: int) -> Phase | None:
    return Phase.objects.select_related("battle__campaign").filter(pk=phase_id).first()


def phase_opened_notify(*, phase_id: int) -> int:
    """Mail the players of the ordering sides (and the umpires) that a phase opened, with its deadline."""
    phase = _phase(phase_id)
    if phase is None or phase.superseded:
        return 0
    battle = phase.battle
    url = _site_url(reverse("battles:battle", args=[battle.pk]))
    users = _members(phase, roles=[Role.PLAYER, Role.UMPIRE], side_keys=phase.sides)

    def body(user: Any, profiles: dict[int, UserProfile]) -> str:
        return (
            f"{battle.campaign.name}: {battle.name}\n\n"
            f"Phase {phase.number} (turn {phase.turn}{', ' + phase.name if phase.name else ''}) is open for "
            f"orders.\nDeadline: {_local(phase.deadline, user, profiles)}\n"
            f"Dice seed SHA-256: {phase.seed_hash}\n\nGive your orders: {url}\n"
        )

    return _send(
        phase,
        NotificationKind.PHASE_OPENED,
        users,
        f"[Navalwar] {battle.name}: phase {phase.number} is open",
        body,
    )


def phase_resolved_notify(*, phase_id: int) -> int:
    """Mail every member of the campaign that a phase resolved."""
    phase = _phase(phase_id)
    if phase is None or phase.status != PhaseStatus.RESOLVED:
        return 0
    battle = phase.battle
    url = _site_url(reverse("battles:battle_log", args=[battle.pk]) + f"?phase={phase.number}")
    users = _members(phase, roles=[Role.PLAYER, Role.UMPIRE, Role.OBSERVER])

    def body(user: Any, profiles: dict[int, UserProfile]) -> str:
        return (
            f"{battle.campaign.name}: {battle.name}\n\n"
            f"Phase {phase.number} (turn {phase.turn}) has been resolved.\n"
            f"Read the log: {url}\n"
        )

    return _send(
        phase,
        NotificationKind.PHASE_RESOLVED,
        users,
        f"[Navalwar] {battle.name}: phase {phase.number} resolved",
        body,
    )


def phase_reminder_notify(*, phase_id: int) -> int:
    """Mail the players of ordering sides that are not ready that the deadline is near (once per phase)."""
    phase = _phase(phase_id)
    if phase is None or phase.superseded or phase.status != PhaseStatus.OPEN:
        return 0
    battle = phase.battle
    waiting = list(phase.phase_sides.filter(ready=False).values_list("side__key", flat=True))
    if not waiting:
        return 0
    url = _site_url(reverse("battles:battle", args=[battle.pk]))
    users = _members(phase, roles=[Role.PLAYER], side_keys=waiting)

    def body(user: Any, profiles: dict[int, UserProfile]) -> str:
        return (
            f"{battle.campaign.name}: {battle.name}\n\n"
            f"Your side is not ready in phase {phase.number} (turn {phase.turn}).\n"
            f"Deadline: {_local(phase.deadline, user, profiles)}\n"
            f"Ships without orders will follow the campaign's default orders.\n\n{url}\n"
        )

    return _send(
        phase,
        NotificationKind.REMINDER,
        users,
        f"[Navalwar] {battle.name}: deadline for phase {phase.number} is near",
        body,
    )
