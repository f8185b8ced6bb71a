"""Countries in the tournament archive (issue 42): an export writes each player's ISO code
and an import reads it back; a file from before codes, with names or free text, still
imports: a name becomes its code, other text is kept as typed (as migration 0021 keeps it)."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.archive.document import build_document, dumps
from tournaments.archive.validation import read_archive
from tournaments.archive.writer import import_archive
from tournaments.models.people import Player

pytestmark = pytest.mark.django_db

COUNTRIES = ["IT", "NO", "", "GB"]


def exported() -> dict:
    t = tournament_with_players(4)
    players = [e.player for e in t.entries.order_by("seed")]
    for player, country in zip(players, COUNTRIES, strict=True):
        player.country = country
        player.save()
    # A text from before codes that named no country (kept by migration 0021).
    Player.objects.filter(pk=players[2].pk).update(country_as_typed="Ankh-Morpork")
    return json.loads(dumps(build_document(t, now=timezone.now())))


def imported(document: dict, slug: str) -> list[tuple[str, str]]:
    t = import_archive(read_archive(json.dumps(document)), slug=slug, now=timezone.now())
    return [(e.player.country.code, e.player.country_as_typed) for e in t.entries.order_by("seed")]


def test_an_export_writes_codes_and_an_import_reads_the_same_codes():
    document = exported()
    assert [e["player"]["country"] for e in document["entries"]] == [
        "IT",
        "NO",
        "Ankh-Morpork",
        "GB",
    ]
    assert imported(document, "copy") == [("IT", ""), ("NO", ""), ("", "Ankh-Morpork"), ("GB", "")]


def test_an_old_archive_with_country_names_imports_them_as_codes():
    document = exported()
    old_texts = ["Italy", "Norge", "Überwald", "england"]
    for entry, old in zip(document["entries"], old_texts, strict=True):
        entry["player"]["country"] = old
    assert imported(document, "old") == [("IT", ""), ("NO", ""), ("", "Überwald"), ("GB", "")]
