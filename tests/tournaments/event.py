"""A small hand-computed event shared by the statistics, crosstable and report tests.

Tournament "stats-cup", players Ann, Bo, Cy (seeds 1-3), every round published:

round 1: Ann (A) – Bo    survivors 20 3 10 4   b1 20-12 dwarfs, b2 10-16 trolls; Cy bye
round 2: Bo (A) – Cy     survivors  8 2 12 3   b1  8-8 drawn,  b2 12-12 drawn;  Ann bye
round 3: Cy (A) – Ann    survivors  5 6 30 1   b1  5-24 trolls, b2 30-4 dwarfs; Bo bye
round 4: Ann (A) – Bo    entered, not confirmed (does not count)

A second tournament "other-cup": Dee (A) – Ann, survivors 0 8 32 0 (b1 0-32 trolls, b2 32-0
dwarfs), so Ann's player statistics span two tournaments.

Hand-computed figures:
- stats-cup: 6 battles, dwarfs won 2, trolls won 2, drawn 2 (33.33 % each); dwarf points
  20+10+8+12+5+30 = 85 (avg 14.17), troll points 12+16+8+12+24+4 = 76 (avg 12.67).
- site: 8 battles, dwarfs 3 (37.50 %), trolls 3 (37.50 %), drawn 2 (25.00 %).
- Ann: 6 battles, won as dwarfs 3, as trolls 3, lost 0, drawn 0; avg as dwarfs
  (20+30+32)/3 = 27.33, as trolls (16+24+32)/3 = 24.00.
- Bo: 4 battles, won 0, lost 2, drawn 2; avg as dwarfs (10+8)/2 = 9.00, as trolls 12.00.
- Standings of stats-cup: Ann 6 MP (+14, bye, +45 = +59), Bo 3 MP (-14), Cy 3 MP (-45).
- Rank after rounds 1..4: Ann 1 1 1 1, Cy 2 2 3 3, Bo 3 3 2 2.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import timezone

from tests.factories import (
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models.results import ResultVersion
from tournaments.results.entry import enter_result
from tournaments.results.final import record_final_result

IMPORT = ResultVersion.Source.IMPORT


def build_event() -> SimpleNamespace:
    t = TournamentFactory(name="Stats Cup", slug="stats-cup")
    ann, bo, cy = (
        EntryFactory(tournament=t, player=PlayerFactory(name=name), seed=seed)
        for seed, name in enumerate(["Ann", "Bo", "Cy"], start=1)
    )
    r1, r2, r3, r4 = (RoundFactory(tournament=t, number=n) for n in range(1, 5))
    m1 = MatchFactory(round=r1, table=1, player_a=ann, player_b=bo)
    MatchFactory(round=r1, table=2, player_a=cy, player_b=None)
    m2 = MatchFactory(round=r2, table=1, player_a=bo, player_b=cy)
    MatchFactory(round=r2, table=2, player_a=ann, player_b=None)
    m3 = MatchFactory(round=r3, table=1, player_a=cy, player_b=ann)
    MatchFactory(round=r3, table=2, player_a=bo, player_b=None)
    m4 = MatchFactory(round=r4, table=1, player_a=ann, player_b=bo)
    for match, survivors in ((m1, (20, 3, 10, 4)), (m2, (8, 2, 12, 3)), (m3, (5, 6, 30, 1))):
        record_final_result(match, survivors=survivors, by=None, source=IMPORT, now=timezone.now())
    enter_result(
        m4,
        survivors=(32, 0, 0, 8),
        by=UserFactory(),
        expected_lock_version=None,
        now=timezone.now(),
    )

    other = TournamentFactory(name="Other Cup", slug="other-cup")
    dee = EntryFactory(tournament=other, player=PlayerFactory(name="Dee"), seed=1)
    ann2 = EntryFactory(tournament=other, player=ann.player, seed=2)
    m5 = MatchFactory(round=RoundFactory(tournament=other, number=1), player_a=dee, player_b=ann2)
    record_final_result(m5, survivors=(0, 8, 32, 0), by=None, source=IMPORT, now=timezone.now())
    return SimpleNamespace(t=t, other=other, ann=ann, bo=bo, cy=cy, m1=m1, m4=m4)


def grow_event(players: int, rounds: int = 2) -> object:
    """A tournament of ``players`` entries over ``rounds`` rounds, every match confirmed.

    For query-count tests: the same pages at two sizes must cost the same queries.
    """
    t = TournamentFactory()
    entries = [EntryFactory(tournament=t, seed=n) for n in range(1, players + 1)]
    for number in range(1, rounds + 1):
        round_ = RoundFactory(tournament=t, number=number)
        shifted = entries[number - 1 :] + entries[: number - 1]
        for table, (a, b) in enumerate(zip(shifted[::2], shifted[1::2], strict=False), 1):
            m = MatchFactory(round=round_, table=table, player_a=a, player_b=b)
            record_final_result(
                m, survivors=(table % 30, 2, 7, 3), by=None, source=IMPORT, now=timezone.now()
            )
    return t
