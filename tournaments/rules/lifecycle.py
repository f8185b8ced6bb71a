"""The round lifecycle as one state machine: draft → published → finished.

Terminology and invariants (DESIGN.md §7a):
- A *draft* round is the organiser's working copy: pairings may be edited (swap, bye)
  or discarded, and nothing in it can be played, entered or seen publicly.
- A *published* round is live: players see their pairing, battles are started and
  results entered. Its pairings are *frozen* once any of its matches has *play*
  (a battle or a result version): unpublishing would let the organiser swap players
  under results that were played by others, so it is refused. The way out of a wrong
  pairing after play has begun is a correction (two people) or an organiser's decision,
  each recorded with a reason.
- A *finished* round is history: the next round has been paired or the tournament
  closed. Corrections of its results are still allowed; new play is not started.

Every transition is a pure function of ``RoundFacts`` that returns the new status or
raises ``LifecycleError`` with a message for the organiser (English, translated by the
adapter: ``tournaments.rules.messages``); the ORM adapters (``tournaments/rounds/draw.py``,
``play.py``, ``edits.py``) load the facts under a row lock and write the result, the same
split as ``games/rules/clock.py`` and ``games/battles/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.messages import RuleError, _

DRAFT = "draft"
PUBLISHED = "published"
FINISHED = "finished"

STATES = (DRAFT, PUBLISHED, FINISHED)
# Rounds whose pairings and results are public and count in the standings.
PUBLIC = (PUBLISHED, FINISHED)


class LifecycleError(RuleError):
    """A transition the round's state does not allow; the message says why."""


@dataclass(frozen=True)
class RoundFacts:
    """What the guards need to know about one round."""

    number: int
    status: str
    has_play: bool = False  # some match has a battle or a result version
    is_last: bool = True  # no later round exists

    def __post_init__(self) -> None:
        if self.status not in STATES:
            raise ValueError(f"unknown round status {self.status!r}")


def is_public(status: str) -> bool:
    """Pairings and results of the round may be shown to everyone.

    >>> is_public(DRAFT), is_public(PUBLISHED), is_public(FINISHED)
    (False, True, True)
    """
    return status in PUBLIC


def publish(facts: RoundFacts) -> str:
    if facts.status != DRAFT:
        raise LifecycleError(_("Only a draft round can be published."))
    return PUBLISHED


def unpublish(facts: RoundFacts) -> str:
    if facts.status != PUBLISHED:
        raise LifecycleError(_("Only a published round can be unpublished."))
    if not facts.is_last:
        raise LifecycleError(_("A later round exists; only the last round can be unpublished."))
    if facts.has_play:
        raise LifecycleError(
            _(
                "Play has begun in round %(n)d (a battle was started or a result entered), so "
                "its pairings are frozen. Correct a result instead, with a reason."
            ),
            {"n": facts.number},
        )
    return DRAFT


def finish(facts: RoundFacts) -> str:
    if facts.status == DRAFT:
        raise LifecycleError(
            _("Round %(n)d is not published yet; publish or discard it first."),
            {"n": facts.number},
        )
    return FINISHED


def check_editable(facts: RoundFacts) -> None:
    """Swapping players, moving the bye or discarding: drafts only."""
    if facts.status != DRAFT:
        raise LifecycleError(
            _("Only a draft round can be edited; round %(n)d is already published."),
            {"n": facts.number},
        )
    if facts.has_play:  # cannot happen through the workflow; guards old or hand-made data
        raise LifecycleError(_("Play has begun in this round, so its pairings are frozen."))


def check_playable(facts: RoundFacts) -> None:
    """Starting a battle: published rounds only."""
    if facts.status == DRAFT:
        raise LifecycleError(_("This round is not published yet; nothing can be played in it."))
    if facts.status == FINISHED:
        raise LifecycleError(_("This round is finished; no new battle can be started in it."))


def check_results(facts: RoundFacts) -> None:
    """Entering, confirming or correcting a result: published or finished rounds."""
    if facts.status == DRAFT:
        raise LifecycleError(_("This round is not published yet; no result can be entered in it."))
