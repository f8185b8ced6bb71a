"""Who is paired in a round: the one place that decides it (pure: no Django).

Terms:

- *late entry*: an entry that joins at round ``late_from_round``; not paired before it.
- *withdrawn*: not paired from round ``withdrawn_from_round`` on (for good, unless reinstated).
- *absent*: with check-in required, an entry that has not checked in. It is not withdrawn:
  once checked in (at any time), it is paired from the next round paired, with the points
  it has (0 when it missed round 1; a round not played gives no bye and no points).
- *not playing round N* (``skipped_rounds``): the entry sits out round N only; no bye.

>>> a = Attendance(entry_id=1, checked_in=False)
>>> plays_in(a, 1, check_in_required=True), plays_in(a, 1, check_in_required=False)
(False, True)
>>> players_of_round([a, Attendance(2, True, skipped_rounds=frozenset({3}))], 3,
...                  check_in_required=False)
[1]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Attendance:
    """What decides whether one entry plays a round."""

    entry_id: int
    checked_in: bool
    late_from_round: int | None = None
    withdrawn_from_round: int | None = None
    skipped_rounds: frozenset[int] = field(default_factory=frozenset)


def plays_in(a: Attendance, round_number: int, *, check_in_required: bool) -> bool:
    """Whether the entry is paired in round ``round_number``."""
    if check_in_required and not a.checked_in:
        return False
    if a.late_from_round is not None and round_number < a.late_from_round:
        return False
    if a.withdrawn_from_round is not None and round_number >= a.withdrawn_from_round:
        return False
    return round_number not in a.skipped_rounds


def players_of_round(
    attendances: Iterable[Attendance], round_number: int, *, check_in_required: bool
) -> list[int]:
    """The ids of the entries paired in round ``round_number``, in the given order."""
    return [
        a.entry_id
        for a in attendances
        if plays_in(a, round_number, check_in_required=check_in_required)
    ]
