"""A deliberately naive Glicko-2, written straight from Glickman's *Example of the Glicko-2
system* and the issue's rules, sharing nothing with ``ratings`` but the arithmetic.

Plain tuples, one loop per formula, and a different root finder for the volatility: plain
bisection on ``f`` to 1e-9 (the engine uses the paper's Illinois iteration to 1e-6). The
fold recomputes everything from the start on plain dicts. Slow and obvious on purpose; the
tests compare ``ratings`` against it.
"""

from __future__ import annotations

import math

Q = 173.7178  # the paper's scale factor


def naive_rate(rating, rd, sigma, games, tau=0.5):
    """(rating, rd, volatility) after one period of ``games``: [(rating, rd, score), ...]."""
    mu = (rating - 1500) / Q
    phi = rd / Q
    if not games:
        return rating, Q * math.sqrt(phi**2 + sigma**2), sigma
    opponents = [((r - 1500) / Q, d / Q, s) for r, d, s in games]

    def g(p):
        return 1 / math.sqrt(1 + 3 * p**2 / math.pi**2)

    def e(mu_j, phi_j):
        return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))

    v = 1 / sum(g(p) ** 2 * e(m, p) * (1 - e(m, p)) for m, p, _ in opponents)
    delta = v * sum(g(p) * (s - e(m, p)) for m, p, s in opponents)

    a = math.log(sigma**2)

    def f(x):
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / tau**2
        )

    # f falls from positive to negative through its one root: widen a bracket around a.
    lo, hi = a - 1, a + 1
    while f(lo) < 0:
        lo -= 1
    while f(hi) > 0:
        hi += 1
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    new_sigma = math.exp((lo + hi) / 4)

    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * sum(g(p) * (s - e(m, p)) for m, p, s in opponents)
    return 1500 + Q * new_mu, Q * new_phi, new_sigma


def naive_fold(periods, tau=0.5):
    """Every player's (rating, rd, volatility) after ``periods``: [(at, key, [(player,
    opponent, score), ...]), ...] in any order; and each player's history as a list of
    (player, key, before, start, after, [(opponent, opponent's start, score), ...])."""
    values = {}  # player -> (rating, rd, volatility)
    last = {}  # player -> datetime of their last period
    history = []
    for at, key, matches in sorted(periods, key=lambda p: (p[0], p[1])):
        games = {}
        for player, opponent, score in matches:
            games.setdefault(player, []).append((opponent, score))
            games.setdefault(opponent, []).append((player, 1 - score))
        start = {}
        for player in games:
            rating, rd, sigma = values.get(player, (1500.0, 350.0, 0.06))
            if player in last and rd < 350:
                days = (at - last[player]).total_seconds() / 86400
                spans = int(days // 30)
                rd = min(350.0, math.sqrt(rd**2 + spans * (Q * sigma) ** 2))
            start[player] = (rating, rd, sigma)
        new = {}
        for player in sorted(games):
            faced = sorted(games[player])
            played = [(start[o][0], start[o][1], s) for o, s in faced]
            new[player] = naive_rate(*start[player], played, tau)
            history.append(
                (
                    player,
                    key,
                    values.get(player, (1500.0, 350.0, 0.06)),
                    start[player],
                    new[player],
                    [(o, start[o], s) for o, s in faced],
                )
            )
        values.update(new)
        last.update(dict.fromkeys(new, at))
    return values, history
