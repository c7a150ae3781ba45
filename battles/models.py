"""Campaigns, sides, memberships, invitations, campaign ships, battles, phases, orders and the battle log.

Names follow the data-model contract in WEB_BRIEF.md (other apps and developers code against them). No game
logic lives here: the rules package adjudicates, battles/services.py writes, battles/selectors.py reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from fleets.models import ruleset_choices
from navalwar.text import validate_name, validate_prose

USER_MODEL = settings.AUTH_USER_MODEL


class WorkerHeartbeat(models.Model):
    """A row a Celery worker writes to prove it reaches the broker and the database (see tasks.heartbeat)."""

    token = models.CharField(max_length=64, unique=True)
    hostname = models.CharField(max_length=255)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.token} from {self.hostname} at {self.created_at:%Y-%m-%d %H:%M:%S}"


class UserProfile(models.Model):
    """A user's time zone (deadlines are shown in it) and e-mail opt-in."""

    user = models.OneToOneField(USER_MODEL, on_delete=models.CASCADE, related_name="navalwar_profile")
    time_zone = models.CharField(max_length=64, default="UTC", help_text="IANA name, e.g. Europe/London.")
    email_notifications = models.BooleanField(
        default=True, help_text="E-mail me when a phase opens or resolves, and before a deadline."
    )

    def __str__(self) -> str:
        return f"profile of {self.user}"


CAMPAIGN_DESCRIPTION_MAX = 2000
"""The longest campaign description, in characters, checked by the campaign form, the admin's form (the
field's validator) and ``services.campaign_create``. The column stays a text column without a limit: a
TextField's ``max_length`` is checked by forms only, and adding it would rebuild the table on SQLite for
nothing; a validator is no part of the schema."""


class Campaign(models.Model):
    """A campaign under one rule set. ``settings`` holds ``default_orders`` (A7), ``deadline_hours``,
    ``reminder_hours`` and the rule set's options (copied into every battle's state options)."""

    name = models.CharField(max_length=120, validators=[validate_name])
    ruleset = models.CharField(max_length=32, choices=ruleset_choices)
    description = models.TextField(
        blank=True, validators=[MaxLengthValidator(CAMPAIGN_DESCRIPTION_MAX), validate_prose]
    )
    settings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return self.name


SIDES_MAX = 10
"""The most sides a campaign has (its form, ``services.campaign_create``, ``services.side_create`` and the
admin's inline refuse more): as many as :data:`SIDE_PALETTE` has colours, so every side is told apart on the
map by its own (docs/rulings.md NW-CAMP-35)."""

SIDE_PALETTE = (
    "#1f4e9c",  # navy blue
    "#b22222",  # firebrick red
    "#2e8b57",  # sea green
    "#d2691e",  # orange brown
    "#6a3d9a",  # purple
    "#008b8b",  # dark cyan
    "#b8860b",  # dark gold
    "#c71585",  # violet red
    "#556b2f",  # olive
    "#4d4d4d",  # grey
)
"""Colours given, in this order, to the sides given none (the first not already used in the campaign): dark
enough for white text and far apart on the map."""

_COLOUR = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")


def side_colour(colour: str) -> str | None:
    """Return a CSS hex colour as a side keeps it, ``#rrggbb`` in lower case (``"#F00"`` is ``"#ff0000"``),
    or None for text that is not one. Two sides' colours are the same when these are (NW-CAMP-35)."""
    match = _COLOUR.fullmatch(colour.strip())
    if match is None:
        return None
    digits = match.group(1).lower()
    return "#" + (digits if len(digits) == 6 else "".join(d * 2 for d in digits))


class Side(models.Model):
    """A side of a campaign. ``key`` is the side key used in the rules state (a scenario's side key)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=80, validators=[validate_name])
    colour = models.CharField(max_length=7, default="#888888")
    nation = models.ForeignKey(
        "fleets.Nation", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="side_unique_key_per_campaign")
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    PLAYER = "player", "Player"
    UMPIRE = "umpire", "Umpire"
    OBSERVER = "observer", "Observer"


class Membership(models.Model):
    """A user's place in a campaign: a player of a side, an umpire (organiser) or an observer."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    side = models.ForeignKey(
        Side, on_delete=models.CASCADE, null=True, blank=True, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "role", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_per_user_and_campaign"),
            models.CheckConstraint(
                condition=~Q(role="player") | Q(side__isnull=False), name="membership_player_has_side"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} as {self.role}"

    @property
    def is_umpire(self) -> bool:
        return self.role == Role.UMPIRE


class Invitation(models.Model):
    """A single-use, expiring link that makes its user a member of a campaign (on a side, for players).
    An umpire may revoke it while unused (``revoked_at``, ``revoked_by``: docs/rulings.md NW-CAMP-26); its
    link then says so."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    side = models.ForeignKey(
        Side, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    token = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    created_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    used_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"invitation to {self.campaign} ({self.role})"


class ShipStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUNK = "sunk", "Sunk"
    STRUCK = "struck", "Struck"
    WITHDRAWN = "withdrawn", "Withdrawn"
    CAPTURED = "captured", "Captured"


def campaign_ship_named(
    campaign_id: int, name: str, *, exclude_ship_id: int | None = None
) -> CampaignShip | None:
    """Return the ship of campaign ``campaign_id`` named ``name`` in any case (``Hood``, ``HOOD``), other
    than the fleets Ship ``exclude_ship_id``, or None: a campaign's ships have one name each (NW-CAMP-25)."""
    found = CampaignShip.objects.filter(campaign_id=campaign_id, ship__name__iexact=name.strip())
    if exclude_ship_id is not None:
        found = found.exclude(ship_id=exclude_ship_id)
    return found.select_related("ship__ship_class", "side").order_by("pk").first()


def ship_name_taken_message(other: CampaignShip, *, then: str = "Give this one another name.") -> str:
    """Return why a ship may not join ``other``'s campaign under ``other``'s name (NW-CAMP-25), ending with
    what to do, ``then``."""
    return (
        f"The campaign already has a ship named {other.ship.name} ({other.ship.ship_class.name}, "
        f"{other.side.name}): two ships of one name could not be told apart in orders and the log. {then}"
    )


class CampaignShip(models.Model):
    """A ship in a campaign: its side, its commander, and the status and sheet it carries between battles."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ships")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="ships")
    ship = models.ForeignKey("fleets.Ship", on_delete=models.PROTECT, related_name="campaign_ships")
    commander = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="commands"
    )
    status = models.CharField(max_length=10, choices=ShipStatus.choices, default=ShipStatus.ACTIVE)
    sheet = models.JSONField(default=dict, blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    status_battle = models.ForeignKey(
        "Battle",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The battle in which the ship was sunk, struck, withdrawn or captured.",
    )

    class Meta:
        ordering = ["side", "pk"]
        constraints = [models.UniqueConstraint(fields=["campaign", "ship"], name="campaignship_unique_ship")]

    def __str__(self) -> str:
        return str(self.ship)

    def clean(self) -> None:
        """Refuse in a model form (the admin's) what ``services.campaign_ship_add`` refuses: a side of another
        campaign, a ship of another rule set's class, a ship whose name another ship of the campaign has
        (any case: docs/rulings.md NW-CAMP-25), a commander who is not a player of her side."""
        errors: dict[str, str] = {}
        if self.campaign_id is None:
            return
        if self.side_id is not None and self.side.campaign_id != self.campaign_id:
            errors["side"] = f"{self.side.name} is a side of another campaign."
        if self.ship_id is not None and self.ship.ship_class.ruleset != self.campaign.ruleset:
            ruleset = self.ship.ship_class.ruleset
            errors["ship"] = f"{self.ship} is a {ruleset} ship; this campaign plays {self.campaign.ruleset}."
        elif self.ship_id is not None:
            other = campaign_ship_named(self.campaign_id, self.ship.name, exclude_ship_id=self.ship_id)
            if other is not None:
                errors["ship"] = ship_name_taken_message(other)
        if (
            self.commander_id is not None
            and self.side_id is not None
            and not Membership.objects.filter(
                campaign_id=self.campaign_id,
                user_id=self.commander_id,
                role=Role.PLAYER,
                side_id=self.side_id,
            ).exists()
        ):
            errors["commander"] = "The commander must be a player of her side."
        if errors:
            raise ValidationError(errors)


class RepairRecord(models.Model):
    """An umpire's edit of a campaign ship's sheet or status between battles, with the reason."""

    campaign_ship = models.ForeignKey(CampaignShip, on_delete=models.CASCADE, related_name="repairs")
    umpire = models.ForeignKey(USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reason = models.TextField()
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    battle = models.ForeignKey("Battle", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"edit by {self.umpire} at {self.at:%Y-%m-%d %H:%M}: {self.reason[:40]}"


class BattleStatus(models.TextChoices):
    SETUP = "setup", "Setting up"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"


class Battle(models.Model):
    """A battle of a campaign. ``state`` is the current rules BattleState as JSON (rules.to_json)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    name = models.CharField(max_length=120, validators=[validate_name])
    scenario_key = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=10, choices=BattleStatus.choices, default=BattleStatus.SETUP)
    state = models.JSONField(default=dict, blank=True)
    setup_events = models.JSONField(
        default=list,
        blank=True,
        help_text="Events of the rule set's set-up rolls (rules.to_json(Event) each).",
    )
    winner = models.CharField(max_length=40, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class BattleShip(models.Model):
    """A campaign ship in a battle. ``ship_key`` is the ship's id in the rules state; ``status`` follows the
    state after each resolution."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="ships")
    campaign_ship = models.ForeignKey(CampaignShip, on_delete=models.CASCADE, related_name="battle_ships")
    ship_key = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=ShipStatus.choices, default=ShipStatus.ACTIVE)

    class Meta:
        ordering = ["battle", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "ship_key"], name="battleship_unique_key"),
            models.UniqueConstraint(
                fields=["battle", "campaign_ship"], name="battleship_unique_campaign_ship"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ship_key} in {self.battle}"


class PhaseStatus(models.TextChoices):
    OPEN = "open", "Open for orders"
    RESOLVING = "resolving", "Resolving"
    RESOLVED = "resolved", "Resolved"
    FAILED = "failed", "Failed"


class PhaseErrorKind(models.TextChoices):
    """Why the last resolution of a phase did not complete (``Phase.error_kind``; empty when it did)."""

    TRANSIENT = "transient", "Transient (database, broker or worker); retried automatically"
    RULES = "rules", "The rules raised on this state and these orders; not retried automatically"
    GAVE_UP = "gave_up", "Transient failures went on past the automatic retries"


BATTLE_ENDED = "battle_ended"
"""``Phase.close_reason`` of the phase in play when the umpire ended the battle (superseded, not played)."""

BATTLE_ENDED_REOPENED = "battle_ended_reopened"
"""``Phase.close_reason`` of such a phase once the umpire reopened the battle (NW-CAMP-09): a phase with its
number opened again after it."""


class Phase(models.Model):
    """One phase of a turn (A1). ``seed`` is secret until the phase is resolved (A8), and from the players
    until the battle is over (NW-CAMP-03): render ``public_seed`` (``umpire_seed`` to the umpire), never
    ``seed``.

    Status: ``open`` (orders accepted until the deadline) -> ``resolving`` (closed: no more orders; a worker
    resolves it) -> ``resolved``; or ``failed`` with ``error`` kept. Rolled-back phases are ``superseded``
    and stay visible; at most one phase per (battle, number) is not superseded.

    A resolution that fails for a transient reason (database or broker error, worker lost) leaves the phase
    ``resolving`` with ``error`` and ``error_kind="transient"``; the sweep sends it again at ``retry_at``
    (backoff), at most ``services.AUTO_RETRY_LIMIT`` times (``auto_retries``), then marks it ``failed`` with
    ``error_kind="gave_up"``. A rules error marks it ``failed`` at once with ``error_kind="rules"``. Either
    way the umpires are told and may retry by hand.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveIntegerField(help_text="1, 2, 3 ... across the battle.")
    turn = models.PositiveIntegerField()
    phase_index = models.PositiveIntegerField(default=0)
    name = models.CharField(max_length=80, blank=True)
    sides = models.JSONField(default=list, help_text="Keys of the sides that give orders in this phase.")
    status = models.CharField(max_length=10, choices=PhaseStatus.choices, default=PhaseStatus.OPEN)
    superseded = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    seed = models.BigIntegerField()
    seed_hash = models.CharField(max_length=64)
    state_before = models.JSONField(default=dict)
    state_after = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    close_reason = models.CharField(max_length=40, blank=True)
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    enqueue_failed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When sending the resolve task failed (the broker was down); the sweep sends it again.",
    )
    error_kind = models.CharField(max_length=10, choices=PhaseErrorKind.choices, blank=True)
    auto_retries = models.PositiveIntegerField(
        default=0, help_text="Times the sweep sent the resolve task again since the phase was (re)closed."
    )
    retry_at = models.DateTimeField(
        null=True, blank=True, help_text="The sweep sends the resolve task again from this time (backoff)."
    )

    class Meta:
        ordering = ["battle", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "number"],
                condition=Q(superseded=False),
                name="phase_one_current_per_number",
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="phase_status_deadline")]

    def __str__(self) -> str:
        return f"{self.battle} phase {self.number}"

    @property
    def is_resolved(self) -> bool:
        return self.status == PhaseStatus.RESOLVED

    def orders_refused(self) -> tuple[str, str] | None:
        """Return why this phase takes no orders, as the services' error (code, message), or None while it
        is open. A phase the umpire ended the battle in is told as such, not as one rolled back."""
        if self.superseded:
            if self.close_reason in (BATTLE_ENDED, BATTLE_ENDED_REOPENED):
                return "phase_superseded", "The umpire ended the battle in this phase: it takes no orders."
            return "phase_superseded", "This phase was rolled back by the umpire."
        if self.status != PhaseStatus.OPEN:
            return "phase_closed", "This phase is closed: orders are no longer accepted."
        return None

    def closes_at(self, phase_sides: Any) -> Any:
        """Return when the sweep closes this phase (``services.phases_sweep``): the last deadline (its own,
        else the phase's) of its ``phase_sides`` (its ``PhaseSide`` rows) not ready, which an extension for
        one side puts after the phase's own; None while one of them has none; the phase's deadline when every
        side is ready."""
        waiting = [ps.effective_deadline(self) for ps in phase_sides if not ps.ready]
        if not waiting:
            return self.deadline
        return None if None in waiting else max(waiting)

    @property
    def public_seed(self) -> int | None:
        """Return the seed the players may see: once the phase is resolved and the battle is over, else None
        (A8 with NW-CAMP-03: with a phase's seed and the engine a player could roll its dice again, those A2
        hides from their side too)."""
        if self.status != PhaseStatus.RESOLVED or self.battle.status != BattleStatus.FINISHED:
            return None
        return self.seed

    @property
    def umpire_seed(self) -> int | None:
        """Return the seed once the phase is resolved, else None: the umpire sees every roll (A2, A8)."""
        return self.seed if self.status == PhaseStatus.RESOLVED else None


class PhaseSide(models.Model):
    """A side ordering in a phase: whether it is ready, and its own deadline when the umpire extended it."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="phase_sides")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="+")
    ready = models.BooleanField(default=False)
    ready_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="Overrides the phase deadline for this side."
    )

    class Meta:
        ordering = ["phase", "side"]
        constraints = [models.UniqueConstraint(fields=["phase", "side"], name="phaseside_unique")]

    def __str__(self) -> str:
        return f"{self.side} in {self.phase}"

    def effective_deadline(self, phase: Phase | None = None) -> Any:
        phase = phase or self.phase
        return self.deadline or phase.deadline

    def deadline_passed(self, phase: Phase | None = None, now: Any = None) -> bool:
        """Return True when this side's deadline (its own, else the phase's) is at or before ``now`` (default:
        the time now): its orders and readiness are final."""
        deadline = self.effective_deadline(phase)
        return deadline is not None and deadline <= (now or timezone.now())


class Order(models.Model):
    """The orders of one ship for one phase (the rules' ShipOrder payload in ``data``)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders")
    battle_ship = models.ForeignKey(BattleShip, on_delete=models.CASCADE, related_name="orders")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(default=dict)
    submitted_by = models.ForeignKey(
        USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["phase", "battle_ship"]
        constraints = [
            models.UniqueConstraint(fields=["phase", "battle_ship"], name="order_one_per_ship_and_phase")
        ]

    def __str__(self) -> str:
        return f"order of {self.battle_ship.ship_key} in {self.phase}"


class LogEvent(models.Model):
    """One event of a phase's log (append-only). ``data`` is the full rules Event (rules.to_json)."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    text = models.TextField()
    ship_key = models.CharField(max_length=64, blank=True)
    target_key = models.CharField(max_length=64, blank=True)
    visible_to = models.JSONField(null=True, blank=True)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["phase", "seq"]
        constraints = [models.UniqueConstraint(fields=["phase", "seq"], name="logevent_unique_seq")]

    def __str__(self) -> str:
        return f"{self.phase} #{self.seq} {self.kind}"

    def visible_for(self, side_key: str | None, sides: Sequence[str] = ()) -> bool:
        """Return True if ``side_key`` may see this event (None = the umpire; "" an observer, who sees what
        every side of ``sides``, the battle's, sees: NW-CAMP-13), as rules.base.event_visible."""
        vis = self.visible_to
        if side_key is None or vis is None:
            return True
        if side_key == "":
            return bool(sides) and all(k in vis for k in sides)
        return side_key in vis


class ShipEdit(models.Model):
    """An umpire's edit of a ship's state inside a battle, with the reason (the log gets an event too)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="ship_edits")
    battle_ship = models.ForeignKey(BattleShip, on_delete=models.CASCADE, related_name="edits")
    phase = models.ForeignKey(
        Phase,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ship_edits",
        help_text="The phase in play when the edit was made: its orders were checked, and it was resolved, "
        "against the edited ship. Its log page lists the edit.",
    )
    umpire = models.ForeignKey(USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reason = models.TextField()
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"edit by {self.umpire} at {self.at:%Y-%m-%d %H:%M}: {self.reason[:40]}"

    def changes(self) -> list[str]:
        """Return what the edit changed, one ``"speed: 2 -> 3"`` a field (a sheet entry as ``"sheet damage:
        ..."``), from ``before`` and ``after`` (the ship's JSON); empty for an edit that changed nothing."""
        out: list[str] = []
        before, after = self.before or {}, self.after or {}
        for key in sorted(set(before) | set(after)):
            old, new = before.get(key), after.get(key)
            if old == new:
                continue
            if key == "sheet" and isinstance(old, dict) and isinstance(new, dict):
                for entry in sorted(set(old) | set(new)):
                    if old.get(entry) != new.get(entry):
                        out.append(f"sheet {entry}: {_shown(old.get(entry))} -> {_shown(new.get(entry))}")
            else:
                out.append(f"{key}: {_shown(old)} -> {_shown(new)}")
        return out


def _shown(value: Any) -> str:
    """A JSON value for a line of :meth:`ShipEdit.changes`, at most 60 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


class UmpireActionKind(models.TextChoices):
    RESOLVE_NOW = "resolve_now", "Resolve now"
    EXTEND_DEADLINE = "extend_deadline", "Deadline moved"
    RETRY = "retry", "Retry"
    ROLLBACK = "rollback", "Roll back"
    END = "end", "End the battle"
    REOPEN = "reopen", "Reopen the battle"


class UmpireAction(models.Model):
    """An umpire's action on a battle (resolve now, a deadline moved, a retry, a roll back, the end, a
    reopen): who did it, when, and what it did, in words (docs/rulings.md NW-CAMP-11). Written by the service
    that acts, in its transaction; the battle's log page lists them. ``phase`` is the phase acted on (closed,
    moved, retried; for a roll back or a reopen, the phase opened by it; for the end, the phase in play then).
    ``side`` is the side whose deadline alone was moved (None: every side's, or not a deadline)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="umpire_actions")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    umpire = models.ForeignKey(USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=20, choices=UmpireActionKind.choices)
    text = models.TextField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.umpire} at {self.at:%Y-%m-%d %H:%M}"


class NotificationKind(models.TextChoices):
    PHASE_OPENED = "phase_opened", "Phase opened"
    PHASE_RESOLVED = "phase_resolved", "Phase resolved"
    REMINDER = "reminder", "Deadline reminder"
    PHASE_FAILED = "phase_failed", "Phase failed to resolve"


class Notification(models.Model):
    """An e-mail to a user about a phase: the unique constraint makes it once only per (user, phase, kind).

    ``sent_at`` is set once the mail server took it; a row with ``sent_at`` empty is sent again when the task
    retries after an SMTP or connection error (battles/notifications.py), a row with ``sent_at`` set never is.
    """

    user = models.ForeignKey(USER_MODEL, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="Sends tried (the task retries SMTP errors).")
    error = models.TextField(blank=True, help_text="The last send error; empty once sent.")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "phase", "kind"], name="notification_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} for {self.phase}"
