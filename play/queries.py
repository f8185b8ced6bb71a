"""Which casual battles belong to a user, and which of them wait for the user's move; and
every battle that waits for the user (``waiting_for_you``: the home page); the live
challenges a user received and made (the start page and API v1 list the same)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Count, Q, QuerySet

from games.engines import registry
from games.models.battle import Battle
from games.models.reasons import CANCELLED_REASONS
from tournaments.for_games import battles_of_copies

from .models import Challenge


def your_move(user, *, tournament: bool = False) -> Q:
    """Running battles where ``user`` holds the side to move (any game's side keys): as
    a casual battle's user, or (``tournament``) as a tournament battle's player."""
    first_seat, second_seat = _seat_of(user, tournament=tournament)
    q = Q(pk__in=[])
    for game in registry.all_games():
        first, second = (info.key for info in game.sides)
        q |= Q(game=game.key, side_to_move=first) & first_seat
        q |= Q(game=game.key, side_to_move=second) & second_seat
    return Q(status=Battle.Status.RUNNING) & q


def _seat_of(user, *, tournament: bool) -> tuple[Q, Q]:
    """Where ``user`` sits, by seat (first side, second side): as the user of a casual
    battle, or (``tournament``) as the player of a tournament battle's entry."""
    if tournament:
        return Q(first_entry__player__user=user), Q(second_entry__player__user=user)
    return Q(first_user=user), Q(second_user=user)


def waiting_for_you(user) -> QuerySet[Battle]:
    """Every online battle that waits for ``user``, in one query: casual ones, against
    the computer or in a tournament, waiting for the user to join (``games.rules.presence``) or
    for their move. The ones waiting to be joined first, then by deadline."""
    seated, moving = Q(pk__in=[]), Q(pk__in=[])
    for tournament in (False, True):
        first_seat, second_seat = _seat_of(user, tournament=tournament)
        seated |= first_seat | second_seat
        moving |= your_move(user, tournament=tournament)
    awaiting = Q(status=Battle.Status.PENDING, awaits_players=True)
    return (
        Battle.objects.filter(mode=Battle.Mode.ONLINE)
        .filter(seated)
        .filter(awaiting | moving)
        .select_related(
            "first_user",
            "second_user",
            "match__round__tournament",
            "first_entry__player",
            "second_entry__player",
        )
        .order_by("status", "deadline", "pk")  # "pending" (to join) before "running"
    )


def challenges_received(user, *, now: datetime) -> QuerySet[Challenge]:
    """The live challenges made to ``user`` (not the public seeks), newest first, the
    profiles with the users (the names' BOT marks cost no query each)."""
    return (
        Challenge.objects.live(now)
        .filter(opponent=user)
        .select_related("challenger__profile", "opponent__profile")
    )


def challenges_made(user, *, now: datetime) -> QuerySet[Challenge]:
    """The live challenges and seeks ``user`` made, newest first."""
    return (
        Challenge.objects.live(now)
        .filter(challenger=user)
        .select_related("challenger__profile", "opponent__profile")
    )


def user_named(name: str):
    """The active or inactive user called ``name`` (any case), or None.

    A name no account can have is None without a query: longer than a username may be,
    or holding a NUL, which PostgreSQL refuses in any text (a 500 if it reached SQL).
    """
    field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    # The username is a CharField with a length limit (Django's user model).
    assert isinstance(field, models.CharField) and field.max_length is not None
    if not name or len(name) > field.max_length or "\x00" in name:
        return None
    return get_user_model().objects.filter(**{f"{field.name}__iexact": name}).first()


def casual_battles_of(user) -> QuerySet[Battle]:
    return Battle.objects.filter(match__isnull=True).filter(
        Q(first_user=user) | Q(second_user=user)
    )


def waiting_for_players(user) -> QuerySet[Battle]:
    """``user``'s casual battles whose clock waits for both players (``games.rules.presence``)."""
    return casual_battles_of(user).filter(status=Battle.Status.PENDING, awaits_players=True)


def your_move_count(user) -> int:
    """One query: how many casual battles wait for ``user``'s move (the navigation badge)."""
    return casual_battles_of(user).filter(your_move(user)).count()


def _winner_index(game: str, winner: str) -> int | None:
    first, second = (info.key for info in registry.get(game).sides)
    return {first: 0, second: 1}.get(winner)


def finished_online() -> QuerySet[Battle]:
    """Battles played on the site to the end (casual and tournament) between people: they
    have a winner. A battle cancelled because a player never came (``no_show``) or
    expired with nobody there (``never_started``) was not played; one against the computer counts apart (``computer_result_rows``); one of a
    copy (an archive of a tournament the site already holds) counts on its own pages only."""
    return (
        Battle.objects.filter(
            status=Battle.Status.FINISHED, mode=Battle.Mode.ONLINE, bot_level__isnull=True
        )
        .exclude(finished_reason__in=CANCELLED_REASONS)
        .exclude(battles_of_copies())
    )


def computer_result_rows(user) -> list[tuple[str, int, str, int]]:
    """``(game, level, result, count)`` over ``user``'s finished battles against the
    computer, ``result`` being ``"won"``, ``"drawn"`` or ``"lost"`` for ``user`` (one query)."""
    grouped = (
        Battle.objects.filter(
            status=Battle.Status.FINISHED, match__isnull=True, bot_level__isnull=False
        )
        .filter(Q(first_user=user) | Q(second_user=user))
        .values("game", "bot_level", "bot_side", "winner")
        .annotate(n=Count("pk"))
        .order_by()
    )
    rows: list[tuple[str, int, str, int]] = []
    for r in grouped:
        result = "drawn" if not r["winner"] else "lost" if r["winner"] == r["bot_side"] else "won"
        rows.append((r["game"], r["bot_level"] or 0, result, r["n"]))
    return rows


def site_result_rows() -> list[tuple[str, int | None, int]]:
    """``(game, winner_index, count)`` over every finished online battle (one query)."""
    grouped = finished_online().values("game", "winner").annotate(n=Count("pk")).order_by()
    return [(r["game"], _winner_index(r["game"], r["winner"]), r["n"]) for r in grouped]


def player_result_rows(user) -> list[tuple[str, int, int | None, int]]:
    """``(game, seat, winner_index, count)`` over ``user``'s finished casual battles."""
    grouped = (
        finished_online()
        .filter(match__isnull=True)
        .filter(Q(first_user=user) | Q(second_user=user))
        .values("game", "first_user", "winner")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return [
        (
            r["game"],
            0 if r["first_user"] == user.pk else 1,
            _winner_index(r["game"], r["winner"]),
            r["n"],
        )
        for r in grouped
    ]
