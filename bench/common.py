"""Set-up the HTTP benchmarks share: a fresh database of their own and gunicorn as the
Procfile runs it. Imported by the scripts beside it (``python bench/NAME.py``)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]


def fresh_database(suffix: str) -> str:
    """``<DATABASE_URL name>_<suffix>``, dropped and created empty; its URL."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/thud")
    parsed = urlparse(url)
    name = f"{parsed.path.lstrip('/') or 'thud'}_{suffix}"
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parsed._replace(path=f"/{name}").geturl()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, *, workers: int, **env: str) -> subprocess.Popen:
    """gunicorn on ``port`` with ``workers`` sync workers, once ``/`` answers 200."""
    import httpx

    proc = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "front.wsgi:application",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=dict(
            os.environ,
            DJANGO_DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DB_CONN_MAX_AGE="60",
            **env,
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120  # workers booting on a busy two-core machine
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"gunicorn did not start: {proc.stderr.read().decode()[-2000:]}")
