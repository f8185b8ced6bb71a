"""The public knockout bracket page: columns per knockout round, seeds, scores, playoffs."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from thud_site.http import HtmxHttpRequest
from tournaments.pairing.elimination import Tie
from tournaments.permissions.tournament_gates import access_tournament_public
from tournaments.rounds.bracket import LoadedBracket, load_bracket
from tournaments.rounds.reads import match_score


def column_title(ties: int) -> str:
    if ties == 1:
        return _("Final")
    if ties == 2:
        return _("Semi-finals")
    if ties == 4:
        return _("Quarter-finals")
    return _("Round of %(n)d") % {"n": 2 * ties}


def _games(tie: Tie, loaded: LoadedBracket) -> list[dict]:
    """Each match of a tie from the first slot's side: round, points, playoff or not."""
    first = tie.slots[0]
    lines = []
    for i, game in enumerate(tie.games):
        assert game.ident is not None  # load_bracket gives each game its match's id
        match = loaded.matches[game.ident]
        score = match_score(match)
        line: dict[str, Any] = {"round": game.round_number, "playoff": i > 0, "score": None}
        if score is not None:
            mine, theirs = sum(score.a_points), sum(score.b_points)
            line["score"] = (mine, theirs) if game.a == first else (theirs, mine)
        lines.append(line)
    return lines


def _slot(player: int | None, tie: Tie, loaded: LoadedBracket) -> dict | None:
    if player is None:
        return None
    entry = loaded.entries[player]
    return {
        "entry": entry,
        "seed": entry.knockout_seed,
        "won": tie.winner == player,
    }


def bracket_columns(loaded: LoadedBracket) -> list[dict]:
    return [
        {
            "title": column_title(len(column)),
            "ties": [
                {
                    "slots": [_slot(p, tie, loaded) for p in tie.slots],
                    "games": _games(tie, loaded),
                    "tie": tie,
                }
                for tie in column
            ],
        }
        for column in loaded.bracket.columns
    ]


@require_GET
def bracket(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    t = access_tournament_public(slug)
    loaded = load_bracket(t) if t.has_knockout else None
    champion = loaded.bracket.champion if loaded else None
    context = {
        "tournament": t,
        "rounds": list(t.round_set.counted().order_by("number")),
        "columns": bracket_columns(loaded) if loaded else [],
        "champion": loaded.entries[champion] if loaded and champion is not None else None,
    }
    return render(request, "tournaments/bracket.html", context, status=200 if loaded else 404)
