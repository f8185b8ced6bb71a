"""manage.py import_players SLUG FILE.csv — columns name,club,country,rating."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.imports import CsvImportError, import_players, parse_players
from tournaments.models import Tournament


def get_tournament(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"No tournament with slug {slug!r}.") from None


def read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"Cannot read {path}: {exc}") from None


class Command(BaseCommand):
    help = "Enter the players of a CSV file (header: name,club,country,rating) in a tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        try:
            entries = import_players(tournament, parse_players(read_text(options["file"])))
        except CsvImportError as exc:
            raise CommandError(f"{options['file']}: {exc}") from None
        self.stdout.write(f"Imported {len(entries)} players into {tournament.slug!r}.")
