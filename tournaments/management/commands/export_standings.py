"""manage.py export_standings SLUG --format csv|json (stable columns, README).

The CSV is ``tournaments.reports.exports.write_standings_csv``, the same as ``/t/SLUG/standings.csv``.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from tournaments.management.commands.import_players import get_tournament
from tournaments.reports.exports import write_standings_csv
from tournaments.rounds.reads import load_standings, standings_json


class Command(BaseCommand):
    help = "Print the current standings as CSV or JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        if options["format"] == "json":
            rows = standings_json(load_standings(tournament))
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        # OutputWrapper is a text stream; django-stubs types it as TextIOBase, not TextIO.
        write_standings_csv(self.stdout, tournament, lineterminator="\n")  # type: ignore[arg-type]
