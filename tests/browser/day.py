"""What the whole-day scenario (``test_whole_day_browser.py``) reads and runs besides its
pages: the hall screen's facts, a tournament's public face read over HTTP (every public
JSON endpoint and download), and a second site on a fresh PostgreSQL database (its own
uvicorn and default worker, as another installation would run them)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import psycopg
from django.conf import settings
from django.db import connection

from tests.processes import ROOT, Proc, default_worker_proc, free_port, uvicorn_proc
from tests.tournaments.archive.dump import normalise, pdf_text

#: The score of a table on the hall screen while its result is not confirmed.
PLAYING = "playing"


def hall_tables(page) -> list[list[str]]:
    """The hall's "pairings by table" rows as shown: table, the two names, the result."""
    rows = page.locator(".hall-slide[data-kind=tables] tbody tr")
    return [
        [cell.strip() for cell in row]
        for row in rows.evaluate_all(
            "rows => rows.map(r => [...r.children].map(c => c.textContent))"
        )
    ]


def public_view(base: str, slug: str) -> dict[str, Any]:
    """Everything the public reads of ``slug`` on the site at ``base``, over HTTP: every
    public JSON endpoint (tournament, rounds, standings, statistics, battles, players'
    statistics and ratings, the site's lists) and every download (CSV, records, PDFs as
    text), with ids and the address normalised (``dump.normalise``)."""
    out: dict[str, Any] = {}
    with httpx.Client(base_url=base, timeout=60) as client:

        def get(path: str) -> httpx.Response:
            response = client.get(path)
            assert response.status_code == 200, (base, path, response.status_code)
            return response

        def api(path: str) -> Any:
            return json.loads(get(path).text.replace(base, "BASE"))  # absolute links

        t = out["tournament"] = api(f"/api/tournaments/{slug}/")
        out["standings"] = api(f"/api/tournaments/{slug}/standings")
        out["stats"] = api(f"/api/tournaments/{slug}/stats")
        rounds = t["published_rounds"]
        out["pairings"] = [api(f"/api/tournaments/{slug}/rounds/{n}/pairings") for n in rounds]
        battles = out["battles"] = api(f"/api/tournaments/{slug}/battles")
        out["battle"] = [api(f"/api/battles/{b['id']}") for b in battles["battles"]]
        out["site_stats"] = api("/api/stats")
        out["ratings"] = api("/api/ratings?game=thud")
        # The players as a visitor finds them: the tournament page's entries, each entry's
        # link to the player's statistics.
        entries = re.findall(rf"/t/{slug}/players/(\d+)/", get(f"/t/{slug}/").text)
        players = [
            re.search(r"/players/(\d+)/stats/", get(f"/t/{slug}/players/{e}/").text)[1]
            for e in dict.fromkeys(entries)
        ]
        out["player_stats"] = [api(f"/api/players/{p}/stats") for p in players]
        out["player_ratings"] = [api(f"/api/players/{p}/ratings?game=thud") for p in players]
        out["tournaments"] = api("/api/tournaments/")
        for name in ("standings.csv", "results.csv", "records.txt"):
            out[name] = get(f"/t/{slug}/{name}").text
        for name in ("standings.pdf", "report.pdf"):
            out[name] = pdf_text(get(f"/t/{slug}/{name}").content)
        for n in rounds:  # the slips and table cards are the referees'
            out[f"round {n} pairings.pdf"] = pdf_text(
                get(f"/t/{slug}/rounds/{n}/pairings.pdf").content
            )
        for b in battles["battles"]:
            record = f"record of round {b['round']}, table {b['table']}, battle {b['number']}"
            out[record] = get(f"/battles/{b['id']}/record.txt").text
    return normalise(out, slug)


def site_env(*, database: str, queue: str, events: str, cache: str) -> dict[str, str]:
    """The environment of a site's processes on ``database`` (a PostgreSQL database of the
    test server) and the shared Redis, with its own queues (named after ``queue``), live
    channels (``events``) and cache keys (``cache``), as ``ClockCluster`` sets them."""
    sd = connection.settings_dict
    return os.environ | {
        "DATABASE_URL": (
            f"postgres://{sd['USER']}:{sd['PASSWORD'] or ''}@{sd['HOST']}:{sd['PORT']}/{database}"
        ),
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_BROKER_URL": settings.REDIS_URL,
        "THUD_CLOCK_QUEUE": queue,
        "THUD_BOTS_QUEUE": f"{queue}-bots",
        "THUD_ANALYSIS_QUEUE": f"{queue}-analysis",
        "THUD_CELERY_DEFAULT_QUEUE": f"{queue}-default",
        "THUD_EVENTS_PREFIX": events,
        "THUD_CACHE_PREFIX": cache,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }


def this_site_env() -> dict[str, str]:
    """The environment of the ``server`` fixture's processes (its cluster's queues,
    channels and the test database), for one more process of that site."""
    return site_env(
        database=connection.settings_dict["NAME"],
        queue=settings.THUD_CLOCK_QUEUE,
        events=settings.THUD_EVENTS_PREFIX,
        cache=os.environ.get("THUD_CACHE_PREFIX", "thud"),
    )


def _admin(sql: str) -> None:
    sd = connection.settings_dict
    with psycopg.connect(
        host=sd["HOST"],
        port=sd["PORT"],
        user=sd["USER"],
        password=sd["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(sql)


class FreshSite:
    """Another installation: a new PostgreSQL database beside the test database, migrated
    by ``manage.py migrate``, served by its own uvicorn with its own default worker (the
    archive import's job), cache keys and live channels. ``begin`` creates it, then
    migrates it and makes its site administrator in the background (while the day is
    played); ``serve`` starts its processes once migrated, ``ready`` waits for them."""

    def __init__(self, log_dir: Path) -> None:
        self.name = f"{connection.settings_dict['NAME']}_fresh"
        tag = f"{settings.THUD_CLOCK_QUEUE}-fresh"
        self.env = site_env(database=self.name, queue=tag, events=f"{tag}:", cache=tag)
        self.log_dir = log_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.procs: list[Proc] = []
        self.migrate: subprocess.Popen | None = None

    def begin(self, admin: str, password: str) -> FreshSite:
        """Create the database; migrate it and make its site administrator ``admin`` in
        the background."""
        _admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        _admin(f'CREATE DATABASE "{self.name}"')
        log = open(self.log_dir / "fresh-migrate.log", "wb")  # noqa: SIM115 - the child's
        manage = f"nice {shlex.quote(sys.executable)} manage.py"
        self.migrate = subprocess.Popen(
            ["sh", "-c", f"{manage} migrate --verbosity 0 && {manage} createsuperuser --noinput"],
            cwd=ROOT,
            env=self.env
            | {
                "DJANGO_SUPERUSER_USERNAME": admin,
                "DJANGO_SUPERUSER_PASSWORD": password,
                "DJANGO_SUPERUSER_EMAIL": f"{admin}@example.org",
            },
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        return self

    def serve(self) -> None:
        """Once migrated, start its uvicorn and default worker (``ready`` waits for them)."""
        assert self.migrate is not None
        assert self.migrate.wait(timeout=300) == 0, (self.log_dir / "fresh-migrate.log").read_text()
        self.procs = [
            uvicorn_proc(self.env, self.log_dir, self.port, name="fresh-uvicorn"),
            default_worker_proc(
                self.env, self.env["THUD_CELERY_DEFAULT_QUEUE"], self.log_dir, "fresh-worker"
            ),
        ]
        for proc in self.procs:
            proc.start(wait=False)

    def ready(self) -> str:
        for proc in self.procs:
            proc.wait_ready()
        return self.url

    def close(self) -> None:
        for proc in self.procs:
            proc.ask_to_stop()
        for proc in self.procs:
            proc.wait_stopped()
        if self.migrate is not None and self.migrate.poll() is None:
            self.migrate.kill()
            self.migrate.wait()
        with contextlib.suppress(psycopg.Error):
            _admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
