"""Player claims: who decides them (only the organiser whose tournaments alone hold the
player), and how many one account may make."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.urls import reverse

from accounts.claims import CLAIMS_PER_DAY, PENDING_CLAIMS_MAX, ClaimError, decide_claim, make_claim
from accounts.models import UserProfile
from games.battles.starting import create_casual_battle
from play.models import CasualMatch
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    bot_account,
)
from tests.tournaments.results.test_workflow_concurrency import race
from tournaments.models.people import Player, PlayerClaim
from tournaments.models.ratings import RatingChange, SiteRating
from tournaments.rating.update import update_ratings

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


# ---------------------------------------------------------------- casual players


def _rated_casual_match(a, b, *, ended_at, differential_a):
    """An ended rated casual match of ``a`` against ``b``, rated: each user plays as their
    Player, a new one in their name when they have none (a *casual player*)."""
    battle = create_casual_battle(
        game="thud", first=a, second=b, timing="correspondence", now=ended_at
    )
    CasualMatch.objects.create(
        user_a=a,
        user_b=b,
        game="thud",
        battle_1=battle,
        status=CasualMatch.Status.ENDED,
        created_at=ended_at,
        ended_at=ended_at,
        differential_a=differential_a,
    )
    update_ratings("thud", now=ended_at)


def test_a_claim_made_before_a_rated_casual_match_can_still_be_approved():
    entry = EntryFactory(player__name="Sam Vimes")
    tournament_player, organiser = entry.player, entry.tournament.owner
    sam, other = UserFactory(username="sam"), UserFactory()
    claim = make_claim(user=sam, player=tournament_player)
    _rated_casual_match(sam, other, ended_at=DECIDED_AT - timedelta(days=1), differential_a=5)
    casual = Player.objects.get(user=sam)
    assert casual.pk != tournament_player.pk and not casual.entries.exists()
    rating = SiteRating.objects.get(player=casual, game="thud")

    decide_claim(claim, approve=True, by=organiser, now=DECIDED_AT)

    tournament_player.refresh_from_db()
    assert tournament_player.user == sam
    assert not Player.objects.filter(pk=casual.pk).exists()
    # The casual history is the claimed player's now: the same match, the same numbers.
    moved = SiteRating.objects.get(game="thud", player__user=sam)
    assert moved.player_id == tournament_player.pk and moved.matches == 1
    assert (moved.rating, moved.rd) == (rating.rating, rating.rd)
    assert RatingChange.objects.filter(player=tournament_player).count() == 1


def test_a_casual_player_does_not_block_a_new_claim_but_a_tournament_player_does():
    sam, other = UserFactory(), UserFactory()
    _rated_casual_match(sam, other, ended_at=DECIDED_AT, differential_a=0)
    assert Player.objects.filter(user=sam).exists()
    claim = make_claim(user=sam, player=EntryFactory().player)
    assert claim.status == PlayerClaim.Status.PENDING
    # An account linked to a player with tournament entries is linked for good.
    linked = EntryFactory(player__user=UserFactory()).player
    with pytest.raises(ClaimError, match="already linked"):
        make_claim(user=linked.user, player=EntryFactory().player)


def test_a_bot_account_claims_no_player():
    bot, player = bot_account(), EntryFactory().player
    with pytest.raises(ClaimError, match="A bot account cannot claim a player"):
        make_claim(user=bot, player=player)
    assert not player.claims.exists()


def test_a_claim_made_before_the_account_became_a_bot_is_not_approved():
    user, player, admin = UserFactory(), EntryFactory().player, UserFactory(is_superuser=True)
    claim = make_claim(user=user, player=player)
    UserProfile.objects.create(user=user, is_bot=True)
    with pytest.raises(ClaimError, match="A bot account cannot claim a player"):
        decide_claim(claim, approve=True, by=admin, now=DECIDED_AT)
    claim.refresh_from_db()
    player.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING and player.user is None
    # Rejecting it is still possible: it leaves the organiser's queue.
    decide_claim(claim, approve=False, by=admin, now=DECIDED_AT)
