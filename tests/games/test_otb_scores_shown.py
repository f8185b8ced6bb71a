"""An over-the-board battle's score (games/presenters.py ``shown_points``): its board never
moves, so once its match has a confirmed result the hall screen and the battle page show
that result's survivors, in points (a troll is worth 4), not the starting 32 – 32."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match
from tests.tournaments.rounds.played import finish

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


def test_an_otb_battle_without_a_result_shows_its_board(client):
    match = make_match()[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    page = client.get(reverse("games:battle", args=[b1.pk])).content.decode()
    assert "Dwarfs 32 – Trolls 32" in page
