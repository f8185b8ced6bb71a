"""Perft regression for Cavalli: pinned counts for pinned seeds (tests/games/cavalli/perft)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from games.cavalli import Board, Position
from games.cavalli.core.perft import perft, perft_slow
from tests.games.cavalli.cavalli_naive import naive_perft, random_playout, replay

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class Record:
    id: str
    position: Position
    depth: int
    nodes: int


def load_records() -> list[Record]:
    records = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        name, board, history = None, None, []
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                name, board, history = value, None, []
            elif key == "board":
                kind, _, seed = value.partition(" ")
                assert kind == "seed", line
                board = Board.from_seed(int(seed))
            elif key == "history":
                history = [m.strip() for m in value.split(",")]
            elif key == "perft":
                depth, nodes = value.split()
                assert name and board, line
                records.append(Record(name, replay(board, history), int(depth), int(nodes)))
            else:
                raise AssertionError(f"unknown line in {path.name}: {line}")
    return records


RECORDS = load_records()


def _params(records):
    return [
        pytest.param(r, id=f"{r.id}-d{r.depth}", marks=[pytest.mark.slow] if r.depth > 4 else [])
        for r in records
    ]


def test_the_records_are_loaded():
    assert {r.id for r in RECORDS} >= {"seed-1", "seed-7", "seed-42", "seed-7-midgame"}


@pytest.mark.parametrize("record", _params(RECORDS))
def test_perft(record):
    assert perft(record.position, record.depth) == record.nodes


@pytest.mark.parametrize("record", _params([r for r in RECORDS if r.depth <= 3]))
def test_perft_slow_matches_the_record(record):
    assert perft_slow(record.position, record.depth) == record.nodes


@pytest.mark.parametrize("record", _params([r for r in RECORDS if r.depth <= 2]))
def test_naive_perft_matches_the_record(record):
    assert naive_perft(record.position, record.depth) == record.nodes


def test_perft_0_is_one_and_a_finished_game_has_no_moves():
    pos = random_playout(3, 3, 200)  # played until the end
    assert pos.outcome() is not None
    assert perft(pos, 0) == 1
    assert perft(pos, 1) == perft(pos, 3) == 0


def test_perft_rejects_a_negative_depth():
    with pytest.raises(ValueError):
        perft(Position.initial(Board.from_seed(1)), -1)
