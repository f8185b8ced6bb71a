"""Emails: a challenge arrives; your move in a correspondence game (sent on commit, once)."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.models import UserProfile
from games import battles
from games.battles import after_commit
from play import challenges
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(username="alice", email="alice@example.org"), UserFactory(
        username="bob", email="bob@example.org"
    )


def challenge(by, opponent=None, **kw):
    fields = {"game": "cavalli", "timing": "correspondence", "days": 3, "first": "challenger"}
    return challenges.create_challenge(by=by, opponent=opponent, **(fields | kw))


def test_a_challenge_mails_the_challenged_user_after_commit(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        challenge(alice, bob)
    assert mail.outbox == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["bob@example.org"]
    assert "alice" in mail.outbox[0].subject and "/play/" in mail.outbox[0].body


def test_a_seek_mails_nobody(people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        challenge(people[0])
    assert mail.outbox == []


def test_a_user_who_turned_notifications_off_gets_no_email(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    UserProfile.objects.create(user=bob, email_notifications=False)
    with django_capture_on_commit_callbacks(execute=True):
        c = challenge(alice, bob, first="opponent")
        challenges.accept(c.pk, by=bob)  # bob moves first: his move, but no email
    assert mail.outbox == []


def test_each_turn_of_a_correspondence_game_mails_the_player_to_move_once(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    c = challenge(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        battle = challenges.accept(c.pk, by=bob)
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]  # alice moves first
    assert f"/battles/{battle.pk}/" in mail.outbox[0].body
    notation = battle.rules.legal_moves(battle.rules.deserialise(battle.board))[0]
    with django_capture_on_commit_callbacks(execute=True):
        battle = battles.submit_move(
            battle.pk, side="white", version=battle.clock_version, notation=notation
        )
    assert [m.to for m in mail.outbox] == [["alice@example.org"], ["bob@example.org"]]
    # The same state published again (an end offer, a redelivered signal): no second email.
    after_commit(battle.pk, battle.clock_version, battle.clock_state)
    after_commit(battle.pk, battle.clock_version, battle.clock_state)
    assert len(mail.outbox) == 2


def test_the_email_is_written_in_the_recipients_language(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    UserProfile.objects.create(user=bob, language="it")
    with django_capture_on_commit_callbacks(execute=True):
        challenge(alice, bob)
    assert "ti sfida" in mail.outbox[0].subject


def test_quickfire_games_send_no_turn_emails(people, django_capture_on_commit_callbacks):
    alice, bob = people
    c = challenge(alice, bob, timing="quickfire")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        challenges.accept(c.pk, by=bob)
    assert mail.outbox == []
