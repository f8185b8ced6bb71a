"""A whole timed quickfire battle of Battaglia di Cavalli played by keyboard only, to its
move limit: two players in two browser contexts against a real uvicorn (pages + SSE) and
a real Celery worker and beat; the Cavalli counterpart of test_keyboard_battle_browser.py.

Cavalli's rules end a game only when the side to move has no legal move, but a quickfire
variant's move limit counts plies of either game (``Tournament.max_plies``): like the Thud
test, the battle's limit is cut to ``PLIES`` and the battle ends there (``move_limit``),
with the engine saying the game is still open. The line is the engine's, fixed by
``BOARD_SEED``: random moves whose square has one meaning, except once (the first time a
jump offers one) a landing on a double with the double to strike out chosen in the page.

Each ply: Tab to the board if the focus is elsewhere (one Tab stop: a roving tabindex),
arrow keys to a square announced as a legal move, Enter or Space (a Cavalli player has
one piece: landing is the whole move, there is nothing to select first). For the double:
arrow keys from the pre-checked double to the other one, named by its number, Enter. After
every move ``document.activeElement`` is on the board, on both players' pages.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import connections
from django.utils import timezone

from games.battles.referee import pause, resume
from games.battles.starting import create_battles, start_battle
from games.cavalli import Board, Move, Position, format_move, format_square
from games.models.battle import Battle
from games.models.history import Move as MoveRow
from tests.browser.sessions import session_cookie
from tests.browser.test_keyboard_battle_browser import (
    OUT,
    focus_board,
    settled_focus,
    wait_focus_on,
    walk_to,
)
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLIES = 6
#: A board on which a jump to a double with a choice comes within ``PLIES``.
BOARD_SEED = 7


def radio_order(position: Position, move: Move) -> list[str]:
    """The doubles to strike out as the page lists them (by name; the first is checked)."""
    return sorted(format_square(sq) for sq in position.choices(move.to))


def keyboard_line(start: Position, plies: int, rng: random.Random) -> list[Move]:
    """``plies`` moves from ``start`` (see the module docstring): the game stays open."""
    line, pos, chose = [], start, False
    for ply in range(plies):
        moves = pos.legal_moves()
        assert moves, f"the game ends at ply {ply} on this board: pick another BOARD_SEED"
        doubles = [m for m in moves if m.choice is not None and len(radio_order(pos, m)) > 1]
        if doubles and not chose and ply >= 2:
            target = rng.choice(doubles).to
            second = radio_order(pos, Move(target, 0))[1]
            move = next(m for m in doubles if m.to == target and format_square(m.choice) == second)
            chose = True
        else:
            move = rng.choice([m for m in moves if not pos.choices(m.to)])
        line.append(move)
        pos = pos.apply(move)
    assert chose, "no double with a choice on this line: pick another BOARD_SEED"
    assert pos.outcome() is None
    return line


def choose_double_by_keyboard(page, position: Position, move: Move) -> None:
    """The landing asked which double to strike out, on the board itself (issue 42): the
    focus is on the pre-checked double, named by its number; arrow keys to the wanted
    one (a radio named "Strike out NN"), Enter picks it and confirms."""
    wanted = format_square(move.choice)
    page.wait_for_function(
        """() => document.querySelector('#capture-form') && document.activeElement
             && document.activeElement.classList.contains('option-input')""",
        timeout=10_000,
    )
    names = radio_order(position, move)
    assert names.index(wanted) == 1
    assert page.evaluate("document.activeElement.value") == names[0]
    walk_to(page, wanted)
    number = f"{position.number_at(move.choice):02d}"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        f"Strike out {number}"
    )
    page.screenshot(path=str(OUT / "battle-keyboard-cavalli-double-choice.png"))
    page.keyboard.press("Enter")


def test_a_timed_cavalli_battle_is_played_to_its_move_limit_by_keyboard_only(
    browser, server, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    match = make_match(variant="timed24", game="cavalli", think_ms=60_000, move_ms=30_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(max_plies=PLIES, board_seed=BOARD_SEED)
    start_battle(b1.pk, now=timezone.now())
    pause(b1.pk, now=timezone.now())  # until both pages are open
    url = f"{server}/battles/{b1.pk}/"
    positions = [Position.initial(Board.from_seed(BOARD_SEED))]
    line = keyboard_line(positions[0], PLIES, random.Random(BOARD_SEED))
    for move in line:
        positions.append(positions[-1].apply(move))

    pages = {}
    for side, entry in (("white", match.player_a), ("black", match.player_b)):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.add_cookies([session_cookie(entry.player.user, server)])
        page = ctx.new_page()
        page.goto(url)
        expect(page.locator("#clock-panel")).to_have_attribute("data-phase", "paused")
        pages[side] = page
    resume(b1.pk, now=timezone.now())
    expect(pages["white"].locator(".clock-face.mine")).to_have_class(re.compile(r"\bactive\b"))
    pages["white"].screenshot(path=str(OUT / "battle-keyboard-cavalli-1366x768-first-move.png"))

    for ply, move in enumerate(line):
        battle = Battle.objects.get(pk=b1.pk)
        assert battle.side_to_move == positions[ply].to_move.value
        mover = pages[battle.side_to_move]
        other = pages["black" if battle.side_to_move == "white" else "white"]
        expect(mover.locator("#board-panel")).to_contain_text("Your turn", timeout=10_000)
        notation, dst = format_move(move), format_square(move.to)
        focus_board(mover)
        walk_to(mover, dst)
        expect(mover.locator(":focus")).to_have_accessible_name(
            re.compile(rf"^{dst}, legal move\b")
        )
        version = mover.locator("#board-panel").get_attribute("data-version")
        mover.keyboard.press("Enter" if ply % 2 == 0 else " ")  # land
        if move.choice is not None:
            choose_double_by_keyboard(mover, positions[ply], move)
        wait_focus_on(mover, dst, version)
        expect(other.locator("#move-list li")).to_have_count(ply + 1, timeout=10_000)
        expect(mover.locator("#move-list li").nth(ply)).to_have_text(notation)
        if ply < PLIES - 1:  # two clocks: now the other player's runs, on both pages
            for page, theirs in (
                (mover, ".clock-face:not(.mine)"),
                (other, ".clock-face.mine"),
            ):
                expect(page.locator(theirs)).to_have_class(re.compile(r"\bactive\b"))
                expect(page.locator(".clock-face.active")).to_have_count(1)
        assert settled_focus(mover, ply + 1) == dst
        if ply >= 1:  # the waiting player's focus stayed on their board through the swap
            assert settled_focus(other, ply + 1), "the waiting player's focus left the board"
            expect(other.locator("#announcer")).to_contain_text(notation)

    end = positions[-1]
    for page in pages.values():
        panel = page.locator("#board-panel")
        expect(panel).to_contain_text("Finished", timeout=10_000)
        expect(panel.locator(".score")).to_contain_text(f"White {end.white_score}")
        expect(panel.locator(".score")).to_contain_text(f"Black {end.black_score}")
        assert panel.locator("button.target").count() == 0
    connections.close_all()

    rows = MoveRow.objects.filter(battle_id=b1.pk).order_by("ply")
    assert list(rows.values_list("kind", "notation")) == [("move", format_move(m)) for m in line]
    b1 = Battle.objects.get(pk=b1.pk)
    assert (b1.status, b1.finished_reason) == ("finished", "move_limit")
