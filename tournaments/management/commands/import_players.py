"""manage.py import_players SLUG FILE.csv — columns name,club,country,rating.

Bad input (an unknown slug, an unreadable or oversized file, a bad row) ends with a
one-line message on stderr and a non-zero exit (``CommandError``), never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from tournaments.models.tournament import Tournament
from tournaments.organising.csv_rows import (
    MAX_FILE_BYTES,
    MAX_ROWS,
    CsvImportError,
    parse_players,
    read_bounded,
)
from tournaments.organising.imports import import_players


def get_tournament(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"No tournament with slug {slug!r}.") from None


def read_text(path: str) -> str:
    """The file's text, read no further than the import size cap."""
    try:
        with open(path, "rb") as stream:
            return read_bounded(stream)
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc}") from None
    except CsvImportError as exc:
        raise CommandError(f"{path}: {exc}") from None


def run_import(path: str, work: Callable[[str], int]) -> int:
    """``work(text)`` on the file's text; every expected failure becomes a CommandError."""
    text = read_text(path)
    try:
        return work(text)
    except CsvImportError as exc:
        raise CommandError(f"{path}: {exc}") from None
    except DatabaseError as exc:  # validated rows should never get here; say so plainly
        raise CommandError(f"{path}: the database refused the import: {exc}") from None


class Command(BaseCommand):
    help = (
        "Enter the players of a CSV file (header: name,club,country,rating) in a tournament. "
        f"At most {MAX_FILE_BYTES:,} bytes and {MAX_ROWS:,} rows per file."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        count = run_import(
            options["file"], lambda text: len(import_players(tournament, parse_players(text)))
        )
        self.stdout.write(f"Imported {count} players into {tournament.slug!r}.")
