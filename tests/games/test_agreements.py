"""What the two players settle between themselves (``games/agreements.py``), over HTTP:
withdrawing one's own end offer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import agreements, battles
from games.models import Battle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def casual(db) -> Battle:
    return battles.create_casual_battle(
        game="cavalli", first=UserFactory(), second=UserFactory(), board_seed=7
    )


def end(client, battle: Battle, action: str):
    return client.post(reverse("games:end", args=[battle.pk, action]), **HX)


# --- withdrawing an end offer -----------------------------------------------------------


def test_the_offering_player_withdraws_their_offer(
    client, casual, django_capture_on_commit_callbacks
):
    battles.offer_end(casual.pk, side="white")
    client.force_login(casual.first_user)
    page = client.get(reverse("games:battle", args=[casual.pk])).content.decode()
    assert "You offered to end the battle." in page and 'id="withdraw-end"' in page
    with django_capture_on_commit_callbacks() as published:
        r = end(client, casual, "withdraw")
    assert r.status_code == 200 and published  # both pages hear of it
    after = Battle.objects.get(pk=casual.pk)
    assert after.end_offered_by == "" and after.clock_version == casual.clock_version
    assert "Offer to end the battle" in r.content.decode()
    assert end(client, casual, "withdraw").status_code == 409  # nothing left to withdraw


def test_the_opponent_cannot_withdraw_it_and_still_accepts_or_declines(client, casual):
    battles.offer_end(casual.pk, side="white")
    client.force_login(casual.second_user)
    page = client.get(reverse("games:battle", args=[casual.pk])).content.decode()
    assert 'id="withdraw-end"' not in page and "Your opponent offers to end" in page
    r = end(client, casual, "withdraw")
    assert r.status_code == 409
    assert "You have no offer to end the battle to withdraw." in r.content.decode()
    assert Battle.objects.get(pk=casual.pk).end_offered_by == "white"
    assert end(client, casual, "accept").status_code == 200
    assert Battle.objects.get(pk=casual.pk).finished_reason == "agreement"


def test_a_stranger_cannot_withdraw_an_offer(client, casual):
    battles.offer_end(casual.pk, side="white")
    client.force_login(UserFactory())
    assert end(client, casual, "withdraw").status_code == 403
    client.logout()
    assert end(client, casual, "withdraw").status_code == 403
    assert Battle.objects.get(pk=casual.pk).end_offered_by == "white"


def test_withdraw_end_refuses_a_side_without_an_offer(casual):
    with pytest.raises(battles.NotAllowed):
        agreements.withdraw_end(casual.pk, side="white")
    battles.offer_end(casual.pk, side="black")
    with pytest.raises(battles.NotAllowed):
        agreements.withdraw_end(casual.pk, side="white")
    assert agreements.withdraw_end(casual.pk, side="black").end_offered_by == ""
