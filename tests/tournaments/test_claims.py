"""Who decides a player claim: only the organiser whose tournaments alone hold the player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.models import Player, PlayerClaim

pytestmark = pytest.mark.django_db


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
