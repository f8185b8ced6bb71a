"""A referee enters a result on a phone, a second referee confirms it, and the public
standings page, open all along, shows the new order without a reload."""

from __future__ import annotations

import contextlib

import pytest
from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError

from tests.factories import (
    PASSWORD,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]

PHONE = {"width": 360, "height": 740}
WAIT_MS = 20_000


def log_in(page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login" not in url, timeout=WAIT_MS)


def test_entry_then_confirmation_updates_the_open_standings_page(browser, live_server, screenshot):
    tournament = TournamentFactory(name="Koom Valley Open", slug="koom")
    ref1, ref2 = UserFactory(username="ref-one"), UserFactory(username="ref-two")
    tournament.referees.add(ref1, ref2)
    entries = [
        EntryFactory(tournament=tournament, seed=i + 1, player=PlayerFactory(name=name))
        for i, name in enumerate(["Aaron Top", "Bea Second", "Cas Third", "Zed Bottom"])
    ]
    round_ = RoundFactory(tournament=tournament, number=1)
    match = MatchFactory(round=round_, table=1, player_a=entries[0], player_b=entries[3])
    MatchFactory(round=round_, table=2, player_a=entries[1], player_b=entries[2])
    base = live_server.url

    # The public standings page is open before anything happens.
    public = browser.new_context().new_page()
    public.goto(base + reverse("standings", args=["koom"]))
    first_name = public.locator("#standings-table tbody tr").first.locator("th[scope=row]")
    assert first_name.inner_text().strip() == "Aaron Top"
    public.evaluate("window.__sameDocument = true")

    # Referee one, on a phone: round view, then the table's result form.
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(phone, base, "ref-one")
    phone.goto(base + reverse("referee_round", args=["koom", 1]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "1-round-view-phone")
    phone.click(f"#match-{match.pk} a")
    phone.wait_for_selector("#result-panel", timeout=WAIT_MS)
    phone.wait_for_load_state("load")  # htmx listens to the fields only once it has loaded
    # Aaron (A) keeps 2 dwarfs, Zed's trolls survive: Zed wins clearly.
    for field, value in [
        ("battle1_first", "2"),
        ("battle1_second", "7"),
        ("battle2_first", "30"),
        ("battle2_second", "1"),
    ]:
        phone.fill(f"input[name={field}]", value)
    phone.wait_for_selector("#result-preview >> text=Zed Bottom wins", timeout=WAIT_MS)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "2-preview-phone")
    phone.click("button[name=enter]")
    phone.wait_for_selector('#result-panel [data-status="entered"]', timeout=WAIT_MS)
    screenshot(phone, "3-entered-phone")

    # Referee two confirms in another browser context.
    second = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(second, base, "ref-two")
    second.goto(base + reverse("referee_match", args=["koom", match.pk]))
    second.click("button[name=confirm]")
    second.wait_for_selector('#result-panel [data-status="confirmed"]', timeout=WAIT_MS)
    screenshot(second, "4-confirmed-phone")

    # The open standings page catches up by itself (htmx polling), with no reload.
    public.wait_for_function(
        "document.querySelector('#standings-table tbody tr th[scope=row]')"
        ".innerText.trim() === 'Zed Bottom'",
        timeout=WAIT_MS,
    )
    assert public.evaluate("window.__sameDocument") is True
    screenshot(public, "5-standings-updated")

    # The first referee's round view shows the confirmed table without a reload too.
    phone.goto(base + reverse("referee_round", args=["koom", 1]))
    phone.evaluate("window.__sameDocument = true")
    phone.wait_for_selector(f'#match-{match.pk} [data-status="confirmed"]', timeout=WAIT_MS)
    for page in (public, phone, second):
        page.context.close()


def test_an_older_previews_answer_never_hides_the_newer_score(browser, live_server):
    """Each field asks for the preview on its own. On a slow network the first field's
    request (one number: "enter the four counts") can still be out when the last field's is
    sent; its answer must not be what stays on screen."""
    tournament = TournamentFactory(slug="late")
    referee = UserFactory(username="late-ref")
    tournament.referees.add(referee)
    a, b = (
        EntryFactory(tournament=tournament, seed=i + 1, player=PlayerFactory(name=name))
        for i, name in enumerate(["Ann First", "Bo Last"])
    )
    match = MatchFactory(
        round=RoundFactory(tournament=tournament, number=1), player_a=a, player_b=b
    )
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(page, live_server.url, "late-ref")
    page.goto(live_server.url + reverse("referee_match", args=["late", match.pk]))
    page.wait_for_load_state("load")
    held = []
    page.route("**/preview", lambda route: held.append(route))  # each waits for the test
    page.fill("input[name=battle1_first]", "2")
    page.wait_for_timeout(700)  # past the field's 300 ms delay: its request is sent, and held
    assert len(held) == 1
    for field, value in [("battle1_second", "7"), ("battle2_first", "30"), ("battle2_second", "1")]:
        page.fill(f"input[name={field}]", value)
    page.wait_for_timeout(700)

    def answer(route) -> None:
        with contextlib.suppress(PlaywrightError):  # the page gave that request up
            route.continue_()

    # The requests are answered in the order they were sent, each a while after the last
    # (and any sent meanwhile joins the line): the oldest, with one number, first.
    answered = 0
    while answered < len(held):
        answer(held[answered])
        answered += 1
        page.wait_for_timeout(700)
    page.wait_for_selector("#result-preview >> text=Bo Last wins", timeout=WAIT_MS)
    assert page.locator("#result-preview").inner_text().count("wins") == 1
    page.context.close()
