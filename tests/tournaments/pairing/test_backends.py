"""The fast matching backend (rustworkx) pairs exactly like the reference one (networkx).

Both are correct maximum-weight matchings, so they can only differ where two matchings weigh
the same; the tie-break tier makes the optimum unique. The first test checks that uniqueness
by brute force on small graphs, the others compare whole Swiss rounds from both backends on
the pairing tests' random states and on seeded simulated fields of several sizes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from tests.tournaments.pairing.test_swiss import large_states, tournament_states
from tournaments.pairing.matching import Field, weighted_graph
from tournaments.pairing.records import History, PairingUserError, PlayerRecord
from tournaments.pairing.swiss import FULL_GRAPH_MAX, pair_swiss


def _both(players, history, **kwargs):
    results = []
    for backend in ("rustworkx", "networkx"):
        try:
            results.append(pair_swiss(players, history, backend=backend, **kwargs))
        except PairingUserError as exc:
            results.append(("error", str(exc)))
    return results


def _perfect_matchings(vertices, weight):
    if not vertices:
        yield 0, frozenset()
        return
    u, rest = vertices[0], vertices[1:]
    for i, v in enumerate(rest):
        w = weight.get(frozenset((u, v)))
        if w is None:
            continue
        for total, pairs in _perfect_matchings(rest[:i] + rest[i + 1 :], weight):
            yield total + w, pairs | {frozenset((u, v))}


def _is_phantom(vertex):
    return isinstance(vertex, tuple) and vertex[0] == "float"


def assert_one_heaviest_pairing(players, history, seed):
    players = sorted(players, key=lambda p: p.id)
    fld = Field(players, history, seed, 3)
    members = [p.id for p in fld.order]
    for floats in (0, 2):
        if (len(members) + floats) % 2:
            continue
        vertices, edges = weighted_graph(fld, members, bye=False, floats=floats, next_score=None)
        weight = {frozenset((u, v)): w for u, v, w in edges}
        found = list(_perfect_matchings(vertices, weight))
        if not found:
            continue
        best = max(total for total, _ in found)
        # Float phantoms are interchangeable, so compare what the players get.
        winners = {
            frozenset(
                frozenset("float" if _is_phantom(x) else x for x in pair)
                for pair in pairs
                if not all(_is_phantom(x) for x in pair)
            )
            for total, pairs in found
            if total == best
        }
        assert len(winners) == 1


@settings(max_examples=150, deadline=None)
@given(tournament_states(max_n=9))
def test_the_heaviest_pairing_is_unique_so_any_correct_matching_finds_the_same(state):
    assert_one_heaviest_pairing(*state)


def test_a_field_where_every_other_tier_ties_still_has_one_heaviest_pairing():
    # Found by search: two pairings equal in rematches, score, floats, placement and noise.
    scores = [2, 2, 2, 0, 0, 0, 0, 0]
    players = [PlayerRecord(i, s, i, i) for i, s in enumerate(scores, start=1)]
    history = History(forbidden=frozenset({frozenset((3, 4)), frozenset((3, 8))}))
    assert_one_heaviest_pairing(players, history, seed=783)


@settings(max_examples=200, deadline=None)
@given(tournament_states(max_n=14))
def test_backends_pair_random_small_fields_identically(state):
    players, history, seed = state
    fast, reference = _both(players, history, seed=seed, round_number=3, rounds_total=5)
    assert fast == reference


@settings(max_examples=6, deadline=None)
@given(large_states())
def test_backends_pair_windowed_fields_with_dense_histories_identically(state):
    players, history, seed = state
    fast, reference = _both(players, history, seed=seed, round_number=6)
    assert fast == reference


@pytest.mark.parametrize("n", [7, 12, 33, FULL_GRAPH_MAX, FULL_GRAPH_MAX + 1, 150])
def test_backends_pair_every_round_of_a_simulated_tournament_identically(n):
    """Seeded rounds with byes, forbidden pairs and a growing history, compared round by round."""
    rng = random.Random(n)
    score = dict.fromkeys(range(1, n + 1), 0)
    byes = dict.fromkeys(score, 0)
    sides: dict[int, list[str]] = {i: [] for i in score}
    played: set[frozenset[int]] = set()
    forbidden = frozenset(frozenset(rng.sample(sorted(score), 2)) for _ in range(n // 5))
    rounds = 5
    for rnd in range(1, rounds + 1):
        order = sorted(score, key=lambda i: (-score[i], i))
        players = [
            PlayerRecord(i, score[i], order.index(i) + 1, i, byes[i], tuple(sides[i]))
            for i in score
        ]
        history = History(played=frozenset(played), forbidden=forbidden)
        fast, reference = _both(players, history, seed=n, round_number=rnd, rounds_total=rounds)
        assert fast == reference, f"round {rnd}"
        for p in fast:
            if p.b is None:
                byes[p.a] += 1
                score[p.a] += 2
                continue
            played.add(frozenset((p.a, p.b)))
            sides[p.a].append("first")
            sides[p.b].append("second")
            outcome = rng.choice("aabd")
            score[p.a] += {"a": 2, "b": 0, "d": 1}[outcome]
            score[p.b] += {"a": 0, "b": 2, "d": 1}[outcome]
