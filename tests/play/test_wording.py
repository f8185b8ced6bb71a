"""A challenge's words: who plays which side and the clock, from the reader's point of view,
on /play/ and in the e-mail, and true to the battle that accepting it creates."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import UserProfile
from games.engines import registry
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from play import challenges
from play.wording import ClockWords, casual_quickfire, challenge_words, time_words, words_for
from tests.factories import UserFactory

THUD = registry.get("thud")
FIRST, SECOND = (s.name for s in THUD.sides)  # English: no translation active
QUICK = "quickfire: 15 s to think, then 5 s to move, 30 moves each"


def words(*, reader_is_challenger: bool, opponent: str | None = "bob", first: str) -> str:
    return challenge_words(
        challenger="alice",
        opponent=opponent,
        reader_is_challenger=reader_is_challenger,
        game="Thud",
        sides=(FIRST, SECOND),
        first=first,
        clock=casual_quickfire(30),
    )


@pytest.mark.parametrize(
    ("reader_is_challenger", "opponent", "first", "expected"),
    [
        # bob reads the challenge alice made him
        (False, "bob", "challenger",
         f"alice challenges you to Thud: you play {SECOND}, alice plays {FIRST} and moves first"),
        (False, "bob", "opponent",
         f"alice challenges you to Thud: you play {FIRST} and move first, alice plays {SECOND}"),
        # alice reads the challenge she made
        (True, "bob", "challenger",
         f"You challenged bob to Thud: you play {FIRST} and move first, bob plays {SECOND}"),
        (True, "bob", "opponent",
         f"You challenged bob to Thud: you play {SECOND}, bob plays {FIRST} and moves first"),
        # anyone else reads alice's seek: they would be the opponent
        (False, None, "challenger",
         f"alice seeks a game of Thud: you play {SECOND}, alice plays {FIRST} and moves first"),
        (False, None, "opponent",
         f"alice seeks a game of Thud: you play {FIRST} and move first, alice plays {SECOND}"),
        # alice reads her own seek
        (True, None, "challenger",
         f"You seek a game of Thud: you play {FIRST} and move first, your opponent {SECOND}"),
        (True, None, "opponent",
         f"You seek a game of Thud: you play {SECOND}, your opponent {FIRST} and moves first"),
        (False, "bob", "random", "alice challenges you to Thud: sides by coin toss when accepted"),
        (True, None, "random", "You seek a game of Thud: sides by coin toss when accepted"),
    ],
)  # fmt: skip
def test_each_reader_is_told_their_side_and_who_moves_first(
    reader_is_challenger, opponent, first, expected
):
    text = words(reader_is_challenger=reader_is_challenger, opponent=opponent, first=first)
    assert text == f"{expected} · {QUICK}"


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        (ClockWords("correspondence", days=1), "correspondence: 1 day per move"),
        (ClockWords("correspondence", days=3), "correspondence: 3 days per move"),
        (ClockWords("quickfire", think_ms=15_000, move_ms=5_000, max_plies=48),
         "quickfire: 15 s to think, then 5 s to move, 24 moves each"),
        (ClockWords("quickfire", think_ms=2_500, move_ms=1_000, max_plies=2),
         "quickfire: 2.5 s to think, then 1 s to move, 1 move each"),
        (ClockWords("quickfire", think_ms=30_000), "quickfire: 30 s per move"),
    ],
)  # fmt: skip
def test_the_time_control_in_words(clock, expected):
    assert time_words(clock) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "move_limit"), [("challenger", 24), ("opponent", 30)])
def test_the_words_are_true_to_the_battle_that_accepting_creates(first, move_limit):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice,
        opponent=bob,
        game="thud",
        timing="quickfire",
        first=first,
        move_limit=move_limit,
        now=timezone.now(),
    )
    told = words_for(c, reader=bob)
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    bob_side = battle.rules.sides[0] if battle.first_user == bob else battle.rules.sides[1]
    assert f"you play {bob_side.name}" in told
    assert ("and move first" in told) is (battle.first_user == bob)
    told_clock = ClockWords(
        "quickfire", think_ms=battle.think_ms, move_ms=battle.move_ms, max_plies=battle.max_plies
    )
    assert told.endswith(time_words(told_clock)) and told_clock == casual_quickfire(move_limit)
    assert told.endswith(f", {move_limit} moves each")


def page(client, user, language="en") -> str:
    client.force_login(user)
    html = client.get(reverse("play:start"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.sub(r"\s+", " ", unescape(html))


@pytest.mark.django_db
def test_the_play_page_words_each_list_for_its_reader(client):
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    now = timezone.now()
    challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="correspondence", days=2, first="opponent",
        now=now,
    )  # fmt: skip
    challenges.create_challenge(by=alice, game="thud", timing="quickfire", first="random", now=now)

    to_bob = page(client, bob)
    assert (
        f"alice challenges you to Thud: you play {FIRST} and move first, alice plays {SECOND}"
        " · correspondence: 2 days per move" in to_bob
    )
    assert f"alice seeks a game of Thud: sides by coin toss when accepted · {QUICK}" in to_bob
    by_alice = page(client, alice)
    assert f"You challenged bob to Thud: you play {SECOND}, bob plays {FIRST} and moves first" in (
        by_alice
    )
    assert "You seek a game of Thud: sides by coin toss when accepted" in by_alice
    assert "first move:" not in by_alice + to_bob  # the old words are gone
    assert "alice challenges you" not in page(client, carol)  # not carol's challenge


@pytest.mark.django_db
def test_the_play_page_words_are_norwegian_with_the_games_own_side_names(client):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", first="challenger",
        now=timezone.now(),
    )  # fmt: skip
    with translation.override("nb"):
        first, second = (translation.gettext(s.name) for s in THUD.sides)
        expected = words_for(
            challenges.Challenge.objects.get(), reader=bob
        )  # computed with nb active
    assert first != FIRST and second in expected and first in expected
    (line,) = re.findall(r'<li class="challenge".*?</li>', page(client, bob, "nb"))
    assert expected in line
    assert "challenges you" not in line and "to think" not in line and "expires" not in line


@pytest.mark.django_db
def test_the_challenge_email_says_the_sides_and_clock_in_the_recipients_language(
    django_capture_on_commit_callbacks,
):
    alice = UserFactory(username="alice", email="alice@example.org")
    bob = UserFactory(username="bob", email="bob@example.org")
    UserProfile.objects.create(user=bob, language="nb")
    with django_capture_on_commit_callbacks(execute=False):
        c = challenges.create_challenge(
            by=alice, opponent=bob, game="cavalli", timing="correspondence", days=1,
            first="challenger", now=timezone.now(),
        )  # fmt: skip
    send_email(OutboundEmail.objects.get().pk)
    (sent,) = mail.outbox
    with translation.override("nb"):
        expected = words_for(c, reader=bob)
        cavalli_second = translation.gettext(registry.get("cavalli").sides[1].name)
    assert expected.splitlines() == [expected] and expected in sent.body
    assert f" {cavalli_second}," in expected  # bob plays the second side: his, then alice's
    assert "/play/" in sent.body
