"""The match page after an entry: the entered result awaiting confirmation instead of a
filled form, the players' names in the labels, and a dispute named number by number
(issue 41)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.results.entry import enter_result

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name, match):
    return reverse(name, args=[match.round.tournament.slug, match.pk])


def survivors(d1=20, t1=2, d2=15, t2=3, lock_version=0):
    return {
        "battle1_first": d1,
        "battle1_second": t1,
        "battle2_first": d2,
        "battle2_second": t2,
        "lock_version": lock_version,
    }


def entry_inputs(html: str) -> list[str]:
    """The number inputs of the entry form (``id_battle…``; the decision form's are
    ``decision_…``)."""
    return re.findall(r'<input[^>]*id="id_battle[^"]*"[^>]*>', html)


def test_entry_labels_name_the_players(client, match, referee):
    client.force_login(referee)
    html = client.get(url("referee_match", match)).content.decode()
    a, b = match.player_a.player.name, match.player_b.player.name
    assert f"Battle 1 surviving dwarfs ({a})</label>" in html
    assert f"Battle 1 surviving trolls ({b})</label>" in html
    assert f"Battle 2 surviving dwarfs ({b})</label>" in html
    assert f"Battle 2 surviving trolls ({a})</label>" in html
    assert "(A)</label>" not in html and "(B)</label>" not in html


@pytest.mark.parametrize("htmx", [False, True])
def test_after_enter_the_page_shows_the_entry_awaiting_confirmation_not_a_filled_form(
    client, match, referee, htmx
):
    client.force_login(referee)
    headers = HX if htmx else {}
    r = client.post(url("referee_result", match), survivors(), follow=not htmx, **headers)
    html = r.content.decode()
    assert "Result entered." in html
    assert 'id="awaiting-confirmation"' in html
    assert "20–2, 15–3" in html
    assert entry_inputs(html) == []
    # Asked for, the form comes back filled with the caller's own entry to change it.
    again = client.get(url("referee_match", match) + "?change=1").content.decode()
    inputs = entry_inputs(again)
    assert len(inputs) == 4 and 'value="20"' in inputs[0]


def test_second_person_still_gets_the_entry_form_and_a_confirm_button(
    client, match, referee, referee2
):
    client.force_login(referee)
    client.post(url("referee_result", match), survivors())
    client.force_login(referee2)
    html = client.get(url("referee_match", match)).content.decode()
    assert len(entry_inputs(html)) == 4
    assert 'id="awaiting-confirmation"' not in html
    assert "Confirm version 1" in html


@pytest.mark.parametrize("htmx", [False, True])
def test_a_disagreeing_entry_warns_and_names_the_numbers_that_differ(
    client, match, referee, referee2, htmx
):
    enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    headers = HX if htmx else {}
    lock = Match.objects.get(pk=match.pk).lock_version
    r = client.post(
        url("referee_result", match),
        survivors(d1=28, t2=5, lock_version=lock),
        follow=not htmx,
        **headers,
    )
    html = r.content.decode()
    assert Match.objects.get(pk=match.pk).result_status == Match.ResultStatus.DISPUTED
    assert "Result entered." not in html
    a, b = match.player_a.player.name, match.player_b.player.name
    assert "differs from version 1" in html
    assert f"Battle 1 surviving dwarfs ({a}): yours 28, theirs 20" in html
    assert f"Battle 2 surviving trolls ({a}): yours 5, theirs 3" in html
    assert f"surviving trolls ({b}): yours" not in html  # the agreeing numbers are not named
    warning = 'class="warnings" role="alert"' if htmx else 'class="warning"'
    assert warning in html
    assert 'class="notice" role="status">Entered' not in html
    assert ResultVersion.objects.filter(match=match, status="disputed").count() == 2
