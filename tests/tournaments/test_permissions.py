from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.http import Http404

from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tournaments import permissions
from tournaments.permissions import Role
from tournaments.results.workflow import enter_result

pytestmark = pytest.mark.django_db


def slug(match):
    return match.round.tournament.slug


def test_roles_for_result_entry():
    match = MatchFactory()
    tournament = match.round.tournament
    referee, player = UserFactory(), UserFactory()
    tournament.referees.add(referee)
    match.player_a.player.user = player
    match.player_a.player.save()
    gate = permissions.access_match_for_result_entry
    assert gate(tournament.owner, slug(match), match.pk)[1] == Role.ORGANISER
    assert gate(referee, slug(match), match.pk)[1] == Role.REFEREE
    assert gate(player, slug(match), match.pk)[1] == Role.PLAYER
    superuser = UserFactory(is_superuser=True)
    assert gate(superuser, slug(match), match.pk)[1] == Role.ORGANISER
    with pytest.raises(PermissionDenied):
        gate(AnonymousUser(), slug(match), match.pk)
    with pytest.raises(PermissionDenied):
        gate(UserFactory(), slug(match), match.pk)
    with pytest.raises(Http404):
        gate(referee, "no-such-tournament", match.pk)
    with pytest.raises(Http404):
        gate(referee, slug(match), MatchFactory().pk)


def test_nobody_confirms_their_own_version():
    match = MatchFactory()
    ref = UserFactory()
    v = enter_result(match, survivors=(1, 1, 1, 1), by=ref, expected_lock_version=0)
    assert not permissions.can_confirm(ref, Role.REFEREE, v)
    assert permissions.can_confirm(UserFactory(), Role.REFEREE, v)
    assert permissions.can_confirm(UserFactory(), Role.PLAYER, v)
    assert not permissions.can_confirm(AnonymousUser(), Role.PUBLIC, v)


def test_only_organisers_decide_and_referees_correct():
    assert permissions.can_decide(Role.ORGANISER)
    assert not permissions.can_decide(Role.REFEREE)
    assert permissions.can_correct(Role.REFEREE)
    assert not permissions.can_correct(Role.PLAYER)


def test_round_gate_refuses_referee_of_another_tournament():
    match = MatchFactory()
    other = TournamentFactory()
    ref = UserFactory()
    other.referees.add(ref)
    with pytest.raises(PermissionDenied):
        permissions.access_round_for_referee(ref, slug(match), 1)
    assert permissions.access_round_for_referee(match.round.tournament.owner, slug(match), 1)


def test_co_organisers_organise_and_referee_but_do_not_appoint_co_organisers():
    tournament = TournamentFactory()
    helper, stranger = UserFactory(), UserFactory()
    tournament.co_organisers.add(helper)
    assert permissions.can_organise(helper, tournament)
    assert permissions.can_referee(helper, tournament)
    assert permissions.role_in_tournament(helper, tournament) == Role.ORGANISER
    assert not permissions.can_manage_co_organisers(helper, tournament)
    assert permissions.can_manage_co_organisers(tournament.owner, tournament)
    assert not permissions.can_organise(stranger, tournament)
    assert not permissions.can_organise(helper, TournamentFactory())  # per tournament
    with pytest.raises(PermissionDenied):
        permissions.access_tournament_for_owner(helper, tournament.slug)
    tournament.co_organisers.remove(helper)
    assert not permissions.can_organise(helper, tournament)


def test_creating_tournaments_takes_the_organiser_group_not_staff():
    staff, member = UserFactory(is_staff=True), UserFactory()
    member.groups.add(Group.objects.get_or_create(name=permissions.ORGANISERS_GROUP)[0])
    assert not permissions.can_create_tournament(staff)
    assert not permissions.can_create_tournament(UserFactory())
    assert not permissions.can_create_tournament(AnonymousUser())
    assert permissions.can_create_tournament(member)
    assert permissions.can_create_tournament(UserFactory(is_superuser=True))


def test_only_superusers_grant_the_organiser_role():
    member = UserFactory()
    member.groups.add(Group.objects.get_or_create(name=permissions.ORGANISERS_GROUP)[0])
    for user in (AnonymousUser(), UserFactory(), UserFactory(is_staff=True), member):
        with pytest.raises(PermissionDenied):
            permissions.access_organiser_roles(user)
    permissions.access_organiser_roles(UserFactory(is_superuser=True))
