"""Where the archive meets the clock (issue 41): a battle's whole history, every kind of
clock event and every kind of move, travels through the organiser's *Download archive*
and back in through the upload's import job.

The referee-offline pause is made by the real sweep (``games.live.referees.check``) and
undone by the page's next beat; the clock presses of a battle over the board are the real
``submit_move``; a forfeited turn comes from moves typed in after the battle
(``games.battles.otb_moves``). Kinds no workflow here reaches are added as rows, so that every
kind the model has is in the file, whatever kinds are added later.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.otb_moves import enter_moves
from games.battles.play import submit_move
from games.battles.referee import referee_page_seen
from games.battles.starting import create_battles, start_battle
from games.live import referees
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from tests.factories import make_match
from tests.games.records_helpers import greedy_game
from tests.tournaments.archive.conftest import organiser, run_queued_imports
from tournaments.archive.jobs import queue_import
from tournaments.models.imports import ArchiveImport

pytestmark = pytest.mark.django_db


def otb_battles_with_history(now):
    """Two battles over the board: the first paused for its offline referee page,
    resumed and pressed; the second finished, its moves typed in with a forfeit."""
    (match,) = make_match(record_otb_moves=True)
    first, second = create_battles(match, mode=Battle.Mode.OTB, now=now)
    first = start_battle(first.pk, now=now)
    referee_page_seen(first, by="referee", now=now)
    away = now + timedelta(minutes=1)
    assert referees.check(via=ClockEvent.Via.SWEEP, now=away) == 1
    first = Battle.objects.get(pk=first.pk)
    assert first.paused_reason == ClockEvent.Kind.REFEREE_OFFLINE
    referee_page_seen(first, by="referee", now=away + timedelta(seconds=1))
    for n in range(2):
        first = Battle.objects.get(pk=first.pk)
        submit_move(
            first.pk,
            side=first.side_to_move,
            version=first.clock_version,
            now=away + timedelta(seconds=2 + n),
        )
    Battle.objects.filter(pk=second.pk).update(status=Battle.Status.FINISHED)
    moves, _ = greedy_game(6, second.capture_policy, forfeit_at=3)
    movetext = "\n".join(m or "--" for m in moves)
    enter_moves(Battle.objects.get(pk=second.pk), text=movetext, now=away)
    return match, Battle.objects.get(pk=first.pk)


def add_missing_kinds(battle: Battle, now) -> None:
    """A clock event of every kind the model has that the battle lacks (the audit trail
    is not replayed: only its values are checked)."""
    have = set(battle.clock_events.values_list("kind", flat=True))
    ClockEvent.objects.bulk_create(
        ClockEvent(
            battle=battle,
            ply=battle.ply,
            kind=kind,
            applied_at=now + timedelta(seconds=10 + n),
            via=ClockEvent.Via.REFEREE,
        )
        for n, kind in enumerate(k for k in ClockEvent.Kind.values if k not in have)
    )


def test_every_clock_event_and_move_kind_downloaded_is_imported_back(client):
    now = timezone.now()
    match, first = otb_battles_with_history(now)
    # The blocker of issue 41: made by the sweep, not by hand.
    assert first.clock_events.filter(kind=ClockEvent.Kind.REFEREE_OFFLINE).exists()
    add_missing_kinds(first, now)
    t = match.round.tournament
    client.force_login(t.owner)

    response = client.get(reverse("organiser_archive", args=[t.slug]))
    assert response.status_code == 200
    uploader = organiser()
    job = queue_import(
        response.content,
        file_name="archive.json",
        slug="copy",
        language="en",
        by=uploader,
        now=timezone.now(),
    )
    run_queued_imports()
    job.refresh_from_db()

    assert job.state == ArchiveImport.State.DONE, job.error
    copied = Battle.objects.filter(match__round__tournament__slug="copy")
    events = ClockEvent.objects.filter(battle__in=copied)
    assert set(events.values_list("kind", flat=True)) == set(ClockEvent.Kind.values)
    moves = Move.objects.filter(battle__in=copied)
    assert set(moves.values_list("kind", flat=True)) >= set(Move.Kind.values)
    original = ClockEvent.objects.filter(battle__match=match)
    assert sorted(events.values_list("kind", "via", "applied_at", "detail")) == sorted(
        original.values_list("kind", "via", "applied_at", "detail")
    )
