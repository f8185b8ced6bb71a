"""Tiny's board as the site draws it (its presentation): the
template rendered from the package's own folder, with no database."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from django.template import Context, Engine

from tests.games.tiny.core.position import Position
from tests.games.tiny.game import TinyGame
from tests.games.tiny.web import PRESENTATION, board_view, rules_context

TEMPLATES = Path(__file__).resolve().parents[1] / "tiny" / "templates"


class Controls(HTMLParser):
    """The board's buttons and images: (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "button" or attrs.get("role") == "img":
            self.found.append((tag, attrs))


def render(board: dict, **urls: str) -> list[tuple[str, dict]]:
    engine = Engine(dirs=[str(TEMPLATES)], libraries={"i18n": "django.templatetags.i18n"})
    html = engine.get_template("games/tiny/board.html").render(Context({"board": board, **urls}))
    parser = Controls()
    parser.feed(html)
    return parser.found


def test_a_read_only_board_has_nine_named_squares_and_no_button():
    found = render(board_view(Position.initial()))
    assert len(found) == 9 and all(tag == "span" for tag, _a in found)
    labels = [a["aria-label"] for _t, a in found]
    assert labels[0] == "silver pawn on A3" and labels[-1] == "gold pawn on C1"
    assert "empty square B2" in labels


def test_the_pawns_to_move_and_the_targets_are_named_buttons():
    position = Position.from_compact("gold s../.s./g..")
    board = board_view(position, selectable={0}, targets={3, 4}, selected=0)
    found = render(board, touch_url="/touch", move_url="/move")
    buttons = {a["name"] + " " + a["value"]: a for tag, a in found if tag == "button"}
    assert set(buttons) == {"square A1", "to A2", "to B2"}
    assert buttons["square A1"]["aria-pressed"] == "true"
    assert buttons["to B2"]["aria-label"] == "silver pawn on B2, legal move"
    assert buttons["to A2"]["aria-label"] == "empty square A2, legal move"
    assert all(a.get("aria-label") for _t, a in found)


def test_the_rules_page_draws_the_opening():
    assert rules_context()["board"] == board_view(Position.initial())


def test_the_presentation_names_files_of_the_package_and_its_own_presenters():
    package = Path(__file__).resolve().parents[1] / "tiny"
    assert PRESENTATION.game == TinyGame.key
    for template in (PRESENTATION.board_template, PRESENTATION.rules_template):
        assert (package / "templates" / template).is_file(), template
    assert (package / "static" / PRESENTATION.stylesheet).is_file()
    presenters = (PRESENTATION.board_context, PRESENTATION.replay_diagram_context)
    assert all(f.__module__ == "tests.games.tiny.web" for f in presenters)
    assert PRESENTATION.rules_context is rules_context
