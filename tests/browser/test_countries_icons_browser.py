"""Issue 42 in the browser: the ratings page's country filter (one entry per country, by
name in the reader's language, sorted by it) and the icons drawn as SVG, not glyphs: an
entry edit refused for an unknown country (the error's warning icon), the tiebreak order's
up and down buttons. Each page axe-clean; screenshots in /tmp/shots-h42way/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.axe import AXE_SCRIPT, describe, scan
from tests.factories import tournament_with_players
from tests.tournaments.rating.helpers import LATER, play_round
from tournaments.models.people import Player
from tournaments.models.tournament import Tournament
from tournaments.rounds.play import close_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-h42way")
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def open_page(browser, live_server, path, *, viewport, language="en", log_in=None, user=None):
    context = browser.new_context(viewport=viewport, locale=language)
    context.add_init_script(AXE_SCRIPT)
    if log_in is not None:
        log_in(context, user)
    page = context.new_page()
    page.goto(live_server.url + path, wait_until="load")
    return page


def axe_clean(page, language: str, path: str) -> None:
    violations = scan(page, "visitor", language, path)
    assert not violations, describe(violations)


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["All countries", "Germany", "Italy", "United Kingdom"]),
        ("it", ["Tutti i paesi", "Germania", "Italia", "Regno Unito"]),
        ("nb", ["Alle land", "Italia", "Storbritannia", "Tyskland"]),
    ],
)
def test_the_ratings_country_filter_names_each_country_once_in_the_readers_language(
    browser, live_server, language, names
):
    t = tournament_with_players(4, name="Koom Valley Open")
    players = Player.objects.filter(entries__tournament=t).order_by("pk")
    for player, country in zip(players, ["IT", "IT", "DE", "GB"], strict=True):
        player.country = country
        player.save()
    play_round(t, 1)
    close_tournament(t, now=LATER)

    path = reverse("ratings") + "?game=thud"
    page = open_page(browser, live_server, path, viewport=LAPTOP, language=language)
    select = page.locator("select#country")
    assert select.locator("option").all_inner_texts() == names
    italy = names[2] if language == "en" else "Italia"
    select.select_option(label=italy)
    page.locator(".ratings-filter button[type=submit]").click()
    page.wait_for_url("**country=IT*")
    rows = page.locator("table.ratings tbody tr")
    assert rows.count() == 2
    assert rows.locator("td.extra").all_inner_texts().count(italy) == 2
    axe_clean(page, language, path)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"ratings-country-{language}.png"), full_page=True)


def icon_box(locator) -> dict:
    """The drawn size of an element's SVG icon, or of its ::before mask."""
    return locator.evaluate(
        """el => {
            const svg = el.querySelector('svg.icon');
            if (svg) { const r = svg.getBoundingClientRect(); return {w: r.width, h: r.height}; }
            const s = getComputedStyle(el, '::before');
            return {w: parseFloat(s.width), h: parseFloat(s.height), mask: s.maskImage || s.webkitMaskImage};
        }"""
    )


def test_icons_are_svg_the_error_warning_and_the_tiebreak_arrows(
    browser, live_server, demo, log_in
):
    t = Tournament.objects.get(slug="ankh-morpork-open")
    entry = t.entries.order_by("seed").first()
    before = entry.player.country.code
    path = reverse("organiser_edit_player", args=[t.slug, entry.pk])
    page = open_page(browser, live_server, path, viewport=PHONE, log_in=log_in, user="organiser")
    page.fill("input[name=country]", "Ankh-Morpork")
    page.locator("main form button[type=submit]").first.click()
    error = page.locator(".errorlist li", has_text="Ankh-Morpork is not a country we know")
    error.wait_for()
    box = icon_box(error)
    assert box["w"] > 8 and box["h"] > 8 and "svg" in box["mask"]
    entry.player.refresh_from_db()
    assert entry.player.country == before  # refused: nothing changed
    axe_clean(page, "en", path)
    page.screenshot(path=str(SHOTS / "icons-error-390.png"), full_page=True)

    path = reverse("organiser_settings", args=[t.slug])
    page.goto(live_server.url + path, wait_until="load")
    up = page.locator("#tiebreak-order button", has_text="Up").first
    assert up.locator("svg.icon").count() == 1
    box = icon_box(up)
    assert box["w"] > 8 and box["h"] > 8
    axe_clean(page, "en", path)
    page.locator("#tiebreak-order").screenshot(path=str(SHOTS / "icons-tiebreaks-390.png"))
