"""Single elimination and the knockout stage as pure functions: the bracket order and its
pairings, who advances, whether a playoff is needed, and what the next round is.

Terminology and invariants:
- The knockout is a **bracket** of **ties**. A tie puts two bracket slots against each
  other; a slot holds a player or is empty (``None``: the other player has a bye). Each
  knockout round opens a new **column** of ties; its table order is the bracket order
  (the winners of tables 1 and 2 meet at table 1 of the next column).
- **Seeds** are knockout seeds (1 = best): the final Swiss standings for a top cut, the
  standings before round 1 for a single-elimination tournament. The *higher seed* is the
  lower number.
- A tie is decided by its latest match: the positive summed differential wins. A drawn
  match (differential 0) goes to the higher seed under ``RULE_HIGHER_SEED``; under
  ``RULE_PLAYOFF`` it needs a **playoff match** (another two battles between the same
  players, in a playoff round), repeated until one is not drawn.
- The next round is paired only when every tie of the current column has a result; a
  playoff round comes before the next knockout round. The final is the column of one tie.

Pure: no Django. The adapter is ``tournaments.rounds.bracket``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.records import Pairing

# Round stages (``Round.Stage``).
MAIN = "main"
KNOCKOUT = "knockout"
PLAYOFF = "playoff"
# What a drawn knockout match leads to (``Tournament.DrawRule``).
RULE_PLAYOFF = "playoff"
RULE_HIGHER_SEED = "higher_seed"
TOP_CUTS = (0, 2, 4, 8)


def bracket_order(ranked_ids: Sequence[int]) -> list[int | None]:
    """Seed a single-elimination bracket from standings (best first).

    Pads to a power of two with ``None`` (byes go to the top seeds) and returns the slots in
    bracket order, e.g. seeds 1v8, 4v5, 2v7, 3v6 for eight players.
    """
    n = len(ranked_ids)
    if n == 0:
        return []
    size = 1
    order = [1]
    while size < n:
        size *= 2
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return [ranked_ids[s - 1] if s <= n else None for s in order]


def pair_elimination(bracket: Sequence[int | None]) -> list[Pairing]:
    """Pair adjacent bracket slots: (0, 1), (2, 3), ...

    ``bracket`` is the surviving ids in bracket order: ``bracket_order(...)`` for the first
    round, then ``advance_bracket(...)``. ``None`` is an empty slot: its partner gets a bye.
    The first slot of a pair takes the first side in battle 1 (it is the better seed in round 1).
    """
    if len(bracket) % 2:
        raise ValueError("a bracket needs an even number of slots")
    pairings: list[Pairing] = []
    for i in range(0, len(bracket), 2):
        x, y = bracket[i], bracket[i + 1]
        table = len(pairings) + 1
        if x is not None and y is not None:
            pairings.append(Pairing(table, x, y, ("bracket",)))
        elif x is not None or y is not None:
            pairings.append(Pairing(table, x if x is not None else y, None, ("bye",)))  # type: ignore[arg-type]
    return pairings


def advance_bracket(bracket: Sequence[int | None], winners: Collection[int]) -> list[int | None]:
    """The next round's bracket: the winner (or lone player) of each adjacent pair of slots."""
    if len(bracket) % 2:
        raise ValueError("a bracket needs an even number of slots")
    nxt: list[int | None] = []
    for i in range(0, len(bracket), 2):
        x, y = bracket[i], bracket[i + 1]
        if x is not None and y is not None:
            if (x in winners) == (y in winners):
                raise ValueError(f"exactly one of {x} and {y} must be a winner")
            nxt.append(x if x in winners else y)
        else:
            nxt.append(x if x is not None else y)
    return nxt


class KnockoutError(ValueError):
    """The knockout cannot go on yet (or is over); the message is an English fallback,
    the adapter shows its own translated text keyed by ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Game:
    """One knockout-stage match as played: ``a`` had the first side in battle 1."""

    round_number: int
    a: int
    b: int | None
    differential: int | None = None  # a's summed differential; None = no confirmed result
    ident: int | None = None  # the adapter's match id, carried through for display


@dataclass(frozen=True)
class StageRound:
    number: int
    stage: str  # KNOCKOUT or PLAYOFF
    games: tuple[Game, ...]


@dataclass
class Tie:
    slots: tuple[int | None, int | None]
    games: list[Game] = field(default_factory=list)
    winner: int | None = None
    needs_playoff: bool = False
    decided_by: str = ""  # "bye", "result", "playoff", "higher_seed"

    @property
    def players(self) -> frozenset[int]:
        return frozenset(s for s in self.slots if s is not None)


@dataclass
class Bracket:
    columns: list[list[Tie]] = field(default_factory=list)

    @property
    def started(self) -> bool:
        return bool(self.columns)

    @property
    def champion(self) -> int | None:
        if not self.columns or len(self.columns[-1]) != 1:
            return None
        return self.columns[-1][0].winner

    @property
    def pending(self) -> list[Tie]:
        """Ties of the current column still waiting for a result."""
        if not self.columns:
            return []
        return [t for t in self.columns[-1] if t.winner is None and not t.needs_playoff]

    @property
    def playoffs(self) -> list[Tie]:
        """Ties of the current column whose last match was drawn and need a playoff."""
        if not self.columns:
            return []
        return [t for t in self.columns[-1] if t.needs_playoff]


def higher_seed(x: int, y: int, seeds: Mapping[int, int]) -> int:
    """The better-seeded of two players (lower seed number; ties by id, for determinism).

    >>> higher_seed(7, 3, {7: 1, 3: 4})
    7
    """
    return min((x, y), key=lambda p: (seeds.get(p, 10**6), p))


def decide(tie: Tie, seeds: Mapping[int, int], rule: str) -> Tie:
    """Set ``tie``'s winner (or ``needs_playoff``) from its latest match; returns ``tie``."""
    x, y = tie.slots
    tie.winner, tie.needs_playoff, tie.decided_by = None, False, ""
    if x is None or y is None:
        tie.winner, tie.decided_by = (x if y is None else y), "bye"
        return tie
    if not tie.games or tie.games[-1].differential is None:
        return tie
    last = tie.games[-1]
    if last.differential:
        tie.winner = last.a if last.differential > 0 else last.b
        tie.decided_by = "playoff" if len(tie.games) > 1 else "result"
    elif rule == RULE_HIGHER_SEED:
        tie.winner, tie.decided_by = higher_seed(x, y, seeds), "higher_seed"
    else:
        tie.needs_playoff = True
    return tie


def build_bracket(rounds: Sequence[StageRound], seeds: Mapping[int, int], rule: str) -> Bracket:
    """The bracket from the knockout-stage rounds played so far, oldest first.

    A knockout round becomes a column (one tie per match, in table order); a playoff
    round adds its matches to the ties of the current column with the same two players.
    """
    bracket = Bracket()
    for rnd in sorted(rounds, key=lambda r: r.number):
        if rnd.stage == KNOCKOUT:
            column = [
                Tie(slots=(g.a, g.b), games=[g] if g.b is not None else []) for g in rnd.games
            ]
            bracket.columns.append(column)
        elif bracket.columns:
            # A bye's key holds None, so it never finds a tie of two players.
            ties: dict[frozenset[int | None], Tie] = {t.players: t for t in bracket.columns[-1]}
            for g in rnd.games:
                tie = ties.get(frozenset((g.a, g.b)))
                if tie is not None:
                    tie.games.append(g)
        for tie in bracket.columns[-1] if bracket.columns else ():
            decide(tie, seeds, rule)
    return bracket


def first_round(ranked: Sequence[int]) -> tuple[dict[int, int], list[Pairing]]:
    """Knockout seeds and round-1 pairings for ``ranked`` (best first): 1v8, 4v5, 2v7, 3v6.

    >>> seeds, pairings = first_round([10, 20, 30, 40])
    >>> seeds[30], [(p.a, p.b) for p in pairings]
    (3, [(10, 40), (20, 30)])
    """
    seeds = {p: i for i, p in enumerate(ranked, start=1)}
    return seeds, pair_elimination(bracket_order(ranked))


def next_round(
    bracket: Bracket, seeds: Mapping[int, int], *, second_side_first: Collection[int] = ()
) -> tuple[str, list[Pairing]]:
    """The stage and pairings of the round after ``bracket``'s latest one.

    Raises ``KnockoutError`` with reason ``"not_started"``, ``"results_missing"`` or
    ``"finished"``. Playoffs come first: the higher seed takes the first side in battle 1
    unless they are in ``second_side_first`` (their choice, as the organiser recorded it).
    """
    if not bracket.started:
        raise KnockoutError("not_started")
    if bracket.pending:
        raise KnockoutError("results_missing")
    if bracket.playoffs:
        pairings = []
        for table, tie in enumerate(bracket.playoffs, start=1):
            x, y = tie.slots
            assert x is not None and y is not None  # a bye never needs a playoff
            high = higher_seed(x, y, seeds)
            low = y if high == x else x
            a, b = (low, high) if high in second_side_first else (high, low)
            pairings.append(Pairing(table, a, b, ("playoff",)))
        return PLAYOFF, pairings
    if bracket.champion is not None:
        raise KnockoutError("finished")
    slots = [s for tie in bracket.columns[-1] for s in tie.slots]
    winners = {t.winner for t in bracket.columns[-1] if t.winner is not None}
    return KNOCKOUT, pair_elimination(advance_bracket(slots, winners))
