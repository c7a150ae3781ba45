"""NW-CAMP-02: a campaign ship fights one battle at a time. Creating a battle (from a scenario or from the
campaign's ships) that takes a ship already in a battle of the campaign in set-up or active is refused with
``ship_in_battle``, naming the ships and their battle; nothing is saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleShip, CampaignShip, Phase
from fleets.models import Ship
from navalwar.errors import ApplicationError
from rules.model import Hex
from tests.factories import scenario_campaign

pytestmark = pytest.mark.django_db

SCENARIO = "bismarck_last_battle_1941"
ALL_THREE = (
    'King George V, Rodney, Bismarck are already in the battle "Bismarck\'s last battle, 27 May 1941" '
    "({status}). A ship fights one battle at a time: end that battle first or leave those ships out."
)


@pytest.fixture
def game() -> Any:
    return scenario_campaign()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _counts() -> tuple[int, int, int, int]:
    return (Battle.objects.count(), BattleShip.objects.count(), Phase.objects.count(), Ship.objects.count())


def _placement(cs: CampaignShip, col: int) -> services.Placement:
    return services.Placement(campaign_ship=cs, position=Hex(q=col, r=2), heading=0, speed=0)


def test_the_first_battle_name_is_the_scenarios(game: Any) -> None:
    # the expected messages below name the battle by the scenario's name
    assert game.battle.name == "Bismarck's last battle, 27 May 1941"


@pytest.mark.parametrize("status", ["active", "setup"])
def test_a_second_battle_from_the_scenario_is_refused_while_the_first_runs(game: Any, status: str) -> None:
    Battle.objects.filter(pk=game.battle.pk).update(status=status)
    before = _counts()

    with pytest.raises(ApplicationError) as exc:
        services.battle_create_from_scenario(
            campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
        )

    shown = "in set-up" if status == "setup" else "active"
    assert (exc.value.code, exc.value.status, exc.value.message) == (
        "ship_in_battle",
        409,
        ALL_THREE.format(status=shown),
    )
    assert _counts() == before
    assert not Battle.objects.filter(name="Rematch").exists()


def test_a_scenario_battle_is_allowed_once_the_first_is_finished(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)

    second = services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
    )

    assert (second.status, second.ships.count()) == ("active", 3)


def test_a_battle_from_campaign_ships_refuses_only_the_ships_in_a_live_battle(game: Any) -> None:
    kgv, rodney, bismarck = (
        CampaignShip.objects.get(campaign=game.campaign, ship__name=n)
        for n in ("King George V", "Rodney", "Bismarck")
    )
    BattleShip.objects.filter(battle=game.battle, campaign_ship=rodney).delete()  # Rodney is free
    before = _counts()

    with pytest.raises(ApplicationError) as exc:
        services.battle_create(
            campaign=game.campaign,
            user=game.umpire,
            name="Skirmish",
            placements=[_placement(kgv, 2), _placement(rodney, 4), _placement(bismarck, 8)],
        )

    assert (exc.value.code, exc.value.message) == (
        "ship_in_battle",
        'King George V, Bismarck are already in the battle "Bismarck\'s last battle, 27 May 1941" (active). '
        "A ship fights one battle at a time: end that battle first or leave those ships out.",
    )
    assert _counts() == before
    tirpitz = (
        services.campaign_ship_commission(  # a free ship of the other side (a battle needs two, NW-CAMP-23)
            campaign=game.campaign,
            user=game.umpire,
            side=bismarck.side,
            ship_class=bismarck.ship.ship_class,
            name="Tirpitz",
        )
    )
    free = services.battle_create(
        campaign=game.campaign,
        user=game.umpire,
        name="Rodney and Tirpitz",
        placements=[_placement(rodney, 4), _placement(tirpitz, 8)],
    )
    assert sorted(free.ships.values_list("campaign_ship__ship__name", flat=True)) == ["Rodney", "Tirpitz"]


def test_a_live_battle_of_another_campaign_does_not_count(game: Any) -> None:
    other = scenario_campaign()  # the same scenario in another campaign: other CampaignShips, same Ships

    assert other.battle.status == "active"
    assert other.battle.ships.count() == 3


def test_the_scenario_form_shows_the_refusal_and_saves_nothing(game: Any) -> None:
    response = _client(game.umpire).post(
        reverse("battles:battle_scenario", args=[game.campaign.pk]),
        {"scenario": SCENARIO, "name": "Second round"},
        follow=True,
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "King George V, Rodney, Bismarck are already in the battle" in html
    assert "A ship fights one battle at a time" in html
    assert Battle.objects.count() == 1


def test_the_battle_form_shows_the_refusal_and_saves_nothing(game: Any) -> None:
    data: dict[str, Any] = {"name": "Ambush"}
    for name, a in (("King George V", 3), ("Bismarck", 6)):
        cs = CampaignShip.objects.get(campaign=game.campaign, ship__name=name)
        data |= {f"use_{cs.pk}": "on", f"a_{cs.pk}": a, f"b_{cs.pk}": 4}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 409
    assert (
        "King George V, Bismarck are already in the battle "
        "&quot;Bismarck&#x27;s last battle, 27 May 1941&quot; (active)." in response.content.decode()
    )
    assert Battle.objects.count() == 1


def _play_one_phase(game: Any, capture: Any) -> None:
    phase = game.phase
    with capture(execute=True):
        services.phase_close(phase=phase, user=game.umpire)
    assert Phase.objects.get(pk=phase.pk).status == "resolved"


def test_rolling_back_a_finished_battle_is_refused_while_its_ships_fight_another(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    first = game.battle
    _play_one_phase(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=first, user=game.umpire)
    services.battle_create_from_scenario(
        campaign=game.campaign, scenario_key=SCENARIO, user=game.umpire, name="Rematch"
    )
    before = _counts()

    with pytest.raises(ApplicationError) as exc:
        services.battle_rollback(battle=first, user=game.umpire, to_number=1)

    assert exc.value.code == "ship_in_battle"
    assert str(exc.value) == (
        'King George V, Rodney, Bismarck are already in the battle "Rematch" (active). '
        "A ship fights one battle at a time: end that battle first or leave those ships out."
    )
    first.refresh_from_db()
    assert first.status == "finished"
    assert _counts() == before


def test_rolling_back_a_finished_battle_whose_ships_are_free_reopens_it(
    game: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _play_one_phase(game, django_capture_on_commit_callbacks)
    services.battle_end(battle=game.battle, user=game.umpire)

    phase = services.battle_rollback(battle=game.battle, user=game.umpire, to_number=1)

    game.battle.refresh_from_db()
    assert (game.battle.status, phase.number, phase.status) == ("active", 1, "open")


def test_the_battle_form_shows_busy_ships_unticked_with_their_battle(game: Any) -> None:
    url = reverse("battles:battle_new", args=[game.campaign.pk])
    cs = CampaignShip.objects.get(campaign=game.campaign, ship__name="Bismarck")

    html = _client(game.umpire).get(url).content.decode()

    row = html.split(f'name="use_{cs.pk}"', 1)[1].split("</tr>", 1)[0]
    assert not row.startswith(' aria-label="Bismarck in battle" checked')
    assert 'busy: in <a href="/battles/' in row and "(active)" in row
    services.battle_end(battle=game.battle, user=game.umpire)
    html = _client(game.umpire).get(url).content.decode()
    assert f'name="use_{cs.pk}" aria-label="Bismarck in battle" checked>' in html


def test_a_refused_battle_form_keeps_what_the_umpire_typed(game: Any) -> None:
    cs = CampaignShip.objects.get(campaign=game.campaign, ship__name="Bismarck")
    data = {"name": "Ambush", f"use_{cs.pk}": "on", f"a_{cs.pk}": 3, f"b_{cs.pk}": 4, f"heading_{cs.pk}": 60}

    html = (
        _client(game.umpire)
        .post(reverse("battles:battle_new", args=[game.campaign.pk]), data)
        .content.decode()
    )

    assert f'name="use_{cs.pk}" aria-label="Bismarck in battle" checked>' in html
    assert f'name="a_{cs.pk}" type="number" step="any" value="3"' in html
    assert f'name="b_{cs.pk}" type="number" step="any" value="4"' in html
    assert f'name="heading_{cs.pk}" type="number" step="any" min="0" max="360" value="60"' in html


def test_a_ticked_ship_without_a_position_is_named_in_the_error(game: Any) -> None:
    services.battle_end(battle=game.battle, user=game.umpire)
    cs = CampaignShip.objects.get(campaign=game.campaign, ship__name="Rodney")
    data = {"name": "Ambush", f"use_{cs.pk}": "on", f"a_{cs.pk}": "", f"b_{cs.pk}": 4}

    response = _client(game.umpire).post(reverse("battles:battle_new", args=[game.campaign.pk]), data)

    assert response.status_code == 400
    assert "Rodney is in the battle: give her a starting position (q and r)." in response.content.decode()
    assert Battle.objects.count() == 1
