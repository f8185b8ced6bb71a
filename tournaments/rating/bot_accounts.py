"""Which users are bot accounts: an app's contribution, read by the ratings and the organiser.

Terminology and invariants:
- A *bot account* is a user a program plays through (``play.bots``: its owner flagged it
  so); this app cannot tell one from a person by itself (it imports neither ``accounts``
  nor ``play``), so an app that knows says which of some users are bots, through a
  ``BotAccounts`` it registered with ``tournaments.contributions``.
- With no app registered, nobody is a bot: every user is a person, as before bots.
- Read by the ratings (``rating.sources``: a tournament match with a bot on either side is
  never rated), and, from the rooms above, by the organiser's entry of a bot
  (``organising.bots``), the ``allow_bots`` setting's guard and a withdrawn bot's
  reinstatement (``rounds.edits``). It lives here, in the lowest room that reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol


class BotAccounts(Protocol):
    """Which of some users (by id) are bot accounts."""

    def __call__(self, user_ids: Sequence[int], /) -> set[int]: ...


#: What the apps registered (``tournaments.contributions.register``), in that order.
judges: list[BotAccounts] = []


def bots_among(user_ids: Iterable[int | None]) -> set[int]:
    """The users among ``user_ids`` (``None``: a player without an account, a person) that
    a registered app says are bot accounts; no query at all for no user.

    >>> bots_among([None])
    set()
    """
    ids = sorted({pk for pk in user_ids if pk is not None})
    found: set[int] = set()
    if ids:
        for judge in judges:
            found |= judge(ids)
    return found
