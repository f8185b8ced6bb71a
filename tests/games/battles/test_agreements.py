"""What the two players settle between themselves (``games/battles/agreements.py``), over HTTP:
withdrawing one's own end offer, resuming a paused casual battle when both ask."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from games.battles import agreements
from games.battles.errors import NotAllowed
from games.battles.play import offer_end
from games.battles.referee import pause
from games.battles.referee import resume as referee_resume
from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.models.battle import Battle, clock_fields
from games.models.history import ClockEvent
from games.rules import clock
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def casual(db) -> Battle:
    return create_casual_battle(
        game="cavalli", first=UserFactory(), second=UserFactory(), board_seed=7, now=timezone.now()
    )


def end(client, battle: Battle, action: str):
    return client.post(reverse("games:end", args=[battle.pk, action]), **HX)


# --- withdrawing an end offer -----------------------------------------------------------


def test_the_offering_player_withdraws_their_offer(
    client, casual, django_capture_on_commit_callbacks
):
    offer_end(casual.pk, side="white", now=timezone.now())
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
    offer_end(casual.pk, side="white", now=timezone.now())
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
    offer_end(casual.pk, side="white", now=timezone.now())
    client.force_login(UserFactory())
    assert end(client, casual, "withdraw").status_code == 403
    client.logout()
    assert end(client, casual, "withdraw").status_code == 403
    assert Battle.objects.get(pk=casual.pk).end_offered_by == "white"


def test_withdraw_end_refuses_a_side_without_an_offer(casual):
    with pytest.raises(NotAllowed):
        agreements.withdraw_end(casual.pk, side="white", now=timezone.now())
    offer_end(casual.pk, side="black", now=timezone.now())
    with pytest.raises(NotAllowed):
        agreements.withdraw_end(casual.pk, side="white", now=timezone.now())
    assert agreements.withdraw_end(casual.pk, side="black", now=timezone.now()).end_offered_by == ""


# --- resuming a paused casual battle: both players ask ------------------------------------


def paused(battle: Battle, reason: str = clock.REASON_OUTAGE) -> Battle:
    """``battle`` paused as a late expiry pauses it (no referee could resume it until now)."""
    return pause(battle.pk, reason=reason, now=timezone.now())


def resume(client, battle: Battle, **headers):
    return client.post(reverse("games:resume", args=[battle.pk]), **(headers or HX))


def test_a_paused_casual_battle_resumes_when_both_players_ask(
    client, casual, django_capture_on_commit_callbacks
):
    b = paused(casual)
    client.force_login(b.first_user)
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "The battle goes on when both players ask to resume it." in page
    assert 'id="ask-resume"' in page
    with django_capture_on_commit_callbacks() as published:
        r = resume(client, b)
    assert r.status_code == 200 and published  # the opponent's page refetches
    asked = Battle.objects.get(pk=b.pk)
    assert (asked.status, asked.resume_asked_by) == ("paused", "white")
    assert asked.clock_version == b.clock_version + 1
    html = r.content.decode()
    assert "You asked to resume the battle; it goes on when your opponent asks too." in html
    assert 'id="ask-resume"' not in html

    client.force_login(b.second_user)
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "Your opponent asks to resume the battle." in page and 'id="ask-resume"' in page
    r = resume(client, b)
    assert r.status_code == 200
    after = Battle.objects.get(pk=b.pk)
    assert (after.status, after.resume_asked_by, after.paused_reason) == ("running", "", "")
    event = ClockEvent.objects.filter(battle=b, kind="resumed").get()
    assert (event.via, event.detail) == ("player", "agreement")


def test_one_player_asking_twice_does_not_resume(client, casual):
    b = paused(casual, reason=clock.REASON_REFEREE)  # any reason
    client.force_login(b.first_user)
    resume(client, b)
    assert resume(client, b).status_code == 200
    assert Battle.objects.get(pk=b.pk).status == "paused"
    assert not ClockEvent.objects.filter(battle=b, kind="resumed").exists()


def test_a_plain_post_asks_and_comes_back_to_the_battle_page(client, casual):
    b = paused(casual)
    client.force_login(b.second_user)
    r = resume(client, b, HTTP_ACCEPT="text/html")
    assert r.status_code == 302 and r.url == reverse("games:battle", args=[b.pk])
    assert Battle.objects.get(pk=b.pk).resume_asked_by == "black"


def test_nobody_else_asks_for_the_players(client, casual):
    b = paused(casual)
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "The battle goes on when both players ask to resume it." in page
    assert 'id="ask-resume"' not in page
    assert resume(client, b).status_code == 403  # anonymous
    client.force_login(UserFactory())
    assert resume(client, b).status_code == 403
    client.force_login(UserFactory(is_superuser=True))  # the administrator decides elsewhere
    assert resume(client, b).status_code == 403
    assert Battle.objects.get(pk=b.pk).resume_asked_by == ""


def test_asking_to_resume_a_running_battle_is_409(client, casual):
    client.force_login(casual.first_user)
    r = resume(client, casual)
    assert r.status_code == 409 and "This battle is not paused." in r.content.decode()
    assert Battle.objects.get(pk=casual.pk).resume_asked_by == ""


def test_players_of_a_tournament_battle_leave_the_pause_to_its_referee(client):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    b = paused(b1)
    client.force_login(match.player_a.player.user)
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "A referee resumes the battle." in page and 'id="ask-resume"' not in page
    assert resume(client, b).status_code == 403
    with pytest.raises(NotAllowed):
        agreements.ask_resume(b.pk, side="dwarf", now=timezone.now())
    assert Battle.objects.get(pk=b.pk).status == "paused"


def test_any_resume_spends_an_ask_so_the_next_pause_needs_both_again(casual):
    b = paused(casual)
    agreements.ask_resume(b.pk, side="white", now=timezone.now())
    referee_resume(b.pk, reason="an administrator", now=timezone.now())
    assert Battle.objects.get(pk=b.pk).resume_asked_by == ""
    b = paused(casual)
    agreements.ask_resume(b.pk, side="black", now=timezone.now())
    assert Battle.objects.get(pk=b.pk).status == "paused"


def test_an_ask_from_an_earlier_pause_is_stale_whoever_resumed_in_between(casual):
    # A writer that resumes without knowing of asks (the outage tick writes clock columns
    # in bulk) still bumps the version, so the old ask does not count for the next pause.
    b = paused(casual)
    agreements.ask_resume(b.pk, side="white", now=timezone.now())
    b = Battle.objects.get(pk=b.pk)
    running = clock.resume(b.clock_state, timezone.now())
    Battle.objects.filter(pk=b.pk).update(
        clock_version=b.clock_version + 1, **clock_fields(running)
    )
    b = paused(casual)
    assert (b.resume_asked_by, b.resume_asked) == ("white", "")
    agreements.ask_resume(b.pk, side="black", now=timezone.now())
    after = Battle.objects.get(pk=b.pk)
    assert (after.status, after.resume_asked) == ("paused", "black")


@pytest.mark.django_db(transaction=True)
def test_both_players_asking_at_once_resume_the_battle():
    b = paused(
        create_casual_battle(
            game="cavalli",
            first=UserFactory(),
            second=UserFactory(),
            board_seed=7,
            now=timezone.now(),
        )
    )

    def ask(side: str) -> None:
        try:
            agreements.ask_resume(b.pk, side=side, now=timezone.now())
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(side,)) for side in ("white", "black")]
    # Both asks arrive while the row is held, so both find nobody has asked yet unless
    # an ask reads the row under its own lock (then the second sees the first's ask).
    with transaction.atomic():
        Battle.objects.select_for_update().get(pk=b.pk)
        for t in threads:
            t.start()
        time.sleep(0.5)
    for t in threads:
        t.join()
    assert Battle.objects.get(pk=b.pk).status == "running"
    assert ClockEvent.objects.filter(battle=b, kind="resumed").count() == 1
