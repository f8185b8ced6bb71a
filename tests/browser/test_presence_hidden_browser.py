"""Presence counts a person who can see the page, in headless Chromium against a real
uvicorn (pages + SSE) with a real Celery clock worker and beat.

- The challenger's waiting page turns into the battle while it is hidden (a background
  tab): the hidden page does not join, and the clock does not start however long it
  stays hidden; once seen, it joins and the clock starts.

The headless shell the suite runs has no background tab: a second page of the same
context stays "visible" (asserted below, so the day it changes this test says so), and
minimising its window (CDP ``Browser.setWindowBounds``) changes nothing. So the page's
visibility is set as the browser would set it: ``document.visibilityState`` and
``document.hidden`` answer from the tab's sessionStorage (an init script, kept across the
waiting page's navigation to the battle), and ``visibilitychange`` fires on a change.
- A page whose live stream never opens joins only by *Ready*, pressed with the keyboard.
Both games. Screenshots go to /tmp/shots-h42presence/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from games.models.battle import Battle
from games.models.history import ClockEvent
from play import challenges
from play.models import Challenge
from tests.browser.sessions import session_cookie
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path("/tmp/shots-h42presence")

#: The Page Visibility API as a background tab reports it (see the module docstring).
VISIBILITY = """
(() => {
  const state = () => sessionStorage.getItem("test-visibility") || "visible";
  Object.defineProperty(Document.prototype, "visibilityState", { get: state, configurable: true });
  Object.defineProperty(Document.prototype, "hidden", {
    get: () => state() !== "visible", configurable: true,
  });
})();
"""


def set_visibility(page, state: str) -> None:
    page.evaluate(
        """(state) => {
          sessionStorage.setItem("test-visibility", state);
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def context_for(browser, user, server):
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    ctx.add_cookies([session_cookie(user, server)])
    return ctx


def accepted(browser, server, game):
    """Alice waits on /play/ for her challenge; Bob accepts it from his own window."""
    from playwright.sync_api import expect

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice, opponent=bob, game=game, timing="quickfire", now=timezone.now()
    )
    mine = context_for(browser, alice, server)
    mine.add_init_script(VISIBILITY)
    waiting = mine.new_page()
    waiting.goto(f"{server}/play/")
    expect(waiting.locator(f'#made [data-challenge="{c.pk}"]')).to_be_visible()
    expect(waiting.locator("#notices")).to_have_attribute("data-connected", "1")
    return c, mine, waiting, context_for(browser, bob, server).new_page()


@pytest.mark.parametrize("game", ["thud", "cavalli"])
def test_a_hidden_battle_page_does_not_start_the_clock_until_it_is_seen(
    browser, server, monkeypatch, game
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    c, mine, waiting, accepting = accepted(browser, server, game)
    # Alice opens another page in front of her waiting page: in a desktop browser, that
    # makes the waiting page hidden; the headless shell keeps both visible.
    elsewhere = mine.new_page()
    elsewhere.goto(f"{server}/play/games/")
    elsewhere.bring_to_front()
    assert waiting.evaluate("document.visibilityState") == "visible"
    set_visibility(waiting, "hidden")
    assert waiting.evaluate("document.visibilityState") == "hidden"
    accepting.goto(f"{server}/play/")
    accepting.locator(f'#received [data-challenge="{c.pk}"]').get_by_role(
        "button", name="Accept"
    ).click()
    battle = Challenge.objects.get(pk=c.pk).battle
    assert battle is not None
    url = f"{server}/battles/{battle.pk}/"
    expect(waiting).to_have_url(url, timeout=5_000)  # it turned into the battle, hidden
    expect(accepting.locator("#presence-status")).to_contain_text("Waiting for your opponent")
    waiting.wait_for_function("document.getElementById('live') !== null")
    assert waiting.evaluate("document.visibilityState") == "hidden"
    # Long enough for the stream to open and a join to land: nothing starts.
    accepting.wait_for_timeout(4_000)
    b = Battle.objects.get(pk=battle.pk)
    alice_seat = "first_joined_at" if b.first_user.username == "alice" else "second_joined_at"
    assert getattr(b, alice_seat) is None
    assert (b.status, b.deadline, b.ply) == ("pending", None, 0)
    assert not ClockEvent.objects.filter(battle=b, kind="started").exists()
    accepting.screenshot(path=str(OUT / f"hidden-{game}-opponent-waits.png"))
    # Alice comes back to the tab: it joins, and the clock starts, once.
    waiting.bring_to_front()
    set_visibility(waiting, "visible")
    expect(waiting.locator("#presence-box")).to_have_count(0, timeout=10_000)
    expect(accepting.locator("#presence-box")).to_have_count(0, timeout=10_000)
    b = Battle.objects.get(pk=battle.pk)
    assert b.status == "running" and b.first_joined_at and b.second_joined_at
    assert ClockEvent.objects.filter(battle=b, kind="started").count() == 1
    waiting.screenshot(path=str(OUT / f"hidden-{game}-seen-and-started.png"))


def test_without_a_live_stream_ready_pressed_with_the_keyboard_joins(browser, server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=alice, opponent=bob, game="thud", timing="quickfire", now=timezone.now()
    )
    battle = challenges.accept(c.pk, by=bob, now=timezone.now())
    waiting = context_for(browser, alice, server).new_page()
    waiting.route("**/battles/*/events/", lambda route: route.abort())  # no stream: no auto-join
    accepting = context_for(browser, bob, server).new_page()
    waiting.goto(f"{server}/battles/{battle.pk}/")
    accepting.goto(f"{server}/battles/{battle.pk}/")
    expect(accepting.locator("#presence-status")).to_contain_text(
        "Waiting for your opponent", timeout=10_000
    )
    waiting.wait_for_timeout(2_000)
    assert Battle.objects.get(pk=battle.pk).status == "pending"
    ready = waiting.get_by_role("button", name="Ready")
    ready.focus()
    waiting.screenshot(path=str(OUT / "ready-focused.png"))
    waiting.keyboard.press("Enter")
    expect(accepting.locator("#presence-box")).to_have_count(0, timeout=10_000)
    b = Battle.objects.get(pk=battle.pk)
    assert b.status == "running" and b.first_joined_at and b.second_joined_at


@pytest.mark.parametrize("language", ["en", "nb"])
def test_home_with_waiting_battles_and_the_presence_box_have_no_axe_violation(
    browser, server, monkeypatch, settings, language
):
    """The home page listing a waiting casual battle and a computer battle, and the
    battle page's presence box, at a phone's and a laptop's width: axe finds nothing, the
    Join links fit, and the page does not scroll sideways."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from axe_playwright_python.base import AXE_SCRIPT

    from play import computer
    from tests.browser.axe import describe, scan

    OUT.mkdir(exist_ok=True)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    c = challenges.create_challenge(
        by=bob, opponent=alice, game="cavalli", timing="quickfire", now=timezone.now()
    )
    battle = challenges.accept(c.pk, by=alice, now=timezone.now())
    computer.start(
        by=alice,
        game="thud",
        level=2,
        side=computer.YOU_FIRST,
        time_control="quickfire",
        now=timezone.now(),
    )
    found = []
    for width, height in ((360, 740), (1366, 768)):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.add_cookies(
            [
                session_cookie(alice, server),
                {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": server},
            ]
        )
        ctx.add_init_script(AXE_SCRIPT)
        ctx.add_init_script(VISIBILITY)
        page = ctx.new_page()
        page.add_init_script("sessionStorage.setItem('test-visibility', 'hidden')")  # no join
        for path in ("/", f"/battles/{battle.pk}/"):
            page.goto(f"{server}{path}", wait_until="load")
            found += scan(page, "alice", language, path)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(
                path=str(
                    OUT
                    / f"axe-{language}-{width}-{path.strip('/').replace('/', '-') or 'home'}.png"
                ),
                full_page=True,
            )
        assert page.locator("#presence-box").is_visible()
        page.goto(f"{server}/")
        assert page.locator("#home-battles a.button").count() == 2
        ctx.close()
    assert not found, describe(found)
    assert Battle.objects.get(pk=battle.pk).status == "pending"
