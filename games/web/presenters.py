"""Template context every game's battle page shares, and the way to a game's presenter.

``battle_context`` is what every game's page shares (players, scores, side names,
the result, the clock); each game draws its board with its own presenter, declared by its
presentation (``games.rules.presentation.Presentation``, registered in
``games.web.presentations``) and reached through :func:`board_context`. A choice the player is making (which pieces
to capture, which square to strike out) is derived again on every read from the battle
and the page's address (:func:`pending_choice`, :func:`choice_url`), so a reload or a live
refresh shows it as it was; :func:`choice_context` is what the boards draw of it.
This module names no game's pieces (``tests/games/test_game_neutral.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.battles.finishing import battle_loss
from games.battles.play import may_resign
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock, clock_face
from games.rules.interface import Game, InvalidMove, MoveInfo
from games.rules.presentation import Presentation
from games.web import move_list, presentations, presenters_play


def presentation_of(game: Game) -> Presentation:
    """How ``game`` is drawn: its templates, style sheet and presenters."""
    return presentations.of(game)


def board_context(battle: Battle, side: str | None, **kw) -> dict:
    """The board panel of the battle's game (its presentation's ``board_context``), with
    the presentation for the page's templates."""
    presentation = presentation_of(battle.rules)
    return presentation.board_context(battle, side, **kw) | {"presentation": presentation}


def rules_context(game: Game) -> dict:
    """The context of ``game``'s rules page (its presentation's ``rules_context``)."""
    presentation = presentation_of(game)
    return presentation.rules_context() | {"presentation": presentation}


def _replay(game: Game):
    presentation = presentation_of(game)
    if presentation.replay_context is None or presentation.replay_diagram_context is None:
        raise LookupError(f"the game {game.key!r} has no replay page")
    return presentation, presentation.replay_context, presentation.replay_diagram_context


def replay_context(battle: Battle, moves: Sequence[str | None], ply: int) -> dict:
    """The replay page of ``battle`` at ``ply`` (the presentation's ``replay_context``)."""
    presentation, replay, _diagram = _replay(battle.rules)
    return replay(battle, moves, ply) | {"presentation": presentation}


def replay_diagram_context(
    battle: Battle, moves: Sequence[str | None], ply: int, *, now: datetime
) -> dict:
    """The printable diagram after ``ply`` plies (its ``replay_diagram_context``)."""
    presentation, _replay_page, diagram = _replay(battle.rules)
    return diagram(battle, moves, ply, now=now) | {"presentation": presentation}


def state_of(battle: Battle):
    """The battle's game state (the opening one before it starts)."""
    game = battle.rules
    if battle.board:
        return game.deserialise(battle.board)
    return game.initial_state({"board_seed": battle.board_seed})


def pending_choice(battle: Battle, side: str | None, *, src: str, dst: str) -> list[MoveInfo]:
    """The moves a click from ``src`` to ``dst`` may mean, when the player of ``side``
    must still choose between several (which pieces to capture, which square to strike
    out); else ``[]``. Derived from the battle as it stands and the two squares (the
    page's ``?sq=…&to=…``), so a reload or a live refresh shows the same choice, and a
    choice the battle has moved past is simply not shown again."""
    if (
        not dst
        or side is None
        or battle.side_to_move != side
        or battle.status != Battle.Status.RUNNING
        or battle.mode != Battle.Mode.ONLINE
    ):
        return []
    try:
        candidates = battle.rules.candidates(state_of(battle), src, dst)
    except (InvalidMove, ValueError):
        return []
    return candidates if len(candidates) > 1 else []


def choice_url(battle: Battle, *, selected: str = "", to: str = "") -> str:
    """The battle page's address with the player's pending selection and choice in it
    (what :func:`pending_choice` reads back): the page a reload shows."""
    query = urlencode({k: v for k, v in (("sq", selected), ("to", to)) if v})
    url = reverse("games:battle", args=[battle.pk])
    return f"{url}?{query}" if query else url


def lazy_board(draw: Callable[[], dict]) -> dict:
    """The board's squares, drawn when the template first reads them: a spectator's
    board is rendered inside the board cache (``board_cache``), so a spectator served
    from it pays for no drawing."""
    return SimpleLazyObject(draw)  # type: ignore[return-value]


def choice_context(
    battle: Battle, choice: Sequence[MoveInfo] | None, *, selected: str, to: str
) -> dict:
    """What every game's board panel says of a pending choice: the squares to choose
    from, the destination, and the address that keeps them (the panel's live refresh
    asks for it, so the choice stays while the clock ticks)."""
    options = sorted({sq for m in choice or () for sq in m.captures})
    return {
        "choice": list(choice or ()),
        "choice_to": to if choice else "",
        "capture_squares": options,
        "panel_url": choice_url(battle, selected=selected, to=to if choice else ""),
    }


def player_names(battle: Battle) -> tuple[str, str]:
    """Who plays the first side and who the second: the entries' players in a tournament
    battle, the users in a casual one ("" for a seat nobody has taken)."""
    if battle.is_casual:
        first, second = (info.key for info in battle.rules.sides)
        names = {first: battle.first_user, second: battle.second_user}
        return tuple(  # type: ignore[return-value]
            _("The computer, level %(level)d") % {"level": battle.bot_level}
            if battle.bot_level is not None and side == battle.bot_side
            else (user.get_username() if user else "")
            for side, user in names.items()
        )
    entries = (battle.first_entry, battle.second_entry)  # tournament seat columns
    return tuple(e.player.name if e else "" for e in entries)  # type: ignore[return-value]


def shown_points(battle: Battle, state=None) -> dict[str, int] | None:
    """Each side's points as every page shows them: a tournament battle whose match has a
    confirmed result shows that result's survivors in points; an over-the-board battle
    without one shows none (None: its board never moved, it would say 32 – 32; the pages
    say the result is not confirmed yet); a finished battle its final score; any other the
    score of ``state`` as it stands (the battle's, read only then, when not given)."""
    game = battle.rules
    version = battle.match.confirmed_version if battle.match is not None else None
    if version is not None:
        first, second = version.survivors.battle_points(battle.number)
        a, b = (info.key for info in game.sides)
        return {a: first, b: second}
    if battle.mode == Battle.Mode.OTB:
        return None
    if battle.is_finished and battle.scores:
        return battle.scores
    return game.scores(state_of(battle) if state is None else state)


def battle_result(battle: Battle, seats: Sequence[dict]) -> str:
    """The finished online battle's result in words, by the one rule (the winner stored by
    ``finishing``): "<side> won: <other side> lost on time", "<side> won", "Draw"."""
    if not (battle.is_finished and battle.mode == Battle.Mode.ONLINE):  # scored by the server
        return ""
    if battle.is_cancelled:
        return _("Cancelled: nobody won or lost")
    won = [seat["name"] for seat in seats if seat["winner"]]
    if not won:
        return _("Draw")
    loss = battle_loss(battle)
    if loss is not None and len(seats) == 2:
        words = {
            "lost_on_time": _("%(winner)s won: %(loser)s lost on time"),
            "resigned": _("%(winner)s won: %(loser)s resigned"),
        }
        return words[loss.how] % {"winner": won[0], "loser": seats[loss.seat]["name"]}
    return _("%(side)s won") % {"side": won[0]}


def end_offer_state(battle: Battle, side: str | None) -> dict:
    """The offer to end the battle as the page says it: who offered it (``offered_by``:
    "me", "opponent" or ""), whether the computer just declined one (shown until the next
    two moves), and whether the player may resign."""
    offered = battle.end_offered_by
    declined = (
        side is not None
        and battle.against_computer
        and not offered
        and battle.status in (Battle.Status.RUNNING, Battle.Status.PAUSED)
        and battle.clock_events.filter(
            kind=ClockEvent.Kind.END_DECLINED, ply__gte=max(battle.ply - 1, 0)
        ).exists()
    )
    resign = side is not None and may_resign(battle)
    return {
        "offered_by": ""
        if not offered or side is None
        else "me"
        if offered == side
        else "opponent",
        "computer_declined": declined,
        "may_resign": resign,
        "resign_outcome": resign_outcome(battle, side) if resign and side else "",
    }


def resign_outcome(battle: Battle, side: str) -> str:
    """What resigning now does, in words, for the question asked before it: the score as
    it stands, and who wins."""
    game = battle.rules
    points = game.scores(state_of(battle))
    score = " – ".join(f"{_(info.name)} {points.get(info.key, 0)}" for info in game.sides)
    winner = next(_(info.name) for info in game.sides if info.key != side)
    text = _(
        "The battle ends now with the score as it stands (%(score)s); the win goes to %(winner)s."
    ) % {"score": score, "winner": winner}
    return text


def battle_context(battle: Battle, side: str | None, state, *, now: datetime) -> dict:
    """What the battle page shows for any game: who plays which side, the scores, and the
    clock as of ``now``."""
    game = battle.rules
    points = shown_points(battle, state)
    seats = []
    for info, player in zip(game.sides, player_names(battle), strict=True):
        seats.append(
            {
                "key": info.key,
                "name": _(info.name),
                "player": player,
                "points": None if points is None else points.get(info.key, 0),
                "to_move": battle.side_to_move == info.key,
                "winner": battle.is_finished and battle.winner == info.key,
            }
        )
    result = battle_result(battle, seats)
    my_turn = (
        side is not None
        and battle.status == Battle.Status.RUNNING
        and battle.side_to_move == side
        and battle.mode == Battle.Mode.ONLINE
    )
    moves = move_list.stored_moves(battle)
    for m in moves:  # the move number players count: each side's nth move is number n
        m.number = m.ply // 2 + 1  # type: ignore[attr-defined]  # for the template only
    clock_part = clock_context(battle, now=now)
    captured = presenters_play.captures_by_side(moves, [str(seat["key"]) for seat in seats])
    for seat in seats:  # a game that takes no pieces counts none (Game.captures_pieces)
        count = captured[str(seat["key"])]
        seat["captures"] = presenters_play.captures_text(count) if game.captures_pieces else ""
    live = battle.status in (Battle.Status.PENDING, Battle.Status.RUNNING, Battle.Status.PAUSED)
    return {
        "battle": battle,
        "side": side,
        "my_turn": my_turn,
        "game_name": _(game.name),
        "captures_pieces": game.captures_pieces,
        "timing_label": presenters_play.timing_label(
            timing=battle.timing, timing_display=battle.get_timing_display(), timed=battle.timed
        ),
        "seats": seats,
        # An over-the-board battle without a confirmed result: no score to show.
        "score_pending": points is None,
        "result": result,
        "end_offer": end_offer_state(battle, side),
        "board_template": presentation_of(game).board_template,
        "moves": moves,
        # Said before the first move only: by then the player has seen the rule at work.
        "rule_line": presenters_play.rule_line(
            timing=battle.timing,
            timed=battle.timed,
            think_ms=battle.think_ms,
            move_ms=battle.move_ms,
            commit_rule=battle.commit_rule,
        )
        if battle.ply == 0
        and live
        and battle.mode == Battle.Mode.ONLINE
        and not battle.touched_square
        else "",
        "touch_line": presenters_play.touch_line(
            touched=battle.touched_square if battle.status == Battle.Status.RUNNING else "",
            mine=side is not None and side == battle.side_to_move,
            move_ms=battle.move_ms,
            timed=battle.timed,
        ),
        "clock_faces": presenters_play.clock_faces(
            seats, viewer=side, snap=clock_part["snap"], think_ms=battle.think_ms
        ),
        **clock_part,
    }


def diagram_context(battle: Battle, *, now: datetime) -> dict:
    """The printable, read-only diagram of a battle's current position (any game)."""
    return board_context(battle, None, now=now) | {"plies": battle.ply}


def clock_context(battle: Battle, *, now: datetime) -> dict:
    """The clock panel as of ``now``."""
    snap = clock_face.snapshot(battle.clock_state, now)
    limit = battle.max_plies
    # Moves per side, as players count them ("Move 2 of 24"), whatever the unit.
    per_side = (limit + 1) // 2 if limit else None
    move_no = battle.ply // 2 + 1
    names, players = _seat_names(battle)
    reading = clock_reading(snap)
    label = PHASE_LABELS.get(snap["phase"], PHASE_LABELS.get(snap["status"], ""))
    if (
        snap["status"] == clock.PAUSED
        and reading["kind"]
        and battle.timing == Battle.Timing.QUICKFIRE
    ):
        label = PAUSED_LABELS[reading["kind"]]
    return {
        "snap": snap,
        "side_to_move_name": names.get(snap["side"], snap["side"]),
        "side_to_move_player": players.get(snap["side"], ""),
        "side_names_json": json.dumps(names),
        "side_players_json": json.dumps(players),
        "move_no": min(move_no, per_side) if per_side else move_no,
        "move_limit": per_side,
        "reading": reading,
        "phase_label": label,
    }


def clock_reading(snap: dict) -> dict:
    """The figure the clock shows, running or stopped alike (``static/js/clock.js`` draws
    the same): while think time is left, its seconds, whole and rounded up (``kind``
    "think"); after it, the turn's seconds left to the tenth, rounded down ("move"). A
    paused clock thus shows the figure it counts down from when it runs again.

    >>> clock_reading({"remaining_ms": 17_400, "think_remaining_ms": 12_400})
    {'kind': 'think', 'seconds': 13}
    >>> clock_reading({"remaining_ms": 3_460, "think_remaining_ms": 0})
    {'kind': 'move', 'seconds': 3.4}
    >>> clock_reading({"remaining_ms": None, "think_remaining_ms": None})
    {'kind': '', 'seconds': None}
    """
    remaining, think = snap["remaining_ms"], snap["think_remaining_ms"]
    if remaining is None:
        return {"kind": "", "seconds": None}
    if think:
        return {"kind": "think", "seconds": -(-think // 1000)}
    return {"kind": "move", "seconds": max(0, remaining) // 100 / 10}


def _seat_names(battle: Battle) -> tuple[dict[str, str], dict[str, str]]:
    """Each side's name (translated, from the game) and its player's, by side key."""
    names = {info.key: _(info.name) for info in battle.rules.sides}
    return names, dict(zip(names, player_names(battle), strict=True))


def who(battle: Battle, side: str) -> str:
    """The player of ``side`` with the side, as the clock names them: "Agnes Nitt (White)";
    the side alone for a seat nobody has taken (``static/js/clock.js`` says the same)."""
    names, players = _seat_names(battle)
    name = names.get(side, side)
    if not players.get(side):
        return name
    return _("%(player)s (%(side)s)") % {"player": players[side], "side": name}


PHASE_LABELS = {
    "think": gettext_lazy("Think"),
    "move": gettext_lazy("MOVE NOW"),
    clock.PAUSED: gettext_lazy("Paused"),
    clock.NEEDS_REFEREE: gettext_lazy("Waiting for a referee"),
    clock.FINISHED: gettext_lazy("Battle over"),
    clock.PENDING: gettext_lazy("Not started"),
}
#: A paused clock's label says which figure it shows (``clock_reading``).
PAUSED_LABELS = {
    "think": gettext_lazy("Paused (think)"),
    "move": gettext_lazy("Paused (move)"),
}


def ply_in(text: str, moves: Sequence[str | None]) -> int | None:
    """``?ply=`` as a ply of the record (0 to the number of plies), else ``None``."""
    text = text.strip()
    if not text.isdigit() or int(text) > len(moves):
        return None
    return int(text)


def bad_ply_message(moves: Sequence[str | None]) -> str:
    return _("ply must be a whole number from 0 to %(last)d.") % {"last": len(moves)}
