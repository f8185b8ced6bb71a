"""A Thud computer player for every capture policy and both sides (pure Python).

:func:`choose_move` in :mod:`.levels` is the entry point; :mod:`.search` holds the
iterative-deepening alpha-beta search, :mod:`.moves` the moves it tries and what it returns,
and :mod:`.evaluate` the evaluation. The command line is ``python -m games.thud bot``
(:mod:`games.thud.cli`).
"""

from __future__ import annotations

from games.thud.bot.levels import LEVELS, BotChoice, choose_move
from games.thud.bot.moves import SearchResult

__all__ = ["LEVELS", "BotChoice", "SearchResult", "choose_move"]
