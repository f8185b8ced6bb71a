"""A player's country: read from a code or a name (``tournaments.models.countries``), and
migration 0021 turning the free text stored before into codes (issue 42)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from tournaments.models.countries import (
    UnknownCountryError,
    code_or_kept,
    country_code,
    country_name,
)

BEFORE = [("tournaments", "0020_tournament_copy_of")]
AFTER = [("tournaments", "0022_player_country_field")]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("IT", "IT"),
        ("it", "IT"),
        ("ITA", "IT"),
        ("Italy", "IT"),
        ("Italia", "IT"),
        ("  italia ", "IT"),
        ("NO", "NO"),
        ("NOR", "NO"),
        ("Norway", "NO"),
        ("Norge", "NO"),
        ("Norvegia", "NO"),
        ("UK", "GB"),
        ("England", "GB"),
        ("Scotland", "GB"),
        ("United Kingdom", "GB"),
        ("Storbritannia", "GB"),
        ("Regno Unito", "GB"),
        ("Tyskland", "DE"),
        ("Germania", "DE"),
        ("Sveits", "CH"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_a_code_or_a_name_in_english_italian_or_norwegian_is_read_as_its_code(text, code):
    assert country_code(text) == code


@pytest.mark.parametrize("text", ["Ankh-Morpork", "UB", "XYZ", "Überwald", "I T"])
def test_a_text_that_names_no_country_is_refused_with_what_is_accepted(text):
    with pytest.raises(UnknownCountryError) as info:
        country_code(text)
    assert str(info.value) == (
        f"{text} is not a country we know: give its name or its ISO code, e.g. IT or NO"
    )


def test_a_text_kept_rather_than_lost_when_it_names_no_country():
    assert code_or_kept("Italia") == ("IT", "")
    assert code_or_kept(" Ankh-Morpork ") == ("", "Ankh-Morpork")


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Norway"), ("it", "Norvegia"), ("nb", "Norge")]
)
def test_a_code_is_shown_by_name_in_the_readers_language(language, name):
    with translation.override(language):
        assert country_name("NO") == name
        assert country_name("") == ""


# ---------------------------------------------------------------- migration 0021


@pytest.mark.django_db(transaction=True)
def test_migration_turns_free_text_into_codes_and_keeps_what_it_cannot_read(capsys):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Player = executor.loader.project_state(BEFORE).apps.get_model("tournaments", "Player")
    texts = {
        "a": "Italy",
        "b": "Italia",
        "c": "IT",
        "d": "ita",
        "e": "Norge",
        "f": "NO",
        "g": "UK",
        "h": "England",
        "i": "",
        "j": "Ankh-Morpork",
        "k": "  Norway ",
    }
    for name, country in texts.items():
        Player.objects.create(name=name, country=country)

    executor = MigrationExecutor(connection)  # a fresh graph, as ``migrate`` would load
    executor.migrate(AFTER)
    Player = executor.loader.project_state(AFTER).apps.get_model("tournaments", "Player")
    stored = {p.name: (p.country, p.country_as_typed) for p in Player.objects.all()}
    assert stored == {
        "a": ("IT", ""),
        "b": ("IT", ""),
        "c": ("IT", ""),
        "d": ("IT", ""),
        "e": ("NO", ""),
        "f": ("NO", ""),
        "g": ("GB", ""),
        "h": ("GB", ""),
        "i": ("", ""),
        "j": ("", "Ankh-Morpork"),
        "k": ("NO", ""),
    }
    # The text kept is named in the migration's output.
    out = capsys.readouterr().out
    assert "(j): country 'Ankh-Morpork' names no country; kept in country_as_typed" in out
    assert "(a)" not in out

    # Backwards: the kept text comes back into the country, codes stay codes.
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Player = executor.loader.project_state(BEFORE).apps.get_model("tournaments", "Player")
    back = dict(Player.objects.values_list("name", "country"))
    assert back["j"] == "Ankh-Morpork" and back["a"] == "IT"

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
