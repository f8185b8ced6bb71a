"""Pairing: Swiss (maximum-weight matching), round robin (circle method), single elimination.

Terminology
-----------
- A **pairing** puts player ``a`` against player ``b`` at a ``table``; ``a`` takes the first
  side in battle 1. ``b is None`` is a **bye** (a win with differential 0, at most once per player).
- A **score group** is the set of players with the same current match points (``score``,
  initial points included). Inside a group, players are ordered by their current standings
  ``rank`` (1 = top); ``pos`` below is the 0-based place inside the group.
- **Floating**: a player paired outside their score group floats down (the higher scorer)
  or up (the lower scorer).
- ``History.played`` holds the pairs that have met at least once (multiplicity is not
  tracked); ``History.forbidden`` the pairs that must never meet.

Swiss cost model
----------------
Every allowed edge gets an integer cost made of exact priority tiers (Python big integers, so
a lower tier can never outweigh one unit of a higher tier), and the matching maximises
``BIG - cost`` with ``maxcardinality=True``:

1. rematch (the pair has met before) - soft, so a pairing always exists, but dominant;
2. look-ahead ban (an edge the look-ahead rejected, see below);
3. score distance squared (a bye counts as meeting a virtual player one point below the
   lowest score, so the bye sinks to the lowest group: chained floats are always cheaper);
4. who floats / who gets the bye: the lowest of a group floats down and meets the top of the
   lower group; the bye goes to the lowest-ranked eligible player. This tier sits *above*
   placement on purpose: below it, the middle of an odd group would get the bye or float
   because that leaves a symmetric fold;
5. placement inside the group, fold (1 v G, 2 v G-1: top half against bottom half), as the
   squared deviation from the ideal fold partner;
6. a seeded random tiebreak;
7. a per-edge 32-bit seeded hash, so that two different pairings practically never weigh the
   same (only an exact tie in all of tiers 1-6 reaches it). A tie-free optimum is unique, so
   every correct matching algorithm returns it: the fast backend (rustworkx, Rust) and the
   reference one (networkx, pure Python) give the same pairings, which a test checks.

Hard rules (edge omitted): forbidden pairs; a second bye. If no pairing satisfies them,
``PairingUserError``.

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
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from operator import mul

import networkx as nx
import rustworkx as rx

FULL_GRAPH_MAX = 64
WINDOW_MIN = 24
WINDOW_MAX = 48
MERGE_LIMIT = 320
LOOKAHEAD_ATTEMPTS = 24
_NOISE_BITS = 10
_TIE_BITS = 32
_TIE_MASK = (1 << _TIE_BITS) - 1
_TIERS = 7  # rematch, ban, score, float/bye, placement, noise, tie-break
# rustworkx's matching works on signed 128-bit weights and its dual variables reach twice the
# largest weight; above this the reference backend (Python integers) takes over.
_RX_MAX_WEIGHT = 1 << 120
BACKENDS = ("rustworkx", "networkx")


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


# ---------------------------------------------------------------- sides


def allocate_sides(a: PlayerRecord, b: PlayerRecord, rng: random.Random) -> tuple[int, int, str]:
    """Return ``(first side's id, second side's id, flag)`` for battle 1.

    The player who took the second side in battle 1 more often gets the first; on equal
    counts, the one who had the second side in the most recent round where their histories differ (histories
    aligned from the end, so late entries compare fairly); otherwise a seeded coin.
    """

    def balance(p: PlayerRecord) -> int:
        return p.sides.count("second") - p.sides.count("first")

    if balance(a) != balance(b):
        first, second = (a, b) if balance(a) > balance(b) else (b, a)
        return first.id, second.id, "side_alternated"
    for sa, sb in zip(reversed(a.sides), reversed(b.sides), strict=False):
        if sa != sb:
            first, second = (a, b) if sa == "second" else (b, a)
            return first.id, second.id, "side_alternated"
    if rng.random() < 0.5:
        return a.id, b.id, "side_coin"
    return b.id, a.id, "side_coin"


# ---------------------------------------------------------------- round robin and elimination


def pair_round_robin(
    player_ids: Sequence[int], *, round_number: int, seed: int = 0
) -> list[Pairing]:
    """Circle-method round ``round_number`` (1..n-1 for even n, 1..n for odd n).

    ``player_ids`` is the seeding order. ``seed`` 0 keeps it; any other seed shuffles the
    positions deterministically (pass the same seed every round). Odd counts add a bye
    position, so each player gets exactly one bye over the n rounds.
    """
    ids: list[int | None] = list(player_ids)
    if len(set(ids)) != len(ids):
        raise PairingBugError("duplicate player ids")
    if seed:
        random.Random(f"rr:{seed}").shuffle(ids)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    if n == 0:
        return []
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"round_number must be between 1 and {n - 1}, got {round_number}")
    rest = ids[1:]
    shift = (round_number - 1) % len(rest)
    rest = rest[len(rest) - shift :] + rest[: len(rest) - shift]
    circle = [ids[0], *rest]
    pairings: list[Pairing] = []
    byes: list[Pairing] = []
    for i in range(n // 2):
        x, y = circle[i], circle[n - 1 - i]
        # Who has the first side: the fixed player alternates by round, the other boards swap
        # on odd boards. Checked for 3-14 players: |first - second| <= 2 for everyone.
        if (i % 2 == 1) if i else (round_number % 2 == 0):
            x, y = y, x
        if x is None or y is None:
            byes.append(Pairing(0, x if y is None else y, None, ("bye",)))  # type: ignore[arg-type]
        else:
            pairings.append(Pairing(0, x, y, ()))
    return [Pairing(table, p.a, p.b, p.flags) for table, p in enumerate(pairings + byes, start=1)]


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


# ---------------------------------------------------------------- Swiss

_BYE: Hashable = ("bye",)
Edge = tuple[Hashable, Hashable]


class _Field:
    """Precomputed per-player facts for the cost function."""

    def __init__(
        self,
        players: Sequence[PlayerRecord],
        history: History,
        seed: int,
        rnd: int,
        backend: str = "rustworkx",
    ):
        self.by_id = {p.id: p for p in players}
        self.order = sorted(players, key=lambda p: (-p.score, p.rank, p.id))
        self.gpos = {p.id: i for i, p in enumerate(self.order)}
        self.groups: list[list[PlayerRecord]] = []
        for p in self.order:
            if self.groups and self.groups[-1][0].score == p.score:
                self.groups[-1].append(p)
            else:
                self.groups.append([p])
        self.pos: dict[int, int] = {}
        self.gsize: dict[int, int] = {}
        for group in self.groups:
            for i, p in enumerate(group):
                self.pos[p.id] = i
                self.gsize[p.id] = len(group)
        self.played = history.played
        self.forbidden = history.forbidden
        self.min_score = self.order[-1].score if self.order else 0
        rng = random.Random(f"swiss:{seed}:{rnd}")
        self.noise = {
            p.id: rng.getrandbits(_NOISE_BITS) for p in sorted(players, key=lambda p: p.id)
        }
        # Drawn after the noise, so tiers 1-6 (and hence every pairing without an exact tie)
        # are the same as before the tie-break tier existed.
        self.tie_key = {p.id: rng.getrandbits(64) for p in sorted(players, key=lambda p: p.id)}
        self.backend = backend
        self.facts = {
            p.id: (p.score, self.pos[p.id], self.gsize[p.id], self.noise[p.id], self.tie_key[p.id])
            for p in players
        }

    def tie(self, u: int, v: int) -> int:
        """A seeded 32-bit hash of the unordered pair: the middle bits of a 128-bit product."""
        return ((self.tie_key[u] * self.tie_key[v]) >> 48) & _TIE_MASK

    def pair_tiers(self, u: int, v: int, banned: Collection[frozenset]) -> tuple[int, ...] | None:
        key = frozenset((u, v))
        if key in self.forbidden:
            return None
        su, pu, gu, nu, ku = self.facts[u]
        sv, pv, gv, nv, kv = self.facts[v]
        if su == sv:
            dev = pu + pv - (gu - 1)
            flt, place = 0, dev * dev
        else:
            flt = (gu - 1 - pu) + pv if su > sv else (gv - 1 - pv) + pu
            place = 0
        d = su - sv
        return (
            int(key in self.played),
            int(key in banned) if banned else 0,
            d * d,
            flt,
            place,
            nu ^ nv,
            ((ku * kv) >> 48) & _TIE_MASK,  # self.tie(u, v), inlined: this is the hot loop
        )

    def bye_tiers(self, u: int, banned: Collection[frozenset]) -> tuple[int, ...] | None:
        p = self.by_id[u]
        if p.byes > 0:
            return None
        d = p.score - (self.min_score - 1)
        below = len(self.order) - 1 - self.gpos[u]
        return (
            0,
            int(frozenset((u, _BYE)) in banned),
            d * d,
            below,
            0,
            self.noise[u],
            self.tie_key[u] >> (64 - _TIE_BITS),  # a bye edge's own seeded 32 bits
        )

    def float_tiers(self, u: int, next_score: int | None) -> tuple[int, ...]:
        p = self.by_id[u]
        d = max(p.score - next_score, 0) if next_score is not None else 0
        # Float phantoms are interchangeable: which phantom a floater meets never matters.
        return (0, 0, d * d, self.gsize[u] - self.pos[u], 0, 0, 0)


def _solve(
    fld: _Field,
    members: list[int],
    *,
    bye: bool,
    floats: int,
    next_score: int | None,
    banned: Collection[frozenset] = frozenset(),
) -> set[Edge] | None:
    """Max-weight perfect matching over ``members`` (+ bye / float phantoms), or None."""
    vertices, weighted = _graph(
        fld, members, bye=bye, floats=floats, next_score=next_score, banned=banned
    )
    matching = _max_weight_matching(vertices, weighted, fld.backend)
    if 2 * len(matching) != len(vertices):
        return None
    return matching


def _graph(
    fld: _Field,
    members: list[int],
    *,
    bye: bool,
    floats: int,
    next_score: int | None,
    banned: Collection[frozenset] = frozenset(),
) -> tuple[list[Hashable], list[tuple[Hashable, Hashable, int]]]:
    """The vertices and integer-weighted edges that ``_solve`` matches."""
    vertices: list[Hashable] = list(members)
    ends: list[Edge] = []
    tiers: list[tuple[int, ...]] = []
    for i, u in enumerate(members):
        for v in members[i + 1 :]:
            t = fld.pair_tiers(u, v, banned)
            if t is not None:
                ends.append((u, v))
                tiers.append(t)
    if bye:
        vertices.append(_BYE)
        for u in members:
            t = fld.bye_tiers(u, banned)
            if t is not None:
                ends.append((u, _BYE))
                tiers.append(t)
    phantoms = [("float", k) for k in range(floats)]
    for ph in phantoms:
        vertices.append(ph)
        for u in members:
            ends.append((u, ph))
            tiers.append(fld.float_tiers(u, next_score))
    zero = (0,) * _TIERS
    for i, ph in enumerate(phantoms):
        for other in phantoms[i + 1 :]:
            ends.append((ph, other))
            tiers.append(zero)
    if len(vertices) % 2:
        raise PairingBugError("odd vertex count in a matching")
    m = len(vertices) // 2
    # Tight per-tier bounds from this graph's own edges keep the weights small (big integers
    # beyond 64 bits slow the matching down) while staying exact.
    tier_max = [max(column) for column in zip(*tiers, strict=True)] if tiers else list(zero)
    mults = []
    mult = 1
    for tmax in reversed(tier_max):
        mults.append(mult)
        mult *= m * tmax + 1
    mults.reverse()
    big = mult
    weighted = [
        (u, v, big - sum(map(mul, t, mults))) for (u, v), t in zip(ends, tiers, strict=True)
    ]
    return vertices, weighted


def _max_weight_matching(
    vertices: list[Hashable], edges: list[tuple[Hashable, Hashable, int]], backend: str
) -> set[Edge]:
    """A maximum-cardinality, maximum-weight matching; both backends return the optimum.

    Each pair comes out in ``vertices`` order (the side coin in ``_finish`` depends on it;
    rustworkx's own orientation follows a randomly seeded hash set).
    """
    index = {vertex: i for i, vertex in enumerate(vertices)}
    if backend == "rustworkx" and max((w for _, _, w in edges), default=0) < _RX_MAX_WEIGHT:
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(len(vertices)))
        graph.add_edges_from([(index[u], index[v], w) for u, v, w in edges])
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    elif backend in BACKENDS:
        nx_graph = nx.Graph()
        nx_graph.add_nodes_from(range(len(vertices)))
        nx_graph.add_weighted_edges_from((index[u], index[v], w) for u, v, w in edges)
        found = nx.max_weight_matching(nx_graph, maxcardinality=True)
    else:
        raise PairingBugError(f"unknown matching backend {backend!r}")
    return {(vertices[min(i, j)], vertices[max(i, j)]) for i, j in found}


def _next_round_possible(fld: _Field, pairs: set[Edge]) -> bool:
    """Whether the still-unplayed, non-forbidden pairs (after ``pairs``) admit a full round."""
    ids = [p.id for p in fld.order]
    played = set(fld.played)
    bye_now: set[Hashable] = set()
    for u, v in pairs:
        if _BYE in (u, v):
            bye_now.add(v if u == _BYE else u)
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
        vertices.append(_BYE)
        for u in ids:
            if fld.by_id[u].byes == 0 and u not in bye_now:
                edges.append((u, _BYE, 1))
    if {x for u, v, _ in edges for x in (u, v)} != set(vertices):
        return False  # a player with no possible opponent
    # Only the size of a maximum matching matters here, so ties between matchings are harmless.
    return 2 * len(_max_weight_matching(vertices, edges, fld.backend)) == len(vertices)


def _pair_full(fld: _Field, lookahead: bool) -> set[Edge]:
    ids = [p.id for p in fld.order]
    odd = len(ids) % 2 == 1
    best = _solve(fld, ids, bye=odd, floats=0, next_score=None)
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
        cand = _solve(fld, ids, bye=odd, floats=0, next_score=None, banned={frozenset(edge)})
        if cand is not None and _next_round_possible(fld, cand):
            return cand
    banned: set[frozenset] = set()
    current = best
    while attempts < LOOKAHEAD_ATTEMPTS:
        attempts += 1
        fresh = [frozenset(e) for e in sorted(current, key=repr) if frozenset(e) not in banned]
        if not fresh:
            break
        banned.add(fresh[0])
        cand = _solve(fld, ids, bye=odd, floats=0, next_score=None, banned=banned)
        if cand is None:
            break
        if _next_round_possible(fld, cand):
            return cand
        current = cand
    return best


def _windows(fld: _Field) -> list[list[int]]:
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


def _pair_windows(fld: _Field) -> set[Edge]:
    windows = _windows(fld)
    stack: list[tuple[list[int], set[Edge]]] = []  # (carried into window i, its pairs)
    carried: list[int] = []
    i = 0
    while i < len(windows):
        members = carried + windows[i]
        last = i == len(windows) - 1
        if last:
            pairs = _solve(fld, members, bye=len(members) % 2 == 1, floats=0, next_score=None)
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
        pairs = _solve(fld, members, bye=False, floats=floats, next_score=next_score)
        if pairs is None or (
            _has_rematch(fld, pairs) and len(members) + len(windows[i + 1]) <= MERGE_LIMIT
        ):
            # More players must float than the phantoms allow: solve with the next window.
            windows[i : i + 2] = [windows[i] + windows[i + 1]]
            continue
        floaters = []
        real: set[Edge] = set()
        for u, v in pairs:
            if isinstance(u, tuple) and isinstance(v, tuple):
                continue
            if isinstance(u, tuple) or isinstance(v, tuple):
                floaters.append(v if isinstance(u, tuple) else u)
            else:
                real.add((u, v))
        stack.append((carried, real))
        carried = sorted(floaters, key=fld.gpos.__getitem__)
        i += 1
    return {e for _, pairs in stack for e in pairs}


def _has_rematch(fld: _Field, pairs: set[Edge]) -> bool:
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
    fld = _Field(players, history, seed, round_number, backend)
    lookahead = rounds_total is None or round_number < rounds_total
    pairs = _pair_full(fld, lookahead) if len(players) <= FULL_GRAPH_MAX else _pair_windows(fld)
    return _finish(fld, pairs, seed, round_number)


def _finish(fld: _Field, pairs: set[Edge], seed: int, round_number: int) -> list[Pairing]:
    seen: list[int] = []
    real: list[tuple[int, int]] = []
    byes: list[int] = []
    for u, v in pairs:
        if u == _BYE or v == _BYE:
            byes.append(v if u == _BYE else u)  # type: ignore[arg-type]
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
