"""bench/cpu.py: a process tree's CPU from /proc/<pid>/stat (the benchmarks' cost per
operation), parsed and summed as the kernel's accounting says."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "bench_cpu", Path(__file__).resolve().parents[1] / "bench" / "cpu.py"
)
assert _spec is not None and _spec.loader is not None
cpu = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = cpu  # its dataclass looks its module up
_spec.loader.exec_module(cpu)


def test_a_command_name_with_spaces_and_parentheses_does_not_shift_the_fields():
    line = "42 (gunicorn: worker (a) b) S 7 1 1 0 -1 0 0 0 0 0 11 5 3 2 20 0 1 0 99"
    assert cpu.parse_stat(line) == cpu.Stat(pid=42, ppid=7, ticks=11 + 5 + 3 + 2)


def test_a_tree_counts_every_live_descendant_once_and_nothing_else():
    stats = {
        1: cpu.Stat(1, 0, 1000),  # init: not ours
        10: cpu.Stat(10, 1, 100),  # gunicorn master
        11: cpu.Stat(11, 10, 40),  # its workers
        12: cpu.Stat(12, 10, 60),
        13: cpu.Stat(13, 12, 5),  # a worker's child
        20: cpu.Stat(20, 1, 7),  # uvicorn
        30: cpu.Stat(30, 1, 500),  # someone else's
    }
    assert cpu.tree_cpu_s(stats, [10], ticks_per_s=100) == 2.05
    assert cpu.tree_cpu_s(stats, [10, 12, 20], ticks_per_s=100) == 2.12
    assert cpu.tree_cpu_s(stats, [99], ticks_per_s=100) == 0  # gone: nothing


def test_this_process_burning_cpu_is_seen_in_its_own_accounting():
    before = cpu.cpu_s([os.getpid()])
    end = time.process_time() + 0.1
    while time.process_time() < end:
        pass
    assert cpu.cpu_s([os.getpid()]) - before >= 0.05  # tick-grained: 10 ms
