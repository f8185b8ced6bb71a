"""A battle whose stored board its engine cannot read (an imported archive, a bug)
answers without a server error on every public page and the API (issue 40): the page
says its record cannot be read; the diagram and the record answer 410."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games import clock
from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[clock.FINISHED, clock.RUNNING])
def bad_battle(request):
    (m,) = make_match(tables=1, variant="timed24", outage_threshold_ms=2_000_000_000)
    b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
    now = timezone.now()
    Battle.objects.filter(pk=b1.pk).update(
        status=request.param,
        board="not a board",
        turn_started_at=now - timezone.timedelta(seconds=70),
        think_ends_at=now - timezone.timedelta(seconds=65),
        deadline=now - timezone.timedelta(seconds=60),
        clock_version=1,
    )
    return Battle.objects.get(pk=b1.pk)


def test_every_public_view_of_an_unreadable_battle_answers_without_a_server_error(
    client, bad_battle
):
    b = bad_battle
    slug = b.match.round.tournament.slug
    page = client.get(reverse("games:battle", args=[b.pk]))
    assert page.status_code == 200
    assert "record cannot be read" in page.text
    diagram = client.get(reverse("games:diagram", args=[b.pk]))
    assert diagram.status_code == 410 and "record cannot be read" in diagram.text
    # The moves are still a record: its result is unknown ("*"), not a server error.
    record = client.get(reverse("games:record", args=[b.pk]))
    assert record.status_code == 200 and "*" in record.text
    assert client.get(reverse("records", args=[slug])).status_code == 200
    api = client.get(reverse("api_battle", args=[b.pk]))
    assert api.status_code == 200 and api.json()["result"] is None
    if b.status == clock.RUNNING:  # the page read set it aside, as the clock would
        b.refresh_from_db()
        assert (b.status, b.paused_reason) == (clock.PAUSED, clock.REASON_UNREADABLE)
