"""The analysis part of a battle's replay page, for any game (no game's pieces named here).

:func:`analysis_context` says what the part shows: the *Analyse* button, the wait while
the analysis is queued or running, or its result (the graph with its table, the mistakes
in the move list, see :func:`annotate_plies`). The side names come from the game's sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from tournaments.for_games import Figure, caption_id

from . import analysis_runs
from .analysis import PlyRow
from .analysis_chart import EvalPoint, eval_chart, signed

#: Seconds between the page's looks while the analysis is queued or running (htmx).
POLL_S = 3
FIGURE_ID = "eval-chart"


def rows_of(stored: BattleAnalysis) -> list[PlyRow]:
    return [PlyRow.from_dict(row) for row in stored.plies]


def mistake_text(row: PlyRow) -> str:
    """What the move list says of a mistake: "T G7-F6 lets d C4-G8 xG8: −4"."""
    cost = signed(-row.loss)
    if row.reply:
        return _("%(move)s lets %(reply)s: %(cost)s") % {
            "move": row.move,
            "reply": row.reply,
            "cost": cost,
        }
    return _("%(move)s: %(cost)s") % {"move": row.move, "cost": cost}


def _move_label(row: PlyRow) -> str:
    return f"{(row.ply - 1) // 2 + 1}.{'..' if row.ply % 2 == 0 else ''} {row.move}"


def figure(battle: Battle, rows: Sequence[PlyRow], *, last_ply: int, ply: int) -> Figure:
    """The graph and its table: ply, move, evaluation, best move, loss."""
    first, second = (_(info.name) for info in battle.rules.sides)
    points = [
        EvalPoint(
            ply=row.ply,
            value=row.evaluation,
            label=f"{_move_label(row)}: {signed(row.evaluation)}",
            mistake=row.mistake,
        )
        for row in rows
        if row.evaluation is not None  # a search that found nothing in its budget
    ]
    caption = _("Evaluation after every move, in points (above zero: %(side)s ahead)") % {
        "side": first
    }
    svg = eval_chart(
        points,
        last_ply=last_ply,
        current_ply=ply,
        above=_("%(side)s ahead") % {"side": first},
        below=_("%(side)s ahead") % {"side": second},
        title=caption,
        labelled_by=caption_id(FIGURE_ID),
    )
    table = [
        (
            str(row.ply),
            [
                _move_label(row),
                "–" if row.evaluation is None else signed(row.evaluation),
                row.best or "–",
                signed(-row.loss) if row.loss else "0",
            ],
        )
        for row in rows
    ]
    return Figure(
        FIGURE_ID,
        caption,
        mark_safe(svg),  # noqa: S308 - eval_chart escapes every label
        [_("Ply"), _("Move"), _("Evaluation"), _("Best move"), _("Loss")],
        table,
    )


def annotate_plies(plies: list[dict], rows: Sequence[PlyRow]) -> None:
    """Mark each mistake in the replay's move list (``plies``, the game presenter's) with
    its text, and the best move where it differs."""
    by_ply = {row.ply: row for row in rows}
    for entry in plies:
        row = by_ply.get(entry["ply"])
        if row is None:
            continue
        entry["mistake"] = mistake_text(row) if row.mistake else ""
        entry["best"] = row.best if row.mistake else ""


def analysis_context(battle: Battle, user, *, plies: list[dict], ply: int, last_ply: int) -> dict:
    """The analysis part of the replay page (``templates/games/_analysis.html``)."""
    stored = BattleAnalysis.objects.filter(battle=battle).first()
    refused = analysis_runs.analysable(battle)
    context: dict = {
        "analysis": stored,
        "battle_id": battle.pk,
        "analysis_offered": refused is None,
        "analysis_signed_in": bool(user.is_authenticated),
        "analysis_poll_s": POLL_S,
        "analysis_figure": None,
        "analysis_mistakes": 0,
    }
    if stored is not None and stored.status == BattleAnalysis.Status.DONE:
        rows = rows_of(stored)
        annotate_plies(plies, rows)
        context["analysis_figure"] = figure(battle, rows, last_ply=last_ply, ply=ply)
        context["analysis_mistakes"] = sum(row.mistake for row in rows)
    return context
