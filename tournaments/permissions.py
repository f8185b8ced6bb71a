"""Every access decision in one place.

Roles (DESIGN.md §6): the *organiser* owns a tournament or is one of its
*co-organisers*, whom only the owner appoints (superusers organise every tournament);
members of the "Organisers" group, which a superuser grants, may create tournaments;
a *referee* is appointed per tournament (organisers referee their own), a *player* is
a user linked to a Player, and the *public* reads published pages.

Views never fetch a protected object directly: they call an ``access_*`` gate,
which fetches and checks in one call and raises ``Http404`` (no such object) or
``PermissionDenied`` (exists, but not for you).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Exists, OuterRef
from django.http import Http404

from tournaments.models import Entry, Match, Player, PlayerClaim, ResultVersion, Round, Tournament
from tournaments.rounds import lifecycle

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser


class Role(models.TextChoices):
    ORGANISER = "organiser"
    REFEREE = "referee"
    PLAYER = "player"
    PUBLIC = "public"


# Members may create tournaments; a superuser grants the role on /manage/organisers/.
# The group is created by migration 0005_organisers_group.
ORGANISERS_GROUP = "Organisers"


def _appointments(user: AbstractBaseUser, tournament: Tournament) -> tuple[bool, bool]:
    """Whether ``user`` is a co-organiser and whether a referee of ``tournament``.

    One query for both, remembered on the tournament instance: a page asks the
    question several times (the gate, the role, the template), and the instance lives
    for one request. Adding or removing through the instance forgets the answer
    (``forget_appointments``).
    """
    memo = tournament.__dict__.setdefault("_appointments", {})
    if user.pk not in memo:
        appointed = {
            f"is_{name}": Exists(
                getattr(Tournament, name).through.objects.filter(
                    tournament_id=OuterRef("pk"), user_id=user.pk
                )
            )
            for name in ("co_organisers", "referees")
        }
        memo[user.pk] = Tournament.objects.filter(pk=tournament.pk).annotate(
            **appointed
        ).values_list(*appointed).first() or (False, False)
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


def get_tournament_or_404(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist as exc:
        raise Http404("No such tournament") from exc


def access_tournament_public(slug: str) -> Tournament:
    """Tournaments are public read-only once created."""
    return get_tournament_or_404(slug)


def access_player_public(player_id: int) -> Player:
    """A player's statistics are public, like the tournament pages that name them."""
    try:
        return Player.objects.get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise Http404("No such player") from exc


def access_tournament_for_organiser(user: AnyUser, slug: str) -> Tournament:
    tournament = get_tournament_or_404(slug)
    if not can_organise(user, tournament):
        raise PermissionDenied
    return tournament


def access_tournament_for_owner(user: AnyUser, slug: str) -> Tournament:
    """Appointing and removing co-organisers: the owner or a superuser."""
    tournament = get_tournament_or_404(slug)
    if not can_manage_co_organisers(user, tournament):
        raise PermissionDenied
    return tournament


def access_organiser_roles(user: AnyUser) -> None:
    """The page that grants and revokes the organiser role: superusers only."""
    if not can_grant_organiser_role(user):
        raise PermissionDenied


def access_tournament_for_referee(user: AnyUser, slug: str) -> Tournament:
    tournament = get_tournament_or_404(slug)
    if not can_referee(user, tournament):
        raise PermissionDenied
    return tournament


def _match_in(tournament: Tournament, match_id: int) -> Match:
    try:
        return Match.objects.select_related(
            "round__tournament", "player_a__player", "player_b__player"
        ).get(pk=match_id, round__tournament=tournament)
    except Match.DoesNotExist as exc:
        raise Http404("No such match in this tournament") from exc


def access_match_for_referee(user: AnyUser, slug: str, match_id: int) -> Match:
    tournament = access_tournament_for_referee(user, slug)
    return _match_in(tournament, match_id)


def access_entry_for_organiser(user: AnyUser, slug: str, entry_id: int):
    """An Entry of a tournament the user organises (Http404 / PermissionDenied)."""
    tournament = access_tournament_for_organiser(user, slug)
    entry = tournament.entries.select_related("player", "tournament").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such player in this tournament")
    return entry


def access_round_for_organiser(user: AnyUser, slug: str, number: int):
    """A Round (drafts included) of a tournament the user organises."""
    tournament = access_tournament_for_organiser(user, slug)
    round_ = tournament.round_set.select_related("tournament").filter(number=number).first()
    if round_ is None:
        raise Http404("No such round")
    return round_


# --- matches by id (the battle gates in games/permissions.py build on these) -----------


def can_see_round(user: AnyUser, round_: Round) -> bool:
    """Published and finished rounds are public; a draft only for its referees."""
    return lifecycle.is_public(round_.status) or can_referee(user, round_.tournament)


def access_round_public(user: AnyUser, slug: str, number: int) -> Round:
    """A round anyone may see (published or finished); a draft only for its referees (404)."""
    tournament = get_tournament_or_404(slug)
    round_ = tournament.round_set.filter(number=number).first()
    if round_ is None or not can_see_round(user, round_):
        raise Http404("No such round")
    return round_


def _match_by_id(match_id: int) -> Match:
    try:
        return Match.objects.select_related(
            "round__tournament", "player_a__player", "player_b__player"
        ).get(pk=match_id)
    except Match.DoesNotExist as exc:
        raise Http404("No such match") from exc


def access_match_public(user: AnyUser, match_id: int) -> Match:
    """A match of a published round (anyone), or of a draft (its referees only: 404)."""
    match = _match_by_id(match_id)
    if not can_see_round(user, match.round):
        raise Http404("No such match")
    return match


def access_match_for_battle_start(user: AnyUser, match_id: int) -> Match:
    """A referee of the tournament, or one of the match's players, may start play."""
    match = access_match_public(user, match_id)
    if match.is_bye:
        raise Http404("A bye has no battles")
    if can_referee(user, match.round.tournament) or player_entry_in_match(user, match):
        return match
    raise PermissionDenied


def access_match_id_for_referee(user: AnyUser, match_id: int) -> Match:
    match = _match_by_id(match_id)
    if not can_referee(user, match.round.tournament):
        raise PermissionDenied
    return match


def access_round_id_for_referee(user: AnyUser, round_id: int):
    try:
        round_ = Round.objects.select_related("tournament").get(pk=round_id)
    except Round.DoesNotExist as exc:
        raise Http404("No such round") from exc
    if not can_referee(user, round_.tournament):
        raise PermissionDenied
    return round_


# --- Result entry (referees, organisers and the two players of a match) ------------------


def role_in_tournament(user: AnyUser, tournament: Tournament) -> Role:
    """The strongest tournament-wide role of ``user`` (players are decided per match)."""
    if can_organise(user, tournament):
        return Role.ORGANISER
    if can_referee(user, tournament):
        return Role.REFEREE
    return Role.PUBLIC


def access_round_for_referee(user: AnyUser, slug: str, number: int) -> Round:
    tournament = access_tournament_for_referee(user, slug)
    try:
        return tournament.round_set.get(number=number)
    except Round.DoesNotExist as exc:
        raise Http404("No such round") from exc


def access_match_for_result_entry(user: AnyUser, slug: str, match_id: int) -> tuple[Match, Role]:
    """The match and the caller's role on it: organiser, referee, or one of its players.

    Players act only on their own match, and only once its round is published.
    """
    tournament = get_tournament_or_404(slug)
    role = role_in_tournament(user, tournament)
    if role == Role.PUBLIC and not user.is_authenticated:
        raise PermissionDenied
    match = _match_in(tournament, match_id)
    if role == Role.PUBLIC:
        if player_entry_in_match(user, match) is None:
            raise PermissionDenied
        if not lifecycle.is_public(match.round.status):
            raise Http404("No such match")  # a draft pairing is not shown to players
        role = Role.PLAYER
    if match.is_bye:
        raise Http404("A bye has no result")
    return match, role


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


def access_version_for_confirm(
    user: AnyUser, slug: str, match_id: int, version_id: int
) -> tuple[Match, ResultVersion, Role]:
    match, role = access_match_for_result_entry(user, slug, match_id)
    try:
        version = match.versions.get(pk=version_id)
    except ResultVersion.DoesNotExist as exc:
        raise Http404("No such result version for this match") from exc
    if version.status not in (ResultVersion.Status.PENDING, ResultVersion.Status.DISPUTED):
        # Confirmed or superseded meanwhile (a repeated click, or another confirmer won
        # the race): let results.py answer with the current state ("changed meanwhile"),
        # provided this role could have confirmed such a version at all.
        if version.entered_by_id == user.pk or not (
            role in (Role.ORGANISER, Role.REFEREE)
            or (role == Role.PLAYER and version.kind == ResultVersion.Kind.ENTRY)
        ):
            raise PermissionDenied
        return match, version, role
    if not can_confirm(user, role, version):
        raise PermissionDenied
    return match, version, role


def access_match_for_correction(user: AnyUser, slug: str, match_id: int) -> tuple[Match, Role]:
    match, role = access_match_for_result_entry(user, slug, match_id)
    if not can_correct(role):
        raise PermissionDenied
    return match, role


def access_match_for_decision(user: AnyUser, slug: str, match_id: int) -> tuple[Match, Role]:
    match, role = access_match_for_result_entry(user, slug, match_id)
    if not can_decide(role):
        raise PermissionDenied
    return match, role


def matches_of_player(user: AnyUser) -> models.QuerySet[Match]:
    """The published matches of the Player linked to ``user`` (empty for anyone else)."""
    if not user.is_authenticated:
        return Match.objects.none()
    return (
        Match.objects.filter(
            models.Q(player_a__player__user=user) | models.Q(player_b__player__user=user)
        )
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .order_by("-round__tournament__start_date", "round__tournament__name", "round__number")
    )


# --- Player claims ------------------------------------------------------------------------


def claims_for_organiser(user: AnyUser) -> models.QuerySet[PlayerClaim]:
    """Pending claims ``user`` decides: on players entered **only** in their tournaments.

    The rule is "every entry of the player is in a tournament ``user`` owns" (and there
    is at least one). Being one of several organisers who entered a Player is not
    enough: an organiser who entered (or, before imports stopped reusing namesakes,
    silently adopted) someone else's Player must not be able to link it to an account
    that then confirms results in the other organiser's tournament. Entries added
    after a claim was made can therefore only take the decision away from an
    organiser, never hand it to a new one. Players shared between organisers, or
    entered in a tournament without an owner, are left to superusers, who see all.
    """
    if not user.is_authenticated:
        return PlayerClaim.objects.none()
    claims = PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING)
    if not user.is_superuser:
        entries = Entry.objects.filter(player=models.OuterRef("player"))
        # exclude(owner=user) keeps tournaments without an owner: they count as foreign.
        foreign = entries.exclude(tournament__owner=user)
        claims = claims.filter(models.Exists(entries)).exclude(models.Exists(foreign))
    return claims.select_related("user", "player").order_by("created_at")


def access_claim_for_organiser(user: AnyUser, claim_id: int) -> PlayerClaim:
    try:
        return claims_for_organiser(user).get(pk=claim_id)
    except PlayerClaim.DoesNotExist as exc:
        raise Http404("No such pending claim for you") from exc


# --- what a user's home page lists ---------------------------------------------------------


def tournaments_organised_by(user: AnyUser) -> models.QuerySet[Tournament]:
    """Tournaments ``user`` may organise (``can_organise``), newest first."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(models.Q(owner=user) | models.Q(co_organisers=user)).distinct()
    return qs.order_by("-start_date", "name")


def tournaments_refereed_by(user: AnyUser) -> models.QuerySet[Tournament]:
    """Tournaments ``user`` referees by appointment or as their organiser (``can_referee``)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.order_by("-start_date", "name")
    return (
        Tournament.objects.filter(
            models.Q(owner=user) | models.Q(co_organisers=user) | models.Q(referees=user)
        )
        .distinct()
        .order_by("-start_date", "name")
    )
