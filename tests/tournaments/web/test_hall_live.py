"""The hall screen as the day goes on (issue 41): the part the live refresh fetches
(``?part=slides``) carries the round's heading with its pairings, says something before
round 1, and turns into the final slide (champion, final standings, thanks) once the
tournament closes, with no round timer and no "Find your table" left."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_match
from tests.tournaments.rounds.played import finish
from tournaments.models.rounds import Round
from tournaments.organising.hall import start_round_timer
from tournaments.rounds import hall
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import close_tournament, publish_round

pytestmark = pytest.mark.django_db


def _slides(client, tournament, lang: str = "en") -> str:
    url = reverse("hall", args=[tournament.slug]) + f"?part=slides&lang={lang}"
    return client.get(url, HTTP_HX_REQUEST="true").content.decode()


def test_the_refresh_brings_round_2_heading_with_round_2_pairings(client):
    match = make_match(tables=2)[0]
    t = match.round.tournament
    assert "Round 1" in _slides(client, t)
    finish(match.round)
    before = hall.hall_fingerprint(t)
    round_2 = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    assert hall.hall_fingerprint(t) != before  # the stream tells the screen to refetch
    html = _slides(client, t)
    assert 'id="hall-round"' in html and "Round 2" in html and "Round 1" not in html
    for m in round_2.matches.select_related("player_a__player"):
        assert m.player_a.player.name in html


def test_before_round_1_the_heading_says_so(client):
    match = make_match()[0]
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.DRAFT)
    t = match.round.tournament
    assert "Before round 1" in _slides(client, t)
    assert "Før runde 1" in _slides(client, t, "nb") and "Prima del turno 1" in _slides(
        client, t, "it"
    )


def test_a_closed_tournament_shows_the_champion_and_final_standings_and_no_round(client):
    match = make_match()[0]
    t = match.round.tournament
    start_round_timer(t, minutes=45, now=timezone.now())
    finish(match.round)  # player A wins
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.FINISHED)
    before = hall.hall_fingerprint(t)
    close_tournament(t, now=timezone.now())
    t.refresh_from_db()
    assert hall.hall_fingerprint(t) != before
    page = client.get(reverse("hall", args=[t.slug])).content.decode()
    for html in (page, _slides(client, t)):
        assert 'data-kind="final"' in html and "Champion" in html and "Final standings" in html
        assert "Final results" in html and "Thank you for playing" in html
        assert f'<li class="hall-champion">{match.player_a.player.name}</li>' in html
        assert "Round time left" not in html and "Find your table" not in html
        assert "Pairings by table" not in html and 'id="hall-battles"' not in html
    assert hall.hall_slides(t, now=timezone.now())["champions"] == [match.player_a.player.name]


def test_champions_are_everyone_ranked_first():
    class Row:
        def __init__(self, rank, name):
            self.rank, self.name = rank, name

    rows = [Row(1, "Ann"), Row(1, "Bo"), Row(3, "Cy")]
    assert hall.champions(rows) == ["Ann", "Bo"]  # type: ignore[arg-type]
