"""Resigning a battle against the computer with the keyboard alone, with real processes
(uvicorn, the bots worker, the clock worker and beat, a real Redis): Tab to *Resign*,
Enter opens the site's dialog that says the score the battle ends with and who wins;
Escape leaves the battle as it was and gives the focus back to the button; Enter again
and *Yes, resign* ends it, and the board says who won and why. axe-core finds no
violation on the finished page. Screenshots: ``/tmp/shots-h42end/resign-*.png``."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.test import Client
from django.utils import timezone

from games.models.battle import Battle
from play import computer
from tests.browser.axe import describe, scan
from tests.browser.keyboard import tab_to
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.clock,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

SHOTS = Path("/tmp/shots-h42end")
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000


def test_a_player_resigns_with_the_keyboard_after_a_question_that_says_the_score(server, browser):
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    player = UserFactory(username="rhea")
    battle = computer.start(
        by=player,
        game="thud",
        level=1,
        side=computer.YOU_FIRST,
        time_control=computer.UNTIMED,
        now=timezone.now(),
    )
    client = Client()
    client.force_login(player)
    cookie = {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([cookie])
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.goto(f"{server}/battles/{battle.pk}/")

    resign = page.locator("#resign")
    tab_to(page, resign, max_presses=80)
    page.keyboard.press("Enter")
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    question = dialog.inner_text()
    assert "Resign this battle?" in question
    assert "(Dwarfs 32 – Trolls 32); the win goes to Trolls." in question
    page.screenshot(path=str(SHOTS / "resign-question-390.png"), full_page=True)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert Battle.objects.get(pk=battle.pk).status == "running"
    assert page.evaluate("document.activeElement.id") == "resign"

    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    tab_to(page, page.locator("#confirm-dialog-ok"), max_presses=3)
    page.keyboard.press("Enter")
    expect(page.locator("#battle-result")).to_contain_text(
        "Trolls won: Dwarfs resigned", timeout=WAIT_MS
    )
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.finished_reason, stored.winner) == ("resigned", "troll")
    assert page.locator("#resign").count() == 0
    page.screenshot(path=str(SHOTS / "resign-done-390.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(SHOTS / "resign-done-1366.png"), full_page=True)
    found = scan(page, "player", "en", f"/battles/{battle.pk}/")
    assert not found, describe(found)
    context.close()
