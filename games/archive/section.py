"""The battles section of a tournament archive (``sections.battles``; the format is
``games/archive/archive-battles.schema.json``): every battle of the tournament's matches with its
clock row, its moves and its clock events.

The tournaments app writes and reads the archive and never imports games; it finds this
section through ``GamesConfig.archive_sections``. A battle names its match by ``(round,
table)`` and its players by entry key, through the refs the archive hands over
(``tournaments.for_games``). Times keep their offset and microseconds.

An archive is untrusted: every battle is replayed through its game's engine before
anything is written (``games.archive.replay``), and written as history, never on a clock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from games.archive.replay import as_history, replay_problems
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from tournaments.for_games import (
    DocumentIndex,
    ExportRefs,
    ImportRefs,
    Tournament,
    iso,
    load_schema,
    parse_time,
    time_of,
)

#: The battle row's columns that travel as they are, and those that are times.
COLUMNS = (
    "game", "number", "mode", "timing", "timeout_rule", "board_seed", "scores", "winner",
    "status", "side_to_move", "ply", "max_plies", "touched_square", "paused_remaining_ms",
    "paused_think_remaining_ms", "paused_reason", "forfeits_first", "forfeits_second",
    "clock_version", "board", "first_count", "second_count", "finished_reason",
    "end_offered_by", "resume_asked_by", "resume_asked_version", "timed", "think_ms",
    "move_ms", "grace_ms", "commit_rule", "max_consecutive_forfeits", "outage_threshold_ms",
    "capture_policy", "awaits_players", "join_window_ms",
)  # fmt: skip
TIMES = (
    "turn_started_at", "think_ends_at", "deadline", "first_joined_at", "second_joined_at",
    "updated_at",
)  # fmt: skip


class BattlesSection:
    name = "battles"

    @cached_property
    def schema(self) -> dict[str, Any]:
        """Its enums are the models' choices (``tournaments.archive.choices``)."""
        return load_schema(Path(__file__).with_name("archive-battles.schema.json"))

    def export(self, tournament: Tournament, refs: ExportRefs) -> list[dict[str, Any]]:
        battles = (
            Battle.objects.filter(match__round__tournament=tournament)
            .prefetch_related("moves", "clock_events")
            .order_by("match__round__number", "match__table", "number")
        )
        return [battle_part(b, refs) for b in battles]

    def check(self, data: list[dict[str, Any]], index: DocumentIndex) -> Iterator[str]:
        seen: set[tuple[int, int, int]] = set()
        for n, b in enumerate(data):
            here = f"sections.battles[{n}]: "
            key = (b["round"], b["table"])
            if key not in index.matches:
                yield here + _("no match at table %(table)d of round %(round)d.") % {
                    "table": b["table"],
                    "round": b["round"],
                }
                continue
            if (*key, b["number"]) in seen:
                yield here + _("battle %(number)d of this match appears twice.") % b
            seen.add((*key, b["number"]))
            a, other = index.matches[key]
            if {b["first"], b["second"]} != {a, other}:
                yield here + _("its players are not the players of its match.")
            if b["game"] != index.game:
                yield here + _("a battle of %(game)r in a tournament of another game.") % b
            plies = Counter(m["ply"] for m in b["moves"])
            if twice := [ply for ply, count in plies.items() if count > 1]:
                yield here + _("two moves complete ply %(ply)d.") % {"ply": twice[0]}
            expiries = Counter(e["ply"] for e in b["clock_events"] if e["kind"] == "turn_expired")
            if twice := [ply for ply, count in expiries.items() if count > 1]:
                yield here + _("the turn of ply %(ply)d expired twice.") % {"ply": twice[0]}
            if b["game"] == index.game:
                yield from (here + p for p in replay_problems(b))

    def write(self, data: list[dict[str, Any]], refs: ImportRefs) -> None:
        """Checked battles as history: none is left on a clock (``as_history``)."""
        data = [as_history(b) for b in data]
        battles = [
            Battle(
                match=refs.matches[(b["round"], b["table"])],
                first_entry=refs.entries[b["first"]],
                second_entry=refs.entries[b["second"]],
                **{name: b[name] for name in COLUMNS},
                **{name: parse_time(b[name]) for name in TIMES},
            )
            for b in data
        ]
        Battle.objects.bulk_create(battles)
        for battle, part in zip(battles, data, strict=True):
            battle.updated_at = time_of(part["updated_at"])  # auto_now: set after
        Battle.objects.bulk_update(battles, ["updated_at"])
        Move.objects.bulk_create(
            Move(
                battle=battle,
                ply=m["ply"],
                side=m["side"],
                notation=m["notation"],
                kind=m["kind"],
                captures=m["captures"],
                submitted_at=time_of(m["submitted_at"]),
                clock_version_before=m["clock_version_before"],
            )
            for battle, part in zip(battles, data, strict=True)
            for m in part["moves"]
        )
        ClockEvent.objects.bulk_create(
            ClockEvent(
                battle=battle,
                ply=e["ply"],
                kind=e["kind"],
                due_at=parse_time(e["due_at"]),
                applied_at=time_of(e["applied_at"]),
                via=e["via"],
                detail=e["detail"],
            )
            for battle, part in zip(battles, data, strict=True)
            for e in part["clock_events"]
        )


def battle_part(b: Battle, refs: ExportRefs) -> dict[str, Any]:
    assert b.match_id is not None and b.first_entry_id and b.second_entry_id  # tournament's
    round_number, table = refs.match_keys[b.match_id]
    return {
        "round": round_number,
        "table": table,
        "first": refs.entry_keys[b.first_entry_id],
        "second": refs.entry_keys[b.second_entry_id],
        **{name: getattr(b, name) for name in COLUMNS},
        **{name: iso(getattr(b, name)) for name in TIMES},
        "moves": [
            {
                "ply": m.ply,
                "side": m.side,
                "notation": m.notation,
                "kind": m.kind,
                "captures": m.captures,
                "submitted_at": iso(m.submitted_at),
                "clock_version_before": m.clock_version_before,
            }
            for m in sorted(b.moves.all(), key=lambda m: m.ply)
        ],
        "clock_events": [
            {
                "ply": e.ply,
                "kind": e.kind,
                "due_at": iso(e.due_at),
                "applied_at": iso(e.applied_at),
                "via": e.via,
                "detail": e.detail,
            }
            for e in sorted(b.clock_events.all(), key=lambda e: (e.applied_at, e.pk))
        ],
    }


SECTION = BattlesSection()
