"""Whether an archive holds a tournament this site already has: then it is imported as a copy.

Terminology and invariants:
- An archive's identity (``identity.fingerprint``, re-derived from its content, never read
  from the file) is compared with each tournament's here in two ways: the *stored* identity
  of an imported tournament (``Tournament.fingerprint``: its file's, so one renamed or
  corrected here since is still recognised), and the *live* identity of a tournament's
  content now (``document.content_document``). The live one is computed only for the
  tournaments that could match at all: the same game, dates and name (in either normal
  form), all part of the identity. So a tournament made here and never exported is
  recognised when its archive comes back, under any address; nothing is filled in ahead.
- The **original** is the oldest matching tournament that is not itself a copy; ``copy_of``
  always names an original (a copy of a copy is a copy of its original).
- A **copy** is written unrated (``Tournament.copy_never_rated``) and counted in no rating
  (``rating.sources``) and no site statistic (``Match.objects.sitewide``); its own pages
  show its own results, with a notice naming the original.
- Two imports of one identity at once: ``lock_identity`` holds a PostgreSQL advisory lock
  until the writer's transaction ends, so the second one finds the first (SQLite: one
  writer at a time anyway).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from django.db import connection

from tournaments.archive.document import content_document
from tournaments.archive.identity import fingerprint
from tournaments.models.tournament import Tournament


def identity_of(tournament: Tournament) -> str:
    """The identity of ``tournament``'s content now."""
    return fingerprint(content_document(tournament))


def original_of(document: Mapping[str, Any], identity: str) -> Tournament | None:
    """The tournament here that ``document`` (whose identity is ``identity``) is a copy
    of, or ``None`` when this site does not hold it."""
    part = document["tournament"]
    found = list(Tournament.objects.filter(fingerprint=identity))
    name = part["name"]
    candidates = Tournament.objects.filter(
        copy_of__isnull=True,
        game=part["game"],
        start_date=part["start_date"],
        end_date=part["end_date"],
        # The identity holds the name in normal form C: stored in either form, it may match.
        name__in={name, unicodedata.normalize("NFC", name), unicodedata.normalize("NFD", name)},
    ).exclude(fingerprint=identity)
    found += [t for t in candidates if identity_of(t) == identity]
    originals = {t.copy_of_id or t.pk for t in found}
    if not originals:
        return None
    return Tournament.objects.get(pk=min(originals))


def lock_identity(identity: str) -> None:
    """Serialise the imports of one identity until the transaction ends (PostgreSQL)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"archive:{identity}"])
