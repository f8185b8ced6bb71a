from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournaments.survivors import GameScale, register_game

from . import registry


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Tournaments never import games (DESIGN.md §7a): each game that declares a
        # tournament scale hands it down here. Thud's scale is built into
        # ``tournaments.survivors``, where its result columns were born.
        for game in registry.all_games():
            scale = getattr(game, "tournament_scale", None)
            if scale is not None:
                register_game(
                    GameScale(
                        game=game.key,
                        name=game.name,
                        limits=scale.limits,
                        weights=scale.weights,
                        labels=scale.labels,
                        form_labels=scale.form_labels,
                        wording=scale.wording,
                    )
                )
