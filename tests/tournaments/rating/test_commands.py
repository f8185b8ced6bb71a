"""manage.py close_tournament and manage.py ratings, and create_tournament --unrated."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import tournament_with_players
from tests.tournaments.rating.helpers import play_round, stored
from tournaments.models.ratings import RatingChange, SiteRating
from tournaments.models.tournament import Tournament

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_close_tournament_finishes_the_last_round_and_rates_it():
    t = tournament_with_players(4)
    play_round(t, 1)
    assert "Closed" in run("close_tournament", t.slug)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert RatingChange.objects.count() == 4


def test_close_tournament_refuses_an_unknown_slug_and_an_unfinished_round():
    with pytest.raises(CommandError, match="nope"):
        run("close_tournament", "nope")
    t = tournament_with_players(4)
    run("pair_round", t.slug)  # published, no results
    with pytest.raises(CommandError, match="no confirmed result"):
        run("close_tournament", t.slug)
    t.refresh_from_db()
    assert t.status != Tournament.Status.FINISHED


def test_ratings_recompute_gives_the_stored_numbers_again():
    t = tournament_with_players(6)
    play_round(t, 1)
    play_round(t, 2)
    run("close_tournament", t.slug)
    before = stored(t.game)
    SiteRating.objects.update(rating=1000.0)  # damage that a recompute repairs
    out = run("ratings", "--recompute", "--game", t.game)
    assert f"{t.game}: 6 rated players." in out
    assert stored(t.game) == before
    assert "cavalli: 0 rated players." in run("ratings", "--recompute")


def test_ratings_refuses_bad_input_and_changes_nothing():
    t = tournament_with_players(4)
    play_round(t, 1)
    run("close_tournament", t.slug)
    SiteRating.objects.update(rating=1000.0)
    with pytest.raises(CommandError, match="Unknown game 'chess'"):
        run("ratings", "--recompute", "--game", "chess")
    with pytest.raises(CommandError, match="pass --recompute"):
        run("ratings")
    assert set(SiteRating.objects.values_list("rating", flat=True)) == {1000.0}


def test_create_tournament_unrated():
    run("create_tournament", "--name", "Friendly", "--slug", "friendly", "--format", "swiss",
        "--rounds", "3", "--unrated")  # fmt: skip
    run("create_tournament", "--name", "Open", "--slug", "open", "--format", "swiss",
        "--rounds", "3")  # fmt: skip
    assert not Tournament.objects.get(slug="friendly").rated
    assert Tournament.objects.get(slug="open").rated
