"""What a player's POST on a battle answers (``games.web.views``): the board fragment for
htmx, a redirect or the page without it, a refusal with its message and status, and the
answer for a battle whose stored board cannot be read.

A refusal answers 409 (stale version, out of turn, the battle's state) or 400 (not a
square, not a legal move). A battle whose record cannot be read (``UnreadableRecord``,
raised by the player's gate before anything is tried) answers 409 with the words its page
already shows, and nothing changes: no move, touch, offer or claim is tried on it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from games.battles import joining
from games.battles.errors import BattleError, InvalidInput, UnreadableRecord
from games.models.battle import Battle
from games.web import permissions, presenters
from thud_site.http import HtmxHttpRequest

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def int_or(value, default: int = -1) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def board(
    request: HtmxHttpRequest,
    battle: Battle,
    side,
    *,
    error: StrOrPromise = "",
    status: int = 200,
    confirm_resign: dict | None = None,
    **kw,
):
    """The board fragment for htmx. Without htmx: a redirect to the battle page after
    success or to the choice to make (its address keeps it: a reload shows it again and
    posts nothing), the page itself for a refusal (with its status) or a question to
    answer (``confirm_resign``).

    The fragment tells htmx the page's address (``HX-Replace-Url``): the choice's while
    one is pending, the plain battle page's once it is made or dropped."""
    choice = kw.get("choice")
    url = presenters.choice_url(
        battle,
        selected=kw.get("choice_from", "") if choice else kw.get("selected", ""),
        to=kw.get("choice_to", "") if choice else "",
    )
    if not request.htmx and not error and confirm_resign is None:
        return redirect(url)
    now = timezone.now()
    context = presenters.board_context(battle, side, now=now, **kw) | {
        "error": error,
        "presence": joining.presence_view(battle, side, now=now),
        "confirm_resign": confirm_resign,
    }
    template = "games/battle.html#board-panel" if request.htmx else "games/battle.html"
    response = render(request, template, context, status=status)
    if request.htmx and not error and confirm_resign is None:
        response["HX-Replace-Url"] = url
    return response


def refused(request: HtmxHttpRequest, battle_id: int, side, exc: BattleError):
    """The fresh board with the refusal's message: 400 for what was sent, else 409."""
    status = 400 if isinstance(exc, InvalidInput) else 409
    battle = permissions.access_battle_public(request.user, battle_id)
    return board(request, battle, side, error=exc.message, status=status)


def choice_refused(battle: Battle) -> str:
    """Why the choice sent with a move is none of the moves offered, in words that fit the
    battle: only a tournament battle of a game with a capture policy has a policy to name."""
    scale = getattr(battle.rules, "tournament_scale", None)
    if not battle.is_casual and scale is not None and "capture_policy" in scale.options:
        return _("That choice of captures is not allowed by this tournament's capture policy.")
    return _("That choice is not one of the moves offered here; choose again.")


def unreadable(request: HtmxHttpRequest, battle: Battle) -> HttpResponse:
    """409 for a player's action on a battle whose record cannot be read: the board
    panel's fragment for htmx (its board cannot be drawn), else the battle's page."""
    template = "games/battle_unreadable.html"
    context = {"battle": battle, "refused": True}
    if request.htmx:
        template += "#board-panel"
    return render(request, template, context, status=409)


def refuses_unreadable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer :func:`unreadable` when the view's gate finds the battle's record unreadable."""

    @functools.wraps(view)
    def guarded(request: HtmxHttpRequest, battle_id: int, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, battle_id, *args, **kwargs)
        except UnreadableRecord as exc:
            return unreadable(request, exc.battle)

    return guarded
