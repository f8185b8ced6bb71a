from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone

from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tournaments.permissions.match_gates import access_match_for_result_entry
from tournaments.permissions.roles import (
    ORGANISERS_GROUP,
    Role,
    can_confirm,
    can_correct,
    can_create_tournament,
    can_decide,
    can_manage_co_organisers,
    can_organise,
    can_referee,
    role_in_tournament,
)
from tournaments.permissions.tournament_gates import (
    access_organiser_roles,
    access_round_for_referee,
    access_tournament_for_owner,
    find_tournament,
    get_tournament_or_404,
)
from tournaments.results.entry import enter_result

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
    gate = access_match_for_result_entry
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
    v = enter_result(
        match, survivors=(1, 1, 1, 1), by=ref, expected_lock_version=0, now=timezone.now()
    )
    assert not can_confirm(ref, Role.REFEREE, v)
    assert can_confirm(UserFactory(), Role.REFEREE, v)
    assert can_confirm(UserFactory(), Role.PLAYER, v)
    assert not can_confirm(AnonymousUser(), Role.PUBLIC, v)


def test_only_organisers_decide_and_referees_correct():
    assert can_decide(Role.ORGANISER)
    assert not can_decide(Role.REFEREE)
    assert can_correct(Role.REFEREE)
    assert not can_correct(Role.PLAYER)


def test_round_gate_refuses_referee_of_another_tournament():
    match = MatchFactory()
    other = TournamentFactory()
    ref = UserFactory()
    other.referees.add(ref)
    with pytest.raises(PermissionDenied):
        access_round_for_referee(ref, slug(match), 1)
    assert access_round_for_referee(match.round.tournament.owner, slug(match), 1)


def test_co_organisers_organise_and_referee_but_do_not_appoint_co_organisers():
    tournament = TournamentFactory()
    helper, stranger = UserFactory(), UserFactory()
    tournament.co_organisers.add(helper)
    assert can_organise(helper, tournament)
    assert can_referee(helper, tournament)
    assert role_in_tournament(helper, tournament) == Role.ORGANISER
    assert not can_manage_co_organisers(helper, tournament)
    assert can_manage_co_organisers(tournament.owner, tournament)
    assert not can_organise(stranger, tournament)
    assert not can_organise(helper, TournamentFactory())  # per tournament
    with pytest.raises(PermissionDenied):
        access_tournament_for_owner(helper, tournament.slug)
    tournament.co_organisers.remove(helper)
    assert not can_organise(helper, tournament)


def test_creating_tournaments_takes_the_organiser_group_not_staff():
    staff, member = UserFactory(is_staff=True), UserFactory()
    member.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    assert not can_create_tournament(staff)
    assert not can_create_tournament(UserFactory())
    assert not can_create_tournament(AnonymousUser())
    assert can_create_tournament(member)
    assert can_create_tournament(UserFactory(is_superuser=True))


def test_only_superusers_grant_the_organiser_role():
    member = UserFactory()
    member.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    for user in (AnonymousUser(), UserFactory(), UserFactory(is_staff=True), member):
        with pytest.raises(PermissionDenied):
            access_organiser_roles(user)
    access_organiser_roles(UserFactory(is_superuser=True))


def test_a_tournament_is_found_by_its_own_slug_in_one_query(django_assert_num_queries):
    """``find_tournament``'s query is compiled once (``thud_site.prepared``): each slug
    still finds its own tournament, whole, and an unknown one finds none."""
    first, second = TournamentFactory(), TournamentFactory()
    for tournament in (second, first, second):
        with django_assert_num_queries(1):
            found = find_tournament(tournament.slug)
        assert (found.pk, found.name, found.time_zone) == (
            tournament.pk,
            tournament.name,
            tournament.time_zone,
        )
    assert find_tournament("no-such-tournament") is None
    with pytest.raises(Http404):
        get_tournament_or_404("no-such-tournament")
    assert get_tournament_or_404(first.slug) == first
