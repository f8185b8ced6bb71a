"""A tournament's times in its time zone; English dates day-month-year (en-GB)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.http import Http404
from django.template import Context, Template
from django.utils import timezone, translation

from tests.factories import tournament_with_players
from tests.tournaments.web.organiser.pages import settings_data, url
from tournaments.permissions import tournament_gates
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

pytestmark = pytest.mark.django_db

PUBLISHED = datetime(2026, 7, 1, 12, 30, tzinfo=UTC)  # 14:30 in Oslo (summer time)


def published_tournament(**fields):
    t = tournament_with_players(4, **fields)
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=PUBLISHED)
    return t


def test_a_tournament_in_oslo_shows_its_round_times_in_oslo_time(client):
    t = published_tournament(time_zone="Europe/Oslo")
    page = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert "Published 1 July 2026, 14:30 (Europe/Oslo)" in page


def test_a_tournament_in_the_site_zone_shows_utc(client, settings):
    t = published_tournament()
    assert t.time_zone == settings.TIME_ZONE == "UTC"
    page = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert "Published 1 July 2026, 12:30 (UTC)" in page


def test_the_organiser_dashboard_shows_times_in_the_tournament_zone(client):
    t = published_tournament(time_zone="America/New_York")
    client.force_login(t.owner)
    page = client.get(f"/manage/t/{t.slug}/").content.decode()
    assert "published 01/07/2026 08:30" in page


def test_other_pages_keep_the_site_zone_after_a_tournament_page(client):
    t = published_tournament(time_zone="Asia/Tokyo")
    client.get(f"/t/{t.slug}/rounds/1/")
    assert timezone.get_current_timezone_name() == "UTC"


def test_the_time_zone_is_chosen_in_the_settings_form(client):
    t = tournament_with_players(4)
    client.force_login(t.owner)
    page = client.get(url(t, "settings/")).content.decode()
    assert '<option value="Europe/Oslo">Europe/Oslo</option>' in page
    r = client.post(url(t, "settings/"), settings_data(t, time_zone="Europe/Oslo"))
    assert r.status_code == 302
    t.refresh_from_db()
    assert t.time_zone == "Europe/Oslo"
    r = client.post(url(t, "settings/"), settings_data(t, time_zone="Mars/Olympus"))
    assert r.status_code == 400
    t.refresh_from_db()
    assert t.time_zone == "Europe/Oslo"


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [("DATE_FORMAT", "3 February 2026"), ("SHORT_DATE_FORMAT", "03/02/2026")],
)
def test_english_dates_are_day_month_year(fmt, expected):
    with translation.override("en"):
        rendered = Template(f'{{{{ d|date:"{fmt}" }}}}').render(Context({"d": date(2026, 2, 3)}))
    assert rendered == expected


def test_the_home_page_lists_a_tournament_date_day_month_year(client):
    tournament_with_players(2, start_date=date(2026, 2, 3))
    assert "3 February 2026" in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_tournament_the_middleware_read_is_the_public_gates_for_that_request(
    client, django_assert_num_queries
):
    """One read of the tournament per public page (issue 44): the time-zone middleware's,
    kept on the request; a gate given no request, or another tournament's, reads its own,
    and sees a change."""
    t = published_tournament(time_zone="Europe/Oslo")
    answer = client.get(f"/t/{t.slug}/")
    kept = answer.wsgi_request.tournament_read
    assert kept.pk == t.pk and kept.time_zone == "Europe/Oslo"
    type(t).objects.filter(pk=t.pk).update(name="Renamed meanwhile")
    with django_assert_num_queries(0):
        assert tournament_gates.access_tournament_public(t.slug, answer.wsgi_request) is kept
    with django_assert_num_queries(1):
        assert tournament_gates.access_tournament_public(t.slug).name == "Renamed meanwhile"
    with django_assert_num_queries(1), pytest.raises(Http404):
        tournament_gates.access_tournament_public("no-such-slug", answer.wsgi_request)
    other = client.get("/no-such-page-at-all/")
    assert getattr(other.wsgi_request, "tournament_read", None) is None
