"""Floods: what one user (or one address) can make the site do for others (issue 20).

Runs the site under gunicorn (the Procfile's 3 sync workers) on its own PostgreSQL
database (``<DATABASE_URL name>_bench_floods``, dropped and re-created here) and the
local Redis, and replays the findings' scripts over HTTP:

- *challenges*: one logged-in user POSTs 500 challenges to one opponent as fast as it
  can: how many are created, how many e-mails are queued for the opponent;
- *seeks*: 10,000 open seeks by 100 users, then ``/play/`` read 20 times: time and size;
- *password resets*: 30 requests for one address: e-mails queued;
- *registrations*: 30 new accounts posted from one address: accounts created;
- *PDFs*: the home page read every 50 ms while 8 clients ask at once for the same,
  never-rendered ``report.pdf`` of a 120-player, 5-round tournament: home-page latency
  against a quiet baseline.

Prints a table, then one JSON line of the figures.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from common import free_port, fresh_database, start_gunicorn  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
# A fresh prefix per run: the rate limits of the last run must not count in this one.
os.environ["THUD_CACHE_PREFIX"] = (
    f"{os.environ.get('THUD_CACHE_PREFIX', 'bench')}-floods-{os.getpid()}"
)

PASSWORD = "bench-password-123"
SLUG = "flood-open"


os.environ["DATABASE_URL"] = fresh_database("bench_floods")
import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from outbox.models import OutboundEmail  # noqa: E402
from play.models import Challenge  # noqa: E402
from tournaments.models.people import Player  # noqa: E402
from tournaments.models.results import ResultVersion  # noqa: E402
from tournaments.models.tournament import Entry, Tournament  # noqa: E402
from tournaments.results.final import record_final_result  # noqa: E402
from tournaments.rounds.draw import pair_next_round  # noqa: E402
from tournaments.rounds.play import publish_round  # noqa: E402

CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def build() -> None:
    call_command("migrate", verbosity=0)
    User = get_user_model()
    hashed = make_password(PASSWORD)
    User.objects.create(username="attacker", password=hashed, email="attacker@example.org")
    User.objects.create(username="target", password=hashed, email="target@example.org")
    User.objects.create(username="reader", password=hashed, email="reader@example.org")
    organiser = User.objects.create(username="flood-organiser", password=hashed)
    t = Tournament.objects.create(name="Flood Open", slug=SLUG, rounds=7, owner=organiser)
    players = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(120))
    Entry.objects.bulk_create(
        Entry(tournament=t, player=p, seed=i + 1, checked_in=True) for i, p in enumerate(players)
    )
    for _ in range(5):
        round_ = publish_round(
            pair_next_round(t, by=organiser, now=timezone.now()), now=timezone.now()
        )
        for k, match in enumerate(round_.matches.filter(player_b__isnull=False)):
            survivors = ((k * 7) % 33, (k * 3) % 9, (k * 11) % 33, (k * 5) % 9)
            record_final_result(
                match,
                survivors=survivors,
                by=organiser,
                source=ResultVersion.Source.IMPORT,
                now=timezone.now(),
            )


def logged_in(base: str, username: str) -> httpx.Client:
    http = httpx.Client(base_url=base, timeout=60)
    http.get("/accounts/login/")
    response = http.post(
        "/accounts/login/",
        data={
            "username": username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": http.cookies["csrftoken"],
        },
    )
    if response.status_code != 302:
        raise SystemExit(f"login failed for {username}: {response.status_code}")
    return http


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def flood_challenges(base: str) -> dict:
    http = logged_in(base, "attacker")
    statuses: dict[int, int] = {}
    started = time.perf_counter()
    for _ in range(500):
        response = http.post(
            "/play/",
            data={
                "username": "target",
                "game": "thud",
                "timing": "quickfire",
                "days": 3,
                "first": "random",
                "csrfmiddlewaretoken": http.cookies["csrftoken"],
            },
        )
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    elapsed = time.perf_counter() - started
    http.close()
    return {
        "challenges_posted": 500,
        "challenges_created": Challenge.objects.filter(challenger__username="attacker").count(),
        "challenge_emails_queued": OutboundEmail.objects.filter(
            to_address="target@example.org"
        ).count(),
        "challenge_flood_s": round(elapsed, 2),
        "challenge_statuses": statuses,
    }


def flood_seeks(base: str) -> dict:
    User = get_user_model()
    hashed = make_password(PASSWORD)
    seekers = User.objects.bulk_create(
        User(username=f"seeker{i:03d}", password=hashed) for i in range(100)
    )
    expires = timezone.now() + timezone.timedelta(days=7)
    Challenge.objects.bulk_create(
        Challenge(
            challenger=seekers[i % 100],
            game="thud",
            timing="correspondence",
            days=3,
            expires_at=expires,
        )
        for i in range(10_000)
    )
    http = logged_in(base, "reader")
    times, sizes = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        response = http.get("/play/")
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(response.content))
        assert response.status_code == 200, response.status_code
    http.close()
    return {
        "play_page_p50_ms": round(statistics.median(times), 1),
        "play_page_max_ms": round(max(times), 1),
        "play_page_bytes": max(sizes),
    }


def flood_password_resets(base: str) -> dict:
    before = OutboundEmail.objects.filter(to_address="reader@example.org").count()
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(30):
            page = http.get("/accounts/password_reset/").text
            http.post(
                "/accounts/password_reset/",
                data={
                    "email": "reader@example.org",
                    "csrfmiddlewaretoken": CSRF_RE.search(page)[1],
                },
            )
    after = OutboundEmail.objects.filter(to_address="reader@example.org").count()
    return {"password_resets_posted": 30, "password_reset_emails_queued": after - before}


def flood_registrations(base: str) -> dict:
    User = get_user_model()
    with httpx.Client(base_url=base, timeout=60) as http:
        for i in range(30):
            page = http.get("/accounts/register/").text
            http.post(
                "/accounts/register/",
                data={
                    "username": f"newcomer{i:02d}",
                    "password1": "a-long-enough-pass-123",
                    "password2": "a-long-enough-pass-123",
                    "csrfmiddlewaretoken": CSRF_RE.search(page)[1],
                },
            )
            http.cookies.clear()
    return {
        "registrations_posted": 30,
        "accounts_created": User.objects.filter(username__startswith="newcomer").count(),
    }


def home_latency(base: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=60) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            http.get("/")
            out.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)


def flood_pdfs(base: str) -> dict:
    quiet: list[float] = []
    stop = threading.Event()
    reader = threading.Thread(target=home_latency, args=(base, stop, quiet))
    reader.start()
    time.sleep(3)
    stop.set()
    reader.join()

    loaded: list[float] = []
    statuses: list[int] = []
    pdf_ms: list[float] = []

    def fetch() -> None:
        with httpx.Client(base_url=base, timeout=120) as http:
            t0 = time.perf_counter()
            response = http.get(f"/t/{SLUG}/report.pdf")
            while response.status_code == 503:  # "being prepared": retry as the page does
                time.sleep(float(response.headers.get("Retry-After", "2")))
                response = http.get(f"/t/{SLUG}/report.pdf")
            pdf_ms.append((time.perf_counter() - t0) * 1000)
            statuses.append(response.status_code)

    stop = threading.Event()
    reader = threading.Thread(target=home_latency, args=(base, stop, loaded))
    reader.start()
    time.sleep(0.5)
    fetchers = [threading.Thread(target=fetch) for _ in range(8)]
    for f in fetchers:
        f.start()
    for f in fetchers:
        f.join()
    stop.set()
    reader.join()
    return {
        "home_quiet_p50_ms": round(statistics.median(quiet), 1),
        "home_with_8_pdfs_p50_ms": round(statistics.median(loaded), 1),
        "home_with_8_pdfs_p95_ms": round(pct(loaded, 0.95), 1),
        "home_with_8_pdfs_max_ms": round(max(loaded), 1),
        "home_with_8_pdfs_samples": len(loaded),
        "pdf_requests_ok": statuses.count(200),
        "pdf_slowest_ms": round(max(pdf_ms), 1),
    }


def main() -> None:
    build()
    port = free_port()
    proc = start_gunicorn(
        port, workers=3, EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"
    )
    base = f"http://127.0.0.1:{port}"
    figures: dict = {}
    try:
        for step in (
            flood_challenges,
            flood_seeks,
            flood_password_resets,
            flood_registrations,
            flood_pdfs,
        ):
            figures |= step(base)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
