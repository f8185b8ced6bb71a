"""Results final on their source's own authority: engine-verified online play (one
match) and the organiser's CSV import (many matches at once).

They need no second person; they keep every other invariant of a result write
(``tournaments.results.writing``): the round's lifecycle, the players who played, the
round lock and the bump of ``Match.lock_version``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F, Max, OuterRef, Subquery
from django.utils.translation import gettext as _

from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import bump_state_version_of_matches
from tournaments.models.wording import say
from tournaments.results.writing import (
    OPEN,
    ResultError,
    claim_match,
    game_of,
    make_final,
    new_version,
    round_facts,
    validate_survivors,
)
from tournaments.rules import lifecycle
from tournaments.rules.result import MatchResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_final_result(
    match: Match,
    *,
    survivors: Sequence[object] | MatchResult,
    by: User | None,
    source: str,
    reason: str = "",
    players: tuple[int, int] | None = None,
    now: datetime,
) -> ResultVersion:
    """Record a result final on its source's authority (engine-verified play, CSV import).

    ``players`` is ``(player A's entry id, player B's entry id)`` as they were when the
    battles were played; the write is refused if the pairing changed since.
    """
    if source not in (ResultVersion.Source.ENGINE, ResultVersion.Source.IMPORT):
        raise ValueError(f"a {source} result needs a second person or a decision")
    values = validate_survivors(survivors, game=game_of(match))
    with transaction.atomic():
        match = claim_match(match, None, players)
        version = new_version(
            match,
            values,
            by=by,
            source=source,
            status=ResultVersion.Status.CONFIRMED,
            reason=reason,
            now=now,
        )
        make_final(match, version, now=now)
        return version


def record_final_results(
    items: Sequence[tuple[int, MatchResult]],
    *,
    source: str,
    by: User | None = None,
    now: datetime,
) -> list[ResultVersion]:
    """``record_final_result`` for many matches at once (the organiser's CSV import).

    ``items`` are ``(match id, result)`` pairs, each match at most once. The same
    invariants with a constant number of queries: the rounds are locked and checked, the
    matches locked in id order, every open or confirmed version of them superseded, the
    new confirmed versions created in bulk and the matches pointed at them with their
    lock versions bumped.
    """
    if source != ResultVersion.Source.IMPORT:
        raise ValueError(f"a bulk {source} result needs a second person or a decision")
    ids = [match_id for match_id, _values in items]
    if len(set(ids)) != len(ids):
        raise ValueError("each match at most once")
    with transaction.atomic():
        bump_state_version_of_matches(ids)  # the tournament rows first, as claim_match
        games = {}
        for round_ in (
            Round.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk__in=Match.objects.filter(pk__in=ids).values("round_id"))
            .order_by("pk")
        ):
            try:
                lifecycle.check_results(round_facts(round_))
            except lifecycle.LifecycleError as exc:
                raise ResultError(say(exc)) from None
            games[round_.pk] = round_.tournament.game
        locked: dict[int, str | None] = dict.fromkeys(ids)
        for match_id, round_id, player_b_id in (
            Match.objects.select_for_update()
            .filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", "round_id", "player_b_id")
        ):
            if player_b_id is None:
                raise ResultError(_("A bye has no result to enter."))
            locked[match_id] = games[round_id]
        game_of_match = {pk: game for pk, game in locked.items() if game is not None}
        if len(game_of_match) != len(locked):  # deleted meanwhile (its round re-paired)
            raise ResultError(
                _("This match was changed by someone else meanwhile; check the current values.")
            )
        last_numbers = dict(
            ResultVersion.objects.filter(match_id__in=ids)
            .values("match_id")
            .annotate(n=Max("number"))
            .values_list("match_id", "n")
        )
        ResultVersion.objects.filter(match_id__in=ids).filter(
            status__in=(*OPEN, ResultVersion.Status.CONFIRMED)
        ).update(status=ResultVersion.Status.SUPERSEDED)
        versions = ResultVersion.objects.bulk_create(
            [
                ResultVersion(
                    match_id=match_id,
                    number=last_numbers.get(match_id, 0) + 1,
                    game=game_of_match[match_id],
                    **validate_survivors(values, game=game_of_match[match_id]).as_dict(),
                    source=source,
                    kind=ResultVersion.Kind.ENTRY,
                    status=ResultVersion.Status.CONFIRMED,
                    entered_by=by,
                    confirmed_by=by,
                    confirmed_at=now,
                )
                for match_id, values in items
            ],
            batch_size=1000,
        )
        # One statement, not a CASE per row: each match's newest version is the one just
        # created (the match rows are locked). Its (match, number) index answers each row.
        Match.objects.filter(pk__in=ids).update(
            confirmed_version=Subquery(
                ResultVersion.objects.filter(match=OuterRef("pk"))
                .order_by("-number")
                .values("pk")[:1]
            ),
            result_status=Match.ResultStatus.CONFIRMED,
            lock_version=F("lock_version") + 1,
        )
        return versions
