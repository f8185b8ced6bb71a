"""How far a tournament has got, as its report says it: the one place that decides the podium.

Terminology and invariants:
- A report is *final* when the tournament is closed (``Tournament.Status.FINISHED``), or when
  a tournament without a knockout stage has every planned round public and every match of
  them finished (a bye or a confirmed result): nothing can change its standings any more but
  a correction. Only a final report shows a *podium*.
- Before that it shows the *leaders* "after round N of M" (round N complete) or "in round N
  of M" (results of round N still awaited); with no public round, neither.
- A tournament with a knockout stage is final only once closed: its main-stage rounds being
  done says nothing about who wins the bracket.

Pure: plain values in, a ``Stage`` out (``loaders.report_context`` feeds it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    final: bool
    round: int  # the last public round; 0 before any
    of: int  # the rounds planned, at least ``round``
    complete: bool  # every match of ``round`` is finished

    @property
    def podium(self) -> bool:
        return self.final

    @property
    def leaders(self) -> bool:
        """Not final, but some round is public: show the leaders so far."""
        return not self.final and self.round > 0


def report_stage(
    *, closed: bool, knockout: bool, planned: int, rounds: Mapping[int, bool]
) -> Stage:
    """The stage of a tournament whose public rounds are ``rounds`` (number: complete?).

    >>> report_stage(closed=False, knockout=False, planned=4, rounds={1: True})
    Stage(final=False, round=1, of=4, complete=True)
    >>> report_stage(closed=False, knockout=False, planned=2, rounds={1: True, 2: True}).final
    True
    >>> report_stage(closed=False, knockout=False, planned=2, rounds={1: True, 2: False}).final
    False
    >>> report_stage(closed=False, knockout=True, planned=2, rounds={1: True, 2: True}).final
    False
    >>> report_stage(closed=True, knockout=True, planned=2, rounds={1: True, 2: True}).final
    True
    """
    last = max(rounds, default=0)
    done = all(rounds.values())
    final = closed or (not knockout and last >= planned > 0 and done)
    return Stage(final=final, round=last, of=max(planned, last), complete=rounds.get(last, False))
