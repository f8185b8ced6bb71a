"""The archive's promise, end to end: a finished event travels from PostgreSQL to SQLite and
back and every page, file and API answer of it reads the same (ids aside).

The event (``event.build_event``): a timed Swiss of 5 rounds with corrections, an
organiser's decision, a withdrawal, an absence, a top 4 cut with a playoff, and battles
played online with their moves. The SQLite installation runs in subprocesses
(``manage.py migrate``, ``import_tournament``, ``export_tournament`` and ``dump``), as on
the laptop at the venue; it has none of the users.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.archive.dump import dump
from tests.tournaments.archive.event import build_event
from tournaments.models.tournament import Tournament

ROOT = Path(__file__).resolve().parents[3]
#: The notice on a copy's pages (``_copy_notice.html``), whitespace collapsed by ``dump``.
COPY_NOTICE = re.compile(r' ?<div class="warnings copy-notice" role="note">.*?</div>')
DUMP = "import django; django.setup(); from tests.tournaments.archive.dump import main; main()"

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def laptop(tmp_path: Path, *args: str) -> str:
    """``manage.py`` (or ``-c DUMP``) on the laptop's SQLite installation."""
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'laptop.sqlite3'}",
        # Its own cache keys: a PDF cached by the other installation must not be served.
        "THUD_CACHE_PREFIX": f"laptop-{tmp_path.name}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
    }
    command = [sys.executable, *args] if args[0] == "-c" else [sys.executable, "manage.py", *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_finished_event_reads_the_same_after_postgresql_to_sqlite_and_back(tmp_path):
    event = build_event(10)
    original = dump(event.t.slug)
    archive = tmp_path / "archive-open.json"
    call_command("export_tournament", event.t.slug, "--output", str(archive))

    laptop(tmp_path, "migrate", "--verbosity", "0")
    # Whoever runs the command administers that site: the event stays rated (--rated).
    assert "Imported Archive Open" in laptop(tmp_path, "import_tournament", str(archive), "--rated")
    on_laptop = json.loads(laptop(tmp_path, "-c", DUMP, "archive-open"))
    back = tmp_path / "back.json"
    laptop(tmp_path, "export_tournament", "archive-open", "--output", str(back))
    # The laptop knows none of the users: the histories name them all the same.
    assert {row[7] for row in on_laptop["versions"]} >= {"arc-ref1", "arc-org"}

    said = io.StringIO()
    call_command(
        "import_tournament", str(back), "--slug", "archive-open-back", "--rated", stdout=said
    )
    # Back home the site holds it already: the file is imported as an unrated copy, even
    # with --rated (tests/tournaments/archive/test_copies.py).
    assert "already on this site as “Archive Open”" in said.getvalue()
    copy = Tournament.objects.get(slug="archive-open-back")
    assert copy.copy_of_id == event.t.pk and not copy.rated
    returned = dump("archive-open-back")

    for name in original:
        assert on_laptop[name] == original[name], name
    # The copy counts in no statistic: the site's read as before it came. Its players are
    # new players (an archive links nobody to an account), with no statistics of their own.
    assert returned["site_stats"] == original["site_stats"]
    assert all(s["battles"] == 0 for s in returned["player_stats"])
    # Its pages say it is a copy and read the same otherwise; so does the rest, the rated
    # flag aside.
    pages = {name for name in original if name.endswith("_page")}
    for name in pages:
        assert "is a copy of" in returned[name], name
        assert COPY_NOTICE.sub("", returned[name]) == original[name], name
    assert returned["tournament_row"] == original["tournament_row"] | {"rated": "False"}
    for name in set(original) - {"player_stats", "tournament_row"} - pages:
        assert returned[name] == original[name], name
    # What was compared says something: the battles' moves, the names on every page.
    assert len(original["battle"]) == 2 and all(b["moves"] for b in original["battle"])
    renamed = "Player Æ6 (renamed)"
    assert all(renamed in str(original[name]) for name in ("crosstable_page", "standings_pdf"))
    assert any(renamed in line for line in original["report_pdf"])
    assert "Slip misread" in str(original["versions"]) and original["entry_changes"]
    # The same file a second time is refused, and nothing is written.
    count = Tournament.objects.count()
    with pytest.raises(CommandError, match="exists here already"):
        call_command("import_tournament", str(back), "--slug", "archive-open-back")
    assert Tournament.objects.count() == count
