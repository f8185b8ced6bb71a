"""The gates to tournaments, their entries and rounds, and players' pages.

A gate fetches and checks in one call and raises ``Http404`` (no such object) or
``PermissionDenied`` (exists, but not for you); views never fetch a protected object
directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404

from thud_site.prepared import TEXT_STAND_IN, Prepared
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.permissions.roles import (
    can_grant_organiser_role,
    can_manage_co_organisers,
    can_organise,
    can_referee,
    can_see_round,
)

if TYPE_CHECKING:
    from django.http import HttpRequest

    from tournaments.permissions.roles import AnyUser


#: A tournament by its slug. Every tournament page reads one (the time-zone middleware,
#: the gates), so the query is compiled once per process (``thud_site.prepared``).
_BY_SLUG = Prepared(lambda slug: Tournament.objects.filter(slug=slug), TEXT_STAND_IN)


def find_tournament(slug: str) -> Tournament | None:
    """The tournament whose slug is ``slug``, or None."""
    try:
        return _BY_SLUG.get(slug)
    except Tournament.DoesNotExist:
        return None


def get_tournament_or_404(slug: str) -> Tournament:
    tournament = find_tournament(slug)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def access_tournament_public(slug: str, request: HttpRequest | None = None) -> Tournament:
    """Tournaments are public read-only once created. Given the ``request``, the
    tournament as it read it already (``tournament_read``: the time-zone middleware's
    read, ``tournaments.web.time_zones``), if it did: a reader's page writes nothing to
    it, and one read is one query fewer on every public page (issue 44). The gates that
    let a user act on a tournament read it afresh."""
    read = getattr(request, "tournament_read", None)
    if read is not None and read.slug == slug:
        return read
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


def access_round_public(user: AnyUser, slug: str, number: int) -> Round:
    """A round anyone may see (published or finished); a draft only for its referees (404)."""
    tournament = get_tournament_or_404(slug)
    round_ = tournament.round_set.filter(number=number).first()
    if round_ is None or not can_see_round(user, round_):
        raise Http404("No such round")
    return round_


def access_round_id_for_referee(user: AnyUser, round_id: int):
    try:
        round_ = Round.objects.select_related("tournament").get(pk=round_id)
    except Round.DoesNotExist as exc:
        raise Http404("No such round") from exc
    if not can_referee(user, round_.tournament):
        raise PermissionDenied
    return round_


def access_round_for_referee(user: AnyUser, slug: str, number: int) -> Round:
    tournament = access_tournament_for_referee(user, slug)
    try:
        return tournament.round_set.get(number=number)
    except Round.DoesNotExist as exc:
        raise Http404("No such round") from exc


def access_entry_by_token(token: str) -> Entry:
    """The entry whose personal link carries ``token`` (no login: the token is the key).

    A revoked or unknown token is a 404, never a hint that the entry exists."""
    entry = (
        Entry.objects.select_related("player", "tournament").filter(personal_token=token).first()
    )
    if entry is None or not token:
        raise Http404("No such personal link")
    return entry


def access_entry_for_referee(user: AnyUser, slug: str, entry_id: int):
    """An Entry of a tournament the user referees or organises (the check-in desk)."""
    tournament = access_tournament_for_referee(user, slug)
    entry = tournament.entries.select_related("player", "tournament").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such player in this tournament")
    return entry


def own_entry(user: AnyUser, tournament: Tournament):
    """The user's own Entry in ``tournament`` (through their claimed player), or None."""
    if not user.is_authenticated:
        return None
    return (
        tournament.entries.select_related("player", "tournament")
        .filter(player__user_id=user.pk)
        .first()
    )


def access_own_entry(user: AnyUser, slug: str):
    """The logged-in user's own Entry in the tournament; PermissionDenied if they have none."""
    entry = own_entry(user, get_tournament_or_404(slug))
    if entry is None:
        raise PermissionDenied
    return entry


def access_archive_import(user: AnyUser, job_id: int) -> ArchiveImport:
    """An archive upload, for its uploader and superusers only; to anyone else it does not
    exist (the file may name people and is not theirs to read about)."""
    job = ArchiveImport.objects.defer("data").select_related("tournament").filter(pk=job_id).first()
    if job is None or not (user.is_superuser or job.uploaded_by_id == user.pk):
        raise Http404("No such import")
    return job
