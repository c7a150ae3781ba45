"""E-mail about phases: opened (with the deadline), resolved, a reminder before the deadline, and failed
(to the umpires).

Each mail is one ``Notification`` row (unique per user, phase and kind) created and committed before the mail
goes out, and marked ``sent_at`` once the mail server took it, so a task delivered twice, or retried, never
mails anyone twice. A send that fails with an SMTP or connection error (``OSError``) leaves its row unsent
with the error kept, and :class:`MailNotSent` is raised after the other recipients were tried: the notify
tasks (battles/tasks.py) retry on it with a backoff and send only the rows still unsent. A recipient the
server refuses (``SMTPRecipientsRefused``) or a mail that cannot be built is not retried. Users opt out on the
settings page (``UserProfile.email_notifications``; no profile means opted in).
"""

from __future__ import annotations

import logging
import smtplib
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


class MailNotSent(Exception):
    """Some mails of a notification failed with an SMTP or connection error; the task retries on it.

    ``sent`` is how many mails this run did send; ``failed`` the addresses still to send.
    """

    def __init__(self, *, sent: int, failed: list[str], last_error: str) -> None:
        super().__init__(f"{len(failed)} mail(s) not sent ({last_error}); {sent} sent")
        self.sent = sent
        self.failed = failed


def _send(phase: Phase, kind: str, users: Iterable[Any], subject: str, body: Any) -> int:
    """Mail ``users`` (with an address, not opted out) that have no sent ``Notification`` of ``kind`` for
    ``phase``; return the mails sent. Raise :class:`MailNotSent` after trying everyone when a send failed
    with an ``OSError`` (``smtplib.SMTPException`` is one), so that the task retries the rest.

    Each send holds its row's lock (``select_for_update(skip_locked=True)``), so two deliveries of a task
    never mail the same user twice; a mail the server took just before the worker died is sent again.
    """
    users = [u for u in users if u.email]
    profiles = {p.user_id: p for p in UserProfile.objects.filter(user__in=users)}
    sent = 0
    failed: list[str] = []
    last_error = ""
    for user in users:
        profile = profiles.get(user.pk)
        if profile is not None and not profile.email_notifications:
            continue
        try:
            with transaction.atomic():
                Notification.objects.get_or_create(user=user, phase=phase, kind=kind)
        except IntegrityError:
            pass  # created by a concurrent run just now; the lock below sorts out who sends it
        with transaction.atomic():
            note = (
                Notification.objects.select_for_update(skip_locked=True)
                .filter(user=user, phase=phase, kind=kind, sent_at__isnull=True)
                .first()
            )
            if note is None:
                continue  # already sent, or being sent by another run of this task
            note.attempts += 1
            try:
                send_mail(subject, body(user, profiles), None, [user.email])
            except smtplib.SMTPRecipientsRefused as exc:  # this address will not do better next time
                logger.error("mail server refused %s for phase %s: %s", user.email, phase.pk, exc)
                note.error = f"refused: {exc}"[:2000]
            except OSError as exc:  # SMTP and connection errors: worth trying again later
                logger.warning("could not mail %s about phase %s: %s", user, phase.pk, exc)
                note.error = f"{type(exc).__name__}: {exc}"[:2000]
                failed.append(user.email)
                last_error = note.error
            except Exception as exc:  # a bug building the mail must not fail the task for the others
                logger.exception("could not mail %s about phase %s", user, phase.pk)
                note.error = f"{type(exc).__name__}: {exc}"[:2000]
            else:
                note.sent_at = timezone.now()
                note.error = ""
                sent += 1
            note.save(update_fields=["attempts", "error", "sent_at"])
    if failed:
        raise MailNotSent(sent=sent, failed=failed, last_error=last_error)
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

    # "turn" is the name of a rule set's only phase: "(turn 1, turn)" said nothing (as the battle page).
    named = f", {phase.name}" if phase.name and phase.name != "turn" else ""

    def body(user: Any, profiles: dict[int, UserProfile]) -> str:
        return (
            f"{battle.campaign.name}: {battle.name}\n\n"
            f"Phase {phase.number} (turn {phase.turn}{named}) is open for "
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


PHASE_FAILED_ADVICE = {
    "rules": (
        "The rules raised an error on this state and these orders, so it is not retried automatically: "
        "the same orders would fail the same way. Edit a ship, roll back, or retry from the battle page."
    ),
    "gave_up": (
        "The server could not resolve it (database, broker or worker trouble) and its automatic retries are "
        "spent. Retry from the battle page once the trouble is over."
    ),
}


def phase_failed_notify(*, phase_id: int) -> int:
    """Mail the umpires of the campaign that a phase failed to resolve, with the error and what to do.

    Sent for ``error_kind`` ``rules`` (at once) and ``gave_up`` (automatic retries spent); once per phase.
    """
    phase = _phase(phase_id)
    if phase is None or phase.superseded or phase.status != PhaseStatus.FAILED:
        return 0
    battle = phase.battle
    url = _site_url(reverse("battles:battle", args=[battle.pk]) + "#umpire")
    users = _members(phase, roles=[Role.UMPIRE])
    advice = PHASE_FAILED_ADVICE.get(phase.error_kind, PHASE_FAILED_ADVICE["rules"])

    def body(user: Any, profiles: dict[int, UserProfile]) -> str:
        return (
            f"{battle.campaign.name}: {battle.name}\n\n"
            f"Phase {phase.number} (turn {phase.turn}) could not be resolved.\n"
            f"Error: {phase.error}\n\n{advice}\n\n{url}\n"
        )

    return _send(
        phase,
        NotificationKind.PHASE_FAILED,
        users,
        f"[Navalwar] {battle.name}: phase {phase.number} could not be resolved",
        body,
    )
