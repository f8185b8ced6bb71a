"""Who won a battle and a match, and how: the one rule every page, the API and the
archive use (issue 42).

Terminology
-----------
- A battle is scored by its **points** (``(first side, second side)``, the game's scale).
- A battle may end by a **loss** that is not its score: a side *lost on time* (its clock
  ran out under a rule that loses the battle) or *resigned*. ``Loss(seat, how)`` says which
  side (0: the first side, 1: the second) and how.
- The **match** (two battles, sides swapped; player A has the first side in battle 1) is
  scored as the rules say: the sum of each player's points (``standings.scoring``).

The rule
--------
- A battle with a loss is won by the other side, whatever its points; any other battle by
  the side with more points (equal points: nobody).
- A match in which one player lost a battle on time or by resigning, and the other did
  not, is lost by that player: a loss on time or a resignation must never win a match. Its
  differential is the summed one when that already says so, else 1 for the other player
  (as a player who never joined battle 2 loses: ``play.matches``). Otherwise (no such
  loss, or one by each player) the summed points decide.

No database and no Django: plain values in, plain values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import MatchScore, score

__all__ = ["LOST_ON_TIME", "RESIGNED", "Loss", "MatchDecision", "battle_winner", "decide"]

LOST_ON_TIME = "lost_on_time"
RESIGNED = "resigned"
#: Whether a decision is by the summed points or by a loss.
BY_TOTAL = "total"


@dataclass(frozen=True)
class Loss:
    """A battle lost other than by its score: ``seat`` 0 (first side) or 1, ``how``."""

    seat: int
    how: str  # LOST_ON_TIME | RESIGNED


def battle_winner(points: tuple[int, int], loss: Loss | None = None) -> int | None:
    """The seat (0 or 1) that won a battle with these points, ``None`` for a draw.

    >>> battle_winner((30, 32)), battle_winner((30, 32), Loss(1, LOST_ON_TIME))
    (1, 0)
    >>> battle_winner((5, 5)) is None
    True
    """
    if loss is not None:
        return 1 - loss.seat
    first, second = points
    return None if first == second else 0 if first > second else 1


@dataclass(frozen=True)
class MatchDecision:
    """A match's outcome from A's point of view, and how it was decided."""

    score: MatchScore
    differential: int  # A's, as recorded (its sign is the outcome)
    outcome: str  # "a" | "b" | "draw"
    by: str  # BY_TOTAL | LOST_ON_TIME | RESIGNED
    battle: int | None  # the battle whose loss decided it (1 or 2)
    totals: tuple[int, int]  # A's and B's summed points

    @property
    def loser(self) -> str | None:
        return {"a": "b", "b": "a"}.get(self.outcome)


def _player(number: int, seat: int) -> str:
    """ "a" or "b": who had ``seat`` in battle ``number`` (A has the first side in battle 1)."""
    return "a" if (seat == 0) == (number == 1) else "b"


def decide(
    result: MatchResult, losses: tuple[Loss | None, Loss | None] = (None, None)
) -> MatchDecision:
    """The match's outcome by the rule above; ``losses`` per battle (1, 2).

    A loses battle 2 on time (the second side there) though A's points are higher:

    >>> d = decide(MatchResult(30, 2, 20, 8, game="thud"), (None, Loss(1, LOST_ON_TIME)))
    >>> d.outcome, d.differential, d.by, d.battle, d.totals
    ('b', -1, 'lost_on_time', 2, (62, 28))
    >>> decide(MatchResult(30, 2, 20, 8, game="thud")).by
    'total'
    """
    scored = score(result)
    totals = (sum(scored.a_points), sum(scored.b_points))
    losers = {
        number: (_player(number, loss.seat), loss.how)
        for number, loss in enumerate(losses, start=1)
        if loss is not None
    }
    who = {player for player, _how in losers.values()}
    if len(who) == 1:
        player = who.pop()
        number = min(n for n, (p, _h) in losers.items() if p == player)
        sign = -1 if player == "a" else 1
        differential = scored.differential
        if differential * sign <= 0:
            differential = sign
        outcome = "a" if differential > 0 else "b"
        return MatchDecision(scored, differential, outcome, losers[number][1], number, totals)
    return MatchDecision(scored, scored.differential, scored.outcome, BY_TOTAL, None, totals)
