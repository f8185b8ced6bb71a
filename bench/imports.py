"""Benchmark of the CSV imports at their row cap: 5,000 players and 5,000 results.

Setup, on its own PostgreSQL database (``<DATABASE_URL name>_bench_imports``, dropped,
re-created and migrated here), written with ``bulk_create`` and not timed: an empty
tournament to receive the players, and a tournament of 1,000 players with 10 published
rounds of 500 matches each to receive the results. The two CSV files are written to a
temporary directory.

Timed: ``manage.py import_players`` and ``manage.py import_results`` as an organiser
runs them (``call_command``: read, parse, validate, write), ``--repeat`` times each
(players into a fresh tournament each time; a repeated results import supersedes the
previous versions). Parsing is also timed on its own, so the rest is the time inside
the write transaction, during which the imported rows (and, for results, the matches)
stay locked.

Prints a table, then one JSON line with the medians:
``import_players_5000_s, import_results_5000_s`` (and the parse times).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from common import fresh_database  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")

ROWS = 5_000
PLAYERS = 1_000
ROUNDS = 10


os.environ["DATABASE_URL"] = fresh_database("bench_imports")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from tournaments.models.people import Player  # noqa: E402
from tournaments.models.results import ResultVersion  # noqa: E402
from tournaments.models.rounds import Match, Round  # noqa: E402
from tournaments.models.tournament import Entry, Tournament  # noqa: E402
from tournaments.organising.csv_rows import MAX_ROWS, parse_players, parse_results  # noqa: E402


def build_results_tournament(owner) -> Tournament:
    """1,000 players, 10 published rounds of 500 matches (each round a rotation)."""
    t = Tournament.objects.create(
        name="Bench Results", slug="bench-results", owner=owner, rounds=ROUNDS
    )
    players = Player.objects.bulk_create(Player(name=f"Seeded {i:04d}") for i in range(PLAYERS))
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, seed=i + 1) for i, p in enumerate(players)
    )
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=n, status=Round.Status.PUBLISHED) for n in range(1, ROUNDS + 1)
    )
    matches = []
    for r in rounds:
        order = entries[r.number :] + entries[: r.number]
        matches += [
            Match(round=r, table=k + 1, player_a=order[2 * k], player_b=order[2 * k + 1])
            for k in range(PLAYERS // 2)
        ]
    Match.objects.bulk_create(matches, batch_size=1000)
    return t


def write_files(directory: Path) -> tuple[Path, Path]:
    players = directory / "players.csv"
    players.write_text(
        "name,club,country,rating\n"
        + "".join(
            f"Bench Player {i:04d},Club {i % 50},GB,{1000 + i % 2000}\n" for i in range(ROWS)
        ),
        encoding="utf-8",
    )
    results = directory / "results.csv"
    lines = [
        f"{n},{k},{(n * k) % 33},{k % 9},{(n + k) % 33},{n % 9}\n"
        for n in range(1, ROUNDS + 1)
        for k in range(1, PLAYERS // 2 + 1)
    ]
    results.write_text(
        "round,table,battle1_dwarfs,battle1_trolls,battle2_dwarfs,battle2_trolls\n"
        + "".join(lines),
        encoding="utf-8",
    )
    return players, results


def timed(function, *args, **kwargs) -> float:
    t0 = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    assert ROWS <= MAX_ROWS

    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create(username="bench-organiser", is_staff=True)
    results_t = build_results_tournament(owner)
    setup_s = time.perf_counter() - t0

    samples: dict[str, list[float]] = {"players": [], "results": [], "pp": [], "pr": []}
    with tempfile.TemporaryDirectory() as tmp:
        players_csv, results_csv = write_files(Path(tmp))
        players_text = players_csv.read_text(encoding="utf-8")
        results_text = results_csv.read_text(encoding="utf-8")
        for i in range(args.repeat):
            t = Tournament.objects.create(name=f"Bench {i}", slug=f"bench-players-{i}", owner=owner)
            out = StringIO()
            samples["pp"].append(timed(parse_players, players_text))
            samples["players"].append(
                timed(call_command, "import_players", t.slug, players_csv, stdout=out)
            )
            samples["pr"].append(timed(parse_results, results_text))
            samples["results"].append(
                timed(call_command, "import_results", results_t.slug, results_csv, stdout=out)
            )
            assert t.entries.count() == ROWS, out.getvalue()

    versions = ResultVersion.objects.filter(match__round__tournament=results_t).count()
    assert versions == ROWS * args.repeat, versions
    med = {key: statistics.median(values) for key, values in samples.items()}
    print(f"PostgreSQL {connection.pg_version}; setup (not timed): {setup_s:.1f} s")
    print(f"{'import (command, 5,000 rows)':<34}{'median s':>9}{'parse s':>9}{'write s':>9}  runs")
    for label, key, parse in (
        ("import_players", "players", "pp"),
        ("import_results", "results", "pr"),
    ):
        runs = ", ".join(f"{s:.2f}" for s in samples[key])
        print(f"{label:<34}{med[key]:>9.2f}{med[parse]:>9.2f}{med[key] - med[parse]:>9.2f}  {runs}")
    print(
        json.dumps(
            {
                "rows": ROWS,
                "repeat": args.repeat,
                "import_players_5000_s": round(med["players"], 3),
                "import_results_5000_s": round(med["results"], 3),
                "parse_players_5000_s": round(med["pp"], 3),
                "parse_results_5000_s": round(med["pr"], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
