"""The real-process harness: free ports, throwaway redis-servers, supervised Celery
workers, beat, uvicorn and gunicorn subprocesses against the real Redis and the test
database (reference/clocks-architecture.md §6.4). Plain helpers; the fixtures built on
them are in ``tests/fixtures/processes.py``."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
CLOCK_REDIS_URL = os.environ.get("THUD_CLOCK_TEST_REDIS_URL", "redis://127.0.0.1:6379/3")


def use_broker(url: str) -> None:
    """Point this process's Celery producer at ``url`` (the pools are cached)."""
    from thud_site.celery import app

    # With namespace="CELERY" the configuration keys carry the prefix.
    app.conf["CELERY_BROKER_URL"] = url
    app.conf["CELERY_BROKER_WRITE_URL"] = None
    assert app.conf.broker_url == url
    app._pool = None
    app.amqp._producer_pool = None


def wait_for(predicate, *, timeout: float, interval: float = 0.1, what: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def start_redis(port: int) -> subprocess.Popen:
    """A throwaway redis-server (no persistence) in its own session, once it answers."""
    proc = subprocess.Popen(
        [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for(lambda: port_open(port), timeout=10, what="redis-server")
    return proc


@contextlib.contextmanager
def busy_processes(n: int, *, nice: int = 0):
    """``n`` processes that only burn CPU (a stand-in for pages, imports, other tenants),
    killed on exit whatever happens."""
    procs = [
        subprocess.Popen(
            [*(["nice", "-n", str(nice)] if nice else []), sys.executable, "-c", "while 1: pass"],
            start_new_session=True,
        )
        for _ in range(n)
    ]
    try:
        yield procs
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


class RedisServer:
    """Our own redis-server on a spare port, to kill and start on purpose."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.procs = [start_redis(self.port)]

    def kill(self) -> None:
        os.killpg(self.procs[-1].pid, signal.SIGKILL)
        self.procs[-1].wait(timeout=10)

    def start(self) -> None:
        self.procs.append(start_redis(self.port))

    def restart(self, down_s: float) -> float:
        t = time.monotonic()
        self.kill()
        time.sleep(down_s)
        self.start()
        return time.monotonic() - t

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)


class Proc:
    """One supervised subprocess in its own session, so it can be SIGKILLed whole."""

    def __init__(self, name: str, argv: list[str], env: dict, log_dir: Path, ready: str):
        self.name, self.argv, self.env, self.ready = name, argv, env, ready
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.wanted = False
        self.restarts = 0

    def start(self, *, wait: bool = True) -> None:
        self.wanted = True
        log = open(self.log_path, "ab")  # noqa: SIM115 - owned by the child
        self._offset = self.log_path.stat().st_size
        self.proc = subprocess.Popen(
            self.argv,
            env=self.env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        def ready() -> bool:
            with open(self.log_path, "rb") as f:
                f.seek(self._offset)
                return self.ready.encode() in f.read()

        wait_for(ready, timeout=timeout, what=f"{self.name} to be ready")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, *, restart: bool = False) -> None:
        """SIGKILL the whole process group; the supervisor restarts it if ``restart``."""
        self.wanted = restart
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        self.ask_to_stop()
        self.wait_stopped()

    def ask_to_stop(self) -> None:
        """SIGTERM (a warm shutdown); ``wait_stopped`` waits for it."""
        self.wanted = False
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)

    def wait_stopped(self) -> None:
        """Up to 10 s for the process to end, then SIGKILL."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


def uvicorn_proc(
    env: dict, log_dir: Path, port: int, *options: str, name: str = "uvicorn", nice: int = 0
) -> Proc:
    """The ASGI server (SSE endpoint) as a supervised subprocess; not started yet."""
    argv = [
        *(["nice", "-n", str(nice)] if nice else []),
        str(VENV_BIN / "uvicorn"),
        "front.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--timeout-graceful-shutdown",
        "1",
        *options,
    ]
    return Proc(name, argv, env, log_dir, "Uvicorn running")


def gunicorn_proc(
    env: dict, log_dir: Path, port: int, workers: int = 3, name: str = "gunicorn", nice: int = 0
) -> Proc:
    """The WSGI server (pages, POSTs) as the Procfile runs it; not started yet. Ready
    when the port answers (``--log-level warning`` logs nothing on start)."""
    argv = [
        *(["nice", "-n", str(nice)] if nice else []),
        str(VENV_BIN / "gunicorn"),
        "front.wsgi:application",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    return Proc(name, argv, {**env, "DB_CONN_MAX_AGE": "60"}, log_dir, "")


def procfile_argv(process: str) -> list[str]:
    """The words of ``process``'s command line in the Procfile."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            return shlex.split(command)
    raise LookupError(f"no {process!r} process in the Procfile")


def procfile_env(process: str) -> dict[str, str]:
    """The environment assignments (``NAME=value``) before ``process``'s command in the
    Procfile, so the harness gives its processes what the deployment gives them."""
    env = {}
    for word in procfile_argv(process):
        key, eq, value = word.partition("=")
        if not eq or not key.isidentifier():
            break
        env[key] = value
    return env


def procfile_options(process: str) -> list[str]:
    """The Celery worker options of ``process`` in the Procfile (queue and name are the
    harness's own), so tests and benchmarks run the clock worker as it is deployed."""
    argv = procfile_argv(process)
    argv = argv[argv.index("worker") + 1 :]
    options = []
    while argv:
        option = argv.pop(0)
        if option in ("-Q", "-n"):
            argv.pop(0)
        else:
            options.append(option)
    return options


def default_worker_proc(env: dict, queue: str, log_dir: Path, name: str = "default-worker") -> Proc:
    """A Celery worker on ``queue`` with the Procfile's ``worker`` options (imports, the
    outbox: the default queue's jobs), against ``env``'s database; not started yet."""
    argv = [str(VENV_BIN / "celery"), "-A", "thud_site", "worker", "-Q", queue]
    argv += [*procfile_options("worker"), "-n", f"{queue}@%h", "-l", "INFO"]
    return Proc(name, argv, env | procfile_env("worker"), log_dir, "ready.")


class ClockCluster:
    """Celery workers + beat against a real Redis, supervised like systemd would.

    The workers run with the Procfile's ``clock`` options (``-O fair``, prefetch 1,
    its concurrency) unless ``options`` says otherwise. ``bots``: also a worker on the
    cluster's own bots queue with the Procfile's ``bots`` options (the computer's moves);
    ``analysis``: also one on its own analysis queue with the Procfile's ``analysis``
    options (finished battles' analyses).
    """

    def __init__(
        self,
        tmp: Path,
        redis_url: str,
        db_name: str,
        workers: int = 1,
        options: list[str] | None = None,
        bots: bool = False,
        analysis: bool = False,
    ):
        from django.db import connection

        self.queue = f"clocktest-{uuid.uuid4().hex[:10]}"
        self.bots_queue = f"{self.queue}-bots"
        self.analysis_queue = f"{self.queue}-analysis"
        self.prefix = f"test-{uuid.uuid4().hex[:8]}:"
        self.redis_url = redis_url
        sd = connection.settings_dict
        db_url = (
            f"postgres://{sd['USER']}:{sd['PASSWORD'] or ''}@{sd['HOST']}:{sd['PORT']}/{db_name}"
        )
        if connection.vendor == "sqlite":
            db_url = f"sqlite:///{db_name}"
        self.env = os.environ | {
            "DATABASE_URL": db_url,
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "THUD_CLOCK_QUEUE": self.queue,
            "THUD_BOTS_QUEUE": self.bots_queue,
            "THUD_ANALYSIS_QUEUE": self.analysis_queue,
            # Beat's other entries (outbox retries, offer expiry) go to a private default
            # queue, deleted with the rest in close(), never to the machine's "default".
            "THUD_CELERY_DEFAULT_QUEUE": f"{self.queue}-default",
            "THUD_EVENTS_PREFIX": self.prefix,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "WARNING",
        }
        celery = [str(VENV_BIN / "celery"), "-A", "thud_site"]
        self.workers = [
            Proc(
                f"worker{i}",
                celery
                + [
                    "worker",
                    "-Q",
                    self.queue,
                    *(procfile_options("clock") if options is None else options),
                    "-n",
                    f"{self.queue}-{i}@%h",
                    "-l",
                    "INFO",
                ],
                self.env | procfile_env("clock"),
                tmp,
                "ready.",
            )
            for i in range(workers)
        ]
        for wanted, process, queue in (
            (bots, "bots", self.bots_queue),
            (analysis, "analysis", self.analysis_queue),
        ):
            if wanted:
                self.workers.append(self._worker(process, queue, celery, tmp))
        self.beat = Proc(
            "beat",
            celery
            + [
                "beat",
                "-s",
                str(tmp / "beat-schedule"),
                "-l",
                "INFO",
            ],
            self.env,
            tmp,
            "beat: Starting",
        )
        self._stop = threading.Event()
        self._supervisor = threading.Thread(target=self._supervise, daemon=True)

    def _worker(self, process: str, queue: str, celery: list[str], tmp: Path) -> Proc:
        """A worker on ``queue`` with the Procfile's options of ``process``."""
        argv = [
            *celery,
            "worker",
            "-Q",
            queue,
            *procfile_options(process),
            "-n",
            f"{queue}@%h",
            "-l",
            "INFO",
        ]
        return Proc(process, argv, self.env | procfile_env(process), tmp, "ready.")

    def worker(self, name: str) -> Proc:
        """The worker process called ``name`` (``bots``, ``analysis``, ``worker0``…)."""
        return next(p for p in self.workers if p.name == name)

    def _supervise(self) -> None:
        while not self._stop.wait(0.2):
            for p in (*self.workers, self.beat):
                if p.wanted and p.proc is not None and p.proc.poll() is not None:
                    p.restarts += 1
                    p.start(wait=False)

    def start(self) -> ClockCluster:
        for p in (*self.workers, self.beat):
            p.start(wait=False)
        for p in (*self.workers, self.beat):
            p.wait_ready()
        self._supervisor.start()
        return self

    def close(self) -> None:
        self._stop.set()
        # Every process asked at once, then waited for: their warm shutdowns overlap.
        for p in (*self.workers, self.beat):
            p.ask_to_stop()
        for p in (*self.workers, self.beat):
            p.wait_stopped()
        import redis

        with contextlib.suppress(redis.RedisError):
            r = redis.Redis.from_url(self.redis_url, socket_timeout=2)
            for key in r.scan_iter(f"{self.queue}*"):
                r.delete(key)
            # A message a killed worker held stays in kombu's "unacked" hash, and any
            # worker on this Redis database restores it later into its queue (deleted
            # above, so never read again): drop ours too.
            for tag, raw in r.hscan_iter("unacked"):
                with contextlib.suppress(ValueError, TypeError, IndexError):
                    if str(json.loads(raw)[2]).startswith(self.queue):
                        r.hdel("unacked", tag)
                        r.zrem("unacked_index", tag)
