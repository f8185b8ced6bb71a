"""HTTP tests of the over-the-board survivors form: battle 1's numbers go to battle 1.

The survivors are asymmetric on purpose (every figure differs from its counterpart in
the other battle), so swapping the two battles anywhere between the form's labels and
the stored result version is seen. The tests stay at the HTTP and database level (POST
fields in, ResultVersion columns out) so they survive changes to how the view passes
the numbers on.
"""

from __future__ import annotations

import pytest
from django.test.html import Element, parse_html
from django.urls import reverse

from games import battles
from games.models import Battle
from tournaments.models import Match, ResultVersion

pytestmark = pytest.mark.django_db

ENTERED = {"b1_dwarfs": 20, "b1_trolls": 3, "b2_dwarfs": 11, "b2_trolls": 6}


@pytest.fixture
def finished_otb(client, match) -> tuple[Battle, Battle]:
    """Both over-the-board battles of ``match`` ended by a referee's decision."""
    b1, b2 = battles.create_battles(match, mode=Battle.Mode.OTB)
    for b in (b1, b2):
        battles.start_battle(b.pk)
        battles.referee_decision(b.pk, reason="time")
    client.force_login(match.round.tournament.referees.get())
    return b1, b2


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


def piece_label_of(root: Element, name: str) -> str:
    """The ``<label>`` around the input says dwarfs or trolls."""
    label = next(e for e in ancestors_of_input(root, name) if e.name == "label")
    return text_of(label).strip()


@pytest.mark.parametrize("page_of", [0, 1], ids=["from-battle-1", "from-battle-2"])
def test_survivors_of_each_battle_are_stored_for_that_battle(client, finished_otb, page_of):
    battle = finished_otb[page_of]
    r = client.post(reverse("games:survivors", args=[battle.pk]), ENTERED)
    assert r.status_code == 302
    match = Match.objects.get(pk=battle.match_id)
    assert match.result_status == Match.ResultStatus.ENTERED
    version = ResultVersion.objects.get(match=match)
    stored = (
        version.battle1_dwarfs,
        version.battle1_trolls,
        version.battle2_dwarfs,
        version.battle2_trolls,
    )
    assert stored == (20, 3, 11, 6)


def test_survivors_form_labels_each_input_with_its_battle_and_piece(client, finished_otb):
    b1, b2 = finished_otb
    for battle in (b1, b2):
        page = client.get(reverse("games:referee_clock", args=[battle.pk])).content.decode()
        start = page.index('id="survivors-form"')
        form = parse_html(page[page.rindex("<form", 0, start) : page.index("</form>", start) + 7])
        for field in ENTERED:
            number, piece = field.removeprefix("b").split("_")
            assert battle_label_of(form, field) == f"Battle {number}", field
            assert piece_label_of(form, field) == piece, field
