"""The pairing notes in plain words (issue 22): every code the pairing writes reads as a
phrase about the players, in English and in each translated language."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone, translation

from tests.factories import tournament_with_players
from tournaments.rounds.draw import pair_next_round
from tournaments.templatetags.thud_words import PAIRING_NOTES, pairing_notes

# Every flag ``tournaments.pairing`` and ``tournaments.rounds.edits`` write.
FLAGS = (
    "bye",
    "rematch",
    "float_down",
    "float_up",
    "side_alternated",
    "side_coin",
    "bracket",
    "playoff",
    "manual",
)


def test_the_notes_say_what_happened_in_plain_words():
    assert pairing_notes(["float_up", "side_coin"]) == (
        "player A plays someone with more points (no one left on the same score), "
        "sides decided by a coin toss"
    )
    assert pairing_notes(["float_down"]) == (
        "player A plays someone with fewer points (no one left on the same score)"
    )
    assert pairing_notes(["side_alternated"]) == (
        "sides given so each player has both sides equally often"
    )


def test_no_note_speaks_of_colours_or_score_groups():
    for flag in FLAGS:
        note = str(PAIRING_NOTES[flag])
        assert not re.search(r"colou?r|score group|float", note), (flag, note)


def test_an_unknown_code_is_shown_as_it_is():
    assert pairing_notes(["side_coin", "new_code"]) == "sides decided by a coin toss, new_code"
    assert pairing_notes(None) == ""


@pytest.mark.parametrize(
    ("language", "coin"),
    [("it", "parti decise a testa o croce"), ("nb", "sider avgjort med myntkast")],
)
def test_every_note_is_translated(language, coin):
    english = {flag: str(PAIRING_NOTES[flag]) for flag in FLAGS}
    with translation.override(language):
        assert pairing_notes(["side_coin"]) == coin
        for flag in FLAGS:
            assert str(PAIRING_NOTES[flag]) != english[flag], (language, flag)


@pytest.mark.django_db
def test_the_round_page_shows_the_plain_notes(client):
    t = tournament_with_players(4, rounds=3)
    pair_next_round(
        t, by=None, now=timezone.now()
    )  # round 1: nobody has had a side yet, a coin decides
    client.force_login(t.owner)
    page = client.get(f"/manage/t/{t.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.content.decode().count("sides decided by a coin toss") == 2
    page = client.get(f"/manage/t/{t.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="nb")
    assert page.content.decode().count("sider avgjort med myntkast") == 2
