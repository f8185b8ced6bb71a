"""Tiny's computer player: :func:`choose_move` (:mod:`.levels`) over the search (:mod:`.search`)."""

from __future__ import annotations

from tests.games.tiny.bot.levels import LEVELS, BotChoice, choose_move

__all__ = ["LEVELS", "BotChoice", "choose_move"]
