"""manage.py export_standings SLUG --format csv|json (stable columns, README).

CSV cells that a spreadsheet would run as a formula are neutralised (``csv_safe``).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from tournaments import csv_safe
from tournaments.rounds import STANDINGS_FIELDS, load_standings, standings_json

from .import_players import get_tournament


class Command(BaseCommand):
    help = "Print the current standings as CSV or JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")

    def handle(self, *args, **options) -> None:
        rows = standings_json(load_standings(get_tournament(options["slug"])))
        if options["format"] == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        writer = csv_safe.DictWriter(self.stdout, fieldnames=STANDINGS_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
