"""A small world for the security tests: two campaigns, six kinds of visitor, and a concrete URL for every
named URL pattern of the site.

Campaign A (ultra_simple, the Bismarck scenario): an umpire, a player of Britain and a player of Germany; an
active battle whose phase 1 is resolved and phase 2 open, with a British order in each (so "repeat",
"withdraw" and the log have something), a second battle still in set-up (the map editor and its Start)
with a sister ship (Prince of Wales, under the key "kgv") and a German one (Tirpitz: a battle needs two
sides, NW-CAMP-23), a third King George V class ship and a second German one in no battle (Duke of York and
Gneisenau, for the battle form: NW-CAMP-02, a ship fights one battle at a time), an unused invitation to
Germany.
Campaign B (the same scenario) has its own umpire. The admin is a superuser who is in neither campaign.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

ROLES = ("anonymous", "player", "other_player", "umpire", "other_umpire", "admin")
SHIP = "kgv"  # a British ship of campaign A's active battle (the player's side)


@dataclass(frozen=True, slots=True, kw_only=True)
class World:
    users: dict[str, Any]  # role -> user (None for anonymous)
    campaign: Any
    battle: Any
    setup_battle: Any
    other_campaign: Any
    invitation: Any
    campaign_ship: Any
    ship_class: Any

    def kwargs_for(self, name: str) -> dict[str, Any]:
        """Return the URL arguments of the pattern ``name`` in this world (campaign A, Britain's ship)."""
        kwargs: dict[str, Any] = {
            "campaign_id": self.campaign.pk,
            "battle_id": self.battle.pk,
            "ship_key": SHIP,
            "ship_id": self.campaign_ship.pk,
            "token": self.invitation.token,
            "invitation_id": self.invitation.pk,
            "ruleset": self.ship_class.ruleset,
            "key": self.ship_class.key if name == "fleets:class_detail" else self.campaign.ruleset,
            # a real user's id with a token that is not valid: Django's "invalid link" page
            "uidb64": urlsafe_base64_encode(force_bytes(self.users["player"].pk)),
            "token_reset": "bad-token",
        }
        if name in ("battles:battle_setup_map", "battles:battle_start"):
            kwargs["battle_id"] = self.setup_battle.pk
        if name == "password_reset_confirm":
            kwargs["token"] = kwargs["token_reset"]
        return kwargs

    def url(self, name: str, route_params: list[str]) -> str:
        kwargs = self.kwargs_for(name)
        return reverse(name, kwargs={p: kwargs[p] for p in route_params})


def build_world() -> World:
    """Create the world (see the module docstring); tasks run eagerly (the resolution of phase 1)."""
    from django.test import TestCase

    from battles import services
    from battles.models import CampaignShip
    from fleets.models import Ship
    from rules.model import Hex
    from tests.factories import UserFactory, scenario_campaign

    game = scenario_campaign()
    other = scenario_campaign()
    admin = UserFactory(username="club_admin", is_staff=True, is_superuser=True)
    britain, germany = game.players["britain"], game.players["germany"]
    services.orders_submit(phase=game.phase, user=britain, ship_key=SHIP, data={"hexes": 1})
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.phase_close(phase=game.phase, user=game.umpire)
    assert game.phase.number == 2 and game.phase.status == "open"
    services.orders_submit(phase=game.phase, user=britain, ship_key=SHIP, data={"hexes": 1})
    # NW-CAMP-02: a ship fights one battle at a time, so the set-up battle takes a sister ship (under the key
    # "kgv", so the map editor's post names the same ship key) and a third is left free for the battle form
    kgv_class = game.battle.ships.get(ship_key=SHIP).campaign_ship.ship.ship_class
    sisters = [
        services.campaign_ship_add(
            campaign=game.campaign,
            side=game.side("britain"),
            ship=Ship.objects.create(name=name, ship_class=kgv_class),
        )
        for name in ("Prince of Wales", "Duke of York")
    ]
    german_class = game.battle.ships.get(campaign_ship__side__key="germany").campaign_ship.ship.ship_class
    germans = [  # the scenario's one German class
        services.campaign_ship_add(
            campaign=game.campaign,
            side=game.side("germany"),
            ship=Ship.objects.create(name=name, ship_class=german_class),
        )
        for name in ("Tirpitz", "Gneisenau")
    ]
    setup = services.battle_create(
        campaign=game.campaign,
        user=game.umpire,
        name="Set-up",
        placements=[
            services.Placement(campaign_ship=sisters[0], position=Hex(q=2, r=2), ship_key=SHIP),
            services.Placement(campaign_ship=germans[0], position=Hex(q=8, r=2)),
        ],
        start=False,
    )
    invitation = services.invitation_create(
        campaign=game.campaign, created_by=game.umpire, side=game.side("germany")
    )
    cship = CampaignShip.objects.select_related("ship__ship_class").get(
        campaign=game.campaign, battle_ships__battle=game.battle, battle_ships__ship_key=SHIP
    )
    return World(
        users={
            "anonymous": None,
            "player": britain,
            "other_player": germany,
            "umpire": game.umpire,
            "other_umpire": other.umpire,
            "admin": admin,
        },
        campaign=game.campaign,
        battle=game.battle,
        setup_battle=setup,
        other_campaign=other.campaign,
        invitation=invitation,
        campaign_ship=cship,
        ship_class=cship.ship.ship_class,
    )


def url_patterns() -> list[tuple[str, str, list[str]]]:
    """Return every named URL pattern of the site as (name with namespace, route, route parameters)."""
    return [(name, route, params) for name, route, params, _callback in _walk()]


def url_callbacks() -> list[tuple[str, Any]]:
    """Return every URL pattern's name and view function (the admin's too)."""
    return [(name, callback) for name, _route, _params, callback in _walk()]


def _walk() -> list[tuple[str, str, list[str], Any]]:
    from django.urls import URLPattern, URLResolver, get_resolver

    out: list[tuple[str, str, list[str], Any]] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                ns = namespace
                if pattern.namespace:
                    ns = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
                walk(pattern, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern):
                name = pattern.name or f"<unnamed {prefix}{pattern.pattern}>"
                full = f"{namespace}:{name}" if namespace else name
                out.append(
                    (full, prefix + str(pattern.pattern), list(pattern.pattern.converters), pattern.callback)
                )

    walk(get_resolver(), "", "")
    return out
