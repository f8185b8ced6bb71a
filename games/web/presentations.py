"""The games' presentations (:class:`games.rules.presentation.Presentation`), by game key.

Each game's web module declares its presentation; ``GamesConfig.ready`` registers them
here (:func:`register`), and the pages find a battle's by its game (:func:`of`). This
module names no game.
"""

from __future__ import annotations

from games.rules.interface import Game
from games.rules.presentation import Presentation

_BY_KEY: dict[str, Presentation] = {}


def register(*presentations: Presentation) -> None:
    """Add each game's presentation (the last one registered for a key wins)."""
    for presentation in presentations:
        _BY_KEY[presentation.game] = presentation


def of(game: Game) -> Presentation:
    """``game``'s presentation; ``LookupError`` for a game nobody presented."""
    try:
        return _BY_KEY[game.key]
    except KeyError:
        raise LookupError(f"no presentation registered for the game {game.key!r}") from None


def registered() -> tuple[Presentation, ...]:
    return tuple(_BY_KEY.values())
