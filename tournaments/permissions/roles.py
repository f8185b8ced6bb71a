"""The roles and the predicates that decide what a user may do (``can_*``).

Roles (DESIGN.md §6): the *organiser* owns a tournament or is one of its
*co-organisers*, whom only the owner appoints (superusers organise every tournament);
members of the "Organisers" group, which a superuser grants, may create tournaments;
a *referee* is appointed per tournament (organisers referee their own), a *player* is
a user linked to a Player, and the *public* reads published pages.

The gates (``tournament_gates``, ``match_gates``, ``claims``) build on these predicates;
views call the gates, templates receive the predicates' answers from the view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Exists, OuterRef

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Tournament
from tournaments.rules import lifecycle

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser


class Role(models.TextChoices):
    ORGANISER = "organiser"
    REFEREE = "referee"
    PLAYER = "player"
    PUBLIC = "public"


# Members may create tournaments; a superuser grants the role on /manage/organisers/.
# The group is created by migration 0005_organisers_group.
ORGANISERS_GROUP = "Organisers"


#: What ``_appointments`` answers, in its order.
_APPOINTMENTS = ("co_organisers", "referees")


def appointed(user: User, tournament_ref: str = "pk") -> dict[str, Exists]:
    """Annotations answering whether ``user`` is a co-organiser and whether a referee of
    the tournament whose id the query's ``tournament_ref`` names: asked within another
    query (a battle's gate, ``games.web.permissions``), then kept by
    :func:`remember_appointments`."""
    return {
        f"is_{name}": Exists(
            getattr(Tournament, name).through.objects.filter(
                tournament_id=OuterRef(tournament_ref), user_id=user.pk
            )
        )
        for name in _APPOINTMENTS
    }


def remember_appointments(tournament: Tournament, user: User, annotated: object) -> None:
    """Keep the answer :func:`appointed` annotated on ``annotated`` (a row of the other
    query) on the tournament instance, as :func:`_appointments` keeps its own."""
    co_organiser, referee = (bool(getattr(annotated, f"is_{name}")) for name in _APPOINTMENTS)
    tournament.__dict__.setdefault("_appointments", {})[user.pk] = (co_organiser, referee)


def _appointments(user: User, tournament: Tournament) -> tuple[bool, bool]:
    """Whether ``user`` is a co-organiser and whether a referee of ``tournament``.

    One query for both, remembered on the tournament instance: a page asks the
    question several times (the gate, the role, the template), and the instance lives
    for one request. Adding or removing through the instance forgets the answer
    (``forget_appointments``).
    """
    memo = tournament.__dict__.setdefault("_appointments", {})
    if user.pk not in memo:
        annotations = appointed(user)
        memo[user.pk] = Tournament.objects.filter(pk=tournament.pk).annotate(
            **annotations
        ).values_list(*annotations).first() or (False, False)
    return memo[user.pk]


def forget_appointments(sender, instance, **kwargs) -> None:
    """``m2m_changed`` receiver: ``tournament.referees.add(...)`` and the like."""
    if isinstance(instance, Tournament):
        instance.__dict__.pop("_appointments", None)


def can_organise(user: AnyUser, tournament: Tournament) -> bool:
    """The owner, a co-organiser, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return _appointments(user, tournament)[0]


def can_manage_co_organisers(user: AnyUser, tournament: Tournament) -> bool:
    """Only the owner (or a superuser): co-organisers cannot appoint or remove each other,
    so a removed co-organiser cannot be put back by another one."""
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser) or tournament.owner_id == user.pk


def can_referee(user: AnyUser, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if can_organise(user, tournament):
        return True
    return _appointments(user, tournament)[1]


def can_create_tournament(user: AnyUser) -> bool:
    """Superusers, and the users a superuser made organisers (``is_staff`` is not enough)."""
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser) or user.groups.filter(name=ORGANISERS_GROUP).exists()


def can_grant_organiser_role(user: AnyUser) -> bool:
    return bool(user.is_authenticated and user.is_superuser)


def player_entry_in_match(user: AnyUser, match: Match):
    """The Entry of ``match`` that belongs to ``user``, or None."""
    if not user.is_authenticated:
        return None
    for entry in (match.player_a, match.player_b):
        if entry is not None and entry.player.user_id == user.pk:
            return entry
    return None


def can_see_round(user: AnyUser, round_: Round) -> bool:
    """Published and finished rounds are public; a draft only for its referees."""
    return lifecycle.is_public(round_.status) or can_referee(user, round_.tournament)


def role_in_tournament(user: AnyUser, tournament: Tournament) -> Role:
    """The strongest tournament-wide role of ``user`` (players are decided per match)."""
    if can_organise(user, tournament):
        return Role.ORGANISER
    if can_referee(user, tournament):
        return Role.REFEREE
    return Role.PUBLIC


def can_confirm(user: AnyUser, role: Role, version: ResultVersion) -> bool:
    """A different person confirms; players confirm only a plain pending entry.

    A disputed match and a correction are for a referee (or the organiser) to confirm
    (DESIGN.md §3, §7a).
    """
    if not user.is_authenticated or version.entered_by_id == user.pk:
        return False
    if role in (Role.ORGANISER, Role.REFEREE):
        return version.status in (ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED)
    return (
        role == Role.PLAYER
        and version.status == ResultVersion.Status.PENDING
        and version.kind == ResultVersion.Kind.ENTRY
    )


def can_correct(role: Role) -> bool:
    return role in (Role.ORGANISER, Role.REFEREE)


def can_decide(role: Role) -> bool:
    """An organiser's final decision, the one result that stands without a second person."""
    return role == Role.ORGANISER
