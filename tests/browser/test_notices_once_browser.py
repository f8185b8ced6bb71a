"""Notices are news once (``static/js/notices.js``): a notice the server sent long ago (a
page frozen in a background tab reads it an hour late) is not toasted; a fresh one is
toasted once on a device, and not again when a later page load reads it again.

The notices stream is the real one's bytes as a page would read them: each notice with
the server's time of sending (``at``, ``games.live.stream._notice``), served here so that
the old one's time can be an hour back."""

from __future__ import annotations

import json
import time

import pytest

from tests.browser.sessions import session_cookie
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stream(*notices: dict) -> dict:
    body = "".join(f"event: notice\ndata: {json.dumps(n)}\n\n" for n in notices)
    return {
        "status": 200,
        "content_type": "text/event-stream",
        "body": body + "retry: 600000\n\n",
    }


def test_an_old_notice_is_not_toasted_and_a_fresh_one_only_once(browser, live_server):
    from playwright.sync_api import expect

    now_ms = int(time.time() * 1000)
    old_round = {
        "kind": "round",
        "match": 5,
        "url": "/battles/match/5/",
        "from": "Detritus",
        "at": now_ms - 3_600_000,  # published an hour ago
    }
    fresh = {"kind": "waiting", "battle": 7, "url": "/battles/7/", "from": "bob", "at": now_ms}
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    ctx.add_cookies([session_cookie(UserFactory(username="alice"), live_server.url)])
    ctx.route("**/notices/events/", lambda route: route.fulfill(**stream(old_round, fresh)))
    page = ctx.new_page()
    page.goto(f"{live_server.url}/play/games/")
    toasts = page.locator("#notices .notice")
    expect(toasts).to_have_count(1)
    expect(toasts).to_contain_text("bob is here and waiting for you")
    expect(page.locator("#notices")).not_to_contain_text("Detritus")
    # The next page load reads the same notice again (a second tab, a replayed stream):
    # this device toasted it already.
    page.goto(f"{live_server.url}/")
    expect(page.locator("#notices")).to_have_attribute("data-connected", "1")
    page.wait_for_timeout(500)  # the stream's two notices are read by now
    expect(page.locator("#notices .notice")).to_have_count(0)
    # Another device (a fresh context) is told: once per device, not once per user.
    other = browser.new_context(viewport={"width": 1000, "height": 800})
    other.add_cookies(ctx.cookies())
    other.route("**/notices/events/", lambda route: route.fulfill(**stream(old_round, fresh)))
    second = other.new_page()
    second.goto(f"{live_server.url}/")
    expect(second.locator("#notices .notice")).to_have_count(1)
    expect(second.locator("#notices")).not_to_contain_text("Detritus")
