from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tournaments.models.people import Player
from tournaments.models.tournament import Entry
from tournaments.organising.csv_rows import (
    MAX_FILE_BYTES,
    MAX_ROWS,
    CsvImportError,
    parse_players,
    parse_results,
)
from tournaments.organising.imports import import_players

HEADER = "name,club,country,rating\n"
RESULTS_HEADER = "round,table,battle1_dwarfs,battle1_trolls,battle2_dwarfs,battle2_trolls\n"


def refused(text: str, parse=parse_players) -> str:
    with pytest.raises(CsvImportError) as info:
        parse(text)
    return str(info.value)


# ---------------------------------------------------------------- strict parsing


def test_an_unbalanced_quote_is_an_error_on_its_line_not_a_player():
    text = HEADER + "Vimes,Watch,AM,1500\n" + '"Lord Vetinari,Palace,GB,2000\n'
    assert refused(text) == (
        "Line 3: a quote opened here is never closed (it runs to the end of the file)"
    )


def test_an_unbalanced_quote_names_the_line_where_the_field_starts():
    text = HEADER + '"Lord Vetinari,Palace,GB,2000\nVimes,Watch,AM,1500\nAngua,Watch,DE,\n'
    assert refused(text).startswith("Line 2: a quote opened here is never closed")


def test_text_after_a_closing_quote_is_an_error():
    assert refused(HEADER + '"Lord" Vetinari,Palace,GB,2000\n').startswith("Line 2: malformed CSV")


@pytest.mark.parametrize("row", ["Vimes,Watch,AM\n", "Vimes, Sam,Watch,AM,1500\n"])
def test_a_row_must_have_as_many_cells_as_the_header(row):
    assert "cells where the header has 4" in refused(HEADER + row)
    (quoted,) = parse_players(HEADER + '"Vimes, Sam",Watch,AM,1500\n')
    assert (quoted.name, quoted.club, quoted.rating) == ("Vimes, Sam", "Watch", 1500)


# ---------------------------------------------------------------- bounds


def test_a_file_over_the_size_cap_is_refused_and_says_the_limits():
    text = HEADER + "x" * MAX_FILE_BYTES
    message = refused(text)
    assert "too large" in message and "2,000,000 bytes" in message and "5,000 rows" in message


def test_the_row_cap_stops_at_the_first_row_too_many():
    rows = "".join(f"P{i},,,\n" for i in range(MAX_ROWS + 1))
    message = refused(HEADER + rows)
    assert message.startswith(f"Line {MAX_ROWS + 2}: too many rows")
    assert "5,000 rows" in message
    assert len(parse_players(HEADER + rows.rsplit("P", 1)[0])) == MAX_ROWS


def test_the_row_cap_holds_for_results_too():
    rows = "".join(f"1,{i + 1},1,1,1,1\n" for i in range(MAX_ROWS + 1))
    assert refused(RESULTS_HEADER + rows, lambda text: parse_results(text, game="thud")).startswith(
        f"Line {MAX_ROWS + 2}: too many rows"
    )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("x" * 5000 + ",W,AM,\n", "Line 2: name is longer than 120 characters"),
        ("Vimes," + "c" * 121 + ",AM,\n", "Line 2: club is longer than 120 characters"),
        ("Vimes,W," + "c" * 65 + ",\n", "Line 2: country is longer than 64 characters"),
        ("Vi\x00mes,W,AM,\n", "Line 2: name contains a control character (U+0000)"),
        ("Vimes,W\x07,AM,\n", "Line 2: club contains a control character (U+0007)"),
        ('"Vi\nmes",W,AM,\n', "Line 2: name contains a control character (U+000A)"),
        ("Vimes,W,A\tM,\n", "Line 2: country contains a control character (U+0009)"),
    ],
)
def test_text_fields_are_checked_against_the_model(row, message):
    assert refused(HEADER + row) == message


def test_a_name_may_have_120_characters_not_121():
    (row,) = parse_players(HEADER + "x" * 120 + ",W,AM,\n")
    assert len(row.name) == 120
    assert refused(HEADER + "x" * 121 + ",W,AM,\n").startswith("Line 2: name is longer")


@pytest.mark.parametrize("rating", ["1" + "0" * 30, "4001", "-1", "9" * 5000])
def test_a_rating_outside_0_to_4000_is_refused(rating):
    assert refused(HEADER + f"Vimes,W,AM,{rating}\n").startswith(
        "Line 2: rating must be between 0 and 4000"
    )


@pytest.mark.parametrize("rating", ["1_500", "١٥٠٠", "15.0", "1e3"])
def test_a_rating_is_plain_ascii_digits(rating):
    assert refused(HEADER + f"Vimes,W,AM,{rating}\n").startswith(
        "Line 2: rating must be a whole number"
    )


# ---------------------------------------------------------------- writing


@pytest.mark.django_db
def test_import_players_writes_in_bulk_whatever_the_number_of_rows():
    def queries(n: int) -> int:
        t = TournamentFactory()
        rows = parse_players(HEADER + "".join(f"Q{n}-{i},W,AM,1500\n" for i in range(n)))
        with CaptureQueriesContext(connection) as ctx:
            import_players(t, rows)
        assert t.entries.count() == n
        return len(ctx.captured_queries)

    assert queries(3) == queries(30)


@pytest.mark.django_db
def test_import_reuses_only_players_its_own_organiser_entered_before():
    organiser = UserFactory()
    own = EntryFactory(tournament__owner=organiser, player__name="Vimes", player__club="Watch")
    theirs = EntryFactory(player__name="Angua", player__club="Watch")
    t = TournamentFactory(owner=organiser)
    rows = parse_players(HEADER + "Vimes,Watch,AM,\nAngua,Watch,DE,\n")
    vimes, angua = import_players(t, rows)
    assert vimes.player_id == own.player_id
    assert angua.player_id != theirs.player_id
    assert Player.objects.filter(name="Angua", club="Watch").count() == 2
    assert list(theirs.player.entries.all()) == [theirs]


@pytest.mark.django_db
def test_import_creates_a_new_player_when_the_organisers_own_namesakes_are_ambiguous():
    organiser = UserFactory()
    for _ in range(2):
        EntryFactory(tournament__owner=organiser, player__name="Vimes", player__club="Watch")
    t = TournamentFactory(owner=organiser)
    import_players(t, parse_players(HEADER + "Vimes,Watch,AM,1500\n"))
    assert Player.objects.filter(name="Vimes").count() == 3
    assert Entry.objects.filter(player__name="Vimes").count() == 3


# ---------------------------------------------------------------- countries (issue 42)


def test_a_country_is_read_from_a_code_or_a_name_in_english_italian_or_norwegian():
    text = HEADER + "A,,IT,\nB,,Italy,\nC,,Italia,\nD,,Norge,\nE,,nor,\nF,,UK,\nG,,,\n"
    assert [r.country for r in parse_players(text)] == ["IT", "IT", "IT", "NO", "NO", "GB", ""]


@pytest.mark.django_db
def test_an_unknown_country_is_refused_naming_its_line_and_nothing_is_entered():
    t = TournamentFactory()
    text = HEADER + "Vimes,Watch,GB,\nAngua,Watch,Uberwald,\n"
    with pytest.raises(CsvImportError) as info:
        import_players(t, parse_players(text))
    assert str(info.value) == (
        "Line 3: Uberwald is not a country we know: give its name or its ISO code, e.g. IT or NO"
    )
    assert not Entry.objects.filter(tournament=t).exists()
