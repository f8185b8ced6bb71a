"""A whole quickfire battle played by keyboard only, to its move limit: two players in two
browser contexts against a real uvicorn (pages + SSE) and a real Celery worker and beat.

Each ply: Tab to the board if the focus is elsewhere (one Tab stop: a roving tabindex),
arrow keys to the piece, Enter (the touch: the server answers a new panel and the focus
stays on that square), arrow keys to a target announced as a legal move, Enter. After
every move ``document.activeElement`` is on the board, on both players' pages.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from games.battles.referee import pause, resume
from games.battles.starting import create_battles, start_battle
from games.engines import registry
from games.models.battle import Battle
from games.models.history import Move
from tests.browser.sessions import session_cookie
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLIES = 6
OUT = Path(__file__).resolve().parents[2] / "test-output"
KEYS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
FOCUSED = """() => { const el = document.activeElement;
  return el && el.closest('[data-board]') && el.dataset.square ? el.dataset.square : null; }"""


def settled_focus(page, plies: int) -> str | None:
    """The board's focused square once the panel after ``plies`` plies has settled.

    Waited for, not read once: board.js puts the focus back at htmx's settle, some 20 ms
    after the swap, and until then it is on the body; the page may also swap the panel
    again meanwhile (the live event of a move the player made themself)."""
    handle = page.wait_for_function(
        f"p => document.getElementById('board-panel').dataset.ply === p && ({FOCUSED})()",
        arg=str(plies),
        timeout=10_000,
    )
    return handle.json_value()


def squares(page) -> dict[str, tuple[int, int]]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-board] [data-square]')]
             .map(el => [el.dataset.square, [Number(el.dataset.r), Number(el.dataset.c)]]))"""
    )


def key_path(cells: dict[str, tuple[int, int]], start: str, goal: str) -> list[str]:
    """Arrow keys from ``start`` to ``goal``, stepping as static/js/board.js does (to the
    next square of the board in that direction)."""
    at = {tuple(rc): name for name, rc in cells.items()}
    seen, queue = {start: []}, deque([start])
    while queue:
        name = queue.popleft()
        if name == goal:
            return seen[name]
        r, c = cells[name]
        for key, (dr, dc) in KEYS.items():
            nxt = next(
                (
                    at[(r + dr * i, c + dc * i)]
                    for i in range(1, 20)
                    if (r + dr * i, c + dc * i) in at
                ),
                None,
            )
            if nxt and nxt not in seen:
                seen[nxt] = seen[name] + [key]
                queue.append(nxt)
    raise AssertionError(f"no way from {start} to {goal}")


def focus_board(page) -> None:
    """Tab until the board has the focus; the board is a single Tab stop."""
    for _ in range(80):
        if page.evaluate(FOCUSED):
            break
        page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED), "Tab never reached the board"
    stops = page.evaluate(
        "document.querySelectorAll('[data-board] [data-square]:not([tabindex=\"-1\"])').length"
    )
    assert stops == 1


def walk_to(page, goal: str) -> None:
    for key in key_path(squares(page), page.evaluate(FOCUSED), goal):
        page.keyboard.press(key)
    assert page.evaluate(FOCUSED) == goal


def wait_focus_on(page, square: str, version_before: str) -> None:
    page.wait_for_function(
        """([sq, v]) => { const p = document.getElementById('board-panel');
             const el = document.activeElement;
             return p && p.dataset.version !== v && el && el.dataset.square === sq
                    && el.closest('[data-board]'); }""",
        arg=[square, version_before],
        timeout=10_000,
    )


def test_a_quickfire_battle_is_played_to_its_move_limit_by_keyboard_only(
    browser, server, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    # Timed quickfire with the touch rule; times long enough for a scripted keyboard.
    match = make_match(variant="timed24", think_ms=60_000, move_ms=30_000)[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(max_plies=PLIES)
    start_battle(b1.pk, now=timezone.now())
    pause(b1.pk, now=timezone.now())  # until both pages are open
    url = f"{server}/battles/{b1.pk}/"
    game = registry.get("thud")

    pages = {}
    for side, entry in (("dwarf", match.player_a), ("troll", match.player_b)):
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        ctx.add_cookies([session_cookie(entry.player.user, server)])
        page = ctx.new_page()
        page.goto(url)
        expect(page.locator("#clock-panel")).to_have_attribute("data-phase", "paused")
        pages[side] = page
    expect(pages["dwarf"].locator("#rule-line")).to_have_text(
        "60 s to think; selecting a piece starts your 30 s to move it."
    )
    resume(b1.pk, now=timezone.now())
    expect(pages["dwarf"].locator(".clock-face.mine")).to_have_class(re.compile(r"\bactive\b"))
    pages["dwarf"].screenshot(path=str(OUT / "battle-keyboard-1366x768-first-move.png"))

    for ply in range(PLIES):
        battle = Battle.objects.get(pk=b1.pk)
        state = game.deserialise(battle.board) if battle.board else game.initial_state()
        mover = pages[battle.side_to_move]
        other = pages["troll" if battle.side_to_move == "dwarf" else "dwarf"]
        expect(mover.locator("#board-panel")).to_contain_text("Your turn", timeout=10_000)
        # A quiet move: no capture, one meaning for its two squares.
        notation = next(
            n
            for n in game.legal_moves(state)
            if "x" not in n and len(game.candidates(state, *n.split()[1].split("-"))) == 1
        )
        src, dst = notation.split()[1].split("-")
        focus_board(mover)
        walk_to(mover, src)
        version = mover.locator("#board-panel").get_attribute("data-version")
        mover.keyboard.press("Enter")  # touch
        wait_focus_on(mover, src, version)
        expect(mover.locator("#touch-line")).to_contain_text(f"You touched {src}")
        walk_to(mover, dst)
        assert mover.evaluate("document.activeElement.getAttribute('aria-label')") == (
            f"{dst}, legal move"
        )
        version = mover.locator("#board-panel").get_attribute("data-version")
        mover.keyboard.press("Enter")  # move
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
        assert mover.evaluate(FOCUSED) == dst
        if ply >= 1:  # the waiting player's focus stayed on their board through the swap
            assert settled_focus(other, ply + 1), "the waiting player's focus left the board"
            expect(other.locator("#announcer")).to_contain_text(notation)

    for page in pages.values():
        expect(page.locator("#board-panel")).to_contain_text("Finished", timeout=10_000)
    connections.close_all()

    kinds = list(Move.objects.filter(battle_id=b1.pk).values_list("kind", flat=True))
    assert len(kinds) == PLIES and "forfeit" not in kinds
    b1 = Battle.objects.get(pk=b1.pk)
    assert (b1.status, b1.finished_reason) == ("finished", "move_limit")
