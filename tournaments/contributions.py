"""What other apps contribute to the tournaments, and the one place they register it.

Terminology and invariants:
- This app knows no other app (it never imports ``games`` or ``play``); they contribute
  through typed protocols, each kept by the room that reads it:
  ``ArchiveSection`` (a section of the tournament archive, ``archive.sections``),
  ``MatchesWithoutPlay`` (which matches were decided without play, so not rated),
  ``RatedPeriods`` (an app's rated casual matches; both ``rating.sources``) and
  ``BotAccounts`` (which users are bot accounts, ``rating.bot_accounts``: their matches
  are never rated, and an organiser may enter one only where bots are allowed; with no
  app registered, nobody is a bot).
- An app registers them with :func:`register`, from its ``AppConfig.ready`` (they need the
  app's models), through the door (``for_games.register_contributions``).
- The games' result scales (``GameScale``, ``rules.scales``) are the one contribution
  declared on the app config instead (``OffersGameScales``: ``GamesConfig.game_scales``):
  the result models' choices and database check need them when the models are defined,
  before any ``ready``. ``TournamentsConfig.import_models`` registers them, once, before it
  imports this app's models.
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.archive import sections
from tournaments.archive.sections import ArchiveSection
from tournaments.rating import bot_accounts as bots
from tournaments.rating import sources
from tournaments.rating.bot_accounts import BotAccounts
from tournaments.rating.sources import MatchesWithoutPlay, RatedPeriods
from tournaments.rules.scales import GameScale, OffersGameScales

__all__ = [
    "ArchiveSection",
    "BotAccounts",
    "GameScale",
    "MatchesWithoutPlay",
    "OffersGameScales",
    "RatedPeriods",
    "register",
]


def register(
    *,
    archive_sections: Iterable[ArchiveSection] = (),
    matches_without_play: MatchesWithoutPlay | None = None,
    rated_periods: RatedPeriods | None = None,
    bot_accounts: BotAccounts | None = None,
) -> None:
    """Register an app's contributions (call once, from its ``AppConfig.ready``)."""
    sections.register(archive_sections)
    if matches_without_play is not None and matches_without_play not in sources.judges:
        sources.judges.append(matches_without_play)
    if rated_periods is not None and rated_periods not in sources.offers:
        sources.offers.append(rated_periods)
    if bot_accounts is not None and bot_accounts not in bots.judges:
        bots.judges.append(bot_accounts)
