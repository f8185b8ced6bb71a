"""Mis-taps on a game's board (Thud's or Battaglia di Cavalli's) on a 390 px phone,
without and with the tap help of static/js/board.js (a tap on a square that is not a
target, next to exactly one legal target, means that target).

How: random positions (seeded random games from the opening, through the game engine's
public API) with their legal targets, drawn as the live page draws them (the battle
page's board template and presenter, site.css + games.css + the game's CSS, board.js)
in Debian's chromium at 390 × 844 with touch. Thud: a random piece of the side to move
touched, its targets. Cavalli (on a random board, ``Board.from_seed``): there is no touch
step, every square the knight to move may land on is a target. For each trial a target
is chosen at random and tapped at its centre plus a Gaussian offset (σ in CSS px,
independently in x and y); the trial is a mis-tap unless that very target's button is
what the tap submitted. Each σ runs the same seeded taps twice: before (help switched
off) and after. "Before" is not a bare hit test: chromium's own touch adjustment (as on
a phone) already moves many taps on a plain square or a gap onto a nearby button, most
of all on Cavalli's board, where no two targets touch (seed 23, σ 12: 28 % of the taps
land outside their target, 7 % miss).

Run ``.venv/bin/python bench/mistap.py [--game thud|cavalli] [--trials N] [--seed S]``:
prints a table, then (last line) one JSON object. No server and no database: the board
is rendered with Django's templates into a file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thud_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.template.loader import render_to_string  # noqa: E402

from games import cavalli, thud  # noqa: E402
from games.web import presenters_cavalli, presenters_thud  # noqa: E402

SIGMAS = (6.0, 9.0, 12.0)  # CSS px; a 390 px phone is about 6 CSS px per mm
VIEWPORT = {"width": 390, "height": 844}


#: A board to tap: its HTML (the board template's output, plus what the page needs once
#: after ``<main>``) and the names of its legal targets.
Setup = tuple[str, str, list[str]]


def thud_positions(rng: random.Random, count: int) -> list[tuple[thud.Position, thud.Square, list]]:
    """``count`` (position, touched square, its targets) from seeded random games."""
    found = []
    while len(found) < count:
        pos = thud.Position.initial()
        for _ in range(rng.randrange(0, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(rng.choice(moves))
        own = sorted(pos.dwarfs if pos.side_to_move is thud.Side.DWARF else pos.trolls)
        rng.shuffle(own)
        for sq in own:
            targets = sorted(set(pos.targets_from(sq, "subset")))
            if targets:
                found.append((pos, sq, targets))
                break
    return found


def thud_boards(rng: random.Random, count: int) -> list[Setup]:
    """Thud's board with a piece touched and its targets (the pieces' sprite once)."""
    pieces = render_to_string("games/thud/_pieces.svg.html")
    boards = []
    for pos, sq, targets in thud_positions(rng, count):
        board = presenters_thud.board_view(pos, targets=targets, selected=sq)
        inner = render_to_string(
            "games/thud/board.html", {"board": board, "touch_url": "/t/", "move_url": "/m/"}
        )
        boards.append((inner, pieces, [thud.format_square(t) for t in targets]))
    return boards


def cavalli_positions(rng: random.Random, count: int) -> list[cavalli.Position]:
    """``count`` positions with a move to make, from seeded random games on random boards."""
    found = []
    while len(found) < count:
        pos = cavalli.initial(cavalli.Board.from_seed(rng.randrange(1_000_000)))
        for _ in range(rng.randrange(0, 40)):
            moves = cavalli.legal_moves(pos)
            if not moves:
                break
            pos = cavalli.apply(pos, rng.choice(moves))
        if cavalli.legal_moves(pos):
            found.append(pos)
    return found


def cavalli_boards(rng: random.Random, count: int) -> list[Setup]:
    """Cavalli's board with every square the knight to move may land on a target."""
    boards = []
    for pos in cavalli_positions(rng, count):
        targets = sorted({cavalli.format_square(m.to) for m in cavalli.legal_moves(pos)})
        board = presenters_cavalli.board_view(pos, targets=frozenset(targets))
        inner = render_to_string("games/cavalli/board.html", {"board": board, "move_url": "/m/"})
        boards.append((inner, "", targets))
    return boards


#: Per game: its name in the table, its board builder and its stylesheet.
GAMES = {
    "thud": ("Thud", thud_boards, "css/games/thud.css"),
    "cavalli": ("Battaglia di Cavalli", cavalli_boards, "css/games/cavalli.css"),
}


def page_html(inner: str, after_main: str, stylesheet: str) -> str:
    """The battle page's frame around a board: its CSS, its form and board.js; a submit
    is recorded in ``window.hit`` (``name:value`` of the button) instead of sent."""
    css = "".join(
        f'<link rel="stylesheet" href="{(ROOT / "static" / p).as_uri()}">'
        for p in ("css/site.css", "css/games.css", stylesheet)
    )
    return (
        f"<!doctype html><html lang=en><head><meta name=viewport content='width=device-width'>"
        f"{css}</head><body><main><div class=battle-layout><section class=battle-main>"
        f"<div class=battle-board><form id=board-form method=post>{inner}</form></div>"
        f"</section></div></main>{after_main}"
        f"<script src='{(ROOT / 'static/js/board.js').as_uri()}'></script>"
        "<script>document.getElementById('board-form').addEventListener('submit', e => {"
        " e.preventDefault(); window.hit = (e.submitter.name || '') + ':' + e.submitter.value;"
        "});</script></body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), default="thud")
    parser.add_argument("--trials", type=int, default=600, help="taps per σ and mode")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    label, boards, stylesheet = GAMES[args.game]
    tmp = Path(tempfile.mkdtemp(prefix="mistap-"))
    files = []
    for i, (inner, after_main, targets) in enumerate(
        boards(random.Random(args.seed), args.positions)
    ):
        path = tmp / f"board{i}.html"
        path.write_text(page_html(inner, after_main, stylesheet))
        files.append((path.as_uri(), targets))
    results: dict[str, dict[str, float]] = {}
    square_px = 0.0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        ctx = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        for sigma in SIGMAS:
            taps = random.Random(f"{args.seed}-{sigma}")
            plan = []
            for _ in range(args.trials):
                url, targets = files[taps.randrange(len(files))]
                plan.append((url, taps.choice(targets), taps.gauss(0, sigma), taps.gauss(0, sigma)))
            for mode in ("before", "after"):
                missed = 0
                current = None
                for url, target, dx, dy in plan:
                    if url != current:
                        page.goto(url)
                        page.evaluate(
                            "m => { if (m === 'before') document.documentElement.dataset.noTapHelp = '1'; }",
                            mode,
                        )
                        current = url
                    box = page.locator(f'[data-square="{target}"]').bounding_box()
                    square_px = box["width"]
                    page.evaluate("window.hit = null")
                    page.touchscreen.tap(
                        box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2 + dy
                    )
                    if page.evaluate("window.hit") != f"to:{target}":
                        missed += 1
                results.setdefault(f"sigma_{sigma:g}px", {})[mode] = round(
                    100 * missed / len(plan), 1
                )
        browser.close()
    print(
        f"{label} board at {VIEWPORT['width']} px: a square is {square_px:.1f} CSS px; "
        f"{args.trials} taps per σ over {len(files)} positions (seed {args.seed})"
    )
    print(f"{'σ (CSS px)':>11} {'mis-taps before':>16} {'after':>8}")
    for key, row in results.items():
        print(f"{key.split('_')[1]:>11} {row['before']:>15.1f}% {row['after']:>7.1f}%")
    print(
        json.dumps(
            {
                "square_px": round(square_px, 1),
                "trials": args.trials,
                "seed": args.seed,
                "mistap_percent": results,
            }
        )
    )


if __name__ == "__main__":
    main()
