"""The hall screen's live battles (games/web/views_hall.py, games/web/presenters_hall.py): the
round's battles being played or waiting for their players, with names, sides, scores and
the clock of the side to move; a battle nobody opened is not shown."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles import joining
from games.battles.starting import create_battles
from games.models.battle import Battle
from games.web import views_hall
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def test_the_live_battles_show_who_plays_which_side_and_the_running_clock(client):
    match = make_match(tables=2)[0]
    t = match.round.tournament
    url = reverse("games:hall_battles", args=[t.slug])
    assert "hall-battle" not in client.get(url).content.decode()  # nobody plays yet
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    assert "hall-battle" not in client.get(url).content.decode()  # created, not opened
    joining.open_for_players(b1.pk, side="dwarf", now=timezone.now())
    html = client.get(url).content.decode()
    assert "waiting for both players" in html and html.count('class="hall-battle"') == 1
    joining.join(b1.pk, side="troll", now=timezone.now())
    html = client.get(url + "?lang=it").content.decode()
    assert match.player_a.player.name in html and match.player_b.player.name in html
    assert "Nani" in html and "data-ends-ms" in html and "mossa 1 di 24" in html
    assert "data-think-ends-ms=" in html  # the think time counts first


@pytest.mark.django_db(transaction=True)  # the stream reads in another thread
def test_the_events_stream_is_served_by_the_events_process_only(client):
    t = make_match()[0].round.tournament
    r = client.get(reverse("games:hall_events", args=[t.slug]))
    assert r.status_code == 503


def test_the_hall_stream_watches_the_battles_the_hall_shows():
    match = make_match(tables=1)[0]
    b1, _b2 = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    slug = match.round.tournament.slug
    assert views_hall._watch(slug)[0] == frozenset()  # created, not opened
    joining.open_for_players(b1.pk, side="dwarf", now=timezone.now())
    assert views_hall._watch(slug)[0] == frozenset({b1.pk})
