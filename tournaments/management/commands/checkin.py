"""manage.py checkin SLUG NAME [NAME …] [--absent] [--round N] (stable interface).

Checks the named players in; ``--absent`` checks them out (absent, before round 1 is
paired) or, with ``--round N``, marks them not playing round N (``--round N`` alone
makes them play round N again). Names match case-insensitively. An unknown (or
ambiguous) name prints one line each, exits non-zero and changes nothing.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.management.commands.import_players import get_tournament
from tournaments.organising.checkin import CheckInError, apply_by_names


class Command(BaseCommand):
    help = "Check players in, mark them absent, or mark them not playing a round."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("names", nargs="+", metavar="NAME")
        parser.add_argument(
            "--absent",
            action="store_true",
            help="check them out (before round 1), or with --round N: not playing round N",
        )
        parser.add_argument("--round", type=int, dest="round_number", metavar="N")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        try:
            entries = apply_by_names(
                tournament,
                options["names"],
                absent=options["absent"],
                round_number=options["round_number"],
                now=timezone.now(),
            )
        except CheckInError as exc:
            raise CommandError(str(exc)) from None
        n = options["round_number"]
        for e in entries:
            if n is not None:
                state = f"not playing round {n}" if options["absent"] else f"playing round {n}"
            else:
                state = "absent" if options["absent"] else "checked in"
            self.stdout.write(f"{e.player.name}: {state}")
