"""The organiser's forms in plain words (issue 22): every field has a plain label and a line
of help on the rendered page, in English and in Italian or Norwegian; the variants and the
capture policies are explained; bad input is answered beside the field or by a message
that names what was wrong."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.web.organiser.pages import (
    NEW_TOURNAMENT,
    organiser_role,
    settings_data,
    url,
)
from tournaments.models.tournament import Tournament
from tournaments.organising.csv_rows import INITIAL_POINTS_MAX, RATING_MAX
from tournaments.web.forms_players import PlayerForm
from tournaments.web.forms_tournament import TournamentForm
from tournaments.web.forms_wording import variant_choices

pytestmark = pytest.mark.django_db

NEW = "/manage/t/new/"


def get(client, path: str, language: str = "en") -> str:
    return client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(html))


def helptext(page: str, field: str) -> str:
    """The help line Django renders for ``field`` (the one ``aria-describedby`` names)."""
    found = re.search(rf'id="id_{field}_helptext"[^>]*>(.*?)</', page, re.S)
    assert found, f"no help for {field}"
    return text(found.group(1)).strip()


def has_label(page: str, label: str) -> bool:
    """``label`` is a field's whole label (with or without Django's colon)."""
    return re.search(rf">{re.escape(label)}:?</(label|legend)>", page) is not None


def field_group(page: str, field: str) -> str:
    """The page from ``field``'s label to the next field's label: where its control, help
    and errors belong, in whatever order the form template draws them."""
    start = page.index(f'for="id_{field}"')
    following = re.compile(rf'for="id_(?!{field}[_"])|</form>').search(page, start)
    assert following, field
    group = page[start : following.start()]
    assert f'name="{field}"' in group
    return group


@pytest.fixture
def organiser_client(client):
    client.force_login(organiser_role(UserFactory()))
    return client


def test_every_field_of_the_new_tournament_form_has_a_plain_label_and_help(organiser_client):
    page = get(organiser_client, NEW)
    for name in TournamentForm.Meta.fields:
        assert helptext(page, name), name
    assert "Slug" not in page and has_label(page, "Web address")
    assert helptext(page, "slug").startswith(
        "The last part of the tournament's page address: letters, digits and hyphens, "
        "e.g. dragon-con-2026."
    )
    assert "Capture policy" not in page and "Any subset of adjacent dwarfs" not in page
    # Each help line is one the field points to: read aloud with it.
    tag = re.search(r'<input[^>]*name="name"[^>]*>', page).group(0)
    assert 'aria-describedby="id_name_helptext"' in tag


def test_the_variants_say_their_move_limit_and_clock(organiser_client):
    page = text(get(organiser_client, NEW))
    assert "Classic: no move limit, no clock" in page
    assert "Quickfire: 24 moves each, no clock" in page
    assert "Quickfire with clock: 30 moves each, 15 s to think + 5 s to move" in page
    assert "Timed quickfire" not in page
    help_block = page[page.index('id="variant-help"') : page.index("</dl>")]
    for words in (
        "No move limit and no clock",
        "scored on the pieces left",
        "referee's clock page",
    ):
        assert words in help_block
    # Radio buttons, each beside its own label.
    assert len(re.findall(r'<input type="radio" name="variant"', page)) == len(Tournament.Variant)


def test_each_capture_policy_is_explained_with_a_picture(organiser_client):
    page = text(get(organiser_client, NEW))
    block = page[page.index('id="capture-policy-help"') :]
    block = block[: block.index("</ul>")]
    for label in (
        "The troll's player chooses which of the dwarfs next to it to take",
        "All the dwarfs next to the troll, or none",
        "Always every dwarf next to the troll",
    ):
        assert label in block  # the same words as the choice beside its radio button
        assert re.search(
            rf'<label[^>]*><input type="radio" name="capture_policy"[^>]*> {re.escape(label)}</label>',
            page,
        ), label
    boards = re.findall(r'<svg class="capture-board"[^>]*>', block)
    assert len(boards) == 4 and all('aria-hidden="true"' in b for b in boards)
    # subset: one dwarf taken; all or none: three and none; all: three.
    crosses = [len(re.findall(r"<path d=\"M\d+ \d+ L", svg)) for svg in block.split("<svg")[1:]]
    assert crosses == [1, 3, 0, 3]


def test_the_new_tournament_form_reads_in_italian(organiser_client):
    page = text(get(organiser_client, NEW, "it"))
    assert has_label(page, "Indirizzo web")
    assert helptext(page, "slug").startswith("L'ultima parte dell'indirizzo")
    assert "Lampo: 24 mosse a testa, senza orologio" in page
    assert "Tutti i nani adiacenti al troll, o nessuno" in page
    assert "Web address" not in page and "Quickfire: 24 moves" not in page


def test_bad_input_is_answered_beside_its_field(organiser_client):
    response = organiser_client.post(
        NEW, NEW_TOURNAMENT | {"slug": "bad slug!"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    group = field_group(response.content.decode(), "slug")
    assert "A web address may hold only letters, digits, hyphens and underscores" in group
    assert 'class="errorlist' in group
    assert not Tournament.objects.exists()


def test_bad_input_is_answered_beside_its_field_in_norwegian(organiser_client):
    data = NEW_TOURNAMENT | {"slug": "bad slug!", "points_draw": 5}
    response = organiser_client.post(NEW, data, HTTP_ACCEPT_LANGUAGE="nb")
    page = response.content.decode()
    assert "En nettadresse kan bare inneholde bokstaver" in field_group(page, "slug")
    assert "errorlist" in field_group(page, "points_draw")


def test_the_settings_page_says_this_tournaments_clock(organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(think_ms=20_000, move_unit="ply")
    page = text(get(organiser, url(tournament, "settings/")))
    assert "Quickfire with clock: 24 moves in all, 20 s to think + 5 s to move" in page
    assert "Quickfire: 30 moves in all, no clock" in page
    for name in ("think_s", "move_s", "grace_ms", "max_consecutive_forfeits", "move_unit"):
        assert helptext(page, name), name
    assert has_label(page, "Time to think (seconds)") and "Grace" not in page
    assert 'id="capture-policy-help"' in page and 'id="variant-help"' in page


def test_every_settings_field_has_help_in_italian_with_decimal_commas(organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(move_ms=2_500)
    page = text(get(organiser, url(tournament, "settings/"), "it"))
    for name in settings_data(tournament):
        assert helptext(page, name), name
    assert "15 s per riflettere + 2,5 s per muovere" in page


def test_variant_labels_follow_the_language_and_units():
    with translation.override("nb"):
        labels = dict(variant_choices(move_unit="side", think_ms=15_000, move_ms=5_000))
    assert labels["timed24"] == "Quickfire på tid: 24 trekk hver, 15 s å tenke + 5 s å flytte"


def test_a_bad_settings_value_is_answered_beside_its_field(organiser, tournament):
    response = organiser.post(url(tournament, "settings/"), settings_data(tournament, move_s=0))
    assert response.status_code == 400
    assert "errorlist" in field_group(response.content.decode(), "move_s")


def test_the_add_player_form_has_help_for_every_field(organiser, tournament):
    page = get(organiser, url(tournament))
    for name in PlayerForm.base_fields:
        assert helptext(page, name), name
    assert helptext(page, "file").startswith("A header row name,club,country,rating")
    assert str(RATING_MAX) in helptext(page, "rating")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rating": RATING_MAX + 1}, f"A rating is a whole number from 0 to {RATING_MAX}."),
        (
            {"late_from_round": 2, "initial_points": INITIAL_POINTS_MAX + 1},
            f"Match points on entry are a whole number from 0 to {INITIAL_POINTS_MAX}.",
        ),
        ({"late_from_round": 1}, "A late entry joins at round 2 or later."),
        ({"name": ""}, "Type the player's name."),
    ],
)
def test_a_bad_player_is_refused_with_a_message_naming_the_field(
    organiser, tournament, changes, message
):
    data = {"name": "Nobby", "club": "", "country": "", "rating": ""} | changes
    response = organiser.post(url(tournament, "players/add/"), data, follow=True)
    assert message in text(response.content.decode())
    assert not tournament.entries.filter(player__name="Nobby").exists()


def test_the_roles_page_explains_the_username_field(client):
    client.force_login(UserFactory(is_superuser=True))
    page = get(client, "/manage/organisers/")
    assert "they need an account on this site first" in helptext(page, "username")
    page = get(client, "/manage/organisers/", "nb")
    assert has_label(page, "Brukernavnet deres") and "må først ha en konto" in helptext(
        page, "username"
    )
    response = client.post("/manage/organisers/grant/", {"username": " "}, follow=True)
    assert "Type the person's username." in text(response.content.decode())
