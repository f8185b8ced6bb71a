"""Every paused battle has a way out (HTTP): a tournament battle's organisers, co-organisers,
referees and any site administrator resume or decide it from the referee's clock page, a
casual battle's only a site administrator; each gives a reason, which is kept, and a
decision is asked about first, saying what it will do. Nobody else may."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.referee import pause
from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent
from games.rules import clock
from tests.factories import UserFactory, make_match
from tests.games.test_battles_http import diagram

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def outage(battle: Battle) -> Battle:
    """``battle`` paused as a late expiry pauses it."""
    return pause(battle.pk, reason=clock.REASON_OUTAGE, now=timezone.now())


@pytest.fixture
def tournament_battle(db) -> Battle:
    match = make_match(variant="quickfire24")[0]
    b1, _ = create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now())
    start_battle(b1.pk, now=timezone.now())
    return outage(b1)


@pytest.fixture
def casual(db) -> Battle:
    b = create_casual_battle(
        game="thud",
        first=UserFactory(username="ann"),
        second=UserFactory(username="cid"),
        now=timezone.now(),
    )
    return outage(b)


def act(client, battle: Battle, action: str, hx: bool = True, **data):
    url = reverse("games:referee_action", args=[battle.pk, action])
    return client.post(url, data, **(HX if hx else {}))


def person(battle: Battle, who: str):
    """A user in the role ``who`` towards ``battle`` (None: anonymous)."""
    match = battle.match
    tournament = match.round.tournament if match else None
    if who == "owner":
        return tournament.owner
    if who == "co_organiser":
        user = UserFactory()
        tournament.co_organisers.add(user)
        return user
    if who == "referee":
        return tournament.referees.get()
    if who == "superuser":
        return UserFactory(is_superuser=True)
    if who == "first_player":
        return battle.first_user if match is None else battle.first_entry.player.user
    if who == "second_player":
        return battle.second_user if match is None else battle.second_entry.player.user
    if who == "stranger":
        return UserFactory()
    if who == "another_organiser":
        return make_match(variant="quickfire24")[0].round.tournament.owner
    if who == "another_referee":
        return make_match(variant="quickfire24")[0].round.tournament.referees.get()
    return None


def login(client, user):
    if user is not None:
        client.force_login(user)
    return client


def status(battle: Battle) -> str:
    return Battle.objects.get(pk=battle.pk).status


# --- a tournament battle -------------------------------------------------------------------


@pytest.mark.parametrize("who", ["owner", "co_organiser", "referee", "superuser"])
def test_the_tournament_s_people_resume_a_paused_battle_giving_a_reason(
    client, tournament_battle, who
):
    b = tournament_battle
    login(client, person(b, who))
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert 'id="arbitrate"' in page  # the battle page leads to the clock page
    assert client.get(reverse("games:referee_clock", args=[b.pk])).status_code == 200
    r = act(client, b, "resume", reason="the server was down")
    assert r.status_code == 200 and status(b) == "running"
    event = ClockEvent.objects.get(battle=b, kind="resumed")
    assert event.detail == "the server was down"


@pytest.mark.parametrize("who", ["owner", "co_organiser", "referee", "superuser"])
def test_the_tournament_s_people_decide_a_paused_battle_after_being_asked(
    client, tournament_battle, who
):
    b = tournament_battle
    login(client, person(b, who))
    r = act(client, b, "decide", reason="no way to replay it")
    html = unescape(r.content.decode())
    assert r.status_code == 400 and 'id="confirm-decision"' in html
    assert "End this battle now by decision?" in html
    assert "It ends with the score as it stands: Dwarfs 32 – Trolls 32, a draw." in html
    assert "Battle 2 then starts." in html and "no way to replay it" in html
    assert status(b) == "paused"  # asked, nothing done
    r = act(client, b, "decide", reason="no way to replay it", confirm="1")
    after = Battle.objects.get(pk=b.pk)
    assert (after.status, after.finished_reason, after.winner) == ("finished", "referee", "")
    assert ClockEvent.objects.get(battle=b, kind="decision").detail == "no way to replay it"


@pytest.mark.parametrize(
    "who",
    ["first_player", "second_player", "stranger", "another_organiser", "another_referee", None],
)
def test_nobody_else_resumes_or_decides_a_tournament_battle(client, tournament_battle, who):
    b = tournament_battle
    login(client, person(b, who))
    page = client.get(reverse("games:battle", args=[b.pk])).content.decode()
    assert 'id="arbitrate"' not in page
    assert client.get(reverse("games:referee_clock", args=[b.pk])).status_code == 403
    assert act(client, b, "resume", reason="x").status_code == 403
    assert act(client, b, "decide", reason="x", confirm="1").status_code == 403
    assert status(b) == "paused" and not ClockEvent.objects.filter(battle=b, kind="resumed")


def test_a_decision_needs_a_reason_and_changes_nothing_without_one(client, tournament_battle):
    b = tournament_battle
    login(client, person(b, "referee"))
    r = act(client, b, "decide", reason="   ", confirm="1")
    assert "Give the reason for the decision: it is kept with the battle." in r.content.decode()
    assert status(b) == "paused"


def test_without_htmx_the_question_is_the_whole_page_and_the_answer_redirects(
    client, tournament_battle
):
    b = tournament_battle
    login(client, person(b, "owner"))
    r = act(client, b, "decide", hx=False, reason="abandoned")
    html = r.content.decode()
    assert r.status_code == 400 and "<html" in html and 'id="confirm-decide"' in html
    assert status(b) == "paused"
    r = act(client, b, "decide", hx=False, reason="abandoned", confirm="1")
    assert r.status_code == 302 and status(b) == "finished"


# --- a casual battle: only a site administrator ----------------------------------------------


def test_a_site_administrator_resumes_a_paused_casual_battle_with_a_reason(client, casual):
    login(client, person(casual, "superuser"))
    page = client.get(reverse("games:battle", args=[casual.pk])).content.decode()
    assert 'id="arbitrate"' in page
    r = client.get(reverse("games:referee_clock", args=[casual.pk]))
    html = unescape(r.content.decode())
    assert r.status_code == 200 and "ann" in html and "cid" in html
    assert 'id="resume"' in html and 'id="decide"' in html
    assert "Give " not in html and 'id="moved"' not in html  # nothing that runs its clock
    r = act(client, casual, "resume", reason="both players wrote to me")
    assert r.status_code == 200 and status(casual) == "running"
    event = ClockEvent.objects.get(battle=casual, kind="resumed")
    assert (event.via, event.detail) == ("referee", "both players wrote to me")


def test_a_site_administrator_decides_a_paused_casual_battle_after_being_asked(client, casual):
    # Three dwarfs (a point each) against a troll (four points).
    board = diagram({(5, 5): "T", (3, 4): "d", (3, 6): "d", (0, 5): "d"}, "troll")
    Battle.objects.filter(pk=casual.pk).update(board=board, first_count=3, second_count=1)
    login(client, person(casual, "superuser"))
    r = act(client, casual, "decide", reason="the players stopped answering")
    html = unescape(r.content.decode())
    assert "It ends with the score as it stands: Dwarfs 3 – Trolls 4; winner: Trolls." in html
    assert "Battle 2" not in html and status(casual) == "paused"
    act(client, casual, "decide", reason="the players stopped answering", confirm="1")
    after = Battle.objects.get(pk=casual.pk)
    assert (after.status, after.winner, after.scores) == (
        "finished",
        "troll",
        {"dwarf": 3, "troll": 4},
    )
    detail = ClockEvent.objects.get(battle=casual, kind="decision").detail
    assert detail == "the players stopped answering"


@pytest.mark.parametrize("action", ["pause", "give", "touched", "moved", "start"])
def test_a_site_administrator_does_not_run_a_casual_battle_s_clock(client, casual, action):
    login(client, person(casual, "superuser"))
    before = Battle.objects.get(pk=casual.pk)
    assert act(client, casual, action, version=before.clock_version).status_code == 403
    assert Battle.objects.get(pk=casual.pk).clock_version == before.clock_version


@pytest.mark.parametrize(
    "who",
    ["first_player", "second_player", "stranger", "another_organiser", "another_referee", None],
)
def test_nobody_else_resumes_or_decides_a_casual_battle(client, casual, who):
    login(client, person(casual, who))
    page = client.get(reverse("games:battle", args=[casual.pk])).content.decode()
    assert 'id="arbitrate"' not in page
    assert client.get(reverse("games:referee_clock", args=[casual.pk])).status_code == 403
    assert act(client, casual, "resume", reason="x").status_code == 403
    assert act(client, casual, "decide", reason="x", confirm="1").status_code == 403
    assert status(casual) == "paused"


def test_a_casual_battle_has_no_result_form_or_typed_in_moves_even_for_an_administrator(
    client, casual
):
    login(client, person(casual, "superuser"))
    assert client.post(reverse("games:survivors", args=[casual.pk])).status_code == 403
    assert client.get(reverse("games:otb_moves", args=[casual.pk])).status_code == 403


def test_the_decision_has_its_own_form_away_from_pause_and_its_reason_is_required(
    client, tournament_battle
):
    b = tournament_battle
    login(client, person(b, "referee"))
    start_resume = act(client, b, "resume", reason="")
    assert start_resume.status_code == 200 and status(b) == "running"
    page = client.get(reverse("games:referee_clock", args=[b.pk])).content.decode()
    pause_form = page[: page.index('id="decide-form"')]
    decide_form = page[page.index('id="decide-form"') :]
    assert "/pause/" in pause_form and 'id="decide"' not in pause_form
    assert "/pause/" not in decide_form.split("</form>")[0]
    assert (
        '<input id="decide-reason" name="reason" maxlength="200" required data-keep-typed>'
        in decide_form
    )
