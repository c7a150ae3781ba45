"""Reads for the battles app, scoped by who asks (HackSoft selectors).

Every selector that serves a user takes the user and answers only what that user may see (A2): a battle of
a campaign they are not in, or another side's ship's orders, is ``Http404``. ``viewer.side_key`` is the key
passed to the rules' fog of war: ``None`` for an umpire (sees everything), the side key for a player, and
``""`` for an observer (sees only what every side sees).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

import rules
from battles.models import (
    BATTLE_ENDED,
    Battle,
    BattleShip,
    BattleStatus,
    Campaign,
    CampaignShip,
    LogEvent,
    Membership,
    Order,
    Phase,
    PhaseSide,
    PhaseStatus,
    RepairRecord,
    Role,
    ShipEdit,
    ShipStatus,
    Side,
    UmpireAction,
    UserProfile,
)
from navalwar.errors import Refusal
from rules.model import BattleState, ShipState

OBSERVER_SIDE = ""
# The largest id a database stores (a 64-bit signed integer); a larger number from a URL names nothing.
MAX_ID = 2**63 - 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Viewer:
    """Who is looking at a campaign: their membership, side and role."""

    membership: Membership

    @property
    def is_umpire(self) -> bool:
        return self.membership.role == Role.UMPIRE

    @property
    def is_player(self) -> bool:
        return self.membership.role == Role.PLAYER

    @property
    def side(self) -> Side | None:
        return self.membership.side if self.is_player else None

    @property
    def side_key(self) -> str | None:
        """The fog-of-war key: None for an umpire, the side key for a player, "" for an observer."""
        if self.is_umpire:
            return None
        side = self.side
        return side.key if side is not None else OBSERVER_SIDE


def viewer_get(*, user: Any, campaign_id: int) -> Viewer:
    """Return the user's view of a campaign; raise Http404 if they are not a member."""
    if not getattr(user, "is_authenticated", False) or not 0 < campaign_id <= MAX_ID:
        raise Http404("No such campaign.")
    membership = (
        Membership.objects.select_related("side", "campaign")
        .filter(campaign_id=campaign_id, user=user)
        .first()
    )
    if membership is None:
        raise Http404("No such campaign.")
    return Viewer(membership=membership)


def profile_for(*, user: Any) -> UserProfile:
    """Return the user's profile, or an unsaved one with the defaults (UTC, e-mail on) if they have none:
    reading a page never writes (``services.profile_update`` creates the row)."""
    return UserProfile.objects.filter(user=user).first() or UserProfile(user=user)


def campaign_list_for_user(*, user: Any) -> QuerySet[Campaign]:
    """Return the campaigns the user is a member of."""
    return Campaign.objects.filter(memberships__user=user).distinct().order_by("-created_at", "pk")


def membership_in(*, campaign: Campaign, user: Any) -> Membership | None:
    """Return ``user``'s membership of ``campaign`` (with its side), or None (and for a visitor)."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(campaign=campaign, user=user).select_related("side").first()


def memberships_for_user(*, user: Any) -> list[Membership]:
    return list(
        Membership.objects.filter(user=user)
        .select_related("campaign", "side")
        .order_by("-campaign__created_at")
    )


UMPIRE_ONLY = "Only an umpire of this campaign may do that."
"""The refusal of an umpire-only page or form to a member of the campaign who is not its umpire."""


def require_umpire(viewer: Viewer) -> None:
    """Refuse a campaign member who is not its umpire: a ``Refusal`` (403, its message shown on the page).

    The access policy of every umpire-only page and form, GET and POST alike: someone who may not see the
    campaign gets 404 (``viewer_get``), a member who is not its umpire 403 with :data:`UMPIRE_ONLY`. Call it
    before anything is looked up or read from the request, so the answer is the same for every object.
    """
    if not viewer.is_umpire:
        raise Refusal(UMPIRE_ONLY)


def campaign_get(*, user: Any, campaign_id: int) -> tuple[Campaign, Viewer]:
    """Return a campaign the user belongs to, with their viewer; Http404 otherwise."""
    viewer = viewer_get(user=user, campaign_id=campaign_id)
    return viewer.membership.campaign, viewer


NO_SUCH_BATTLE = "No such battle."


def battle_get(*, user: Any, battle_id: int) -> tuple[Battle, Viewer]:
    """Return a battle of a campaign the user belongs to, with their viewer; Http404 otherwise, the same one
    for a battle of another campaign as for an id that is no battle (so a stranger cannot tell which ids
    exist)."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        raise Http404(NO_SUCH_BATTLE)
    try:
        viewer = viewer_get(user=user, campaign_id=battle.campaign_id)
    except Http404:
        raise Http404(NO_SUCH_BATTLE) from None
    return battle, viewer


def phase_current(*, battle: Battle) -> Phase | None:
    """Return the battle's latest phase that was not rolled back (open, resolving, failed or resolved)."""
    return Phase.objects.filter(battle=battle, superseded=False).order_by("-number").first()


def phase_resolution_delayed(*, phase: Phase | None, now: datetime | None = None) -> bool:
    """Return True when a closed phase is waiting for its resolution longer than it should: its resolve task
    could not be sent (the broker was down), a transient failure is waiting for its automatic retry
    (``error_kind="transient"``), or it has been ``resolving`` for more than
    ``services.RESOLVE_DELAYED_SECONDS``. The sweep sends it again; nothing the players sent is lost."""
    from battles.services import RESOLVE_DELAYED_SECONDS

    if phase is None or phase.status != PhaseStatus.RESOLVING or phase.superseded:
        return False
    if phase.enqueue_failed_at is not None or phase.error_kind == "transient":
        return True
    now = now or timezone.now()
    return phase.closed_at is not None and now - phase.closed_at > timedelta(seconds=RESOLVE_DELAYED_SECONDS)


def phase_open_for(*, battle: Battle) -> Phase | None:
    """Return the battle's phase open for orders, if any."""
    return (
        Phase.objects.filter(battle=battle, superseded=False, status=PhaseStatus.OPEN)
        .order_by("-number")
        .first()
    )


def phase_ended_by_umpire(*, battle: Battle) -> Phase | None:
    """Return the phase the umpire's "End the battle" left unplayed, when that end is the battle's end now:
    the battle is finished and its latest phase (by creation) is one ``services.battle_end`` superseded
    (``close_reason="battle_ended"``). None for a battle not over, one the rules finished (its latest phase
    is the resolved one that finished it), one ended in set-up (no phase), or one reopened and finished since
    (NW-CAMP-09)."""
    if battle.status != BattleStatus.FINISHED:
        return None
    latest = Phase.objects.filter(battle=battle).defer("state_after").order_by("-pk").first()
    if latest is None or not latest.superseded or latest.close_reason != BATTLE_ENDED:
        return None
    return latest


def phases_for_log(*, battle: Battle) -> list[Phase]:
    """Return every phase of the battle, superseded ones too (they stay visible), oldest first."""
    return list(Phase.objects.filter(battle=battle).order_by("number", "pk"))


def phase_sides(*, phase: Phase) -> list[PhaseSide]:
    """Return who gives orders in a phase and who is ready (public information)."""
    return list(PhaseSide.objects.filter(phase=phase).select_related("side").order_by("side__pk"))


def state_for(
    *, battle: Battle, viewer: Viewer, data: dict[str, Any] | None = None, parsed: BattleState | None = None
) -> BattleState:
    """Return the battle state (or ``data``, a state as JSON; or ``parsed``, the battle's state read already)
    as the viewer may see it (A2)."""
    if parsed is not None:
        state = parsed
    else:
        state = rules.from_json(BattleState, data if data is not None else battle.state)
    return rules.get_ruleset(state.ruleset).view_for(state, viewer.side_key)


def battle_ships_for(*, battle: Battle) -> list[BattleShip]:
    """Return the battle's ships with their campaign ship, ship, class and side (one query)."""
    return list(
        BattleShip.objects.filter(battle=battle)
        .select_related("campaign_ship__side", "campaign_ship__ship__ship_class", "campaign_ship__commander")
        .order_by("pk")
    )


def ship_get(*, battle: Battle, viewer: Viewer, ship_key: str) -> tuple[BattleShip, ShipState, bool]:
    """Return a ship of the battle as the viewer may see it: the row, its state (full for its own side or
    the umpire, ``public_sheet`` for others, A2) and whether the viewer sees it in full.

    Http404 when there is no such ship or the viewer cannot see it (out of sight, A2).
    """
    bship = (
        BattleShip.objects.select_related(
            "campaign_ship__side", "campaign_ship__ship__ship_class", "campaign_ship__commander"
        )
        .filter(battle=battle, ship_key=ship_key)
        .first()
    )
    if bship is None:
        raise Http404("No such ship.")
    state = state_for(battle=battle, viewer=viewer)
    ship = state.ship_map().get(ship_key)
    if ship is None:
        raise Http404("No such ship.")
    full = viewer.is_umpire or (viewer.side is not None and viewer.side.key == ship.side)
    return bship, ship, full


def orders_for_viewer(*, phase: Phase, viewer: Viewer) -> list[Order]:
    """Return the orders of a phase the viewer may read.

    Before the phase is resolved a player reads only their own side's orders and an observer none; the
    umpire reads all. After resolution (A2: "orders are secret until the phase resolves") a player reads
    their own side's and those of the ships their side could see when the phase began or once it was
    resolved (the rules' ``view_for`` of ``state_before`` and ``state_after``), and an observer those of the
    ships every side could see: the orders of a ship hidden all phase long (at night, out of visibility)
    stay secret, as the ship does.
    """
    qs = (
        Order.objects.filter(phase=phase).select_related("battle_ship", "side", "submitted_by").order_by("pk")
    )
    if viewer.is_umpire:
        return list(qs)
    if phase.status == PhaseStatus.RESOLVED:
        side_key = viewer.side_key
        seen: set[str] = set()
        for doc in (phase.state_before, phase.state_after):
            if doc:
                state = rules.from_json(BattleState, doc)
                seen.update(s.id for s in rules.get_ruleset(state.ruleset).view_for(state, side_key).ships)
        return [
            o
            for o in qs
            if (viewer.side is not None and o.side_id == viewer.side.pk) or o.battle_ship.ship_key in seen
        ]
    if viewer.side is None:
        return []
    return list(qs.filter(side=viewer.side))


def order_get(*, phase: Phase, viewer: Viewer, ship_key: str) -> Order | None:
    """Return the saved order of one ship if the viewer may read it (else None)."""
    return next(
        (o for o in orders_for_viewer(phase=phase, viewer=viewer) if o.battle_ship.ship_key == ship_key), None
    )


def log_events_for(*, phase: Phase, viewer: Viewer) -> list[LogEvent]:
    """Return a phase's log events the viewer may see (rules.base.event_visible; the umpire sees all).

    Nothing before the phase is resolved.
    """
    if phase.status != PhaseStatus.RESOLVED:
        return []
    qs = LogEvent.objects.filter(phase=phase).order_by("seq")
    if viewer.side_key is None:
        return list(qs)
    key = viewer.side_key
    events = list(qs)
    sides = battle_side_keys(battle=phase.battle) if key == OBSERVER_SIDE else ()
    return [e for e in events if e.visible_for(key, sides)]


def log_events_for_ship(*, battle: Battle, viewer: Viewer, ship_key: str) -> list[LogEvent]:
    """Return the events of the battle's resolved, current phases about one ship (as actor or target) that
    the viewer may see, oldest first (one query)."""
    rows = list(
        LogEvent.objects.filter(
            phase__battle=battle, phase__superseded=False, phase__status=PhaseStatus.RESOLVED
        )
        .filter(Q(ship_key=ship_key) | Q(target_key=ship_key))
        .select_related("phase")
        .order_by("phase__number", "seq")
    )
    sides = battle_side_keys(battle=battle) if viewer.side_key == OBSERVER_SIDE else ()
    return [e for e in rows if e.visible_for(viewer.side_key, sides)]


def battle_side_keys(*, battle: Battle) -> tuple[str, ...]:
    """Return the keys of the battle's sides, from its state (an observer sees what all of them see)."""
    sides = (battle.state or {}).get("sides") if isinstance(battle.state, dict) else None
    if not isinstance(sides, list):
        return ()
    return tuple(str(s["key"]) for s in sides if isinstance(s, dict) and isinstance(s.get("key"), str))


def ship_edits_for(*, battle: Battle, viewer: Viewer, phase: Phase | None = None) -> list[ShipEdit]:
    """Return the umpire's ship edits in a battle, newest first: all for umpires, own-side ships for players;
    with ``phase``, only the edits made while that phase was in play (``ShipEdit.phase``)."""
    qs = ShipEdit.objects.filter(battle=battle).select_related(
        "battle_ship__campaign_ship__side", "umpire", "phase"
    )
    if phase is not None:
        qs = qs.filter(phase=phase)
    if viewer.is_umpire:
        return list(qs)
    if viewer.side is None:
        return []
    return list(qs.filter(battle_ship__campaign_ship__side=viewer.side))


def ship_edits_undone(edits: list[ShipEdit]) -> set[int]:
    """Return the pks of the edits a roll back undid (NW-CAMP-27): made while a phase was in play that a roll
    back to an earlier phase superseded. A roll back to the edit's own phase keeps it (that phase opens again
    from its state before, which the edit changed): the phase re-opened in its place starts as it did."""
    superseded = [e for e in edits if e.phase is not None and e.phase.superseded]
    if not superseded:
        return set()
    later = {
        (p.number, p.pk): p.state_before
        for p in Phase.objects.filter(
            battle_id=superseded[0].battle_id, number__in={e.phase.number for e in superseded if e.phase}
        ).only("number", "pk", "state_before")
    }
    undone = set()
    for e in superseded:
        assert e.phase is not None
        kept = any(
            number == e.phase.number and pk > e.phase.pk and state == e.phase.state_before
            for (number, pk), state in later.items()
        )
        if not kept:
            undone.add(e.pk)
    return undone


def umpire_actions_for(*, battle: Battle, viewer: Viewer) -> list[UmpireAction]:
    """Return the umpires' actions on a battle, newest first, for every member of the campaign
    (docs/rulings.md NW-CAMP-11): a deadline moved for one side too, as each side's deadline is on the battle
    page's ready list for all to read."""
    return list(UmpireAction.objects.filter(battle=battle).select_related("umpire", "phase", "side"))


FATES = tuple(s.value for s in ShipStatus if s != ShipStatus.ACTIVE)
"""The statuses of a ship that left the battle (the kinds and outcomes of the events that tell of it)."""


def fates_known(*, battle: Battle, viewer: Viewer) -> set[str] | None:
    """Return the ship keys of the battle's ships whose loss or withdrawal the viewer may know of, or None for
    every ship (NW-CAMP-12): the umpire, and everyone once the battle is over; while it is on, a player knows
    of their own side's ships and of those whose fate an event of the log shows their side (the rules write
    it for the sides that saw it, A2) or that their side has in sight now, an observer of those every side
    knows of."""
    if viewer.is_umpire or battle.status == BattleStatus.FINISHED:
        return None
    key = viewer.side_key
    rows = LogEvent.objects.filter(
        phase__battle=battle, phase__superseded=False, phase__status=PhaseStatus.RESOLVED
    ).filter(Q(kind__in=FATES) | Q(data__outcome__in=FATES))
    sides = battle_side_keys(battle=battle) if key == OBSERVER_SIDE else ()
    # a ship in sight now shows her state (struck, sinking) on the map and in the ship table (A2)
    known = {s.id for s in state_for(battle=battle, viewer=viewer).ships}
    for e in rows.only("kind", "ship_key", "target_key", "visible_to"):
        if e.visible_for(key, sides):
            known.update(k for k in (e.ship_key, e.target_key) if k)
    return known


def sinkings_for_battle(*, battle: Battle, viewer: Viewer) -> list[BattleShip]:
    """Return the battle's ships that were sunk, struck, withdrawn or captured, as far as the viewer may know
    (:func:`fates_known`, NW-CAMP-12)."""
    lost = [b for b in battle_ships_for(battle=battle) if b.status != ShipStatus.ACTIVE]
    known = fates_known(battle=battle, viewer=viewer)
    if known is None:
        return lost
    own = viewer.side.pk if viewer.side is not None else None
    return [b for b in lost if b.campaign_ship.side_id == own or b.ship_key in known]


def sinkings_for_campaign(*, campaign: Campaign, viewer: Viewer) -> list[CampaignShip]:
    """Return the campaign's ships lost or withdrawn, with the battle where it happened: of a battle still on,
    only those the viewer may know of (NW-CAMP-12)."""
    return campaign_losses(campaign=campaign, viewer=viewer)[0]


def campaign_losses(*, campaign: Campaign, viewer: Viewer) -> tuple[list[CampaignShip], set[int]]:
    """Return the campaign's ships lost or withdrawn that the viewer may know of
    (:func:`sinkings_for_campaign`) and the ids of those whose loss in a battle still on they may not know of
    (NW-CAMP-12: the fleet lists show no status for them), worked out together: the campaign page shows
    both."""
    rows = list(
        CampaignShip.objects.filter(campaign=campaign)
        .exclude(status=ShipStatus.ACTIVE)
        .select_related("ship__ship_class", "side", "status_battle")
        .order_by("status_changed_at", "pk")
    )
    hidden = _fates_hidden(rows, viewer)
    return [c for c in rows if c.pk not in hidden], hidden


@dataclass(frozen=True, kw_only=True)
class ReturnedToService:
    """A campaign ship the umpire brought back after a loss (a repair from sunk, struck or captured to
    active): the ship, what she was, the battle she was lost in (None when the record has none) and when she
    came back (docs/rulings.md NW-CAMP-36)."""

    campaign_ship: CampaignShip
    fate: str
    battle: Battle | None
    at: datetime


LOSS_FATES = (ShipStatus.SUNK, ShipStatus.STRUCK, ShipStatus.CAPTURED)


def returned_to_service(*, campaign: Campaign) -> list[ReturnedToService]:
    """Return the campaign's ships brought back into service after a loss, by the repairs that did it,
    oldest first: the roll of losses keeps them (NW-CAMP-36), since the losses table lists ships by their
    status now. A battle reopened (NW-CAMP-09) undoes its losses without a repair: they were never losses."""
    records = (
        RepairRecord.objects.filter(
            campaign_ship__campaign=campaign,
            before__status__in=[str(f) for f in LOSS_FATES],
            after__status=ShipStatus.ACTIVE,
        )
        .select_related("campaign_ship__ship__ship_class", "campaign_ship__side", "battle")
        .order_by("at", "pk")
    )
    labels = dict(ShipStatus.choices)
    return [
        ReturnedToService(
            campaign_ship=r.campaign_ship,
            fate=str(labels.get(r.before["status"], r.before["status"])),
            battle=r.battle,
            at=r.at,
        )
        for r in records
    ]


def _fates_hidden(rows: list[CampaignShip], viewer: Viewer) -> set[int]:
    own = viewer.side.pk if viewer.side is not None else None
    live = {
        c.status_battle_id: c.status_battle
        for c in rows
        if c.status_battle is not None
        and c.status_battle.status != BattleStatus.FINISHED
        and c.side_id != own
    }
    if viewer.is_umpire or not live:
        return set()
    known = {pk: fates_known(battle=b, viewer=viewer) for pk, b in live.items() if b is not None}
    keys = {
        (b.battle_id, b.campaign_ship_id): b.ship_key
        for b in BattleShip.objects.filter(battle_id__in=list(live), campaign_ship__in=rows).only(
            "battle_id", "campaign_ship_id", "ship_key"
        )
    }
    hidden: set[int] = set()
    for c in rows:
        if c.side_id == own or c.status_battle_id not in known:
            continue
        k = known[c.status_battle_id]
        if k is not None and keys.get((c.status_battle_id, c.pk)) not in k:
            hidden.add(c.pk)
    return hidden


def phases_waiting_for_user(*, user: Any) -> list[Phase]:
    """Return the open phases in which the user's side gives orders, is not yet ready and is not past its
    deadline, soonest deadline first. Each phase's ``my_deadline`` is the user's side's own
    (``PhaseSide.effective_deadline``: the umpire may have given one side more time), as the battle page
    shows it."""
    memberships = Membership.objects.filter(user=user, role=Role.PLAYER).values("side_id")
    own = PhaseSide.objects.filter(phase=OuterRef("pk"), side_id__in=memberships).order_by("pk")
    phases = list(
        Phase.objects.filter(
            status=PhaseStatus.OPEN,
            superseded=False,
            battle__status=BattleStatus.ACTIVE,
            phase_sides__side_id__in=memberships,
            phase_sides__ready=False,
        )
        .annotate(side_deadline=Subquery(own.values("deadline")[:1]))
        .select_related("battle__campaign")
        .distinct()
        .order_by("deadline", "pk")
    )
    for phase in phases:
        phase.my_deadline = phase.side_deadline or phase.deadline  # type: ignore[attr-defined]
    # a phase past the side's own deadline takes no more of its orders (services._ordering_side): not waiting
    now = timezone.now()
    phases = [p for p in phases if p.my_deadline is None or p.my_deadline > now]  # type: ignore[attr-defined]
    never = datetime.max.replace(tzinfo=UTC)
    return sorted(phases, key=lambda p: (p.my_deadline or never, p.pk))  # type: ignore[attr-defined]


def phases_umpired_by_user(*, user: Any) -> list[Phase]:
    """Return the phase in play of each active battle the user umpires (open, resolving or failed), the
    failed ones first, then by battle. Each phase has ``sides_ready`` and ``sides_total`` (its ordering
    sides ready, and all of them) and ``closing`` (:meth:`Phase.closes_at`), as the battle page shows the
    umpire. Three queries."""
    campaigns = Membership.objects.filter(user=user, role=Role.UMPIRE).values("campaign_id")
    phases = list(
        Phase.objects.filter(
            battle__campaign_id__in=campaigns, battle__status=BattleStatus.ACTIVE, superseded=False
        )
        .exclude(status=PhaseStatus.RESOLVED)
        .select_related("battle__campaign")
        .prefetch_related("phase_sides")
        .order_by("battle__campaign__name", "battle__name", "battle_id", "number")
    )
    for phase in phases:
        sides = list(phase.phase_sides.all())
        phase.sides_ready = sum(1 for ps in sides if ps.ready)  # type: ignore[attr-defined]
        phase.sides_total = len(sides)  # type: ignore[attr-defined]
        phase.closing = phase.closes_at(sides)  # type: ignore[attr-defined]
    return sorted(phases, key=lambda p: p.status != PhaseStatus.FAILED)  # (stable: the order above kept)


BATTLES_ON_DASHBOARD = 20
"""How many battles the dashboard's "Your battles" lists (the newest; the campaign pages list them all)."""


def battles_for_user(*, user: Any, limit: int = BATTLES_ON_DASHBOARD) -> list[Battle]:
    """Return the battles of the user's campaigns that are theirs: for a player, those their side fights in;
    for an umpire or observer, every one. Active battles first, then those in set-up, then those over (the
    latest ended first), the newest ``limit``; each has ``my_side`` (the player's side name, or "") and
    ``winner_name``. Three queries. A fresh-user check found a player's dashboard listing no battle once
    their side was ready, nor any finished one."""
    memberships = list(Membership.objects.filter(user=user).select_related("side"))
    if not memberships:
        return []
    mine = Q()
    side_of: dict[int, str] = {}
    for m in memberships:
        if m.role == Role.PLAYER and m.side_id is not None:
            mine |= Q(campaign_id=m.campaign_id, ships__campaign_ship__side_id=m.side_id)
            side_of.setdefault(m.campaign_id, m.side.name)
        else:
            mine |= Q(campaign_id=m.campaign_id)
    rank = {BattleStatus.ACTIVE: 0, BattleStatus.SETUP: 1, BattleStatus.FINISHED: 2}
    battles = list(Battle.objects.filter(mine).select_related("campaign").distinct())
    battles.sort(
        key=lambda b: (
            rank.get(b.status, 3),
            -(b.finished_at or b.created_at).timestamp(),
            -b.pk,
        )
    )
    battles = battles[:limit]
    names = {
        (side.campaign_id, side.key): side.name
        for side in Side.objects.filter(campaign_id__in={b.campaign_id for b in battles})
    }
    for b in battles:
        b.my_side = side_of.get(b.campaign_id, "")  # type: ignore[attr-defined]
        b.winner_name = names.get((b.campaign_id, b.winner), b.winner)  # type: ignore[attr-defined]
    return battles


def battles_for_campaign(*, campaign: Campaign) -> list[Battle]:
    return list(Battle.objects.filter(campaign=campaign).order_by("-created_at", "-pk"))


def fleets_for_campaign(*, campaign: Campaign) -> list[Side]:
    """Return the campaign's sides with their ships (two queries)."""
    ships = CampaignShip.objects.select_related("ship__ship_class", "commander").order_by("pk")
    return list(
        Side.objects.filter(campaign=campaign)
        .prefetch_related(Prefetch("ships", queryset=ships))
        .order_by("pk")
    )


def order_ship_get(*, phase: Phase, viewer: Viewer, ship_key: str) -> BattleShip:
    """Return the battle ship ``ship_key`` if the viewer may give it orders (as ``services.orders_submit``
    decides): an umpire any ship, a player a ship of their side that they command or that has no commander.

    Http404 for anything else (another side's ship, a ship of the side under another player's command, an
    observer, an unknown key), so a player cannot tell another side's ship from no ship at all.
    """
    bship = (
        BattleShip.objects.select_related(
            "campaign_ship__side", "campaign_ship__ship", "campaign_ship__commander"
        )
        .filter(battle_id=phase.battle_id, ship_key=ship_key)
        .first()
    )
    if bship is None:
        raise Http404("No such ship.")
    if viewer.is_umpire:
        return bship
    cship = bship.campaign_ship
    if (
        viewer.side is None
        or cship.side_id != viewer.side.pk
        or cship.commander_id not in (None, viewer.membership.user_id)
    ):
        raise Http404("No such ship.")
    return bship


def order_ships_for(
    *, battle: Battle, viewer: Viewer, battle_ships: list[BattleShip] | None = None
) -> dict[str, BattleShip]:
    """Return the battle ships the viewer may give orders to, by ship key (see :func:`order_ship_get`);
    ``battle_ships`` when the caller has read them already (:func:`battle_ships_for`)."""
    if not viewer.is_umpire and viewer.side is None:
        return {}
    ships = battle_ships if battle_ships is not None else battle_ships_for(battle=battle)
    if viewer.is_umpire:
        return {b.ship_key: b for b in ships}
    user_id = viewer.membership.user_id
    return {
        b.ship_key: b
        for b in ships
        if b.campaign_ship.side_id == viewer.side.pk  # type: ignore[union-attr]
        and b.campaign_ship.commander_id in (None, user_id)
    }


def order_previous(*, phase: Phase, battle_ship: BattleShip) -> Order | None:
    """Return the ship's order in the latest resolved phase of the battle before ``phase`` (not rolled
    back), or None. Only the ship's own side calls this (its orders are its own)."""
    return (
        Order.objects.filter(
            battle_ship=battle_ship,
            phase__battle_id=phase.battle_id,
            phase__superseded=False,
            phase__status=PhaseStatus.RESOLVED,
            phase__number__lt=phase.number,
        )
        .select_related("phase")
        .order_by("-phase__number")
        .first()
    )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value in (None, ""):
        return "none"
    return f"{value:g}" if isinstance(value, float) else str(value)


def settings_change_summary(*, campaign: Campaign, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Return what a change of a campaign's settings will and will not change (NW-CAMP-01), one sentence a
    line, for the umpire's warning; [] when no setting changes or the campaign has no battle yet.

    Options (the rule set's and A7's default orders) apply to battles created from now on; battles already
    created keep the options they began with; a ship's sheet carries its damage, and the values the rule set
    works out from a changed option (``RuleSet.option_sheet_keys``) are worked out again at its next battle.
    The deadline and reminder hours apply to every phase opened from now on, in running battles too.
    """
    rs = rules.get_ruleset(campaign.ruleset)
    specs = [("default_orders", "Default orders (A7)", "fire_nearest")]
    specs += [(spec.name, spec.label, spec.default) for spec in rs.options]
    changed = [
        (name, label, old.get(name, default), new.get(name, default))
        for name, label, default in specs
        if old.get(name, default) != new.get(name, default)
    ]
    hours = [
        (label, old.get(name, default), new.get(name, default))
        for name, label, default in (("deadline_hours", "Deadline", 48), ("reminder_hours", "Reminder", 12))
        if old.get(name, default) != new.get(name, default)
    ]
    battles = list(campaign.battles.exclude(status=BattleStatus.FINISHED).order_by("pk"))
    if not (changed or hours) or not campaign.battles.exists():
        return []
    lines = []
    if changed:
        lines.append(
            "Changed: "
            + "; ".join(f"{label}: {_shown(a)} -> {_shown(b)}" for _name, label, a, b in changed)
            + ". Battles created from now on use the new options."
        )
        if battles:
            names = ", ".join(b.name for b in battles)
            lines.append(
                f"Not changed: the {len(battles)} battle{'s' if len(battles) != 1 else ''} already created "
                f"({names}) {'keep' if len(battles) != 1 else 'keeps'} the options "
                f"{'they' if len(battles) != 1 else 'it'} began with."
            )
        derived = sorted({key for name, *_ in changed for key in rs.option_sheet_keys.get(name, ())})
        if derived:
            ships = [
                cs.ship.name
                for cs in campaign.ships.select_related("ship")
                .filter(status__in=[ShipStatus.ACTIVE, ShipStatus.WITHDRAWN])
                .order_by("pk")
                if any(key in (cs.sheet or {}) for key in derived)
            ]
            lines.append(
                f"Worked out again from the class at each ship's next battle: {', '.join(derived)}"
                + (f" ({', '.join(ships)})" if ships else "")
                + "; damage is carried as it is (NW-CAMP-17: not the last battle's momentary state)."
            )
        else:
            lines.append(
                "Ships' sheets do not change: their damage is carried (NW-CAMP-17: not the last battle's "
                "momentary state)."
            )
    if hours:
        lines.append(
            "Changed: "
            + "; ".join(f"{label}: {_shown(a)} -> {_shown(b)} hours" for label, a, b in hours)
            + ". Phases opened from now on use them, in running battles too."
        )
    return lines


def ships_in_live_battles(*, campaign: Campaign) -> dict[int, Battle]:
    """Return the campaign's ships now in a battle in set-up or active, as campaign-ship id -> battle: the
    new-battle page shows them as busy (NW-CAMP-02, one battle at a time)."""
    live = (BattleStatus.SETUP, BattleStatus.ACTIVE)
    rows = BattleShip.objects.filter(battle__campaign=campaign, battle__status__in=live).select_related(
        "battle"
    )
    return {bs.campaign_ship_id: bs.battle for bs in rows}
