"""Shared by the analysis tests: a finished online Thud battle with a blunder in it,
played through the workflow, and a clock that bounds the search by nodes."""

from __future__ import annotations

import random

from django.utils import timezone

from games.battles import play
from games.battles.starting import create_battles, start_battle
from games.engines import registry
from games.models.battle import Battle
from tests.factories import make_match

#: 1. d F1-F5 T G7-F6 (hangs a troll) 2. d F5-F6 xF6: the ply-2 move loses a troll.
MOVES = ("d F1-F5", "T G7-F6", "d F5-F6 xF6")
#: With :class:`Tick`, 7 680 nodes per position: enough for depth 1 here.
MS = 120


class Tick:
    """A clock that moves on a millisecond at each look (the search looks every 64 nodes)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def played_battle(moves=MOVES, *, finish: bool = True) -> Battle:
    """Battle 1 of a new quickfire match, ``moves`` played, then ended by agreement."""
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    for text in moves:
        battle = Battle.objects.get(pk=battle.pk)
        play.submit_move(
            battle.pk,
            side=battle.side_to_move,
            version=battle.clock_version,
            notation=text,
            now=timezone.now(),
        )
    if finish:
        now = timezone.now()
        play.offer_end(battle.pk, side="dwarf", now=now)
        play.accept_end(battle.pk, side="troll", now=now)
    return Battle.objects.get(pk=battle.pk)


def random_moves(plies: int, *, seed: int) -> tuple[str, ...]:
    """``plies`` random legal Thud moves from the opening: a battle whose analysis searches
    ``plies + 1`` positions (each for its budget: a long one keeps a worker busy)."""
    rules, rng = registry.get("thud"), random.Random(seed)
    state, moves = rules.initial_state({}), []
    for _ in range(plies):
        notation = rng.choice(rules.legal_moves(state))
        state, _info = rules.apply(state, notation)
        moves.append(notation)
    return tuple(moves)
