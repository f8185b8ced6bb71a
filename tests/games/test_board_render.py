"""The board renderer: ``presenters_thud.board_view`` over plain positions (no database), and
the HTML of the live board and the printable diagram (SVG pieces, labels, accessible
names, the last move and its captures)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.play import submit_move
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from games.thud import Move, Position, Side, parse_square
from games.web import presenters_thud
from tests.factories import make_match
from tests.games.test_battles_http import HX, diagram, login, post_move
from tournaments.models.rounds import Round

FILES = list("ABCDEFGHJKLMNOP")


def squares(view: dict) -> dict[str, dict]:
    return {sq["name"]: sq for row in view["rows"] for sq in row["squares"] if sq["on"]}


def square_classes(html: str, name: str) -> set[str]:
    match = re.search(rf'<(?:button|span) class="([^"]*)"[^>]*data-square="{name}"', html)
    assert match, f"no square {name} in the board"
    return set(match.group(1).split())


def board_html(html: str) -> str:
    start = html.index('<div class="thud-board"')
    return html[start : html.index("</div>", start)]


# --- board_view: pure --------------------------------------------------------------------


def test_board_view_is_the_octagon_with_rank_1_on_top_and_the_stone_in_the_middle():
    view = presenters_thud.board_view(Position.initial())
    assert view["files"] == FILES and "I" not in view["files"]
    assert [row["rank"] for row in view["rows"]] == list(range(1, 16))
    assert len(squares(view)) == 165
    top = view["rows"][0]["squares"]
    assert [sq["name"] for sq in top if sq["on"]] == ["F1", "G1", "H1", "J1", "K1"]
    middle = view["rows"][7]["squares"][7]
    assert (middle["name"], middle["piece"], middle["label"]) == (
        "H8",
        "thudstone",
        "Thudstone on H8",
    )
    by_name = squares(view)
    assert by_name["F1"]["piece"] == "dwarf" and by_name["F1"]["label"] == "dwarf on F1"
    assert by_name["G7"]["piece"] == "troll" and by_name["G7"]["label"] == "troll on G7"
    assert by_name["H1"]["piece"] == "" and by_name["H1"]["label"] == "empty square H1"


def test_board_view_marks_a_troll_move_and_the_dwarfs_it_took():
    move = Move(Side.TROLL, parse_square("F6"), parse_square("F5"), (parse_square("G4"),))
    pos = Position({parse_square("F5")}, set(), Side.DWARF)  # whatever is left after it
    by_name = squares(presenters_thud.board_view(pos, last_move=move))
    assert by_name["F6"]["last_from"] and "last-from" in by_name["F6"]["classes"].split()
    assert by_name["F5"]["last_to"] and "last-to" in by_name["F5"]["classes"].split()
    assert by_name["G4"]["captured"] and "captured" in by_name["G4"]["classes"].split()
    marked = [n for n, sq in by_name.items() if sq["last_from"] or sq["last_to"] or sq["captured"]]
    assert sorted(marked) == ["F5", "F6", "G4"]


def test_a_hurl_marks_its_landing_square_as_moved_to_and_captured():
    move = Move(Side.DWARF, parse_square("C4"), parse_square("G8"), (parse_square("G8"),))
    pos = Position({parse_square("G8")}, set(), Side.TROLL)
    g8 = squares(presenters_thud.board_view(pos, last_move=move))["G8"]
    assert {"last-to", "captured", "has-dwarf"} <= set(g8["classes"].split())


def test_selectable_targets_and_selection_are_the_callers_choice():
    pos = Position.initial()
    f1, f2 = parse_square("F1"), parse_square("F2")
    by_name = squares(presenters_thud.board_view(pos, selectable={f1}, targets={f2}, selected=f1))
    assert by_name["F1"]["selectable"] and by_name["F1"]["selected"]
    assert by_name["F2"]["target"] and not by_name["G1"]["selectable"]
    assert not any(sq["selectable"] for sq in squares(presenters_thud.board_view(pos)).values())


def stored(*notations: str) -> list:
    return [SimpleNamespace(notation=n) for n in notations]


def test_last_move_skips_forfeits_and_ignores_a_move_the_board_does_not_show():
    pos = Position.initial().apply(Move(Side.DWARF, parse_square("F1"), parse_square("F2")))
    assert presenters_thud.last_move_of(stored("d F1-F2", ""), pos) == Move(
        Side.DWARF, parse_square("F1"), parse_square("F2")
    )
    assert presenters_thud.last_move_of(stored(), pos) is None
    # The referee reset the board: F5 holds no dwarf, so nothing is marked.
    assert presenters_thud.last_move_of(stored("d F1-F5"), pos) is None


# --- the live board over HTTP ------------------------------------------------------------


@pytest.fixture
def online(db):
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    return start_battle(b1.pk, now=timezone.now())


@pytest.mark.django_db
def test_battle_page_draws_svg_pieces_and_labels_the_files_and_ranks(client, online):
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    for symbol in ("dwarf", "troll", "thudstone"):
        assert html.count(f'<symbol id="{symbol}"') == 1
    board = board_html(html)
    assert board.count('<use href="#dwarf">') == 32 and board.count('<use href="#troll">') == 8
    assert board.count('<use href="#thudstone">') == 1
    assert 'data-square="H8" data-r="7" data-c="7" role="img" aria-label="Thudstone on H8"' in board
    assert re.findall(r'class="label file"[^>]*>(\w)<', board) == FILES
    assert re.findall(r'class="label rank"[^>]*>(\d+)<', board) == [str(n) for n in range(1, 16)]
    # A spectator's board has nothing to press and nothing to tab to.
    assert "<button" not in board and "tabindex" not in board


@pytest.mark.django_db
def test_htmx_swap_reuses_the_pages_symbols(client, online):
    frag = client.get(reverse("games:battle", args=[online.pk]), **HX).content.decode()
    assert '<use href="#dwarf">' in frag and "<symbol" not in frag


@pytest.mark.django_db
def test_players_pieces_are_buttons_named_for_screen_readers(client, online):
    login(client, online, "dwarf")
    html = client.get(reverse("games:battle", args=[online.pk])).content.decode()
    board = board_html(html)
    f1 = re.search(r'<button [^>]*data-square="F1"[^>]*>', board).group(0)
    assert 'aria-label="dwarf on F1"' in f1 and 'name="square"' in f1
    assert 'aria-pressed="false"' in f1
    assert board.count("<button") == 32  # the dwarfs, nothing else
    r = client.post(
        reverse("games:touch", args=[online.pk]),
        {"square": "F1", "version": online.clock_version},
        **HX,
    )
    board = board_html(r.content.decode())
    f2 = re.search(r'<button [^>]*data-square="F2"[^>]*>', board).group(0)
    assert 'aria-label="F2, legal move"' in f2 and 'name="to"' in f2 and "target" in f2
    assert 'aria-pressed="true"' not in board  # the touched piece is bound, no longer a button
    assert "selected" in square_classes(board, "F1")


@pytest.mark.django_db
def test_the_last_move_and_its_captures_are_highlighted(client, online):
    Battle.objects.filter(pk=online.pk).update(
        board=diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll"),
        side_to_move="troll",
        first_count=3,
        second_count=1,
    )
    b = Battle.objects.get(pk=online.pk)
    submit_move(
        b.pk, side="troll", version=b.clock_version, notation="T F6-F5 xG4", now=timezone.now()
    )
    html = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert "Last move:" in html and "T F6-F5 xG4" in html
    board = board_html(html)
    assert "last-from" in square_classes(board, "F6")
    assert {"last-to", "has-troll"} <= square_classes(board, "F5")
    assert "captured" in square_classes(board, "G4")
    assert "captured" not in square_classes(board, "E4")  # left standing by choice
    assert board.count("last-from") == 1 and board.count("captured") == 1


@pytest.mark.django_db
def test_a_move_through_htmx_comes_back_highlighted(client, online):
    login(client, online, "dwarf")
    board = board_html(post_move(client, online, "F1", "F3").content.decode())
    assert "last-from" in square_classes(board, "F1")
    assert "last-to" in square_classes(board, "F3")


# --- the printable diagram ---------------------------------------------------------------


@pytest.mark.django_db
def test_diagram_is_the_same_board_read_only(client, online):
    submit_move(
        online.pk,
        side="dwarf",
        version=online.clock_version,
        notation="d F1-F3",
        now=timezone.now(),
    )
    login(client, online, "troll")  # even the side to move gets nothing to press here
    r = client.get(reverse("games:diagram", args=[online.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    assert '<symbol id="troll"' in html and "After 1 ply" in html
    board = board_html(html)
    assert "<button" not in board and "last-to" in square_classes(board, "F3")
    assert board.count('<use href="#dwarf">') == 32


@pytest.mark.django_db
def test_diagram_is_gated_like_the_battle_page(client, online):
    assert client.get(reverse("games:diagram", args=[online.pk + 1000])).status_code == 404
    Round.objects.filter(pk=online.match.round_id).update(status=Round.Status.DRAFT)
    assert client.get(reverse("games:diagram", args=[online.pk])).status_code == 404
