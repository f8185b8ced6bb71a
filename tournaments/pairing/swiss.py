"""Swiss pairing: one round by maximum-weight matching (the costs are in
``tournaments.pairing.matching``), on the complete graph or by windows of score groups.

Terminology:
- A **score group** is the set of players with the same current match points (``score``,
  initial points included). Inside a group, players are ordered by their current standings
  ``rank`` (1 = top); ``Field.pos`` is the 0-based place inside the group.
- **Floating**: a player paired outside their score group floats down (the higher scorer)
  or up (the lower scorer).

Fields of at most ``FULL_GRAPH_MAX`` players are solved on the complete graph with a
one-round look-ahead: when rounds remain, a matching that leaves the graph of still-unplayed,
non-forbidden pairs (plus a bye vertex for players without a bye) without a perfect matching
is rejected, one of its edges is banned (tier 2) and the matching recomputed, for at most
``LOOKAHEAD_ATTEMPTS`` solves; if none passes, the unbanned optimum is kept.

Larger fields are decomposed (the blossom algorithm is O(V^3); the complete graph takes
minutes at 1,000 players): players are sorted by score then rank and cut into **windows** of
whole score groups (small groups merged until a window has ``WINDOW_MIN`` players; a group
larger than ``WINDOW_MAX`` is cut into chunks of consecutive fold pairs, so the ideal fold
partners stay in the same chunk). Windows are solved top-down with the same costs; each
non-last window has two or three phantom "float" vertices so its worst-placed (or unpairable
without a rematch) players float into the next window. If a window cannot be paired, or the
window would need a rematch, it is merged with its neighbour (the next one; the previous one
for the last window) and re-solved - for a rematch only up to ``MERGE_LIMIT`` players per
window, for a hard failure without limit, so the decomposition never reports an impossible
pairing that the full graph would find. Large fields get no look-ahead: with many players and
few rounds a stuck field does not happen in practice.

Invariants: deterministic for (players, history, seed, round_number) - inputs are sorted by
id and all randomness comes from ``random.Random`` seeded with a string; every player appears
exactly once; never a forbidden pair; never a second bye. Pure: no Django imports.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from tournaments.pairing.matching import BACKENDS, BYE, Edge, Field, max_weight_matching, solve
from tournaments.pairing.records import (
    History,
    Pairing,
    PairingBugError,
    PairingUserError,
    PlayerRecord,
)
from tournaments.pairing.sides import allocate_sides

FULL_GRAPH_MAX = 64
WINDOW_MIN = 24
WINDOW_MAX = 48
MERGE_LIMIT = 320
LOOKAHEAD_ATTEMPTS = 24


def _next_round_possible(fld: Field, pairs: set[Edge]) -> bool:
    """Whether the still-unplayed, non-forbidden pairs (after ``pairs``) admit a full round."""
    ids = [p.id for p in fld.order]
    played: set[frozenset[Hashable]] = set(fld.played)
    bye_now: set[Hashable] = set()
    for u, v in pairs:
        if BYE in (u, v):
            bye_now.add(v if u == BYE else u)
        else:
            played.add(frozenset((u, v)))
    vertices: list[Hashable] = list(ids)
    edges: list[tuple[Hashable, Hashable, int]] = []
    for i, u in enumerate(ids):
        for v in ids[i + 1 :]:
            key = frozenset((u, v))
            if key not in played and key not in fld.forbidden:
                edges.append((u, v, 1))
    if len(ids) % 2:
        vertices.append(BYE)
        for u in ids:
            if fld.by_id[u].byes == 0 and u not in bye_now:
                edges.append((u, BYE, 1))
    if {x for u, v, _ in edges for x in (u, v)} != set(vertices):
        return False  # a player with no possible opponent
    # Only the size of a maximum matching matters here, so ties between matchings are harmless.
    return 2 * len(max_weight_matching(vertices, edges, fld.backend)) == len(vertices)


def _pair_full(fld: Field, lookahead: bool) -> set[Edge]:
    ids = [p.id for p in fld.order]
    odd = len(ids) % 2 == 1
    best = solve(fld, ids, bye=odd, floats=0, next_score=None)
    if best is None:
        raise PairingUserError(
            "No pairing is possible without a forbidden pair or a second bye; "
            "remove a forbidden pair or withdraw a player."
        )
    if not lookahead or _next_round_possible(fld, best):
        return best
    attempts = 0
    # Ban each edge of the optimum in turn; then accumulate bans along successive matchings.
    for edge in sorted(best, key=repr):
        if attempts >= LOOKAHEAD_ATTEMPTS // 2:
            break
        attempts += 1
        cand = solve(fld, ids, bye=odd, floats=0, next_score=None, banned={frozenset(edge)})
        if cand is not None and _next_round_possible(fld, cand):
            return cand
    banned: set[frozenset[Hashable]] = set()
    current = best
    while attempts < LOOKAHEAD_ATTEMPTS:
        attempts += 1
        fresh = [frozenset(e) for e in sorted(current, key=repr) if frozenset(e) not in banned]
        if not fresh:
            break
        banned.add(fresh[0])
        cand = solve(fld, ids, bye=odd, floats=0, next_score=None, banned=banned)
        if cand is None:
            break
        if _next_round_possible(fld, cand):
            return cand
        current = cand
    return best


def _windows(fld: Field) -> list[list[int]]:
    windows: list[list[int]] = []
    pending: list[int] = []
    for group in fld.groups:
        ids = [p.id for p in group]
        if len(ids) <= WINDOW_MAX:
            pending += ids
            if len(pending) >= WINDOW_MIN:
                windows.append(pending)
                pending = []
            continue
        if pending:
            windows.append(pending)
            pending = []
        # Cut into chunks of consecutive fold pairs (1vG, 2vG-1, ...) so ideal partners
        # share a chunk; the middle player of an odd group joins the last chunk.
        folds = [(ids[i], ids[-1 - i]) for i in range(len(ids) // 2)]
        per = WINDOW_MAX // 2
        chunks = [
            [x for pair in folds[k : k + per] for x in pair] for k in range(0, len(folds), per)
        ]
        if len(ids) % 2:
            chunks[-1].append(ids[len(ids) // 2])
        windows.extend(chunks)
    if pending:
        if windows and len(pending) < WINDOW_MIN // 2:
            windows[-1] += pending
        else:
            windows.append(pending)
    return windows


def _pair_windows(fld: Field) -> set[Edge]:
    windows = _windows(fld)
    stack: list[tuple[list[int], set[Edge]]] = []  # (carried into window i, its pairs)
    carried: list[int] = []
    i = 0
    while i < len(windows):
        members = carried + windows[i]
        last = i == len(windows) - 1
        if last:
            pairs = solve(fld, members, bye=len(members) % 2 == 1, floats=0, next_score=None)
            rematch = pairs is not None and _has_rematch(fld, pairs)
            # A hard failure always merges (correctness first, even at full-graph cost); a
            # rematch merges only while the window stays cheap enough to solve.
            small = len(members) + len(windows[i - 1]) <= MERGE_LIMIT if i else False
            if i > 0 and (pairs is None or (rematch and small)):
                carried, _ = stack.pop()
                windows[i - 1 : i + 1] = [windows[i - 1] + windows[i]]
                i -= 1
                continue
            if pairs is None:
                raise PairingUserError(
                    "No pairing is possible without a forbidden pair or a second bye; "
                    "remove a forbidden pair or withdraw a player."
                )
            stack.append((carried, pairs))
            break
        next_score = fld.by_id[windows[i + 1][0]].score
        floats = 3 if len(members) % 2 else 2
        pairs = solve(fld, members, bye=False, floats=floats, next_score=next_score)
        if pairs is None or (
            _has_rematch(fld, pairs) and len(members) + len(windows[i + 1]) <= MERGE_LIMIT
        ):
            # More players must float than the phantoms allow: solve with the next window.
            windows[i : i + 2] = [windows[i] + windows[i + 1]]
            continue
        floaters: list[int] = []
        real: set[Edge] = set()
        for u, v in pairs:
            if isinstance(u, tuple) and isinstance(v, tuple):
                continue
            if isinstance(u, tuple) or isinstance(v, tuple):
                floater = v if isinstance(u, tuple) else u
                assert isinstance(floater, int)  # phantoms are tuples; a window has no bye
                floaters.append(floater)
            else:
                real.add((u, v))
        stack.append((carried, real))
        carried = sorted(floaters, key=fld.gpos.__getitem__)
        i += 1
    return {e for _, pairs in stack for e in pairs}


def _has_rematch(fld: Field, pairs: set[Edge]) -> bool:
    return any(frozenset(e) in fld.played for e in pairs)


def pair_swiss(
    players: Sequence[PlayerRecord],
    history: History,
    *,
    seed: int,
    round_number: int,
    rounds_total: int | None = None,
    backend: str = "rustworkx",
) -> list[Pairing]:
    """Pair one Swiss round. See the module docstring for the cost model.

    ``players`` are the active players only (withdrawn or absent players left out). The
    look-ahead runs when ``rounds_total`` is None or ``round_number < rounds_total``.
    Tables are numbered from the top score down; the bye is on the last table.
    ``backend`` picks the matching implementation: ``"rustworkx"`` (fast, the default) or
    ``"networkx"`` (the pure-Python reference); both give the same pairings.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise PairingBugError("duplicate player ids")
    players = sorted(players, key=lambda p: p.id)
    if not players:
        return []
    fld = Field(players, history, seed, round_number, backend)
    lookahead = rounds_total is None or round_number < rounds_total
    pairs = _pair_full(fld, lookahead) if len(players) <= FULL_GRAPH_MAX else _pair_windows(fld)
    return _finish(fld, pairs, seed, round_number)


def _finish(fld: Field, pairs: set[Edge], seed: int, round_number: int) -> list[Pairing]:
    seen: list[int] = []
    real: list[tuple[int, int]] = []
    byes: list[int] = []
    for u, v in pairs:
        if u == BYE or v == BYE:
            byes.append(v if u == BYE else u)  # type: ignore[arg-type]
        else:
            real.append((u, v))  # type: ignore[arg-type]
    for u, v in real:
        seen += (u, v)
        if frozenset((u, v)) in fld.forbidden:
            raise PairingBugError(f"forbidden pair {u}-{v} paired")
    for u in byes:
        seen.append(u)
        if fld.by_id[u].byes:
            raise PairingBugError(f"second bye for {u}")
    if sorted(seen) != sorted(fld.by_id) or len(byes) > 1:
        raise PairingBugError("a player is unpaired or paired twice")

    gpos: Callable[[int], int] = fld.gpos.__getitem__
    real.sort(key=lambda e: min(gpos(e[0]), gpos(e[1])))
    rng = random.Random(f"sides:{seed}:{round_number}")
    result: list[Pairing] = []
    for table, (u, v) in enumerate(real, start=1):
        a, b, side_flag = allocate_sides(fld.by_id[u], fld.by_id[v], rng)
        flags: list[str] = []
        if frozenset((a, b)) in fld.played:
            flags.append("rematch")
        sa, sb = fld.by_id[a].score, fld.by_id[b].score
        if sa > sb:
            flags.append("float_down")
        elif sa < sb:
            flags.append("float_up")
        flags.append(side_flag)
        result.append(Pairing(table, a, b, tuple(flags)))
    for u in byes:
        result.append(Pairing(len(result) + 1, u, None, ("bye",)))
    return result
