"""One Glicko-2 rating period for one player, as in Glickman's *Example of the Glicko-2
system* (Boston University, 30 November 2013): values in, values out.

Terms (the paper's):

* **rating** ``r``, **rating deviation** ``RD`` and **volatility** ``σ`` describe a player; a
  new player starts at 1500 / 350 / 0.06.
* A **rating period** is a set of games treated as simultaneous: each is played against an
  opponent's rating and RD *from before the period*, scored 1 (win), 0.5 (draw) or 0 (loss).
* ``τ`` (``tau``, 0.5 here) limits how fast the volatility changes; the volatility is found
  by the paper's Illinois iteration to ``ε`` = 0.000001.
* The algorithm works on the Glicko-2 scale ``μ = (r − 1500) / 173.7178``,
  ``φ = RD / 173.7178``; the values handed in and out are on the rating scale.

Invariants: :func:`rate` and :func:`grow` never read a clock and never round; an empty
period only widens the RD (the paper's step 6). A computation that leaves the floating-point
range raises :class:`RatingError` rather than returning ``nan`` or ``inf``.

The paper's example (it prints 1464.06 from rounded intermediate values, and the volatility
cut to 0.05999):

>>> player = Rating(rating=1500, rd=200, volatility=0.06)
>>> games = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]
>>> after = rate(player, games)
>>> f"{after.rating:.2f} {after.rd:.2f} {after.volatility:.6f}"
'1464.05 151.52 0.059996'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the paper's 400 / ln(10), to its four decimals
INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 0.000001
SCORES = (0.0, 0.5, 1.0)


class RatingError(ValueError):
    """Values the algorithm cannot take (a negative RD, a score of 0.7, ...) or a period
    whose numbers leave the floating-point range."""


def _finite(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RatingError(f"{name} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise RatingError(f"{name} must be finite, not {value!r}")


@dataclass(frozen=True)
class Rating:
    """A player's values on the rating scale."""

    rating: float = INITIAL_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY

    def __post_init__(self) -> None:
        _finite("rating", self.rating)
        _finite("rd", self.rd)
        _finite("volatility", self.volatility)
        if self.rd < 0:
            raise RatingError(f"rd must not be negative, not {self.rd!r}")
        if self.volatility <= 0:
            raise RatingError(f"volatility must be positive, not {self.volatility!r}")


@dataclass(frozen=True)
class Game:
    """One game of a period, from the rated player's side: the opponent's pre-period rating
    and RD, and the player's score."""

    rating: float
    rd: float
    score: float

    def __post_init__(self) -> None:
        _finite("opponent rating", self.rating)
        _finite("opponent rd", self.rd)
        _finite("score", self.score)
        if self.rd < 0:
            raise RatingError(f"opponent rd must not be negative, not {self.rd!r}")
        if self.score not in SCORES:
            raise RatingError(f"score must be 0, 0.5 or 1, not {self.score!r}")


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    # The two branches keep exp() from overflowing for a huge rating gap.
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent, both values uncertain: the paper's
    ``E`` with ``g`` of the two deviations combined, ``g(√(φ² + φⱼ²))`` (Glickman's
    prediction of a game between two rated players).

    >>> round(expected_score(Rating(1700, 0.0), Rating(1500, 0.0)), 4)
    0.7597
    >>> expected_score(Rating(1500, 80), Rating(1500, 300))
    0.5
    """
    phi = math.hypot(player.rd, opponent.rd) / SCALE
    return _logistic(_g(phi) * (player.rating - opponent.rating) / SCALE)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the paper's Illinois iteration on ``x = ln σ²``."""
    a = math.log(sigma * sigma)
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / tau2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if not math.isfinite(f_c):
            raise ArithmeticError("the volatility iteration left the floating-point range")
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, games: Sequence[Game], *, tau: float = TAU) -> Rating:
    """The player's values after one rating period of ``games`` (steps 2 to 8).

    An empty period keeps the rating and volatility and widens the RD by one period:

    >>> round(rate(Rating(1500, 200, 0.06), []).rd, 4)
    200.2714
    """
    _finite("tau", tau)
    if tau <= 0:
        raise RatingError(f"tau must be positive, not {tau!r}")
    try:
        return _rate(player, games, tau)
    except (ArithmeticError, ValueError) as exc:  # overflow, 0/0, log of a non-positive
        raise RatingError(f"the numbers of this period are out of range ({exc})") from None


def _rate(player: Rating, games: Sequence[Game], tau: float) -> Rating:
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return _checked(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    information = 0.0  # 1 / v
    improvement = 0.0  # Σ g(φⱼ)(sⱼ − E), Δ / v
    for game in games:
        g = _g(game.rd / SCALE)
        e = _logistic(g * (mu - (game.rating - INITIAL_RATING) / SCALE))
        information += g * g * e * (1 - e)
        improvement += g * (game.score - e)
    v = 1 / information
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return _checked(SCALE * new_mu + INITIAL_RATING, SCALE * new_phi, new_sigma)


def _checked(rating: float, rd: float, volatility: float) -> Rating:
    if not all(math.isfinite(x) for x in (rating, rd, volatility)) or volatility <= 0:
        raise ArithmeticError("a value left the floating-point range")
    return Rating(rating, rd, volatility)


def grow(player: Rating, periods: int) -> Rating:
    """The player's values after ``periods`` periods without play (step 6 that many times,
    ``φ² + t·σ²``), the RD capped at 350 (an RD already above it stays as it is).

    >>> grow(Rating(1620, 80, 0.06), 0) == Rating(1620, 80, 0.06)
    True
    >>> round(grow(Rating(1620, 80, 0.06), 2).rd, 4)
    81.3467
    >>> grow(Rating(1620, 300, 0.06), 1000).rd
    350.0
    """
    if periods < 0:
        raise RatingError(f"periods must not be negative, not {periods}")
    if periods == 0 or player.rd >= INITIAL_RD:
        return player
    phi = player.rd / SCALE
    grown = SCALE * math.sqrt(phi * phi + periods * player.volatility**2)
    return Rating(player.rating, min(grown, INITIAL_RD), player.volatility)
