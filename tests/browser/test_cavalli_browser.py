"""Two players, each in their own 360 px wide browser, play a correspondence game of
Battaglia di Cavalli to the end on the pages, served by a real uvicorn (pages + SSE)
with a real Celery worker and beat.

Player 1 challenges player 2 on /play/, player 2 accepts, then both click the board:
the placements on rank 1 and rank 10, a landing on a double with the double to strike
out chosen in the page, and moves until the side to move has none. /play/stats/ (site
and per player) then counts the game. The line is found by the pure engine at test time
on a fixed board: the shortest line that ends the game and lands on a double with a
real choice (not the one the page pre-selects). Screenshots go to test-output/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connections

from games.cavalli import Board, Move, Position, format_move, format_square
from games.engines import registry
from games.models.battle import Battle
from play.models import Challenge
from tests.browser.sessions import session_cookie
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"
#: A board on which a 5-ply game exists that places on a double with a choice.
BOARD_SEED = 0


def real_choice(position: Position, move: Move) -> bool:
    """Landing on a double with several doubles to strike out, and not the first of them
    (the one the page checks by default): the choice has to be made in the page."""
    choices = position.choices(move.to)
    return move.choice is not None and len(choices) > 1 and move.choice != min(choices)


def short_game(position: Position, max_plies: int) -> list[Move] | None:
    """The first line (iterative deepening DFS over the engine's moves) of at most
    ``max_plies`` plies that ends the game and includes a real double choice."""

    def search(pos: Position, plies: int, chose: bool) -> list[Move] | None:
        if not pos.has_legal_move():
            return [] if chose else None
        if plies == 0:
            return None
        for move in pos.legal_moves():
            rest = search(pos.apply(move), plies - 1, chose or real_choice(pos, move))
            if rest is not None:
                return [move, *rest]
        return None

    for depth in range(1, max_plies + 1):
        line = search(position, depth, False)
        if line is not None:
            return line
    return None


def site_counts(page) -> dict[str, str]:
    """The site column of Cavalli's statistics table, by result row."""
    table = page.locator("#stats-cavalli")
    return {
        key: table.locator(f"tr[data-result={key}] td").first.inner_text()
        for key in ("first", "second", "draws", "total")
    }


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 360).map(e => e.outerHTML.slice(0, 80))"
    )
    assert width <= 360, f"{page.url} scrolls sideways: {width} px wide at 360 px: {wide}"


def test_two_players_play_a_correspondence_cavalli_game_to_the_end(browser, server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    game = registry.get("cavalli")
    start = Position.initial(Board.from_seed(BOARD_SEED))
    line = short_game(start, max_plies=6)
    assert line is not None, "no short game on this board: pick another BOARD_SEED"
    positions = [start]
    for move in line:
        positions.append(positions[-1].apply(move))
    end = positions[-1].outcome()
    assert end is not None
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")

    pages = []
    for user in (alice, bob):
        ctx = browser.new_context(viewport={"width": 360, "height": 800})
        ctx.add_cookies([session_cookie(user, server)])
        pages.append(ctx.new_page())
    white, black = pages  # alice challenges and moves first: she plays white

    white.goto(f"{server}/play/stats/")
    before = site_counts(white)

    # Alice challenges Bob to a correspondence game in which she moves first.
    white.goto(f"{server}/play/")
    form = white.locator("#new-challenge form")
    form.locator("input[name=username]").fill("bob")
    form.locator("input[name=game][value=cavalli]").check()
    form.locator("input[name=timing][value=correspondence]").check()
    form.locator("input[name=days]").fill("2")
    # The side by its name in the chosen game (the script hides the other games' names).
    form.get_by_role("radio", name="White", exact=True).check()
    assert form.locator("input[name=first][value=challenger]").is_checked()
    no_horizontal_scroll(white)
    form.locator("button[type=submit]").click()
    expect(white.locator("#made")).to_contain_text("bob")
    white.screenshot(path=str(OUT / "cavalli-challenge-made.png"), full_page=True)

    # Bob accepts on his /play/ page and lands on the new battle's page.
    black.goto(f"{server}/play/")
    challenge = black.locator("#received li.challenge")
    expect(challenge).to_contain_text("alice")
    no_horizontal_scroll(black)
    challenge.get_by_role("button", name="Accept").click()
    black.wait_for_url("**/battles/*/")
    battle = Battle.objects.get(challenge__challenger=alice)
    assert (battle.game, battle.timing, battle.first_user, battle.second_user) == (
        "cavalli",
        "correspondence",
        alice,
        bob,
    )
    assert Challenge.objects.get().status == "accepted"

    # The seed of an accepted challenge is random (games.battles.starting.create_casual_battle):
    # put the fixed board in before the first move, then reload both pages.
    Battle.objects.filter(pk=battle.pk, ply=0).update(
        board_seed=BOARD_SEED, board=game.serialise(start)
    )
    # Alice finds the game among hers, waiting for her move.
    white.goto(f"{server}/play/games/")
    white.locator(f"#your-move li[data-battle='{battle.pk}'] a").click()
    white.wait_for_url(f"**/battles/{battle.pk}/")
    black.reload()
    for page in pages:
        expect(page.locator("#board-panel")).to_contain_text("Moves")
        no_horizontal_scroll(page)

    for ply, move in enumerate(line):
        mover, waiter = pages[ply % 2], pages[1 - ply % 2]
        notation = format_move(move)
        expect(mover.locator("#board-panel")).to_contain_text("Your turn", timeout=10_000)
        mover.locator(f"button.target[data-square={format_square(move.to)}]").click()
        if real_choice(positions[ply], move):
            choice = mover.locator("#capture-form")
            expect(choice).to_be_visible()
            # The doubles are radio buttons on the board's squares (issue 42).
            mover.locator(f".cavalli-board input[value={format_square(move.choice)}]").check()
            no_horizontal_scroll(mover)
            mover.screenshot(path=str(OUT / "cavalli-double-choice.png"), full_page=True)
            choice.locator("#confirm-capture").click()
        for page in (mover, waiter):  # the opponent's page follows live
            expect(page.locator("#move-list li").nth(ply)).to_have_text(notation, timeout=10_000)

    scores = {"white": end.white_points, "black": end.black_points}
    winner = end.winner.value if end.winner else ""
    for name, page in (("white", white), ("black", black)):
        panel = page.locator("#board-panel")
        expect(panel).to_contain_text("Finished", timeout=10_000)
        expect(panel.locator(".score")).to_contain_text(f"White {scores['white']}")
        expect(panel.locator(".score")).to_contain_text(f"Black {scores['black']}")
        result = f"{winner.title()} won" if winner else "Draw"
        expect(panel.locator("#battle-result")).to_have_text(result)
        assert panel.locator("button.target").count() == 0
        no_horizontal_scroll(page)
        page.screenshot(path=str(OUT / f"cavalli-finished-{name}.png"), full_page=True)

    # Statistics: the site column moved by one in the winner's row (or draws).
    white.goto(f"{server}/play/stats/")
    after = site_counts(white)
    key = {"white": "first", "black": "second", "": "draws"}[winner]
    for row in ("first", "second", "draws", "total"):
        grown = int(after[row].split()[0]) - int(before[row].split()[0])
        assert grown == (1 if row in (key, "total") else 0), (row, before, after)
    no_horizontal_scroll(white)
    white.screenshot(path=str(OUT / "cavalli-stats.png"), full_page=True)
    # ... and each player's column counts it for their side.
    for user, side_row in ((alice, "first"), (bob, "second")):
        white.goto(f"{server}/play/stats/?player={user.username}")
        cell = white.locator(f"#stats-cavalli tr[data-result={side_row}] td").nth(1)
        won = 1 if key == side_row else 0
        side = "White" if side_row == "first" else "Black"
        expect(cell).to_have_text(f"won {won} of 1 as {side}")
    connections.close_all()

    battle = Battle.objects.get(pk=battle.pk)
    assert battle.status == "finished" and battle.winner == winner
    assert [m.notation for m in battle.moves.order_by("ply")] == [format_move(m) for m in line]
