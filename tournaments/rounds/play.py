"""A round in play: publishing and unpublishing it, the start of a match's play, and
closing the tournament.

A published round is live; its pairings are *frozen* once any of its matches has play (a
battle or a result version), and unpublishing it is then refused
(``tournaments.rules.lifecycle``). The tournament closes when every round is published
and every match finished.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.events import signals
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Tournament
from tournaments.models.wording import say
from tournaments.rating.update import after_rounds_changed
from tournaments.rounds.locks import RoundError, lock_tournament, round_facts
from tournaments.rules import lifecycle


def _transition(
    round_: Round,
    step: Callable[[lifecycle.RoundFacts], str],
    *,
    published_at: datetime | None,
) -> Round:
    """Lock the tournament and the round, apply a lifecycle step, save the new status
    (and ``published_at`` when the round is now published)."""
    lock_tournament(round_.tournament)
    bump_state_version(round_.tournament_id)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    try:
        round_.status = step(round_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise RoundError(say(exc)) from None
    round_.published_at = published_at if round_.status == Round.Status.PUBLISHED else None
    round_.save(update_fields=["status", "published_at"])
    return round_


def publish_round(round_: Round, *, now: datetime) -> Round:
    with transaction.atomic():
        round_ = _transition(round_, lifecycle.publish, published_at=now)
        round_id = round_.pk
        transaction.on_commit(
            lambda: signals.round_published.send(sender=Round, round_id=round_id, now=now)
        )
        tournament = round_.tournament
        if tournament.status == Tournament.Status.SETUP:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        return round_


def unpublish_round(round_: Round) -> Round:
    """Take a round back to draft; refused once play has begun in it (lifecycle)."""
    with transaction.atomic():
        return _transition(round_, lifecycle.unpublish, published_at=None)


def begin_play(match: Match, *, players: tuple[int, int], now: datetime) -> Match:
    """Freeze ``match`` for play: the one way ``games`` tells a tournament a battle starts.

    Locks the round (the same lock as unpublish and result writes), checks that the
    round may be played and that ``players`` (A, B) are still the match's players, and
    marks the match as started. Call inside the transaction that creates the battles.
    """
    round_ = Round.objects.select_for_update().get(pk=match.round_id)
    try:
        lifecycle.check_playable(lifecycle.RoundFacts(number=round_.number, status=round_.status))
    except lifecycle.LifecycleError as exc:
        raise RoundError(say(exc)) from None
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.is_bye:
        raise RoundError(_("A bye has no battles."))
    if (match.player_a_id, match.player_b_id) != players:
        raise RoundError(_("The pairing of this match changed; reload the page."))
    if match.play_started_at is None:
        match.play_started_at = now
        match.save(update_fields=["play_started_at"])
    return match


def close_tournament(tournament: Tournament, *, now: datetime) -> Tournament:
    """Finish the tournament: every round must be published and complete. The last round is
    finished now, so its results are rated (``tournaments.rating``)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise RoundError(_("The tournament is already closed."))
        bump_state_version(tournament.pk)
        rounds = list(tournament.round_set.prefetch_related("matches"))
        if any(r.status == Round.Status.DRAFT for r in rounds):
            raise RoundError(_("A draft round is still open; publish or discard it first."))
        if any(not m.is_finished for r in rounds for m in r.matches.all()):
            raise RoundError(_("Some matches still have no confirmed result."))
        tournament.round_set.exclude(status=Round.Status.FINISHED).update(
            status=Round.Status.FINISHED, finished_at=now
        )
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        after_rounds_changed(tournament, now=now)
        return tournament
