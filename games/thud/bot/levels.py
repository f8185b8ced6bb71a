"""Playing levels 1-5 and :func:`choose_move`, the bot's one entry point.

Every level runs the same search (:mod:`.search`); a level sets its share of the time
budget, a depth cap, and for the weak levels a seeded choice among the top moves with a
blunder rate (a uniformly random legal move). Level 5 is the full search within its
budget. For a given seed the choice is deterministic whenever the search is bounded by
depth or nodes rather than by the clock (see :mod:`.search`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.thud.bot.moves import Clock, SearchResult
from games.thud.bot.search import search
from games.thud.core.base import CapturePolicy, Move, Side
from games.thud.core.position import Position


@dataclass(frozen=True)
class Level:
    budget_share: float
    max_depth: int
    #: Pick uniformly among the moves scoring within ``margin`` of the best, up to ``top``.
    top: int
    margin: int
    blunder_rate: float


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
    if level not in LEVELS:
        raise ValueError(f"level must be 1 to 5, not {level}")
    if plies_left is not None and plies_left < 1:
        raise ValueError("plies_left must be at least 1")
    policy_value = CapturePolicy(policy).value
    spec = LEVELS[level]
    depth = spec.max_depth if max_depth is None else min(max_depth, spec.max_depth)
    rng = random.Random(seed)
    dwarf_turn = position.side_to_move is Side.DWARF
    weak = spec.top > 1
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
        all_scores=weak,
    )
    raw = result.move
    if weak:
        if rng.random() < spec.blunder_rate:
            raw = rng.choice([m for m, _ in result.scores])
        else:
            best = result.scores[0][1]
            near = [m for m, v in result.scores[: spec.top] if v >= best - spec.margin]
            raw = rng.choice(near)
    return BotChoice(move=position._to_moves([raw])[0], result=result)
