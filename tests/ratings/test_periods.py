"""Pure tests of ratings/periods.py: the fold over rating periods, against a naive recompute
and rule by rule (idle growth, simultaneity, order and ties, incremental equals recompute)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.glicko2 import Game, Rating, grow, rate
from ratings.periods import (
    Faced,
    Period,
    PeriodError,
    PlayerState,
    RatedMatch,
    as_of,
    display,
    fold,
    idle_spans,
    ordered,
    provisional,
    score_from_differential,
)

from .naive import naive_fold

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def period(at, key, *matches):
    return Period(at, key, tuple(RatedMatch(*m) for m in matches))


# ------------------------------------------------------------------ small rules


def test_score_follows_the_sign_of_the_differential():
    assert score_from_differential(7) == 1.0
    assert score_from_differential(0) == 0.5
    assert score_from_differential(-0.5) == 0.0


def test_provisional_while_the_rd_is_above_110():
    assert provisional(110.0001)
    assert not provisional(110.0)
    assert display(Rating(1520.4, 110.5)) == "1520?"
    assert display(Rating(1520.5, 60)) == "1521"
    assert display(Rating(1519.5, 60)) == "1520"  # halves up, not to even


def test_idle_spans_count_whole_30_day_spans():
    assert [idle_spans(T0, day(d)) for d in (0, 29, 29.99, 30, 59, 61)] == [0, 0, 0, 1, 1, 2]
    assert idle_spans(None, day(400)) == 0


@pytest.mark.parametrize(("days", "spans"), [(0, 0), (29, 0), (30, 1), (61, 2)])
def test_the_rd_grows_before_a_players_period_by_whole_30_day_spans(days, spans):
    first = fold([period(T0, (1, 1), (1, 2, 1.0))])
    second = fold(
        [period(day(days) + timedelta(minutes=1), (1, 2), (1, 3, 0.5))], previous=first.states
    )
    entry = second.history[0]
    assert (entry.player, entry.idle_spans) == (1, spans)
    before = first.states[1].rating
    assert entry.before == before
    assert entry.start == grow(before, spans)
    assert entry.start.rd == pytest.approx(
        math.sqrt(before.rd**2 + spans * (173.7178 * before.volatility) ** 2), abs=1e-9
    )
    assert entry.after == rate(entry.start, [Game(1500.0, 350.0, 0.5)])


def test_the_rd_grows_to_350_at_most():
    first = fold([period(T0, (1, 1), (1, 2, 1.0))])
    assert first.states[1].rating.rd < 300
    # At volatility 0.06 a span adds (0.06 × 173.7178)² ≈ 108.6 to RD²: forty idle years.
    later = fold([period(day(14600), (9, 1), (1, 2, 0.0))], previous=first.states)
    assert later.history[0].idle_spans == 486
    assert later.history[0].start.rd == 350.0
    assert later.history[1].start.rd == 350.0


def test_as_of_is_what_a_period_at_that_time_would_start_from():
    state = PlayerState(Rating(1620, 80, 0.06), T0, (1, 1))
    assert as_of(state, day(29)) == state.rating
    assert as_of(state, day(75)) == grow(state.rating, 2)
    assert as_of(state, day(-5)) == state.rating
    assert as_of(None, day(5)) == Rating()


# ------------------------------------------------------------------ one period


def three_players_rated():
    """Players 1, 2, 3 with different values after a first period."""
    return fold(
        [
            period(T0, (1, 1), (1, 4, 1.0), (2, 5, 0.5), (3, 6, 0.0)),
        ]
    )


def test_within_a_period_everyone_meets_the_opponents_values_from_before_it():
    first = three_players_rated()
    pre = {p: first.states[p].rating for p in (1, 2, 3)}
    # 2 plays twice in the period: against 1 and against 3.
    result = fold([period(day(1), (1, 2), (1, 2, 0.0), (2, 3, 1.0))], previous=first.states)
    by_player = {e.player: e for e in result.history}
    assert by_player[3].games == (Faced(2, pre[2], 0.0),)
    assert by_player[1].games == (Faced(2, pre[2], 0.0),)
    assert by_player[2].games == (Faced(1, pre[1], 1.0), Faced(3, pre[3], 1.0))
    assert result.states[3].rating == rate(pre[3], [Game(pre[2].rating, pre[2].rd, 0.0)])
    assert result.states[2].rating == rate(
        pre[2], [Game(pre[1].rating, pre[1].rd, 1.0), Game(pre[3].rating, pre[3].rd, 1.0)]
    )


def test_the_order_of_a_periods_matches_does_not_change_a_bit():
    first = three_players_rated()
    matches = [(1, 2, 0.0), (2, 3, 1.0), (3, 1, 0.5), (4, 2, 1.0), (5, 6, 0.5)]
    results = set()
    for seed in range(6):
        shuffled = random.Random(seed).sample(matches, len(matches))
        # Each match said from either player's side.
        flipped = [(o, p, 1 - s) if seed % 2 else (p, o, s) for p, o, s in shuffled]
        result = fold([period(day(1), (1, 2), *flipped)], previous=first.states)
        results.add((tuple(sorted(result.states.items())), result.history))
    assert len(results) == 1


def test_players_outside_a_period_keep_their_values():
    first = three_players_rated()
    result = fold([period(day(40), (1, 2), (1, 2, 1.0))], previous=first.states)
    assert result.states[3] is first.states[3]
    assert [e.player for e in result.history] == [1, 2]
    assert result.states[1].last_at == day(40)


def test_a_history_entry_explains_the_change():
    first = three_players_rated()
    result = fold([period(day(1), (1, 2), (3, 1, 1.0))], previous=first.states)
    entry = next(e for e in result.history if e.player == 3)
    assert entry.change == entry.after.rating - first.states[3].rating.rating > 0
    assert entry.games == (Faced(1, first.states[1].rating, 1.0),)
    assert (entry.at, entry.key) == (day(1), (1, 2))


def test_a_new_player_starts_from_the_initial_values():
    result = fold([period(T0, (1, 1), (10, 11, 1.0))])
    assert result.history[0].before == result.history[0].start == Rating()
    assert result.states[10].rating == rate(Rating(), [Game(1500.0, 350.0, 1.0)])


# ------------------------------------------------------------------ order


def test_periods_apply_by_time_whatever_order_they_are_given_in():
    periods = [
        period(day(0), (1, 1), (1, 2, 1.0)),
        period(day(2), (1, 2), (1, 3, 0.0)),
        period(day(5), (2, 1), (2, 1, 0.5)),
    ]
    expected = fold(periods)
    for seed in range(4):
        assert fold(random.Random(seed).sample(periods, 3)) == expected
    # Applied in another order the numbers differ: the order is not a formality.
    swapped = [
        replace(periods[0], at=day(5)),
        periods[1],
        replace(periods[2], at=day(0)),
    ]
    assert fold(swapped).states[1] != expected.states[1]


def test_ties_in_time_break_by_tournament_then_round():
    same = day(3)
    a = period(same, (7, 2), (1, 2, 1.0))
    b = period(same, (5, 4), (1, 3, 0.0))
    c = period(same, (7, 1), (1, 4, 0.5))
    assert ordered([a, b, c]) == [b, c, a]
    result = fold([a, b, c])
    assert [e.key for e in result.history if e.player == 1] == [(5, 4), (7, 1), (7, 2)]
    step = fold([b])
    step = fold([c], previous=step.states)
    step = fold([a], previous=step.states)
    assert step.states == result.states


def test_two_periods_with_one_key_are_refused():
    with pytest.raises(PeriodError, match=r"two periods have the key \(1, 1\)"):
        fold([period(day(0), (1, 1), (1, 2, 1.0)), period(day(9), (1, 1), (3, 4, 1.0))])


def test_a_period_before_a_players_last_one_is_refused_and_changes_nothing():
    first = fold([period(day(10), (2, 1), (1, 2, 1.0))])
    saved = dict(first.states)
    for late in (
        period(day(9), (3, 1), (1, 3, 1.0)),  # earlier
        period(day(10), (1, 5), (3, 2, 1.0)),  # same time, smaller key
        period(day(10), (2, 1), (1, 2, 1.0)),  # the same period again
    ):
        with pytest.raises(PeriodError, match="recompute from the start"):
            fold([late], previous=first.states)
    assert first.states == saved


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: RatedMatch(4, 4, 1.0), "cannot play themselves"),
        (lambda: RatedMatch(4, 5, 0.25), "score must be 0, 0.5 or 1"),
        (lambda: RatedMatch(4, 5, True), "score must be 0, 0.5 or 1"),
        (lambda: Period(datetime(2026, 3, 1, 18, 0), (1, 1), ()), "time zone"),
    ],
)
def test_bad_periods_are_refused_with_a_clear_message(build, message):
    with pytest.raises(PeriodError, match=message):
        build()


# ------------------------------------------------------------------ random histories


@st.composite
def histories(draw):
    """Up to 14 periods among up to 8 players over about a year: rounds (disjoint pairs)
    and casual matches, with shared times to exercise the tie-break."""
    players = list(range(1, draw(st.integers(2, 8)) + 1))
    times = draw(st.lists(st.integers(0, 400), min_size=1, max_size=14))
    periods = []
    for i, t in enumerate(times):
        shuffled = draw(st.permutations(players))
        size = draw(st.integers(1, len(players) // 2))
        pairs = [(shuffled[2 * k], shuffled[2 * k + 1]) for k in range(size)]
        scores = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=size, max_size=size))
        matches = [(a, b, s) for (a, b), s in zip(pairs, scores, strict=True)]
        periods.append(period(day(t), (draw(st.integers(0, 3)), i), *matches))
    return periods


@settings(max_examples=150, deadline=None)
@given(histories())
def test_the_fold_agrees_with_a_naive_recompute(periods):
    result = fold(periods)
    values, history = naive_fold(
        [(p.at, p.key, [(m.player, m.opponent, m.score) for m in p.matches]) for p in periods]
    )
    assert set(result.states) == set(values)
    # Apart by the two volatility root finders only: 3e-6 at most on 3,000 seeded histories.
    for player, state in result.states.items():
        assert state.rating.rating == pytest.approx(values[player][0], abs=1e-4)
        assert state.rating.rd == pytest.approx(values[player][1], abs=1e-4)
        assert state.rating.volatility == pytest.approx(values[player][2], rel=1e-5)
    assert [(e.player, e.key) for e in result.history] == [(h[0], h[1]) for h in history]
    for entry, (_, _, before, start, _, faced) in zip(result.history, history, strict=True):
        assert entry.before.rating == pytest.approx(before[0], abs=1e-4)
        assert entry.start.rd == pytest.approx(start[1], abs=1e-4)
        assert [f.opponent for f in entry.games] == [o for o, _, _ in faced]
        assert [f.rating.rd for f in entry.games] == pytest.approx(
            [s[1] for _, s, _ in faced], abs=1e-4
        )


@settings(max_examples=150, deadline=None)
@given(histories(), st.data())
def test_folding_a_prefix_then_the_rest_equals_one_fold_exactly(periods, data):
    in_order = ordered(periods)
    cut = data.draw(st.integers(0, len(in_order)))
    whole = fold(periods)
    prefix = fold(in_order[:cut])
    rest = fold(in_order[cut:], previous=prefix.states)
    assert rest.states == whole.states
    assert prefix.history + rest.history == whole.history
