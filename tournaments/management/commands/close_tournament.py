"""manage.py close_tournament SLUG — finish the last round and close the tournament, as the
organiser's button does (its results are rated if the tournament is)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.management.commands.import_players import get_tournament
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import close_tournament


class Command(BaseCommand):
    help = "Finish the last round of a tournament and close it (as the organiser's button)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        try:
            close_tournament(tournament, now=timezone.now())
        except RoundError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Closed {tournament.slug!r}.")
