"""Who may see and act on a battle, built on the tournament's role checks.

The gates fetch and check in one call, like ``tournaments/permissions.py``: they raise
``Http404`` for a battle that does not exist *or may not be seen* (a draft round's
battles are invisible to everyone but its referees) and ``PermissionDenied`` for one
that exists but is not yours to act on. Views call a gate first and only then touch
the battle (settle its clock, apply a move), so an unknown id is a 404, never a 500.

``tournaments`` never imports ``games``: the match and round gates live there (reached
through ``tournaments.for_games``) and are re-exported here, so the battle views need one
permissions module.

A casual battle (no match) is public, played by its two seat users (``first_user``
moves first) and refereed by nobody: its players end a pause between them, and a site
administrator (superuser) may resume or decide it from the referee's clock page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games.battles.errors import UnreadableRecord
from games.models.battle import Battle
from games.rules.interface import Game
from games.web import presentations
from thud_site.prepared import ID_STAND_INS, Prepared
from tournaments.for_games import (
    access_match_for_battle_start,
    access_match_id_for_referee,
    access_match_public,
    access_round_id_for_referee,
    access_tournament_for_referee,
    access_tournament_public,
    appointed,
    can_referee,
    can_see_round,
    player_entry_in_match,
    remember_appointments,
)

if TYPE_CHECKING:
    from tournaments.for_games import AnyUser

__all__ = [
    "access_battle_for_arbiter",
    "access_battle_for_player",
    "access_battle_published",
    "access_battle_for_referee",
    "access_battle_public",
    "access_casual_battle_for_player",
    "access_match_for_battle_start",
    "access_match_id_for_referee",
    "access_match_public",
    "access_round_id_for_referee",
    "access_tournament_for_referee",
    "access_tournament_public",
    "battle_side_of",
    "can_arbitrate",
    "can_referee",
    "player_entry_in_match",
]


#: What a referee's press of "touched" or "moved" reads of the battle's tournament, match
#: and seats beyond the battle's own row: the gate's answer and the panel's names and links
#: (``views_referee``). A full hall is mostly presses (issue 44), and compiling and
#: building the joined rows' other columns was a quarter of a press's CPU. A column left
#: out is read when asked for, in a query of its own: the press's pinned query count
#: (``tests/games/test_referee_press_queries.py``) tells of one.
_PRESS_ONLY = (
    *(f.name for f in Battle._meta.concrete_fields),
    "match__round__number",
    "match__round__status",
    "match__round__tournament__name",
    "match__round__tournament__slug",
    "match__round__tournament__owner",
    "match__round__tournament__record_otb_moves",
    "match__round__tournament__time_zone",
    "match__table",
    "match__player_a",
    "match__player_b",
    *(
        f"{seat}__player__{name}"
        for seat in ("first_entry", "second_entry")
        for name in ("name", "user")
    ),
)


def _gate(press: bool, appointments: bool) -> Prepared[Battle]:
    """The gate's one query: the battle with its tournament and seats (``press``: only
    ``_PRESS_ONLY`` of the joined rows), and (``appointments``) whether the user whose id
    is the second value is appointed to its tournament."""

    def build(battle_id: int, user_id: int | None = None) -> QuerySet[Battle]:
        query = Battle.objects.select_related(
            "match__round__tournament", "first_entry__player", "second_entry__player"
        )
        if press:
            query = query.only(*_PRESS_ONLY)
        if user_id is not None:
            query = query.annotate(
                **appointed(get_user_model()(pk=user_id), "match__round__tournament_id")
            )
        return query.filter(pk=battle_id)

    return Prepared(build, *ID_STAND_INS[: 1 + appointments])


#: The gate's query for each (press, appointments): compiled once per process, since
#: compiling a join this wide cost more than running it (``thud_site.prepared``).
_GATES = {(press, asks): _gate(press, asks) for press in (False, True) for asks in (False, True)}


def _battle(battle_id: int, user: AnyUser | None = None, *, press: bool = False) -> Battle:
    """The battle with its tournament and seats in one query; given a ``user``, whether
    they are appointed to its tournament too (``roles.appointed``: the referee's gate asks
    on every press, so not in a second query). ``press``: only the columns a press reads
    of the joined rows (``_PRESS_ONLY``).

    The join stays small (measured: 3.5 ms instead of 11.8 ms for the old 14-table
    join, most of it planning and building models): the match's two entries are the
    battle's seats, so they are taken from there, and the users of a casual battle
    (which has no match) are loaded when its page asks for them. Its SQL is compiled once
    per process (``_GATES``).
    """
    asker = user if isinstance(user, get_user_model()) and not user.is_superuser else None
    gate = _GATES[press, asker is not None]
    try:
        battle = gate.get(battle_id, asker.pk) if asker else gate.get(battle_id)
    except Battle.DoesNotExist as exc:
        raise Http404("No such battle") from exc
    if battle.match is not None:
        if asker is not None:
            remember_appointments(battle.match.round.tournament, asker, battle)
        seats = {e.pk: e for e in (battle.first_entry, battle.second_entry) if e is not None}
        if battle.match.player_a_id in seats:
            battle.match.player_a = seats[battle.match.player_a_id]
        if battle.match.player_b_id in seats:
            battle.match.player_b = seats[battle.match.player_b_id]
    return battle


def access_battle_public(user: AnyUser, battle_id: int) -> Battle:
    """Battles of published rounds are watchable by anyone (spectators are read-only)."""
    battle = _battle(battle_id)
    if battle.match is not None and not can_see_round(user, battle.match.round):
        raise Http404("No such battle")
    return battle


def battle_side_of(user: AnyUser, battle: Battle) -> str | None:
    """The side key ``user`` commands in ``battle`` (the game's first or second), or None."""
    if not user.is_authenticated:
        return None
    first, second = (info.key for info in battle.rules.sides)
    if battle.is_casual:
        seats = (battle.first_user_id, battle.second_user_id)
    else:
        first_entry, second_entry = battle.tournament_entries()
        seats = (first_entry.player.user_id, second_entry.player.user_id)
    if seats[0] == user.pk:
        return first
    if seats[1] == user.pk:
        return second
    return None


def access_battle_for_player(user: AnyUser, battle_id: int) -> tuple[Battle, str]:
    """The battle and the side the user plays in it; only its two players pass. Its
    players act on it (move, touch, offer, claim), so a battle whose stored board cannot be
    read raises ``UnreadableRecord`` before anything is tried on it."""
    battle = access_battle_public(user, battle_id)
    side = battle_side_of(user, battle)
    if side is None:
        raise PermissionDenied
    if not battle.board_readable:
        raise UnreadableRecord(_("This battle's record cannot be read."), battle)
    return battle, side


def access_casual_battle_for_player(user: AnyUser, battle_id: int) -> tuple[Battle, str]:
    """A casual battle and the user's side in it (its players settle its pauses between
    them; a tournament battle's are its referee's)."""
    battle, side = access_battle_for_player(user, battle_id)
    if not battle.is_casual:
        raise PermissionDenied
    return battle, side


def access_battle_for_referee(user: AnyUser, battle_id: int) -> Battle:
    """A tournament battle for its referees and organisers (what only a match has: its
    result, its typed-in moves)."""
    battle = _battle(battle_id, user)
    if battle.match is None or not can_referee(user, battle.match.round.tournament):
        raise PermissionDenied
    return battle


#: What a site administrator may do to a casual battle from the referee's clock page: end
#: its pause or end it. Nothing that plays it or runs its clock.
CASUAL_ARBITER_ACTIONS = frozenset({"resume", "decide"})


def can_arbitrate(user: AnyUser, battle: Battle) -> bool:
    """Who runs a battle's clock page: a tournament battle's referees and organisers (and
    so co-organisers and superusers); a casual battle's only a site administrator."""
    if battle.match is None:  # a casual battle
        return bool(user.is_authenticated and user.is_superuser)
    return can_referee(user, battle.match.round.tournament)


#: The referee's presses: the hall's most frequent request (``_PRESS_ONLY``).
PRESSES = frozenset({"touched", "moved"})


def access_battle_for_arbiter(user: AnyUser, battle_id: int, action: str = "") -> Battle:
    """The battle's clock page and its ``action`` (``""``: just the page), for those who
    ``can_arbitrate``; on a casual battle only the ``CASUAL_ARBITER_ACTIONS``."""
    battle = _battle(battle_id, user, press=action in PRESSES)
    if not can_arbitrate(user, battle):
        raise PermissionDenied
    if battle.is_casual and action and action not in CASUAL_ARBITER_ACTIONS:
        raise PermissionDenied
    return battle


def access_battle_published(battle_id: int) -> Battle:
    """A battle of a published or finished round, whoever asks (the JSON API: a draft
    round's battles never appear there, not even to its referees)."""
    battle = _battle(battle_id)
    if battle.match is None or not can_see_round(AnonymousUser(), battle.match.round):
        raise Http404("No such battle")
    return battle


def access_battle_record(user: AnyUser, battle_id: int) -> Battle:
    """A tournament battle whose record and replay anyone who may watch it can read
    (records carry a tournament's tags: a casual game has none)."""
    battle = access_battle_public(user, battle_id)
    if battle.is_casual:
        raise Http404("No record for this battle")
    return battle


def access_battle_replay(user: AnyUser, battle_id: int) -> Battle:
    """A battle anyone who may watch it may replay and have analysed: a tournament's or a
    casual one (a game against the computer too), in a game with a replay page
    (:func:`has_replay`). The record file itself stays a tournament's
    (:func:`access_battle_record`)."""
    battle = access_battle_public(user, battle_id)
    if not has_replay(battle.rules):
        raise Http404("No replay for this game")
    return battle


def has_replay(game: Game) -> bool:
    """Whether battles of ``game`` have a replay page: its presentation draws one
    (``Presentation.replay_context``)."""
    return presentations.of(game).replay_context is not None
