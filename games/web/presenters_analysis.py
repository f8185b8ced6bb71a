"""The analysis part of a battle's replay page, for any game (no game's pieces named here).

:func:`analysis_context` says what the part shows: the *Analyse* button, the wait while
the analysis is queued or running, or its result: each side's worst moves first
(:func:`worst_moves`, each with a link to the board showing the better move), how many
blunders, mistakes and inaccuracies each side made, the graph (its points are links to
the replay at their ply) with its table, and the judgements in the move list
(:func:`annotate_plies`). What a move is judged is the game's own thresholds
(``analysis_thresholds``), stored with each row by :mod:`games.rules.analysis`.

:func:`better_board` is the replay's ``?best=1``: the position after the better move
instead of the move played, drawn by the game's own replay presenter (the better move is
then the board's last move, marked as every game marks it).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.analysis import runs as analysis_runs
from games.analysis.chart import EvalPoint, eval_chart, signed
from games.models.analysis import BattleAnalysis
from games.models.battle import Battle
from games.rules.analysis import PlyRow
from games.rules.interface import BLUNDER, INACCURACY, JUDGEMENTS, MISTAKE
from games.web import presenters
from thud_site.svg import Figure, caption_id

#: Seconds between the page's looks while the analysis is queued or running (htmx).
POLL_S = 3
FIGURE_ID = "eval-chart"
#: How many of each side's worst moves the summary lists first.
WORST = 3


def rows_of(stored: BattleAnalysis) -> list[PlyRow]:
    return [PlyRow.from_dict(row) for row in stored.plies]


def judgement_name(judgement: str) -> str:
    """A judgement as the page names it."""
    return {BLUNDER: _("Blunder"), MISTAKE: _("Mistake"), INACCURACY: _("Inaccuracy")}.get(
        judgement, ""
    )


def mistake_text(row: PlyRow) -> str:
    """What the move list says of a judged move: "T G7-F6 lets d C4-G8 xG8: −4"."""
    cost = signed(-row.loss)
    if row.reply:
        return _("%(move)s lets %(reply)s: %(cost)s") % {
            "move": row.move,
            "reply": row.reply,
            "cost": cost,
        }
    return _("%(move)s: %(cost)s") % {"move": row.move, "cost": cost}


def move_label(row: PlyRow) -> str:
    """ "12. d F1-F5" for the first side's ply, "12... T G7-F6" for the second's."""
    return f"{(row.ply - 1) // 2 + 1}.{'..' if row.ply % 2 == 0 else ''} {row.move}"


def ply_href(ply: int, *, best: bool = False) -> str:
    """The replay at ``ply`` (its board in sight); ``best``: showing the better move."""
    return f"?ply={ply}{'&best=1' if best else ''}#replay"


def point_label(row: PlyRow) -> str:
    """A graph point's accessible name: "Move 12... T G7-F6: −1.4, blunder"."""
    label = _("Move %(move)s: %(evaluation)s") % {
        "move": move_label(row),
        "evaluation": "–" if row.evaluation is None else signed(row.evaluation),
    }
    if row.judgement:
        label += ", " + judgement_name(row.judgement).lower()
    return label


def figure(battle: Battle, rows: Sequence[PlyRow], *, last_ply: int, ply: int) -> Figure:
    """The graph and its table: ply, move, evaluation, best move, loss, judgement."""
    first, second = (_(info.name) for info in battle.rules.sides)
    points = [
        EvalPoint(
            ply=row.ply,
            value=row.evaluation,
            label=point_label(row),
            judgement=row.judgement,
            href=ply_href(row.ply),
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
                move_label(row),
                "–" if row.evaluation is None else signed(row.evaluation),
                row.best or "–",
                signed(-row.loss) if row.loss else "0",
                judgement_name(row.judgement) or "–",
            ],
        )
        for row in rows
    ]
    return Figure(
        FIGURE_ID,
        caption,
        mark_safe(svg),  # noqa: S308 - eval_chart escapes every label
        [_("Ply"), _("Move"), _("Evaluation"), _("Best move"), _("Loss"), _("Judgement")],
        table,
    )


def annotate_plies(plies: list[dict], rows: Sequence[PlyRow]) -> None:
    """Mark each judged move in the replay's move list (``plies``, the game presenter's)
    with its judgement, its text, and the better move with the link that shows it."""
    by_ply = {row.ply: row for row in rows}
    for entry in plies:
        row = by_ply.get(entry["ply"])
        if row is None or not row.judgement:
            continue
        entry["judgement"] = row.judgement
        entry["judgement_name"] = judgement_name(row.judgement)
        entry["mistake"] = mistake_text(row)
        entry["best"] = row.best
        entry["best_href"] = ply_href(row.ply, best=True) if row.best else ""


def worst_moves(rows: Sequence[PlyRow], side: str, *, count: int = WORST) -> list[PlyRow]:
    """``side``'s ``count`` costliest judged moves, the costliest first (the earlier of two
    that cost the same first).

    >>> rows = [PlyRow(p, "a", "m", 0.0, "b", "", loss, j) for p, loss, j in
    ...         [(1, 1.5, "inaccuracy"), (3, 4.0, "blunder"), (5, 4.0, "blunder"),
    ...          (7, 0.2, ""), (9, 2.5, "mistake"), (11, 1.0, "inaccuracy")]]
    >>> [row.ply for row in worst_moves(rows, "a")]
    [3, 5, 9]
    >>> worst_moves(rows, "b")
    []
    """
    judged = [row for row in rows if row.side == side and row.judgement]
    return sorted(judged, key=lambda row: (-row.loss, row.ply))[:count]


def sides_summary(battle: Battle, rows: Sequence[PlyRow]) -> list[dict]:
    """Per side: its name, its count of each judgement, and its worst moves."""
    summary = []
    for info in battle.rules.sides:
        mine = [row for row in rows if row.side == info.key]
        summary.append(
            {
                "name": _(info.name),
                "counts": [
                    {
                        "judgement": j,
                        "name": judgement_name(j),
                        "n": sum(r.judgement == j for r in mine),
                    }
                    for j in JUDGEMENTS
                ],
                "worst": [
                    {
                        "label": move_label(row),
                        "judgement": row.judgement,
                        "judgement_name": judgement_name(row.judgement),
                        "cost": signed(-row.loss),
                        "best": row.best,
                        "href": ply_href(row.ply, best=bool(row.best)),
                    }
                    for row in worst_moves(rows, info.key)
                ],
            }
        )
    return summary


def better_board(
    battle: Battle, moves: Sequence[str | None], rows: Sequence[PlyRow], ply: int
) -> dict:
    """The replay at ``ply`` showing the better move instead of the one played there:
    the board, points and captures of the game's replay after that move, and ``better``
    (what was played, what was better, the cost); ``better_missing`` when the analysis
    found no better move for that ply (the board then stays as played)."""
    row = next((row for row in rows if row.ply == ply), None)
    if row is None or not row.best or ply < 1:
        return {"better_missing": True}
    shown = presenters.replay_context(battle, [*moves[: ply - 1], row.best], ply)
    return {
        "board": shown["board"],
        "points": shown["points"],
        "captures": shown["captures"],
        "forfeit": False,
        "better": {"move": row.best, "played": row.move, "cost": signed(-row.loss)},
    }


def analysis_context(
    battle: Battle,
    user,
    *,
    plies: list[dict],
    ply: int,
    last_ply: int,
    moves: Sequence[str | None] = (),
    best: bool = False,
) -> dict:
    """The analysis part of the replay page (``templates/games/_analysis.html``); with
    ``best`` (``?best=1``), also the board showing the better move at ``ply``
    (:func:`better_board`: its keys replace the replay's)."""
    stored = BattleAnalysis.objects.filter(battle=battle).first()
    refused = analysis_runs.analysable(battle)
    context: dict = {
        "analysis": stored,
        "battle_id": battle.pk,
        "analysis_offered": refused is None,
        "analysis_signed_in": bool(user.is_authenticated),
        "analysis_poll_s": POLL_S,
        "analysis_figure": None,
        "analysis_judged": 0,
        "analysis_sides": [],
    }
    if stored is None or stored.status != BattleAnalysis.Status.DONE:
        if best:
            context["better_missing"] = True
        return context
    rows = rows_of(stored)
    annotate_plies(plies, rows)
    context["analysis_figure"] = figure(battle, rows, last_ply=last_ply, ply=ply)
    context["analysis_judged"] = sum(bool(row.judgement) for row in rows)
    context["analysis_sides"] = sides_summary(battle, rows)
    if best:
        context |= better_board(battle, moves, rows, ply)
    return context
