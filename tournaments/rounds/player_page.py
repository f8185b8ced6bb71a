"""A player's own page: where they stand in the tournament now, and what comes next.

Terminology:
- The *current round* is the last published (or finished) round; drafts are never shown.
- The *current match* is the entry's match in the current round (none if the entry was not
  paired in it: withdrawn, absent or entered late).
- The *next step* (``next_step``, pure) is one of ``PLAY`` (a match whose result is not
  confirmed yet), ``WAIT`` (waiting for round N to be published), ``NOT_PAIRED`` (not in the
  current round) and ``OVER`` (the tournament is finished: the final place).
- A *round to come* (``round_to_come``, pure) is a round after the current one that can
  still be published: none once the tournament is closed, nor after the last planned round
  (a knockout stage may add rounds, so a tournament with one has one until it is closed).
  The page offers to notify the player of their next round only while one can come.

``load_player_page`` reads an entry's page in a constant number of queries; the battles of
the match (``games``) are added by the view, as the home page does, so that ``tournaments``
never imports ``games``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.rounds.reads import load_standings, match_score

PLAY = "play"
WAIT = "wait"
NOT_PAIRED = "not_paired"
OVER = "over"


@dataclass(frozen=True)
class NextStep:
    kind: str  # PLAY, WAIT, NOT_PAIRED or OVER
    round: int = 0  # the round waited for (WAIT)
    place: int = 0  # the final place (OVER)


def round_to_come(
    *, finished: bool, knockout: bool, rounds_planned: int, current_round: int
) -> bool:
    """Whether a round after ``current_round`` can still be published.

    >>> round_to_come(finished=False, knockout=False, rounds_planned=3, current_round=2)
    True
    >>> round_to_come(finished=False, knockout=False, rounds_planned=3, current_round=3)
    False
    >>> round_to_come(finished=True, knockout=True, rounds_planned=3, current_round=1)
    False
    """
    if finished:
        return False
    return knockout or current_round < rounds_planned


def next_step(
    *,
    finished: bool,
    rounds_planned: int,
    current_round: int,
    has_match: bool,
    match_finished: bool,
    place: int,
    knockout: bool = False,
) -> NextStep:
    """What the player waits for, from plain facts about the tournament and their match.

    >>> next_step(finished=False, rounds_planned=5, current_round=2, has_match=True,
    ...     match_finished=True, place=3)
    NextStep(kind='wait', round=3, place=0)
    >>> next_step(finished=True, rounds_planned=5, current_round=5, has_match=True,
    ...     match_finished=True, place=3)
    NextStep(kind='over', round=0, place=3)
    """
    if finished:
        return NextStep(OVER, place=place)
    if has_match and not match_finished:
        return NextStep(PLAY)
    more = round_to_come(
        finished=finished,
        knockout=knockout,
        rounds_planned=rounds_planned,
        current_round=current_round,
    )
    # Round 0: no round to come; the final standings, when the organiser closes.
    following = current_round + 1 if more else 0
    if current_round and not has_match:
        return NextStep(NOT_PAIRED, round=following)
    return NextStep(WAIT, round=following)


@dataclass
class PlayerPage:
    entry: Entry
    tournament: Tournament
    round: Round | None
    match: Match | None
    opponent: Entry | None
    #: The player has the first side in battle 1 (is player A of the match).
    first_side_first: bool
    score: object | None  # the confirmed MatchScore, else None
    mine: int | None  # own points in the confirmed result
    theirs: int | None
    next: NextStep
    #: A round after the current one can still be published (``round_to_come``).
    round_to_come: bool


def current_match(entry: Entry, round_: Round | None) -> Match | None:
    if round_ is None:
        return None
    return (
        Match.objects.filter(round=round_)
        .filter(Q(player_a=entry) | Q(player_b=entry))
        .select_related("round", "player_a__player", "player_b__player", "confirmed_version")
        .first()
    )


def load_player_page(entry: Entry) -> PlayerPage:
    t = entry.tournament
    round_ = t.round_set.counted().order_by("number").last()
    match = current_match(entry, round_)
    is_a = match is not None and match.player_a_id == entry.pk
    opponent = None if match is None else (match.player_b if is_a else match.player_a)
    score = match_score(match) if match is not None else None
    mine = theirs = None
    if score is not None:
        a, b = sum(score.a_points), sum(score.b_points)
        mine, theirs = (a, b) if is_a else (b, a)
    finished = t.status == Tournament.Status.FINISHED
    place = 0
    if finished:
        place = next((r.rank for r in load_standings(t) if r.entry_id == entry.pk), 0)
    number = round_.number if round_ else 0
    step = next_step(
        finished=finished,
        rounds_planned=t.rounds,
        current_round=number,
        has_match=match is not None,
        match_finished=match is not None and match.is_finished,
        place=place,
        knockout=t.has_knockout,
    )
    more = round_to_come(
        finished=finished, knockout=t.has_knockout, rounds_planned=t.rounds, current_round=number
    )
    return PlayerPage(entry, t, round_, match, opponent, is_a, score, mine, theirs, step, more)
