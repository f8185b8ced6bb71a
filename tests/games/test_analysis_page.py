"""The analysis on a battle's replay page: the button only on a finished battle, a POST
that queues once, bad input refused with nothing queued, the wait (htmx and a plain
link), and the result: the SVG graph with its table and the mistakes in the move list."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from redis import Redis

from games.analysis import runs as analysis_runs
from games.analysis import tasks
from games.models.analysis import BattleAnalysis
from tests.games.analysis_helpers import MS, Tick, played_battle
from thud_site.celery import app
from tournaments.models.rounds import Round

pytestmark = pytest.mark.django_db
Status = BattleAnalysis.Status


@pytest.fixture
def viewer(client):
    user = get_user_model().objects.create_user("viewer", password="pw-viewer-1234")
    client.force_login(user)
    return user


@pytest.fixture(autouse=True)
def analysis_queue(settings):
    """The real broker, on a queue of this test's own that no worker consumes: the
    messages sent are read back from Redis (``sent()``), then dropped."""
    queue = f"test-analysis-{uuid.uuid4().hex}"
    settings.THUD_ANALYSIS_QUEUE = queue
    redis = Redis.from_url(settings.CELERY_BROKER_URL)

    def sent() -> list[dict]:
        return [json.loads(m)["headers"] for m in redis.lrange(queue, 0, -1)]

    yield sent
    redis.delete(queue)


def replay(client, battle, ply=None):
    url = reverse("games:replay", args=[battle.pk])
    return client.get(url if ply is None else f"{url}?ply={ply}").content.decode()


def analyse(client, battle):
    return client.post(reverse("games:analyse", args=[battle.pk]), follow=True)


def test_the_button_shows_only_on_a_finished_battle(client, viewer):
    running = played_battle(("d F1-F5",), finish=False)
    html = replay(client, running)
    assert reverse("games:analyse", args=[running.pk]) not in html
    assert "once it is finished" in html
    finished = played_battle(("d F1-F5",))
    html = replay(client, finished)
    assert f'action="{reverse("games:analyse", args=[finished.pk])}"' in html
    assert "csrfmiddlewaretoken" in html


def test_anonymous_visitors_are_asked_to_log_in(client):
    battle = played_battle(("d F1-F5",))
    html = replay(client, battle)
    assert reverse("games:analyse", args=[battle.pk]) not in html and reverse("login") in html
    r = client.post(reverse("games:analyse", args=[battle.pk]))
    assert r.status_code == 302 and reverse("login") in r["Location"]
    assert not BattleAnalysis.objects.exists()


def test_a_post_queues_once_and_a_second_changes_nothing(
    client, viewer, analysis_queue, django_capture_on_commit_callbacks
):
    battle = played_battle(("d F1-F5",))
    with django_capture_on_commit_callbacks(execute=True):
        r = analyse(client, battle)
    assert r.status_code == 200 and "The analysis is queued" in r.content.decode()
    (message,) = analysis_queue()  # bots.analyse(battle), its time limits for two positions
    assert message["task"] == "bots.analyse" and message["argsrepr"] == f"[{battle.pk}]"
    assert message["timelimit"] == list(reversed(analysis_runs.time_limits(2)))
    row = BattleAnalysis.objects.get()
    assert (row.status, row.requested_by) == (Status.QUEUED, viewer)
    html = r.content.decode()
    assert f'hx-get="{reverse("games:analysis", args=[battle.pk])}"' in html
    assert (
        'hx-trigger="every 3s"' in html
        and f'href="{reverse("games:replay", args=[battle.pk])}#analysis"' in html
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = analyse(client, battle)
    assert "already queued: nothing changed" in r.content.decode()
    assert (
        len(analysis_queue()) == 1 and BattleAnalysis.objects.get().requested_at == row.requested_at
    )


def test_asking_again_sends_an_analysis_lost_to_a_broker_outage(
    client, viewer, analysis_queue, django_capture_on_commit_callbacks, monkeypatch
):
    battle = played_battle(("d F1-F5",))

    def down(*args, **kwargs):
        raise ConnectionError("the broker is down")

    with monkeypatch.context() as patched:
        patched.setattr(tasks.analyse, "apply_async", down)
        with django_capture_on_commit_callbacks(execute=True):
            analyse(client, battle)
    assert analysis_queue() == [] and BattleAnalysis.objects.get().status == Status.QUEUED
    # The broker is back; asked again a while later, the message is sent.
    earlier = timezone.now() - analysis_runs.RESEND_AFTER
    BattleAnalysis.objects.update(requested_at=earlier)
    with django_capture_on_commit_callbacks(execute=True):
        r = analyse(client, battle)
    assert "it has been sent again" in r.content.decode()
    (message,) = analysis_queue()
    assert message["task"] == "bots.analyse" and message["argsrepr"] == f"[{battle.pk}]"
    assert BattleAnalysis.objects.get().requested_at == earlier


@pytest.mark.parametrize("method", ["get", "put"])
def test_only_a_post_asks(client, viewer, method):
    battle = played_battle(("d F1-F5",))
    r = getattr(client, method)(reverse("games:analyse", args=[battle.pk]))
    assert r.status_code == 405 and not BattleAnalysis.objects.exists()


def test_bad_requests_queue_nothing(client, viewer, analysis_queue):
    running = played_battle(("d F1-F5",), finish=False)
    r = analyse(client, running)
    assert "Only a finished battle can be analysed." in r.content.decode()
    assert client.post(reverse("games:analyse", args=[999_999])).status_code == 404
    hidden = played_battle(("d F1-F5",))
    Round.objects.filter(pk=hidden.match.round_id).update(status=Round.Status.DRAFT)
    assert client.post(reverse("games:analyse", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("games:analysis", args=[hidden.pk])).status_code == 404
    assert not BattleAnalysis.objects.exists() and analysis_queue() == []


def test_the_limit_per_hour_is_said(client, viewer, analysis_queue):
    battle = played_battle(("d F1-F5",))
    limit, analysis_runs.PER_HOUR = analysis_runs.PER_HOUR, 0
    try:
        r = analyse(client, battle)
    finally:
        analysis_runs.PER_HOUR = limit
    assert "please wait a while" in r.content.decode()
    assert not BattleAnalysis.objects.exists() and analysis_queue() == []


def test_the_wait_polls_then_reloads_the_page_when_done(client, viewer):
    battle = played_battle()
    analysis_runs.request_analysis(battle, viewer, now=timezone.now())
    url = reverse("games:analysis", args=[battle.pk])
    r = client.get(url, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "queued" in r.content.decode() and "HX-Refresh" not in r
    BattleAnalysis.objects.update(status=Status.RUNNING, started_at=timezone.now())
    assert "analysing this battle" in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    BattleAnalysis.objects.update(status=Status.QUEUED)
    analysis_runs.run_analysis(
        battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
    )
    r = client.get(url, HTTP_HX_REQUEST="true")
    assert r["HX-Refresh"] == "true"


@pytest.fixture
def analysed(viewer):
    battle = played_battle()
    analysis_runs.request_analysis(battle, viewer, now=timezone.now())
    analysis_runs.run_analysis(
        battle.pk, now=timezone.now(), clock=Tick(), read_now=timezone.now, ms=MS
    )
    return battle


def test_the_result_is_a_graph_a_table_and_the_mistakes(client, analysed):
    html = replay(client, analysed, ply=2)
    svg = re.search(r'<svg class="chart eval-chart".*?</svg>', html, re.S)
    # A group, not an image: its points are links (an image would hide them).
    assert (
        svg
        and 'role="group"' in svg.group()
        and 'width="100%"' in svg.group()
        and 'aria-labelledby="eval-chart-caption"' in svg.group()
    )
    assert "<title>Evaluation after every move" in svg.group()
    points = re.findall(r'<a class="eval-point" href="([^"]*)" aria-label="([^"]*)"', svg.group())
    assert [href for href, _ in points] == [f"?ply={n}#replay" for n in (1, 2, 3)]
    assert points[1][1].startswith("Move 1... T G7-F6: ") and points[1][1].endswith(", blunder")
    assert svg.group().count("eval-blunder") == 1  # the hanging troll, its own shape
    assert 'href="?ply=2#replay" aria-label="Move 1... T G7-F6' in svg.group()
    assert 'aria-current="step"' in svg.group()  # the replay's ply
    assert "eval-current" in svg.group()
    assert ">Dwarfs ahead</text>" in svg.group() and ">Trolls ahead</text>" in svg.group()
    table = re.search(r"<table>.*?</table>", html, re.S).group()
    for head in ("Ply", "Move", "Evaluation", "Best move", "Loss", "Judgement"):
        assert f'<th scope="col">{head}</th>' in table
    assert '<th scope="row">2</th><td>1... T G7-F6</td>' in table
    assert "T G7-G4 xF5" in table  # the best move where it differs
    # The move list flags the blunder: the move, the reply that punishes it, the cost,
    # and the better move with the link that shows it on the board.
    assert re.search(r"<strong>Blunder:</strong> T G7-F6 lets d F5-F6 xF6: \u22124\b", html)
    assert "better: T G7-G4 xF5" in html
    assert 'href="?ply=2&amp;best=1#replay"' in html
    assert 'action="' + reverse("games:analyse", args=[analysed.pk]) not in html


def test_a_failed_analysis_offers_to_ask_again(client, analysed):
    BattleAnalysis.objects.update(status=Status.FAILED, error="boom")
    html = replay(client, analysed)
    assert "The analysis failed" in html and "boom" not in html
    assert reverse("games:analyse", args=[analysed.pk]) in html


def test_the_task_is_routed_to_the_analysis_queue_and_the_computers_moves_to_the_bots_queue():
    # Whatever publishes it (the settings' route, not only publish_analysis's queue).
    assert app.amqp.router.route({}, "bots.analyse")["queue"].name == "analysis"
    assert app.amqp.router.route({}, "bots.move")["queue"].name == "bots"
    # The beat's resend of lost analyses: bookkeeping, never behind an analysis.
    assert app.amqp.router.route({}, "analysis.resend")["queue"].name == "default"
