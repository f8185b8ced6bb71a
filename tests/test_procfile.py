"""The processes as deployed (``Procfile``) and as ``make run`` starts them
(``scripts/run.sh``): analyses have a worker of their own, below the bots worker's
priority, so a computer's move never waits behind an analysis (issue 40)."""

from __future__ import annotations

import re
import shlex

from tests.processes import ROOT, procfile_argv


def nice_of(argv: list[str]) -> int:
    return int(argv[argv.index("nice") + 2]) if "nice" in argv else 0


def queues_of(argv: list[str]) -> list[str]:
    return argv[argv.index("-Q") + 1].split(",")


def test_the_procfile_runs_analyses_on_their_own_worker_below_the_bots_worker():
    bots, analysis = procfile_argv("bots"), procfile_argv("analysis")
    assert queues_of(bots) == ["bots"] and queues_of(analysis) == ["analysis"]
    for argv in (bots, analysis):  # one search at a time, nothing held back from others
        assert argv[argv.index("-c") + 1] == "1"
        assert argv[argv.index("--prefetch-multiplier") + 1] == "1"
    assert nice_of(analysis) > nice_of(bots) > nice_of(procfile_argv("clock"))
    # No other process reads either queue.
    for line in (ROOT / "Procfile").read_text().splitlines():
        name = line.partition(":")[0]
        if name not in ("bots", "analysis") and "-Q" in (argv := procfile_argv(name)):
            assert not {"bots", "analysis"} & set(queues_of(argv)), name


def run_sh_workers() -> dict[str, list[str]]:
    """The Celery workers of scripts/run.sh by queue (continued lines joined)."""
    text = (ROOT / "scripts" / "run.sh").read_text().replace("\\\n", " ")
    workers = {}
    for line in text.splitlines():
        if re.search(r"celery -A thud_site worker", line):
            argv = shlex.split(line.split("&")[0])
            workers[queues_of(argv)[0]] = argv
    return workers


def test_make_run_starts_the_analysis_worker_as_the_procfile_does():
    workers = run_sh_workers()
    assert set(workers) >= {"clock", "bots", "analysis", "default"}
    assert nice_of(workers["analysis"]) == nice_of(procfile_argv("analysis"))
    assert nice_of(workers["analysis"]) > nice_of(workers["bots"])
    assert workers["analysis"][workers["analysis"].index("-c") + 1] == "1"
