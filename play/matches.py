"""Casual matches: two battles with sides swapped between two users, like a tournament
match, made by accepting a challenge with *rated match* (``play.challenges.accept``).

Terminology and invariants:
- *A* is the user with the first side in battle 1; B has it in battle 2. Battle 2 is
  created when battle 1 ends (``games.events.signals.casual_battle_finished``), on the same
  board (``board_seed``), and waits for both players as a tournament's battle 2 does
  (``games.battles.finishing.tell_next``, ``games.rules.presence``).
- The match's *result* is A's differential over both battles, scored as a tournament
  match's, by the one rule of ``tournaments.for_games.match_decision``: the summed
  points, but a player who lost a battle on time or resigned it (and whose opponent did
  not) loses the match, by at least 1. It and ``ended_at`` are written
  once, by one conditional ``UPDATE ... WHERE status = 'playing'``, in the transaction
  that ends battle 2; a rated match then tells the ratings (``rating_hook``) after commit.
- Battle 1 cancelled because a player never came (a no-show) cancels the match: no
  battle 2, no result, no rating period. Battle 2 cancelled so (the player who joined
  claimed the other a no-show) *decides* the match: the absent player loses it
  (``no_show_by``), so a loser of battle 1 cannot escape the rating by staying away. The
  present player's differential is battle 1's, at least 1 (battle 2 counts as nothing
  for either side). Battle 2 expired with neither player there (``never_started``,
  ``games.battles.joining.expire_unjoined``) ends the match on battle 1 alone: its
  differential, battle 2 counting as nothing for either side, nobody blamed.
- Rated matches a pair may play per rating period: :data:`RATED_PER_PERIOD` of a game
  in any :data:`RATING_PERIOD`, counted when a match is created under a lock of both
  users' rows; beyond it the match is played unrated (``unrated_reason`` "limit"), and its
  page says so. Glicko-2 (Glickman's *Example of the Glicko-2 system*) treats the games of
  a rating period as simultaneous and "works best when the number of games in a rating
  period is moderate to large, say an average of at least 10-15 games per player": of
  such a period, one opponent should be a small share of the evidence. Three matches is
  a fifth of 15 (each a two-battle match): at least four fifths of a well-filled period
  comes from other opponents. The period is 30 days, the span the fold already uses as
  its rating period (``ratings.periods.IDLE_SPAN``: the RD grows per 30 idle days). A
  second account can then lift a new account by at most about 250 points a month (1500 to
  1753 after three wins, against 1775 after four in 44 s unchecked), and less and less
  as the RD falls.
- A match in which no move was played (both battles ended at ply 0) is never rated
  (``unrated_reason`` "unplayed"), as tournaments leave out matches decided without play.
- A match between a bot account and a person (``play.bots``) is played unrated, whatever
  was asked (``unrated_reason`` "bot"); two bot accounts' match is rated as asked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from games.battles.finishing import battle_loss, decide_match, tell_next
from games.battles.starting import create_casual_battle
from games.models.battle import DAY_MS, DEFAULT_MOVE_LIMIT, Battle
from games.models.reasons import NEVER_STARTED
from tournaments.for_games import LOST_ON_TIME, RESIGNED, match_decision, match_differential

from . import bots, rating_hook
from .models import CasualMatch

#: Rated matches of one game a pair of users may play per :data:`RATING_PERIOD`.
RATED_PER_PERIOD = 3
#: The rating period, as the fold's (``ratings.periods.IDLE_SPAN``).
RATING_PERIOD = timedelta(days=30)


def start_match(
    *,
    game: str,
    first,
    second,
    timing: str,
    days: int,
    move_limit: int = DEFAULT_MOVE_LIMIT,
    rated: bool = True,
    now: datetime,
) -> CasualMatch:
    """Create battle 1 (``first`` moves first; a timed one waits for both players) and its
    match; rated if asked, unless a bot account plays a person, and if the pair has rated
    matches left this period (see the module note). ``move_limit``: a quickfire match's moves per side, in both battles. Raises
    ``games.battles.errors.NotAllowed`` as ``create_casual_battle`` does."""
    with transaction.atomic():
        battle = create_casual_battle(
            game=game,
            first=first,
            second=second,
            timing=timing,
            days=days,
            move_limit=move_limit,
            await_players=True,
            now=now,
        )
        reason = CasualMatch.UnratedReason.NONE
        if rated and bots.against_a_person(first, second):
            rated, reason = False, CasualMatch.UnratedReason.BOT
        elif rated and rated_left(first, second, game=battle.game, now=now) <= 0:
            rated, reason = False, CasualMatch.UnratedReason.LIMIT
        return CasualMatch.objects.create(
            user_a=first,
            user_b=second,
            game=battle.game,
            rated=rated,
            unrated_reason=reason,
            battle_1=battle,
            created_at=now,
        )


def rated_left(first, second, *, game: str, now: datetime) -> int:
    """How many more rated matches of ``game`` the two users may start at ``now``. Locks
    both users' rows (in one order, as ``play.challenges`` does) until the transaction
    ends, so parallel accepts count one by one."""
    pair = sorted([first.pk, second.pk])
    list(get_user_model().objects.select_for_update().filter(pk__in=pair).order_by("pk"))
    used = (
        CasualMatch.objects.filter(
            Q(user_a=first, user_b=second) | Q(user_a=second, user_b=first),
            game=game,
            rated=True,
            created_at__gt=now - RATING_PERIOD,
        )
        .exclude(status=CasualMatch.Status.CANCELLED)
        .count()
    )
    return RATED_PER_PERIOD - used


def on_casual_battle_finished(sender, *, battle: Battle, now: datetime, **kwargs) -> None:
    """A casual battle just ended (inside its transaction): follow its match, if any."""
    match = (
        CasualMatch.objects.select_for_update()
        .filter(_either(battle.pk), status=CasualMatch.Status.PLAYING)
        .first()
    )
    if match is None:
        return  # a single casual battle, or a match already settled
    if battle.finished_reason == NEVER_STARTED and battle.pk == match.battle_2_id:
        end_match(match, now=now)  # nobody came: battle 1 alone decides
    elif battle.is_cancelled and battle.pk == match.battle_2_id:
        _decide_by_no_show(match, battle, now=now)
    elif battle.is_cancelled:
        CasualMatch.objects.filter(pk=match.pk, status=CasualMatch.Status.PLAYING).update(
            status=CasualMatch.Status.CANCELLED
        )
    elif battle.pk == match.battle_1_id:
        _open_second(match, battle, now=now)
    else:
        end_match(match, now=now)


def _decide_by_no_show(match: CasualMatch, second: Battle, *, now: datetime) -> None:
    """Battle 2 was cancelled, its absent player claimed a no-show: they lose the match."""
    # Battle 2's first side is B's; the claimant is the one who joined.
    absent = match.user_b_id if second.first_joined_at is None else match.user_a_id
    CasualMatch.objects.filter(pk=match.pk).update(no_show_by=absent)
    match.no_show_by_id = absent
    end_match(match, now=now)


def _open_second(match: CasualMatch, first: Battle, *, now: datetime) -> None:
    if match.battle_2_id is not None:
        return
    second = create_casual_battle(
        game=first.game,
        first=first.second_user,
        second=first.first_user,
        timing=first.timing,
        days=max(1, first.think_ms // DAY_MS),
        # Battle 1's limit (moves per side); one made before casual quickfire had a
        # limit gets the default.
        move_limit=first.max_plies // 2 if first.max_plies else DEFAULT_MOVE_LIMIT,
        board_seed=first.board_seed,
        await_players=True,
        number=2,
        now=now,
    )
    CasualMatch.objects.filter(pk=match.pk, battle_2__isnull=True).update(battle_2=second)
    tell_next(second)


def end_match(match: CasualMatch, *, now: datetime) -> bool:
    """Write the match's result and ``ended_at`` once both battles are over; True the one
    time it is written (a second call, a race, changes nothing and tells nobody)."""
    battles = {
        b.pk: b for b in Battle.objects.filter(pk__in=[match.battle_1_id, match.battle_2_id])
    }
    b1, b2 = battles.get(match.battle_1_id), battles.get(match.battle_2_id or 0)
    if b1 is None or b2 is None or not (b1.is_finished and b2.is_finished):
        return False
    if match.no_show_by_id is not None:
        differential = _no_show_differential(match, b1)
    elif b2.finished_reason == NEVER_STARTED:  # battle 1 alone, by the one rule
        differential = match_decision(
            b1.result_numbers, (0, 0), game=match.game, losses=(battle_loss(b1), None)
        ).differential
    else:
        differential = decide_match(b1, b2).differential
    rated, reason = match.rated, match.unrated_reason
    if rated and b1.ply == 0 and b2.ply == 0:
        rated, reason = False, CasualMatch.UnratedReason.UNPLAYED
    written = CasualMatch.objects.filter(pk=match.pk, status=CasualMatch.Status.PLAYING).update(
        status=CasualMatch.Status.ENDED,
        ended_at=now,
        differential_a=differential,
        rated=rated,
        unrated_reason=reason,
    )
    if written != 1:
        return False
    if rated:
        game = match.game
        transaction.on_commit(lambda: rating_hook.on_rated_match_end(game, now))
    return True


def _no_show_differential(match: CasualMatch, b1: Battle) -> int:
    """A's differential when a player never joined battle 2: battle 1's for the one who
    came (battle 2 scores nothing for either), and at least 1: the absent player loses."""
    first_battle = match_differential(b1.result_numbers, (0, 0), game=match.game)
    if match.no_show_by_id == match.user_b_id:
        return max(first_battle, 1)
    return min(first_battle, -1)


def _either(battle_id: int) -> Q:
    return Q(battle_1=battle_id) | Q(battle_2=battle_id)


def of_battle(battle: Battle) -> CasualMatch | None:
    """The casual match ``battle`` belongs to (``None``: a single battle)."""
    if not battle.is_casual:
        return None
    return (
        CasualMatch.objects.select_related("user_a__profile", "user_b__profile", "no_show_by")
        .filter(_either(battle.pk))
        .first()
    )


def result_line(match: CasualMatch) -> str:
    """How an ended match was decided, in words: "ann wins the match on total score
    62–58", "bob wins the match: ann lost battle 2 on time (total score 62–28)", "a draw on
    total score 60–60"; by the same rule that wrote its result (``decide_match``)."""
    if match.status != CasualMatch.Status.ENDED or match.battle_2_id is None:
        return ""
    if match.no_show_by_id is not None:
        return gettext("%(user)s wins the match: %(absent)s did not join battle 2 in time.") % {
            "user": match.winner.get_username() if match.winner else "",
            "absent": match.no_show_by.get_username() if match.no_show_by else "",
        }
    battles = {
        b.pk: b for b in Battle.objects.filter(pk__in=[match.battle_1_id, match.battle_2_id])
    }
    decision = decide_match(battles[match.battle_1_id], battles[match.battle_2_id])
    users = {"a": match.user_a.get_username(), "b": match.user_b.get_username()}
    a_total, b_total = decision.totals
    if decision.outcome == "draw":
        return gettext("A draw on total score %(a)d–%(b)d.") % {"a": a_total, "b": b_total}
    winner, loser = decision.outcome, decision.loser or ""
    totals = {"a": a_total, "b": b_total}
    values = {
        "user": users[winner],
        "loser": users[loser],
        "n": decision.battle or 0,
        "mine": totals[winner],
        "theirs": totals[loser],
    }
    if decision.by == LOST_ON_TIME:
        text = gettext(
            "%(user)s wins the match: %(loser)s lost battle %(n)d on time "
            "(total score %(mine)d–%(theirs)d)."
        )
    elif decision.by == RESIGNED:
        text = gettext(
            "%(user)s wins the match: %(loser)s resigned battle %(n)d "
            "(total score %(mine)d–%(theirs)d)."
        )
    else:
        text = gettext("%(user)s wins the match on total score %(mine)d–%(theirs)d.")
    return text % values


def numbers_of(battle_ids: list[int]) -> dict[int, tuple[int, bool, str]]:
    """For each of ``battle_ids`` that belongs to a casual match: (1 or 2, whether the
    match is rated, why a match asked for rated is not), in one query."""
    rows = CasualMatch.objects.filter(
        Q(battle_1__in=battle_ids) | Q(battle_2__in=battle_ids)
    ).values_list("battle_1", "battle_2", "rated", "unrated_reason")
    numbers: dict[int, tuple[int, bool, str]] = {}
    for first, second, rated, reason in rows:
        numbers[first] = (1, rated, reason)
        if second is not None:
            numbers[second] = (2, rated, reason)
    return numbers


def label(number: int, *, rated: bool, reason: str = "") -> str:
    """ "Rated match, battle 1 of 2"."""
    if rated:
        return gettext("Rated match, battle %(n)d of 2") % {"n": number}
    if reason == CasualMatch.UnratedReason.LIMIT:
        return gettext(
            "Match, battle %(n)d of 2, not rated: the rated matches against this opponent "
            "are used up for now"
        ) % {"n": number}
    if reason == CasualMatch.UnratedReason.UNPLAYED:
        return gettext("Match, battle %(n)d of 2, not rated: no move was played") % {"n": number}
    if reason == CasualMatch.UnratedReason.BOT:
        return gettext("Match, battle %(n)d of 2, not rated: a bot account plays a person") % {
            "n": number
        }
    return gettext("Match, battle %(n)d of 2") % {"n": number}
