"""HTTP tests of the over-the-board result form: battle 1's numbers go to battle 1, in the
numbers of the tournament's game (Thud's survivors, Cavalli's points).

The survivors are asymmetric on purpose (every figure differs from its counterpart in
the other battle), so swapping the two battles anywhere between the form's labels and
the stored result version is seen. The tests stay at the HTTP and database level (POST
fields in, ResultVersion columns out) so they survive changes to how the view passes
the numbers on.
"""

from __future__ import annotations

import re

import pytest
from django.test.html import Element, parse_html
from django.urls import reverse
from django.utils import timezone

from games.battles.referee import referee_decision
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.factories import make_match
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match

pytestmark = pytest.mark.django_db

# The result form's fields are the stable result field names of every game.
ENTERED = {"battle1_first": 20, "battle1_second": 3, "battle2_first": 11, "battle2_second": 6}
CAVALLI_ENTERED = {
    "battle1_first": 3100,
    "battle1_second": 1200,
    "battle2_first": 2500,
    "battle2_second": 4950,
}
HX = {"HTTP_HX_REQUEST": "true"}


def finish_otb(client, match) -> tuple[Battle, Battle]:
    """Both over-the-board battles of ``match`` ended by a referee's decision."""
    b1, b2 = create_battles(match, mode=Battle.Mode.OTB, now=timezone.now())
    for b in (b1, b2):
        start_battle(b.pk, now=timezone.now())
        referee_decision(b.pk, reason="time", now=timezone.now())
    client.force_login(match.round.tournament.referees.get())
    return b1, b2


@pytest.fixture
def finished_otb(client, match) -> tuple[Battle, Battle]:
    return finish_otb(client, match)


@pytest.fixture
def finished_cavalli(client) -> tuple[Battle, Battle]:
    return finish_otb(client, make_match(variant="classic", game="cavalli")[0])


def text_of(node) -> str:
    if isinstance(node, str):
        return node
    return " ".join(text_of(child) for child in node.children)


def ancestors_of_input(root: Element, name: str) -> list[Element]:
    """The elements enclosing ``<input name=...>``, innermost first."""

    def walk(node, path):
        if not isinstance(node, Element):
            return None
        if node.name == "input" and dict(node.attributes).get("name") == name:
            return path
        for child in node.children:
            found = walk(child, [node, *path])
            if found is not None:
                return found
        return None

    path = walk(root, [])
    assert path is not None, f"no input named {name}"
    return path


def battle_label_of(root: Element, name: str) -> str:
    """The nearest enclosing element that names a battle decides which battle an input is."""
    for element in ancestors_of_input(root, name):
        text = text_of(element)
        says = [n for n in ("Battle 1", "Battle 2") if n in text]
        if len(says) == 1:
            return says[0]
        assert not says, f"{name}: its block names both battles, so it labels neither"
    raise AssertionError(f"{name} is not labelled with a battle")


def label_of(root: Element, name: str) -> str:
    """The text of the ``<label>`` for ``<input name=...>`` (by its id)."""
    ident = input_of(root, name)["id"]

    def labels(node):
        if not isinstance(node, Element):
            return
        if node.name == "label" and dict(node.attributes).get("for") == ident:
            yield text_of(node).strip()
        for child in node.children:
            yield from labels(child)

    (found,) = labels(root)
    return found


def result_form_of(page: str) -> Element:
    start = page.index('id="survivors-form"')
    return parse_html(page[page.rindex("<form", 0, start) : page.index("</form>", start) + 7])


def input_of(root: Element, name: str) -> dict:
    parent = ancestors_of_input(root, name)[0]
    (element,) = (
        c
        for c in parent.children
        if isinstance(c, Element) and c.name == "input" and dict(c.attributes)["name"] == name
    )
    return dict(element.attributes)


@pytest.mark.parametrize("page_of", [0, 1], ids=["from-battle-1", "from-battle-2"])
def test_survivors_of_each_battle_are_stored_for_that_battle(client, finished_otb, page_of):
    battle = finished_otb[page_of]
    r = client.post(reverse("games:survivors", args=[battle.pk]), ENTERED)
    assert r.status_code == 302
    match = Match.objects.get(pk=battle.match_id)
    assert match.result_status == Match.ResultStatus.ENTERED
    version = ResultVersion.objects.get(match=match)
    stored = (
        version.battle1_first,
        version.battle1_second,
        version.battle2_first,
        version.battle2_second,
    )
    assert stored == (20, 3, 11, 6)


def test_survivors_form_labels_each_input_with_its_battle_and_piece(client, finished_otb):
    b1, b2 = finished_otb
    for battle in (b1, b2):
        page = client.get(reverse("games:referee_clock", args=[battle.pk])).content.decode()
        form = result_form_of(page)
        for field in ENTERED:
            number, side = field.removeprefix("battle").split("_")
            piece = "dwarfs" if side == "first" else "trolls"
            assert battle_label_of(form, field) == f"Battle {number}", field
            assert f"surviving {piece}" in label_of(form, field), field
            assert input_of(form, field)["max"] == ("32" if piece == "dwarfs" else "8")


def test_thud_battle_line_names_dwarfs_and_trolls(client, finished_otb):
    page = client.get(reverse("games:referee_clock", args=[finished_otb[0].pk])).content.decode()
    match = finished_otb[0].match
    line = f"{match.player_a.player.name} (dwarfs) –"
    assert line in " ".join(page.split())


def test_cavalli_result_form_has_the_games_labels_and_limits(client, finished_cavalli):
    b1, _b2 = finished_cavalli
    page = client.get(reverse("games:referee_clock", args=[b1.pk])).content.decode()
    form = result_form_of(page)
    labels = [label_of(form, field) for field in CAVALLI_ENTERED]
    a, b = b1.match.player_a.player.name, b1.match.player_b.player.name
    assert labels == [
        f"Game 1 white points ({a})",
        f"Game 1 black points ({b})",
        f"Game 2 white points ({b})",
        f"Game 2 black points ({a})",
    ]
    assert {input_of(form, field)["max"] for field in CAVALLI_ENTERED} == {"4950"}
    # What the referee reads (tags and their attributes, e.g. field names, left out).
    panel = " ".join(re.sub(r"<[^>]*>", " ", page[page.index('id="referee-panel"') :]).split())
    assert not re.search(r"dwarf|troll|surviv", panel, re.IGNORECASE)
    a, b = b1.match.player_a.player.name, b1.match.player_b.player.name
    assert f"{a} (white) – {b} (black)" in panel


def test_cavalli_points_are_stored_as_entered(client, finished_cavalli):
    b1, _b2 = finished_cavalli
    r = client.post(reverse("games:survivors", args=[b1.pk]), CAVALLI_ENTERED)
    assert r.status_code == 302
    version = ResultVersion.objects.get(match=b1.match_id)
    assert version.game == "cavalli"
    assert version.survivors.as_tuple() == (3100, 1200, 2500, 4950)


@pytest.mark.parametrize(
    ("fixture", "field", "value", "message"),
    [
        ("finished_cavalli", "battle2_second", "4951", "less than or equal to 4950"),
        ("finished_cavalli", "battle1_first", "lots", "Enter a whole number"),
        ("finished_otb", "battle1_first", "33", "less than or equal to 32"),
        ("finished_otb", "battle2_second", "9", "less than or equal to 8"),
    ],
)
@pytest.mark.parametrize("hx", [False, True], ids=["page", "htmx"])
def test_bad_numbers_answer_with_a_message_and_enter_nothing(
    request, client, fixture, field, value, message, hx
):
    b1, _b2 = request.getfixturevalue(fixture)
    entered = CAVALLI_ENTERED if fixture == "finished_cavalli" else ENTERED
    r = client.post(
        reverse("games:survivors", args=[b1.pk]),
        entered | {field: value},
        **(HX if hx else {}),
    )
    assert r.status_code == 400
    page = r.content.decode()
    assert "The result was not entered: check the numbers." in page
    assert message in page
    assert ("<html" in page) is not hx
    form = result_form_of(page)
    assert input_of(form, field)["value"] == value  # shown again to be corrected
    assert not ResultVersion.objects.filter(match=b1.match_id).exists()
    match = Match.objects.get(pk=b1.match_id)
    assert match.result_status == Match.ResultStatus.AWAITING
    assert match.lock_version == b1.match.lock_version


def test_survivors_form_comes_back_filled_with_the_stored_numbers(client, finished_otb):
    b1, b2 = finished_otb
    client.post(reverse("games:survivors", args=[b1.pk]), ENTERED)
    for battle in (b1, b2):
        page = client.get(reverse("games:referee_clock", args=[battle.pk])).content.decode()
        form = result_form_of(page)
        for field, value in ENTERED.items():
            assert input_of(form, field).get("value") == str(value), field


def test_survivors_form_labels_name_the_players(client, finished_otb):
    b1, _b2 = finished_otb
    a, b = b1.match.player_a.player.name, b1.match.player_b.player.name
    page = client.get(reverse("games:referee_clock", args=[b1.pk])).content.decode()
    form = result_form_of(page)
    assert label_of(form, "battle1_first") == f"Battle 1 surviving dwarfs ({a})"
    assert label_of(form, "battle2_first") == f"Battle 2 surviving dwarfs ({b})"


def test_a_replayed_submission_key_enters_the_result_once(client, finished_otb):
    """The survivors form enters through the tournament's keyed entry (the match page's
    too): a second post carrying the same key (a queued form sent again) changes nothing,
    even with other numbers, and a malformed key is refused beside the form."""
    b1, _b2 = finished_otb
    key = "replayed-key-0123456789"
    url = reverse("games:survivors", args=[b1.pk])
    assert client.post(url, ENTERED | {"key": key}).status_code == 302
    again = client.post(url, ENTERED | {"battle1_first": 19, "key": key})
    assert again.status_code == 302
    version = ResultVersion.objects.get(match=b1.match_id)
    assert version.battle1_first == 20
    bad = client.post(url, ENTERED | {"key": "not a key!"})
    assert bad.status_code == 400
    assert "submission key is not valid" in bad.content.decode()
