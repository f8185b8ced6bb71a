"""Playing levels 1-5 and :func:`choose_move`, the bot's one entry point.

Every level runs the same search (:mod:`.search`); a level sets its share of the time
budget, a depth cap, and for the weak levels a seeded choice among the top moves with a
blunder rate (a uniformly random legal move). Level 5 is the full search within its
budget. For a given seed the choice is deterministic whenever the search is bounded by
depth or nodes rather than by the clock (see :mod:`.search`). The table ``LEVELS`` is this game's; the
checks and the pick are shared with the other engines (``games.rules.bot_levels``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.bot_levels import Level, depth_cap, level_of, pick
from games.thud.bot.moves import Clock, SearchResult
from games.thud.bot.search import search
from games.thud.core.base import CapturePolicy, Move, Side
from games.thud.core.position import Position

LEVELS: dict[int, Level] = {
    1: Level(budget_share=0.5, max_depth=1, top=8, margin=300, blunder_rate=0.3),
    2: Level(budget_share=0.6, max_depth=1, top=4, margin=120, blunder_rate=0.1),
    3: Level(budget_share=0.35, max_depth=1, top=1, margin=0, blunder_rate=0.0),
    4: Level(budget_share=0.35, max_depth=2, top=1, margin=0, blunder_rate=0.0),
    5: Level(budget_share=1.0, max_depth=64, top=1, margin=0, blunder_rate=0.0),
}


@dataclass(frozen=True)
class BotChoice:
    move: Move
    result: SearchResult


def choose_move(
    position: Position,
    policy: CapturePolicy | str = CapturePolicy.SUBSET,
    *,
    level: int = 5,
    seed: int = 0,
    clock: Clock,
    budget_ms: float = 1000,
    max_depth: int | None = None,
    node_limit: int | None = None,
    plies_left: int | None = None,
) -> BotChoice:
    """A legal move for the side to move; ``ValueError`` if it has none.

    ``max_depth`` lowers the level's depth cap; ``plies_left`` is the number of plies
    before the move limit ends the battle (``None``: no limit).
    """
    spec = level_of(LEVELS, level, plies_left)
    policy_value = CapturePolicy(policy).value
    depth = depth_cap(spec, max_depth)
    dwarf_turn = position.side_to_move is Side.DWARF
    result = search(
        position._d,
        position._t,
        dwarf_turn,
        policy_value,
        clock=clock,
        budget_ms=budget_ms * spec.budget_share,
        max_depth=depth,
        node_limit=node_limit,
        plies_left=plies_left,
        all_scores=spec.weak,
    )
    raw = pick(spec, seed, result.move, result.scores)
    return BotChoice(move=position._to_moves([raw])[0], result=result)
