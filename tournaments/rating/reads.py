"""What the rating pages and the API show: the list per game, a player's history with each
period's change explained, and the current ratings of some players.

Everything is read from the stored fold (``tournaments.models.ratings``); nothing here
recomputes a rating. Displayed ratings are whole numbers with "?" while provisional
(``ratings.periods.display``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from ratings.glicko2 import Rating
from ratings.periods import display, provisional
from tournaments.models.countries import country_name, sort_key
from tournaments.models.people import Player
from tournaments.models.ratings import RatingChange, SiteRating
from tournaments.rules.scales import registered


class UnknownGame(ValueError):
    """A game no app offers; the message says which ones exist."""


def check_game(game: str | None) -> str:
    """``game`` if it is a registered game's key, else :class:`UnknownGame`."""
    games = list(registered())
    if game not in games:
        raise UnknownGame(
            _("Unknown game %(game)r; choose one of: %(games)s.")
            % {"game": game or "", "games": ", ".join(games)}
        )
    assert game is not None  # in games
    return game


@dataclass(frozen=True)
class RatingRow:
    player: int
    name: str
    club: str
    country: str  # an ISO 3166-1 alpha-2 code, or ""
    rating: float
    rd: float
    volatility: float
    matches: int

    @property
    def provisional(self) -> bool:
        return provisional(self.rd)

    @property
    def country_name(self) -> str:
        """The country's name in the active language."""
        return country_name(self.country)

    @property
    def shown(self) -> str:
        return display(Rating(self.rating, self.rd, self.volatility))

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "name": self.name,
            "country": self.country,
            "rating": self.rating,
            "rd": self.rd,
            "volatility": self.volatility,
            "provisional": self.provisional,
            "matches": self.matches,
        }


def _row(r: SiteRating) -> RatingRow:
    p = r.player
    return RatingRow(p.pk, p.name, p.club, str(p.country), r.rating, r.rd, r.volatility, r.matches)


def rating_list(game: str, *, club: str = "", country: str = "") -> list[RatingRow]:
    """Every rated player of ``game``, best first (ties by name), optionally of one club or
    country."""
    rows = SiteRating.objects.filter(game=game).select_related("player")
    if club:
        rows = rows.filter(player__club=club)
    if country:
        rows = rows.filter(player__country=country)
    return [_row(r) for r in rows.order_by("-rating", "player__name", "player_id")]


def filter_choices(game: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The clubs and the countries of the rated players of ``game`` (the list's filters):
    each country once, as (code, name in the active language), sorted by that name."""
    players = Player.objects.filter(site_ratings__game=game)
    clubs = players.exclude(club="").values_list("club", flat=True).distinct().order_by("club")
    # order_by(): the model's ordering by name would make each (country, name) distinct.
    codes = players.exclude(country="").order_by().values_list("country", flat=True).distinct()
    countries = sorted(((code, country_name(code)) for code in codes), key=lambda c: sort_key(c[1]))
    return list(clubs), countries


def rating_of(player: Player, game: str) -> RatingRow | None:
    r = SiteRating.objects.filter(player=player, game=game).select_related("player").first()
    return None if r is None else _row(r)


def shown_ratings(player_ids: Iterable[int], game: str) -> dict[int, str]:
    """The displayed current rating of each of ``player_ids`` who has one in ``game``."""
    return {
        r.player_id: display(Rating(r.rating, r.rd, r.volatility))
        for r in SiteRating.objects.filter(game=game, player_id__in=list(player_ids))
    }


def site_ratings(player_ids: Iterable[int], game: str) -> dict[int, float]:
    """The current rating of each of ``player_ids`` who has one in ``game`` (seeding)."""
    return dict(
        SiteRating.objects.filter(game=game, player_id__in=list(player_ids)).values_list(
            "player_id", "rating"
        )
    )


@dataclass(frozen=True)
class Faced:
    opponent: int
    name: str
    rating: float
    rd: float
    score: float

    @property
    def shown(self) -> str:
        return display(Rating(self.rating, self.rd))

    @property
    def words(self) -> str:
        """ "won against Sam Vimes 1620" (the opponent's rating from before the period)."""
        values = {"name": self.name, "rating": self.shown}
        if self.score == 1:
            return _("won against %(name)s %(rating)s") % values
        if self.score == 0:
            return _("lost to %(name)s %(rating)s") % values
        return _("drew with %(name)s %(rating)s") % values


@dataclass(frozen=True)
class Change:
    at: datetime
    where: str  # "Round 3, Ankh-Morpork Open" or "Casual match"
    tournament_slug: str | None
    round_number: int | None
    casual_match: int | None
    before: Rating
    after: Rating
    idle_spans: int
    games: Sequence[Faced]

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating

    @property
    def shown_change(self) -> str:
        return f"{self.change:+.1f}"

    @property
    def shown_after(self) -> str:
        return display(self.after)

    @property
    def explanation(self) -> str:
        """ "+12.4 · won against Sam Vimes 1620 · Round 3, Ankh-Morpork Open"."""
        return " · ".join([self.shown_change, *(f.words for f in self.games), self.where])

    def as_json(self) -> dict[str, object]:
        return {
            "at": self.at.isoformat(),
            "tournament": self.tournament_slug,
            "round": self.round_number,
            "casual_match": self.casual_match,
            "before": _values(self.before),
            "after": _values(self.after),
            "change": self.change,
            "idle_periods": self.idle_spans,
            "games": [
                {
                    "opponent": f.opponent,
                    "name": f.name,
                    "rating": f.rating,
                    "rd": f.rd,
                    "score": f.score,
                }  # fmt: skip
                for f in self.games
            ],
            "explanation": self.explanation,
        }


def _values(r: Rating) -> dict[str, float]:
    return {"rating": r.rating, "rd": r.rd, "volatility": r.volatility}


def history(player: Player, game: str) -> list[Change]:
    """The player's periods in ``game``, oldest first."""
    rows = (
        RatingChange.objects.filter(player=player, game=game)
        .select_related("round__tournament")
        .order_by("at", "key_a", "key_b")
    )
    return [_change(r) for r in rows]


def _change(r: RatingChange) -> Change:
    round_ = r.round
    if round_ is not None:
        t = round_.tournament
        where = _("Round %(n)d, %(tournament)s") % {"n": round_.number, "tournament": t.name}
        slug, number = t.slug, round_.number
    else:
        where, slug, number = _("Casual match"), None, None
    return Change(
        at=r.at,
        where=where,
        tournament_slug=slug,
        round_number=number,
        casual_match=r.casual_match,
        before=Rating(r.before_rating, r.before_rd, r.before_volatility),
        after=Rating(r.after_rating, r.after_rd, r.after_volatility),
        idle_spans=r.idle_spans,
        games=[
            Faced(int(g["opponent"]), g["name"], g["rating"], g["rd"], g["score"]) for g in r.games
        ],
    )
