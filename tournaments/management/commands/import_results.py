"""manage.py import_results SLUG FILE.csv — columns round,table,battle1_dwarfs,...

Battle 1 has player A on the dwarfs. Every row is validated before anything is written.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.imports import CsvImportError, import_results, parse_results

from .import_players import get_tournament, read_text


class Command(BaseCommand):
    help = "Record final match results from a CSV file (survivors of both battles)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        try:
            count = import_results(tournament, parse_results(read_text(options["file"])))
        except CsvImportError as exc:
            raise CommandError(f"{options['file']}: {exc}") from None
        self.stdout.write(f"Recorded {count} results in {tournament.slug!r}.")
