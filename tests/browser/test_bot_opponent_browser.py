"""A person challenges a bot from the browser and plays it: the bot account's engine is
connected by the reference client (scripts/thud_bot.py, API v1 only) to the real site
(uvicorn, a clock worker and beat, the real Redis). The person's page turns into the
battle when the bot accepts, the bot answers the person's move, and the person resigns
after the question; the bot's client sees the end and stops."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import tokens
from games.models.battle import Battle
from games.models.history import Move
from play import bots
from play.models import Challenge
from tests.browser.sessions import session_cookie
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLIENT = Path(settings.BASE_DIR) / "scripts" / "thud_bot.py"
WAIT_MS = 20_000


def test_a_person_challenges_a_bot_from_the_start_page_and_plays_it(
    browser, server, monkeypatch, tmp_path
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    engine = UserFactory(username="deep-thud")
    bots.become_bot(engine, now=timezone.now())
    token = tokens.make_token(engine, name="engine", scopes=("bot",), now=timezone.now()).plain
    person = UserFactory(username="sam")
    log = tmp_path / "bot.log"
    argv = [sys.executable, str(CLIENT), "--site", server, "--token", token]
    engine_cmd = [sys.executable, "-m", "games.thud", "bot", "--level", "1"]
    bot = subprocess.Popen(
        [*argv, "--max-battles", "1", "--max-move-ms", "100", "--", *engine_cmd],
        cwd=settings.BASE_DIR,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        end = time.monotonic() + 30
        while "listening" not in log.read_text():
            assert bot.poll() is None and time.monotonic() < end, log.read_text()
            time.sleep(0.1)

        context = browser.new_context(viewport={"width": 1000, "height": 900})
        context.add_cookies([session_cookie(person, server)])
        page = context.new_page()
        page.goto(f"{server}/play/")
        page.get_by_label("Opponent's username").fill("deep-thud")
        form = page.locator("form", has=page.get_by_label("Opponent's username"))
        form.locator("input[name=game][value=thud]").check()
        form.locator("input[name=first][value=challenger]").check()  # the first side
        form.locator("input[name=timing][value=quickfire]").check()
        form.get_by_role("button", name="Send").click()

        # The bot's client accepts at once. If the page was listening by then, it turns
        # into the battle; if the acceptance came first (while the page reloaded), the
        # page offers it (below) without a reload, and the person goes there.
        end = time.monotonic() + WAIT_MS / 1000
        while (battle := Challenge.objects.get(challenger=person).battle) is None:
            assert time.monotonic() < end, log.read_text()
            time.sleep(0.1)
        assert battle.second_user_id == engine.pk
        url = f"{server}/battles/{battle.pk}/"
        # Where the page offers the battle: its list of battles waiting for the person, or
        # the notice's toast (the acceptance came while the page was rendering).
        waiting = page.locator(
            f'#waiting-battles a[href="/battles/{battle.pk}/"],'
            f' #notices a[href="/battles/{battle.pk}/"]'
        )
        end = time.monotonic() + WAIT_MS / 1000
        while page.url != url:
            if waiting.count():
                waiting.first.click()
                break
            assert time.monotonic() < end, page.locator("main").inner_text()
            page.wait_for_timeout(200)
        page.wait_for_url(url, timeout=WAIT_MS)
        expect(page.locator(".bot-mark").first).to_be_visible()
        expect(page.locator("#presence-box")).to_have_count(0, timeout=WAIT_MS)

        # The person moves by clicks; the bot answers on its own.
        page.locator("button.selectable").first.click(timeout=WAIT_MS)
        page.locator("button.target").first.click(timeout=WAIT_MS)
        deadline = time.monotonic() + WAIT_MS / 1000
        while Move.objects.filter(battle=battle).count() < 2:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        answered = Move.objects.filter(battle=battle).order_by("ply")[1]
        assert answered.side == battle.rules.sides[1].key and answered.kind != "forfeit"

        # The page shows the bot's answer (the person's pieces to move again), then the
        # person resigns: a live refresh during the question would replace it.
        expect(page.locator("button.selectable").first).to_be_visible(timeout=WAIT_MS)
        page.locator("#resign").click()
        expect(page.locator("#confirm-dialog")).to_be_visible(timeout=WAIT_MS)
        assert "Resign this battle?" in page.locator("#confirm-dialog").inner_text()
        page.locator("#confirm-dialog-ok").click()
        end = time.monotonic() + WAIT_MS / 1000
        while Battle.objects.get(pk=battle.pk).status != Battle.Status.FINISHED:
            assert time.monotonic() < end, page.locator("main").inner_text()
            time.sleep(0.2)
        expect(page.get_by_text("Battle over")).to_be_visible(timeout=WAIT_MS)
        assert bot.wait(timeout=30) == 0, log.read_text()
        context.close()
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    stored = Battle.objects.get(pk=battle.pk)
    assert (stored.status, stored.finished_reason) == ("finished", "resigned")
    assert stored.winner == battle.rules.sides[1].key
    assert f"battle {battle.pk} finished" in log.read_text()
