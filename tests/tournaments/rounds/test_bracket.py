"""Single elimination through the real workflow under the "higher seed advances" rule.

With ``knockout_draw_rule = higher_seed`` (``tournaments/pairing/elimination.py``) a knockout match
with differential 0 is won by the better seed, i.e. the lower seed number, whichever side
of the pairing it sits on. The playoff rule is tested in ``test_topcut.py``.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import swap_players
from tournaments.rounds.play import publish_round
from tournaments.rules.result import MatchResult
from tournaments.standings.scoring import score

pytestmark = pytest.mark.django_db

# 8 dwarfs = 8 points against 2 trolls = 8 points, in both battles: differential 0.
DRAW = (8, 2, 8, 2)
HIGHER = Tournament.DrawRule.HIGHER_SEED


def seeds_of(match: Match) -> tuple[int, int]:
    return (match.player_a.seed, match.player_b.seed)


def matches_of(round_: Round) -> list[Match]:
    return list(round_.matches.select_related("player_a", "player_b").order_by("table"))


def test_the_draw_survivors_really_are_a_draw():
    assert score(MatchResult(*DRAW, game="thud")).outcome == "draw"


def test_drawn_knockout_matches_send_the_better_seeds_to_the_final():
    t = tournament_with_players(
        4, rounds=2, format=Tournament.Format.SINGLE_ELIMINATION, knockout_draw_rule=HIGHER
    )
    first = pair_next_round(t, by=None, now=timezone.now())
    assert sorted(sorted(seeds_of(m)) for m in matches_of(first)) == [[1, 4], [2, 3]]
    # Turn one match around so the better seed sits on either side of a pairing:
    # neither "player A goes through" nor "player B goes through" is the rule.
    turned = next(m for m in matches_of(first) if 2 in seeds_of(m))
    swap_players(first, turned.player_a, turned.player_a)
    assert {seeds_of(m) for m in matches_of(first)} == {(1, 4), (3, 2)}
    publish_round(first, now=timezone.now())
    for m in matches_of(first):
        record_final_result(
            m, survivors=DRAW, by=None, source=ResultVersion.Source.IMPORT, now=timezone.now()
        )

    final = pair_next_round(t, by=None, now=timezone.now())

    (match,) = matches_of(final)
    assert sorted(seeds_of(match)) == [1, 2]


def test_a_decisive_knockout_match_sends_the_winner_on_even_if_the_worse_seed():
    t = tournament_with_players(
        4, rounds=2, format=Tournament.Format.SINGLE_ELIMINATION, knockout_draw_rule=HIGHER
    )
    first = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    # Seed 1 draws with seed 4; seed 3 (player B) beats seed 2: 5+0 against 16+12.
    for m in matches_of(first):
        survivors = DRAW if 1 in seeds_of(m) else (5, 4, 12, 0)
        record_final_result(
            m, survivors=survivors, by=None, source=ResultVersion.Source.IMPORT, now=timezone.now()
        )

    (match,) = matches_of(pair_next_round(t, by=None, now=timezone.now()))

    assert sorted(seeds_of(match)) == [1, 3]
