"""The search itself (games.thud.bot.search): the collector, and the root's reductions."""

from __future__ import annotations

import gc

import pytest

from games.thud import CapturePolicy
from games.thud.bot import search as search_module
from games.thud.bot.search import search
from tests.games.thud.naive import random_playout


class RecordingClock:
    """A clock that never moves and notes whether the collector ran at each read."""

    def __init__(self) -> None:
        self.collecting: list[bool] = []

    def __call__(self) -> float:
        self.collecting.append(gc.isenabled())
        return 0.0


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_off_during_a_search_and_as_it_was_after(enabled):
    pos = random_playout(3, 40, CapturePolicy.ALL_OR_NONE, 0.5)
    clock = RecordingClock()
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        search(pos._d, pos._t, True, "all_or_none", clock=clock, budget_ms=1000, max_depth=2)
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert len(clock.collecting) > 3 and not any(clock.collecting[1:])
    assert after is enabled


def frozen_clock() -> float:
    return 0.0


def dwarfs_search(seed: int, depth: int, all_scores: bool = False):
    pos = random_playout(seed, 5 + seed * 7 % 100, CapturePolicy.ALL_OR_NONE, 0.5)
    return search(
        pos._d,
        pos._t,
        True,
        "all_or_none",
        clock=frozen_clock,
        budget_ms=1000,
        max_depth=depth,
        all_scores=all_scores,
    )


@pytest.mark.parametrize("seed", [15, 35])
def test_root_reductions_search_less_and_still_find_a_move_ranked_late(seed, monkeypatch):
    """Depth 3's best move ranks far down depth 2's order, so the root searched it a ply
    shallower first: it beat alpha there, was searched again at full depth, and won, as in
    a search without the root's reductions, which takes more nodes."""
    order = [move for move, _ in dwarfs_search(seed, 2, all_scores=True).scores]
    reduced = dwarfs_search(seed, 3)
    assert order.index(reduced.move) >= search_module.ROOT_LMR_AFTER
    monkeypatch.setattr(search_module, "ROOT_LMR_AFTER", 10_000)
    plain = dwarfs_search(seed, 3)
    assert (reduced.move, reduced.score) == (plain.move, plain.score)
    assert reduced.nodes < plain.nodes
