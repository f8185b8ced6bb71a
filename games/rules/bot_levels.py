"""The computer's playing levels, whatever the game: each engine's table and its weak pick.

Every engine's bot runs one search per move (its own ``bot/search.py``); a level (1-5)
sets the share of the time budget the search may use, a depth cap, and for the weak
levels (``top`` above 1) a seeded choice among the best root moves with a blunder rate
(a uniformly random legal move). Each engine keeps its own numbers (``bot/levels.py``);
the checks and the pick are this module's, so that both games' levels behave alike. Pure:
the choice depends on the seed and the scores only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

RawMove = TypeVar("RawMove")


@dataclass(frozen=True)
class Level:
    budget_share: float
    max_depth: int
    #: Pick uniformly among the moves scoring within ``margin`` of the best, up to ``top``.
    top: int
    margin: int
    blunder_rate: float

    @property
    def weak(self) -> bool:
        """Whether this level picks among the top moves (the search must score them all)."""
        return self.top > 1


def level_of(levels: Mapping[int, Level], level: int, plies_left: int | None) -> Level:
    """``levels[level]``; ``ValueError`` for an unknown level or a ``plies_left`` below 1."""
    if level not in levels:
        raise ValueError(f"level must be 1 to 5, not {level}")
    if plies_left is not None and plies_left < 1:
        raise ValueError("plies_left must be at least 1")
    return levels[level]


def depth_cap(spec: Level, max_depth: int | None) -> int:
    """The search's depth cap: the level's, lowered to ``max_depth`` if given."""
    return spec.max_depth if max_depth is None else min(max_depth, spec.max_depth)


def pick(spec: Level, seed: int, best: RawMove, scores: Sequence[tuple[RawMove, int]]) -> RawMove:
    """The move a level plays: the search's ``best`` at a strong level; at a weak one, with
    probability ``blunder_rate`` any scored move, else one of the first ``top`` moves
    within ``margin`` of the best score (``scores`` best first), chosen by ``seed``.

    >>> weak = Level(budget_share=1.0, max_depth=1, top=3, margin=10, blunder_rate=0.0)
    >>> pick(weak, 0, "a", [("a", 50), ("b", 45), ("c", 30)]) in {"a", "b"}
    True
    >>> pick(Level(1.0, 9, top=1, margin=0, blunder_rate=0.0), 0, "a", [])
    'a'
    """
    if not spec.weak:
        return best
    rng = random.Random(seed)
    if rng.random() < spec.blunder_rate:
        return rng.choice([m for m, _ in scores])
    top = scores[0][1]
    near = [m for m, v in scores[: spec.top] if v >= top - spec.margin]
    return rng.choice(near)
