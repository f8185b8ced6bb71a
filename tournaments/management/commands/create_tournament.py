"""manage.py create_tournament --name N --slug S --format F --rounds R [--check-in] [--unrated] [...]
(stable, DESIGN §8)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.models.tournament import Tournament

VARIANT_ALIASES = {"timed": Tournament.Variant.TIMED_24}


class Command(BaseCommand):
    help = "Create a tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--format", required=True, choices=Tournament.Format.values)
        parser.add_argument("--rounds", required=True, type=int)
        parser.add_argument(
            "--variant",
            default=Tournament.Variant.CLASSIC,
            choices=[*Tournament.Variant.values, *VARIANT_ALIASES],
        )
        parser.add_argument(
            "--policy",
            default=Tournament.CapturePolicy.SUBSET,
            choices=Tournament.CapturePolicy.values,
        )
        parser.add_argument("--owner", help="username of the organiser")
        # Off unless asked: scripts that import players and pair at once keep working.
        parser.add_argument(
            "--check-in",
            action="store_true",
            dest="check_in",
            help="only players who checked in are paired (manage.py checkin, the desk page)",
        )
        parser.add_argument(
            "--unrated",
            action="store_true",
            help="the results do not count for the players' site ratings (rated by default)",
        )

    def handle(self, *args, **options) -> None:
        if options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1.")
        if Tournament.objects.filter(slug=options["slug"]).exists():
            raise CommandError(f"A tournament with slug {options['slug']!r} already exists.")
        owner = None
        if options["owner"]:
            try:
                owner = get_user_model().objects.get(username=options["owner"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"No user named {options['owner']!r}.") from None
        tournament = Tournament.objects.create(
            name=options["name"],
            slug=options["slug"],
            format=options["format"],
            rounds=options["rounds"],
            variant=VARIANT_ALIASES.get(options["variant"], options["variant"]),
            capture_policy=options["policy"],
            owner=owner,
            check_in_required=options["check_in"],
            rated=not options["unrated"],
        )
        self.stdout.write(f"Created tournament {tournament.slug!r} ({tournament.name}).")
