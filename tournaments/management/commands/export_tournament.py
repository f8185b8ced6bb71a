"""manage.py export_tournament SLUG [--output FILE]: the tournament archive (README, "Run
the event on a laptop, publish it afterwards"), to stdout unless told a file."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.archive.document import build_document, dumps
from tournaments.management.commands.import_players import get_tournament


class Command(BaseCommand):
    help = "Write a tournament as one archive file (JSON) another installation can import."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", help="the file to write (default: standard output)")

    def handle(self, *args, **options) -> None:
        text = dumps(build_document(get_tournament(options["slug"]), now=timezone.now()))
        if not options["output"]:
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["output"]).write_text(text, encoding="utf-8")
        except OSError as e:
            raise CommandError(f"cannot write {options['output']}: {e.strerror}") from None
