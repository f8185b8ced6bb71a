"""Statistics by side: how often the dwarfs win, the trolls win, or a battle is drawn.

Terminology
-----------
- A **battle** is one half of a confirmed match (``Survivors`` holds both). It is **won by
  the dwarfs** when the dwarf player scored more points (one per surviving dwarf) than the
  troll player (``TROLL_POINTS`` per surviving troll), **won by the trolls** when fewer,
  **drawn** when equal.
- A bye is no battle and an unconfirmed result is no result: callers pass only the
  ``Survivors`` of confirmed results, whatever their source (online, over the board,
  imported).
- **Aggregate** statistics (the site, a tournament) count every battle once. **Player**
  statistics count the battles of one player, from that player's point of view: won as
  dwarfs, won as trolls, lost, drawn. Player A of a match has the dwarfs in battle 1 and the
  trolls in battle 2.
- **Percentages** are of all battles, rounded half up to two decimals (seed 002 shows
  "white 59.92 %"); with no battle every percentage is 0.00 (``tournaments.side_counts``,
  shared with the casual play statistics).
- **Average points as dwarfs / as trolls**: the points scored by the dwarf (troll) side per
  battle it played; for a player, per battle the player had that side.
- **Other games**: the statistics of one game's results (``SideStats.game``; never a mix).
  The field names stay Thud's (a stable interface): ``dwarfs`` means the side that moves
  first in a battle (Cavalli: white), ``trolls`` the second (black); each game's points
  come from its ``GameScale`` and the pages name the sides with its ``wording``.

Pure: plain values in, a frozen ``SideStats`` out; no database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .side_counts import HUNDREDTH, count_by_side, percentage
from .survivors import THUD, Survivors, scale_of

# The stable JSON keys (DESIGN.md §8); ``as_json`` may add more.
JSON_KEYS = (
    "battles",
    "dwarfs_won",
    "trolls_won",
    "drawn",
    "dwarfs_won_pct",
    "trolls_won_pct",
    "drawn_pct",
)
#: ``battle_winner`` as the side index of ``count_by_side`` (dwarfs move first).
WINNER_INDEX = {"dwarfs": 0, "trolls": 1, "drawn": None}


def average(total: int, count: int) -> Decimal:
    """``total / count`` to two decimals, half up; 0.00 when ``count`` is 0."""
    if count == 0:
        return Decimal("0.00")
    return (Decimal(total) / Decimal(count)).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class SideStats:
    """Battle counts by winning side, for the site, a tournament or one player.

    ``lost`` is ``None`` for aggregate statistics (every battle someone won, someone lost).
    ``dwarf_battles`` / ``troll_battles`` are the battles in which the subject had that side
    (both equal ``battles`` for aggregates).
    """

    battles: int = 0
    dwarfs_won: int = 0
    trolls_won: int = 0
    drawn: int = 0
    lost: int | None = None
    dwarf_battles: int = 0
    troll_battles: int = 0
    dwarf_points: int = 0  # total points scored by the dwarf side
    troll_points: int = 0
    #: The game of every counted result (its side names: ``words``).
    game: str = THUD

    @property
    def words(self) -> dict[str, str]:
        """The texts naming the game's sides, translated (``GameScale.words``)."""
        return scale_of(self.game).words()

    @property
    def dwarfs_won_pct(self) -> Decimal:
        return percentage(self.dwarfs_won, self.battles)

    @property
    def trolls_won_pct(self) -> Decimal:
        return percentage(self.trolls_won, self.battles)

    @property
    def drawn_pct(self) -> Decimal:
        return percentage(self.drawn, self.battles)

    @property
    def lost_pct(self) -> Decimal | None:
        return None if self.lost is None else percentage(self.lost, self.battles)

    @property
    def avg_dwarf_points(self) -> Decimal:
        return average(self.dwarf_points, self.dwarf_battles)

    @property
    def avg_troll_points(self) -> Decimal:
        return average(self.troll_points, self.troll_battles)

    def as_json(self) -> dict[str, object]:
        """Language-neutral figures for the API; decimals become JSON numbers."""
        data: dict[str, object] = {
            "battles": self.battles,
            "dwarfs_won": self.dwarfs_won,
            "trolls_won": self.trolls_won,
            "drawn": self.drawn,
            "dwarfs_won_pct": float(self.dwarfs_won_pct),
            "trolls_won_pct": float(self.trolls_won_pct),
            "drawn_pct": float(self.drawn_pct),
            "avg_dwarf_points": float(self.avg_dwarf_points),
            "avg_troll_points": float(self.avg_troll_points),
        }
        if self.lost is not None:
            lost_pct = self.lost_pct
            data.update(
                lost=self.lost,
                lost_pct=float(lost_pct) if lost_pct is not None else None,
                dwarf_battles=self.dwarf_battles,
                troll_battles=self.troll_battles,
            )
        return data


def battle_winner(dwarf_points: int, troll_points: int) -> str:
    """``"dwarfs"``, ``"trolls"`` or ``"drawn"`` for one battle's points.

    >>> battle_winner(20, 16), battle_winner(3, 4), battle_winner(8, 8)
    ('dwarfs', 'trolls', 'drawn')
    """
    if dwarf_points > troll_points:
        return "dwarfs"
    if troll_points > dwarf_points:
        return "trolls"
    return "drawn"


def _of_game(result: Survivors, game: str) -> Survivors:
    if result.game != game:
        raise ValueError(f"a {result.game} result among the statistics of {game}")
    return result


def side_stats(results: Iterable[Survivors], *, game: str = THUD) -> SideStats:
    """Aggregate statistics over both battles of every confirmed result of ``game``.

    >>> s = side_stats([Survivors(20, 3, 8, 2), Survivors(4, 1, 10, 5)])
    >>> s.battles, s.dwarfs_won, s.trolls_won, s.drawn, s.dwarfs_won_pct
    (4, 1, 1, 2, Decimal('25.00'))
    """
    winners = []
    dwarf_points = troll_points = 0
    for result in results:
        _of_game(result, game)
        for number in (1, 2):
            dwarfs, trolls = result.battle_points(number)
            winners.append((WINNER_INDEX[battle_winner(dwarfs, trolls)], 1))
            dwarf_points += dwarfs
            troll_points += trolls
    counts = count_by_side(winners)
    return SideStats(
        battles=counts.total,
        dwarfs_won=counts.first,
        trolls_won=counts.second,
        drawn=counts.draws,
        dwarf_battles=counts.total,
        troll_battles=counts.total,
        dwarf_points=dwarf_points,
        troll_points=troll_points,
        game=game,
    )


def player_side_stats(results: Iterable[tuple[Survivors, str]], *, game: str = THUD) -> SideStats:
    """One player's statistics; each item is a result and the player's letter in it.

    The letter is ``"a"`` (dwarfs in battle 1, trolls in battle 2) or ``"b"``.

    >>> s = player_side_stats([(Survivors(20, 3, 8, 2), "a"), (Survivors(4, 1, 10, 5), "b")])
    >>> s.battles, s.dwarfs_won, s.trolls_won, s.lost, s.drawn
    (4, 1, 0, 1, 2)
    """
    dwarfs_won = trolls_won = lost = drawn = 0
    dwarf_battles = troll_battles = dwarf_points = troll_points = 0
    for result, letter in results:
        if letter not in ("a", "b"):
            raise ValueError(f"player is 'a' or 'b', not {letter!r}")
        # A has the dwarfs in battle 1, B in battle 2.
        dwarf_battle = 1 if letter == "a" else 2
        _of_game(result, game)
        for number in (1, 2):
            dwarfs, trolls = result.battle_points(number)
            winner = battle_winner(dwarfs, trolls)
            side = "dwarfs" if number == dwarf_battle else "trolls"
            if side == "dwarfs":
                dwarf_battles += 1
                dwarf_points += dwarfs
            else:
                troll_battles += 1
                troll_points += trolls
            if winner == "drawn":
                drawn += 1
            elif winner != side:
                lost += 1
            elif side == "dwarfs":
                dwarfs_won += 1
            else:
                trolls_won += 1
    return SideStats(
        battles=dwarf_battles + troll_battles,
        dwarfs_won=dwarfs_won,
        trolls_won=trolls_won,
        drawn=drawn,
        lost=lost,
        dwarf_battles=dwarf_battles,
        troll_battles=troll_battles,
        dwarf_points=dwarf_points,
        troll_points=troll_points,
        game=game,
    )
