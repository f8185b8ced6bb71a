"""Playing the computer: a casual battle against the site's computer user (``games.bots.moves``).

The battle starts at once (the computer is always there: no wait for the players), on
the casual quickfire clock or with no clock at all.

Quickfire is the move limit, with or without the clock (the seed's two ways of playing
"Quickfire" Thud: a number of moves, or a number of moves on a 15 s + 5 s clock): both
``QUICKFIRE`` (on the clock) and ``UNTIMED`` (no clock) end after the player's choice of
24 or 30 moves per side and are scored as they stand. ``CLASSIC`` is the game as its
rules have it: no clock and no move limit, played to its end. One unfinished battle against the
computer per player at a time (counted under a lock on the player's row, so two requests
at once cannot both start one). Such battles are never rated and count in no statistics
(``play.queries``); the player's results against the computer are shown apart.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.battles.errors import BattleError
from games.battles.starting import check_move_limit, create_casual_battle
from games.bots import moves as bots
from games.engines import registry
from games.models.battle import DEFAULT_MOVE_LIMIT, Battle

#: Who moves first: the player, the computer, or a coin.
YOU_FIRST, COMPUTER_FIRST, RANDOM = "you", "computer", "random"
SIDES = (YOU_FIRST, COMPUTER_FIRST, RANDOM)
#: The time controls: quickfire on the casual clock, quickfire with no clock, or a
#: classic game (no clock, no move limit).
QUICKFIRE, UNTIMED, CLASSIC = "quickfire", "untimed", "classic"
TIME_CONTROLS = (QUICKFIRE, UNTIMED, CLASSIC)
#: Unfinished battles against the computer a player may have at once.
MAX_UNFINISHED = 1


class ComputerError(Exception):
    """A refused start; ``message`` is shown to the player and nothing was created."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def games_offered() -> list:
    """The games the computer plays (their rules are a ``BotGame``), in the registry's order."""
    return [game for game in registry.all_games() if bots.plays(game)]


def unfinished(user) -> QuerySet[Battle]:
    """``user``'s battles against the computer that are not over."""
    return Battle.objects.filter(
        Q(first_user=user) | Q(second_user=user), match__isnull=True, bot_level__isnull=False
    ).exclude(status=Battle.Status.FINISHED)


def start(
    *,
    by,
    game: str,
    level: int,
    side: str,
    time_control: str,
    move_limit: int | None = DEFAULT_MOVE_LIMIT,
    now: datetime,
    coin: Callable[[], bool] = lambda: bool(secrets.randbelow(2)),
) -> Battle:
    """Start ``by``'s battle against the computer; ``coin()`` decides who moves first for
    ``side == RANDOM`` (True: the player). ``move_limit``: moves per side of a quickfire
    battle (``CASUAL_MOVE_LIMITS``), ignored by a classic one."""
    if game not in {g.key for g in games_offered()}:
        raise ComputerError(_("The computer does not play this game."))
    if level not in bots.LEVELS:
        raise ComputerError(_("Choose a level from 1 to 5."))
    if side not in SIDES:
        raise ComputerError(_("Choose your side."))
    if time_control not in TIME_CONTROLS:
        raise ComputerError(_("Choose quickfire, quickfire without a clock, or classic."))
    if time_control != CLASSIC:
        try:
            check_move_limit(move_limit)
        except BattleError as exc:
            raise ComputerError(exc.message) from None
    rules = registry.get(game)
    you_first = side == YOU_FIRST or (side == RANDOM and coin())
    with transaction.atomic():
        # The player's row locked: two starts at once count one after the other.
        list(get_user_model().objects.select_for_update().filter(pk=by.pk))
        if unfinished(by).count() >= MAX_UNFINISHED:
            raise ComputerError(
                _(
                    "You already have a battle against the computer that is not over: "
                    "finish it first."
                )
            )
        computer = bots.computer_user()
        first, second = (by, computer) if you_first else (computer, by)
        try:
            return create_casual_battle(
                game=rules.key,
                first=first,
                second=second,
                timing=Battle.Timing.QUICKFIRE,
                timed=time_control == QUICKFIRE,
                move_limit=None if time_control == CLASSIC else move_limit,
                bot_level=level,
                bot_side=rules.sides[1 if you_first else 0].key,
                now=now,
            )
        except BattleError as exc:
            raise ComputerError(exc.message) from None
