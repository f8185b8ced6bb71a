"""The result forms honour their submission key (``tournaments.results.once``): the
referee's entry, a player's report, a confirmation and the over-the-board survivors form.

Each replay here is one the old double-submit detection would not have caught (the
match changed in between), so only the key makes it answer like the first time.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, make_match
from tests.games.test_referee_survivors import ENTERED, finish_otb
from tests.tournaments.web.test_views_referee import (
    HX,
    fresh,
    players_of,
    survivors,
    url,
)
from tournaments.models.results import SubmissionKey
from tournaments.results.corrections import decide_result
from tournaments.results.entry import enter_result

pytestmark = pytest.mark.django_db

KEY = "5f0c2b9e-8d1a-4c3e-b7a6-1e2d3c4b5a69"


def test_entry_form_carries_a_fresh_key_each_time_it_is_rendered(client, match, referee):
    client.force_login(referee)
    keys = [
        re.search(
            r'name="key" value="([0-9a-f-]{36})"', client.get(url("referee_match", match)).text
        )
        for _ in range(2)
    ]
    assert all(keys) and keys[0][1] != keys[1][1]


def test_replayed_entry_after_a_later_entry_answers_200_and_adds_nothing(client, match, referee):
    client.force_login(referee)
    first = client.post(url("referee_result", match), survivors(lock_version=0, key=KEY), **HX)
    assert first.status_code == 200
    client.post(url("referee_result", match), survivors(d1=19, lock_version=1), **HX)
    assert match.versions.count() == 2
    replay = client.post(url("referee_result", match), survivors(lock_version=0, key=KEY), **HX)
    assert replay.status_code == 200, replay.text
    assert match.versions.count() == 2


def test_players_report_honours_its_key(client, match):
    a, b = players_of(match)
    client.force_login(a)
    report = survivors(lock_version=0, key=KEY)
    assert client.post(url("referee_result", match), report).status_code == 302
    client.force_login(b)
    client.post(url("referee_result", match), survivors(d1=1, lock_version=1))
    client.force_login(a)
    replay = client.post(url("referee_result", match), report)
    assert replay.status_code == 302
    assert match.versions.count() == 2 and fresh(match).result_status == "disputed"


def test_replayed_confirmation_after_a_decision_answers_200_and_changes_nothing(
    client, match, referee, referee2
):
    version = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    data = {"version_id": version.pk, "lock_version": 1, "key": KEY}
    assert client.post(url("referee_result_confirm", match), data, **HX).status_code == 200
    decided = decide_result(
        match,
        survivors=(1, 1, 1, 1),
        by=UserFactory(),
        reason="appeal",
        expected_lock_version=None,
        now=timezone.now(),
    )
    replay = client.post(url("referee_result_confirm", match), data, **HX)
    assert replay.status_code == 200, replay.text
    assert fresh(match).confirmed_version_id == decided.pk


@pytest.mark.parametrize("bad", ["short", "x" * 65, "<script>alert(1)</script>-abcdef"])
def test_a_malformed_key_is_refused_with_a_message_and_nothing_is_entered(
    client, match, referee, bad
):
    client.force_login(referee)
    r = client.post(url("referee_result", match), survivors(lock_version=0, key=bad), **HX)
    assert r.status_code == 422
    assert "submission key is not valid" in r.text
    assert not match.versions.exists() and fresh(match).lock_version == 0


def test_a_malformed_key_on_a_confirmation_is_refused(client, match, referee, referee2):
    version = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee2)
    data = {"version_id": version.pk, "lock_version": 1, "key": "bad key!"}
    r = client.post(url("referee_result_confirm", match), data, **HX)
    assert r.status_code == 400 and "submission key is not valid" in r.text
    assert fresh(match).result_status == "entered"


def test_a_key_used_by_another_referee_is_refused(client, match, referee, referee2):
    client.force_login(referee)
    client.post(url("referee_result", match), survivors(lock_version=0, key=KEY), **HX)
    client.force_login(referee2)
    r = client.post(url("referee_result", match), survivors(d1=1, lock_version=1, key=KEY), **HX)
    assert r.status_code == 422 and "already used for a different submission" in r.text
    assert match.versions.count() == 1 and fresh(match).lock_version == 1


def test_a_stale_entry_is_shown_beside_the_stored_result_and_can_be_entered_anyway(
    client, match, referee, referee2
):
    enter_result(
        match, survivors=(20, 2, 15, 3), by=referee2, expected_lock_version=0, now=timezone.now()
    )
    client.force_login(referee)
    r = client.post(
        url("referee_result", match),
        survivors(d1=30, t1=2, d2=12, t2=8, lock_version=0, key=KEY),
        **HX,
    )
    assert r.status_code == 409
    assert re.search(r"Your entry \(not applied\):</strong> <span data-attempt>30–2, 12–8", r.text)
    assert re.search(r"Stored now:</strong> <span data-stored>20–2, 15–3", r.text)
    assert match.versions.count() == 1
    retry = r.text[r.text.index('id="conflict-choice"') :].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', retry))
    assert fields["key"] == KEY and fields["lock_version"] == "1"
    assert client.post(url("referee_result", match), fields, **HX).status_code == 200
    assert match.versions.count() == 2 and fresh(match).result_status == "disputed"


def test_a_stale_confirmation_is_shown_not_applied(client, match, referee, referee2):
    version = enter_result(
        match, survivors=(20, 2, 15, 3), by=referee, expected_lock_version=0, now=timezone.now()
    )
    enter_result(
        match,
        survivors=(1, 1, 1, 1),
        by=UserFactory(),
        expected_lock_version=1,
        now=timezone.now(),
    )
    client.force_login(referee2)
    data = {"version_id": version.pk, "lock_version": 1, "key": KEY}
    r = client.post(url("referee_result_confirm", match), data, **HX)
    assert r.status_code == 409
    assert "Your confirmation of version 1 (not applied)" in r.text
    assert fresh(match).result_status == "disputed"
    assert not SubmissionKey.objects.exists()


def test_otb_survivors_form_applies_its_key_once(client):
    match = make_match()[0]
    b1, _b2 = finish_otb(client, match)
    page = client.get(reverse("games:referee_clock", args=[b1.pk])).text
    assert re.search(r'id="survivors-form"[^>]*data-offline-queue', page)
    assert 'name="key"' in page[page.index('id="survivors-form"') :]
    for _ in range(2):
        r = client.post(reverse("games:survivors", args=[b1.pk]), {**ENTERED, "key": KEY})
        assert r.status_code == 302
    assert match.versions.count() == 1


def test_a_key_resent_with_other_numbers_says_it_was_already_applied_with_the_stored_ones(
    client, match, referee
):
    client.force_login(referee)
    first = client.post(url("referee_result", match), survivors(lock_version=0, key=KEY), **HX)
    assert "Result entered." in first.text
    resent = client.post(
        url("referee_result", match), survivors(d1=5, t1=7, lock_version=0, key=KEY), **HX
    )
    assert resent.status_code == 200
    assert "Result entered." not in resent.text
    assert "already applied" in resent.text and "nothing was changed" in resent.text
    assert "20–2 in battle 1, 15–3 in battle 2" in resent.text
    assert match.versions.count() == 1
