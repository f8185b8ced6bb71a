"""Issue 23's words, by clicks on a 390 px phone in English and Norwegian: a challenge says
who plays which side and the clock to each reader; the claim page explains itself, then
lists players with their tournament and club; the organiser reads the claimant's message
and registration date in the queue and approves."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from play.models import Challenge
from play.wording import words_for
from tests.browser.axe import AXE_SCRIPT, scan
from tests.factories import EntryFactory, UserFactory
from tournaments.models.people import PlayerClaim
from tournaments.models.tournament import Tournament

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "nb": "nb-NO"}
LANGUAGES = list(LOCALES)


@pytest.fixture(autouse=True)
def _private_limits(settings):
    """The registration limit counts in this process's memory, never in a shared Redis."""
    settings.CACHES = {
        name: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-words-browser-{name}",
        }
        for name in ("default", "limits")
    }
    from django.core.cache import caches

    for name in ("default", "limits"):
        caches[name].clear()


def phone(browser, language: str):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=LOCALES[language]
    )
    context.add_init_script(AXE_SCRIPT)
    return context


def fits(page) -> None:
    """No sideways scrolling at 390 px, and axe finds nothing wrong with the page."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert scan(page, "phone", "", page.url) == []


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_challenge_tells_each_reader_their_side_and_the_clock(
    browser, live_server, log_in, screenshot, language
):
    UserFactory(username="alice")
    bob = UserFactory(username="bob")
    alice_ctx, bob_ctx = phone(browser, language), phone(browser, language)
    log_in(alice_ctx, "alice")
    log_in(bob_ctx, "bob")

    # alice challenges bob to quickfire Thud, bob to move first, by clicks
    page = alice_ctx.new_page()
    page.goto(live_server.url + reverse("play:start"))
    page.fill("#id_username", "bob")
    page.check("input[name=game][value=thud]")
    page.check("input[name=timing][value=quickfire]")
    page.check("input[name=first][value=opponent]")
    page.click("#new-challenge button[type=submit]")
    page.wait_for_selector("#made li.challenge")
    challenge = Challenge.objects.get()
    with translation.override(language):
        for_alice = words_for(challenge, reader=challenge.challenger)
        for_bob = words_for(challenge, reader=bob)
        first_side = translation.gettext("Dwarfs")
    assert squash(page.inner_text("#made li.challenge")).startswith(for_alice)
    fits(page)
    screenshot(page, f"words-{language}-challenge-made-phone")

    bob_page = bob_ctx.new_page()
    bob_page.goto(live_server.url + reverse("play:start"))
    line = squash(bob_page.inner_text("#received li.challenge"))
    assert line.startswith(for_bob) and first_side in line
    assert ("you play" in line) is (language == "en")
    fits(bob_page)
    screenshot(bob_page, f"words-{language}-challenge-received-phone")
    alice_ctx.close()
    bob_ctx.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_claim_page_explains_itself_then_lists_and_the_organiser_reads_the_message(
    browser, live_server, log_in, screenshot, language
):
    organiser = UserFactory(username="organiser")
    words = {
        "en": ("No player is waiting to be claimed.", "Their message:"),
        "nb": ("Ingen spiller venter på å bli gjort krav på.", "Meldingen deres:"),
    }[language]

    # A newcomer registers by clicks with nothing to claim: told why, no empty list.
    ctx = phone(browser, language)
    page = ctx.new_page()
    page.goto(live_server.url + reverse("register"))
    assert page.locator("#id_player").count() == 0
    page.fill("#id_username", "anna")
    page.fill("#id_password1", "b4shfull-Dwarf")
    page.fill("#id_password2", "b4shfull-Dwarf")
    page.click("form.account-form button[type=submit]")
    page.wait_for_selector("#nothing-to-claim")
    assert words[0] in page.inner_text("#nothing-to-claim")
    assert page.locator("select").count() == 0
    fits(page)
    screenshot(page, f"words-{language}-claim-nothing-phone")

    # The organiser enters her; the page now lists her with tournament and club.
    entry = EntryFactory(
        tournament__owner=organiser,
        tournament__name="Koom Valley Open",
        tournament__status=Tournament.Status.RUNNING,
        player__name="Anna B",
        player__club="Ankh-Morpork Club",
    )
    page.reload()
    label = "Anna B — Koom Valley Open (Ankh-Morpork Club)"
    page.select_option("#id_player", label=label)
    page.fill("#id_message", "I played as Anna Bergström last year.")
    fits(page)
    screenshot(page, f"words-{language}-claim-list-phone")
    page.click("form.account-form button[type=submit]")
    page.wait_for_selector("#nothing-to-claim")  # her only player is now claimed by her
    claim = PlayerClaim.objects.get()
    assert claim.player_id == entry.player_id
    assert claim.note.text == "I played as Anna Bergström last year."
    ctx.close()

    # The organiser reads what she wrote and when she registered, then approves.
    org = phone(browser, language)
    log_in(org, "organiser")
    queue = org.new_page()
    queue.goto(live_server.url + reverse("pending_claims"))
    card = squash(queue.inner_text(f"#claim-{claim.pk}"))
    assert words[1] in card and "I played as Anna Bergström last year." in card
    anna = get_user_model().objects.get(username="anna")
    assert anna.date_joined.strftime("%Y") in card
    fits(queue)
    screenshot(queue, f"words-{language}-claim-queue-phone")
    with queue.expect_navigation():
        queue.click(f"#claim-{claim.pk} form[action$='/approve/'] button")
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.APPROVED
    org.close()
