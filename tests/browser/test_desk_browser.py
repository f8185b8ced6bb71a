"""The check-in desk on two phones (390 px), against a real uvicorn (pages + SSE) and a
real Redis: a check-in tapped on one shows on the other within a few seconds, without a
reload; the search filters as one types. Screenshot: test-output/desk-390.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from tests.factories import UserFactory, tournament_with_players
from tournaments.models.tournament import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "test-output"
NAMES = ["Granny Weatherwax", "Nanny Ogg", "Magrat Garlick", "Agnes Nitt", "Mustrum Ridcully"]


def phone(browser, user, base: str, errors: list[str]):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    c = Client()
    c.force_login(user)
    ctx.add_cookies([{"name": "sessionid", "value": c.cookies["sessionid"].value, "url": base}])
    page = ctx.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.add_init_script(
        "document.addEventListener('htmx:sseOpen', () => { window.__sseOpen = true; });"
        # Counts the stream's check-in events as they arrive, whatever the page does.
        "window.__checkins = 0; const Source = window.EventSource;"
        "window.EventSource = class extends Source { constructor(u, o) { super(u, o);"
        " this.addEventListener('checkin', () => { window.__checkins += 1; }); } };"
    )
    return page


def test_a_check_in_on_one_desk_shows_on_the_other_without_reload(browser, server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import expect

    OUT.mkdir(exist_ok=True)
    t = tournament_with_players(5, check_in_required=True)
    for entry, name in zip(t.entries.select_related("player").order_by("seed"), NAMES, strict=True):
        entry.player.name = name
        entry.player.save()
    referee = UserFactory(username="door")
    t.referees.add(referee)
    granny = Entry.objects.get(tournament=t, player__name="Granny Weatherwax")
    errors: list[str] = []
    first, second = (phone(browser, u, server, errors) for u in (t.owner, referee))
    for page in (first, second):
        page.goto(f"{server}/referee/t/{t.slug}/desk/")
        page.wait_for_function("window.__sseOpen === true", timeout=10_000)
        page.evaluate("window.__stayed = 'yes'")  # survives only without a reload
    expect(second.locator("#desk-counts")).to_contain_text("0 present")

    # A double tap on the first phone checks in once; the second shows it live.
    button = first.locator(f"#desk-entry-{granny.pk} button", has_text="Check in")
    button.dblclick()
    row = second.locator(f"#desk-entry-{granny.pk}")
    expect(row.get_by_role("button", name="Undo")).to_be_visible(timeout=3_000)
    expect(second.locator("#desk-counts")).to_contain_text("1 present", timeout=3_000)
    expect(second.locator("#desk-counts")).to_contain_text("4 absent")
    expect(first.locator("#desk-counts")).to_contain_text("1 present")
    granny.refresh_from_db()
    assert granny.checked_in

    # The second phone undoes it; the first follows.
    row.get_by_role("button", name="Undo").click()
    expect(
        first.locator(f"#desk-entry-{granny.pk}").get_by_role("button", name="Check in")
    ).to_be_visible(timeout=3_000)
    expect(first.locator("#desk-counts")).to_contain_text("0 present", timeout=3_000)

    # Live search: typing filters the list; a check-in meanwhile keeps the filter.
    second.locator("#desk-q").fill("ogg")
    expect(second.locator("#desk-list li.desk-row")).to_have_count(1, timeout=3_000)
    first.locator("#desk-q").fill("ogg")
    expect(first.locator("#desk-list li.desk-row")).to_have_count(1, timeout=3_000)
    first.locator("#desk-list li.desk-row button", has_text="Check in").click()
    expect(second.locator("#desk-list li.desk-row")).to_have_count(1)
    expect(second.locator("#desk-list").get_by_role("button", name="Undo")).to_be_visible(
        timeout=3_000
    )
    second.locator("#desk-q").fill("")
    expect(second.locator("#desk-list li.desk-row")).to_have_count(5, timeout=3_000)

    # A tap on the second phone while the first checks someone in: the press is down
    # when the live refresh arrives; the refresh waits, the tap counts, then the refresh.
    first.locator("#desk-q").fill("")
    expect(first.locator("#desk-list li.desk-row")).to_have_count(5, timeout=3_000)
    magrat = Entry.objects.get(tournament=t, player__name="Magrat Garlick")
    agnes = Entry.objects.get(tournament=t, player__name="Agnes Nitt")
    box = second.locator(f"#desk-present-{magrat.pk}").bounding_box()
    second.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    second.mouse.down()
    seen = second.evaluate("window.__checkins")
    first.locator(f"#desk-present-{agnes.pk}").click()
    second.wait_for_function(f"window.__checkins > {seen}", timeout=3_000)
    second.wait_for_timeout(300)  # the refresh would have landed by now
    second.mouse.up()
    expect(
        second.locator(f"#desk-entry-{agnes.pk}").get_by_role("button", name="Undo")
    ).to_be_visible(timeout=3_000)
    expect(
        second.locator(f"#desk-entry-{magrat.pk}").get_by_role("button", name="Undo")
    ).to_be_visible(timeout=3_000)
    magrat.refresh_from_db()
    assert magrat.checked_in

    # The keyboard keeps its place when a refresh replaces the rows.
    second.locator(f"#desk-present-{agnes.pk}").focus()
    # The first phone followed the second's tap (it was made while its own list was
    # being refetched: a refresh is not lost then either); it undoes it.
    undo = first.locator(f"#desk-entry-{magrat.pk}").get_by_role("button", name="Undo")
    undo.click(timeout=3_000)
    expect(
        second.locator(f"#desk-entry-{magrat.pk}").get_by_role("button", name="Check in")
    ).to_be_visible(timeout=3_000)
    assert second.evaluate("document.activeElement.id") == f"desk-present-{agnes.pk}"

    for page in (first, second):
        assert page.evaluate("window.__stayed") == "yes"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    second.screenshot(path=str(OUT / "desk-390.png"), full_page=True)
    assert not errors


EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}


@pytest.mark.parametrize("width", [390, 1366])
def test_the_desk_and_the_players_check_in_pass_axe(browser, live_server, log_in, width):
    from axe_playwright_python.base import AXE_SCRIPT

    from tests.browser.axe import scan

    t = tournament_with_players(5, check_in_required=True)
    player = t.entries.select_related("player").order_by("seed").first().player
    player.user = UserFactory(username="nanny")
    player.save()
    OUT.mkdir(exist_ok=True)
    found = []
    for username, path, name in (
        (t.owner.username, f"/referee/t/{t.slug}/desk/", "desk"),
        ("nanny", f"/t/{t.slug}/", "tournament-check-in"),
    ):
        context = browser.new_context(viewport={"width": width, "height": 844})
        context.route("**/events/", lambda route: route.fulfill(**EMPTY_STREAM))
        context.add_init_script(AXE_SCRIPT)
        log_in(context, username)
        page = context.new_page()
        page.goto(live_server.url + path)
        found += scan(page, username, "en", path)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(OUT / f"{name}-{width}.png"), full_page=True)
        context.close()
    assert not found, found
