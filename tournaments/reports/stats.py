"""Statistics by side: how often the first side wins, the second side wins, or a battle
is drawn.

Terminology
-----------
- A **battle** is one half of a confirmed match (``MatchResult`` holds both). The *first
  side* moves first; each side scores its game's points (``GameScale.weights``). A
  battle is **won by the first side** when it scored more points than the second side,
  **won by the second side** when fewer, **drawn** when equal.
- A bye is no battle and an unconfirmed result is no result: callers pass only the
  ``MatchResult`` of confirmed results, whatever their source (online, over the board,
  imported).
- **Aggregate** statistics (the site, a tournament) count every battle once. **Player**
  statistics count the battles of one player, from that player's point of view: won as
  the first side, won as the second, lost, drawn. Player A of a match has the first side
  in battle 1 and the second side in battle 2.
- **Percentages** are of all battles, rounded half up to two decimals (seed 002 shows
  "white 59.92 %"); with no battle every percentage is 0.00 (``tournaments.reports.side_counts``,
  shared with the casual play statistics).
- **Average points as the first / second side**: the points scored by that side per
  battle it played; for a player, per battle the player had that side.
- **One game**: the statistics of one game's results (``SideStats.game``; never a mix).
  The pages name the sides with its ``wording``, the API keys with its ``names``
  (``SideStats.as_json``, a stable interface: DESIGN.md §8).

Pure: plain values in, a frozen ``SideStats`` out; no database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from tournaments.models.wording import words
from tournaments.reports.side_counts import HUNDREDTH, count_by_side, percentage
from tournaments.rules.result import MatchResult
from tournaments.rules.scales import api_key, scale_of

FIRST, SECOND, DRAWN = "first", "second", "drawn"
#: ``battle_winner`` as the side index of ``count_by_side``.
WINNER_INDEX = {FIRST: 0, SECOND: 1, DRAWN: None}


def average(total: int, count: int) -> Decimal:
    """``total / count`` to two decimals, half up; 0.00 when ``count`` is 0."""
    if count == 0:
        return Decimal("0.00")
    return (Decimal(total) / Decimal(count)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class SideStats:
    """Battle counts by winning side, for the site, a tournament or one player.

    ``lost`` is ``None`` for aggregate statistics (every battle someone won, someone lost).
    ``first_battles`` / ``second_battles`` are the battles in which the subject had that
    side (both equal ``battles`` for aggregates).
    """

    battles: int = 0
    first_won: int = 0
    second_won: int = 0
    drawn: int = 0
    lost: int | None = None
    first_battles: int = 0
    second_battles: int = 0
    first_points: int = 0  # total points scored by the first side
    second_points: int = 0
    #: The game of every counted result (its side names: ``words``).
    game: str = field(kw_only=True)

    @property
    def words(self) -> dict[str, str]:
        """The texts naming the game's sides, translated (``models.wording.words``)."""
        return words(scale_of(self.game))

    @property
    def first_won_pct(self) -> Decimal:
        return percentage(self.first_won, self.battles)

    @property
    def second_won_pct(self) -> Decimal:
        return percentage(self.second_won, self.battles)

    @property
    def drawn_pct(self) -> Decimal:
        return percentage(self.drawn, self.battles)

    @property
    def lost_pct(self) -> Decimal | None:
        return None if self.lost is None else percentage(self.lost, self.battles)

    @property
    def avg_first_points(self) -> Decimal:
        return average(self.first_points, self.first_battles)

    @property
    def avg_second_points(self) -> Decimal:
        return average(self.second_points, self.second_battles)

    def as_json(self) -> dict[str, object]:
        """Language-neutral figures for the API, the sides named by the game's
        ``names`` (``<name>_won``, ``avg_<each>_points``); decimals become numbers."""
        scale = scale_of(self.game)

        def key(pattern: str, side: int) -> str:
            return api_key(scale, pattern, side)

        data: dict[str, object] = {
            "battles": self.battles,
            key("{name}_won", 0): self.first_won,
            key("{name}_won", 1): self.second_won,
            "drawn": self.drawn,
            key("{name}_won_pct", 0): float(self.first_won_pct),
            key("{name}_won_pct", 1): float(self.second_won_pct),
            "drawn_pct": float(self.drawn_pct),
            key("avg_{each}_points", 0): float(self.avg_first_points),
            key("avg_{each}_points", 1): float(self.avg_second_points),
        }
        if self.lost is not None:
            lost_pct = self.lost_pct
            data.update(
                {
                    "lost": self.lost,
                    "lost_pct": float(lost_pct) if lost_pct is not None else None,
                    key("{each}_battles", 0): self.first_battles,
                    key("{each}_battles", 1): self.second_battles,
                }
            )
        return data


def battle_winner(first_points: int, second_points: int) -> str:
    """``"first"``, ``"second"`` or ``"drawn"`` for one battle's points.

    >>> battle_winner(20, 16), battle_winner(3, 4), battle_winner(8, 8)
    ('first', 'second', 'drawn')
    """
    if first_points > second_points:
        return FIRST
    if second_points > first_points:
        return SECOND
    return DRAWN


def _of_game(result: MatchResult, game: str) -> MatchResult:
    if result.game != game:
        raise ValueError(f"a {result.game} result among the statistics of {game}")
    return result


def side_stats(results: Iterable[MatchResult], *, game: str) -> SideStats:
    """Aggregate statistics over both battles of every confirmed result of ``game``.

    >>> results = [MatchResult(20, 3, 8, 2, game="thud"), MatchResult(4, 1, 10, 5, game="thud")]
    >>> s = side_stats(results, game="thud")
    >>> s.battles, s.first_won, s.second_won, s.drawn, s.first_won_pct
    (4, 1, 1, 2, Decimal('25.00'))
    """
    winners = []
    first_points = second_points = 0
    for result in results:
        _of_game(result, game)
        for number in (1, 2):
            first, second = result.battle_points(number)
            winners.append((WINNER_INDEX[battle_winner(first, second)], 1))
            first_points += first
            second_points += second
    counts = count_by_side(winners)
    return SideStats(
        battles=counts.total,
        first_won=counts.first,
        second_won=counts.second,
        drawn=counts.draws,
        first_battles=counts.total,
        second_battles=counts.total,
        first_points=first_points,
        second_points=second_points,
        game=game,
    )


def player_side_stats(results: Iterable[tuple[MatchResult, str]], *, game: str) -> SideStats:
    """One player's statistics; each item is a result and the player's letter in it.

    The letter is ``"a"`` (first side in battle 1, second side in battle 2) or ``"b"``.

    >>> a, b = MatchResult(20, 3, 8, 2, game="thud"), MatchResult(4, 1, 10, 5, game="thud")
    >>> s = player_side_stats([(a, "a"), (b, "b")], game="thud")
    >>> s.battles, s.first_won, s.second_won, s.lost, s.drawn
    (4, 1, 0, 1, 2)
    """
    first_won = second_won = lost = drawn = 0
    first_battles = second_battles = first_points = second_points = 0
    for result, letter in results:
        if letter not in ("a", "b"):
            raise ValueError(f"player is 'a' or 'b', not {letter!r}")
        # A has the first side in battle 1, B in battle 2.
        first_battle = 1 if letter == "a" else 2
        _of_game(result, game)
        for number in (1, 2):
            first, second = result.battle_points(number)
            winner = battle_winner(first, second)
            side = FIRST if number == first_battle else SECOND
            if side == FIRST:
                first_battles += 1
                first_points += first
            else:
                second_battles += 1
                second_points += second
            if winner == DRAWN:
                drawn += 1
            elif winner != side:
                lost += 1
            elif side == FIRST:
                first_won += 1
            else:
                second_won += 1
    return SideStats(
        battles=first_battles + second_battles,
        first_won=first_won,
        second_won=second_won,
        drawn=drawn,
        lost=lost,
        first_battles=first_battles,
        second_battles=second_battles,
        first_points=first_points,
        second_points=second_points,
        game=game,
    )
