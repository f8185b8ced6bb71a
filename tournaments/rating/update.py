"""Bringing a game's stored ratings up to date with its rated results.

The stored values are always the fold (``ratings.periods.fold``) of every current period of
the game in order. :func:`update_ratings` compares the applied periods (``RatedPeriod``)
with the current ones: when the applied ones are exactly the first current ones, it folds
only the rest onto the stored values (the fast path); otherwise (a correction or an
organiser's decision in a rated round, a round no longer finished, a late casual match) it
recomputes the game from the start (:func:`recompute`, the reference). Both give the same
numbers (``fold`` is incremental exactly). Both run in one transaction under a PostgreSQL
advisory lock per game, so two finishes racing apply nothing twice (SQLite: see ``_lock``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from datetime import datetime

from django.db import connection, transaction

from ratings.glicko2 import Rating
from ratings.periods import HistoryEntry, Period, PlayerState, RatedMatch, fold, ordered
from tournaments.models.people import Player
from tournaments.models.ratings import RatedPeriod, RatingChange, SiteRating
from tournaments.models.state_version import bump_tournaments_of_players_on_commit
from tournaments.models.tournament import Tournament
from tournaments.rating.sources import (
    Sourced,
    casual_periods,
    offered_casual,
    signature,
    tournament_periods,
)


class Applied(enum.StrEnum):
    NOTHING = "nothing"
    INCREMENTAL = "incremental"
    RECOMPUTED = "recomputed"


def update_ratings(game: str, *, now: datetime, full: bool = False) -> Applied:
    """Apply the periods of ``game`` not applied yet (or all of them, recomputing, when an
    applied one changed or ``full``). Returns what it did."""
    with transaction.atomic():
        _lock(game)
        current = _current(game, now=now)
        periods = ordered(s.period for s in current)
        applied = list(RatedPeriod.objects.filter(game=game).order_by("at", "key_a", "key_b"))
        stored = [signature(r.at, (r.key_a, r.key_b), _matches(r)) for r in applied]
        fresh = [signature(p.at, p.key, p.matches) for p in periods[: len(applied)]]
        if not full and stored == fresh:
            new = periods[len(applied) :]
            if not new:
                return Applied.NOTHING
            previous = _states(game)
            counts = dict(SiteRating.objects.filter(game=game).values_list("player_id", "matches"))
            outcome = Applied.INCREMENTAL
        else:
            # Whoever loses a rating in the recompute shows without it (the rest are
            # bumped by ``_write``).
            bump_tournaments_of_players_on_commit(
                SiteRating.objects.filter(game=game).values_list("player_id", flat=True),
                game=game,
            )
            RatedPeriod.objects.filter(game=game).delete()
            RatingChange.objects.filter(game=game).delete()
            SiteRating.objects.filter(game=game).delete()
            new, previous, counts = periods, {}, {}
            outcome = Applied.RECOMPUTED
        result = fold(new, previous=previous)
        sources = {tuple(s.period.key): s for s in current}
        _write(game, new, result.history, result.states, counts, sources)
        return outcome


def recompute(game: str, *, now: datetime) -> Applied:
    """Recompute ``game`` from the start (``manage.py ratings --recompute``)."""
    return update_ratings(game, now=now, full=True)


def _lock(game: str) -> None:
    """Serialise the updates of ``game`` until the transaction ends. On PostgreSQL an
    advisory lock; SQLite (an event run on a laptop) has one writer at a time anyway, and
    the unique constraints refuse a period applied twice."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"ratings:{game}"])


def _current(game: str, *, now: datetime) -> list[Sourced]:
    return tournament_periods(game) + casual_periods(offered_casual(game), now=now)


def _matches(row: RatedPeriod) -> list[RatedMatch]:
    return [RatedMatch(int(p), int(o), float(s)) for p, o, s in row.matches]


def _states(game: str) -> dict[int, PlayerState]:
    return {
        r.player_id: PlayerState(
            Rating(r.rating, r.rd, r.volatility), r.last_at, (r.last_key_a, r.last_key_b)
        )
        for r in SiteRating.objects.filter(game=game)
    }


def _write(
    game: str,
    periods: Sequence[Period],
    history: Sequence[HistoryEntry],
    states: Mapping[int, PlayerState],
    counts: dict[int, int],
    sources: Mapping[tuple[int, ...], Sourced],
) -> None:
    RatedPeriod.objects.bulk_create(
        RatedPeriod(
            game=game,
            at=s.period.at,
            key_a=s.period.key[0],
            key_b=s.period.key[1],
            matches=[[m.player, m.opponent, m.score] for m in s.period.matches],
        )
        for s in (sources[tuple(p.key)] for p in periods)
    )
    opponents = {f.opponent for e in history for f in e.games}
    names = dict(Player.objects.filter(pk__in=opponents).values_list("pk", "name"))
    changes = []
    for e in history:
        source = sources[tuple(e.key)]
        counts[e.player] = counts.get(e.player, 0) + len(e.games)
        changes.append(
            RatingChange(
                player_id=e.player,
                game=game,
                at=e.at,
                key_a=e.key[0],
                key_b=e.key[1],
                tournament_id=source.tournament_id,
                round_id=source.round_id,
                casual_match=source.casual_match,
                before_rating=e.before.rating,
                before_rd=e.before.rd,
                before_volatility=e.before.volatility,
                after_rating=e.after.rating,
                after_rd=e.after.rd,
                after_volatility=e.after.volatility,
                idle_spans=e.idle_spans,
                games=[
                    {
                        "opponent": f.opponent,
                        "name": names.get(f.opponent, ""),
                        "rating": f.rating.rating,
                        "rd": f.rating.rd,
                        "score": f.score,
                    }
                    for f in e.games
                ],
            )
        )
    RatingChange.objects.bulk_create(changes)
    touched = {e.player for e in history}
    existing = {r.player_id: r for r in SiteRating.objects.filter(game=game, player_id__in=touched)}
    fresh: list[SiteRating] = []
    for player in sorted(touched):
        state = states[player]
        row = existing.get(player) or SiteRating(player_id=player, game=game)
        row.rating, row.rd, row.volatility = (
            state.rating.rating,
            state.rating.rd,
            state.rating.volatility,
        )
        row.matches = counts[player]
        row.last_at, (row.last_key_a, row.last_key_b) = state.last_at, state.last_key
        if row.pk is None:
            fresh.append(row)
    # The tournament pages show the site ratings: after the commit (this holds the
    # ratings' advisory lock and takes no tournament row lock).
    bump_tournaments_of_players_on_commit(touched, game=game)
    SiteRating.objects.bulk_create(fresh)
    SiteRating.objects.bulk_update(
        existing.values(),
        ["rating", "rd", "volatility", "matches", "last_at", "last_key_a", "last_key_b"],
    )


def after_rounds_changed(tournament: Tournament, *, now: datetime) -> None:
    """A round of ``tournament`` finished, reopened, or had a result changed after
    finishing: bring its game's ratings up to date (nothing for an unrated tournament)."""
    if tournament.rated:
        update_ratings(tournament.game, now=now)
