from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from games.engines import registry
from games.rules.interface import Game


def register_engines() -> list[Game]:
    """The engines of the games the settings list (``settings.GAMES``), into the registry:
    before any model is defined (a battle's game is read through the registry); then every
    game there is."""
    for engine, _presentation in settings.GAMES:
        registry.register(import_string(engine))
    return registry.all_games()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    #: Each game's result scale, offered to ``tournaments`` (which never imports games) as
    #: its ``GameScale`` protocol: what a match result's numbers mean. Read before any model
    #: is defined, so declared here rather than registered in ``ready``.
    game_scales = tuple(
        scale
        for scale in (getattr(game, "tournament_scale", None) for game in register_engines())
        if scale is not None
    )

    def ready(self) -> None:
        from games.archive import section as archive_battles
        from games.battles import joining, unplayed
        from games.bots import moves as bots
        from games.events import publish, signals
        from games.web import presentations
        from tournaments.for_games import (
            attendance_changed,
            register_contributions,
            round_published,
        )

        # How each game is drawn: its web module's presentation.
        presentations.register(*(import_string(shown) for _engine, shown in settings.GAMES))

        # The archive's battles section (it needs the models) and which matches were
        # decided without play (not rated), for tournaments.
        register_contributions(
            archive_sections=(archive_battles.SECTION,),
            matches_without_play=unplayed.matches_without_play,
        )

        round_published.connect(
            joining.on_round_published, dispatch_uid="games.joining.round_published"
        )
        signals.turn_changed.connect(bots.on_turn_changed, dispatch_uid="games.bots.turn_changed")
        signals.end_offered.connect(bots.on_end_offered, dispatch_uid="games.bots.end_offered")
        attendance_changed.connect(
            publish.on_attendance_changed, dispatch_uid="games.publish.attendance_changed"
        )
