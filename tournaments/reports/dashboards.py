"""What each role sees first: the overviews behind the home page.

Terminology:
- An *overview* is one row per tournament a user has a role in, with counts read in a
  constant number of queries (not one per tournament), and for organisers the *next
  action*: the one thing that moves the tournament on.
- ``next_action`` is a pure function of ``TournamentFacts`` (tests need no database), in
  the style of ``tournaments.rules.lifecycle``: the facts are loaded by ``organiser_overview``.

Battles (``games``) are not known here: the home page adds the battles waiting for a
referee itself, so ``tournaments`` keeps not importing ``games``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.permissions.claims import claims_for_organiser
from tournaments.permissions.listings import (
    matches_of_player,
    tournaments_organised_by,
    tournaments_refereed_by,
)
from tournaments.rules import lifecycle


@dataclass(frozen=True)
class TournamentFacts:
    status: str  # Tournament.Status
    rounds_planned: int
    last_round: int = 0  # 0: no round yet
    last_status: str = ""  # the last round's lifecycle status
    awaiting: int = 0  # matches of the last round without any result
    entered: int = 0  # waiting for a second person
    disputed: int = 0
    players: int = 0


@dataclass(frozen=True)
class Action:
    label: str
    kind: str  # "pair", "publish", "results", "close", "players", "done"
    round: int = 0


def next_action(f: TournamentFacts) -> Action:
    """The one thing that moves the tournament on, in words.

    >>> next_action(TournamentFacts(status="running", rounds_planned=5, last_round=2,
    ...     last_status="published", entered=2)).label
    '2 results to confirm in round 2'
    """
    if f.status == Tournament.Status.FINISHED:
        return Action(_("Finished"), "done")
    if f.last_round == 0:
        if f.players < 2:
            return Action(_("Add players"), "players")
        return Action(_("Pair round 1"), "pair", 1)
    if f.last_status == lifecycle.DRAFT:
        return Action(
            _("Check and publish round %(n)d") % {"n": f.last_round}, "publish", f.last_round
        )
    if f.disputed:
        return Action(
            ngettext(
                "%(count)d disputed result in round %(n)d",
                "%(count)d disputed results in round %(n)d",
                f.disputed,
            )
            % {"count": f.disputed, "n": f.last_round},
            "results",
            f.last_round,
        )
    if f.entered:
        return Action(
            ngettext(
                "%(count)d result to confirm in round %(n)d",
                "%(count)d results to confirm in round %(n)d",
                f.entered,
            )
            % {"count": f.entered, "n": f.last_round},
            "results",
            f.last_round,
        )
    if f.awaiting:
        return Action(
            ngettext(
                "%(count)d result awaited in round %(n)d",
                "%(count)d results awaited in round %(n)d",
                f.awaiting,
            )
            % {"count": f.awaiting, "n": f.last_round},
            "results",
            f.last_round,
        )
    if f.last_round < f.rounds_planned:
        return Action(_("Pair round %(n)d") % {"n": f.last_round + 1}, "pair", f.last_round + 1)
    return Action(_("Close the tournament"), "close")


@dataclass
class Overview:
    """One tournament as a role holder sees it on the home page."""

    tournament: Tournament
    round: Round | None = None
    counts: dict[str, int] = field(default_factory=dict)
    action: Action | None = None
    action_url: str = ""


def _last_rounds(tournaments: list[Tournament], *, public_only: bool) -> dict[int, Round]:
    rounds = Round.objects.filter(tournament__in=tournaments).order_by("tournament_id", "number")
    if public_only:
        rounds = rounds.counted()
    return {r.tournament_id: r for r in rounds}  # the last one wins


def _counts(rounds: list[Round]) -> dict[int, Counter]:
    """Result statuses of the real matches (no byes) of each round, one query."""
    counts: dict[int, Counter] = {r.pk: Counter() for r in rounds}
    rows = (
        Match.objects.filter(round__in=rounds, player_b__isnull=False)
        .values_list("round_id", "result_status")
        .annotate(n=Count("id"))
    )
    for round_id, status, n in rows:
        counts[round_id][status] += n
    return counts


def _action_url(t: Tournament, action: Action) -> str:
    if action.kind in ("publish", "results") and action.round:
        return reverse("organiser_round", args=[t.slug, action.round])
    return reverse("organiser_dashboard", args=[t.slug])


def organiser_overview(user) -> list[Overview]:
    """The tournaments ``user`` organises, each with its state and next action."""
    tournaments = list(tournaments_organised_by(user))
    last = _last_rounds(tournaments, public_only=False)
    counts = _counts(list(last.values()))
    players = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in tournaments])
        .annotate(n=Count("entries"))
        .values_list("pk", "n")
    )
    rows = []
    for t in tournaments:
        r = last.get(t.pk)
        c = counts.get(r.pk, Counter()) if r else Counter()
        facts = TournamentFacts(
            status=t.status,
            rounds_planned=t.rounds,
            last_round=r.number if r else 0,
            last_status=r.status if r else "",
            awaiting=c[Match.ResultStatus.AWAITING],
            entered=c[Match.ResultStatus.ENTERED],
            disputed=c[Match.ResultStatus.DISPUTED],
            players=players.get(t.pk, 0),
        )
        action = next_action(facts)
        rows.append(Overview(t, r, dict(c), action, _action_url(t, action)))
    return rows


def referee_overview(user) -> list[Overview]:
    """The running tournaments ``user`` referees, with the current round's counts."""
    tournaments = [
        t for t in tournaments_refereed_by(user) if t.status != Tournament.Status.FINISHED
    ]
    last = _last_rounds(tournaments, public_only=True)
    counts = _counts(list(last.values()))
    return [
        Overview(t, last.get(t.pk), dict(counts.get(last[t.pk].pk, {})) if t.pk in last else {})
        for t in tournaments
    ]


@dataclass
class PlayerHome:
    """One running (or upcoming) tournament of the player, with their current match."""

    current: Match | None
    entry_id: int | None
    tournament: Tournament | None
    opponent: str = ""
    #: Whether the player has the first side in battle 1 (is player A).
    first_side_first: bool = False
    quickfire: bool = False


def _current(matches: list[Match]) -> Match | None:
    """The latest published match without a result, else the latest match."""
    open_matches = [m for m in matches if not m.is_finished]
    return open_matches[-1] if open_matches else (matches[-1] if matches else None)


def player_overview(user) -> list[PlayerHome] | None:
    """Every tournament the player is in that is not finished, each with their current
    match (the latest published one without a result), in a constant number of queries;
    None for a user who is not a player."""
    if not user.is_authenticated or not hasattr(user, "player"):
        return None
    current = [Tournament.Status.SETUP, Tournament.Status.RUNNING]
    entries = (
        Entry.objects.filter(player__user=user, tournament__status__in=current)
        .select_related("tournament")
        .order_by("-tournament__start_date", "tournament__name")
    )
    by_tournament: dict[int, list[Match]] = {}
    for m in matches_of_player(user).filter(round__tournament__status__in=current):
        by_tournament.setdefault(m.round.tournament_id, []).append(m)
    rows = []
    for entry in entries:
        t = entry.tournament
        match = _current(by_tournament.get(t.pk, []))
        if match is None:
            rows.append(PlayerHome(None, entry.pk, t))
            continue
        mine_a = match.player_a_id == entry.pk
        other = match.player_b if mine_a else match.player_a
        rows.append(
            PlayerHome(
                current=match,
                entry_id=entry.pk,
                tournament=t,
                opponent=other.player.name if other else "",
                first_side_first=mine_a,
                quickfire=t.move_limit is not None and not match.is_bye,
            )
        )
    return rows


def pending_claims_count(user) -> int:
    return claims_for_organiser(user).count() if user.is_authenticated else 0


def public_tournaments() -> dict[str, list[Tournament]]:
    """Live events first, then upcoming, then finished (home page for everyone)."""
    groups: dict[str, list[Tournament]] = {"live": [], "upcoming": [], "finished": []}
    key: dict[str, str] = {
        Tournament.Status.RUNNING: "live",
        Tournament.Status.SETUP: "upcoming",
        Tournament.Status.FINISHED: "finished",
    }
    for t in Tournament.objects.order_by("-start_date", "name"):
        groups[key[t.status]].append(t)
    return groups


__all__ = [
    "Action",
    "Overview",
    "PlayerHome",
    "TournamentFacts",
    "next_action",
    "organiser_overview",
    "pending_claims_count",
    "player_overview",
    "public_tournaments",
    "referee_overview",
]
