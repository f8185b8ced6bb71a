"""HTTP tests of the battle pages: online play through htmx POSTs, the referee's
over-the-board clock page, permissions, and the automatic match result."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.battles.errors import NotAllowed
from games.battles.play import accept_end, decline_end, offer_end
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.thud import Position
from tests.factories import make_match
from tournaments.models.rounds import Match

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def diagram(pieces: dict[tuple[int, int], str], side: str) -> str:
    rows = []
    for r in range(15):
        row = ""
        for c in range(15):
            if abs(r - 7) + abs(c - 7) > 9:
                row += " "
            elif (r, c) == (7, 7):
                row += "R"
            else:
                row += pieces.get((r, c), ".")
        rows.append(row)
    return "\n".join(rows) + f"\n{side}\n"


@pytest.fixture
def online(db):
    # Classic (untimed) so no test depends on wall-clock speed.
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


def login(client, battle: Battle, side: str):
    entry = battle.first_entry if side == "dwarf" else battle.second_entry
    client.force_login(entry.player.user)
    return client


def post_move(client, battle, frm, to, *, version=None, hx=True, **extra):
    data = {"from": frm, "to": to, "version": battle.clock_version if version is None else version}
    data |= extra
    return client.post(reverse("games:move", args=[battle.pk]), data, **(HX if hx else {}))


def test_spectator_sees_the_board_read_only(client, online):
    r = client.get(reverse("games:battle", args=[online.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="board-panel"' in html and 'id="clock-panel"' in html
    assert "selectable" not in html and reverse("games:events", args=[online.pk]) in html
    frag = client.get(reverse("games:battle", args=[online.pk]), **HX).content.decode()
    assert frag.lstrip().startswith("<section") and "<html" not in frag


def test_player_sees_own_pieces_selectable_and_targets_after_touch(client, online):
    login(client, online, "dwarf")
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    assert "selectable" in html
    r = client.post(
        reverse("games:touch", args=[online.pk]),
        {"square": "F1", "version": online.clock_version},
        **HX,
    )
    assert r.status_code == 200
    assert 'name="to" value="F2"' in r.content.decode()  # F2 is a target button
    assert Battle.objects.get(pk=online.pk).touched_square == "F1"


def test_legal_move_applies_and_htmx_gets_fragment_plain_post_redirects(client, online):
    login(client, online, "dwarf")
    r = post_move(client, online, "F1", "F2")
    assert r.status_code == 200 and "d F1-F2" in r.content.decode()
    b = Battle.objects.get(pk=online.pk)
    assert (b.ply, b.side_to_move) == (1, "troll")
    login(client, b, "troll")
    r = post_move(client, b, "G7", "G6", hx=False)
    assert r.status_code == 302 and r.url == reverse("games:battle", args=[b.pk])
    assert list(Move.objects.values_list("notation", flat=True)) == ["d F1-F2", "T G7-G6"]


def test_illegal_move_is_refused_with_a_message_and_changes_nothing(client, online):
    login(client, online, "dwarf")
    r = post_move(client, online, "F1", "H8")
    assert r.status_code == 400 and "not legal" in r.content.decode()
    assert Battle.objects.get(pk=online.pk).clock_version == online.clock_version
    assert not Move.objects.exists()


def test_out_of_turn_move_is_refused(client, online):
    login(client, online, "troll")
    r = post_move(client, online, "G7", "G6")
    assert r.status_code == 409 and "not your turn" in r.content.decode()
    assert not Move.objects.exists()


def test_non_player_cannot_move(client, online, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger", password="x-123456"))
    assert post_move(client, online, "F1", "F2").status_code == 403
    client.logout()
    assert post_move(client, online, "F1", "F2").status_code == 403
    assert not Move.objects.exists()


def test_stale_version_is_refused(client, online):
    login(client, online, "dwarf")
    r = post_move(client, online, "F1", "F2", version=online.clock_version - 1)
    assert r.status_code == 409 and "changed meanwhile" in r.content.decode()
    assert not Move.objects.exists()


def test_double_submitted_move_is_applied_once(client, online):
    login(client, online, "dwarf")
    post_move(client, online, "F1", "F2")
    r = post_move(client, online, "F1", "F2")  # same version again
    assert r.status_code == 200 and "error-box" not in r.content.decode()
    assert Move.objects.count() == 1


def test_troll_chooses_which_dwarfs_to_capture(client, online):
    Battle.objects.filter(pk=online.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        first_count=3,
        second_count=1,
    )
    b = Battle.objects.get(pk=online.pk)
    login(client, b, "troll")
    r = post_move(client, b, "F6", "F5")
    html = r.content.decode()
    assert 'name="captures" value="E4"' in html and 'name="captures" value="G4"' in html
    assert not Move.objects.exists()
    r = post_move(client, b, "F6", "F5", confirm="1", captures=["G4"])
    assert "T F6-F5 xG4" in r.content.decode()
    b = Battle.objects.get(pk=online.pk)
    assert b.first_count == 2 and Move.objects.get().captures == ["G4"]
    assert Position.from_diagram(b.board).piece_at((3, 4)) == "d"


def troll_beside_two_dwarfs(battle: Battle) -> Battle:
    Battle.objects.filter(pk=battle.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        first_count=3,
        second_count=1,
    )
    return Battle.objects.get(pk=battle.pk)


def test_the_capture_choice_is_on_the_board_and_kept_in_the_pages_address(client, online):
    b = troll_beside_two_dwarfs(online)
    login(client, b, "troll")
    page = reverse("games:battle", args=[b.pk])
    r = post_move(client, b, "F6", "F5")
    # htmx: the page's address becomes the choice's, so a reload shows it again.
    assert r["HX-Replace-Url"] == f"{page}?sq=F6&to=F5"
    html = r.content.decode()
    for square in ("E4", "G4"):  # checkboxes on the board's squares, named for a reader
        assert f'aria-label="Capture dwarf at {square}"' in html
    assert 'aria-label="F5, the chosen destination"' in html
    assert html.index('id="capture-form"') < html.index('id="board-form"')  # above the board
    # The reload: a GET of that address shows the same choice and moves nothing.
    again = client.get(f"{page}?sq=F6&to=F5").content.decode()
    assert 'aria-label="Capture dwarf at E4"' in again and 'id="confirm-capture"' in again
    assert not Move.objects.exists()
    # Without JavaScript the move's POST redirects there (a reload posts nothing).
    plain = post_move(client, b, "F6", "F5", hx=False)
    assert plain.status_code == 302 and plain.url == f"{page}?sq=F6&to=F5"
    # Confirmed: the address is the plain page again, and the old one shows no choice.
    done = post_move(client, b, "F6", "F5", confirm="1", captures=["E4", "G4"])
    assert done["HX-Replace-Url"] == page
    assert list(Move.objects.values_list("notation", flat=True)) == ["T F6-F5 xE4 xG4"]
    stale = client.get(f"{page}?sq=F6&to=F5").content.decode()
    assert 'id="capture-form"' not in stale
    # A second press of the confirm button (a double tap) is applied once.
    twice = post_move(client, b, "F6", "F5", confirm="1", captures=["E4", "G4"])
    assert twice.status_code in (200, 409) and Move.objects.count() == 1


def test_a_spectator_or_the_opponent_sees_no_pending_choice(client, online):
    b = troll_beside_two_dwarfs(online)
    url = reverse("games:battle", args=[b.pk]) + "?sq=F6&to=F5"
    assert 'id="capture-form"' not in client.get(url).content.decode()
    login(client, b, "dwarf")
    assert 'id="capture-form"' not in client.get(url).content.decode()


def test_an_untimed_battle_says_no_clock_words(client, online):
    assert not online.timed  # quickfire24: untimed
    login(client, online, "dwarf")
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    assert "Sound at 5 s" not in html
    r = client.post(
        reverse("games:touch", args=[online.pk]),
        {"square": "F1", "version": online.clock_version},
        **HX,
    )
    html = r.content.decode()
    if Battle.objects.get(pk=online.pk).touched_square:  # the touch rule: the line says so
        assert "You touched F1: you must move it." in html
    assert "within" not in html


def test_capture_choice_outside_the_policy_is_refused(client, online):
    Battle.objects.filter(pk=online.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        capture_policy="all_or_none",
    )
    b = Battle.objects.get(pk=online.pk)
    login(client, b, "troll")
    r = post_move(client, b, "F6", "F5", confirm="1", captures=["G4"])
    assert r.status_code == 400 and "not allowed" in r.content.decode()
    assert not Move.objects.exists()


def test_agreement_ends_battle_one_starts_battle_two_and_both_record_the_result(client, online):
    match = online.match
    login(client, online, "dwarf")
    client.post(reverse("games:end", args=[online.pk, "offer"]), **HX)
    login(client, online, "troll")
    client.post(reverse("games:end", args=[online.pk, "accept"]), **HX)
    b1, b2 = Battle.objects.filter(match=match).order_by("number")
    assert (b1.status, b1.finished_reason, b2.status) == ("finished", "agreement", "running")
    assert b2.first_entry == match.player_b
    offer_end(b2.pk, side="troll", now=timezone.now())
    accept_end(b2.pk, side="dwarf", now=timezone.now())
    match = Match.objects.get(pk=match.pk)
    assert match.result_status == Match.ResultStatus.CONFIRMED
    assert match.confirmed_version.survivors.as_tuple() == (32, 8, 32, 8)
    assert match.confirmed_version.source == "engine"


def test_declined_offer_is_cleared_and_own_offer_cannot_be_accepted(client, online):
    offer_end(online.pk, side="dwarf", now=timezone.now())
    with pytest.raises(NotAllowed):
        accept_end(online.pk, side="dwarf", now=timezone.now())
    decline_end(online.pk, side="troll", now=timezone.now())
    assert Battle.objects.get(pk=online.pk).end_offered_by == ""


def test_nudge_settles_and_returns_no_content(client, online):
    r = client.post(reverse("games:nudge", args=[online.pk]))
    assert r.status_code == 204


def test_player_can_open_online_battles_of_own_match_which_wait_for_both(client):
    match = make_match()[0]
    client.force_login(match.player_b.player.user)
    r = client.post(reverse("games:start_online", args=[match.pk]))
    b1 = Battle.objects.get(match=match, number=1)
    assert r.status_code == 302 and r.url == reverse("games:battle", args=[b1.pk])
    # Timed: the clock waits for the opponent; the player who clicked has joined.
    assert (b1.status, b1.awaits_players, b1.deadline) == ("pending", True, None)
    assert b1.second_joined_at is not None and b1.first_joined_at is None


# --- referee over-the-board clock --------------------------------------------------------


@pytest.fixture
def referee_client(client, match):
    client.force_login(match.round.tournament.referees.get())
    return client


def test_referee_runs_the_otb_clock_with_touched_and_moved(referee_client, match):
    c = referee_client
    r = c.post(reverse("games:start_otb", args=[match.pk]))
    b1 = Battle.objects.get(match=match, number=1)
    assert r.url == reverse("games:referee_clock", args=[b1.pk])
    page = c.get(r.url).content.decode()
    assert 'id="start"' in page
    c.post(reverse("games:referee_action", args=[b1.pk, "start"]), {"version": 0}, **HX)
    frag = c.post(
        reverse("games:referee_action", args=[b1.pk, "touched"]), {"version": 1}, **HX
    ).content.decode()
    assert 'id="moved"' in frag
    c.post(reverse("games:referee_action", args=[b1.pk, "moved"]), {"version": 2}, **HX)
    b = Battle.objects.get(pk=b1.pk)
    assert (b.ply, b.side_to_move, b.touched_square) == (1, "troll", "")
    r = c.post(reverse("games:referee_action", args=[b1.pk, "moved"]), {"version": 2}, **HX)
    assert "changed meanwhile" in r.content.decode()
    c.post(reverse("games:referee_action", args=[b1.pk, "pause"]), **HX)
    assert Battle.objects.get(pk=b1.pk).status == "paused"
    c.post(reverse("games:referee_action", args=[b1.pk, "resume"]), **HX)
    assert Battle.objects.get(pk=b1.pk).status == "running"
    assert ClockEvent.objects.filter(battle=b1, kind__in=["paused", "resumed"]).count() == 2


def test_referee_ends_both_battles_and_enters_survivors(referee_client, match):
    c = referee_client
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    for b in (b1, b2):
        start_battle(b.pk, now=timezone.now())
        data = {"reason": "done", "confirm": "1"}  # asked first: see test_pauses_http.py
        c.post(reverse("games:referee_action", args=[b.pk, "decide"]), data)
    page = c.get(reverse("games:referee_clock", args=[b2.pk])).content.decode()
    assert 'id="survivors-form"' in page
    r = c.post(
        reverse("games:survivors", args=[b2.pk]),
        {
            "battle1_first": 20,
            "battle1_second": 5,
            "battle2_first": 18,
            "battle2_second": 6,
        },
    )
    assert r.status_code == 302
    match = Match.objects.get(pk=match.pk)
    assert match.result_status == Match.ResultStatus.ENTERED


def test_non_referee_cannot_open_the_referee_clock(client, match):
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    client.force_login(match.player_a.player.user)
    assert client.get(reverse("games:referee_clock", args=[b1.pk])).status_code == 403
    r = client.post(reverse("games:referee_action", args=[b1.pk, "start"]), {"version": 0})
    assert r.status_code == 403
    assert Battle.objects.get(pk=b1.pk).status == "pending"


def test_referee_pauses_a_whole_round(referee_client, match):
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    t = match.round.tournament
    round_url = reverse("referee_round", args=[t.slug, match.round.number])
    page = referee_client.get(round_url).content.decode()
    pause_url = reverse("games:pause_round", args=[match.round_id])
    assert f'action="{pause_url}"' in page and "Pause all battles" in page
    r = referee_client.post(pause_url, {"next": "https://evil.example/"})
    assert r.status_code == 302 and r.url == round_url  # never an outside redirect
    assert Battle.objects.get(pk=b1.pk).status == "paused"
    assert "1 battle paused." in referee_client.get(round_url).content.decode()


def test_pause_round_is_refused_to_players_and_changes_nothing(client, match):
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    client.force_login(match.player_a.player.user)
    r = client.post(reverse("games:pause_round", args=[match.round_id]))
    assert r.status_code == 403
    assert Battle.objects.get(pk=b1.pk).status == "running"


def test_match_page_offers_the_starts_each_role_may_use(client, match):
    url = reverse("games:match", args=[match.pk])
    html = client.get(url).content.decode()
    assert "Play online" not in html and "physical board" not in html
    client.force_login(match.player_a.player.user)
    html = client.get(url).content.decode()
    assert "Play online" in html and "physical board" not in html
    client.force_login(match.round.tournament.referees.get())
    assert "physical board" in client.get(url).content.decode()


def test_capturing_the_last_dwarf_ends_the_battle_and_starts_battle_two(client, online):
    Battle.objects.filter(pk=online.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d"}, "troll"),
        side_to_move="troll",
    )
    b = Battle.objects.get(pk=online.pk)
    login(client, b, "troll")
    post_move(client, b, "F6", "F5", confirm="1", captures=["E4"])
    b = Battle.objects.get(pk=online.pk)
    assert (b.status, b.finished_reason, b.first_count) == ("finished", "no_legal_move", 0)
    assert Battle.objects.get(match=b.match, number=2).status == "running"


def test_referee_cannot_press_touched_or_moved_for_an_online_battle(client, online):
    referee = online.match.round.tournament.referees.get()
    client.force_login(referee)
    page = client.get(reverse("games:referee_clock", args=[online.pk])).content.decode()
    assert 'id="moved"' not in page and "the players move on their board" in page
    for action in ("touched", "moved"):
        response = client.post(
            reverse("games:referee_action", args=[online.pk, action]),
            {"version": online.clock_version},
            **HX,
        )
        assert "moved by their players" in response.content.decode()
    online.refresh_from_db()
    assert online.ply == 0 and online.touched_square == ""


def test_battle_page_links_back_to_its_match_and_tournament(client, online):
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    assert reverse("games:match", args=[online.match_id]) in html
    assert reverse("tournament", args=[online.match.round.tournament.slug]) in html


def test_clock_counts_moves_per_side_in_words(client, online):
    """'Move 2 of 24 (Dwarfs)', not 'Turn 3 of 48' (a quickfire 24 battle, ply 2)."""
    Battle.objects.filter(pk=online.pk).update(ply=2, side_to_move="dwarf")
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    assert "Move 2 of 24 (Dwarfs)" in html and "of 48" not in html


@pytest.mark.parametrize(("side", "name"), [("white", "White"), ("black", "Black")])
def test_clock_names_the_side_of_a_cavalli_battle_with_a_move_limit(client, side, name):
    """A Cavalli battle with a move limit: its side's name, not Thud's "(trolls)"."""
    match = make_match(variant="quickfire24", game="cavalli")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    b1 = start_battle(b1.pk, now=timezone.now())
    Battle.objects.filter(pk=b1.pk).update(ply=3, side_to_move=side)
    html = client.get(reverse("games:battle", args=[b1.pk])).content.decode()
    panel = html.split('id="clock-panel"')[1].split("</div>\n</div>")[0]
    assert f"Move 2 of 24 ({name})" in panel
    assert "dwarfs" not in panel and "trolls" not in panel


def test_a_moved_press_answers_the_fresh_panel_reading_only_the_row_again(
    referee_client, match, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    """The hall's most frequent request: the gate runs once, then only the battle's row
    is read again for the panel, which shows the new state."""
    c = referee_client
    b1, _ = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    url = reverse("games:referee_action", args=[b1.pk, "moved"])
    c.post(url, {"version": 1}, **HX)  # warm: the session, the templates
    with (
        # 13 + the session (in the database) + the last clock events, for the news of a
        # turn the press started (games/web/presenters_referee.py)
        django_assert_max_num_queries(15) as queries,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        r = c.post(url, {"version": 2}, **HX)
    assert callbacks  # the after-commit work (publish, e-mail check) is counted too
    assert 'name="version" value="3"' in r.content.decode()
    sqls = [q["sql"] for q in queries.captured_queries]
    # The gate's lookup (the battle with its tournament and seats' players) runs once.
    gates = [q for q in sqls if q.startswith('SELECT "games_battle"') and "tournaments_player" in q]
    assert len(gates) == 1, gates
    # Nothing else walks match → round → tournament (a battle's default ordering does:
    # 4 ms of planning each time, measured).
    joined = [q for q in sqls if 'JOIN "tournaments_tournament" ' in q]
    assert joined == gates
    b = Battle.objects.get(pk=b1.pk)
    assert (b.ply, b.clock_version) == (2, 3)
    frag = c.post(url, {"version": 2}, **HX).content.decode()  # a stale press
    assert "changed meanwhile" in frag and 'name="version" value="3"' in frag


def test_the_move_list_costs_the_same_queries_whatever_the_number_of_moves(client, online):
    """Each move in the list knows its battle (its side's name), read by one query."""
    url = reverse("games:battle", args=[online.pk])

    def stored(ply: int) -> Move:
        side = ("dwarf", "troll")[ply % 2]
        return Move.objects.create(
            battle=online,
            ply=ply,
            side=side,
            notation=f"n{ply}",
            kind="move",
            submitted_at=timezone.now(),
            clock_version_before=1,
        )

    stored(0)
    client.get(url)  # warm: the templates, the compiled queries
    with CaptureQueriesContext(connection) as one:
        html = client.get(url).content.decode()
    assert html.count('data-side-name="Dwarfs"') == 1
    for ply in range(1, 6):
        stored(ply)
    with CaptureQueriesContext(connection) as six:
        html = client.get(url).content.decode()
    assert len(six) == len(one), [q["sql"] for q in six]
    assert html.count('data-side-name="Dwarfs"') == 3 and html.count('data-side-name="Trolls"') == 3
    assert [f"n{ply}" in html for ply in range(6)] == [True] * 6
