"""The organiser's round 1 draft in a browser (issue 41): the rule that paired it, the swap
and bye forms under their own headings (h1 then h2s, in order), a bye given by keyboard,
no axe violation, and no wider than a 390 px phone, in English and Italian.
Screenshots: ``test-output/browser/round-one-draft-<language>-<width>.png``."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import timezone

from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.factories import PlayerFactory, tournament_with_players
from tournaments.models.tournament import Entry
from tournaments.rounds.draw import pair_next_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Granny Weatherwax",
    "Nanny Ogg",
    "Magrat Garlick",
    "Agnes Nitt",
    "Mustrum Ridcully",
    "Ponder Stibbons",
    "Carrot Ironfoundersson",
]
OUTLINE = """() => [...document.querySelectorAll('main h1, main h2')]
  .filter(h => h.textContent.trim()).map(h => h.tagName + ' ' + h.textContent.trim())"""


def test_the_round_one_draft_explains_itself_and_fits_a_phone(
    browser, live_server, log_in, screenshot
):
    from playwright.sync_api import expect

    t = tournament_with_players(8, rounds=3, check_in_required=True)
    for entry, name in zip(t.entries.order_by("seed"), NAMES + ["Lu-Tze"], strict=True):
        entry.player = PlayerFactory(name=name)
        entry.checked_in = entry.seed != 8  # Lu-Tze is absent
        entry.save()
    pair_next_round(t, by=None, now=timezone.now())
    path = f"{live_server.url}/manage/t/{t.slug}/rounds/1/"
    for language, words in (("en", "How round 1 is paired"), ("it", "")):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        log_in(context, t.owner.username)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        context.add_init_script(AXE_SCRIPT)
        page = context.new_page()
        page.goto(path, wait_until="load")
        outline = page.evaluate(OUTLINE)
        assert [h.split(" ")[0] for h in outline] == ["H1", "H2", "H2", "H2"], outline
        if words:
            assert outline[1:] == [f"H2 {words}", "H2 Swap two players", "H2 Give the bye"]
            expect(page.locator(".round-rule")).to_contain_text("Here, by seed: 1–6, 2–5, 3–4.")
            expect(page.locator(".round-rule")).to_contain_text("Here, seed 7.")
        for width in (390, 1366):
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate("document.documentElement.scrollWidth") <= width, language
            violations = scan(page, "organiser", language, path)
            assert violations == [], describe(violations)
            screenshot(page, f"round-one-draft-{language}-{width}")
        options = page.locator("#id_entry option").all_inner_texts()
        assert "Lu-Tze" not in options and "Granny Weatherwax" in options
        context.close()

    # The bye by keyboard: choose a player, submit; the draft and the rule's note follow.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    log_in(context, t.owner.username)
    page = context.new_page()
    page.goto(path, wait_until="load")
    page.locator("#id_entry").focus()
    page.locator("#id_entry").select_option(label="Granny Weatherwax")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#round-one-differs")).to_contain_text(
        "differs from that rule", timeout=5_000
    )
    granny = Entry.objects.get(tournament=t, player__name="Granny Weatherwax")
    assert t.round_set.get().matches.filter(player_a=granny, player_b__isnull=True).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "round-one-draft-bye-given-390")
    context.close()
