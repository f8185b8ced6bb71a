from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from games.thud import CapturePolicy, Position
from games.thud.core.perft import perft, perft_slow
from tests.games.thud.naive import naive_perft

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class Record:
    id: str
    position: Position
    policy: CapturePolicy
    depth: int
    nodes: int


def load_records() -> list[Record]:
    records = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        name = position = None
        policy = CapturePolicy.SUBSET
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                name, policy = value, CapturePolicy.SUBSET
            elif key == "position":
                position = Position.from_compact(value)
            elif key == "policy":
                policy = CapturePolicy(value)
            elif key == "perft":
                depth, nodes = value.split()
                assert name and position, f"{path}: perft line before id/position"
                records.append(Record(name, position, policy, int(depth), int(nodes)))
            else:
                raise AssertionError(f"{path}: unknown line {line!r}")
    return records


RECORDS = load_records()
SHALLOW = [r for r in RECORDS if r.depth <= 2]
DEEP = [r for r in RECORDS if r.depth > 2]


def _id(record: Record) -> str:
    return f"{record.id}-d{record.depth}"


def test_perft_files_pin_the_opening_numbers():
    opening = {r.depth: r.nodes for r in RECORDS if r.id == "opening"}
    assert opening == {1: 656, 2: 22624, 3: 14142624}


@pytest.mark.parametrize("record", SHALLOW, ids=_id)
def test_perft_shallow(record: Record):
    assert perft(record.position, record.depth, record.policy) == record.nodes


@pytest.mark.parametrize("record", [r for r in SHALLOW if r.depth == 1], ids=_id)
def test_perft_depth_one_matches_public_api_and_naive_generator(record: Record):
    assert len(record.position.legal_moves(record.policy)) == record.nodes
    assert naive_perft(record.position, 1, record.policy) == record.nodes


@pytest.mark.parametrize("record", [r for r in SHALLOW if r.depth == 2], ids=_id)
def test_bulk_counting_matches_move_by_move_perft(record: Record):
    assert perft_slow(record.position, 2, record.policy) == record.nodes


@pytest.mark.slow
@pytest.mark.parametrize("record", DEEP, ids=_id)
def test_perft_deep(record: Record):
    assert perft(record.position, record.depth, record.policy) == record.nodes


def test_perft_depth_zero_is_one_node():
    assert perft(Position.initial(), 0) == 1


def test_perft_rejects_negative_depth():
    with pytest.raises(ValueError):
        perft(Position.initial(), -1)
