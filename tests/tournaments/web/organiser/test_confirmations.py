"""Destructive organiser actions are refused server-side without the dialog's confirmation
(``confirm=1``): the answer asks the question on a page of its own and nothing changes."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.tournaments.web.organiser.pages import url
from tournaments.models.tournament import Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db


def asks(response, question: str) -> None:
    html = response.content.decode()
    assert response.status_code == 400
    assert question in html.replace("&#x27;", "'")
    assert '<input type="hidden" name="confirm" value="1">' in html


@pytest.fixture
def finished_round(tournament):
    round_ = publish_round(
        pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now()
    )
    for m in round_.matches.all():
        record_final_result(
            m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
        )
    return round_


def test_closing_the_tournament_needs_the_confirmation(organiser, tournament, finished_round):
    r = organiser.post(url(tournament, "close/"))
    asks(r, "Close the tournament? No further round can be paired")
    assert Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED
    r = organiser.post(url(tournament, "close/"), {"confirm": "1"})
    assert r.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_discarding_a_round_needs_the_confirmation(organiser, tournament):
    pair_next_round(tournament, by=None, now=timezone.now())
    r = organiser.post(url(tournament, "rounds/1/discard/"))
    asks(r, "Discard the draft of round 1? Its pairings are deleted")
    assert tournament.round_set.exists()
    organiser.post(url(tournament, "rounds/1/discard/"), {"confirm": "1"})
    assert not tournament.round_set.exists()


def test_withdrawing_a_player_needs_the_confirmation_reinstating_does_not(organiser, tournament):
    entry = tournament.entries.select_related("player").first()
    r = organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"))
    asks(r, f"Withdraw {entry.player.name}? They will not be paired in later rounds")
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"), {"confirm": "1"})
    entry.refresh_from_db()
    assert entry.withdrawn_from_round == 1
    organiser.post(url(tournament, f"players/{entry.pk}/withdraw/"))
    entry.refresh_from_db()
    assert entry.withdrawn_from_round is None


def test_the_confirmation_page_posts_the_same_form_again(organiser, tournament):
    r = organiser.post(url(tournament, "close/"))
    html = r.content.decode()
    assert f'action="{url(tournament, "close/")}"' in html
    assert f'href="{url(tournament)}"' in html  # cancel: back to the dashboard


def test_close_is_no_longer_beside_pair_round(organiser, tournament):
    page = organiser.get(url(tournament)).content.decode()
    pair = page.index("Pair round 1")
    close = page.index('id="close-form"')
    between = page[pair:close]
    assert "<h2>" in between and between.count("<form") >= 3
