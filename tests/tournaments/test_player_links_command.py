"""manage.py player_links SLUG: CSV name,url of every entry's personal link."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_player_links_prints_every_entry_with_its_personal_link(client):
    t = TournamentFactory()
    a = EntryFactory(tournament=t, seed=1, player=PlayerFactory(name="Agnes Nitt"))
    b = EntryFactory(tournament=t, seed=2, player=PlayerFactory(name="=cmd|evil"))
    EntryFactory(player=PlayerFactory(name="Someone Elsewhere"))  # another tournament
    out = io.StringIO()
    call_command("player_links", t.slug, stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [
        ["name", "url"],
        ["Agnes Nitt", f"/p/{a.personal_token}/"],
        ["'=cmd|evil", f"/p/{b.personal_token}/"],  # a formula is defused for spreadsheets
    ]
    for _, url in rows[1:]:
        assert client.get(url).status_code == 200


def test_player_links_of_an_unknown_tournament_fails_with_a_message():
    with pytest.raises(CommandError, match="No tournament with slug 'nope'"):
        call_command("player_links", "nope", stdout=io.StringIO())
