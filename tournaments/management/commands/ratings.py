"""manage.py ratings --recompute [--game G] — recompute the site ratings from the start.

The stored ratings are the fold of every rated result in order (``tournaments.rating``); a
recompute gives exactly the numbers the incremental updates gave, so it is safe any time.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.models.ratings import SiteRating
from tournaments.rating.update import recompute
from tournaments.rules.scales import registered


class Command(BaseCommand):
    help = "Recompute the players' site ratings from every rated result, one game or all."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--recompute", action="store_true", help="recompute from the first rated result"
        )
        parser.add_argument("--game", help="only this game (default: every game)")

    def handle(self, *args, **options) -> None:
        games = list(registered())
        game = options["game"]
        if game is not None and game not in games:
            raise CommandError(f"Unknown game {game!r}; choose one of: {', '.join(games)}.")
        if not options["recompute"]:
            raise CommandError("Nothing to do: pass --recompute (and optionally --game).")
        for key in [game] if game else games:
            recompute(key, now=timezone.now())
            count = SiteRating.objects.filter(game=key).count()
            self.stdout.write(f"{key}: {count} rated players.")
