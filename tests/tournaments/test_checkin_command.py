"""``manage.py checkin`` and ``create_tournament --check-in`` (stable interfaces)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.rounds.played import play
from tournaments.models.entries import RoundAbsence
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.checkin import set_checked_in
from tournaments.rounds.draw import pair_next_round

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def names(t: Tournament) -> list[str]:
    return [e.player.name for e in t.entries.select_related("player").order_by("seed")]


def test_create_tournament_requires_check_in_only_when_asked():
    base = ["create_tournament", "--format", "swiss", "--rounds", "3"]
    run(*base, "--name", "With", "--slug", "with", "--check-in")
    run(*base, "--name", "Without", "--slug", "without")
    assert Tournament.objects.get(slug="with").check_in_required
    assert not Tournament.objects.get(slug="without").check_in_required


def test_checkin_checks_players_in_and_out():
    t = tournament_with_players(3, check_in_required=True)
    a, b, _c = names(t)
    out = run("checkin", t.slug, a, b.lower())
    assert out.splitlines() == [f"{a}: checked in", f"{b}: checked in"]
    assert set(t.entries.filter(checked_in=True).values_list("player__name", flat=True)) == {a, b}
    run("checkin", t.slug, a, "--absent")
    assert list(t.entries.filter(checked_in=True).values_list("player__name", flat=True)) == [b]


def test_checkin_absent_with_round_marks_not_playing_that_round():
    t = tournament_with_players(4, rounds=3)
    play(t)
    a = names(t)[0]
    assert run("checkin", t.slug, a, "--absent", "--round", "2") == f"{a}: not playing round 2\n"
    assert RoundAbsence.objects.filter(entry__player__name=a, round_number=2).exists()
    run("checkin", t.slug, a, "--round", "2")
    assert not RoundAbsence.objects.exists()


def test_unknown_names_exit_non_zero_one_line_each_and_change_nothing():
    t = tournament_with_players(3, check_in_required=True)
    a = names(t)[0]
    with pytest.raises(CommandError) as caught:
        run("checkin", t.slug, a, "Nobody Here", "Ghost")
    lines = str(caught.value).splitlines()
    assert len(lines) == 2 and "Nobody Here" in lines[0] and "Ghost" in lines[1]
    assert not Entry.objects.filter(checked_in=True).exists()


def test_absent_without_a_round_once_round_one_is_paired_is_refused_and_changes_nothing():
    t = tournament_with_players(4, rounds=3)
    a, b = names(t)[:2]
    pair_next_round(t, by=None, now=timezone.now())  # round 1 is paired: --absent alone is refused
    set_checked_in(t.entries.get(player__name=a), present=True, now=timezone.now())
    with pytest.raises(CommandError, match="--round"):
        run("checkin", t.slug, a, b, "--absent")
    assert t.entries.get(player__name=a).checked_in


def test_checkin_refuses_an_unknown_tournament_and_a_paired_round():
    with pytest.raises(CommandError, match="No tournament"):
        run("checkin", "nope", "A")
    t = tournament_with_players(4, rounds=3)
    pair_next_round(t, by=None, now=timezone.now())
    with pytest.raises(CommandError, match="already paired"):
        run("checkin", t.slug, names(t)[0], "--absent", "--round", "1")
    assert not RoundAbsence.objects.exists()
