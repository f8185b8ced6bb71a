from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, cast

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from . import rated

if TYPE_CHECKING:
    from .models import CasualMatchQuerySet


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = _("Play")

    def ready(self) -> None:
        from games.events.signals import casual_battle_finished, turn_changed
        from tournaments.for_games import register_contributions

        from . import bots, matches, notify

        turn_changed.connect(notify.on_turn_changed, dispatch_uid="play.notify.turn_changed")
        casual_battle_finished.connect(
            matches.on_casual_battle_finished, dispatch_uid="play.matches.battle_finished"
        )
        # The rated casual matches, for the ratings (``tournaments.rating.sources``), and
        # who is a bot account (``tournaments.rating.bot_accounts``).
        register_contributions(rated_periods=self.rated_periods, bot_accounts=bots.bots_among)

    def rated_periods(self, game: str) -> list[tuple[int, datetime, int, int, int]]:
        """``(match_id, ended_at, user_a_id, user_b_id, differential_a)`` for every
        finished rated casual match of ``game``, ordered by (ended_at, match_id): what the
        ratings adapter reads of casual play (``play.rated``)."""
        matches = self.get_model("CasualMatch")._default_manager.all()
        return rated.rated_periods(cast("CasualMatchQuerySet", matches), game)
