"""Applying a result submission exactly once, by its idempotency key.

Terminology and invariants:
- A *submission key* is a random string a result form carries (``new_key`` when the page
  renders the form, or the page's script when it keeps a submission on the device to send
  when the network returns). No key (a form from before keys, a script-less client) means
  the write runs as it always did.
- The key's row (``SubmissionKey``) is inserted **before** the write, in the same
  transaction, and points at the version the write made. Its unique index makes a second
  transaction with the same key wait for the first: if the first commits, the second finds
  the row and returns the same version; if it rolls back (the write was refused), the key
  was never used and the second runs the write itself. So retries, double taps and two tabs
  replaying one queued entry make one version.
- A key belongs to one person, one match and one kind of write; the same key from a
  different person, for a different match or for the other kind is refused
  (``SubmissionKeyError``), and nothing is written.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion, SubmissionKey
from tournaments.models.rounds import Match
from tournaments.results.writing import ResultError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: What a key may look like: a UUID (the page's ``crypto.randomUUID()``) or any other
#: 16 to 64 letters, digits and hyphens.
KEY_PATTERN = re.compile(r"^[A-Za-z0-9-]{16,64}$")


class SubmissionKeyError(ResultError):
    """The key was already used by someone else, for another match or another kind."""


def new_key() -> str:
    """A fresh key for a form about to be rendered."""
    return str(uuid.uuid4())


def apply_once(
    key: str | None,
    *,
    by: User,
    match: Match,
    kind: str,
    write: Callable[[], ResultVersion],
) -> ResultVersion:
    """Run ``write`` unless ``key`` was applied before; either way return its version."""
    return apply_once_telling(key, by=by, match=match, kind=kind, write=write)[0]


def apply_once_telling(
    key: str | None,
    *,
    by: User,
    match: Match,
    kind: str,
    write: Callable[[], ResultVersion],
) -> tuple[ResultVersion, bool]:
    """``apply_once``, and whether this call applied it (False: the key had been applied
    before, and the version is the one that earlier submission made, whatever this one
    carries: the page then says so, with the numbers stored)."""
    if not key:
        return write(), True
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = SubmissionKey.objects.create(
                    key=key, user=by, match_id=match.pk, kind=kind
                )
        except IntegrityError:
            # Inserted by a transaction that has committed (the index made us wait for it).
            return _earlier(key, by=by, match=match, kind=kind), False
        version = write()
        record.version = version
        record.save(update_fields=["version"])
        return version, True


def _earlier(key: str, *, by: User, match: Match, kind: str) -> ResultVersion:
    record = SubmissionKey.objects.select_related("version").get(key=key)
    if record.user_id != by.pk or record.match_id != match.pk or record.kind != kind:
        raise SubmissionKeyError(
            _(
                "This submission's key was already used for a different submission; "
                "reload the page and enter it again."
            )
        )
    assert record.version is not None  # set in the transaction that inserted the row
    return record.version
