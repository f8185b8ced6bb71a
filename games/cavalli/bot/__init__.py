"""A Battaglia di Cavalli computer player (pure Python).

:func:`choose_move` in :mod:`.levels` is the entry point; :mod:`.search` holds the
iterative-deepening alpha-beta search and :mod:`.evaluate` the evaluation. The command
line is ``python -m games.cavalli bot`` (:mod:`games.cavalli.cli`).
"""

from __future__ import annotations

from games.cavalli.bot.levels import LEVELS, BotChoice, choose_move
from games.cavalli.bot.search import SearchResult

__all__ = ["LEVELS", "BotChoice", "SearchResult", "choose_move"]
