"""Pure tests of ratings/glicko2.py: the paper's example, a naive second implementation on
random periods, the empty period and idle growth, and refused values."""

from __future__ import annotations

import doctest
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import glicko2
from ratings.glicko2 import Game, Rating, RatingError, expected_score, grow, rate

from .naive import naive_rate

ROOT = Path(__file__).resolve().parents[2]
PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_GAMES = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]


def test_ratings_package_imports_neither_django_nor_celery():
    code = (
        "import ratings, ratings.glicko2, ratings.periods, ratings.cli, sys; "
        "assert 'django' not in sys.modules and 'celery' not in sys.modules, "
        "sorted(m for m in sys.modules if m.startswith(('django', 'celery')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["glicko2", "periods"])
def test_docstring_examples(name):
    module = __import__(f"ratings.{name}", fromlist=[name])
    failures, attempted = doctest.testmod(module, verbose=False)
    assert attempted > 0
    assert failures == 0


def test_the_papers_example_to_its_decimals():
    after = rate(PAPER_PLAYER, PAPER_GAMES)
    assert f"{after.rating:.2f}" == "1464.05"
    assert f"{after.rd:.2f}" == "151.52"
    # The paper prints 0.05999: the value cut, not rounded, to five decimals.
    assert 0.05999 <= after.volatility < 0.06000


def test_the_default_tau_is_the_issues_half():
    assert rate(PAPER_PLAYER, PAPER_GAMES) == rate(PAPER_PLAYER, PAPER_GAMES, tau=0.5)
    assert rate(PAPER_PLAYER, PAPER_GAMES, tau=1.2).volatility != pytest.approx(
        rate(PAPER_PLAYER, PAPER_GAMES).volatility, abs=1e-7
    )


def test_a_new_player_starts_at_1500_350_and_006():
    assert Rating() == Rating(1500.0, 350.0, 0.06)


ratings_ = st.floats(min_value=400, max_value=2800)
deviations = st.floats(min_value=20, max_value=350)
volatilities = st.floats(min_value=0.02, max_value=0.2)
scores = st.sampled_from([0.0, 0.5, 1.0])
games_ = st.lists(st.builds(Game, ratings_, deviations, scores), max_size=12)


@settings(max_examples=400, deadline=None)
@given(ratings_, deviations, volatilities, games_, st.sampled_from([0.3, 0.5, 1.0]))
def test_rate_agrees_with_the_naive_implementation(rating, rd, volatility, games, tau):
    after = rate(Rating(rating, rd, volatility), games, tau=tau)
    naive = naive_rate(rating, rd, volatility, [(g.rating, g.rd, g.score) for g in games], tau)
    # The paper's iteration stops at 1e-6 on ln σ², the naive bisection at 1e-9: the
    # volatility may differ by up to 5e-7 of itself, and the new RD and the rating's change
    # (both scale with φ'²) by about as much of themselves.
    assert after.volatility == pytest.approx(naive[2], rel=1e-6)
    assert after.rd == pytest.approx(naive[1], rel=2e-6)
    assert after.rating == pytest.approx(naive[0], abs=1e-6 + 2e-6 * abs(naive[0] - rating))


def test_an_upset_raises_the_volatility_and_a_steady_result_lowers_it():
    # Beating a far stronger player six times is a surprise; drawing equals, no surprise.
    upset = rate(Rating(1500, 50, 0.06), [Game(2100, 30, 1)] * 6)
    steady = rate(Rating(1500, 50, 0.06), [Game(1500, 30, 0.5)] * 6)
    assert upset.volatility > 0.06 > steady.volatility
    assert upset.rating > 1500
    assert steady.rating == pytest.approx(1500)


def test_an_empty_period_keeps_rating_and_volatility_and_widens_the_rd():
    after = rate(Rating(1620, 80, 0.07), [])
    assert after.rating == 1620
    assert after.volatility == 0.07
    assert after.rd == pytest.approx(math.sqrt(80**2 + (173.7178 * 0.07) ** 2), abs=1e-9)


@pytest.mark.parametrize("periods", [1, 2, 5])
def test_growing_by_t_periods_is_t_empty_periods(periods):
    player = Rating(1620, 80, 0.06)
    empty = player
    for _ in range(periods):
        empty = rate(empty, [])
    assert grow(player, periods).rd == pytest.approx(empty.rd, abs=1e-9)
    assert grow(player, periods).rating == 1620
    assert grow(player, periods).volatility == 0.06


def test_growth_stops_at_350_and_never_shrinks_an_rd_above_it():
    assert grow(Rating(1620, 340, 0.06), 1).rd < 350.0
    assert grow(Rating(1620, 340, 0.06), 200).rd == 350.0
    assert grow(Rating(1620, 349.9, 0.06), 0).rd == 349.9
    assert grow(Rating(1620, 350.09, 0.06), 3).rd == 350.09


def test_grow_refuses_a_negative_number_of_periods():
    with pytest.raises(RatingError, match="negative"):
        grow(Rating(), -1)


def test_expected_score_is_symmetric_and_widens_to_a_half_with_uncertainty():
    strong, weak = Rating(1800, 50), Rating(1500, 50)
    assert expected_score(strong, weak) + expected_score(weak, strong) == pytest.approx(1)
    assert expected_score(strong, weak) > expected_score(Rating(1800, 350), Rating(1500, 350))
    assert expected_score(Rating(1800, 350), Rating(1500, 350)) > 0.5
    # A gap far beyond the float range of exp() still gives a probability.
    assert expected_score(Rating(1e6, 0), Rating(-1e6, 0)) == 1.0
    assert expected_score(Rating(-1e6, 0), Rating(1e6, 0)) == 0.0


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Rating(1500, -1, 0.06), "rd must not be negative"),
        (lambda: Rating(1500, 200, 0), "volatility must be positive"),
        (lambda: Rating(math.nan, 200, 0.06), "rating must be finite"),
        (lambda: Rating(1500, math.inf, 0.06), "rd must be finite"),
        (lambda: Rating("1500", 200, 0.06), "rating must be a number"),
        (lambda: Rating(True, 200, 0.06), "rating must be a number"),
        (lambda: Game(1500, 200, 0.7), "score must be 0, 0.5 or 1"),
        (lambda: Game(1500, -3, 1), "opponent rd must not be negative"),
        (lambda: rate(PAPER_PLAYER, PAPER_GAMES, tau=0), "tau must be positive"),
        (lambda: rate(PAPER_PLAYER, PAPER_GAMES, tau=-0.5), "tau must be positive"),
        (lambda: rate(Rating(1e300, 1, 0.06), [Game(-1e300, 0, 0)]), "out of range"),
    ],
)
def test_bad_values_are_refused_with_a_clear_message(build, message):
    with pytest.raises(RatingError, match=message):
        build()


def test_rating_error_is_a_value_error():
    assert issubclass(glicko2.RatingError, ValueError)
