"""manage.py import_tournament FILE [--slug NEW]: recreate a tournament from its archive
(``-`` reads standard input). A refusal names the problem on one line of standard error,
exits non-zero and writes nothing. The tournament has no owner and is unrated unless
``--rated`` (whoever runs the command administers the site) keeps the archive's rated
setting. An archive of a tournament the site already holds is imported as an unrated
copy, and the command says so (``tournaments.archive.copies``)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.archive.validation import ArchiveError, read_archive
from tournaments.archive.writer import import_archive


class Command(BaseCommand):
    help = "Recreate a tournament from an archive written by export_tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the archive file, or - for standard input")
        parser.add_argument("--slug", default="", help="import under this address instead")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="keep the archive's rated setting (imported tournaments are unrated otherwise)",
        )

    def handle(self, *args, **options) -> None:
        try:
            if options["file"] == "-":
                data = sys.stdin.buffer.read()
            else:
                data = Path(options["file"]).read_bytes()
        except OSError as e:
            raise CommandError(f"cannot read {options['file']}: {e.strerror}") from None
        try:
            tournament = import_archive(
                read_archive(data),
                slug=options["slug"],
                rated=options["rated"],
                now=timezone.now(),
            )
        except ArchiveError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"Imported {tournament.name} as /t/{tournament.slug}/")
        if tournament.copy_of is not None:
            self.stdout.write(
                _(
                    "This tournament is already on this site as “%(name)s”: imported as an "
                    "unrated copy, not counted in ratings or statistics."
                )
                % {"name": tournament.copy_of.name}
            )
