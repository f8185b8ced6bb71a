"""The CSV files the project hands out: standings and results (stable columns, README).

One function per file, shared by the management command and the web downloads, so the two
can never drift apart. Cells go through ``csv_safe`` (no spreadsheet formulas); headers
and values are language-neutral (English keys, plain numbers, status codes).

Terminology: a *confirmed result* is a match whose ``confirmed_version`` is set in a public
(published or finished) round; a bye is listed too (status ``bye``, empty numbers), since it
counts in the standings like a win.
"""

from __future__ import annotations

from typing import TextIO

from . import csv_safe
from .models import Match, ResultVersion, Tournament
from .rounds import COUNTED, STANDINGS_FIELDS, load_standings, standings_json
from .scoring import score_match

RESULTS_FIELDS = (
    "round",
    "table",
    "player_a",
    "player_b",
    "battle1_dwarfs",
    "battle1_trolls",
    "battle2_dwarfs",
    "battle2_trolls",
    "score_a",
    "score_b",
    "status",
)

# The kind of the confirmed version, as the ``status`` column names it.
RESULT_STATUS = {
    ResultVersion.Kind.ENTRY: "confirmed",
    ResultVersion.Kind.CORRECTION: "corrected",
    ResultVersion.Kind.DECISION: "decision",
}


def write_standings_csv(stream: TextIO, tournament: Tournament, *, lineterminator: str) -> None:
    """The current standings, ``STANDINGS_FIELDS`` columns (two queries)."""
    writer = csv_safe.DictWriter(stream, fieldnames=STANDINGS_FIELDS, lineterminator=lineterminator)
    writer.writeheader()
    writer.writerows(standings_json(load_standings(tournament)))


def results_rows(tournament: Tournament) -> list[dict]:
    """Every confirmed result and bye of the public rounds, by round and table (one query)."""
    matches = (
        Match.objects.filter(round__tournament=tournament, round__status__in=COUNTED)
        .exclude(player_b__isnull=False, confirmed_version__isnull=True)
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "table",
            "player_a__player__name",
            "player_b__player__name",
            "confirmed_version__battle1_dwarfs",
            "confirmed_version__battle1_trolls",
            "confirmed_version__battle2_dwarfs",
            "confirmed_version__battle2_trolls",
            "confirmed_version__kind",
        )
    )
    rows = []
    for number, table, name_a, name_b, d1, t1, d2, t2, kind in matches:
        row = dict.fromkeys(RESULTS_FIELDS, "")
        row.update(round=number, table=table, player_a=name_a)
        if name_b is None:
            row["status"] = "bye"
        else:
            score = score_match(d1, t1, d2, t2, game=tournament.game)
            row.update(
                player_b=name_b,
                battle1_dwarfs=d1,
                battle1_trolls=t1,
                battle2_dwarfs=d2,
                battle2_trolls=t2,
                score_a=sum(score.a_points),
                score_b=sum(score.b_points),
                status=RESULT_STATUS[kind],
            )
        rows.append(row)
    return rows


def write_results_csv(stream: TextIO, tournament: Tournament, *, lineterminator: str) -> None:
    writer = csv_safe.DictWriter(stream, fieldnames=RESULTS_FIELDS, lineterminator=lineterminator)
    writer.writeheader()
    writer.writerows(results_rows(tournament))
