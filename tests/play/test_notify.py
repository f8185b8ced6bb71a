"""Emails: a challenge arrives; your move in a correspondence game (queued in the outbox,
sent by the task after the commit, once; never by the request)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import UserProfile
from games.battles.play import submit_move
from games.battles.store import after_commit
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from play import challenges
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(username="alice", email="alice@example.org"), UserFactory(
        username="bob", email="bob@example.org"
    )


def delivered() -> list:
    """What the worker sends: the task run for every queued row, as a worker would."""
    for pk in OutboundEmail.objects.filter(sent_at__isnull=True).values_list("pk", flat=True):
        send_email(pk)
    return mail.outbox


def challenge(by, opponent=None, **kw):
    fields = {
        "game": "cavalli",
        "timing": "correspondence",
        "days": 3,
        "first": "challenger",
        "now": timezone.now(),
    }
    return challenges.create_challenge(by=by, opponent=opponent, **(fields | kw))


def test_a_challenge_queues_an_email_that_the_task_sends_after_commit(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        challenge(alice, bob)
    queued = OutboundEmail.objects.get()
    assert (queued.kind, queued.recipient, queued.to_address) == ("challenge", bob, bob.email)
    # Nothing sent by the request: the e-mail's task and the opponent's live notice wait
    # for the commit.
    assert mail.outbox == [] and len(callbacks) == 2
    send_email(queued.pk)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["bob@example.org"]
    assert "alice" in mail.outbox[0].subject and "/play/" in mail.outbox[0].body


def test_a_seek_mails_nobody(people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        challenge(people[0])
    assert delivered() == [] and not OutboundEmail.objects.exists()


def test_a_user_who_turned_notifications_off_gets_no_email(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    UserProfile.objects.create(user=bob, email_notifications=False)
    with django_capture_on_commit_callbacks(execute=True):
        c = challenge(alice, bob, first="opponent")
        challenges.accept(
            c.pk, by=bob, now=timezone.now()
        )  # bob moves first: his move, but no email
    assert delivered() == []


def test_each_turn_of_a_correspondence_game_mails_the_player_to_move_once(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    c = challenge(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    mail.outbox.clear()
    OutboundEmail.objects.filter(kind="challenge").delete()
    assert [m.to for m in delivered()] == [["alice@example.org"]]  # alice moves first
    assert f"/battles/{battle.pk}/" in mail.outbox[0].body
    notation = battle.rules.legal_moves(battle.rules.deserialise(battle.board))[0]
    with django_capture_on_commit_callbacks(execute=True):
        battle = submit_move(
            battle.pk,
            side="white",
            version=battle.clock_version,
            notation=notation,
            now=timezone.now(),
        )
    assert [m.to for m in delivered()] == [["alice@example.org"], ["bob@example.org"]]
    # The same state published again (an end offer, a redelivered signal): no second email.
    for _ in range(2):
        after_commit(
            battle.pk,
            battle.clock_version,
            battle.clock_state,
            now=timezone.now(),
            casual=True,
            timing=battle.timing,
        )
    assert len(delivered()) == 2 and OutboundEmail.objects.filter(kind="turn").count() == 2


def test_the_email_is_written_in_the_recipients_language(
    people, django_capture_on_commit_callbacks
):
    alice, bob = people
    UserProfile.objects.create(user=bob, language="it")
    with django_capture_on_commit_callbacks(execute=True):
        challenge(alice, bob)
    assert "ti sfida" in delivered()[0].subject


def test_quickfire_games_send_no_turn_emails(people, django_capture_on_commit_callbacks):
    alice, bob = people
    c = challenge(alice, bob, timing="quickfire")
    with django_capture_on_commit_callbacks(execute=True):
        challenges.accept(c.pk, by=bob, now=timezone.now())
    assert OutboundEmail.objects.filter(kind="turn").count() == 0


def test_a_challenge_answers_at_once_however_slow_the_mail_server_is(
    client, people, smtp, silent_mail_server, django_capture_on_commit_callbacks
):
    """The SMTP server accepts the connection and never speaks: the request never waits
    for it, as it never connects to it (the e-mail is the worker's)."""
    smtp.EMAIL_TIMEOUT = 5
    alice, bob = people
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            reverse("play:start"),
            {
                "username": "bob",
                "game": "thud",
                "timing": "quickfire",
                "first": "random",
                "days": 3,
            },
        )
    assert r.status_code == 302
    assert silent_mail_server.connections() == 0
    assert OutboundEmail.objects.get().sent_at is None and mail.outbox == []


def test_with_the_broker_down_a_challenge_is_made_and_its_email_waits_for_the_beat(
    client, people, broker_down, django_capture_on_commit_callbacks
):
    alice, bob = people
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            reverse("play:start"),
            {
                "username": "bob",
                "game": "thud",
                "timing": "quickfire",
                "first": "random",
                "days": 3,
            },
        )
    assert r.status_code == 302
    assert OutboundEmail.objects.get(kind="challenge").sent_at is None
