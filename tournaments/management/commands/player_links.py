"""manage.py player_links SLUG: every entry's personal link as CSV ``name,url`` (README).

The URL is the link's path (``/p/<token>/``): prefix it with the site's address. The links
are secrets; whoever runs this hands each player their own.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments.management.commands.import_players import get_tournament
from tournaments.organising.personal_links import personal_links
from tournaments.reports import csv_safe


class Command(BaseCommand):
    help = "Print the personal link of every player of a tournament as CSV (name,url)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])  # CommandError: exit 1 with a message
        out = csv_safe.writer(self.stdout, lineterminator="\n")
        out.writerow(["name", "url"])
        for entry, path in personal_links(tournament):
            out.writerow([entry.player.name, path])
