from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournaments.survivors import GameScale, register_game

from . import registry


def register_tournament_scales() -> None:
    """Hand each game's tournament scale down to ``tournaments`` (which never imports
    games, DESIGN.md §7a): what its result numbers mean and the words of its sides."""
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
                    names=scale.names,
                    names_each=scale.names_each,
                    numbers_name=scale.numbers_name,
                    options=scale.options,
                )
            )


# At import, not in ``ready()``: Django imports every app config before any model, and
# ``tournaments.models`` builds its choices and its database check of the result numbers
# from the registered scales.
register_tournament_scales()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
