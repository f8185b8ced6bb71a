"""manage.py import_results SLUG FILE.csv — columns round,table and the four numbers
(named by the tournament's game: README "CSV formats").

Battle 1 has player A on the first side. Every row is validated before anything is written;
bad input ends with a message on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from tournaments.management.commands.import_players import get_tournament, run_import
from tournaments.organising.csv_rows import MAX_FILE_BYTES, MAX_ROWS, parse_results
from tournaments.organising.imports import import_results


class Command(BaseCommand):
    help = (
        "Record final match results from a CSV file (both battles' numbers). "
        f"At most {MAX_FILE_BYTES:,} bytes and {MAX_ROWS:,} rows per file."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        count = run_import(
            options["file"],
            lambda text: import_results(
                tournament, parse_results(text, game=tournament.game), now=timezone.now()
            ),
        )
        self.stdout.write(f"Recorded {count} results in {tournament.slug!r}.")
