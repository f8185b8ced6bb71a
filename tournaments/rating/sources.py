"""The rated results of one game, as the pure fold's periods.

Terms:

* A **tournament period** is a finished round (``Round.finished_at`` set) of a tournament
  with the *rated* setting that is no copy (``archive.copies``: an import of a tournament
  the site already holds); key ``(tournament id, round number)``. Its rated matches are the
  confirmed ones between two players (of an imported tournament, two whose entries their
  account holders have claimed). A bye is not rated, nor a match whose result is an
  organiser's decision (``ResultVersion.Kind.DECISION``: decided without play), nor a
  match an app says was decided without play (a ``MatchesWithoutPlay`` it registered with
  ``tournaments.contributions``: games' battles a referee ended before their first move,
  ``games.unplayed``), nor a match with a bot account on either side (a ``BotAccounts``
  an app registered says which users are bots, ``rating.bot_accounts``): a bot against a
  person rates neither, and two bots' match is not rated either, as the bots' own pool is
  of casual play only (``play.league``). With no app registered, nobody is a bot.
* A **casual period** is one rated casual match, offered by an app's ``RatedPeriods``
  (registered with ``tournaments.contributions``: play's rated casual matches) as
  ``(match id, ended_at, user a, user b, differential of a)`` tuples; key ``(0, match id)``.
  Each user plays as their Player: the one linked to them, else a new one in their name.
* A period with no rated match is left out: it rates nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.contrib.auth.models import User

from ratings.periods import Key, Period, RatedMatch, score_from_differential
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.rating.bot_accounts import bots_among
from tournaments.standings.scoring import score

CASUAL = 0  # the first half of a casual period's key

CasualTuple = tuple[int, datetime, int, int, float]


@dataclass(frozen=True)
class Sourced:
    """A period and where it came from (a round, or a casual match)."""

    period: Period
    tournament_id: int | None = None
    round_id: int | None = None
    casual_match: int | None = None


def tournament_periods(game: str) -> list[Sourced]:
    """The finished rounds of the rated tournaments of ``game``, with their rated matches."""
    rounds = Round.objects.filter(
        tournament__game=game,
        tournament__rated=True,
        # A copy is never rated (``Tournament.copy_never_rated``): said here too, as this
        # is where a round enters the ratings.
        tournament__copy_of__isnull=True,
        status=Round.Status.FINISHED,
        finished_at__isnull=False,
    )
    found = (
        Match.objects.filter(
            round__in=rounds,
            player_b__isnull=False,
            result_status=Match.ResultStatus.CONFIRMED,
        )
        .exclude(confirmed_version__kind=ResultVersion.Kind.DECISION)
        # An imported tournament names people only by the file's word: a match counts once
        # both its entries are claimed by their account holders (``accounts.claims``).
        .exclude(round__tournament__imported=True, player_a__player__user__isnull=True)
        .exclude(round__tournament__imported=True, player_b__player__user__isnull=True)
        .select_related("player_a__player", "player_b__player", "confirmed_version")
    )
    matches = list(found)
    unplayed = without_play([m.pk for m in matches])
    bots = bots_among(e.player.user_id for m in matches for e in (m.player_a, m.player_b) if e)
    by_round: dict[int, list[RatedMatch]] = {}
    for m in matches:
        assert m.player_b is not None and m.confirmed_version is not None  # filtered above
        if m.pk in unplayed or {m.player_a.player.user_id, m.player_b.player.user_id} & bots:
            continue
        differential = score(m.confirmed_version.survivors).differential
        by_round.setdefault(m.round_id, []).append(
            RatedMatch(
                m.player_a.player_id, m.player_b.player_id, score_from_differential(differential)
            )
        )
    return [
        Sourced(
            Period(r.finished_at, (r.tournament_id, r.number), _sorted(by_round[r.pk])),
            tournament_id=r.tournament_id,
            round_id=r.pk,
        )
        for r in rounds
        if r.pk in by_round and r.finished_at is not None
    ]


class MatchesWithoutPlay(Protocol):
    """Which of some matches an app says were decided without play (not rated)."""

    def __call__(self, match_ids: Sequence[int], /) -> set[int]: ...


class RatedPeriods(Protocol):
    """An app's finished rated casual matches of ``game``, as ``CasualTuple``s ordered by
    (ended_at, match id)."""

    def __call__(self, game: str, /) -> Sequence[CasualTuple]: ...


#: What the apps registered (``tournaments.contributions.register``), in that order.
judges: list[MatchesWithoutPlay] = []
offers: list[RatedPeriods] = []


def without_play(match_ids: Sequence[int]) -> set[int]:
    """The matches among ``match_ids`` that a registered app says were decided without play."""
    found: set[int] = set()
    if match_ids:
        for judge in judges:
            found |= judge(match_ids)
    return found


def offered_casual(game: str) -> list[CasualTuple]:
    """Every registered app's rated casual matches of ``game``."""
    found: list[CasualTuple] = []
    for offer in offers:
        found.extend(offer(game))
    return found


def casual_periods(rows: Iterable[CasualTuple], *, now: datetime) -> list[Sourced]:
    """Rated casual matches as periods, each user as their Player (created when missing).
    A match that ends after ``now`` is not final yet and is left out."""
    rows = [row for row in rows if row[1] <= now]
    players = players_of_users({u for row in rows for u in (row[2], row[3])})
    return [
        Sourced(
            Period(
                ended_at,
                (CASUAL, match_id),
                (RatedMatch(players[a], players[b], score_from_differential(differential)),),
            ),
            casual_match=match_id,
        )
        for match_id, ended_at, a, b, differential in rows
    ]


def players_of_users(user_ids: Iterable[int]) -> dict[int, int]:
    """Each user's Player id: the claimed one, else a new Player in the user's name."""
    user_ids = set(user_ids)
    found = dict(Player.objects.filter(user_id__in=user_ids).values_list("user_id", "pk"))
    for user in User.objects.filter(pk__in=user_ids - set(found)):
        name = user.get_full_name() or user.get_username()
        found[user.pk] = Player.objects.create(name=name, user=user).pk
    return found


def _sorted(matches: Sequence[RatedMatch]) -> tuple[RatedMatch, ...]:
    return tuple(sorted(matches, key=lambda m: (m.player, m.opponent)))


def signature(at: datetime, key: Key, matches: Iterable[RatedMatch]) -> tuple[object, ...]:
    """What makes two periods the same for the fold: time, key and matches."""
    return (at, tuple(key), tuple((m.player, m.opponent, float(m.score)) for m in matches))
