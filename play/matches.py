"""Casual matches: two battles with sides swapped between two users, like a tournament
match, made by accepting a challenge with *rated match* (``play.challenges.accept``).

Terminology and invariants:
- *A* is the user with the first side in battle 1; B has it in battle 2. Battle 2 is
  created when battle 1 ends (``games.signals.casual_battle_finished``), on the same
  board (``board_seed``), and waits for both players as a tournament's battle 2 does
  (``games.battles.finishing.tell_next``, ``games.presence``).
- The match's *result* is A's differential over both battles, scored as a tournament
  match's (``tournaments.for_games.match_differential``). It and ``ended_at`` are written
  once, by one conditional ``UPDATE ... WHERE status = 'playing'``, in the transaction
  that ends battle 2; a rated match then tells the ratings (``rating_hook``) after commit.
- A battle cancelled because a player never came (a no-show) cancels the match: no
  battle 2, no result, no rating period.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from games.battles.finishing import tell_next
from games.battles.starting import create_casual_battle
from games.models.battle import DAY_MS, Battle
from tournaments.for_games import match_differential

from . import rating_hook
from .models import CasualMatch


def start_match(
    *, game: str, first, second, timing: str, days: int, rated: bool = True, now: datetime
) -> CasualMatch:
    """Create battle 1 (``first`` moves first; a timed one waits for both players) and its
    match. Raises ``games.battles.errors.NotAllowed`` as ``create_casual_battle`` does."""
    battle = create_casual_battle(
        game=game,
        first=first,
        second=second,
        timing=timing,
        days=days,
        await_players=True,
        now=now,
    )
    return CasualMatch.objects.create(
        user_a=first,
        user_b=second,
        game=battle.game,
        rated=rated,
        battle_1=battle,
        created_at=now,
    )


def on_casual_battle_finished(sender, *, battle: Battle, now: datetime, **kwargs) -> None:
    """A casual battle just ended (inside its transaction): follow its match, if any."""
    match = (
        CasualMatch.objects.select_for_update()
        .filter(_either(battle.pk), status=CasualMatch.Status.PLAYING)
        .first()
    )
    if match is None:
        return  # a single casual battle, or a match already settled
    if battle.is_cancelled:
        CasualMatch.objects.filter(pk=match.pk, status=CasualMatch.Status.PLAYING).update(
            status=CasualMatch.Status.CANCELLED
        )
    elif battle.pk == match.battle_1_id:
        _open_second(match, battle, now=now)
    else:
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
    differential = match_differential(b1.result_numbers, b2.result_numbers, game=match.game)
    written = CasualMatch.objects.filter(pk=match.pk, status=CasualMatch.Status.PLAYING).update(
        status=CasualMatch.Status.ENDED, ended_at=now, differential_a=differential
    )
    if written != 1:
        return False
    if match.rated:
        game = match.game
        transaction.on_commit(lambda: rating_hook.on_rated_match_end(game, now))
    return True


def _either(battle_id: int) -> Q:
    return Q(battle_1=battle_id) | Q(battle_2=battle_id)


def of_battle(battle: Battle) -> CasualMatch | None:
    """The casual match ``battle`` belongs to (``None``: a single battle)."""
    if not battle.is_casual:
        return None
    return CasualMatch.objects.select_related("user_a", "user_b").filter(_either(battle.pk)).first()


def numbers_of(battle_ids: list[int]) -> dict[int, tuple[int, bool]]:
    """For each of ``battle_ids`` that belongs to a casual match: (1 or 2, whether the
    match is rated), in one query."""
    rows = CasualMatch.objects.filter(
        Q(battle_1__in=battle_ids) | Q(battle_2__in=battle_ids)
    ).values_list("battle_1", "battle_2", "rated")
    numbers: dict[int, tuple[int, bool]] = {}
    for first, second, rated in rows:
        numbers[first] = (1, rated)
        if second is not None:
            numbers[second] = (2, rated)
    return numbers


def label(number: int, *, rated: bool) -> str:
    """ "Rated match, battle 1 of 2"."""
    if rated:
        return gettext("Rated match, battle %(n)d of 2") % {"n": number}
    return gettext("Match, battle %(n)d of 2") % {"n": number}
