"""A casual match whose battle never starts (``games.battles.joining.expire_unjoined``,
the beat): battle 1 expired cancels the match; battle 2 expired with nobody there ends it
on battle 1 alone, nobody blamed; battle 2 expired with one player there is the other's
no-show, as if claimed."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from games.battles import joining
from games.models.battle import Battle
from games.models.reasons import NEVER_STARTED, NO_SHOW
from games.rules.presence import UNJOINED_LIFETIME
from tests.play.test_matches import OPENING, hook_calls, play_to_end, rated_match  # noqa: F401

pytestmark = pytest.mark.django_db


def expire(battle_id: int) -> datetime:
    """Run the beat's expiry just past ``battle_id``'s lifetime; returns that time."""
    end = Battle.objects.get(pk=battle_id).updated_at + UNJOINED_LIFETIME
    assert joining.expire_unjoined(now=end) == 1
    return end


def test_battle_1_never_started_cancels_the_match(hook_calls, django_capture_on_commit_callbacks):  # noqa: F811
    m = rated_match(now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        expire(m.battle_1_id)
    m.refresh_from_db()
    assert (m.status, m.battle_2, m.differential_a) == ("cancelled", None, None)
    assert Battle.objects.get(pk=m.battle_1_id).finished_reason == NEVER_STARTED
    assert hook_calls == []


def test_battle_2_nobody_joined_ends_the_match_on_battle_1_alone(
    hook_calls,  # noqa: F811
    django_capture_on_commit_callbacks,
    client,
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0, dwarves_lost=3, moves=OPENING)  # Bob leads by 3
    m.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        end = expire(m.battle_2_id)
    m.refresh_from_db()
    assert (m.status, m.ended_at, m.no_show_by) == ("ended", end, None)
    assert m.differential_a == -3 and m.winner.username == "bob"
    assert hook_calls == [("thud", end)]
    b2 = Battle.objects.get(pk=m.battle_2_id)
    assert (b2.finished_reason, b2.winner) == (NEVER_STARTED, "")
    # "Your games" no longer says battle 2 waits for both players.
    client.force_login(m.user_a)
    games = client.get(reverse("play:games")).content.decode()
    assert "expired: nobody joined in time; nobody won or lost" in games
    assert apps.get_app_config("play").rated_periods("thud")[0][0] == m.pk


def test_battle_2_one_player_joined_is_the_other_s_no_show(
    hook_calls,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    t0 = timezone.now()
    m = rated_match(now=t0)
    play_to_end(m.battle_1_id, now=t0, dwarves_lost=3, moves=OPENING)
    m.refresh_from_db()
    joining.join(m.battle_2_id, side="dwarf", now=t0)  # Bob (dwarves in battle 2) came
    with django_capture_on_commit_callbacks(execute=True):
        expire(m.battle_2_id)
    m.refresh_from_db()
    assert Battle.objects.get(pk=m.battle_2_id).finished_reason == NO_SHOW
    assert m.status == "ended" and m.no_show_by.username == "alice"
    assert m.winner.username == "bob"
