"""The hall screen through a tournament day (issue 41), left open on a 1920×1080
projector from before round 1 to after the close, against a real uvicorn and Redis: the
round heading follows each published round, an over-the-board battle says its result is
not confirmed yet (there and on its battle page, at 390 and 1366 px), then shows its
confirmed survivors (in points), and the closed tournament's final slide replaces the
timer and the pairings, all without a reload. Screenshots: test-output/hall/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from games.battles.starting import create_battles
from games.models.battle import Battle
from tests.factories import make_match
from tests.tournaments.rounds.played import finish
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Round
from tournaments.organising.hall import start_round_timer
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import close_tournament, publish_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output" / "hall"
SHOW = """kind => { const s = [...document.querySelectorAll('.hall-slide')];
  const i = Math.max(0, s.findIndex(x => x.dataset.kind === kind));
  s.forEach((x, k) => x.classList.toggle('current', k === i)); return s[i].dataset.kind; }"""
PENDING = "Over the board — result not yet confirmed"
FITS = """() => { const d = document.documentElement;
  return d.scrollHeight <= innerHeight && d.scrollWidth <= innerWidth; }"""


def test_the_hall_left_open_all_day_follows_rounds_results_and_the_close(
    browser, server, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(parents=True, exist_ok=True)
    matches = make_match(tables=2, variant="timed24")
    round_1 = matches[0].round
    Round.objects.filter(pk=round_1.pk).update(status=Round.Status.DRAFT)
    t = round_1.tournament

    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/t/{t.slug}/hall/?every=120")
    expect(page.locator("body")).to_have_attribute("data-live", "1", timeout=10_000)
    heading = page.locator("#hall-round")
    expect(heading).to_have_text("Before round 1")
    page.screenshot(path=str(OUT / "1-before-round-1.png"))
    page.evaluate("window.notReloaded = true")

    publish_round(Round.objects.get(pk=round_1.pk), now=timezone.now())
    expect(heading).to_have_text("Round 1", timeout=8_000)
    b1, b2 = create_battles(matches[0], mode=Battle.Mode.OTB, now=timezone.now())
    Battle.objects.filter(pk__in=[b1.pk, b2.pk]).update(status=Battle.Status.FINISHED)
    start_round_timer(t, minutes=45, now=timezone.now())
    expect(page.locator("#hall-timer")).to_contain_text(re.compile(r"4[45]:\d\d"), timeout=8_000)
    page.evaluate(SHOW, "tables")
    page.screenshot(path=str(OUT / "2-mid-round.png"))
    # Over the board, no result confirmed yet: a word, not the unmoved board's 32 – 32.
    pending = page.locator(f".hall-battle[data-battle='{b1.pk}'] .pending")
    expect(pending).to_have_text(PENDING, timeout=8_000)
    expect(page.locator(f".hall-battle[data-battle='{b1.pk}'] .points")).to_have_count(0)
    page.evaluate(SHOW, "battles")
    page.screenshot(path=str(OUT / "2-mid-round-battles.png"))
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{server}/battles/{b1.pk}/")
    expect(phone.locator("#score-pending")).to_have_text(PENDING)
    for width in (390, 1366):
        phone.set_viewport_size({"width": width, "height": 844})
        assert phone.evaluate("document.documentElement.scrollWidth") <= width
        phone.screenshot(path=str(OUT / f"otb-battle-pending-{width}.png"), full_page=True)
    phone.close()

    record_final_result(
        matches[0],
        survivors=(28, 4, 26, 5),
        by=None,
        source=ResultVersion.Source.IMPORT,
        now=timezone.now(),
    )
    otb = page.locator(f".hall-battle[data-battle='{b1.pk}'] .points")
    expect(otb).to_have_text(["28", "16"], timeout=8_000)  # 28 dwarfs, 4 trolls
    expect(page.locator(".hall-slide[data-kind=tables] tr", has_text="48 – 42")).to_have_count(1)
    page.evaluate(SHOW, "battles")
    assert page.evaluate(FITS)
    page.screenshot(path=str(OUT / "3-after-results-battles.png"))
    page.evaluate(SHOW, "tables")
    page.screenshot(path=str(OUT / "3-after-results-tables.png"))

    finish(Round.objects.get(pk=round_1.pk))
    publish_round(pair_next_round(t, by=None, now=timezone.now()), now=timezone.now())
    expect(heading).to_have_text("Round 2", timeout=8_000)
    finish(Round.objects.get(tournament=t, number=2))
    close_tournament(t, now=timezone.now())
    expect(heading).to_have_text("Final results", timeout=8_000)
    expect(page.locator(".hall-slide[data-kind=final]")).to_have_count(1)
    expect(page.locator("#hall-timer")).to_have_count(0)
    expect(page.locator(".hall-slide[data-kind=names]")).to_have_count(0)
    page.evaluate(SHOW, "final")
    assert page.evaluate(FITS)
    page.screenshot(path=str(OUT / "4-closed-champion.png"))
    page.evaluate(SHOW, "standings")
    page.screenshot(path=str(OUT / "4-closed-standings.png"))
    assert page.evaluate("window.notReloaded") is True
    assert errors == []
    connections.close_all()
