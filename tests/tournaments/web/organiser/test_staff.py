"""The organiser's staff: referees and co-organisers."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.web.organiser.pages import url
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db


def test_appoint_and_remove_referee(organiser, tournament):
    referee = UserFactory(username="ridcully")
    organiser.post(url(tournament, "referees/"), {"username": "ridcully"})
    assert list(tournament.referees.all()) == [referee]
    response = organiser.post(url(tournament, "referees/"), {"username": "ghost"}, follow=True)
    assert "No user named ghost" in response.content.decode()
    organiser.post(url(tournament, f"referees/{referee.pk}/remove/"))
    assert not tournament.referees.exists()


# ---------------------------------------------------------------- co-organisers


def test_a_co_organiser_runs_the_tournament_until_removed(client, tournament):
    helper, other = UserFactory(username="magrat"), UserFactory(username="nanny")
    client.force_login(tournament.owner)
    client.post(url(tournament, "co-organisers/"), {"username": "magrat"})
    client.post(url(tournament, "co-organisers/"), {"username": "nanny"})
    assert list(tournament.co_organisers.order_by("username")) == [helper, other]
    client.force_login(helper)
    assert client.get(url(tournament)).status_code == 200
    assert client.post(url(tournament, "rounds/generate/")).status_code == 302
    assert tournament.round_set.count() == 1
    client.force_login(tournament.owner)
    client.post(url(tournament, f"co-organisers/{helper.pk}/remove/"))
    assert list(tournament.co_organisers.all()) == [other]  # the other one stays
    client.force_login(helper)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament, "rounds/1/publish/")).status_code == 403
    assert tournament.round_set.get().status == Round.Status.DRAFT


def test_co_organisers_cannot_appoint_or_remove_co_organisers(client, tournament):
    helper, other = UserFactory(), UserFactory(username="nanny")
    tournament.co_organisers.add(helper)
    client.force_login(helper)
    assert "Appoint co-organiser" not in client.get(url(tournament)).content.decode()
    response = client.post(url(tournament, "co-organisers/"), {"username": "nanny"})
    assert response.status_code == 403 and not tournament.co_organisers.filter(pk=other.pk).exists()
    response = client.post(url(tournament, f"co-organisers/{helper.pk}/remove/"))
    assert response.status_code == 403 and tournament.co_organisers.filter(pk=helper.pk).exists()


def test_appointing_the_owner_or_a_stranger_as_co_organiser_is_refused(organiser, tournament):
    owner = tournament.owner.username
    response = organiser.post(url(tournament, "co-organisers/"), {"username": owner}, follow=True)
    assert "The owner organises this tournament already" in response.content.decode()
    response = organiser.post(url(tournament, "co-organisers/"), {"username": "ghost"}, follow=True)
    assert "No user named ghost" in response.content.decode()
    assert not tournament.co_organisers.exists()
