"""Tiny's playing levels 1-5 and :func:`choose_move`, the bot's one entry point.

The table is this game's; the checks and the weak pick are every engine's
(``games.rules.bot_levels``). Level 5 searches the whole game tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.bot_levels import Level, depth_cap, level_of, pick
from tests.games.tiny.bot.search import MAX_DEPTH, Clock, SearchResult, search
from tests.games.tiny.core.position import Move, Position

LEVELS: dict[int, Level] = {
    1: Level(budget_share=0.3, max_depth=1, top=4, margin=300, blunder_rate=0.3),
    2: Level(budget_share=0.5, max_depth=2, top=3, margin=100, blunder_rate=0.1),
    3: Level(budget_share=0.5, max_depth=3, top=1, margin=0, blunder_rate=0.0),
    4: Level(budget_share=0.6, max_depth=6, top=1, margin=0, blunder_rate=0.0),
    5: Level(budget_share=1.0, max_depth=MAX_DEPTH, top=1, margin=0, blunder_rate=0.0),
}


@dataclass(frozen=True)
class BotChoice:
    move: Move
    result: SearchResult


def choose_move(
    position: Position,
    *,
    level: int = 5,
    seed: int = 0,
    clock: Clock,
    budget_ms: float = 1000,
    max_depth: int | None = None,
    plies_left: int | None = None,
) -> BotChoice:
    """The move of ``level`` for the side to move; ``ValueError`` if it has none, for an
    unknown level or a ``plies_left`` below 1.

    >>> choose_move(Position.initial(), level=5, clock=lambda: 0.0).result.depth  # exact
    10
    """
    spec = level_of(LEVELS, level, plies_left)
    result = search(
        position,
        clock=clock,
        budget_ms=budget_ms * spec.budget_share,
        max_depth=depth_cap(spec, max_depth),
        plies_left=plies_left,
    )
    return BotChoice(pick(spec, seed, result.move, result.scores), result)
