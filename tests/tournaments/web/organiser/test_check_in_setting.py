"""The check-in setting: ticked on the new-tournament form, changed on the settings page."""

from __future__ import annotations

import re

import pytest

from tests.factories import UserFactory
from tests.tournaments.web.organiser.pages import NEW_TOURNAMENT, organiser_role, settings_data, url
from tournaments.models.tournament import Tournament

pytestmark = pytest.mark.django_db


def test_the_new_tournament_form_offers_check_in_ticked(client):
    client.force_login(organiser_role(UserFactory()))
    page = client.get("/manage/t/new/").content.decode()
    box = re.search(r'<input[^>]*name="check_in_required"[^>]*>', page)
    assert box is not None and " checked" in box.group(0)
    client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "on", "check_in_required": "on"})
    client.post("/manage/t/new/", NEW_TOURNAMENT | {"slug": "off"})
    assert Tournament.objects.get(slug="on").check_in_required
    assert not Tournament.objects.get(slug="off").check_in_required


def test_the_settings_page_turns_check_in_on_and_off(organiser, tournament):
    page = organiser.get(url(tournament, "settings/"))
    assert b'name="check_in_required"' in page.content and b"checked in" in page.content
    organiser.post(url(tournament, "settings/"), settings_data(tournament, check_in_required="on"))
    tournament.refresh_from_db()
    assert tournament.check_in_required
    organiser.post(
        url(tournament, "settings/"), settings_data(tournament) | {"check_in_required": ""}
    )
    tournament.refresh_from_db()
    assert not tournament.check_in_required
