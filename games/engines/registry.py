"""Which games exist: ``get(key, **options)`` and ``all_games()``.

The registry names no game: the site adds the games its settings list (``settings.GAMES``,
one line a game, the built-in ones among them) with :func:`register`, when the games app is
set up (``games.apps.register_engines``), before any model.

Options configure the rules of one battle (Thud's ``capture_policy``); a game ignores
options it does not know, so a battle can pass its stored settings to any game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.interface import Game

_FACTORIES: dict[str, Callable[..., Game]] = {}
#: The default of a battle's and a challenge's game (frozen into their migrations): the
#: first game of ``settings.GAMES``; ``tests/games/test_settings_games.py`` keeps them equal.
DEFAULT = "thud"


class UnknownGame(KeyError):
    pass


def register(factory: Callable[..., Game]) -> None:
    """Add a game: its ``Game`` class (or any callable taking the battle's options).

    >>> before = [game.key for game in all_games()]
    >>> register(type(get("thud")))  # the same game again: nothing changes
    >>> [game.key for game in all_games()] == before
    True
    """
    game = factory()
    if not isinstance(game, Game):
        raise TypeError(f"{factory!r} does not make a Game")
    _FACTORIES[game.key] = factory


def get(key: str, **options: Any) -> Game:
    """The game ``key`` configured with ``options``.

    >>> get("cavalli").key, get("thud", capture_policy="all").key
    ('cavalli', 'thud')
    """
    try:
        factory = _FACTORIES[key]
    except KeyError:
        raise UnknownGame(key) from None
    return factory(**options)


def all_games() -> list[Game]:
    return [factory() for factory in _FACTORIES.values()]


def choices() -> list[tuple[str, str]]:
    """``(key, English name)`` pairs, for model and form choices."""
    return [(game.key, game.name) for game in all_games()]
