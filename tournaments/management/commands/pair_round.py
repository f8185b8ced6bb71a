"""manage.py pair_round SLUG — pair and publish the next round, then print it."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from tournaments.management.commands.import_players import get_tournament
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.locks import RoundError
from tournaments.rounds.play import publish_round


class Command(BaseCommand):
    help = "Pair and publish the next round of a tournament and print the pairings."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **options) -> None:
        tournament = get_tournament(options["slug"])
        try:
            with transaction.atomic():
                round_ = publish_round(
                    pair_next_round(tournament, by=None, now=timezone.now()), now=timezone.now()
                )
        except RoundError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Round {round_.number} of {tournament.slug!r}:")
        for m in round_.matches.select_related("player_a__player", "player_b__player"):
            b = m.player_b.player.name if m.player_b else "(bye)"
            self.stdout.write(f"{m.table:>4}  {m.player_a.player.name}  –  {b}")
