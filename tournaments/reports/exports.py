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

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.reports import csv_safe
from tournaments.rounds.reads import STANDINGS_FIELDS, load_standings, standings_json
from tournaments.rules import scales
from tournaments.rules.result import MatchResult
from tournaments.rules.scales import FIELDS, scale_of
from tournaments.standings.scoring import score


def results_fields(game: str) -> tuple[str, ...]:
    """The results file's columns: the four numbers named by ``game`` (README)."""
    numbers = scales.columns(scale_of(game))
    return ("round", "table", "player_a", "player_b", *numbers, "score_a", "score_b", "status")


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
        Match.objects.counted()
        .filter(round__tournament=tournament)
        .exclude(player_b__isnull=False, confirmed_version__isnull=True)
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "table",
            "player_a__player__name",
            "player_b__player__name",
            *(f"confirmed_version__{name}" for name in FIELDS),
            "confirmed_version__kind",
        )
    )
    game = tournament.game
    columns = scales.columns(scale_of(game))
    rows = []
    for number, table, name_a, name_b, *numbers, kind in matches:
        row: dict[str, object] = dict.fromkeys(results_fields(game), "")
        row.update(round=number, table=table, player_a=name_a)
        if name_b is None:
            row["status"] = "bye"
        else:
            match_score = score(MatchResult(*numbers, game=game))
            row.update(zip(columns, numbers, strict=True))
            row.update(
                player_b=name_b,
                score_a=sum(match_score.a_points),
                score_b=sum(match_score.b_points),
                status=RESULT_STATUS[kind],
            )
        rows.append(row)
    return rows


def write_results_csv(stream: TextIO, tournament: Tournament, *, lineterminator: str) -> None:
    fields = results_fields(tournament.game)
    writer = csv_safe.DictWriter(stream, fieldnames=fields, lineterminator=lineterminator)
    writer.writeheader()
    writer.writerows(results_rows(tournament))
