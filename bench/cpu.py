"""Server CPU from the processes' own accounting (issue 44: cost, not only latency).

A latency on a two-core machine shared with other work says as much about the other work
as about the site; the CPU-seconds the kernel charged to the server's processes do not.
``tree_cpu_s`` sums ``utime + stime`` (and ``cutime + cstime``: children already reaped,
e.g. a gunicorn worker that was replaced) of some processes and all their live
descendants, from ``/proc/<pid>/stat``. Divide the CPU of a phase that does one kind of
operation by the operations done, less what the same phase costs idle, and the figure is
a cost per operation that holds on a noisy machine (``bench/mixed.py --only``).

Linux only. Plain functions: ``parse_stat`` and ``tree_cpu_s`` are pure (tested in
``tests/test_bench_cpu.py``), ``read_stats`` reads ``/proc``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Stat:
    pid: int
    ppid: int
    ticks: int  # utime + stime + cutime + cstime


def parse_stat(text: str) -> Stat:
    """One ``/proc/<pid>/stat`` line. The command name (field 2) may hold spaces and
    parentheses, so the fields are counted from its last ``)``.

    >>> parse_stat("42 (gunicorn: worker [a b]) S 7 1 1 0 -1 0 0 0 0 0 11 5 3 2 20 0")
    Stat(pid=42, ppid=7, ticks=21)
    """
    head, _, tail = text.rpartition(")")
    fields = tail.split()
    # fields[0] is the state (stat field 3): ppid is field 4, utime..cstime 14..17.
    return Stat(
        pid=int(head.split("(", 1)[0]),
        ppid=int(fields[1]),
        ticks=sum(int(f) for f in fields[11:15]),
    )


def read_stats(proc: Path = Path("/proc")) -> dict[int, Stat]:
    """Every live process's ``Stat`` (processes that end while being read are skipped)."""
    stats = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stats[int(entry.name)] = parse_stat((entry / "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue
    return stats


def tree_cpu_s(stats: Mapping[int, Stat], roots: Iterable[int], ticks_per_s: int = TICKS) -> float:
    """CPU-seconds of ``roots`` and all their live descendants in ``stats``.

    >>> s = {1: Stat(1, 0, 100), 2: Stat(2, 1, 50), 3: Stat(3, 2, 25), 4: Stat(4, 0, 999)}
    >>> tree_cpu_s(s, [2], ticks_per_s=100)
    0.75
    >>> tree_cpu_s(s, [2, 3], ticks_per_s=100)  # a pid named twice is counted once
    0.75
    """
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    seen: set[int] = set()
    todo = [pid for pid in roots if pid in stats]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        todo.extend(children.get(pid, ()))
    return sum(stats[pid].ticks for pid in seen) / ticks_per_s


def cpu_s(roots: Iterable[int]) -> float:
    """``tree_cpu_s`` of ``roots`` now, read from ``/proc``."""
    return tree_cpu_s(read_stats(), roots)


def groups_cpu_s(groups: Mapping[str, Iterable[int]]) -> dict[str, float]:
    """``tree_cpu_s`` of each named group of roots, from one read of ``/proc``."""
    stats = read_stats()
    return {name: tree_cpu_s(stats, roots) for name, roots in groups.items()}
