"""Mis-taps on Thud's board on a 390 px phone, without and with the tap help of
static/js/board.js (a tap on a square that is not a target, next to exactly one legal
target, means that target).

How: random positions (seeded random games from the opening), a random piece of the side
to move touched, its legal targets drawn as the live page draws them (the battle page's
board template, site.css + games.css + thud.css, board.js) in Debian's chromium at
390 × 844 with touch. For each trial a target is chosen at random and tapped at its
centre plus a Gaussian offset (σ in CSS px, independently in x and y); the trial is a
mis-tap unless that very target's button is what the tap submitted. Each σ runs the same
seeded taps twice: before (help switched off) and after.

Run ``.venv/bin/python bench/mistap.py [--trials N] [--seed S]``: prints a table, then (last
line) one JSON object. No server and no database: the board is rendered with Django's
templates into a file.
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

from games import thud  # noqa: E402
from games.presenters_thud import board_view  # noqa: E402

SIGMAS = (6.0, 9.0, 12.0)  # CSS px; a 390 px phone is about 6 CSS px per mm
VIEWPORT = {"width": 390, "height": 844}


def positions(rng: random.Random, count: int) -> list[tuple[thud.Position, thud.Square, list]]:
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


def page_html(pos: thud.Position, sq: thud.Square, targets: list) -> str:
    board = board_view(pos, targets=targets, selected=sq)
    inner = render_to_string(
        "games/thud/board.html", {"board": board, "touch_url": "/t/", "move_url": "/m/"}
    )
    pieces = render_to_string("games/thud/_pieces.svg.html")
    css = "".join(
        f'<link rel="stylesheet" href="{(ROOT / "static" / p).as_uri()}">'
        for p in ("css/site.css", "css/games.css", "css/games/thud.css")
    )
    return (
        f"<!doctype html><html lang=en><head><meta name=viewport content='width=device-width'>"
        f"{css}</head><body><main><div class=battle-layout><section class=battle-main>"
        f"<div class=battle-board><form id=board-form method=post>{inner}</form></div>"
        f"</section></div></main>{pieces}"
        f"<script src='{(ROOT / 'static/js/board.js').as_uri()}'></script>"
        "<script>document.getElementById('board-form').addEventListener('submit', e => {"
        " e.preventDefault(); window.hit = (e.submitter.name || '') + ':' + e.submitter.value;"
        "});</script></body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=600, help="taps per σ and mode")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    boards = positions(rng, args.positions)
    tmp = Path(tempfile.mkdtemp(prefix="mistap-"))
    files = []
    for i, (pos, sq, targets) in enumerate(boards):
        path = tmp / f"board{i}.html"
        path.write_text(page_html(pos, sq, targets))
        files.append((path.as_uri(), [thud.format_square(t) for t in targets]))
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
        f"Thud board at {VIEWPORT['width']} px: a square is {square_px:.1f} CSS px; "
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
