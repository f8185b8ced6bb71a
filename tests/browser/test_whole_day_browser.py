"""One tournament day, whole (issue 41), in real processes: uvicorn, Celery clock, bots and
default workers and beat on the real Redis, Debian's chromium, PostgreSQL.

A check-in tournament of 10 (two players without an account, one late, one absent) is
created from ``/`` by its organiser, checked in at the desk, followed by a personal link
and by the hall screen, open at 1920×1080 from before round 1 to after the close without a
reload. Round 1 has an online battle (two players' browsers moving), an over-the-board
battle on a referee clock that goes offline for 5 s, and a result entered offline and sent
once; the organiser confirms from the round page. Rounds 2 and 3, standings, ratings, the
close (the hall's final slide), *Download archive*, the import on a fresh database (another
installation: every public JSON endpoint and download the same), and a second import on
the same site (an unrated copy).

Each step asserts what each person sees: facts (round numbers, names, scores, statuses),
not wording other pages may change. Screenshots: test-output/day/.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest
from django.db import connections
from playwright.sync_api import expect

from games.models.battle import Battle
from games.models.history import Move
from games.rules import clock
from tests.browser.day import (
    FreshSite,
    public_view,
    this_site_env,
)
from tests.browser.day_steps import (
    ABSENT,
    FIELDS,
    LAPTOP,
    LATE,
    OFFLINE_SURVIVORS,
    OTB_SURVIVORS,
    OUT,
    PASSWORD,
    PHONE,
    PLAYERS,
    PROJECTOR,
    RUNNING,
    SITE_ADMIN,
    SLUG,
    WAIT,
    Laps,
    confirm_dialog,
    confirm_from_round_page,
    end_by_decision,
    enter_result,
    expect_hall,
    expected_match_points,
    fresh_battle,
    hall_rows,
    import_archive,
    link_accounts,
    open_as,
    pair_and_publish,
    people,
    play_online_battle,
    press_moved,
    rounds_played,
    set_up_by_the_organiser,
    start_timer,
    survivors_for,
)
from tests.browser.test_hall_day_browser import SHOW
from tests.browser.test_offline_browser import (  # noqa: F401 - the fixture
    go_offline,
    go_online,
    offline_browser,
)
from tests.processes import default_worker_proc, wait_for
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.personal_links import personal_path

pytestmark = [
    pytest.mark.browser,
    # The lane of the timing tests: the referee clock's outage is timed like theirs.
    pytest.mark.clock,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
    pytest.mark.usefixtures("offline_browser"),
]


def assert_second_import_is_unrated_copy(
    page, base: str, slug: str, ratings_before: dict, stats_before: dict
) -> None:
    """The second import of the day's archive on the same site (issue 41, "re-importing
    counts nothing twice"): the job's page says the site holds this tournament already;
    the import is an unrated copy of the original, its public page says so, nobody's
    rating or history changes, and the site's statistics are as they were."""
    notice = page.locator("#import-job .copy-notice")
    expect(notice).to_be_visible(timeout=WAIT)
    assert "already on this site" in notice.inner_text()
    copy = Tournament.objects.get(slug=slug)
    assert copy.imported and not copy.rated
    assert copy.copy_of == Tournament.objects.get(slug=SLUG)
    page.goto(f"{base}/t/{slug}/")
    expect(page.locator(".copy-notice")).to_contain_text("not counted in ratings")
    after = {row["player"]: row for row in httpx.get(f"{base}/api/ratings?game=thud").json()}
    assert after == ratings_before
    for player in ratings_before:
        history = httpx.get(f"{base}/api/players/{player}/ratings?game=thud").json()["history"]
        assert {h["tournament"] for h in history} == {SLUG}
    assert httpx.get(f"{base}/api/stats").json() == stats_before


def test_a_whole_tournament_day_from_check_in_to_the_archive_on_another_site(
    browser, server, tmp_path
):
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    fresh = FreshSite(tmp_path).begin(SITE_ADMIN, PASSWORD)  # migrated meanwhile
    worker = default_worker_proc(
        this_site_env(), this_site_env()["THUD_CELERY_DEFAULT_QUEUE"], tmp_path
    )
    worker.start(wait=False)
    try:
        day(browser, server, fresh, worker)
    finally:
        worker.stop()
        fresh.close()
        connections.close_all()
    print(f"the whole day took {time.monotonic() - started:.0f} s")


def archive_on_two_sites(browser, server: str, fresh: FreshSite, worker, org, ratings, lap):
    """*Download archive*; its import on another installation, where the public reads the
    same; the same file imported again here."""
    # Export: the organiser's *Download archive*.
    archive = OUT / "lancre-open-archive.json"
    with org.expect_download() as download:
        org.locator(f"a[href$='/manage/t/{SLUG}/archive.json']").click()
    download.value.save_as(archive)

    # Another installation, on a fresh database: its site administrator logs in and
    # imports the file by the upload form; the public reads the same there.
    there = fresh.ready()
    lap("other site started")
    admin = browser.new_context(viewport=LAPTOP).new_page()
    admin.goto(there + "/accounts/login/")
    admin.fill("input[name=username]", SITE_ADMIN)
    admin.fill("input[name=password]", PASSWORD)
    admin.locator("main form button[type=submit]").click()
    import_archive(admin, there, archive, slug="")
    lap("imported there")
    here_view = public_view(server, SLUG)
    lap("read here")
    there_view = public_view(there, SLUG)
    # What the rated flag decides aside: an import rates nobody until its players claim
    # their entries (tournaments/rating/sources.py), so the other site has no ratings.
    assert there_view.pop("ratings") == [] and here_view.pop("ratings")
    assert all(not p["history"] for p in there_view.pop("player_ratings"))
    assert sum(bool(p["history"]) for p in here_view.pop("player_ratings")) == len(ratings)
    assert set(here_view) == set(there_view)
    for name, value in here_view.items():
        assert there_view[name] == value, name
    lap("export, other site, compared")

    # The same file a second time on this site, under another address.
    before = {row["player"]: row for row in ratings}
    stats = httpx.get(f"{server}/api/stats").json()
    assert stats, "the site's statistics count the day"
    worker.wait_ready()
    import_archive(org, server, archive, slug=f"{SLUG}-again")
    assert_second_import_is_unrated_copy(org, server, f"{SLUG}-again", before, stats)


def day(browser, server: str, fresh: FreshSite, worker) -> None:
    who = people()
    errors: list[str] = []
    lap = Laps()

    org = open_as(browser, who.organiser, server, errors=errors)
    set_up_by_the_organiser(org, server, who)
    t = Tournament.objects.get(slug=SLUG)
    assert t.entries.count() == 10 and t.check_in_required and t.rated
    assert list(t.referees.all()) == [who.referee]
    link_accounts(t, who.players)
    assert t.entries.filter(player__user__isnull=True).count() == 2
    late = Entry.objects.get(tournament=t, player__name=LATE[0])
    assert late.late_from_round == 2

    # The hall screen, opened before round 1 and never reloaded.
    hall = browser.new_page(viewport=PROJECTOR)
    hall.on("pageerror", lambda e: errors.append(str(e)))
    hall.goto(f"{server}/t/{SLUG}/hall/?every=120")
    expect(hall.locator("body")).to_have_attribute("data-live", "1", timeout=WAIT)
    hall.evaluate("window.notReloaded = true")
    expect_hall(hall, "Before round 1", [], timer=False)
    hall.screenshot(path=str(OUT / "hall-1-before-round-1.png"))

    # A personal link (a player without an account), as the organiser hands it out from
    # the dashboard's *Personal link* column: their page, no log-in.
    carrot = Entry.objects.get(tournament=t, player__name="Carrot Ironfoundersson")
    org.goto(f"{server}/manage/t/{SLUG}/")
    handed_out = org.locator(f"#link-{carrot.pk}").input_value()
    assert handed_out == server + personal_path(carrot)
    own = open_as(browser, None, server, viewport=PHONE)
    own.goto(handed_out)
    expect(own.locator("h1")).to_contain_text("Carrot Ironfoundersson")
    own.evaluate("window.notReloaded = true")

    # The check-in desk on the referee's phone: everyone but the absent and the late one.
    desk = open_as(browser, who.referee, server, viewport=PHONE, errors=errors)
    desk.goto(f"{server}/referee/t/{SLUG}/desk/")
    for name, _rating, _account in PLAYERS:
        if name == ABSENT:
            continue
        entry = Entry.objects.get(tournament=t, player__name=name)
        row = desk.locator(f"#desk-entry-{entry.pk}")
        row.get_by_role("button", name="Check in").click()
        expect(row.get_by_role("button", name="Undo")).to_be_visible(timeout=WAIT)
    expect(desk.locator("#desk-counts")).to_contain_text("8 present")
    assert set(
        Entry.objects.filter(tournament=t, checked_in=True).values_list("player__name", flat=True)
    ) == {name for name, _r, _a in PLAYERS} - {ABSENT}

    lap("set-up, desk")
    # Round 1: paired and published by the organiser; the hall and the personal page follow.
    pair_and_publish(org, server, 1)
    round_1 = t.round_set.get(number=1)
    matches = list(round_1.matches.select_related("player_a__player", "player_b__player"))
    paired = {m.player_a.player.name for m in matches} | {m.player_b.player.name for m in matches}
    assert len(matches) == 4 and ABSENT not in paired and LATE[0] not in paired
    expect_hall(hall, "Round 1", hall_rows(1, {}), timer=False)
    expect(own.locator("#my-round")).to_have_attribute("data-round", "1", timeout=WAIT)
    carrots = next(m for m in matches if carrot.pk in (m.player_a_id, m.player_b_id))
    expect(own.locator("#my-round")).to_contain_text(f"{carrots.table}")
    assert own.evaluate("window.notReloaded") is True

    # The round timer, started from the dashboard, shows on the hall.
    start_timer(org, server)
    expect_hall(hall, "Round 1", hall_rows(1, {}), timer=True)
    expect(hall.locator("#hall-timer")).to_contain_text(re.compile(r"4[45]:\d\d"))

    # Which table plays how: online needs two account holders.
    online = next(m for m in matches if m.player_a.player.user and m.player_b.player.user)
    rest = [m for m in matches if m != online]
    otb, offline, plain = rest

    # The online table: the two players' browsers move (battle 1, then battle 2).
    seats = {}
    for side, entry in (("dwarf", online.player_a), ("troll", online.player_b)):
        seats[side] = open_as(browser, entry.player.user, server, viewport=LAPTOP, errors=errors)
        seats[side].goto(server + "/")  # their match is on their home page
        seats[side].locator(f"#home-player a[href$='/battles/match/{online.pk}/']").click()
    seats["dwarf"].get_by_role("button", name="Play online").click()
    b1 = Battle.objects.get(match=online, number=1)
    seats["troll"].goto(f"{server}/battles/{b1.pk}/")
    wait_for(
        lambda: Battle.objects.get(pk=b1.pk).status == "running", timeout=WAIT / 1000, what="b1"
    )
    play_online_battle(seats, b1, 4)
    b2 = Battle.objects.get(match=online, number=2)
    # Battle 2: sides swapped (B has the first side).
    swapped = {"dwarf": seats["troll"], "troll": seats["dwarf"]}
    for page in swapped.values():
        page.goto(f"{server}/battles/{b2.pk}/")
    wait_for(
        lambda: Battle.objects.get(pk=b2.pk).status == "running", timeout=WAIT / 1000, what="b2"
    )
    play_online_battle(swapped, b2, 4)
    online.refresh_from_db()
    assert online.result_status == Match.ResultStatus.CONFIRMED
    (engine,) = online.versions.all()
    assert engine.source == ResultVersion.Source.ENGINE
    scores = {online.table: engine.survivors.as_tuple()}
    expect_hall(hall, "Round 1", hall_rows(1, scores), timer=True)

    lap("round 1 online")
    # The over-the-board table on the referee clock; the referee's phone goes offline for
    # 5 s: the page says so, the battle pauses, and resumes when the phone is back.
    ref = open_as(browser, who.referee, server, viewport=PHONE, errors=errors)
    ref.goto(f"{server}/battles/match/{otb.pk}/")
    ref.get_by_role("button", name=re.compile("Referee clock")).click()
    ob1 = Battle.objects.get(match=otb, number=1)
    expect(ref).to_have_url(re.compile(f"/battles/referee/{ob1.pk}/$"))
    link = ref.locator("#referee-link")
    expect(link).to_have_attribute("data-state", "connected", timeout=WAIT)
    # The hall follows the battles while their slide is on screen (one slide at a time):
    # from the start on.
    hall.evaluate(SHOW, "battles")
    ref.locator("#start").click()
    expect(ref.locator("#clock-panel")).to_have_attribute("data-phase", RUNNING, timeout=WAIT)
    for ply in (1, 2):
        press_moved(ref)
        wait_for(lambda ply=ply: fresh_battle(ob1).ply == ply, timeout=5, what=f"ply {ply}")
    hall_battle = hall.locator(f".hall-battle[data-battle='{ob1.pk}']")
    expect(hall_battle).to_have_count(1, timeout=WAIT)
    ref.context.set_offline(True)
    went = time.monotonic()
    expect(link).to_have_attribute("data-state", "offline", timeout=3_000)
    expect(ref.locator("#moved")).to_be_disabled()
    wait_for(
        lambda: fresh_battle(ob1).paused_reason == clock.REASON_REFEREE_OFFLINE,
        timeout=5,
        what="the pause for the offline referee page",
    )
    paused_label = str(Battle.Status.PAUSED.label).lower()
    expect(hall_battle.locator(".state")).to_have_text(paused_label, timeout=4_000)
    ref.screenshot(path=str(OUT / "referee-clock-offline-390.png"), full_page=True)
    hall.evaluate(SHOW, "tables")
    hall.screenshot(path=str(OUT / "hall-2-mid-round.png"))
    hall.evaluate(SHOW, "battles")
    hall.screenshot(path=str(OUT / "hall-2-mid-round-battles.png"))
    ref.wait_for_timeout(max(0.0, 5 - (time.monotonic() - went)) * 1000)
    paused = fresh_battle(ob1)
    assert (paused.status, paused.ply) == (clock.PAUSED, 2)
    ref.context.set_offline(False)
    wait_for(lambda: fresh_battle(ob1).status == clock.RUNNING, timeout=10, what="resumed")
    expect(link).to_have_attribute("data-state", "connected", timeout=WAIT)
    expect(ref.locator("#moved")).to_be_enabled()
    assert not Move.objects.filter(battle=ob1, kind=Move.Kind.FORFEIT).exists()
    end_by_decision(ref)
    ob2 = Battle.objects.get(match=otb, number=2)
    ref.goto(f"{server}/battles/referee/{ob2.pk}/")
    ref.locator("#start").click()
    expect(ref.locator("#clock-panel")).to_have_attribute("data-phase", RUNNING, timeout=WAIT)
    # A move first: a battle a referee ends before its first move was not played (unrated).
    press_moved(ref)
    wait_for(lambda: fresh_battle(ob2).ply == 1, timeout=5, what="battle 2's first move")
    end_by_decision(ref)
    for field, value in zip(FIELDS, OTB_SURVIVORS, strict=True):
        ref.fill(f"#survivors-form input[name={field}]", str(value))
    ref.locator("#survivors-form button[type=submit]").click()
    wait_for(lambda: otb.versions.count() == 1, timeout=WAIT / 1000, what="the OTB result")

    # A result entered offline on another referee phone, sent once when it is back.
    phone = open_as(browser, who.referee, server, viewport=PHONE, errors=errors)
    phone.goto(f"{server}/referee/t/{SLUG}/matches/{offline.pk}/")
    go_offline(phone.context)
    for field, value in zip(FIELDS, OFFLINE_SURVIVORS, strict=True):
        phone.fill(f"#result-panel input[name={field}]", str(value))
    phone.click("#result-panel button[name=enter]")
    expect(phone.locator("#offline-queue")).to_be_visible(timeout=WAIT)
    expect(phone.locator("#offline-count")).to_contain_text("1")
    assert not offline.versions.exists()
    go_online(phone.context)
    expect(phone.locator("#offline-details")).to_be_hidden(timeout=WAIT)
    wait_for(lambda: offline.versions.exists(), timeout=WAIT / 1000, what="the queued entry")
    phone.reload()  # the page comes back: nothing is sent again
    expect(phone.locator("#result-panel [data-status]")).to_have_attribute("data-status", "entered")
    (sent,) = offline.versions.all()
    assert sent.survivors.as_tuple() == OFFLINE_SURVIVORS and sent.entered_by == who.referee

    # The fourth table: the referee enters it as usual.
    enter_result(phone, server, plain, survivors_for(1, plain.table))
    expect_hall(hall, "Round 1", hall_rows(1, scores), timer=True)  # nothing confirmed yet

    lap("round 1 over the board, offline")
    # The organiser: from / to the round page, each row to its match, confirmed there.
    org.goto(server + "/")
    org.locator(f"#home-organiser [href*='/manage/t/{SLUG}/rounds/1/']").first.click()
    expect(org).to_have_url(re.compile(f"/manage/t/{SLUG}/rounds/1/"))
    expect(org.locator("#round-matches a[data-result-link].status-entered")).to_have_count(3)
    confirm_from_round_page(org, server, 1, [otb.table, offline.table, plain.table])
    expect(org.locator("#round-matches a[data-result-link].status-confirmed")).to_have_count(4)
    org.set_viewport_size(PHONE)
    assert org.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # On the phone, each row's link to its match is in sight without scrolling sideways.
    for box in org.locator("#round-matches a[data-result-link]").evaluate_all(
        "links => links.map(a => a.getBoundingClientRect().right)"
    ):
        assert box <= PHONE["width"], box
    org.screenshot(path=str(OUT / "organiser-round-1-390.png"), full_page=True)
    org.set_viewport_size(LAPTOP)
    scores |= {
        otb.table: OTB_SURVIVORS,
        offline.table: OFFLINE_SURVIVORS,
        plain.table: survivors_for(1, plain.table),
    }
    expect_hall(hall, "Round 1", hall_rows(1, scores), timer=True)
    # The over-the-board battle shows its confirmed survivors as points (28 and 4 × 4).
    expect(hall_battle.locator(".points")).to_have_text(["28", "16"], timeout=WAIT)
    hall.evaluate(SHOW, "tables")
    hall.screenshot(path=str(OUT / "hall-3-after-results.png"))
    results = {(1, table): numbers for table, numbers in scores.items()}

    lap("round 1 confirmed")
    # Rounds 2 and 3: the late player checks in at the desk first; the referee enters every
    # result, the organiser confirms each from the round page; the hall follows each step.
    desk.goto(f"{server}/referee/t/{SLUG}/desk/")
    desk.locator(f"#desk-entry-{late.pk} button", has_text="Check in").click()
    expect(desk.locator("#desk-counts")).to_contain_text("9 present", timeout=WAIT)
    for number in (2, 3):
        pair_and_publish(org, server, number)
        # A new round has no timer until the organiser starts one.
        expect_hall(hall, f"Round {number}", hall_rows(number, {}), timer=False)
        expect(own.locator("#my-round")).to_have_attribute("data-round", str(number), timeout=WAIT)
        start_timer(org, server)
        expect_hall(hall, f"Round {number}", hall_rows(number, {}), timer=True)
        played = list(
            Match.objects.filter(round__tournament=t, round__number=number, player_b__isnull=False)
        )
        assert len(played) == 4  # and one bye: 9 players
        round_scores = {m.table: survivors_for(number, m.table) for m in played}
        for m in played:
            enter_result(phone, server, m, round_scores[m.table])
        confirm_from_round_page(org, server, number, sorted(round_scores))
        expect_hall(hall, f"Round {number}", hall_rows(number, round_scores), timer=True)
        results |= {(number, table): numbers for table, numbers in round_scores.items()}
    assert own.evaluate("window.notReloaded") is True

    lap("rounds 2 and 3")
    fresh.serve()  # the other installation, started while this one closes
    # Standings: what the public reads agrees with every result of the day.
    standings = httpx.get(f"{server}/api/tournaments/{SLUG}/standings").json()
    assert {row["name"]: row["match_points"] for row in standings} == expected_match_points(
        t, results
    )
    org.goto(f"{server}/t/{SLUG}/standings/")
    expect(org.locator("main table tbody tr").first).to_contain_text(standings[0]["name"])

    # The close: asked first; the hall shows the final slide, with no timer left.
    org.goto(f"{server}/manage/t/{SLUG}/")
    org.locator("#close-form button").click()
    confirm_dialog(org)
    wait_for(
        lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED,
        timeout=WAIT / 1000,
        what="the close",
    )
    expect_hall(hall, "Final results", None, timer=False)
    expect(hall.locator(".hall-slide[data-kind=final] .hall-champion")).to_have_text(
        [standings[0]["name"]]
    )
    expect(hall.locator(".hall-slide[data-kind=names]")).to_have_count(0)
    final_rows = hall.locator(".hall-slide[data-kind=standings] tbody th.name")
    expect(final_rows).to_have_text([row["name"] for row in standings])
    hall.evaluate(SHOW, "final")
    hall.screenshot(path=str(OUT / "hall-4-closed.png"))
    hall.evaluate(SHOW, "standings")
    hall.screenshot(path=str(OUT / "hall-4-closed-standings.png"))

    # Ratings: every player who played is rated, once per round played.
    ratings = httpx.get(f"{server}/api/ratings?game=thud").json()
    rated_names = {row["name"] for row in ratings}
    assert rated_names == {row["name"] for row in standings if row["played"]}
    for row in ratings:
        history = httpx.get(f"{server}/api/players/{row['player']}/ratings?game=thud").json()
        assert [(h["tournament"], h["round"]) for h in history["history"]] == [
            (SLUG, n) for n in rounds_played(row["name"])
        ], row["name"]

    lap("standings, close, ratings")
    archive_on_two_sites(browser, server, fresh, worker, org, ratings, lap)
    lap("second import")
    assert errors == [], errors
    print(lap)
