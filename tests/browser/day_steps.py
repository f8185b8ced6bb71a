"""The people, pages and counts of the whole-day scenario (``test_whole_day_browser.py``):
what each person does on a page, as helpers, and what each should see, as expectations."""

from __future__ import annotations

import re
import time
from pathlib import Path
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Q
from playwright.sync_api import expect

from games.models.battle import Battle
from tests.browser.day import (
    PLAYING,
    hall_tables,
)
from tests.browser.sessions import session_cookie
from tests.browser.test_offline_browser import FIELDS
from tests.games.records_helpers import greedy_game
from tests.processes import wait_for
from tournaments.models.rounds import Match
from tournaments.models.tournament import Tournament
from tournaments.permissions.roles import ORGANISERS_GROUP

OUT = Path(__file__).resolve().parents[2] / "test-output" / "day"
SLUG = "lancre-open"
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
WAIT = 10_000
RUNNING = re.compile("^(think|move)$")  # the referee clock's phase while it runs
# Name, rating, has an account. Seeds follow the ratings (the CSV's order).
PLAYERS = [
    ("Granny Weatherwax", 1900, True),
    ("Nanny Ogg", 1850, True),
    ("Magrat Garlick", 1800, True),
    ("Agnes Nitt", 1750, True),
    ("Mustrum Ridcully", 1700, True),
    ("Ponder Stibbons", 1650, True),
    ("Carrot Ironfoundersson", 1600, False),
    ("Angua von Uberwald", 1550, False),
    ("Detritus", 1500, True),  # absent all day
]
LATE = ("Sam Vimes", 1450)  # added on the day, plays from round 2
ABSENT = "Detritus"
OTB_SURVIVORS = (28, 4, 26, 5)
OFFLINE_SURVIVORS = (30, 2, 12, 8)
PASSWORD = "lancre-day-2026"
SITE_ADMIN = "lancre-admin"  # the other installation's site administrator


def survivors_for(round_number: int, table: int) -> tuple[int, int, int, int]:
    """Different, decisive numbers for each match (player A wins most, B some)."""
    if (round_number + table) % 3 == 0:
        return (6, 5, 4, 6)  # B: 6 + 24 = 30 against A: 20 + 4 = 24
    return (20 + table + round_number, 2, 18 - table, 3)


def points(survivors: tuple[int, int, int, int]) -> tuple[int, int]:
    """The match's points for A and B (A has dwarfs in battle 1): dwarfs 1, trolls 4."""
    d1, t1, d2, t2 = survivors
    return d1 + 4 * t2, 4 * t1 + d2


# -- the people -------------------------------------------------------------------------


def people() -> SimpleNamespace:
    """The accounts that exist before the day: the organiser, a referee, eight players."""
    User = get_user_model()
    organiser = User.objects.create_user("ridcully-org", password=PASSWORD)
    organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    referee = User.objects.create_user("vimes-ref", password=PASSWORD)
    players = {
        name: User.objects.create_user(name.split()[0].lower(), password=PASSWORD)
        for name, _rating, account in [*PLAYERS, (*LATE, True)]
        if account
    }
    return SimpleNamespace(organiser=organiser, referee=referee, players=players)


def open_as(browser, user, base: str, viewport=LAPTOP, errors: list[str] | None = None):
    context = browser.new_context(viewport=viewport)
    if user is not None:
        context.add_cookies([session_cookie(user, base)])
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def link_accounts(tournament: Tournament, users: dict) -> None:
    """The players' claims, approved (their own workflow, tested elsewhere): each account
    holder's player record is theirs."""
    for entry in tournament.entries.select_related("player"):
        if entry.player.name in users:
            entry.player.user = users[entry.player.name]
            entry.player.save(update_fields=["user"])


def set_up_by_the_organiser(org, base: str, who) -> None:
    """The organiser starts from / and creates the tournament by its form; the players
    by a CSV of nine, the late one by the form; a referee appointed."""
    org.goto(base + "/")
    org.locator("#home-organiser a", has_text="New tournament").click()
    org.fill("input[name=name]", "Lancre Open")
    org.fill("input[name=slug]", SLUG)
    org.fill("input[name=rounds]", "3")
    org.check("input[name=variant][value=timed24]")
    org.check("input[name=rated]")
    assert org.is_checked("input[name=check_in_required]")
    org.locator("main form button[type=submit]").last.click()
    expect(org).to_have_url(re.compile(f"/manage/t/{SLUG}/$"))

    # Players: the CSV of nine, then the late one by the form; a referee appointed.
    csv = "name,club,country,rating\n" + "".join(
        f"{name},Lancre,,{rating}\n" for name, rating, _ in PLAYERS
    )
    org.set_input_files(
        "input[name=file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv.encode()}],
    )
    org.locator("form[action$='/players/upload/'] button").click()
    org.fill("input[name=name]", LATE[0])
    org.fill("input[name=rating]", str(LATE[1]))
    org.fill("input[name=late_from_round]", "2")
    org.locator("form[action$='/players/add/'] button").click()
    org.fill("form[action$='/referees/'] input[name=username]", who.referee.username)
    org.locator("form[action$='/referees/'] button").click()


# -- the hall screen --------------------------------------------------------------------


def expect_hall(hall, heading: str, tables: list[list[str]] | None, *, timer: bool) -> None:
    """What the audience reads: the round heading, every table (number, names, result),
    the timer or none; without a reload (``window.notReloaded`` survives only that)."""
    expect(hall.locator("#hall-round")).to_have_text(heading, timeout=WAIT)
    if tables is not None:
        wait_for(lambda: hall_tables(hall) == tables, timeout=WAIT / 1000, what=f"{tables}")
    if timer:
        expect(hall.locator("#hall-timer")).to_contain_text(re.compile(r"\d+:\d\d"))
    else:
        expect(hall.locator("#hall-timer")).to_have_count(0, timeout=WAIT)
    assert hall.evaluate("window.notReloaded") is True


def hall_rows(round_number: int, scores: dict[int, tuple[int, int, int, int]]) -> list:
    """The hall's rows for ``round_number`` from the database's pairings: a confirmed
    table shows its points, the others "playing", a bye "bye"."""
    rows = []
    for m in Match.objects.filter(
        round__tournament__slug=SLUG, round__number=round_number
    ).select_related("player_a__player", "player_b__player"):
        if m.player_b is None:
            rows.append([str(m.table), m.player_a.player.name, "bye", "bye"])
            continue
        result = PLAYING
        if m.table in scores:
            a, b = points(scores[m.table])
            result = f"{a} – {b}"
        rows.append([str(m.table), m.player_a.player.name, m.player_b.player.name, result])
    return sorted(rows, key=lambda r: int(r[0]))


# -- the organiser's pages --------------------------------------------------------------


def confirm_dialog(page) -> None:
    """A destructive button asks first (static/js/site.js): say yes."""
    page.locator("#confirm-dialog-ok").click()


def pair_and_publish(org, base: str, number: int) -> None:
    org.goto(f"{base}/manage/t/{SLUG}/")
    org.get_by_role("button", name=re.compile(f"{number}")).filter(
        has_text=re.compile("^Pair")
    ).click()
    expect(org.locator("h1")).to_contain_text(f"{number}")
    org.locator("form[action$='/publish/'] button").click()
    expect(org.locator("h1 .muted")).to_have_text(re.compile("ublished"), timeout=WAIT)


def confirm_from_round_page(org, base: str, number: int, tables: list[int]) -> None:
    """The organiser follows each entered row of the round page to its match and confirms
    the version waiting there (issue 41: the round page is the result hub)."""
    for table in tables:
        org.goto(f"{base}/manage/t/{SLUG}/rounds/{number}/")
        row = org.locator("#round-matches tbody tr").filter(
            has=org.locator("td:first-child", has_text=re.compile(f"^{table}$"))
        )
        row.locator("a[data-result-link]").click()
        expect(org.locator("h1")).to_contain_text(f"{number}")
        org.locator("button[name=confirm]").first.click()
        expect(org.locator("#result-panel [data-status]")).to_have_attribute(
            "data-status", "confirmed", timeout=WAIT
        )
    org.goto(f"{base}/manage/t/{SLUG}/rounds/{number}/")


def enter_result(page, base: str, match: Match, survivors) -> None:
    page.goto(f"{base}/referee/t/{SLUG}/matches/{match.pk}/")
    for field, value in zip(FIELDS, survivors, strict=True):
        page.fill(f"#result-panel input[name={field}]", str(value))
    page.click("#result-panel button[name=enter]")
    expect(page.locator("#result-panel [data-status]")).to_have_attribute(
        "data-status", "entered", timeout=WAIT
    )


# -- the battles ------------------------------------------------------------------------


def play_online_battle(pages: dict, battle: Battle, plies: int) -> None:
    """Both players' browsers move in turn (the typed move), then end it by agreement."""
    moves, _ = greedy_game(plies, battle.capture_policy)
    for ply, text in enumerate(moves):
        page = pages["dwarf" if ply % 2 == 0 else "troll"]
        other = pages["troll" if ply % 2 == 0 else "dwarf"]
        # As a player does, move once the board on screen is the battle as it stands (its
        # version): a move typed on a board the start or the last move has not reached
        # yet is refused as stale (409), rightly, and the test would wait for it in vain.
        stored = Battle.objects.get(pk=battle.pk).clock_version
        expect(page.locator("#typed-move input[name=version]")).to_have_value(
            str(stored), timeout=WAIT
        )
        page.locator("#move-text").fill(text)
        page.locator("#move-text").press("Enter")
        expect(other.locator("#move-list li")).to_have_count(ply + 1, timeout=WAIT)
    mover = pages["dwarf" if len(moves) % 2 == 0 else "troll"]
    waiter = pages["troll" if len(moves) % 2 == 0 else "dwarf"]
    mover.get_by_role("button", name=re.compile("Offer to end")).click()
    waiter.get_by_role("button", name="Accept").click(timeout=WAIT)
    wait_for(
        lambda: Battle.objects.get(pk=battle.pk).status == Battle.Status.FINISHED,
        timeout=WAIT / 1000,
        what="the battle ended by agreement",
    )


def fresh_battle(battle: Battle) -> Battle:
    return Battle.objects.get(pk=battle.pk)


def press_moved(ref) -> None:
    """*Moved*, and its answer swapped in (a later swap would drop what follows)."""
    with ref.expect_response(lambda r: r.url.endswith("/moved/")):
        ref.locator("#moved").click()


def end_by_decision(ref) -> None:
    """The referee ends the battle on the clock page: a reason, then yes (the reason
    survives a live refresh of the panel: site.js, data-keep-typed)."""
    ref.fill("#decide-reason", "time")
    ref.locator("#decide").click()
    ref.locator("#confirm-decide").click()
    expect(ref.locator("#clock-panel")).to_have_attribute("data-phase", "finished", timeout=WAIT)


def start_timer(org, base: str, minutes: int = 45) -> None:
    org.goto(f"{base}/manage/t/{SLUG}/")
    org.fill("#hall-controls input[name=minutes]", str(minutes))
    org.locator("#hall-controls form[action$='/timer/start/'] button").click()


def expected_match_points(t: Tournament, results: dict) -> dict[str, int]:
    """Every player's match points from the numbers entered all day (W 2, D 1, L 0; a bye
    is a win): a second count, beside the site's standings."""
    totals = {e.player.name: 0 for e in t.entries.select_related("player")}
    for m in Match.objects.filter(round__tournament=t).select_related(
        "round", "player_a__player", "player_b__player"
    ):
        if m.player_b is None:
            totals[m.player_a.player.name] += 2
            continue
        a, b = points(results[m.round.number, m.table])
        totals[m.player_a.player.name] += 2 if a > b else 1 if a == b else 0
        totals[m.player_b.player.name] += 2 if b > a else 1 if a == b else 0
    return totals


def rounds_played(name: str) -> list[int]:
    """The rounds in which ``name`` played a match (a bye is not one)."""
    return sorted(
        Match.objects.filter(round__tournament__slug=SLUG, player_b__isnull=False)
        .filter(
            Q(player_a__player__name=name) | Q(player_b__player__name=name),
        )
        .values_list("round__number", flat=True)
    )


def import_archive(page, base: str, archive: Path, *, slug: str) -> None:
    """The upload form, then its job's page until the worker has imported it."""
    page.goto(base + "/manage/import/")
    page.set_input_files("input[name=file]", str(archive))
    page.fill("input[name=slug]", slug)
    page.locator("main form button[type=submit]").click()
    done_or_failed = page.locator("#import-job a.button, #import-job [role=alert]")
    expect(done_or_failed).to_be_visible(timeout=60_000)
    assert page.locator("#import-job [role=alert]").count() == 0, done_or_failed.inner_text()


class Laps:
    """How long each part of the day took (printed, never asserted)."""

    def __init__(self) -> None:
        self.at = time.monotonic()
        self.laps: list[tuple[str, float]] = []

    def __call__(self, name: str) -> None:
        now = time.monotonic()
        self.laps.append((name, now - self.at))
        self.at = now

    def __str__(self) -> str:
        return "; ".join(f"{name} {seconds:.0f} s" for name, seconds in self.laps)
