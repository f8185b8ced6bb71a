"""API v1's typed answers for tournaments, standings, statistics and ratings.

Where the old API named a key after a game's side (``<side>_won``, ``<side>_points``),
v1 lists the sides instead (``sides: [{"side": "<side>", ...}, ...]``, first side first):
one schema for every game, the side's stable name (``GameScale.names``) as a value. The
figures are the same objects' (``SideStats``, ``MatchScore``, ``RatingRow``, ``Change``).
"""

from __future__ import annotations

from datetime import date

from ninja import Schema

from tournaments.models.rounds import Match
from tournaments.reports.stats import SideStats
from tournaments.rules.scales import scale_of
from tournaments.standings.scoring import PointsScheme
from tournaments.web.views_api import pairing_frame, score_json


class TournamentOut(Schema):
    slug: str
    name: str
    game: str
    format: str
    variant: str
    capture_policy: str
    rounds: int
    status: str
    venue: str
    start_date: date | None
    end_date: date | None
    check_in_required: bool


class TournamentDetailOut(TournamentOut):
    #: The numbers of the rounds the public sees (published and finished).
    published_rounds: list[int]


class EntryOut(Schema):
    name: str
    seed: int | None
    checked_in: bool
    withdrawn_from_round: int | None
    not_playing_rounds: list[int]


class BattleSideOut(Schema):
    side: str
    player: str | None
    #: The game's counted numbers for this side (Thud: survivors; ``GameScale.numbers_name``).
    numbers: int
    points: int


class PairingBattleOut(Schema):
    battle: int
    sides: list[BattleSideOut]


class ScoreOut(Schema):
    a_points: int
    b_points: int
    differential: int
    outcome: str
    a_match_points: int
    b_match_points: int


class PairingOut(Schema):
    table: int
    player_a: str
    player_b: str | None
    result_status: str
    #: Null until the result is confirmed.
    battles: list[PairingBattleOut] | None
    score: ScoreOut | None


class StandingOut(Schema):
    rank: int
    name: str
    played: int
    match_points: int
    differential: int
    buchholz: int
    sonneborn_berger: float
    battles_won: int


class SideFiguresOut(Schema):
    side: str
    won: int
    won_pct: float
    avg_points: float
    #: Battles played on this side (a player's statistics only).
    battles: int | None = None


class StatsOut(Schema):
    game: str
    battles: int
    drawn: int
    drawn_pct: float
    #: A player's statistics only: battles lost.
    lost: int | None = None
    lost_pct: float | None = None
    sides: list[SideFiguresOut]


class TournamentStatsOut(StatsOut):
    tournament: str


class PlayerStatsOut(StatsOut):
    player: int
    name: str


class RatingOut(Schema):
    player: int
    name: str
    country: str
    rating: float
    rd: float
    volatility: float
    provisional: bool
    matches: int


class RatingValuesOut(Schema):
    rating: float
    rd: float
    volatility: float


class FacedOut(Schema):
    opponent: int
    name: str
    rating: float
    rd: float
    score: float


class RatingChangeOut(Schema):
    at: str
    tournament: str | None
    round: int | None
    casual_match: int | None
    before: RatingValuesOut
    after: RatingValuesOut
    change: float
    idle_periods: int
    games: list[FacedOut]
    explanation: str


class PlayerRatingsOut(Schema):
    player: int
    name: str
    game: str
    current: RatingOut | None
    history: list[RatingChangeOut]


def stats_data(stats: SideStats) -> dict:
    """``stats`` with its sides as a list, in the figures ``SideStats.as_json`` gives."""
    names = scale_of(stats.game).names
    played = (stats.first_battles, stats.second_battles) if stats.lost is not None else None
    sides = zip(
        names,
        (stats.first_won, stats.second_won),
        (stats.first_won_pct, stats.second_won_pct),
        (stats.avg_first_points, stats.avg_second_points),
        strict=True,
    )
    lost_pct = stats.lost_pct
    return {
        "game": stats.game,
        "battles": stats.battles,
        "drawn": stats.drawn,
        "drawn_pct": float(stats.drawn_pct),
        "lost": stats.lost,
        "lost_pct": None if lost_pct is None else float(lost_pct),
        "sides": [
            {
                "side": name,
                "won": won,
                "won_pct": float(pct),
                "avg_points": float(avg),
                "battles": None if played is None else played[i],
            }
            for i, (name, won, pct, avg) in enumerate(sides)
        ],
    }


def pairing_data(m: Match, scheme: PointsScheme) -> dict:
    """One pairing (the old API's ``pairing_json``, its sides as lists)."""
    data, score = pairing_frame(m)
    a, b = data["player_a"], data["player_b"]
    if score is None:
        return data
    assert m.confirmed_version is not None  # match_score scores the confirmed version
    survivors = m.confirmed_version.survivors
    names = survivors.scale.names
    data["battles"] = [
        {
            "battle": n,
            "sides": [
                {"side": names[side], "player": players[side], "numbers": numbers, "points": points}
                for side, (numbers, points) in enumerate(
                    zip(survivors.battle(n), survivors.battle_points(n), strict=True)
                )
            ],
        }
        for n, players in ((1, (a, b)), (2, (b, a)))
    ]
    data["score"] = score_json(score, scheme)
    return data
