"""Bot accounts: accounts a program plays through the API (a token with the "bot" scope).

Terminology and invariants:
- A *bot account* is a user whose profile has ``is_bot`` (``accounts.UserProfile``); a
  user without a profile row is a *person*, as is one whose flag is off.
- A user turns their own account into a bot account once (``become_bot``), and only
  before it has played: while it has no battle, casual or in a tournament, no tournament
  match, and no live challenge or seek, made or received. The flag is never turned off
  (``BotRefused`` for a second time), so a rating earned as a person never becomes a
  bot's, nor the other way round.
- Why here and not in ``accounts``: whether a user has played is the games' and the
  tournaments' knowledge, which ``accounts`` may not import; ``play`` may.
- A match between a bot account and a person is never rated (``play.matches``); two
  bots' match is, in the bots' own pool only: the engine league (``play.league``), never
  the people's ratings (``play.rated``).
- In a tournament, a bot account plays only where its organiser allows bots and entered
  it (``tournaments.organising.bots``: ``bots_among`` tells the tournaments who is one);
  a tournament match with a bot on either side is never rated, not even two bots' (the
  bots' pool is casual play only).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import UserProfile
from games.models.battle import Battle
from tournaments.for_games import Entry, Match

from .models import Challenge


class BotRefused(ValueError):
    """The account cannot become a bot account; the message says why, for its owner."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def is_bot(user) -> bool:
    """Whether ``user`` (a user, or ``None``) is a bot account. Reads ``user.profile``
    once (Django remembers it, even when missing: ``select_related("…__profile")`` makes
    it no query at all); no profile means a person."""
    if user is None or getattr(user, "pk", None) is None:
        return False
    try:
        return bool(user.profile.is_bot)
    except ObjectDoesNotExist:
        return False


def bots_among(user_ids: Sequence[int]) -> set[int]:
    """Which of ``user_ids`` are bot accounts, in one query: what the tournaments read
    (``tournaments.contributions.BotAccounts``, registered by ``PlayConfig``) to rate no
    bot's tournament match and to enter bots only where the organiser allows them."""
    bots = UserProfile.objects.filter(user_id__in=user_ids, is_bot=True)
    return set(bots.values_list("user_id", flat=True))


def against_a_person(first, second) -> bool:
    """Whether one of the two users is a bot account and the other a person."""
    return is_bot(first) != is_bot(second)


def has_played(user) -> bool:
    """Whether ``user`` has a seat in any battle (casual, against the computer, or in a
    tournament through their player's entries) or a tournament match, played or not."""
    seated = Battle.objects.filter(
        Q(first_user=user)
        | Q(second_user=user)
        | Q(first_entry__player__user=user)
        | Q(second_entry__player__user=user)
    )
    paired = Match.objects.filter(Q(player_a__player__user=user) | Q(player_b__player__user=user))
    return seated.exists() or paired.exists()


def become_bot(user, *, now: datetime) -> None:
    """Turn ``user``'s account into a bot account for good, at ``now``; ``BotRefused``
    (nothing changed) when it has played, has a live challenge or seek, or is one already.

    Locks the user's row first, as ``play.challenges`` does before counting offers, so a
    challenge made or accepted at the same moment waits and is then seen here."""
    with transaction.atomic():
        list(get_user_model().objects.select_for_update().filter(pk=user.pk))
        profile, _created = UserProfile.objects.get_or_create(user=user)
        if profile.is_bot:
            raise BotRefused(_("This account is a bot account already."))
        if has_played(user):
            raise BotRefused(
                _(
                    "This account has played already, so it cannot become a bot account: "
                    "make a new account for the bot."
                )
            )
        if Entry.objects.filter(player__user=user).exists():
            # A person's entry: the tournament may not allow bots, and its organiser
            # entered a person (``tournaments.organising.bots`` enters bots).
            raise BotRefused(
                _(
                    "This account is entered in a tournament as a person, so it cannot "
                    "become a bot account: make a new account for the bot."
                )
            )
        if Challenge.objects.live(now).filter(Q(challenger=user) | Q(opponent=user)).exists():
            raise BotRefused(
                _(
                    "This account has open challenges or seeks: withdraw or answer them "
                    "first, then it can become a bot account."
                )
            )
        UserProfile.objects.filter(pk=profile.pk, is_bot=False).update(
            is_bot=True, became_bot_at=now
        )
        # The caller's user object reads the new flag too (``is_bot(user)``).
        profile.is_bot, profile.became_bot_at = True, now
        user.profile = profile
