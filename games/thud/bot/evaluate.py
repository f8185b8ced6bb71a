"""A static evaluation of a Thud position, on raw bitboards (see :mod:`games.thud.board`).

Scores are in hundredths of a point from the dwarfs' side (positive: good for the dwarfs);
the search negates them for the trolls. The terms:

* material at 1:4 (a dwarf 100, a troll 400), the game's own score;
* threatened pieces: trolls next to a dwarf (a one-square hurl takes them) and dwarfs next
  to a square a troll can step to; a threat counts more for the side to move;
* lines: pairs of dwarfs side by side (the lines that hurl) and of trolls (that shove);
* mobility: the dwarf moves against the troll moves (counted under ``all``, so the 2**k
  capture sets of ``subset`` do not swamp it).

The move limit is the search's business: when no plies are left, :func:`final_score` is
the result.
"""

from __future__ import annotations

from games.interface import WIN
from games.thud.board import PLAYABLE, SHIFTS
from games.thud.movegen import ALL, count_dwarf_moves, count_troll_moves

DWARF = 100
TROLL = 400

_POSITIVE = tuple(s for s in SHIFTS if s > 0)
_LINE_SHIFTS = _POSITIVE  # one per line direction (the other half are their opposites)

W_DWARF_LINE = 3
W_TROLL_LINE = 12
W_DWARF_MOBILITY = 1
W_TROLL_MOBILITY = 2
#: Side to move with a troll to hurl at: most of a troll, since the reply may protect it.
W_HURL_READY = 250
W_TROLL_HANGING = 40
W_DWARF_READY = 60
W_DWARF_HANGING = 15


def dilate(mask: int) -> int:
    """``mask`` plus every square next to it (the Thudstone and guard bits dropped)."""
    out = mask
    for s in _POSITIVE:
        out |= (mask << s) | (mask >> s)
    return out & PLAYABLE


def material(dwarfs: int, trolls: int) -> int:
    return DWARF * dwarfs.bit_count() - TROLL * trolls.bit_count()


def final_score(dwarfs: int, trolls: int) -> int:
    """A finished battle: the winner (more points) gets :data:`WIN` plus the margin."""
    margin = material(dwarfs, trolls)
    if margin > 0:
        return WIN + margin
    if margin < 0:
        return -WIN + margin
    return 0


def evaluate(dwarfs: int, trolls: int, dwarfs_to_move: bool) -> int:
    """The position's worth for the dwarfs.

    >>> from games.thud import Position
    >>> p = Position.initial()
    >>> evaluate(p._d, p._t, True) > 0  # more mobile, and 32 - 8 * 4 == 0 in material
    True
    """
    score = material(dwarfs, trolls)
    empty = PLAYABLE & ~(dwarfs | trolls)
    for s in _LINE_SHIFTS:
        score += W_DWARF_LINE * (dwarfs & (dwarfs >> s)).bit_count()
        score -= W_TROLL_LINE * (trolls & (trolls >> s)).bit_count()
    hurl_targets = (trolls & dilate(dwarfs)).bit_count()
    prey = (dwarfs & dilate(dilate(trolls) & empty)).bit_count()
    if dwarfs_to_move:
        score += W_HURL_READY * min(hurl_targets, 1) + W_TROLL_HANGING * hurl_targets
        score -= W_DWARF_HANGING * prey
    else:
        score -= W_DWARF_READY * min(prey, 3) + W_DWARF_HANGING * prey
        score += W_TROLL_HANGING * hurl_targets
    score += W_DWARF_MOBILITY * count_dwarf_moves(dwarfs, trolls)
    score -= W_TROLL_MOBILITY * count_troll_moves(dwarfs, trolls, ALL)
    return score
