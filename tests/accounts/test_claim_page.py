"""The claim page explains itself: why there is nothing to claim, and otherwise each
claimable player with their tournaments and club, players of current tournaments first."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from accounts.claims import (
    ClaimableRecord,
    ClaimError,
    claim_groups,
    claim_label,
    claimable_players,
    claimable_records,
    make_claim,
)
from accounts.models import CLAIM_NOTE_MAX, ClaimNote
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models.people import PlayerClaim
from tournaments.models.tournament import Tournament

NOTHING = "No player is waiting to be claimed."


def test_a_label_names_the_tournaments_current_first_then_club_and_country():
    anna = ClaimableRecord(
        1, "Anna B", "Ankh-Morpork Club", "AM", (("Old Cup", True), ("Koom Valley Open", False))
    )
    assert claim_label(anna) == "Anna B — Koom Valley Open, Old Cup (Ankh-Morpork Club, AM)"
    assert claim_label(ClaimableRecord(2, "Nobby", tournaments=(("Open", False),))) == (
        "Nobby — Open"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "name"), [("en", "Norway"), ("it", "Norvegia"), ("nb", "Norge")]
)
def test_a_claimable_players_country_is_named_in_the_readers_language(language, name):
    EntryFactory(player__name="Anna", player__club="Lancre", player__country="NO")
    with translation.override(language):
        (record,) = claimable_records(claimable_players())
        assert claim_label(record).endswith(f"(Lancre, {name})")


def test_players_of_a_tournament_not_finished_come_first_even_if_they_also_played_an_old_one():
    records = [
        ClaimableRecord(1, "Anna", tournaments=(("Old", True),)),
        ClaimableRecord(2, "Brick", tournaments=(("Old", True), ("Now", False))),
        ClaimableRecord(3, "Carrot", tournaments=(("Now", False),)),
    ]
    current, finished = claim_groups(records)
    assert [pk for pk, _label in current] == [2, 3]
    assert [pk for pk, _label in finished] == [1]


def page(client, user, language="en") -> str:
    client.force_login(user)
    html = client.get(reverse("claim_player"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.sub(r"\s+", " ", unescape(html))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("en", NOTHING), ("nb", "Ingen spiller venter på å bli gjort krav på.")],
)
def test_with_nothing_to_claim_the_page_says_why_and_what_to_do_instead_of_an_empty_list(
    client, language, words
):
    PlayerFactory(name="Not Entered")  # in no tournament: nothing to show it with
    linked = EntryFactory(player__name="Linked").player
    linked.user = UserFactory()
    linked.save()
    pending = EntryFactory(player__name="Pending").player
    PlayerClaim.objects.create(user=UserFactory(), player=pending)

    text = page(client, UserFactory(), language)
    assert words in text and 'id="nothing-to-claim"' in text
    assert "<select" not in text and "---------" not in text
    assert "Not Entered" not in text and "Linked" not in text and "Pending" not in text


@pytest.mark.django_db
def test_claimable_players_are_listed_with_tournament_and_club_current_first(client):
    now = TournamentFactory(name="Koom Valley Open", status=Tournament.Status.RUNNING)
    old = TournamentFactory(name="Old Cup", status=Tournament.Status.FINISHED)
    EntryFactory(tournament=old, player__name="Aaron Old", player__club="Watch")
    anna = EntryFactory(tournament=now, player__name="Anna B", player__club="Ankh-Morpork Club")
    PlayerFactory(name="Not Entered")

    text = page(client, UserFactory())
    assert NOTHING not in text
    options = re.findall(r'<(optgroup label="[^"]*"|option value="\d*"[^>]*>[^<]*)', text)
    assert options == [
        'option value="" selected>Choose your name',
        'optgroup label="Tournaments under way or to come"',
        f'option value="{anna.player.pk}">Anna B — Koom Valley Open (Ankh-Morpork Club)',
        'optgroup label="Finished tournaments"',
        f'option value="{old.entries.get().player.pk}">Aaron Old — Old Cup (Watch)',
    ]


@pytest.mark.django_db
def test_a_player_of_a_finished_tournament_may_still_be_claimed(client):
    old = EntryFactory(tournament__status=Tournament.Status.FINISHED).player
    client.force_login(UserFactory())
    assert client.post(reverse("claim_player"), {"player": old.pk}).status_code == 302
    assert old.claims.get().status == PlayerClaim.Status.PENDING


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["in no tournament", "linked", "no such player", "not a number"])
def test_claiming_a_player_not_offered_is_refused_with_a_message_and_changes_nothing(client, who):
    EntryFactory()  # something is claimable, so the form is shown
    value = {
        "in no tournament": lambda: PlayerFactory().pk,
        "linked": lambda: EntryFactory(player__user=UserFactory()).player.pk,
        "no such player": lambda: 999_999,
        "not a number": lambda: "anna",
    }[who]()
    client.force_login(UserFactory())
    response = client.post(reverse("claim_player"), {"player": value})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not PlayerClaim.objects.exists()


@pytest.mark.django_db
def test_the_claim_page_reads_the_list_in_a_fixed_number_of_queries(
    client, django_assert_max_num_queries
):
    def count() -> int:
        client.force_login(UserFactory())
        with django_assert_max_num_queries(50) as captured:
            client.get(reverse("claim_player"))
        return len(captured.captured_queries)

    EntryFactory()
    few = count()
    for _ in range(6):
        EntryFactory(tournament=EntryFactory().tournament)
    assert count() == few


@pytest.mark.django_db
def test_registration_without_anyone_to_claim_has_no_empty_player_list(client):
    html = client.get(reverse("register")).content.decode()
    assert 'name="player"' not in html
    data = {"username": "nobby", "password1": "b4shfull-Dwarf", "password2": "b4shfull-Dwarf"}
    assert client.post(reverse("register"), data).status_code == 302
    assert get_user_model().objects.filter(username="nobby").exists()
    assert NOTHING in page(client, get_user_model().objects.get(username="nobby"))


# ---------------------------------------------------------------- the claimant's message


@pytest.mark.django_db
def test_the_claimants_message_and_registration_date_reach_the_organisers_queue(client):
    entry = EntryFactory(player__name="Anna B", player__club="Ankh-Morpork Club")
    joined = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
    anna = UserFactory(username="anna", date_joined=joined)
    client.force_login(anna)
    message = "I played as Anna Bergström <then>,\nfor the Watch."
    response = client.post(reverse("claim_player"), {"player": entry.player.pk, "message": message})
    assert response.status_code == 302
    claim = PlayerClaim.objects.get()
    assert claim.note.text == message

    client.force_login(entry.tournament.owner)
    html = client.get(reverse("pending_claims"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    card = re.sub(r"\s+", " ", html[html.index(f'id="claim-{claim.pk}"') :].split("</li>")[0])
    assert "anna says they are Anna B (Ankh-Morpork Club)" in card
    assert f"Entered in: {entry.tournament.name}" in card
    assert "I played as Anna Bergström &lt;then&gt;,<br>for the Watch." in card  # escaped
    assert f"Registered {date_format(joined, 'SHORT_DATE_FORMAT')}" in card


@pytest.mark.django_db
def test_a_claim_without_a_message_says_so_in_the_queue(client):
    entry = EntryFactory()
    client.force_login(UserFactory())
    assert client.post(reverse("claim_player"), {"player": entry.player.pk}).status_code == 302
    assert not ClaimNote.objects.exists()  # blank is no message, not an empty one
    client.force_login(entry.tournament.owner)
    assert "No message." in client.get(reverse("pending_claims")).content.decode()


@pytest.mark.django_db
def test_an_over_long_message_is_refused_with_a_message_and_claims_nothing(client):
    entry = EntryFactory()
    client.force_login(UserFactory())
    response = client.post(
        reverse("claim_player"),
        {"player": entry.player.pk, "message": "x" * (CLAIM_NOTE_MAX + 1)},
    )
    assert response.status_code == 200
    assert f"at most {CLAIM_NOTE_MAX} characters" in response.content.decode()
    assert not PlayerClaim.objects.exists() and not ClaimNote.objects.exists()
    # exactly the limit is fine
    full = "y" * CLAIM_NOTE_MAX
    client.post(reverse("claim_player"), {"player": entry.player.pk, "message": full})
    assert PlayerClaim.objects.get().note.text == full


@pytest.mark.django_db
def test_the_workflow_refuses_an_over_long_message_too_and_saves_no_claim():
    entry = EntryFactory()
    with pytest.raises(ClaimError, match="too long"):
        make_claim(user=UserFactory(), player=entry.player, message="z" * (CLAIM_NOTE_MAX + 1))
    assert not PlayerClaim.objects.exists()
