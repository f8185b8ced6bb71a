"""The adapter between the database and the pure pairing and standings functions.

Terminology and invariants:
- A round is a *draft* while the organiser may still edit it (swap players, move the
  bye); *published* once players can see it; *finished* once the next round is paired
  or the tournament closed. Only published and finished rounds count in standings and
  appear on public pages.
- The next round is paired only when every earlier round is published and every match
  in it is finished (a bye, or a confirmed result); never beyond ``Tournament.rounds``.
- Loading standings runs a constant number of queries whatever the field size: the
  entries and the counted matches (with their confirmed versions), each in one query.
- Every write happens in ``transaction.atomic()`` with the tournament row locked, so
  two organisers pressing "pair" at once cannot create the same round twice.
- Manual edits (``swap_players``, ``set_bye``) never refuse a legal board; they return
  warnings (rematch, second bye, forbidden pair) for the organiser to read. A knockout
  round follows the bracket: only a match's sides may be turned around.
- Knockout rounds (single elimination, or a Swiss top cut after the last Swiss round)
  and their playoff rounds continue the round numbers; ``tournaments.pairing.knockout`` decides
  what they are. The standings stay those of the main stage (a single-elimination
  tournament counts its knockout matches, never its playoffs).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Entry, ForbiddenPair, Match, ResultVersion, Round, Tournament
from tournaments.pairing import knockout
from tournaments.pairing.swiss import (
    History,
    Pairing,
    PairingUserError,
    PlayerRecord,
    pair_round_robin,
    pair_swiss,
)
from tournaments.rounds import bracket, lifecycle
from tournaments.standings.scoring import PointsScheme, score
from tournaments.standings.table import EntrantRecord, MatchRecord, StandingRow, compute_standings

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

COUNTED = lifecycle.PUBLIC
# The stable export columns (API, export_standings); README "CSV formats".
STANDINGS_FIELDS = (
    "rank",
    "name",
    "played",
    "match_points",
    "differential",
    "buchholz",
    "sonneborn_berger",
    "battles_won",
)


class RoundError(ValueError):
    """A round operation that is refused; the message is shown to the organiser."""


# ---------------------------------------------------------------- reading


def standings_stages(tournament: Tournament) -> tuple[str, ...]:
    """The round stages the standings count."""
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION:
        return (Round.Stage.MAIN, Round.Stage.KNOCKOUT)
    return (Round.Stage.MAIN,)


def _counted_matches(tournament: Tournament):
    return (
        Match.objects.filter(round__tournament=tournament, round__status__in=COUNTED)
        .filter(round__stage__in=standings_stages(tournament))
        .select_related("round", "confirmed_version")
        .order_by("round__number", "table")
    )


def _match_records(matches) -> list[MatchRecord]:
    records = []
    for m in matches:
        if m.player_b_id is None:
            records.append(MatchRecord(m.round.number, m.player_a_id, None))
        elif m.confirmed_version is not None:
            v = m.confirmed_version
            records.append(
                MatchRecord(m.round.number, m.player_a_id, m.player_b_id, *v.survivors, game=v.game)
            )
    return records


def points_scheme(tournament: Tournament) -> PointsScheme:
    return PointsScheme(
        win=tournament.points_win, draw=tournament.points_draw, loss=tournament.points_loss
    )


def _standings(tournament: Tournament, entries, matches) -> list[StandingRow]:
    entrants = [EntrantRecord(e.pk, e.player.name, e.seed, e.initial_points) for e in entries]
    return compute_standings(
        entrants,
        _match_records(matches),
        points=points_scheme(tournament),
        order=tournament.tiebreak_order,
    )


def load_standings(tournament: Tournament) -> list[StandingRow]:
    """Current standings: two queries whatever the number of players.

    Reads plain values rather than model instances: this runs on every uncached
    standings request, and building 800 objects for 200 players cost most of it.
    """
    entrants = [
        EntrantRecord(pk, name, seed, initial)
        for pk, name, seed, initial in Entry.objects.filter(tournament=tournament)
        .order_by("seed", "player__name")
        .values_list("pk", "player__name", "seed", "initial_points")
    ]
    rows = (
        Match.objects.filter(round__tournament=tournament, round__status__in=COUNTED)
        .filter(round__stage__in=standings_stages(tournament))
        .filter(Q(player_b__isnull=True) | Q(confirmed_version__isnull=False))
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "player_a_id",
            "player_b_id",
            "confirmed_version__battle1_first",
            "confirmed_version__battle1_second",
            "confirmed_version__battle2_first",
            "confirmed_version__battle2_second",
        )
    )
    records = [
        MatchRecord(number, a, None)
        if b is None
        else MatchRecord(number, a, b, *survivors, game=tournament.game)
        for number, a, b, *survivors in rows
    ]
    return compute_standings(
        entrants, records, points=points_scheme(tournament), order=tournament.tiebreak_order
    )


def _fingerprint_sql() -> str:
    """One statement for the three aggregates of ``standings_fingerprint``.

    Plain SQL that PostgreSQL and SQLite both run: the ORM took three queries and more
    time building them than the database took answering (profiled on the standings page).
    A round's (number, status) pairs become, for each status, the count and the sum of
    the cubes of the numbers in it.
    """
    per_status = ", ".join(
        f"COALESCE(SUM(CASE WHEN status = '{code}' THEN 1 ELSE 0 END), 0), "
        f"COALESCE(SUM(CASE WHEN status = '{code}' THEN number * number * number ELSE 0 END), 0)"
        for code in Round.Status.values
    )
    m, r, e = Match._meta.db_table, Round._meta.db_table, Entry._meta.db_table
    return (
        f"SELECT * FROM "
        f"(SELECT COUNT(m.id), COALESCE(SUM(m.lock_version), 0), MAX(m.id) FROM {m} m "
        f"INNER JOIN {r} r ON m.round_id = r.id WHERE r.tournament_id = %s) AS matches, "
        f"(SELECT COUNT(*), {per_status} FROM {r} WHERE tournament_id = %s) AS rounds, "
        f"(SELECT COUNT(id), MAX(id), COALESCE(SUM(seed), 0), "
        f"COALESCE(SUM(withdrawn_from_round), 0), COALESCE(SUM(late_from_round), 0), "
        f"COALESCE(SUM(initial_points), 0) FROM {e} WHERE tournament_id = %s) AS entries"
    )


def standings_fingerprint(tournament: Tournament) -> str:
    """A cheap key that changes whenever the standings' inputs change (one small query).

    Every result write bumps ``Match.lock_version``; rounds change by status; entries by
    count, seed, withdrawal, late entry and starting points. The tournament's creation
    time keeps keys distinct across databases that reuse primary keys. Not covered:
    a player renamed after the fact (callers cache with a short expiry for that).
    """
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(), [tournament.pk] * 3)
        aggregates = cursor.fetchone()
    settings = (
        tournament.created_at.timestamp(),
        tuple(tournament.tiebreak_order),
        tournament.points_win,
        tournament.points_draw,
        tournament.points_loss,
    )
    parts = (settings, tuple(str(value) for value in aggregates))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def standings_json(rows: list[StandingRow]) -> list[dict]:
    return [{field: getattr(row, field) for field in STANDINGS_FIELDS} for row in rows]


def public_matches(tournament: Tournament, number: int) -> tuple[Round, list[Match]]:
    """A published round and its matches; Http404 for a draft or missing round."""
    try:
        round_ = tournament.round_set.get(number=number, status__in=COUNTED)
    except Round.DoesNotExist as exc:
        raise Http404(_("No such published round")) from exc
    matches = list(
        round_.matches.select_related(
            "player_a__player", "player_b__player", "confirmed_version"
        ).order_by("table")
    )
    return round_, matches


def entry_matches(entry: Entry) -> list[Match]:
    """An entry's matches in counted rounds, oldest first."""
    return list(
        Match.objects.filter(round__status__in=COUNTED)
        .filter(Q(player_a=entry) | Q(player_b=entry))
        .select_related("round", "player_a__player", "player_b__player", "confirmed_version")
        .order_by("round__number")
    )


def match_score(match: Match):
    """The MatchScore of a confirmed match, else None."""
    if match.confirmed_version is None:
        return None
    return score(match.confirmed_version.survivors)


# ---------------------------------------------------------------- pairing


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


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


def _knockout_pairings(
    tournament: Tournament, number: int, entries: list[Entry], second_side_first: Collection[int]
) -> tuple[str, list[Pairing]]:
    """The next knockout or playoff round; the first one seeds the bracket from the
    main-stage standings (the top cut of the active players) and stores the seeds."""
    loaded = bracket.load_bracket(tournament, public_only=False)
    if loaded.bracket.started:
        try:
            return knockout.next_round(
                loaded.bracket, loaded.seeds, second_side_first=second_side_first
            )
        except knockout.KnockoutError as exc:
            if exc.reason == "finished":
                raise RoundError(_("The final has been played.")) from None
            raise RoundError(_("The knockout round still has matches without a result.")) from None
    active = {e.pk for e in entries if e.is_active_in(number)}
    ranked = [r.entry_id for r in load_standings(tournament) if r.entry_id in active]
    cut = tournament.top_cut or len(ranked)
    if len(ranked) < max(cut, 2):
        raise RoundError(
            _("The knockout needs %(cut)d active players; only %(n)d are active.")
            % {"cut": max(cut, 2), "n": len(ranked)}
        )
    seeds, pairings = knockout.first_round(ranked[:cut])
    Entry.objects.filter(tournament=tournament).update(knockout_seed=None)
    for pk, seed in seeds.items():
        Entry.objects.filter(pk=pk).update(knockout_seed=seed)
    return knockout.KNOCKOUT, pairings


def _pairings(tournament, number, entries, matches, rounds) -> list[Pairing]:
    active = [e for e in entries if e.is_active_in(number)]
    if len(active) < 2:
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
            present = [x for x in (p.a, p.b) if x in ids]
            if len(present) == 2:
                result.append(p)
            elif present:
                result.append(Pairing(0, present[0], None, ("bye",)))
        return [Pairing(t, p.a, p.b, p.flags) for t, p in enumerate(result, start=1)]
    standings = _standings(tournament, entries, matches)
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
    tournament: Tournament, *, by: AbstractBaseUser | None, second_side_first: Collection[int] = ()
) -> Round:
    """Pair the next round as a draft. Raises RoundError when it cannot be paired yet.

    After the main stage, the next round is a knockout or playoff round; in a playoff, the
    higher seeds listed in ``second_side_first`` (entry ids) chose the second side for battle 1.
    """
    with transaction.atomic():
        tournament = _locked(tournament)
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
            matches = list(_counted_matches(tournament))
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
        Round.objects.filter(tournament=tournament, number__lt=number).update(
            status=Round.Status.FINISHED
        )
        return round_


def _facts(round_: Round) -> lifecycle.RoundFacts:
    """The lifecycle facts of ``round_``; call with the round row locked."""
    return lifecycle.RoundFacts(
        number=round_.number,
        status=round_.status,
        has_play=round_.matches.filter(play_started_at__isnull=False).exists()
        or ResultVersion.objects.filter(match__round=round_).exists(),
        is_last=not Round.objects.filter(
            tournament_id=round_.tournament_id, number__gt=round_.number
        ).exists(),
    )


def _transition(round_: Round, step) -> Round:
    """Lock the tournament and the round, apply a lifecycle step, save the new status."""
    _locked(round_.tournament)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    try:
        round_.status = step(_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise RoundError(str(exc)) from None
    round_.published_at = timezone.now() if round_.status == Round.Status.PUBLISHED else None
    round_.save(update_fields=["status", "published_at"])
    return round_


def publish_round(round_: Round) -> Round:
    with transaction.atomic():
        round_ = _transition(round_, lifecycle.publish)
        tournament = round_.tournament
        if tournament.status == Tournament.Status.SETUP:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        return round_


def unpublish_round(round_: Round) -> Round:
    """Take a round back to draft; refused once play has begun in it (lifecycle)."""
    with transaction.atomic():
        return _transition(round_, lifecycle.unpublish)


def discard_draft(round_: Round) -> None:
    with transaction.atomic():
        _locked(round_.tournament)
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        try:
            lifecycle.check_editable(_facts(round_))
        except lifecycle.LifecycleError as exc:
            raise RoundError(str(exc)) from None
        round_.delete()
        # The previous round is the last one again, so it is no longer "finished".
        Round.objects.filter(tournament_id=round_.tournament_id, number=round_.number - 1).update(
            status=Round.Status.PUBLISHED
        )


def begin_play(match: Match, *, players: tuple[int, int]) -> Match:
    """Freeze ``match`` for play: the one way ``games`` tells a tournament a battle starts.

    Locks the round (the same lock as unpublish and result writes), checks that the
    round may be played and that ``players`` (A, B) are still the match's players, and
    marks the match as started. Call inside the transaction that creates the battles.
    """
    round_ = Round.objects.select_for_update().get(pk=match.round_id)
    try:
        lifecycle.check_playable(lifecycle.RoundFacts(number=round_.number, status=round_.status))
    except lifecycle.LifecycleError as exc:
        raise RoundError(str(exc)) from None
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.is_bye:
        raise RoundError(_("A bye has no battles."))
    if (match.player_a_id, match.player_b_id) != players:
        raise RoundError(_("The pairing of this match changed; reload the page."))
    if match.play_started_at is None:
        match.play_started_at = timezone.now()
        match.save(update_fields=["play_started_at"])
    return match


# ---------------------------------------------------------------- manual edits


def _draft(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    try:
        lifecycle.check_editable(_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise RoundError(str(exc)) from None
    return round_


def _warnings(round_: Round, matches: list[Match]) -> list[str]:
    """Rematches, second byes and forbidden pairs among ``matches`` (after an edit)."""
    earlier = Match.objects.filter(
        round__tournament=round_.tournament_id, round__number__lt=round_.number
    ).select_related("player_a__player", "player_b__player")
    met = {frozenset((m.player_a_id, m.player_b_id)) for m in earlier if m.player_b_id}
    had_bye = {m.player_a_id for m in earlier if m.player_b_id is None}
    forbidden = {
        frozenset(p)
        for p in ForbiddenPair.objects.filter(tournament=round_.tournament_id).values_list(
            "entry_a_id", "entry_b_id"
        )
    }
    warnings = []
    for m in matches:
        a = m.player_a.player.name
        if m.player_b_id is None:
            if m.player_a_id in had_bye:
                warnings.append(_("%(a)s already had a bye.") % {"a": a})
            continue
        pair = frozenset((m.player_a_id, m.player_b_id))
        names = {"a": a, "b": m.player_b.player.name}
        if pair in met:
            warnings.append(_("%(a)s and %(b)s have already played each other.") % names)
        if pair in forbidden:
            warnings.append(_("%(a)s and %(b)s must not be paired (forbidden pair).") % names)
    return warnings


def _match_of(round_: Round, entry: Entry) -> Match:
    try:
        return round_.matches.select_related("player_a__player", "player_b__player").get(
            Q(player_a=entry) | Q(player_b=entry)
        )
    except Match.DoesNotExist:
        raise RoundError(
            _("%(name)s is not paired in this round.") % {"name": entry.player.name}
        ) from None


def _replace(match: Match, old: Entry, new: Entry | None) -> None:
    if match.player_a_id == old.pk:
        if new is None:  # A loses their opponent: B takes the bye
            match.player_a, match.player_b = match.player_b, None
        else:
            match.player_a = new
    else:
        match.player_b = new
    match.flags = ["manual"]


def _save_all(matches: list[Match]) -> None:
    for m in matches:
        m.save(update_fields=["player_a", "player_b", "flags"])
        m.refresh_from_db()


def swap_players(round_: Round, entry1: Entry, entry2: Entry) -> list[str]:
    """Exchange two players' places in a draft round; returns warnings."""
    with transaction.atomic():
        round_ = _draft(round_)
        m1, m2 = _match_of(round_, entry1), _match_of(round_, entry2)
        if m1.pk != m2.pk and round_.stage != Round.Stage.MAIN:
            raise RoundError(_("A knockout round follows the bracket; only sides can be turned."))
        if m1.pk == m2.pk:
            m1.player_a, m1.player_b = m1.player_b, m1.player_a
            if m1.player_a is None:
                raise RoundError(_("A bye cannot be turned around."))
            m1.flags = ["manual"]
            _save_all([m1])
            return _warnings(round_, [m1])
        _replace(m1, entry1, entry2)
        _replace(m2, entry2, entry1)
        _save_all([m1, m2])
        return _warnings(round_, [m1, m2])


def set_bye(round_: Round, entry: Entry) -> list[str]:
    """Give ``entry`` the bye in a draft round; returns warnings.

    The player who had the bye takes ``entry``'s place. Without a bye in the round, the
    former opponent of ``entry`` also gets a bye.
    """
    with transaction.atomic():
        round_ = _draft(round_)
        if round_.stage != Round.Stage.MAIN:
            raise RoundError(_("A knockout round follows the bracket; only sides can be turned."))
        match = _match_of(round_, entry)
        if match.is_bye:
            return _warnings(round_, [match])
        bye = round_.matches.filter(player_b__isnull=True).select_related("player_a").first()
        if bye is not None:
            return swap_players(round_, entry, bye.player_a)
        _replace(match, entry, None)
        table = (max(m.table for m in round_.matches.all()) or 0) + 1
        new = Match(round=round_, table=table, player_a=entry, player_b=None, flags=["manual"])
        _save_all([match])
        new.save()
        return _warnings(round_, [match, new])


def add_forbidden_pair(tournament: Tournament, entry_a: Entry, entry_b: Entry) -> ForbiddenPair:
    if entry_a.pk == entry_b.pk or {entry_a.tournament_id, entry_b.tournament_id} != {
        tournament.pk
    }:
        raise RoundError(_("Choose two different players of this tournament."))
    a, b = sorted((entry_a, entry_b), key=lambda e: e.pk)
    pair, _created = ForbiddenPair.objects.get_or_create(
        tournament=tournament, entry_a=a, entry_b=b
    )
    return pair


# ---------------------------------------------------------------- the end


def close_tournament(tournament: Tournament) -> Tournament:
    """Finish the tournament: every round must be published and complete."""
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise RoundError(_("The tournament is already closed."))
        rounds = list(tournament.round_set.prefetch_related("matches"))
        if any(r.status == Round.Status.DRAFT for r in rounds):
            raise RoundError(_("A draft round is still open; publish or discard it first."))
        if any(not m.is_finished for r in rounds for m in r.matches.all()):
            raise RoundError(_("Some matches still have no confirmed result."))
        tournament.round_set.update(status=Round.Status.FINISHED)
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return tournament


# ---------------------------------------------------------------- entries


def next_round_number(tournament: Tournament) -> int:
    """The first round not yet published (a draft is re-paired after a withdrawal)."""
    last = tournament.round_set.filter(status__in=COUNTED).order_by("-number").first()
    return last.number + 1 if last else 1


def toggle_withdrawal(entry: Entry) -> Entry:
    """Withdraw from the next unpublished round on, or reinstate a withdrawn player."""
    if entry.withdrawn_from_round is None:
        entry.withdrawn_from_round = next_round_number(entry.tournament)
    else:
        entry.withdrawn_from_round = None
    entry.save(update_fields=["withdrawn_from_round"])
    return entry
