"""A static evaluation of a Thud position, on raw bitboards (see :mod:`games.thud.core.board`).

Scores are in hundredths of a point from the dwarfs' side (positive: good for the dwarfs);
the search negates them for the trolls. The terms:

* material at 1:4 (a dwarf 100, a troll 400), the game's own score;
* threatened pieces: trolls a hurl can take and dwarfs next to a square a troll can step
  to; a threat counts more for the side to move;
* lines: pairs of dwarfs side by side (the lines that hurl) and of trolls (that shove);
* room: the empty squares next to the dwarfs against those next to the trolls (a cheap
  stand-in for counting moves).

The move limit is the search's business: when no plies are left, :func:`final_score` is
the result.
"""

from __future__ import annotations

from games.rules.interface import WIN
from games.thud.core.board import PLAYABLE, SHIFTS
from games.thud.core.movegen import hurl_targets as hurl_targets_of

DWARF = 100
TROLL = 400

# :func:`evaluate` spells out the board's four line directions (one bit, one row less one,
# one row, one row plus one); the other four are their opposites.
if tuple(s for s in SHIFTS if s > 0) != (1, 15, 16, 17):
    raise ImportError("games.thud.bot.evaluate assumes the 16-bit row stride of the board")

W_DWARF_LINE = 3
W_TROLL_LINE = 12
W_DWARF_MOBILITY = 1
W_TROLL_MOBILITY = 2
#: Side to move with a troll to hurl at: most of a troll, since the reply may protect it.
W_HURL_READY = 250
W_TROLL_HANGING = 40
W_DWARF_READY = 60
W_DWARF_HANGING = 15


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


def evaluate(dwarfs: int, trolls: int, dwarfs_to_move: bool, positional: bool = True) -> int:
    """The position's worth for the dwarfs; without ``positional`` only material and the
    captures at hand count (the last plies before a move limit).

    >>> from games.thud import Position
    >>> p = Position.initial()
    >>> evaluate(p._d, p._t, True) > 0  # more room, and 32 - 8 * 4 == 0 in material
    True
    """
    d, t = dwarfs, trolls
    score = DWARF * d.bit_count() - TROLL * t.bit_count()
    empty = PLAYABLE & ~(d | t)
    # The neighbours of a mask, unrolled (this runs at every leaf of the search).
    troll_room = (
        t << 1 | t >> 1 | t << 15 | t >> 15 | t << 16 | t >> 16 | t << 17 | t >> 17
    ) & empty
    r = troll_room
    near_room = r << 1 | r >> 1 | r << 15 | r >> 15 | r << 16 | r >> 16 | r << 17 | r >> 17
    prey = (d & near_room).bit_count()
    hurl_targets = hurl_targets_of(d, t).bit_count()
    if dwarfs_to_move:
        score += W_HURL_READY * min(hurl_targets, 1) + W_TROLL_HANGING * hurl_targets
        score -= W_DWARF_HANGING * prey
    else:
        score -= W_DWARF_READY * min(prey, 3) + W_DWARF_HANGING * prey
        score += W_TROLL_HANGING * hurl_targets
    if not positional:
        return score
    dwarf_pairs = (d & d >> 1).bit_count() + (d & d >> 15).bit_count()
    dwarf_pairs += (d & d >> 16).bit_count() + (d & d >> 17).bit_count()
    troll_pairs = (t & t >> 1).bit_count() + (t & t >> 15).bit_count()
    troll_pairs += (t & t >> 16).bit_count() + (t & t >> 17).bit_count()
    near_dwarfs = d << 1 | d >> 1 | d << 15 | d >> 15 | d << 16 | d >> 16 | d << 17 | d >> 17
    score += W_DWARF_LINE * dwarf_pairs - W_TROLL_LINE * troll_pairs
    score += W_DWARF_MOBILITY * (near_dwarfs & empty).bit_count()
    score -= W_TROLL_MOBILITY * troll_room.bit_count()
    return score
