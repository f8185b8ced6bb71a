"""games/web/permissions.py: who may see and act on a battle, and what one lookup loads."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from games.web import permissions
from tests.factories import make_match
from tournaments.permissions.roles import can_organise, can_referee

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("number", [1, 2])
def test_a_battle_comes_with_its_tournament_seats_and_match_sides_in_one_query(
    number, django_assert_num_queries
):
    (match,) = make_match()
    created = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    referee = match.round.tournament.referees.get()
    with django_assert_num_queries(1):
        battle = permissions._battle(created[number - 1].pk)
    with django_assert_num_queries(1):  # the appointments are asked in the same query
        assert permissions.access_battle_for_referee(referee, battle.pk) is not None
    with django_assert_num_queries(0):
        names = (
            battle.match.round.tournament.name,
            battle.first_entry.player.name,
            battle.second_entry.player.name,
            battle.match.player_a.player.name,
            battle.match.player_b.player.name,
        )
    a, b = match.player_a.player.name, match.player_b.player.name
    seats = (a, b) if number == 1 else (b, a)  # battle 2: the sides swap
    assert names == (match.round.tournament.name, *seats, a, b)


@pytest.mark.parametrize("role", ["referee", "co-organiser", "both", "stranger", "owner"])
@pytest.mark.parametrize(
    "gate", [permissions.access_battle_for_referee, permissions.access_battle_for_arbiter]
)
def test_the_gates_one_query_answers_each_appointment_as_the_tournament_would(
    role, gate, django_assert_num_queries
):
    (match,) = make_match()
    battle, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    tournament = match.round.tournament
    user = get_user_model().objects.create_user(f"u-{role}")
    if role in ("co-organiser", "both"):
        tournament.co_organisers.add(user)
    if role in ("referee", "both"):
        tournament.referees.add(user)
    if role == "owner":
        user = tournament.owner
    expected = (role != "stranger" and role != "referee", role != "stranger")
    if role == "stranger":
        with django_assert_num_queries(1), pytest.raises(PermissionDenied):
            gate(user, battle.pk)
        return
    with django_assert_num_queries(1):
        gated = gate(user, battle.pk)
    with django_assert_num_queries(0):  # remembered, and the same answer as on its own
        answer = (
            can_organise(user, gated.match.round.tournament),
            can_referee(user, gated.match.round.tournament),
        )
    assert answer == expected
    fresh = type(tournament).objects.get(pk=tournament.pk)
    assert (can_organise(user, fresh), can_referee(user, fresh)) == expected


def test_a_player_of_the_match_is_no_referee():
    (match,) = make_match()
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    with pytest.raises(PermissionDenied):
        permissions.access_battle_for_referee(match.player_a.player.user, b1.pk)


def _read(battle: Battle) -> dict:
    """The battle's and its joined rows' loaded fields (not deferred ones) and the gate's
    appointment annotations."""

    def loaded(obj) -> dict:
        deferred = obj.get_deferred_fields()
        fields = obj._meta.concrete_fields
        return {f.attname: getattr(obj, f.attname) for f in fields if f.attname not in deferred}

    tournament = battle.match.round.tournament
    return {
        "battle": loaded(battle),
        "match": loaded(battle.match),
        "round": loaded(battle.match.round),
        "tournament": loaded(tournament),
        "seats": [loaded(e) | loaded(e.player) for e in (battle.first_entry, battle.second_entry)],
        "appointed": [getattr(battle, f"is_{n}", None) for n in ("co_organisers", "referees")],
    }


@pytest.mark.parametrize("press", [False, True])
@pytest.mark.parametrize("asks", [False, True])
def test_the_gates_query_compiled_once_reads_what_the_orm_reads(press, asks):
    """``_GATES``: each of the four queries, prepared, gives each battle as the queryset
    it was built from gives it, whichever battle and user come first."""
    matches = make_match(tables=2) + make_match()
    now = timezone.now()
    battles = [b for m in matches for b in create_battles(m, mode=Battle.Mode.OTB, now=now)]
    users = [m.round.tournament.referees.get() for m in matches[1:]]  # of either tournament
    gate = permissions._GATES[press, asks]
    build = gate._queryset
    for battle in battles:
        for user in users if asks else [None]:
            values = (battle.pk, user.pk) if asks else (battle.pk,)
            assert _read(gate.get(*values)) == _read(build(*values).get())
