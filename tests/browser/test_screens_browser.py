"""Screenshots of the ten pages of issue 22 (and the ratings pages of issue 26), each as the role that uses it, at both widths.

Full-page PNGs go to ``test-output/screens/<page>-<width>.png`` (390 × 844 as a touch
phone, 1366 × 768 as a laptop) from the demo data: the before and after pictures of the
redesign. Each page must also not scroll sideways on the phone and have exactly one ``h1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tournaments.models.ratings import SiteRating
from tournaments.models.rounds import Match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

SCREENS = Path(__file__).resolve().parents[2] / "test-output" / "screens"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
DEMO = "ankh-morpork-open"
QUICKFIRE = "quickfire-cup"  # timed 24 moves, 15 s + 5 s: a battle with a clock
WAIT_MS = 20_000
# The live stream needs the ASGI server (tests/browser/test_battle_browser.py runs one);
# here an empty stream that asks not to be retried soon stands in for it.
EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}


def awaiting_match() -> Match:
    """A match of the demo tournament's round 1 whose result nobody has entered yet."""
    return Match.objects.filter(
        round__tournament__slug=DEMO, result_status=Match.ResultStatus.AWAITING
    ).first()


def otb_battle() -> Battle:
    """Battle 1 of the quickfire cup's table 1, played over the board (OTB) and started."""
    match = Match.objects.get(round__tournament__slug=QUICKFIRE, round__number=1, table=1)
    battle = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())[0]
    return start_battle(battle.pk, now=timezone.now())


def home():
    return None, reverse("home")


def tournament():
    return None, reverse("tournament", args=[DEMO])


def pairings():
    return None, reverse("round_pairings", args=[DEMO, 1])


def standings():
    return None, reverse("standings", args=[DEMO])


def player():
    entry = Match.objects.filter(round__tournament__slug=DEMO).first().player_a
    return None, reverse("player", args=[DEMO, entry.pk])


def battle():
    b = otb_battle()
    return b.match.player_a.player.user.username, reverse("games:battle", args=[b.pk])


def referee_result():
    return "referee1", reverse("referee_match", args=[DEMO, awaiting_match().pk])


def referee_clock():
    return "referee1", reverse("games:referee_clock", args=[otb_battle().pk])


def organiser_dashboard():
    return "organiser", reverse("organiser_dashboard", args=[DEMO])


def new_tournament():
    return "organiser", reverse("organiser_new")


def player_ratings():
    """The demo's best-rated player (the rated demo event is closed and rated)."""
    best = SiteRating.objects.filter(game="thud").order_by("-rating").first()
    return None, reverse("player_ratings", args=[best.player_id]) + "?game=thud"


def ratings():
    return None, reverse("ratings") + "?game=thud"


# name -> () -> (username or None for an anonymous visitor, path), called once the demo exists
PAGES = {
    "home": home,
    "tournament": tournament,
    "pairings": pairings,
    "standings": standings,
    "player": player,
    "battle": battle,
    "referee-result": referee_result,
    "referee-clock": referee_clock,
    "organiser-dashboard": organiser_dashboard,
    "new-tournament": new_tournament,
    "player-ratings": player_ratings,
    "ratings": ratings,
}


@pytest.mark.parametrize("name", list(PAGES))
def test_screenshot_fits_a_phone_and_has_one_h1(browser, live_server, demo, log_in, name):
    username, path = PAGES[name]()
    SCREENS.mkdir(parents=True, exist_ok=True)
    measured = {}
    for viewport in (PHONE, LAPTOP):
        phone = viewport is PHONE
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        log_in(context, username)
        page = context.new_page()
        response = page.goto(live_server.url + path, wait_until="load", timeout=WAIT_MS)
        assert response is not None and response.status == 200, (path, response)
        page.screenshot(path=str(SCREENS / f"{name}-{viewport['width']}.png"), full_page=True)
        measured[viewport["width"]] = {
            "scroll width": page.evaluate("document.documentElement.scrollWidth"),
            "h1": page.locator("h1").count(),
        }
        context.close()
    # Asserted after both screenshots, so a failing page still leaves its pictures.
    # Against the viewport's width, not innerWidth: an emulated phone widens its layout
    # viewport to fit overflowing content, so innerWidth grows with the very overflow.
    assert measured[390]["scroll width"] <= PHONE["width"], f"{path} scrolls sideways: {measured}"
    assert measured[390]["h1"] == measured[1366]["h1"] == 1, f"{path}: {measured}"
