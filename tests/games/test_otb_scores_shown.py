"""An over-the-board battle's score (games/web/presenters.py ``shown_points``): its board never
moves, so once its match has a confirmed result the hall screen and the battle page show
that result's survivors, in points (a troll is worth 4), not the starting 32 – 32; until
then (none entered, or one entered and awaiting confirmation) they say the result is not
confirmed yet, and show no score."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match
from tests.tournaments.rounds.played import finish
from tournaments.results.entry import confirm_result, enter_result

pytestmark = pytest.mark.django_db


def test_an_otb_battle_shows_its_confirmed_survivors_on_the_hall_and_battle_page(client):
    match = make_match()[0]
    t = match.round.tournament
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    Battle.objects.filter(pk__in=[b1.pk, b2.pk]).update(status=Battle.Status.FINISHED)
    finish(match.round, survivors=(28, 4, 26, 5))
    hall = client.get(reverse("games:hall_battles", args=[t.slug])).content.decode()
    points = [p.split("<")[0] for p in hall.split('class="points">')[1:]]
    assert points == ["28", "16", "26", "20"]  # 28 dwarfs, 4 trolls; 26 dwarfs, 5 trolls
    page = client.get(reverse("games:battle", args=[b1.pk])).content.decode()
    assert "Dwarfs 28 – Trolls 16" in page and "Dwarfs 32" not in page
    page = client.get(reverse("games:battle", args=[b2.pk])).content.decode()
    assert "Dwarfs 26 – Trolls 20" in page


PENDING = "Over the board — result not yet confirmed"


def pages(client, t, battle) -> tuple[str, str, str]:
    """The hall's battles, the battle page and its diagram."""
    hall = client.get(reverse("games:hall_battles", args=[t.slug])).content.decode()
    page = client.get(reverse("games:battle", args=[battle.pk])).content.decode()
    diagram = client.get(reverse("games:diagram", args=[battle.pk])).content.decode()
    return hall, page, diagram


def test_an_otb_battle_says_its_result_is_not_confirmed_until_it_is(client):
    match = make_match()[0]
    t = match.round.tournament
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    Battle.objects.filter(pk__in=[b1.pk, b2.pk]).update(status=Battle.Status.FINISHED)
    hall, page, diagram = pages(client, t, b1)
    assert hall.count(PENDING) == 2 and 'class="points"' not in hall
    for html in (page, diagram):
        assert PENDING in html and "Dwarfs 32" not in html and "Trolls 32" not in html

    # Entered by a referee, not confirmed yet: still no score.
    entered = enter_result(
        match,
        survivors=(28, 4, 26, 5),
        by=t.referees.get(),
        expected_lock_version=None,
        now=timezone.now(),
    )
    hall, page, diagram = pages(client, t, b1)
    assert hall.count(PENDING) == 2 and 'class="points"' not in hall
    assert PENDING in page and PENDING in diagram and "Dwarfs 28" not in page

    # Confirmed by the organiser: the survivors in points, and no word of waiting.
    match.refresh_from_db()
    confirm_result(
        match,
        version_id=entered.pk,
        by=t.owner,
        expected_lock_version=match.lock_version,
        now=timezone.now(),
    )
    hall, page, diagram = pages(client, t, b1)
    assert PENDING not in hall + page + diagram
    assert "Dwarfs 28 – Trolls 16" in page and "Dwarfs 28 – Trolls 16" in diagram


def test_an_online_battle_shows_its_score_as_it_stands(client):
    match = make_match()[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    _hall, page, _diagram = pages(client, match.round.tournament, b1)
    assert "Dwarfs 32 – Trolls 32" in page and PENDING not in page
