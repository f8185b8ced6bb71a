from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import TournamentFactory, tournament_with_players
from tournaments.models.people import Player
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Entry, Tournament
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round
from tournaments.rounds.reads import standings_fingerprint
from tournaments.web.views_public import PAGE_SIZE

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def started(n: int = 4, results: bool = True) -> Tournament:
    t = tournament_with_players(n, rounds=3)
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    if results:
        for m in r.matches.filter(player_b__isnull=False):
            record_final_result(
                m, survivors=(10, 1, 5, 2), by=None, source="import", now=timezone.now()
            )
    return t


def test_home_links_every_tournament(client):
    t = TournamentFactory(name="Lancre Open")
    body = client.get("/").content.decode()
    assert f'href="/t/{t.slug}/"' in body and "Lancre Open" in body


def test_tournament_page_lists_rounds_and_players(client):
    t = started()
    body = client.get(f"/t/{t.slug}/").content.decode()
    assert f"/t/{t.slug}/rounds/1/" in body
    entry = t.entries.first()
    assert f"/t/{t.slug}/players/{entry.pk}/" in body


def test_unknown_tournament_is_404(client):
    assert client.get("/t/nope/").status_code == 404
    assert client.get("/t/nope/standings/").status_code == 404


def test_pairings_full_page_and_htmx_fragment(client):
    t = started(3)
    url = f"/t/{t.slug}/rounds/1/"
    full = client.get(url).content.decode()
    assert "<html" in full and 'id="pairings-table"' in full
    assert 'hx-trigger="every 5s, standings-changed from:body"' in full
    fragment = client.get(url, **HTMX).content.decode()
    assert "<html" not in fragment
    assert fragment.strip().startswith('<div id="pairings-table"')
    assert "bye" in fragment and "18 – 9" in fragment


def test_draft_round_is_not_public(client):
    t = tournament_with_players(4)
    pair_next_round(t, by=None, now=timezone.now())
    assert client.get(f"/t/{t.slug}/rounds/1/").status_code == 404


def test_standings_full_page_and_htmx_fragment_show_every_tiebreak(client):
    t = started()
    url = f"/t/{t.slug}/standings/"
    full = client.get(url).content.decode()
    assert "<html" in full and 'id="standings-table"' in full
    for label in ("Differential", "Buchholz", "Sonneborn–Berger", "Battles won", "Separated by"):
        assert label in full
    fragment = client.get(url, **HTMX).content.decode()
    assert "<html" not in fragment and fragment.strip().startswith('<div id="standings-table"')


def test_standings_say_which_rule_separated_tied_players(client):
    t = started()  # two winners with equal points, differential and battles
    body = client.get(f"/t/{t.slug}/standings/", **HTMX).content.decode()
    # Winners tie on points, differential, Buchholz, SB and battles: the seed separates them.
    assert '<td class="muted extra">Seed</td>' in body


def standings_page_queries(client, n: int) -> int:
    t = started(n)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/t/{t.slug}/standings/").status_code == 200
    return len(ctx.captured_queries)


def test_standings_page_query_count_does_not_grow_with_players(client):
    assert standings_page_queries(client, 4) == standings_page_queries(client, 40)


def test_player_page_shows_history_from_the_players_side(client):
    t = started(2)
    m = t.round_set.get().matches.get()
    loser = client.get(f"/t/{t.slug}/players/{m.player_b_id}/").content.decode()
    assert m.player_a.player.name in loser and "loss" in loser and "9 – 18" in loser
    winner = client.get(f"/t/{t.slug}/players/{m.player_a_id}/").content.decode()
    assert "win" in winner and "18 – 9" in winner


def test_player_of_another_tournament_is_404(client):
    t, other = started(2), tournament_with_players(1)
    entry = other.entries.get()
    assert client.get(f"/t/{t.slug}/players/{entry.pk}/").status_code == 404


def test_public_pages_refuse_post(client):
    t = started(2, results=False)
    assert client.post(f"/t/{t.slug}/standings/").status_code == 405


def test_cached_standings_follow_a_confirmed_result_and_a_withdrawal(client):
    t = started(4, results=False)
    url = f"/t/{t.slug}/standings/"
    before = client.get(url, **HTMX).content.decode()
    assert before == client.get(url, **HTMX).content.decode()  # served from the cache
    match = t.round_set.get().matches.filter(player_b__isnull=False).first()
    record_final_result(
        match, survivors=(0, 8, 32, 0), by=None, source="import", now=timezone.now()
    )
    after = client.get(url, **HTMX).content.decode()
    assert after != before
    winner = match.player_b.player.name
    first_row = after.split("<tbody>")[1].split("</tr>")[0]
    assert winner in first_row


def test_standings_fingerprint_changes_with_every_input():
    t = started(4, results=False)
    seen = {standings_fingerprint(t)}
    match = t.round_set.get().matches.filter(player_b__isnull=False).first()
    record_final_result(match, survivors=(3, 2, 1, 0), by=None, source="import", now=timezone.now())
    seen.add(standings_fingerprint(t))
    entry = t.entries.first()
    entry.withdrawn_from_round = 2
    entry.save()
    seen.add(standings_fingerprint(t))
    entry.initial_points = 2
    entry.save()
    seen.add(standings_fingerprint(t))
    t.round_set.update(status="draft")
    seen.add(standings_fingerprint(t))
    t.tiebreaks = ["match_points", "buchholz"]
    seen.add(standings_fingerprint(t))
    assert len(seen) == 6


def test_standings_cache_is_separate_per_tournament(client):
    a, b = started(2), started(2)
    body_a = client.get(f"/t/{a.slug}/standings/", **HTMX).content.decode()
    body_b = client.get(f"/t/{b.slug}/standings/", **HTMX).content.decode()
    assert a.entries.first().player.name in body_a
    assert a.entries.first().player.name not in body_b


def test_quickfire_pairings_link_each_match_to_its_battles(client):
    t = tournament_with_players(4, rounds=3)
    t.variant = Tournament.Variant.TIMED_24
    t.save()
    r = publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    body = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    for m in r.matches.all():
        assert f'href="/battles/match/{m.pk}/"' in body


def test_classic_pairings_have_no_battle_links(client):
    t = started(4)
    assert "/battles/match/" not in client.get(f"/t/{t.slug}/rounds/1/").content.decode()


# ---------------------------------------------------------------- pagination


@pytest.fixture
def big() -> Tournament:
    """202 players (seeds 1–202, named P001…P202) and a published round of 101 matches."""
    t = TournamentFactory(rounds=3)
    players = Player.objects.bulk_create(Player(name=f"P{i:03d}") for i in range(1, 203))
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, seed=i) for i, p in enumerate(players, start=1)
    )
    round_ = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    Match.objects.bulk_create(
        Match(round=round_, table=k + 1, player_a=entries[2 * k], player_b=entries[2 * k + 1])
        for k in range(101)
    )
    return t


def player_links(t: Tournament, body: str) -> int:
    return body.count(f'href="/t/{t.slug}/players/')


def test_tournament_page_lists_players_a_page_at_a_time(client, big):
    def players(query: str = "") -> str:
        body = client.get(f"/t/{big.slug}/{query}").content.decode()
        return body.split('<div class="table-wrap">')[1]  # after the per-request CSRF token

    page1 = players()
    assert player_links(big, page1) == PAGE_SIZE
    assert "P001" in page1 and "P101" not in page1 and 'href="?page=2"' in page1
    page3 = players("?page=3")
    assert player_links(big, page3) == 2 and "P202" in page3
    assert players("?page=abc") == page1
    assert players("?page=999") == page3


def test_round_pairings_are_paginated_and_poll_their_own_page(client, big):
    url = f"/t/{big.slug}/rounds/1/"
    page1 = client.get(url).content.decode()
    assert player_links(big, page1) == 2 * PAGE_SIZE and "<td>101</td>" not in page1
    page2 = client.get(f"{url}?page=2", **HTMX).content.decode()
    assert player_links(big, page2) == 2 and "<td>101</td>" in page2
    assert f'hx-get="{url}?page=2"' in page2
    assert client.get(f"{url}?page=-1", **HTMX).content.decode() == page2


def test_standings_are_paginated_and_each_page_is_cached_apart(client, big):
    url = f"/t/{big.slug}/standings/"
    page1 = client.get(url, **HTMX).content.decode()
    assert player_links(big, page1) == PAGE_SIZE and "P001" in page1 and "P101" not in page1
    page2 = client.get(f"{url}?page=2", **HTMX).content.decode()
    assert player_links(big, page2) == PAGE_SIZE and "P101" in page2 and "P001" not in page2
    assert f'hx-get="{url}?page=2"' in page2
    assert client.get(f"{url}?page=x", **HTMX).content.decode() == page1
    page3 = client.get(f"{url}?page=99", **HTMX).content.decode()
    assert player_links(big, page3) == 2 and "P202" in page3
    full = client.get(f"{url}?page=2").content.decode()
    assert "<html" in full and "P101" in full and 'href="?page=3"' in full


def _first_row(client, t: Tournament) -> str:
    body = client.get(f"/t/{t.slug}/standings/", **HTMX).content.decode()
    return body.split("<tbody>")[1].split("</tr>")[0]


def test_cached_standings_follow_a_correction_once_it_is_confirmed():
    from django.test import Client

    from tests.factories import UserFactory
    from tournaments.results.corrections import correct_result
    from tournaments.results.entry import confirm_result

    client = Client()
    t = started(2)  # player A won 18 - 9
    match = t.round_set.get().matches.get()
    assert match.player_a.player.name in _first_row(client, t)
    first, second = UserFactory(), UserFactory()
    version = correct_result(
        match,
        survivors=(0, 8, 32, 0),
        by=first,
        reason="swapped",
        expected_lock_version=None,
        now=timezone.now(),
    )
    # A correction waiting for its second person changes nothing yet.
    assert match.player_a.player.name in _first_row(client, t)
    confirm_result(
        match, version_id=version.pk, by=second, expected_lock_version=None, now=timezone.now()
    )
    assert match.player_b.player.name in _first_row(client, t)


def test_cached_standings_follow_a_final_decision(client):
    from tests.factories import UserFactory
    from tournaments.results.corrections import decide_result

    t = started(2)
    match = t.round_set.get().matches.get()
    assert match.player_a.player.name in _first_row(client, t)
    decide_result(
        match,
        survivors=(0, 8, 32, 0),
        by=UserFactory(),
        reason="scoresheet",
        expected_lock_version=None,
        now=timezone.now(),
    )
    assert match.player_b.player.name in _first_row(client, t)


def test_logged_in_standings_page_query_count_does_not_grow_with_players(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    client.get("/")  # the first request of a session saves the user's language profile
    assert standings_page_queries(client, 4) == standings_page_queries(client, 40)


# ---------------------------------------------------------------- a Cavalli tournament


def test_every_public_page_of_a_cavalli_tournament_shows_its_points(client):
    t = tournament_with_players(4, rounds=2, game="cavalli")
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    first, second = Match.objects.filter(round__tournament=t).order_by("table")
    record_final_result(
        first, survivors=(2400, 1800, 999, 3100), by=None, source="import", now=timezone.now()
    )
    record_final_result(
        second, survivors=(100, 200, 300, 400), by=None, source="import", now=timezone.now()
    )
    winner = first.player_a  # (2400 + 3100) - (1800 + 999) = +2701
    pages = [
        f"/t/{t.slug}/",
        f"/t/{t.slug}/rounds/1/",
        f"/t/{t.slug}/standings/",
        f"/t/{t.slug}/players/{winner.pk}/",
        f"/t/{t.slug}/crosstable/",
        f"/t/{t.slug}/report/",
        f"/t/{t.slug}/stats/",
        "/stats/",
        f"/t/{t.slug}/standings.csv",
        f"/t/{t.slug}/results.csv",
        f"/api/tournaments/{t.slug}/standings",
        f"/api/tournaments/{t.slug}/stats",
    ]
    for page in pages:
        assert client.get(page).status_code == 200, page
    standings = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert "2701" in standings
    csv = client.get(f"/t/{t.slug}/results.csv").content.decode()
    assert "2400,1800,999,3100" in csv


def test_standings_table_localises_the_decimal_tiebreak_but_not_whole_numbers():
    """Whole numbers skip localisation (the same in every language); Sonneborn-Berger
    keeps its language's decimal mark."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    row = SimpleNamespace(
        tied_with_previous=False, rank=1, name="Ada", played=4, wins=3, draws=1, losses=0,
        byes=0, match_points=7, differential=-5, buchholz=11, sonneborn_berger=12.5,
        battles_won=6, seed=1200,
    )  # fmt: skip
    t = TournamentFactory()
    with translation.override("it"):
        html = render_to_string(
            "tournaments/standings.html#standings-table",
            {"tournament": t, "rows": [(row, "/p/", "", False)], "columns": [], "kept": set()},
        )
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html, flags=re.S)
    assert cells[:2] == ["1", "4"] and "12,5" in html and "-5" in cells
    assert "1200" in cells


def test_pairings_say_who_has_which_side_in_the_tournaments_game(client):
    thud = started(4, results=False)
    page = client.get(f"/t/{thud.slug}/rounds/1/").content.decode()
    assert "Player A has the dwarfs in battle 1 and the trolls in battle 2." in page

    cavalli = tournament_with_players(4, rounds=3, game="cavalli")
    publish_round(pair_next_round(cavalli, by=None, now=timezone.now()), now=timezone.now())
    page = client.get(f"/t/{cavalli.slug}/rounds/1/").content.decode()
    assert "Player A has white in game 1 and black in game 2." in page
    assert "dwarfs" not in page and "trolls" not in page
    it = client.get(f"/t/{cavalli.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Il giocatore A ha il bianco nella battaglia 1 e il nero nella battaglia 2." in it


def test_the_compact_standings_keep_rank_name_points_and_the_first_tiebreak(client):
    """Every other column is marked ``extra`` (hidden by the compact view); which
    tiebreak stays follows the tournament's own order."""
    t = started()

    def kept_headers() -> list[str]:
        body = client.get(f"/t/{t.slug}/standings/", **HTMX).content.decode()
        head = body[body.index("<thead>") : body.index("</thead>")]
        return [
            re.sub(r"<[^>]+>", "", cell).strip()
            for attrs, cell in re.findall(r"<th([^>]*)>(.*?)</th>", head, flags=re.S)
            if "extra" not in attrs
        ]

    assert kept_headers() == ["#", "Name", "Match points", "Differential"]
    order = ["match_points", "buchholz", "differential", "sonneborn_berger", "battles_won", "seed"]
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=order)
    bump_state_version(t.pk)  # as the settings' writers do: a new version of the pages
    assert kept_headers() == ["#", "Name", "Match points", "Buchholz"]
