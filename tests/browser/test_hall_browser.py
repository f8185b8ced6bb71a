"""The hall screen on a 1920×1080 projector, against a real uvicorn (page + its event
stream) and the real Redis, in Debian's chromium.

Each slide is shown and screenshotted (test-output/hall-*.png): no scrollbar either way,
no player's name under 32 px. Then, with nobody touching the page: a confirmed result
appears on the pairings, and a move in a live battle moves its counter, each without a
reload; no console error on the way.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from games.battles import joining
from games.battles.play import submit_move
from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match
from tournaments.models.results import ResultVersion
from tournaments.organising.hall import set_announcement, start_round_timer
from tournaments.results.final import record_final_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"
SHOW = """i => { const s = [...document.querySelectorAll('.hall-slide')];
  s.forEach((x, k) => x.classList.toggle('current', k === i)); return s[i].dataset.kind; }"""
FITS = """() => { const d = document.documentElement;
  return d.scrollHeight <= innerHeight && d.scrollWidth <= innerWidth; }"""
SMALLEST_NAME = """() => Math.min(...[...document.querySelectorAll('.hall-slide.current .name')]
  .filter(e => e.textContent.trim()).map(e => parseFloat(getComputedStyle(e).fontSize)))"""


def test_the_hall_screen_fits_a_projector_and_follows_the_round_live(browser, server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    matches = make_match(tables=3, variant="timed24", think_ms=600_000, move_ms=600_000)
    t = matches[0].round.tournament
    now = timezone.now()
    b1, _b2 = create_battles(matches[0], mode=Battle.Mode.ONLINE, now=now)
    joining.open_for_players(b1.pk, side="dwarf", now=now)
    joining.join(b1.pk, side="troll", now=now)
    set_announcement(t, "Lunch at 13:00 in the back room.")
    start_round_timer(t, minutes=45, now=now)

    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/t/{t.slug}/hall/?every=120")
    expect(page.locator("body")).to_have_attribute("data-live", "1", timeout=10_000)
    expect(page.locator(".hall-slide[data-kind=battles]")).to_have_count(1, timeout=10_000)
    kinds = []
    for i in range(page.locator(".hall-slide").count()):
        kind = page.evaluate(SHOW, i)
        kinds.append(kind)
        page.screenshot(path=str(OUT / f"hall-1920-{i}-{kind}.png"))
        assert page.evaluate(FITS), f"the {kind} slide scrolls"
        if kind != "announcement":
            assert page.evaluate(SMALLEST_NAME) >= 32, kind
    assert kinds == ["tables", "names", "battles", "standings", "announcement"]
    expect(page.locator("#hall-timer")).to_contain_text(re.compile(r"4[45]:\d\d"))
    # The running clock counts the think time first (600 s here), as the battle page does.
    running = page.locator(f".hall-battle[data-battle='{b1.pk}'] .clock[data-ends-ms]")
    expect(running).to_have_text(re.compile(r"^(5\d\d|600)$"))

    page.evaluate("window.notReloaded = true")
    page.evaluate(SHOW, 0)
    record_final_result(
        matches[1],
        survivors=(10, 1, 5, 2),
        by=None,
        source=ResultVersion.Source.IMPORT,
        now=timezone.now(),
    )
    row = page.locator(".hall-slide[data-kind=tables] tr", has_text="18 – 9")
    expect(row).to_have_count(1, timeout=6_000)
    # The live battles are followed while their slide is on screen (another kind of slide
    # on screen: they are fetched as the rotation turns to them).
    assert page.evaluate(SHOW, 2) == "battles"
    b1 = Battle.objects.get(pk=b1.pk)
    submit_move(
        b1.pk, side="dwarf", version=b1.clock_version, notation="d F1-F2", now=timezone.now()
    )
    live = page.locator(f".hall-battle[data-battle='{b1.pk}'] .state")
    expect(live).to_have_text("move 1 of 24")  # the dwarfs' first move: still move 1
    submit_move(
        b1.pk,
        side="troll",
        version=b1.clock_version + 1,
        notation="T G7-G6",
        now=timezone.now(),
    )
    expect(live).to_have_text("move 2 of 24", timeout=6_000)
    assert page.evaluate("window.notReloaded") is True
    assert errors == []
    connections.close_all()


def test_the_screen_turns_to_each_live_battles_slide_with_its_battles_fetched(
    browser, server, monkeypatch
):
    """One slide of live battles at a time (issue 44): as the rotation turns to the second
    of two, its battles are in it, and the first, off screen, is an empty place."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    matches = make_match(tables=8, variant="timed24", think_ms=600_000, move_ms=600_000)
    t = matches[0].round.tournament
    now = timezone.now()
    firsts = []
    for m in matches:
        b1, _b2 = create_battles(m, mode=Battle.Mode.ONLINE, now=now)
        joining.open_for_players(b1.pk, side="dwarf", now=now)
        joining.join(b1.pk, side="troll", now=now)
        firsts.append(b1.pk)

    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/t/{t.slug}/hall/?every=5")
    second = page.locator(".hall-slide.current[data-kind=battles]", has_text="2/2")
    expect(second).to_have_count(1, timeout=40_000)  # tables, names, battles 1/2, 2/2
    page.screenshot(path=str(OUT / "hall-1920-battles-2-of-2.png"))
    shown = second.locator(".hall-battle")
    expect(shown).to_have_count(2)
    assert [int(shown.nth(i).get_attribute("data-battle")) for i in range(2)] == firsts[6:]
    first = page.locator(".hall-slide[data-kind=battles]", has_text="1/2")
    assert first.locator(".hall-battle").count() == 0
    assert errors == []
    connections.close_all()
