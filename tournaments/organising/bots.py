"""Entering a bot account in a tournament: the organiser's word, where the tournament allows it.

Terminology and invariants:
- A *bot account* is a user an app says is one (``rating.bot_accounts``: ``play`` knows);
  with no app registered, nobody is, and no bot can be entered.
- Only the organiser enters a bot, by its username, and only in a tournament with
  ``allow_bots`` that is not closed. A bot never enters itself, and never claims a player
  (``accounts.claims`` refuses a bot's claim): its Player is the one linked to it, made
  here in its username's name when it has none, so the bot plays as itself and nobody
  else's record.
- A refusal (``BotEntryError``, translated, for the organiser) changes nothing: no such
  user, not a bot account, bots not allowed, the tournament closed, the bot or a player
  of its name already entered.
- The entry is written as ``imports.enter_player`` writes one: the tournament's state
  version bumped first (its row locked, so the checks of ``allow_bots`` and the status
  are read under the lock the settings page saves them under), then the next seed.
- A bot's matches are never rated (``rating.sources``); turning ``allow_bots`` off while
  it plays is refused (``settings_changes``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models.people import Player
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.imports import next_seed
from tournaments.rating.bot_accounts import bots_among

NAME_MAX = Player._meta.get_field("name").max_length


class BotEntryError(ValueError):
    """A bot account that cannot be entered; the message says why, for the organiser."""


def enter_bot(tournament: Tournament, *, username: str) -> Entry:
    """Enter the bot account ``username`` with the next seed, as its own Player."""
    username = username.strip()
    bot = get_user_model().objects.filter(username=username).first()
    with transaction.atomic():
        bump_state_version(tournament.pk)  # the tournament row first, as every writer
        t = Tournament.objects.get(pk=tournament.pk)
        if t.status == Tournament.Status.FINISHED:
            raise BotEntryError(_("The tournament is closed."))
        if not t.allow_bots:
            raise BotEntryError(
                _("This tournament does not allow bot accounts: allow them in its settings first.")
            )
        if bot is None:
            raise BotEntryError(_("No user named %(name)s.") % {"name": username})
        if not bots_among([bot.pk]):
            raise BotEntryError(
                _(
                    "%(name)s is not a bot account; a person is entered with the "
                    "add-player form, or claims their player."
                )
                % {"name": username}
            )
        player = Player.objects.filter(user=bot).first()
        name = player.name if player is not None else username[:NAME_MAX]
        if t.entries.filter(Q(player__user=bot) | Q(player__name__iexact=name)).exists():
            raise BotEntryError(_("%(name)s is already entered.") % {"name": name})
        if player is None:
            player, _created = Player.objects.get_or_create(user=bot, defaults={"name": name})
        return Entry.objects.create(tournament=t, player=player, seed=next_seed(t))
