"""Writing a tournament as an archive document (the format: ``tournament-archive.schema.json``).

The document names no database id (``sections``): entries get keys 1, 2, … in seed order,
matches are ``(round number, table)``, users are usernames. A result version's author who
was kept as a name (an earlier import) is written as that name, so an archive of an
archive says the same. Personal-link tokens are secrets of this installation and are not
written: the other installation draws new ones.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from tournaments.archive import sections
from tournaments.archive.sections import ExportRefs, iso
from tournaments.models.entries import EntryChange
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament

FORMAT = "thud-tournament-archive"
VERSION = 1

#: The tournament's own columns, written as they are (dates and times as text).
SETTINGS = (
    "slug",
    "name",
    "venue",
    "format",
    "rounds",
    "top_cut",
    "knockout_draw_rule",
    "game",
    "variant",
    "capture_policy",
    "record_otb_moves",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "status",
    "pairing_seed",
    "move_unit",
    "think_ms",
    "move_ms",
    "grace_ms",
    "commit_rule",
    "max_consecutive_forfeits",
    "outage_threshold_ms",
    "check_in_required",
    "rated",
    "join_window_s",
    "announcement",
    "time_zone",
    "allow_bots",
)

#: Settings added to version 1 after files were written: a file without one gets this value
#: (the model's default), so an earlier archive still imports as it was.
LATER_SETTINGS = {"allow_bots": False}


def username(user: User | None, kept: str = "") -> str | None:
    return user.get_username() if user is not None else (kept or None)


def build_document(tournament: Tournament, *, now: datetime) -> dict[str, Any]:
    """The whole tournament as the archive's JSON value."""
    content, refs = _content(tournament)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(now),
        **content,
        "sections": {
            name: section.export(tournament, refs)
            for name, section in sections.registered().items()
        },
    }


def content_document(tournament: Tournament) -> dict[str, Any]:
    """The parts of the archive this app writes (tournament, entries, forbidden pairs,
    rounds), without the other apps' sections: what ``identity`` reads."""
    return _content(tournament)[0]


def _content(t: Tournament) -> tuple[dict[str, Any], ExportRefs]:
    entries = list(
        Entry.objects.filter(tournament=t)
        .select_related("player__user")
        .prefetch_related("absences")
        .order_by("seed", "player__name", "pk")
    )
    keys = {e.pk: n for n, e in enumerate(entries, start=1)}
    changes: dict[int, list[EntryChange]] = {}
    for c in EntryChange.objects.filter(entry__tournament=t).select_related("changed_by"):
        changes.setdefault(c.entry_id, []).append(c)
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    matches = list(Match.objects.filter(round__tournament=t).order_by("round__number", "table"))
    versions: dict[int, list[ResultVersion]] = {}
    for v in (
        ResultVersion.objects.filter(match__round__tournament=t)
        .select_related("entered_by", "confirmed_by")
        .order_by("match", "number")
    ):
        versions.setdefault(v.match_id, []).append(v)
    round_numbers = {r.pk: r.number for r in rounds}
    refs = ExportRefs(
        entry_keys=keys,
        match_keys={m.pk: (round_numbers[m.round_id], m.table) for m in matches},
    )
    content = {
        "tournament": tournament_part(t),
        "entries": [entry_part(e, keys[e.pk], changes.get(e.pk, [])) for e in entries],
        "forbidden_pairs": [
            [keys[a], keys[b]]
            for a, b in t.forbidden_pairs.order_by("pk").values_list("entry_a", "entry_b")
        ],
        "rounds": [
            round_part(r, [m for m in matches if m.round_id == r.pk], versions, keys)
            for r in rounds
        ],
    }
    return content, refs


def tournament_part(t: Tournament) -> dict[str, Any]:
    part: dict[str, Any] = {name: getattr(t, name) for name in SETTINGS}
    part["tiebreaks"] = list(t.tiebreaks)
    part["start_date"] = t.start_date and t.start_date.isoformat()
    part["end_date"] = t.end_date and t.end_date.isoformat()
    part["created_at"] = iso(t.created_at)
    part["organiser"] = username(t.owner)
    part["co_organisers"] = sorted(u.get_username() for u in t.co_organisers.all())
    part["referees"] = sorted(u.get_username() for u in t.referees.all())
    return part


def entry_part(e: Entry, key: int, changes: list[EntryChange]) -> dict[str, Any]:
    p = e.player
    return {
        "key": key,
        "player": {
            "name": p.name,
            "club": p.club,
            # The ISO code; a text kept from before codes goes out as it came in.
            "country": str(p.country) or p.country_as_typed,
            "rating": p.rating,
            "username": username(p.user),
        },
        "seed": e.seed,
        "checked_in": e.checked_in,
        "checked_in_at": iso(e.checked_in_at),
        "withdrawn_from_round": e.withdrawn_from_round,
        "late_from_round": e.late_from_round,
        "initial_points": e.initial_points,
        "knockout_seed": e.knockout_seed,
        "absences": [
            {"round": a.round_number, "created_at": iso(a.created_at)} for a in e.absences.all()
        ],
        "changes": [
            {
                "field": c.field,
                "before": c.before,
                "after": c.after,
                "changed_by": username(c.changed_by, c.changed_by_name),
                "changed_at": iso(c.changed_at),
            }
            for c in sorted(changes, key=lambda c: (c.changed_at, c.pk))
        ],
    }


def round_part(
    r: Round, matches: list[Match], versions: dict[int, list[ResultVersion]], keys: dict[int, int]
) -> dict[str, Any]:
    numbers = {v.pk: v.number for vs in versions.values() for v in vs}
    return {
        "number": r.number,
        "stage": r.stage,
        "status": r.status,
        "seed": r.seed,
        "created_at": iso(r.created_at),
        "published_at": iso(r.published_at),
        "finished_at": iso(r.finished_at),
        "timer_started_at": iso(r.timer_started_at),
        "timer_minutes": r.timer_minutes,
        "matches": [
            {
                "table": m.table,
                "a": keys[m.player_a_id],
                "b": None if m.player_b_id is None else keys[m.player_b_id],
                "flags": list(m.flags),
                "result_status": m.result_status,
                "lock_version": m.lock_version,
                "play_started_at": iso(m.play_started_at),
                "confirmed_version": numbers.get(m.confirmed_version_id or 0),
                "versions": [version_part(v) for v in versions.get(m.pk, [])],
            }
            for m in matches
        ],
    }


def version_part(v: ResultVersion) -> dict[str, Any]:
    return {
        "number": v.number,
        "game": v.game,
        "result": list(v.survivors.as_tuple()),
        "source": v.source,
        "kind": v.kind,
        "status": v.status,
        "reason": v.reason,
        "entered_by": username(v.entered_by, v.entered_by_name),
        "entered_at": iso(v.entered_at),
        "confirmed_by": username(v.confirmed_by, v.confirmed_by_name),
        "confirmed_at": iso(v.confirmed_at),
    }


def dumps(document: dict[str, Any]) -> str:
    """The document as the archive file's text (UTF-8 JSON, names kept readable)."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
