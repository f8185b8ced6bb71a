"""The public pages paid for once per change (``thud_site.page_cache``): standings,
pairings, the tournament page and the hall screen are rendered by the first reader after
a change and served from the cache to the next; the first read after any change shows
it; ETag and If-None-Match answer 304; languages and readers are kept apart."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from html import unescape

import pytest
import time_machine
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.battles.play import accept_end, offer_end
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import UserFactory, make_match
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.organising.entries import current_values, edit_entry
from tournaments.organising.hall import start_round_timer
from tournaments.results.entry import confirm_result, enter_result
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import toggle_withdrawal
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import match_score

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

#: Every cached page: its name, its address after the tournament's, its request headers.
PAGES = {
    "tournament": ("", {}),
    "pairings": ("rounds/1/", {}),
    "pairings-htmx": ("rounds/1/", HTMX),
    "standings": ("standings/", {}),
    "standings-htmx": ("standings/", HTMX),
    "hall": ("hall/", {}),
    "hall-slides": ("hall/?part=slides", {}),
}


def now():
    return timezone.now()


def started(tables: int = 2) -> Tournament:
    """Round 1 of a classic (untimed) tournament published: ``tables`` matches, no result."""
    matches = make_match(variant="classic", tables=tables, rounds=3)
    return matches[0].round.tournament


def matches_of(t: Tournament) -> list[Match]:
    return list(Match.objects.filter(round__tournament=t, round__number=1).order_by("table"))


def get(client, t: Tournament, page: str, **headers):
    rest, page_headers = PAGES[page]
    return client.get(f"/t/{t.slug}/{rest}", **page_headers, **headers)


# A page in the site's layout holds a CSRF token, masked anew at every render.
TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def shown(client, t: Tournament, page: str, **headers) -> str:
    response = get(client, t, page, **headers)
    assert response.status_code == 200
    return TOKEN.sub("TOKEN", response.content.decode())


def rendered_afresh(client, t: Tournament, page: str, settings) -> str:
    """The page as it is rendered with no cache at all."""
    settings.CACHES = settings.CACHES | {
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    }
    try:
        return shown(client, t, page)
    finally:
        del settings.CACHES


# --- the changes ---------------------------------------------------------------------------


def result_confirmed(t: Tournament) -> None:
    m = matches_of(t)[0]
    first = enter_result(
        m, survivors=(17, 3, 12, 8), by=UserFactory(), expected_lock_version=None, now=now()
    )
    confirm_result(m, version_id=first.pk, by=UserFactory(), expected_lock_version=None, now=now())


def battle_finished_online(t: Tournament) -> None:
    """Both battles of table 2 played online, each ended by agreement: the engine's
    result is the tournament's."""
    m = matches_of(t)[1]
    b1, b2 = create_battles(m, now=now())
    for pk in (b1.pk, b2.pk):
        battle = Battle.objects.get(pk=pk)
        if battle.status == Battle.Status.PENDING:
            battle = start_battle(pk, now=now())
        first, second = (info.key for info in battle.rules.sides)
        offer_end(pk, side=first, now=now())
        accept_end(pk, side=second, now=now())
    assert Match.objects.get(pk=m.pk).confirmed_version is not None


def round_published(t: Tournament) -> None:
    for m in matches_of(t):
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=now())
    publish_round(pair_next_round(t, by=None, now=now()), now=now())


def entry_edited(t: Tournament) -> None:
    entry = matches_of(t)[0].player_a
    values = current_values(entry)
    renamed = type(values)(
        "Rincewind", values.club, values.country, values.rating, values.seed or 1
    )
    edit_entry(entry, values=renamed, by=None, now=now())


def entry_withdrawn(t: Tournament) -> None:
    toggle_withdrawal(matches_of(t)[0].player_a)


#: Each change and the pages that show it (the others must simply stay right).
CHANGES: dict[str, tuple[Callable[[Tournament], None], set[str]]] = {
    "result-confirmed": (
        result_confirmed,
        {"pairings", "pairings-htmx", "standings", "standings-htmx", "hall", "hall-slides"},
    ),
    "battle-finished-online": (
        battle_finished_online,
        {"pairings", "pairings-htmx", "standings", "standings-htmx", "hall", "hall-slides"},
    ),
    "round-published": (round_published, {"tournament", "hall", "hall-slides"}),
    "entry-edited": (entry_edited, set(PAGES)),
    "entry-withdrawn": (entry_withdrawn, {"tournament", "standings", "standings-htmx"}),
}


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("change", CHANGES)
def test_the_first_read_after_a_change_shows_it(client, settings, change, page):
    t = started()
    before = shown(client, t, page)
    assert shown(client, t, page) == before  # cached, and a reader sees it
    write, shows = CHANGES[change]
    write(t)
    after = shown(client, t, page)
    assert after == rendered_afresh(client, t, page, settings)
    if page in shows:
        assert after != before


def test_a_result_shows_its_score_on_the_pairings_and_the_hall_screen(client):
    t = started()
    for page in ("pairings-htmx", "hall-slides"):
        shown(client, t, page)
    result_confirmed(t)
    score = match_score(
        Match.objects.select_related("confirmed_version").get(table=1, round__tournament=t)
    )
    points = f"{sum(score.a_points)} – {sum(score.b_points)}"
    for page in ("pairings-htmx", "hall-slides"):
        assert points in shown(client, t, page)


# --- the second reader pays nothing --------------------------------------------------------


def count_queries(client, t: Tournament, page: str, **headers) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert get(client, t, page, **headers).status_code == 200
    return len(seen)


@pytest.mark.parametrize("page", PAGES)
def test_a_second_reader_gets_the_cached_body_with_fewer_queries(client, page):
    t = started()
    result_confirmed(t)
    cold = count_queries(client, t, page)
    warm = count_queries(client, t, page)
    assert warm < cold


def test_the_warm_read_renders_nothing(client, monkeypatch):
    t = started()
    cold = {page: shown(client, t, page) for page in PAGES}

    def refuse(*args, **kwargs):
        raise AssertionError("rendered again")

    for module, name in [
        ("tournaments.web.views_public", "_tournament_public"),
        ("tournaments.web.views_public", "_pairings_table"),
        ("tournaments.web.views_public", "_standings_table"),
        ("tournaments.web.views_hall", "hall_slides"),
    ]:
        monkeypatch.setattr(f"{module}.{name}", refuse)
    assert {page: shown(client, t, page) for page in PAGES} == cold


@pytest.mark.parametrize("page", PAGES)
def test_without_redis_every_page_renders_and_shows_each_change(client, redis_down, page):
    t = started()
    before = shown(client, t, page)
    entry_edited(t)
    after = shown(client, t, page)
    assert after != before and "Rincewind" in after


def test_the_hall_screen_turns_to_the_timers_warning_without_a_write(client):
    """The timer's look changes with time alone: the cached screen lasts until then."""
    t = started()
    start = timezone.now()
    start_round_timer(t, minutes=10, now=start)
    for page in ("hall", "hall-slides"):
        assert " warning" not in shown(client, t, page)
    with time_machine.travel(start + timedelta(minutes=6), tick=False):
        for page in ("hall", "hall-slides"):
            assert "hall-timer round-timer warning" in shown(client, t, page)


# --- ETag and 304 --------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_a_reader_holding_the_page_is_answered_304_until_it_changes(client, page):
    t = started()
    get(client, t, page)  # the CSRF cookie the page in the layout sets
    first = get(client, t, page)
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    assert {"Cookie", "Accept-Language", "HX-Request"} <= {
        v.strip() for v in first["Vary"].split(",")
    }
    again = get(client, t, page, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    result_confirmed(t)
    entry_edited(t)  # every page shows the name
    changed = get(client, t, page, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_htmx_fragment_and_the_whole_page_have_different_etags(client):
    t = started()
    for page in ("standings", "pairings"):
        get(client, t, page)
        assert get(client, t, page)["ETag"] != get(client, t, f"{page}-htmx")["ETag"]


@pytest.mark.parametrize("page", ["tournament", "pairings", "standings"])
def test_a_signed_in_readers_page_is_never_answered_304(client, page):
    """Their navigation shows what the state version does not follow (their games)."""
    t = started()
    client.force_login(t.owner)
    response = get(client, t, page)
    assert "ETag" not in response and "private" in response["Cache-Control"]
    assert get(client, t, f"{page}-htmx" if page != "tournament" else page).status_code == 200


def test_a_signed_in_reader_shares_the_fragments_etag(client):
    t = started()
    anonymous = get(client, t, "standings-htmx")["ETag"]
    client.force_login(t.owner)
    assert get(client, t, "standings-htmx", HTTP_IF_NONE_MATCH=anonymous).status_code == 304


# --- languages and readers apart -----------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_each_language_gets_its_own_body(client, page):
    t = started()
    english = shown(client, t, page, HTTP_ACCEPT_LANGUAGE="en")
    norwegian = shown(client, t, page, HTTP_ACCEPT_LANGUAGE="nb")
    assert norwegian != english
    assert shown(client, t, page, HTTP_ACCEPT_LANGUAGE="en") == english
    assert shown(client, t, page, HTTP_ACCEPT_LANGUAGE="nb") == norwegian


def test_the_hall_screens_address_chooses_its_cached_language(client):
    t = started()
    english = client.get(f"/t/{t.slug}/hall/?lang=en").content
    italian = client.get(f"/t/{t.slug}/hall/?lang=it").content
    assert italian != english and 'lang="it"' in italian.decode()
    assert client.get(f"/t/{t.slug}/hall/?lang=en").content == english


@pytest.mark.parametrize("organiser_first", [True, False])
def test_the_organisers_controls_are_never_served_to_others(client, organiser_first):
    t = started()
    manage = "Manage this tournament"
    reader = {"anonymous": client, "organiser": type(client)()}
    reader["organiser"].force_login(t.owner)
    order = ["organiser", "anonymous"] if organiser_first else ["anonymous", "organiser"]
    seen = {who: reader[who].get(f"/t/{t.slug}/").content.decode() for who in order}
    assert manage in seen["organiser"] and manage not in seen["anonymous"]
    assert 'class="who"' in seen["organiser"] and 'class="who"' not in seen["anonymous"]


# --- a whole page shared by anonymous readers ----------------------------------------------

LAYOUT_PAGES = ["tournament", "pairings", "standings"]


def switch_language(client, page_html: str, to: str = "nb"):
    """Post the page's own language switcher, with the page's own CSRF token."""
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page_html)[1]
    nxt = unescape(re.search(r'name="next" value="([^"]*)"', page_html)[1])
    return client.post(
        "/i18n/setlang/", {"language": to, "next": nxt, "csrfmiddlewaretoken": token}
    )


@pytest.mark.parametrize("page", LAYOUT_PAGES)
def test_anonymous_readers_share_the_whole_page_each_with_their_own_csrf_token(page, monkeypatch):
    t = started()
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    html = {"first": get(first, t, page).content.decode()}

    def refuse(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr("thud_site.page_cache.render_to_string", refuse)
    html["second"] = get(second, t, page).content.decode()
    assert TOKEN.sub("TOKEN", html["first"]) == TOKEN.sub("TOKEN", html["second"])
    assess = {
        who: switch_language(c, html[who]) for who, c in [("first", first), ("second", second)]
    }
    assert {answer.status_code for answer in assess.values()} == {302}
    # One reader's token is not the other's: the hole is filled for each.
    assert switch_language(first, html["second"]).status_code == 403


@pytest.mark.parametrize("page", LAYOUT_PAGES)
def test_an_address_with_a_query_of_its_own_is_rendered_for_its_reader(client, page):
    t = started()
    rest, _ = PAGES[page]
    shown(client, t, page)  # the shared page, cached
    odd = client.get(f"/t/{t.slug}/{rest}?from=poster").content.decode()
    assert f'name="next" value="/t/{t.slug}/{rest}?from=poster"' in odd
    # Not kept for the next reader: an address nobody else asks for fills no cache.
    with CaptureQueriesContext(connection) as again:
        client.get(f"/t/{t.slug}/{rest}?from=poster")
    with CaptureQueriesContext(connection) as shared:
        client.get(f"/t/{t.slug}/{rest}")
    assert len(again) == len(shared) + 1  # the navigation's rounds, rendered again
    paged = client.get(f"/t/{t.slug}/{rest}?page=1").content.decode()
    assert f'name="next" value="/t/{t.slug}/{rest}?page=1"' in paged
    assert f'name="next" value="/t/{t.slug}/{rest}"' in shown(client, t, page)


@pytest.mark.parametrize("page", LAYOUT_PAGES)
def test_a_message_waiting_is_shown_to_its_reader_alone(client, page):
    t = started()
    shown(client, t, page)  # the shared page, cached
    told = Client()
    storage = CookieStorage(RequestFactory().get("/"))
    told.cookies["messages"] = storage._encode([Message(constants.INFO, "Your result is in.")])
    assert "Your result is in." in get(told, t, page).content.decode()
    assert "Your result is in." not in shown(client, t, page)
    assert "Your result is in." not in get(told, t, page).content.decode()  # shown once


# --- the cost does not grow with the field -------------------------------------------------


def field_of(tables: int) -> Tournament:
    """``2 * tables`` entries, every match of round 1 with a confirmed result."""
    t = started(tables)
    for m in matches_of(t):
        record_final_result(m, survivors=(10, 1, 5, 2), by=None, source="import", now=now())
    return t


#: The queries of each page, cold (the first reader after a change) and warm (the next).
QUERIES = {
    # The warm reads: the tournament (once: its time zone's middleware reads it for the
    # gate, ``tournament_gates.read_for_request``); the pairings also
    # the published rounds (is there a round N?), the pages the page number's count. An
    # anonymous reader's whole page comes from the cache: not its navigation's rounds.
    # The cold ones add what the body reads, in a constant number.
    "tournament": (6, 1),
    "pairings": (5, 2),
    "pairings-htmx": (4, 2),
    "standings": (5, 1),
    "standings-htmx": (4, 1),
    "hall": (5, 1),
    "hall-slides": (5, 1),
}


@pytest.mark.parametrize("page", PAGES)
def test_the_queries_of_a_page_are_pinned_whatever_the_field(client, page):
    seen = []
    for tables in (2, 20):
        t = field_of(tables)
        seen.append((count_queries(client, t, page), count_queries(client, t, page)))
    assert seen[0] == seen[1] == QUERIES[page]
