"""The pairing records: what the pairing functions take (``PlayerRecord``, ``History``) and
return (``Pairing``), and their two errors.

- A **pairing** puts player ``a`` against player ``b`` at a ``table``; ``a`` takes the first
  side in battle 1. ``b is None`` is a **bye** (a win with differential 0, at most once per player).
- ``History.played`` holds the pairs that have met at least once (multiplicity is not
  tracked); ``History.forbidden`` the pairs that must never meet.

Errors follow Tabbycat's split: ``PairingUserError`` is for the organiser to resolve,
``PairingBugError`` is the engine's own fault. Pure: no Django imports.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class PairingUserError(ValueError):
    """A pairing the organiser must resolve (shown to them, e.g. too many forbidden pairs)."""


class PairingBugError(RuntimeError):
    """The pairing engine broke one of its own invariants (logged; never the user's fault)."""


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    score: int  # current match points incl. initial_points
    rank: int  # current standings position (1 = top)
    seed: int
    byes: int = 0  # byes received so far
    sides: tuple[str, ...] = ()  # "first"/"second" side taken in battle 1, oldest first


@dataclass(frozen=True)
class History:
    played: frozenset[frozenset[int]] = frozenset()  # pairs that have met (at least once)
    forbidden: frozenset[frozenset[int]] = frozenset()  # pairs that must never meet


@dataclass(frozen=True)
class Pairing:
    """One table of a round. ``flags`` explain it:

    - ``"bye"``: ``a`` gets the bye (``b is None``);
    - ``"rematch"``: the pair has met before (only when no pairing avoids it);
    - ``"float_down"``: ``a`` has more points than ``b`` (a floated down to meet b);
      ``"float_up"``: ``a`` has fewer points than ``b``;
    - ``"side_alternated"`` / ``"side_coin"``: how ``a`` came to take the first side first;
    - ``"bracket"``: an elimination pairing.
    """

    table: int
    a: int  # takes the first side in battle 1
    b: int | None  # None = bye
    flags: tuple[str, ...] = field(default=())
