"""The organiser's round page is the result hub (issue 41): from the dashboard's "1 result
to confirm in round 1" to the round page, from its row to the match, where the organiser
confirms."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import MatchFactory, UserFactory
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.results.entry import enter_result

pytestmark = pytest.mark.django_db


def test_organiser_goes_from_the_count_to_the_match_and_confirms(client):
    match = MatchFactory()
    bye = MatchFactory(round=match.round, player_b=None)
    t = match.round.tournament
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    version = enter_result(
        match,
        survivors=(20, 2, 15, 3),
        by=UserFactory(),
        expected_lock_version=0,
        now=timezone.now(),
    )
    client.force_login(t.owner)  # the owner, not appointed a referee
    home = client.get(reverse("home")).content.decode()
    round_url = reverse("organiser_round", args=[t.slug, 1])
    assert "1 result to confirm in round 1" in home and round_url in home

    round_page = client.get(round_url).content.decode()
    match_url = reverse("referee_match", args=[t.slug, match.pk])
    assert f'href="{match_url}"' in round_page
    assert reverse("referee_match", args=[t.slug, bye.pk]) not in round_page  # a bye has no result

    page = client.get(match_url).content.decode()
    assert "Confirm version 1" in page
    r = client.post(
        reverse("referee_result_confirm", args=[t.slug, match.pk]),
        {"version_id": version.pk, "lock_version": Match.objects.get(pk=match.pk).lock_version},
    )
    assert r.status_code == 302
    assert Match.objects.get(pk=match.pk).result_status == Match.ResultStatus.CONFIRMED
    assert ResultVersion.objects.get(pk=version.pk).confirmed_by == t.owner
