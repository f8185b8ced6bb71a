"""Player claims: who decides them (only the organiser whose tournaments alone hold the
player), and how many one account may make."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection
from django.urls import reverse

from accounts.claims import CLAIMS_PER_DAY, PENDING_CLAIMS_MAX, ClaimError, decide_claim, make_claim
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.results.test_workflow_concurrency import race
from tournaments.models.people import Player, PlayerClaim

pytestmark = pytest.mark.django_db

DECIDED_AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def queue(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("pending_claims")).content.decode()


def test_a_namesake_added_by_another_organiser_cannot_be_used_to_take_a_claim(client):
    first = EntryFactory(player__name="Vimes", player__club="Watch")
    organiser1, vimes = first.tournament.owner, first.player
    EntryFactory(tournament__owner=organiser1, player=vimes)  # entered twice by organiser 1
    second = TournamentFactory(owner=UserFactory(is_staff=True))
    organiser2 = second.owner

    client.force_login(organiser2)
    add = reverse("organiser_add_player", args=[second.slug])
    client.post(add, {"name": "Vimes", "club": "Watch"})
    namesake = second.entries.get().player
    assert namesake.pk != vimes.pk
    assert Player.objects.filter(name="Vimes", club="Watch").count() == 2

    claim = PlayerClaim.objects.create(user=UserFactory(), player=vimes)
    assert f"claim-{claim.pk}" not in queue(client, organiser2)
    assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 404
    vimes.refresh_from_db()
    assert vimes.user is None

    assert queue(client, organiser1).count(f"claim-{claim.pk}") == 1
    assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 302


@pytest.mark.parametrize("other_owner", ["another organiser", "nobody"])
def test_a_player_entered_outside_the_organisers_tournaments_is_left_to_superusers(
    client, other_owner
):
    mine = EntryFactory()
    organiser, player = mine.tournament.owner, mine.player
    other = TournamentFactory(owner=UserFactory() if other_owner == "another organiser" else None)
    EntryFactory(tournament=other, player=player)
    claim = PlayerClaim.objects.create(user=UserFactory(), player=player)

    for user in filter(None, (organiser, other.owner)):
        assert f"claim-{claim.pk}" not in queue(client, user)
        assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 404
    player.refresh_from_db()
    assert player.user is None

    superuser = UserFactory(is_staff=True, is_superuser=True)
    assert f"claim-{claim.pk}" in queue(client, superuser)
    assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 302
    player.refresh_from_db()
    assert player.user == claim.user


# ---------------------------------------------------------------- limits per account


def claim(client, player) -> str:
    response = client.post(reverse("claim_player"), {"player": player.pk})
    return response.content.decode() if response.status_code == 200 else ""


def test_an_account_with_three_claims_waiting_cannot_make_a_fourth(client):
    user, admin = UserFactory(), UserFactory(is_superuser=True)
    client.force_login(user)
    for _ in range(PENDING_CLAIMS_MAX):
        assert (
            client.post(reverse("claim_player"), {"player": EntryFactory().player.pk}).status_code
            == 302
        )
    fourth = EntryFactory().player
    page = claim(client, fourth)
    assert "You have 3 claims waiting for an organiser" in page
    assert not fourth.claims.exists()
    assert PlayerClaim.objects.filter(user=user).count() == PENDING_CLAIMS_MAX
    # Once one is decided there is room again.
    decide_claim(
        PlayerClaim.objects.filter(user=user).first(), approve=False, by=admin, now=DECIDED_AT
    )
    assert client.post(reverse("claim_player"), {"player": fourth.pk}).status_code == 302
    assert fourth.claims.get().user == user


def test_an_account_makes_at_most_ten_claims_a_day_even_when_each_is_rejected(client):
    user, admin = UserFactory(), UserFactory(is_superuser=True)
    client.force_login(user)
    for _ in range(CLAIMS_PER_DAY):
        assert (
            client.post(reverse("claim_player"), {"player": EntryFactory().player.pk}).status_code
            == 302
        )
        decide_claim(
            PlayerClaim.objects.get(user=user, status="pending"),
            approve=False,
            by=admin,
            now=DECIDED_AT,
        )
    late = EntryFactory().player
    page = claim(client, late)
    assert "Your account has reached the limit of 10 claims a day" in page
    assert not late.claims.exists()
    assert PlayerClaim.objects.filter(user=user).count() == CLAIMS_PER_DAY
    # The limit is the account's: someone else still claims.
    client.force_login(UserFactory())
    assert client.post(reverse("claim_player"), {"player": late.pk}).status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks")
@pytest.mark.timeout(60)
def test_parallel_claims_by_one_account_leave_at_most_three_waiting():
    user = UserFactory()
    players = [PlayerFactory() for _ in range(8)]
    outcomes = race(*[lambda p=p: make_claim(user=user, player=p) for p in players])
    made = [o for o in outcomes if isinstance(o, PlayerClaim)]
    refused = [o for o in outcomes if isinstance(o, ClaimError)]
    assert len(made) == PENDING_CLAIMS_MAX and len(refused) == 8 - PENDING_CLAIMS_MAX, outcomes
    assert PlayerClaim.objects.filter(user=user, status="pending").count() == PENDING_CLAIMS_MAX


def test_a_decision_is_stamped_with_the_time_it_is_given():
    user, admin, player = UserFactory(), UserFactory(is_superuser=True), PlayerFactory()
    claim = decide_claim(
        make_claim(user=user, player=player), approve=True, by=admin, now=DECIDED_AT
    )
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by, claim.decided_at) == ("approved", admin, DECIDED_AT)
    assert Player.objects.get(pk=player.pk).user == user


def test_the_organisers_decision_is_stamped_with_the_views_clock(client):
    entry = EntryFactory()
    claim = make_claim(user=UserFactory(), player=entry.player)
    client.force_login(entry.tournament.owner)
    with time_machine.travel(DECIDED_AT, tick=False):
        client.post(reverse("reject_claim", args=[claim.pk]))
    claim.refresh_from_db()
    assert (claim.status, claim.decided_at) == ("rejected", DECIDED_AT)
