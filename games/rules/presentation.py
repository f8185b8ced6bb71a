"""How a game is drawn on the site: the typed declaration a game's web module makes.

Pure (no Django), like the engine's :class:`~games.rules.interface.Game`: the templates are
names (under ``templates/``), the style sheet a path under ``static/``, and the presenters
plain callables the game's web module defines (``games/web/presenters_<game>.py`` for the
built-in games). The web room finds a battle's presentation by its game's key
(``games.web.presentations``); nothing names a game's module by a dotted string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``(battle, side, *, now, **kw) -> context`` of the battle page's board panel.
BoardContext = Callable[..., dict[str, Any]]
#: ``(battle, moves, ply) -> context`` of the replay page at ``ply``.
ReplayContext = Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class Presentation:
    """One game's pages: ``game`` is the key of its engine (``Game.key``).

    ``board_template`` draws a board (with the context of ``board_context``);
    ``page_assets`` is a template included once on a page that draws boards (shared SVG
    symbols), or ""; ``stylesheet`` the board's style sheet; ``rules_template`` the rules
    page (``/rules/<key>/``), drawn with the context of ``rules_context()``. A game with a
    replay page has ``replay_context`` and ``replay_diagram_context`` (``(battle, moves,
    ply, *, now)``, the printable diagram after ``ply`` plies); without them, ``None``."""

    game: str
    board_template: str
    stylesheet: str
    rules_template: str
    board_context: BoardContext
    rules_context: Callable[[], dict[str, Any]]
    page_assets: str = ""
    replay_context: ReplayContext | None = None
    replay_diagram_context: ReplayContext | None = None
