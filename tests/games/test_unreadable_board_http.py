"""A battle whose stored board its engine cannot read (an imported archive, a bug)
answers without a server error on every public page and the API (issue 40): the page
says its record cannot be read; the diagram and the record answer 410. A player's POST on
it (move, touch, offers, ready, no-show claim, resume) answers 409 with the page's words and
changes nothing; a nudge sets it aside as the clock would; a referee's decision, which
would count its score from the board, is refused."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from games.battles.starting import create_battles, create_casual_battle, start_battle
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import UserFactory, make_match

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[clock.FINISHED, clock.RUNNING])
def bad_battle(request):
    (m,) = make_match(tables=1, variant="timed24", outage_threshold_ms=2_000_000_000)
    b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
    now = timezone.now()
    Battle.objects.filter(pk=b1.pk).update(
        status=request.param,
        board="not a board",
        turn_started_at=now - timezone.timedelta(seconds=70),
        think_ends_at=now - timezone.timedelta(seconds=65),
        deadline=now - timezone.timedelta(seconds=60),
        clock_version=1,
    )
    return Battle.objects.get(pk=b1.pk)


def test_every_public_view_of_an_unreadable_battle_answers_without_a_server_error(
    client, bad_battle
):
    b = bad_battle
    slug = b.match.round.tournament.slug
    page = client.get(reverse("games:battle", args=[b.pk]))
    assert page.status_code == 200
    assert "record cannot be read" in page.text
    diagram = client.get(reverse("games:diagram", args=[b.pk]))
    assert diagram.status_code == 410 and "record cannot be read" in diagram.text
    # The moves are still a record: its result is unknown ("*"), not a server error.
    record = client.get(reverse("games:record", args=[b.pk]))
    assert record.status_code == 200 and "*" in record.text
    assert client.get(reverse("records", args=[slug])).status_code == 200
    api = client.get(reverse("api_battle", args=[b.pk]))
    assert api.status_code == 200 and api.json()["result"] is None
    if b.status == clock.RUNNING:  # the page read set it aside, as the clock would
        b.refresh_from_db()
        assert (b.status, b.paused_reason) == (clock.PAUSED, clock.REASON_UNREADABLE)


# --- a player's POST on a running battle whose record cannot be read -------------------


@pytest.fixture
def unreadable_running():
    """A running online tournament battle (touch rule, dwarfs to move) whose stored board
    was damaged after it started; its clock is not yet due."""
    (m,) = make_match(tables=1, variant="quickfire24")
    b1, _ = create_battles(m, mode=Battle.Mode.ONLINE, now=timezone.now())
    battle = start_battle(b1.pk, now=timezone.now())
    Battle.objects.filter(pk=battle.pk).update(board="not a board")
    return Battle.objects.get(pk=battle.pk)


def snapshot(battle_id: int) -> tuple:
    b = Battle.objects.get(pk=battle_id)
    return (
        b.status,
        b.clock_version,
        b.ply,
        b.touched_square,
        b.end_offered_by,
        b.board,
        b.updated_at,
        Move.objects.filter(battle_id=battle_id).count(),
        ClockEvent.objects.filter(battle_id=battle_id).count(),
    )


POSTS = [
    ("games:move", (), {"from": "F1", "to": "F5"}),
    ("games:move", (), {"notation": "d F1-F5"}),
    ("games:touch", (), {"square": "F1"}),
    ("games:end", ("offer",), {}),
    ("games:end", ("accept",), {}),
    ("games:end", ("decline",), {}),
    ("games:end", ("withdraw",), {}),
    ("games:ready", (), {}),
    ("games:no_show", (), {}),
]


@pytest.mark.parametrize("hx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("name", "args", "data"), POSTS, ids=lambda v: str(v))
def test_a_players_post_on_an_unreadable_battle_is_409_and_changes_nothing(
    client, unreadable_running, name, args, data, hx
):
    b = unreadable_running
    client.force_login(b.first_entry.player.user)
    before = snapshot(b.pk)
    r = client.post(
        reverse(name, args=[b.pk, *args]),
        {**data, "version": b.clock_version},
        **({"HTTP_HX_REQUEST": "true"} if hx else {}),
    )
    assert r.status_code == 409
    assert "record cannot be read" in r.text and "Nothing was changed" in r.text
    assert ('id="board-panel"' in r.text) and (("<html" in r.text) is not hx)
    assert snapshot(b.pk) == before


def test_asking_to_resume_an_unreadable_casual_battle_is_409_and_changes_nothing(client):
    first, second = UserFactory(), UserFactory()
    b = create_casual_battle(game="thud", first=first, second=second, now=timezone.now())
    Battle.objects.filter(pk=b.pk).update(
        board="not a board", status=clock.PAUSED, paused_reason=clock.REASON_UNREADABLE
    )
    client.force_login(first)
    before = snapshot(b.pk)
    r = client.post(reverse("games:resume", args=[b.pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and "Nothing was changed" in r.text
    assert snapshot(b.pk) == before


def test_someone_not_seated_still_gets_403_on_an_unreadable_battle(client, unreadable_running):
    client.force_login(UserFactory())
    r = client.post(reverse("games:move", args=[unreadable_running.pk]), {"notation": "x"})
    assert r.status_code == 403


def test_a_nudge_on_an_overdue_unreadable_battle_sets_it_aside_as_the_clock_would(
    client, bad_battle
):
    r = client.post(reverse("games:nudge", args=[bad_battle.pk]))
    assert r.status_code == 204
    b = Battle.objects.get(pk=bad_battle.pk)
    if bad_battle.status == clock.RUNNING:
        assert (b.status, b.paused_reason) == (clock.PAUSED, clock.REASON_UNREADABLE)
    else:
        assert b.status == clock.FINISHED


@pytest.mark.parametrize("hx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("confirm", [False, True], ids=["asked", "confirmed"])
def test_a_referees_decision_on_an_unreadable_battle_is_refused_and_changes_nothing(
    client, unreadable_running, hx, confirm
):
    """Its score as it stands cannot be counted (it answered 500)."""
    b = unreadable_running
    client.force_login(b.match.round.tournament.referees.get())
    before = snapshot(b.pk)
    data = {"reason": "damaged", "version": b.clock_version} | ({"confirm": "1"} if confirm else {})
    r = client.post(
        reverse("games:referee_action", args=[b.pk, "decide"]),
        data,
        follow=not hx,
        **({"HTTP_HX_REQUEST": "true"} if hx else {}),
    )
    assert r.status_code == (409 if hx else 200)  # a plain POST: the page with the message
    assert "its score cannot be counted" in unescape(r.text)
    assert snapshot(b.pk) == before
