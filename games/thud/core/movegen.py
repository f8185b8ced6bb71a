"""Legal-move generation and bulk counting on bitboards.

A position here is two ints, ``dwarfs`` and ``trolls`` (see :mod:`games.thud.core.board` for
the bit layout), plus whose turn it is. A generated move is a raw tuple
``(from_index, to_index, capture_mask)``:

* dwarf move: ``capture_mask == 0``; hurl: ``capture_mask`` is the landing square's bit.
* troll step (one square) or shove (two or more squares): ``capture_mask`` is the chosen
  set of captured dwarfs. Each allowed capture set is its own move.

The generators walk rays per piece and are the reference path. The ``count_*`` functions
give the same totals without building any move, by shifting whole masks one direction
at a time; :mod:`games.thud.core.perft` uses them at the last ply, and the tests cross-check
the two (and a separate naive generator).

Capture policies (``policy`` is the :class:`~games.thud.core.base.CapturePolicy` value string):

=============== ============================== ==============================
policy          step (1 square)                shove (2+ squares)
=============== ============================== ==============================
``subset``      any subset of adjacent dwarfs  any non-empty subset
``all_or_none`` none, or all adjacent dwarfs   all adjacent dwarfs
``all``         all adjacent dwarfs (maybe 0)  all adjacent dwarfs
=============== ============================== ==============================
"""

from __future__ import annotations

from games.thud.core.board import ADJACENT, OPPOSITE, PLAYABLE, RAYS, SHIFTS, iter_bits

RawMove = tuple[int, int, int]

SUBSET = "subset"
ALL_OR_NONE = "all_or_none"
ALL = "all"

_POSITIVE = tuple(s for s in SHIFTS if s > 0)
_NEGATIVE = tuple(-s for s in SHIFTS if s < 0)


def dwarf_moves(dwarfs: int, trolls: int, sources: int | None = None) -> list[RawMove]:
    """Every dwarf move and hurl for the dwarfs in ``sources`` (default: all of them)."""
    empty = PLAYABLE & ~(dwarfs | trolls)
    out: list[RawMove] = []
    append = out.append
    for f in iter_bits(dwarfs if sources is None else sources & dwarfs):
        rays = RAYS[f]
        for d in range(8):
            dist = 0
            for t in rays[d]:
                bit = 1 << t
                dist += 1
                if empty & bit:
                    append((f, t, 0))
                    continue
                if trolls & bit:
                    # Hurl: the line behind f (f included) must hold at least `dist` dwarfs.
                    line = 1
                    for u in rays[OPPOSITE[d]]:
                        if line >= dist or not (dwarfs >> u) & 1:
                            break
                        line += 1
                    if line >= dist:
                        append((f, t, bit))
                break
    return out


def _captures(adjacent: int, shove: bool, policy: str) -> list[int]:
    if policy == SUBSET:
        subs = []
        sub = adjacent
        while True:
            subs.append(sub)
            if not sub:
                break
            sub = (sub - 1) & adjacent
        if shove:
            subs.pop()  # the empty set, always last
        return subs
    if policy == ALL_OR_NONE and not shove and adjacent:
        return [adjacent, 0]
    return [adjacent]


def troll_moves(
    dwarfs: int, trolls: int, policy: str = SUBSET, sources: int | None = None
) -> list[RawMove]:
    """Every troll step and shove, one entry per allowed capture set."""
    empty = PLAYABLE & ~(dwarfs | trolls)
    out: list[RawMove] = []
    for f in iter_bits(trolls if sources is None else sources & trolls):
        rays = RAYS[f]
        for d in range(8):
            ray = rays[d]
            if not ray or not (empty >> ray[0]) & 1:
                continue
            t = ray[0]
            for cap in _captures(ADJACENT[t] & dwarfs, False, policy):
                out.append((f, t, cap))
            # Shove: the line behind f (f included) gives the range.
            line = 1
            for u in rays[OPPOSITE[d]]:
                if not (trolls >> u) & 1:
                    break
                line += 1
            for t in ray[1:line]:
                if not (empty >> t) & 1:
                    break
                adjacent = ADJACENT[t] & dwarfs
                if adjacent:
                    for cap in _captures(adjacent, True, policy):
                        out.append((f, t, cap))
    return out


def count_dwarf_moves(dwarfs: int, trolls: int) -> int:
    """``len(dwarf_moves(dwarfs, trolls))`` without building the moves."""
    empty = PLAYABLE & ~(dwarfs | trolls)
    n = 0
    # Slides: advance every dwarf one square at a time in each direction.
    for s in _POSITIVE:
        x = (dwarfs << s) & empty
        while x:
            n += x.bit_count()
            x = (x << s) & empty
    for s in _NEGATIVE:
        x = (dwarfs >> s) & empty
        while x:
            n += x.bit_count()
            x = (x >> s) & empty
    if not trolls:
        return n
    # Hurls in direction +s: walk back from the trolls (-s) over empty squares; a dwarf met
    # after k steps can be hurled iff it fronts a line of >= k dwarfs, i.e. it is in
    # line_k = squares with k dwarfs in a row ending there going -s.
    for s in _POSITIVE:
        line = dwarfs
        y = trolls >> s
        while True:
            n += (y & line).bit_count()
            y = (y & empty) >> s
            if not y:
                break
            line = dwarfs & (line << s)
            if not line:
                break
    for s in _NEGATIVE:
        line = dwarfs
        y = trolls << s
        while True:
            n += (y & line).bit_count()
            y = (y & empty) << s
            if not y:
                break
            line = dwarfs & (line >> s)
            if not line:
                break
    return n


def count_troll_moves(dwarfs: int, trolls: int, policy: str = SUBSET) -> int:
    """``len(troll_moves(dwarfs, trolls, policy))`` without building the moves."""
    empty = PLAYABLE & ~(dwarfs | trolls)
    n = 0
    subset = policy == SUBSET
    all_or_none = policy == ALL_OR_NONE
    for f in iter_bits(trolls):
        rays = RAYS[f]
        for d in range(8):
            ray = rays[d]
            if not ray or not (empty >> ray[0]) & 1:
                continue
            adjacent = ADJACENT[ray[0]] & dwarfs
            if subset:
                n += 1 << adjacent.bit_count()
            elif all_or_none and adjacent:
                n += 2
            else:
                n += 1
            line = 1
            for u in rays[OPPOSITE[d]]:
                if not (trolls >> u) & 1:
                    break
                line += 1
            for t in ray[1:line]:
                if not (empty >> t) & 1:
                    break
                adjacent = ADJACENT[t] & dwarfs
                if adjacent:
                    n += (1 << adjacent.bit_count()) - 1 if subset else 1
    return n


def hurls(dwarfs: int, trolls: int) -> list[RawMove]:
    """Every hurl (a dwarf onto a troll), straight from the masks: the captures a search's
    quiescence needs, without generating the dwarfs' every slide.

    >>> from games.thud.core.board import mask_of
    >>> d, t = mask_of([(6, 0), (6, 1), (6, 2)]), mask_of([(6, 5), (0, 5)])
    >>> [(f, to) for f, to, _ in hurls(d, t)]  # C7 onto F7: a line of three
    [(98, 101)]
    >>> sorted(hurls(d, t)) == sorted(m for m in dwarf_moves(d, t) if m[2])
    True
    """
    empty = PLAYABLE & ~(dwarfs | trolls)
    out: list[RawMove] = []
    for s in _POSITIVE:
        line, y, k = dwarfs, trolls >> s, 1
        while True:
            hit = y & line
            while hit:
                low = hit & -hit
                f = low.bit_length() - 1
                out.append((f, f + k * s, low << (k * s)))
                hit ^= low
            y = (y & empty) >> s
            line = dwarfs & (line << s)
            if not y or not line:
                break
            k += 1
    for s in _NEGATIVE:
        line, y, k = dwarfs, trolls << s, 1
        while True:
            hit = y & line
            while hit:
                low = hit & -hit
                f = low.bit_length() - 1
                out.append((f, f - k * s, low >> (k * s)))
                hit ^= low
            y = (y & empty) << s
            line = dwarfs & (line >> s)
            if not y or not line:
                break
            k += 1
    return out


def hurl_targets(dwarfs: int, trolls: int) -> int:
    """The trolls some hurl can take now (a mask)."""
    empty = PLAYABLE & ~(dwarfs | trolls)
    out = 0
    for s in _POSITIVE:
        line, y, k = dwarfs, trolls >> s, 1
        while True:
            hit = y & line
            if hit:
                out |= hit << (k * s)
            y = (y & empty) >> s
            line = dwarfs & (line << s)
            if not y or not line:
                break
            k += 1
    for s in _NEGATIVE:
        line, y, k = dwarfs, trolls << s, 1
        while True:
            hit = y & line
            if hit:
                out |= hit >> (k * s)
            y = (y & empty) << s
            line = dwarfs & (line >> s)
            if not y or not line:
                break
            k += 1
    return out


def troll_steps(dwarfs: int, trolls: int, spare: bool) -> list[RawMove]:
    """Every troll step that takes nothing: onto any empty square with ``spare`` (what
    ``all_or_none`` allows), else only onto squares with no dwarf next to them (``all``).
    With :func:`troll_captures`, the troll moves of those two policies, from the masks.
    """
    empty = PLAYABLE & ~(dwarfs | trolls)
    if not spare:
        for s in _POSITIVE:
            empty &= ~((dwarfs << s) | (dwarfs >> s))
    out: list[RawMove] = []
    for s in _POSITIVE:
        hit = (trolls << s) & empty
        while hit:
            low = hit & -hit
            t = low.bit_length() - 1
            out.append((t - s, t, 0))
            hit ^= low
        hit = (trolls >> s) & empty
        while hit:
            low = hit & -hit
            t = low.bit_length() - 1
            out.append((t + s, t, 0))
            hit ^= low
    return out


def troll_captures(dwarfs: int, trolls: int) -> list[RawMove]:
    """Every troll step or shove that takes all the dwarfs next to where it lands (legal
    under every policy): the troll captures a search's quiescence needs. From the masks,
    one direction at a time: ``reach`` holds the trolls with ``k`` empty squares ahead,
    ``line`` those with at least ``k`` trolls in line behind them (themselves included),
    which is how far a shove may go.
    """
    empty = PLAYABLE & ~(dwarfs | trolls)
    near = 0
    for s in _POSITIVE:
        near |= (dwarfs << s) | (dwarfs >> s)
    targets = empty & near
    out: list[RawMove] = []
    if not targets:
        return out
    for s in _POSITIVE:
        reach, line, k = trolls, trolls, 1
        while True:
            reach &= empty >> (k * s)
            origins = reach & line
            if not origins:
                break
            hit = (origins << (k * s)) & targets
            while hit:
                low = hit & -hit
                t = low.bit_length() - 1
                out.append((t - k * s, t, ADJACENT[t] & dwarfs))
                hit ^= low
            line = trolls & (line << s)
            k += 1
    for s in _NEGATIVE:
        reach, line, k = trolls, trolls, 1
        while True:
            reach &= empty << (k * s)
            origins = reach & line
            if not origins:
                break
            hit = (origins >> (k * s)) & targets
            while hit:
                low = hit & -hit
                t = low.bit_length() - 1
                out.append((t + k * s, t, ADJACENT[t] & dwarfs))
                hit ^= low
            line = trolls & (line >> s)
            k += 1
    return out
