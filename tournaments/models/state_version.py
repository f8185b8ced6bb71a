"""The tournament's state version: one number that changes whenever its public pages
(standings, pairings, the tournament page's public part, the hall screen's slides) would.

Those pages are rendered once per version and served from the cache to every other reader
(``thud_site.page_cache``), so the rule is strict: **every write that changes what
they show calls** ``bump_state_version`` **inside the writer's transaction**. The reader
who first sees the new version after the commit renders the new page; nobody is served
the page of the old version after the writer was told "done".

Invariants:
- Only the functions here write ``Tournament.state_version`` (an ``UPDATE ... SET
  state_version = state_version + 1``, never a value read earlier); ``Tournament.save``
  leaves the column out unless ``update_fields`` names it, so a full save of an instance
  loaded before a bump cannot write the old number back.
- The bump is an ``UPDATE`` of the tournament row: it holds the row's lock until commit.
  Writers bump when they lock the tournament (``rounds.locks.lock_tournament`` is the
  first lock of the round adapters; a result write bumps before it locks the round), so
  the locks are always taken tournament first.
- Writes seen by several tournaments (a player's name, site ratings) bump each of them
  (``bump_tournaments_of_players``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament


def bump_state_version(tournament_id: int) -> None:
    """The tournament's pages changed: a new state version (call inside the write's
    transaction)."""
    Tournament.objects.filter(pk=tournament_id).update(state_version=F("state_version") + 1)


def bump_state_version_of_round(round_id: int) -> None:
    """``bump_state_version`` of the round's tournament, in one statement."""
    Tournament.objects.filter(
        pk__in=Round.objects.filter(pk=round_id).values("tournament_id")
    ).update(state_version=F("state_version") + 1)


def bump_state_version_of_matches(match_ids: Iterable[int]) -> None:
    """``bump_state_version`` of every tournament of the matches, in one statement."""
    rounds = Match.objects.filter(pk__in=list(match_ids)).values("round_id")
    Tournament.objects.filter(
        pk__in=Round.objects.filter(pk__in=rounds).values("tournament_id")
    ).update(state_version=F("state_version") + 1)


def bump_tournaments_of_players(
    player_ids: Iterable[int], *, game: str | None = None, besides: int | None = None
) -> None:
    """Every tournament (of ``game``, if given; but ``besides``, bumped by the writer
    already) with an entry of one of ``player_ids``."""
    ids = list(player_ids)
    if not ids:
        return
    tournaments = Tournament.objects.filter(
        pk__in=Entry.objects.filter(player_id__in=ids).values("tournament_id")
    )
    if game is not None:
        tournaments = tournaments.filter(game=game)
    if besides is not None:
        tournaments = tournaments.exclude(pk=besides)
    tournaments.update(state_version=F("state_version") + 1)


def bump_tournaments_of_players_on_commit(
    player_ids: Iterable[int], *, game: str | None = None, besides: int | None = None
) -> None:
    """``bump_tournaments_of_players`` once the transaction commits: for writes that hold
    other locks (the ratings' advisory lock) and must not then wait for tournament rows.
    Between the commit and the bump a reader may cache the new content under the old
    version, which is never stale."""
    ids = list(player_ids)
    transaction.on_commit(lambda: bump_tournaments_of_players(ids, game=game, besides=besides))
