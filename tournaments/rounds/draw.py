"""The draw: pairing the next round as a draft (Swiss, round robin, or the knockout
bracket and its playoffs), and discarding a draft.

The next round is paired only when every earlier round is published and every match in it
is finished (a bye, or a confirmed result); never beyond ``Tournament.rounds``. Knockout
rounds (single elimination, or a Swiss top cut after the last Swiss round) and their
playoff rounds continue the round numbers; ``tournaments.pairing.elimination`` decides what
they are. The pure pairing functions choose; this module loads their records and writes
the rounds and matches in one transaction with the tournament row locked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models.entries import ForbiddenPair, RoundAbsence
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Entry, Tournament
from tournaments.models.wording import say
from tournaments.pairing import elimination
from tournaments.pairing.attendance import Attendance, players_of_round
from tournaments.pairing.first_round import SeedFold, seed_fold
from tournaments.pairing.records import History, Pairing, PairingUserError, PlayerRecord
from tournaments.pairing.round_robin import pair_round_robin
from tournaments.pairing.swiss import pair_swiss
from tournaments.rating.update import after_rounds_changed
from tournaments.rounds import bracket
from tournaments.rounds.locks import RoundError, lock_tournament, round_facts
from tournaments.rounds.reads import counted_matches, load_standings, standings_from
from tournaments.rules import lifecycle

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _check_can_pair(tournament: Tournament, rounds: list[Round]) -> int:
    if tournament.status == Tournament.Status.FINISHED:
        raise RoundError(_("The tournament is closed."))
    if rounds:
        last = rounds[-1]
        if last.status == Round.Status.DRAFT:
            raise RoundError(
                _("Round %(n)d is not published yet; publish or discard it first.")
                % {"n": last.number}
            )
        open_tables = [m.table for m in last.matches.all() if not m.is_finished]
        if open_tables:
            raise RoundError(
                _("Round %(n)d still has unconfirmed results (tables %(tables)s).")
                % {"n": last.number, "tables": ", ".join(map(str, open_tables))}
            )
    return rounds[-1].number + 1 if rounds else 1


def _history(tournament: Tournament, matches) -> tuple[History, dict[int, list[str]], dict]:
    played: set[frozenset[int]] = set()
    sides: dict[int, list[str]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    for m in matches:
        if m.player_b_id is None:
            byes[m.player_a_id] += 1
            continue
        played.add(frozenset((m.player_a_id, m.player_b_id)))
        sides[m.player_a_id].append("first")
        sides[m.player_b_id].append("second")
    forbidden = {
        frozenset(pair)
        for pair in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "entry_a_id", "entry_b_id"
        )
    }
    return History(frozenset(played), frozenset(forbidden)), sides, byes


def active_entries(tournament: Tournament, entries: list[Entry], number: int) -> list[Entry]:
    """The entries paired in round ``number`` (``pairing.attendance`` decides), in order."""
    skipped: dict[int, set[int]] = defaultdict(set)
    for entry_id, round_number in RoundAbsence.objects.filter(
        entry__tournament=tournament
    ).values_list("entry_id", "round_number"):
        skipped[entry_id].add(round_number)
    records = [
        Attendance(
            entry_id=e.pk,
            checked_in=e.checked_in,
            late_from_round=e.late_from_round,
            withdrawn_from_round=e.withdrawn_from_round,
            skipped_rounds=frozenset(skipped[e.pk]),
        )
        for e in entries
    ]
    ids = set(players_of_round(records, number, check_in_required=tournament.check_in_required))
    return [e for e in entries if e.pk in ids]


def _knockout_pairings(
    tournament: Tournament, number: int, entries: list[Entry], second_side_first: Collection[int]
) -> tuple[str, list[Pairing]]:
    """The next knockout or playoff round; the first one seeds the bracket from the
    main-stage standings (the top cut of the active players) and stores the seeds."""
    loaded = bracket.load_bracket(tournament, public_only=False)
    if loaded.bracket.started:
        try:
            return elimination.next_round(
                loaded.bracket, loaded.seeds, second_side_first=second_side_first
            )
        except elimination.KnockoutError as exc:
            if exc.reason == "finished":
                raise RoundError(_("The final has been played.")) from None
            raise RoundError(_("The knockout round still has matches without a result.")) from None
    active = {e.pk for e in active_entries(tournament, entries, number)}
    ranked = [r.entry_id for r in load_standings(tournament) if r.entry_id in active]
    cut = tournament.top_cut or len(ranked)
    if len(ranked) < max(cut, 2):
        raise RoundError(
            _("The knockout needs %(cut)d active players; only %(n)d are active.")
            % {"cut": max(cut, 2), "n": len(ranked)}
        )
    seeds, pairings = elimination.first_round(ranked[:cut])
    Entry.objects.filter(tournament=tournament).update(knockout_seed=None)
    for pk, seed in seeds.items():
        Entry.objects.filter(pk=pk).update(knockout_seed=seed)
    return elimination.KNOCKOUT, pairings


def _pairings(tournament, number, entries, matches, rounds) -> list[Pairing]:
    active = active_entries(tournament, entries, number)
    if len(active) < 2:
        if tournament.check_in_required:
            raise RoundError(_("At least two checked-in players are needed to pair a round."))
        raise RoundError(_("At least two active players are needed to pair a round."))
    fmt = tournament.format
    if fmt == Tournament.Format.ROUND_ROBIN:
        # The circle is built over every entry so it stays the same from round to round;
        # an inactive player's opponent gets a bye.
        circle = [e.pk for e in sorted(entries, key=lambda e: (e.seed, e.pk))]
        if number > len(circle) - (1 - len(circle) % 2):
            raise RoundError(_("Every player has already met every other player."))
        raw = pair_round_robin(circle, round_number=number, seed=tournament.pairing_seed)
        ids = {e.pk for e in active}
        result: list[Pairing] = []
        for p in raw:
            present = [x for x in (p.a, p.b) if x is not None and x in ids]
            if len(present) == 2:
                result.append(p)
            elif present:
                result.append(Pairing(0, present[0], None, ("bye",)))
        return [Pairing(t, p.a, p.b, p.flags) for t, p in enumerate(result, start=1)]
    standings = standings_from(tournament, entries, matches)
    history, sides, byes = _history(tournament, matches)
    rows = {r.entry_id: r for r in standings}
    players = [
        PlayerRecord(
            id=e.pk,
            score=rows[e.pk].match_points,
            rank=rows[e.pk].rank,
            seed=e.seed,
            byes=byes[e.pk],
            sides=tuple(sides[e.pk]),
        )
        for e in active
    ]
    return pair_swiss(
        players,
        history,
        seed=tournament.pairing_seed,
        round_number=number,
        rounds_total=tournament.rounds,
    )


def pair_next_round(
    tournament: Tournament,
    *,
    by: User | None,
    now: datetime,
    second_side_first: Collection[int] = (),
) -> Round:
    """Pair the next round as a draft. Raises RoundError when it cannot be paired yet.

    After the main stage, the next round is a knockout or playoff round; in a playoff, the
    higher seeds listed in ``second_side_first`` (entry ids) chose the second side for battle 1.
    The earlier rounds are finished now: their results are rated (``tournaments.rating``).
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        bump_state_version(tournament.pk)  # the earlier rounds finish (their status shows)
        rounds = list(tournament.round_set.prefetch_related("matches").order_by("number"))
        number = _check_can_pair(tournament, rounds)
        entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
        main_rounds = sum(1 for r in rounds if r.stage == Round.Stage.MAIN)
        if bracket.knockout_phase(tournament, main_rounds):
            stage, pairings = _knockout_pairings(tournament, number, entries, second_side_first)
        else:
            if main_rounds >= tournament.rounds:
                raise RoundError(_("All %(n)d rounds have been played.") % {"n": tournament.rounds})
            stage = Round.Stage.MAIN
            matches = list(counted_matches(tournament))
            try:
                pairings = _pairings(tournament, number, entries, matches, rounds)
            except PairingUserError as exc:
                raise RoundError(str(exc)) from exc
        round_ = Round.objects.create(
            tournament=tournament, number=number, seed=tournament.pairing_seed, stage=stage
        )
        Match.objects.bulk_create(
            Match(
                round=round_, table=p.table, player_a_id=p.a, player_b_id=p.b, flags=list(p.flags)
            )
            for p in pairings
        )
        Round.objects.filter(tournament=tournament, number__lt=number).exclude(
            status=Round.Status.FINISHED
        ).update(status=Round.Status.FINISHED, finished_at=now)
        after_rounds_changed(tournament, now=now)
        return round_


@dataclass(frozen=True)
class RoundOneRule:
    """How round 1 of a Swiss tournament is paired, for its page."""

    #: The fold of the seeds of the players in the round (None: seeds not all different).
    fold: SeedFold | None
    #: The tables where the round differs from the fold (a forbidden pair, an edit).
    differs: list[int]


def round_one_rule(round_: Round) -> RoundOneRule | None:
    """The rule that paired round 1 of a Swiss tournament (``pairing.first_round``, the
    same costs as ``pair_swiss``) over the seeds of the players in it, and where the round
    now differs from it; None for any other round or format."""
    t = round_.tournament
    if round_.number != 1 or round_.stage != Round.Stage.MAIN or t.format != t.Format.SWISS:
        return None
    matches = list(round_.matches.select_related("player_a", "player_b").order_by("table"))
    seeds = [e.seed for m in matches for e in (m.player_a, m.player_b) if e is not None]
    if len(set(seeds)) != len(seeds):
        return RoundOneRule(None, [])
    fold = seed_fold(seeds)
    folded = {frozenset(pair) for pair in fold.pairs}
    differs = [
        m.table
        for m in matches
        if (m.player_b is None and m.player_a.seed != fold.bye)
        or (m.player_b is not None and frozenset((m.player_a.seed, m.player_b.seed)) not in folded)
    ]
    return RoundOneRule(fold, differs)


def discard_draft(round_: Round, *, now: datetime) -> None:
    with transaction.atomic():
        lock_tournament(round_.tournament)
        bump_state_version(round_.tournament_id)  # the previous round reopens
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        try:
            lifecycle.check_editable(round_facts(round_))
        except lifecycle.LifecycleError as exc:
            raise RoundError(say(exc)) from None
        round_.delete()
        # The previous round is the last one again, so it is no longer "finished" (nor rated).
        Round.objects.filter(tournament_id=round_.tournament_id, number=round_.number - 1).update(
            status=Round.Status.PUBLISHED, finished_at=None
        )
        t = round_.tournament
        after_rounds_changed(t, now=now)
