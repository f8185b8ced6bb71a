"""Recreating a tournament from a checked archive document, in one transaction.

Terminology and invariants:
- ``import_archive(document, slug=..., by=..., now=...)`` writes everything or nothing: any refusal
  (``ArchiveError``: the slug is taken, reserved or not a slug) or failure rolls the whole
  transaction back.
- An archive names no one here without their consent: the usernames in it are only
  names. ``by`` (whoever imports) owns the tournament (the command: nobody); nobody is
  appointed co-organiser or referee from the file; every player is a new player without
  an account (an account holder claims it through the player-claim flow, which an
  organiser approves); a result version's or an entry change's author is kept as a name
  (``entered_by_name``, ``confirmed_by_name``, ``changed_by_name``), so the histories read
  the same and nobody here is said to have entered what they did not.
- An imported tournament is unrated (it feeds no rating), whatever the file says, unless
  ``rated=True``: a site administrator's decision (``import_tournament --rated``, or
  "Mark rated" in the admin site). Its players are new players, so even then nobody's
  existing rating moves until they claim their entry.
- Times are written as the archive says, ``created_at`` and ``entered_at`` too (they are
  ``auto_now_add``: set after the insert, with ``bulk_update``, which leaves them alone).
- Personal-link tokens are new: they are secrets of the installation that drew them.
- A tournament this site already holds (``copies``: the archive's identity, re-derived from
  its content) is written as an unrated **copy** of the original (``copy_of``), whatever
  ``rated`` says: it counts in no rating and no site statistic. Its identity is stored
  (``Tournament.fingerprint``) for the imports to come.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.archive import sections
from tournaments.archive.copies import lock_identity, original_of
from tournaments.archive.document import LATER_SETTINGS, SETTINGS
from tournaments.archive.identity import fingerprint
from tournaments.archive.sections import ImportRefs, MatchKey, parse_time, time_of
from tournaments.archive.validation import ArchiveError
from tournaments.models.countries import code_or_kept
from tournaments.models.entries import EntryChange, ForbiddenPair, RoundAbsence
from tournaments.models.people import Player
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.rating.update import after_rounds_changed
from tournaments.rules.scales import FIELDS

#: Addresses a tournament may not take: ``/manage/t/new/`` is the new-tournament form.
RESERVED_SLUGS = frozenset({"new"})
MAX_SLUG = 80  # Tournament.slug's max_length


def import_archive(
    document: dict[str, Any],
    *,
    slug: str = "",
    by: User | None = None,
    rated: bool = False,
    now: datetime,
) -> Tournament:
    """The tournament of a document ``read_archive`` accepted, under ``slug`` if given,
    owned by ``by``. Unrated unless ``rated`` (a site administrator's choice) and the
    archive's own setting say so, and it is no copy (``copy_of``); then its finished
    rounds are rated at once."""
    slug = slug or document["tournament"]["slug"]
    try:
        validate_slug(slug)
        if len(slug) > MAX_SLUG:
            raise ValidationError("too long")
    except ValidationError:
        raise ArchiveError(
            _("%(slug)r is not a valid address: use letters, digits, - and _.") % {"slug": slug}
        ) from None
    if slug.lower() in RESERVED_SLUGS:
        raise ArchiveError(
            _("%(slug)r is reserved for a page of the site: import it under another address.")
            % {"slug": slug}
        )
    try:
        return _write(document, slug=slug, by=by, rated=rated, now=now)
    except IntegrityError as exc:
        # The checks should leave the database nothing to refuse; if it does, the
        # transaction is rolled back and the person importing is told, not a 500.
        raise ArchiveError(
            _("The archive could not be written, nothing was: %(error)s") % {"error": exc}
        ) from exc


def _write(
    document: dict[str, Any], *, slug: str, by: User | None, rated: bool, now: datetime
) -> Tournament:
    with transaction.atomic():
        if Tournament.objects.select_for_update().filter(slug=slug).exists():
            raise ArchiveError(
                _(
                    "A tournament with the address %(slug)s exists here already; import it under another address."
                )
                % {"slug": slug}
            )
        identity = fingerprint(document)
        lock_identity(identity)
        original = original_of(document, identity)
        t = write_tournament(
            document["tournament"],
            slug=slug,
            by=by,
            rated=rated and original is None,
            identity=identity,
            copy_of=original,
        )
        refs = ImportRefs(tournament=t, entries={}, matches={})
        refs.entries = write_entries(document["entries"], t, refs)
        ForbiddenPair.objects.bulk_create(
            ForbiddenPair(tournament=t, entry_a=refs.entries[a], entry_b=refs.entries[b])
            for a, b in document["forbidden_pairs"]
        )
        refs.matches = write_rounds(document["rounds"], t, refs)
        known = sections.registered()
        for name, value in document["sections"].items():
            known[name].write(value, refs)
        after_rounds_changed(t, now=now)
    return t


def write_tournament(
    part: dict[str, Any],
    *,
    slug: str,
    by: User | None,
    rated: bool,
    identity: str,
    copy_of: Tournament | None,
) -> Tournament:
    fields = {name: part.get(name, LATER_SETTINGS.get(name)) for name in SETTINGS if name != "slug"}
    fields["rated"] = rated and part["rated"]
    t = Tournament.objects.create(
        slug=slug,
        owner=by,
        start_date=part["start_date"],
        end_date=part["end_date"],
        imported=True,
        fingerprint=identity,
        copy_of=copy_of,
        **fields,
    )
    t.created_at = time_of(part["created_at"])
    Tournament.objects.filter(pk=t.pk).update(created_at=t.created_at)
    return t


def player_for(part: dict[str, Any]) -> Player:
    """A new player without an account, whatever username the file gives. The country is a
    code; a file from before codes may give a name (read as its code) or a text that names
    no country (kept as typed, as migration 0021 kept it)."""
    country, as_typed = code_or_kept(part["country"])
    return Player.objects.create(
        name=part["name"],
        club=part["club"],
        country=country,
        country_as_typed=as_typed,
        rating=part["rating"],
    )


def write_entries(parts: list[dict[str, Any]], t: Tournament, refs: ImportRefs) -> dict[int, Entry]:
    entries = {
        e["key"]: Entry(
            tournament=t,
            player=player_for(e["player"]),
            seed=e["seed"],
            checked_in=e["checked_in"],
            checked_in_at=parse_time(e["checked_in_at"]),
            withdrawn_from_round=e["withdrawn_from_round"],
            late_from_round=e["late_from_round"],
            initial_points=e["initial_points"],
            knockout_seed=e["knockout_seed"],
        )
        for e in parts
    }
    Entry.objects.bulk_create(entries.values())
    RoundAbsence.objects.bulk_create(
        RoundAbsence(
            entry=entries[e["key"]], round_number=a["round"], created_at=time_of(a["created_at"])
        )
        for e in parts
        for a in e["absences"]
    )
    changes = []
    for e in parts:
        for c in e["changes"]:
            changes.append(
                EntryChange(
                    entry=entries[e["key"]],
                    field=c["field"],
                    before=c["before"],
                    after=c["after"],
                    changed_by_name=c["changed_by"] or "",
                    changed_at=time_of(c["changed_at"]),
                )
            )
    EntryChange.objects.bulk_create(changes)
    return entries


def write_rounds(
    parts: list[dict[str, Any]], t: Tournament, refs: ImportRefs
) -> dict[MatchKey, Match]:
    rounds = [
        Round(
            tournament=t,
            number=r["number"],
            stage=r["stage"],
            status=r["status"],
            seed=r["seed"],
            published_at=parse_time(r["published_at"]),
            finished_at=parse_time(r["finished_at"]),
            timer_started_at=parse_time(r["timer_started_at"]),
            timer_minutes=r["timer_minutes"],
        )
        for r in parts
    ]
    Round.objects.bulk_create(rounds)
    for round_, part in zip(rounds, parts, strict=True):
        round_.created_at = time_of(part["created_at"])
    Round.objects.bulk_update(rounds, ["created_at"])
    matches: dict[MatchKey, Match] = {}
    for round_, part in zip(rounds, parts, strict=True):
        for m in part["matches"]:
            matches[(round_.number, m["table"])] = Match(
                round=round_,
                table=m["table"],
                player_a=refs.entries[m["a"]],
                player_b=None if m["b"] is None else refs.entries[m["b"]],
                flags=m["flags"],
                result_status=m["result_status"],
                lock_version=m["lock_version"],
                play_started_at=parse_time(m["play_started_at"]),
            )
    Match.objects.bulk_create(matches.values())
    write_versions(parts, matches, refs)
    return matches


def write_versions(
    parts: list[dict[str, Any]], matches: dict[MatchKey, Match], refs: ImportRefs
) -> None:
    versions: list[tuple[ResultVersion, dict[str, Any]]] = []
    counted: dict[MatchKey, int] = {}
    for r in parts:
        for m in r["matches"]:
            key = (r["number"], m["table"])
            if m["confirmed_version"] is not None:
                counted[key] = m["confirmed_version"]
            for v in m["versions"]:
                version = ResultVersion(
                    match=matches[key],
                    number=v["number"],
                    game=v["game"],
                    **dict(zip(FIELDS, v["result"], strict=True)),
                    source=v["source"],
                    kind=v["kind"],
                    status=v["status"],
                    reason=v["reason"],
                    entered_by_name=v["entered_by"] or "",
                    confirmed_by_name=v["confirmed_by"] or "",
                    confirmed_at=parse_time(v["confirmed_at"]),
                )
                versions.append((version, v))
    ResultVersion.objects.bulk_create(v for v, _part in versions)
    by_number = {}
    for version, part in versions:
        version.entered_at = time_of(part["entered_at"])
        by_number[(version.match.round.number, version.match.table, version.number)] = version
    ResultVersion.objects.bulk_update([v for v, _part in versions], ["entered_at"])
    for key, number in counted.items():
        matches[key].confirmed_version = by_number[(*key, number)]
    Match.objects.bulk_update([matches[key] for key in counted], ["confirmed_version"])
