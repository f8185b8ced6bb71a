"""The gates to matches and their result versions: seeing, starting play, entering,
confirming, correcting and deciding results (the battle gates in games/permissions.py build
on these).

A gate fetches and checks in one call and raises ``Http404`` (no such object) or
``PermissionDenied`` (exists, but not for you).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import Http404

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import (
    Role,
    can_confirm,
    can_correct,
    can_decide,
    can_referee,
    can_see_round,
    player_entry_in_match,
    role_in_tournament,
)
from tournaments.permissions.tournament_gates import get_tournament_or_404
from tournaments.rules import lifecycle

if TYPE_CHECKING:
    from tournaments.permissions.roles import AnyUser


def _match_in(tournament: Tournament, match_id: int) -> Match:
    try:
        return Match.objects.select_related(
            "round__tournament", "player_a__player", "player_b__player"
        ).get(pk=match_id, round__tournament=tournament)
    except Match.DoesNotExist as exc:
        raise Http404("No such match in this tournament") from exc


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
