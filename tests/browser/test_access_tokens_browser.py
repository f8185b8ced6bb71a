"""The personal access tokens page in a browser (issue 45), by keyboard alone: make a
token, copy it with its button (read out by its status), revoke it through the site's
dialog; the page with a token shown and listed fits a phone and a laptop and passes axe.
Screenshots go to test-output/tokens/."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.urls import reverse

from accounts import tokens
from accounts.models import PersonalAccessToken
from tests.browser.axe import describe, scan

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "tokens"
VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1366, "height": 768}]
WAIT_MS = 20_000


def test_make_copy_and_revoke_a_token_by_keyboard(browser, live_server, demo, log_in):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.add_init_script(AXE_SCRIPT)
    log_in(context, "player1")
    page = context.new_page()
    path = reverse("access_tokens")
    page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
    page.get_by_role("textbox", name="Name").focus()
    page.keyboard.type("club bot")
    page.keyboard.press("Tab")  # the first scope
    page.keyboard.press("Space")
    page.get_by_role("button", name="Make the token").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#new-token-value", timeout=WAIT_MS)
    plain = page.locator("#new-token-value").input_value()
    token = PersonalAccessToken.objects.get(name="club bot")
    assert token.scopes == ["read"] and token.token_hash == tokens.hash_token(plain)

    copy = page.get_by_role("button", name="Copy the token")
    copy.wait_for(state="visible", timeout=WAIT_MS)  # hidden until copy_link.js runs
    page.locator("#new-token-value").focus()
    page.keyboard.press("Tab")  # the copy button comes right after the token
    assert copy.evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")
    status = page.locator("#new-token [role=status]")
    page.wait_for_function("s => s.textContent === 'Copied'", arg=status.element_handle())
    assert page.evaluate("navigator.clipboard.readText()") == plain

    violations = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"tokens-{viewport['width']}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path} scrolls sideways at {width}"
        violations += scan(page, "player", "en", path)
    assert not violations, describe(violations)

    revoke = page.get_by_role("button", name="Revoke club bot")
    revoke.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#confirm-dialog")
    assert "Revoke the token “club bot”" in dialog.inner_text()
    page.keyboard.press("Tab")  # from Cancel (focused first) to the yes
    assert page.locator("#confirm-dialog-ok").evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=is revoked", timeout=WAIT_MS)
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert plain not in page.content()  # shown once only
    context.close()
