"""The organiser's edits of a draw and its inputs: swapping players and moving the bye
in a draft round, forbidden pairs, withdrawals.

Manual edits never refuse a legal board; they return warnings (rematch, second bye,
forbidden pair) for the organiser to read. A knockout round follows the bracket: only a
match's sides may be turned around.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.models.entries import ForbiddenPair
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version
from tournaments.models.tournament import Entry, Tournament
from tournaments.models.wording import say
from tournaments.rating.bot_accounts import bots_among
from tournaments.rounds.draw import active_entries
from tournaments.rounds.locks import RoundError, round_facts
from tournaments.rules import lifecycle


def _draft(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    try:
        lifecycle.check_editable(round_facts(round_))
    except lifecycle.LifecycleError as exc:
        raise RoundError(say(exc)) from None
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
        b = m.player_b
        assert b is not None  # player_b_id is set
        names = {"a": a, "b": b.player.name}
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
            b = match.player_b
            assert b is not None  # callers never replace in a bye
            match.player_a, match.player_b = b, None
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
            turned_a, turned_b = m1.player_b, m1.player_a
            if turned_a is None:
                raise RoundError(_("A bye cannot be turned around."))
            m1.player_a, m1.player_b = turned_a, turned_b
            m1.flags = ["manual"]
            _save_all([m1])
            return _warnings(round_, [m1])
        _replace(m1, entry1, entry2)
        _replace(m2, entry2, entry1)
        _save_all([m1, m2])
        return _warnings(round_, [m1, m2])


def bye_candidates(round_: Round) -> QuerySet[Entry]:
    """The players the bye may be given to: paired in the round and playing it (checked in
    where check-in is required, not withdrawn, not sitting it out: ``pairing.attendance``,
    as when the round was paired), by name."""
    t = round_.tournament
    paired = Entry.objects.filter(
        Q(matches_as_a__round=round_) | Q(matches_as_b__round=round_)
    ).select_related("player")
    playing = active_entries(t, list(paired), round_.number)
    return (
        Entry.objects.filter(pk__in=[e.pk for e in playing])
        .select_related("player")
        .order_by("player__name")
    )


def set_bye(round_: Round, entry: Entry) -> list[str]:
    """Give ``entry`` the bye in a draft round; returns warnings.

    The player who had the bye takes ``entry``'s place. Without a bye in the round, the
    former opponent of ``entry`` also gets a bye. Only a player paired in the round and
    playing it may have the bye (``bye_candidates``).
    """
    with transaction.atomic():
        round_ = _draft(round_)
        if round_.stage != Round.Stage.MAIN:
            raise RoundError(_("A knockout round follows the bracket; only sides can be turned."))
        if not bye_candidates(round_).filter(pk=entry.pk).exists():
            raise RoundError(
                _(
                    "%(name)s is not playing this round (absent, withdrawn or not paired); "
                    "the bye goes only to a player present in it."
                )
                % {"name": entry.player.name}
            )
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


def next_round_number(tournament: Tournament) -> int:
    """The first round not yet published (a draft is re-paired after a withdrawal)."""
    last = tournament.round_set.counted().order_by("-number").first()
    return last.number + 1 if last else 1


def toggle_withdrawal(entry: Entry) -> Entry:
    """Withdraw from the next unpublished round on, or reinstate a withdrawn player. A bot
    account is not reinstated while the tournament does not allow bots (``RoundError``):
    the organiser withdrew it to turn bots off (``organising.settings_changes``)."""
    with transaction.atomic():
        bump_state_version(entry.tournament_id)  # the pages mark a withdrawn player
        if entry.withdrawn_from_round is None:
            entry.withdrawn_from_round = next_round_number(entry.tournament)
        else:
            # Read under the tournament row's lock (taken by the bump), as the settings
            # page saves ``allow_bots`` under it.
            allowed = Tournament.objects.filter(pk=entry.tournament_id, allow_bots=True)
            if not allowed.exists() and bots_among([entry.player.user_id]):
                raise RoundError(
                    _(
                        "%(name)s is a bot account and this tournament no longer allows "
                        "bot accounts: allow them in the settings first."
                    )
                    % {"name": entry.player.name}
                )
            entry.withdrawn_from_round = None
        entry.save(update_fields=["withdrawn_from_round"])
        return entry
