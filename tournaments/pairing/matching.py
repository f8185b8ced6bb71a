"""The weighted matching under the Swiss pairing: each edge's cost in exact priority tiers,
the graph of a field (with bye and float phantoms), and the two matching backends.

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

Pure: no Django imports.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from operator import mul

import rustworkx as rx

from tournaments.pairing.records import (
    History,
    PairingBugError,
    PlayerRecord,
)

_NOISE_BITS = 10
_TIE_BITS = 32
_TIE_MASK = (1 << _TIE_BITS) - 1
_TIERS = 7  # rematch, ban, score, float/bye, placement, noise, tie-break


# rustworkx's matching works on signed 128-bit weights and its dual variables reach twice the
# largest weight; above this the reference backend (Python integers) takes over.
_RX_MAX_WEIGHT = 1 << 120
BACKENDS = ("rustworkx", "networkx")
BYE: Hashable = ("bye",)
Edge = tuple[Hashable, Hashable]


def fold_partner(place: int, size: int) -> int:
    """The ideal partner (tier 5) of the player at 0-based ``place`` in a score group of
    ``size``: the fold, 1 v G, 2 v G-1, ... (the top half meets the bottom half, mirrored).
    ``tournaments.pairing.first_round`` says the same in words.

    >>> [fold_partner(place, 8) for place in range(4)]
    [7, 6, 5, 4]
    """
    return size - 1 - place


def players_below(place: int, size: int) -> int:
    """The bye's cost (tier 4) for the player at 0-based ``place`` of a field of ``size``
    sorted by score then rank: the players below them, so the bye goes to the lowest-ranked
    player who has not had one.

    >>> players_below(7, 8), players_below(0, 8)
    (0, 7)
    """
    return size - 1 - place


class Field:
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

    def pair_tiers(
        self, u: int, v: int, banned: Collection[frozenset[Hashable]]
    ) -> tuple[int, ...] | None:
        key = frozenset((u, v))
        if key in self.forbidden:
            return None
        su, pu, gu, nu, ku = self.facts[u]
        sv, pv, gv, nv, kv = self.facts[v]
        if su == sv:
            dev = pu - fold_partner(pv, gu)
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

    def bye_tiers(self, u: int, banned: Collection[frozenset[Hashable]]) -> tuple[int, ...] | None:
        p = self.by_id[u]
        if p.byes > 0:
            return None
        d = p.score - (self.min_score - 1)
        below = players_below(self.gpos[u], len(self.order))
        return (
            0,
            int(frozenset((u, BYE)) in banned),
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


def solve(
    fld: Field,
    members: list[int],
    *,
    bye: bool,
    floats: int,
    next_score: int | None,
    banned: Collection[frozenset[Hashable]] = frozenset(),
) -> set[Edge] | None:
    """Max-weight perfect matching over ``members`` (+ bye / float phantoms), or None."""
    vertices, weighted = weighted_graph(
        fld, members, bye=bye, floats=floats, next_score=next_score, banned=banned
    )
    matching = max_weight_matching(vertices, weighted, fld.backend)
    if 2 * len(matching) != len(vertices):
        return None
    return matching


def weighted_graph(
    fld: Field,
    members: list[int],
    *,
    bye: bool,
    floats: int,
    next_score: int | None,
    banned: Collection[frozenset[Hashable]] = frozenset(),
) -> tuple[list[Hashable], list[tuple[Hashable, Hashable, int]]]:
    """The vertices and integer-weighted edges that ``solve`` matches."""
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
        vertices.append(BYE)
        for u in members:
            t = fld.bye_tiers(u, banned)
            if t is not None:
                ends.append((u, BYE))
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


def max_weight_matching(
    vertices: list[Hashable], edges: list[tuple[Hashable, Hashable, int]], backend: str
) -> set[Edge]:
    """A maximum-cardinality, maximum-weight matching; both backends return the optimum.

    Each pair comes out in ``vertices`` order (the side coin in ``swiss._finish`` depends on it;
    rustworkx's own orientation follows a randomly seeded hash set).
    """
    index = {vertex: i for i, vertex in enumerate(vertices)}
    if backend == "rustworkx" and max((w for _, _, w in edges), default=0) < _RX_MAX_WEIGHT:
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(len(vertices)))
        graph.add_edges_from([(index[u], index[v], w) for u, v, w in edges])
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    elif backend in BACKENDS:
        # networkx (~1.4 s of imports) only when it is used: a deliberate function-level
        # import of a third-party library, so no web or worker process pays it at start.
        import networkx as nx

        nx_graph = nx.Graph()
        nx_graph.add_nodes_from(range(len(vertices)))
        nx_graph.add_weighted_edges_from((index[u], index[v], w) for u, v, w in edges)
        found = nx.max_weight_matching(nx_graph, maxcardinality=True)
    else:
        raise PairingBugError(f"unknown matching backend {backend!r}")
    return {(vertices[min(i, j)], vertices[max(i, j)]) for i, j in found}
