"""The set-based sweeper (games/live/sweep.py) against the one definition of an expiry,
``settle()``: same transitions, events, moves and follow-ups, on random clocks;
and a constant number of statements per tick."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.battles.settle import settle
from games.events import publish
from games.live import bulk, sweep
from games.models.battle import Battle
from games.models.history import ClockEvent, Move
from games.rules import clock
from tests.factories import make_match

pytestmark = pytest.mark.django_db

COMPARED = [
    "status",
    "side_to_move",
    "ply",
    "max_plies",
    "turn_started_at",
    "think_ends_at",
    "deadline",
    "touched_square",
    "paused_remaining_ms",
    "paused_think_remaining_ms",
    "paused_reason",
    "forfeits_first",
    "forfeits_second",
    "clock_version",
    "board",
    "first_count",
    "second_count",
    "finished_reason",
    "end_offered_by",
]


def ms(n: int) -> timedelta:
    return timedelta(milliseconds=n)


def random_clock(rng: random.Random, now) -> dict:
    """Columns of a battle in a random clock state: mostly running and around its
    expiry (not yet due, just due, late, outage-late), near the move limit or the
    forfeit limit; some not running at all; a few online with a board."""
    think, move = rng.choice([(1000, 500), (15_000, 5_000), (3000, 1000)])
    grace = rng.choice([0, 50, 300])
    limit = rng.randint(1, 4)
    ply = rng.randint(0, 40)
    side = rng.choice(["dwarf", "troll"])
    mine = rng.randint(0, limit - 1)
    theirs = rng.randint(0, limit - 1)
    late = rng.choice([-2000, -1, 0, 1, 5, 150, 1000, 2999, 3000, 3001, 4000, 60_000])
    late += rng.choice([0, 0, 0.4, 0.6]) if late else 0  # sub-millisecond rounding edges
    deadline = now - ms(grace) - timedelta(milliseconds=late)
    touched = rng.random() < 0.2
    started = deadline - ms(think + move)
    fields = {
        "status": rng.choice([clock.RUNNING] * 8 + [clock.PAUSED, clock.FINISHED]),
        "side_to_move": side,
        "ply": ply,
        "max_plies": rng.choice([None, ply + 1, ply + 2, ply + 10]),
        "turn_started_at": started,
        "think_ends_at": deadline - ms(move) if not touched else started + ms(200),
        "deadline": deadline,
        "touched_square": "F5" if touched else "",
        "forfeits_first": mine if side == "dwarf" else theirs,
        "forfeits_second": mine if side == "troll" else theirs,
        "clock_version": rng.randint(1, 50),
        "think_ms": think,
        "move_ms": move,
        "grace_ms": grace,
        "max_consecutive_forfeits": limit,
        "outage_threshold_ms": 3000,
        "end_offered_by": rng.choice(["", "", "troll"]),
        "mode": Battle.Mode.OTB,
    }
    if rng.random() < 0.1:
        from games import thud

        fields["mode"] = Battle.Mode.ONLINE
        fields["board"] = thud.Position.initial().to_diagram()
    return fields


def two_copies(seed: int, n: int, now) -> tuple[list[int], list[int]]:
    rng = random.Random(seed)
    states = [random_clock(rng, now) for _ in range(n)]
    matches = make_match(tables=2 * n, users=False)
    ids = ([], [])
    for i, fields in enumerate(states):
        for copy in (0, 1):
            m = matches[2 * i + copy]
            b = Battle.objects.create(
                match=m, number=1, first_entry=m.player_a, second_entry=m.player_b, **fields
            )
            ids[copy].append(b.pk)
    return ids


def recording(monkeypatch):
    """Record the follow-ups (the published states, which carry the due times) of both
    code paths."""
    published = []
    monkeypatch.setattr(
        publish,
        "publish_state",
        lambda battle_id, version, state, offer="", *, now: published.append(
            (battle_id, version, state, offer)
        ),
    )
    monkeypatch.setattr(publish, "publish_states", lambda items, *, now: published.extend(items))
    return published


def rows(ids: list[int]) -> list[dict]:
    by_id = {b["id"]: b for b in Battle.objects.filter(pk__in=ids).values("id", *COMPARED)}
    return [{k: v for k, v in by_id[i].items() if k != "id"} for i in ids]


def trail(model, ids: list[int], fields: list[str]) -> list[list[tuple]]:
    return [
        list(model.objects.filter(battle_id=i).order_by("ply").values_list(*fields)) for i in ids
    ]


@pytest.mark.parametrize("seed", range(6))
def test_bulk_sweep_gives_the_same_transitions_as_settle(
    seed, monkeypatch, django_capture_on_commit_callbacks
):
    now = timezone.now()
    by_settle, by_sweep = two_copies(seed, 40, now)
    published = recording(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        for battle_id in by_settle:
            settle(battle_id, via=ClockEvent.Via.SWEEP, now=now)
    settle_published = list(published)
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        # The expiries only: the tick's outage check would resume the settle copies'
        # outage pauses too (tests/games/live/test_outages.py).
        changed = sweep.settle_expiries(via=ClockEvent.Via.SWEEP, read_clock=lambda: now, seen=None)

    assert rows(by_sweep) == rows(by_settle)
    event_fields = ["ply", "kind", "due_at", "applied_at", "via", "detail"]
    assert trail(ClockEvent, by_sweep, event_fields) == trail(ClockEvent, by_settle, event_fields)
    move_fields = ["ply", "side", "notation", "kind", "captures", "submitted_at"]
    move_fields.append("clock_version_before")
    assert trail(Move, by_sweep, move_fields) == trail(Move, by_settle, move_fields)
    assert changed == sum(1 for r in trail(ClockEvent, by_sweep, ["id"]) if r)

    # The same follow-ups: the new state (and so its due time) published.
    pos = {b: i for i, b in enumerate(by_settle)} | {b: i for i, b in enumerate(by_sweep)}
    assert sorted((pos[b], v, repr(s), o) for b, v, s, o in published) == sorted(
        (pos[b], v, repr(s), o) for b, v, s, o in settle_published
    )
    # The random clocks reach every branch: bulk forfeits and each fallback.
    kinds = {r["status"] for r in rows(by_sweep)}
    assert {clock.RUNNING, clock.PAUSED, clock.FINISHED, clock.NEEDS_REFEREE} <= kinds
    assert ClockEvent.objects.filter(battle_id__in=by_sweep, kind=clock.OUTAGE_PAUSE).exists()


def running_battles(n: int, now) -> list[int]:
    matches = make_match(tables=n, users=False)
    made = Battle.objects.bulk_create(
        Battle(
            match=m,
            number=1,
            mode=Battle.Mode.OTB,
            first_entry=m.player_a,
            second_entry=m.player_b,
            status=clock.RUNNING,
            turn_started_at=now - ms(2000),
            think_ends_at=now - ms(1000),
            deadline=now - ms(400),
            clock_version=1,
            grace_ms=300,
        )
        for m in matches
    )
    return [b.pk for b in made]


def test_sweep_issues_the_same_number_of_statements_for_5_and_50_due_battles(monkeypatch):
    recording(monkeypatch)
    now = timezone.now()
    counts = []
    for n in (5, 50):
        ids = running_battles(n, now)
        with CaptureQueriesContext(connection) as ctx:
            assert sweep.sweep(read_clock=lambda: now) == n
        counts.append(len(ctx.captured_queries))
        assert Battle.objects.filter(pk__in=ids, ply=1, clock_version=2).count() == n
        assert Move.objects.filter(battle_id__in=ids, kind=Move.Kind.FORFEIT).count() == n
    assert counts[0] == counts[1]


def test_sweep_applies_an_expiry_once_and_leaves_undue_battles_alone(monkeypatch):
    recording(monkeypatch)
    now = timezone.now()
    ids = running_battles(3, now)
    Battle.objects.filter(pk=ids[0]).update(deadline=now - ms(299))  # within the grace
    assert sweep.sweep(read_clock=lambda: now) == 2
    assert sweep.sweep(read_clock=lambda: now) == 0
    assert list(Battle.objects.filter(pk__in=ids).order_by("pk").values_list("ply", flat=True)) == [
        0,
        1,
        1,
    ]
    assert ClockEvent.objects.filter(battle_id__in=ids).count() == 2


def running_battles_due(n: int, late_ms: int) -> list[int]:
    """``n`` running battles whose expiry (deadline + 300 ms grace) was due ``late_ms`` ago."""
    ids = running_battles(n, timezone.now())
    Battle.objects.filter(pk__in=ids).update(deadline=timezone.now() - ms(300 + late_ms))
    return ids


@pytest.mark.django_db(transaction=True)
def test_the_bulk_pass_does_not_lock_a_battle_still_in_its_grace(monkeypatch):
    """An expiry in its grace is not the sweep's yet: a move may still land on it and
    must find the row free, not held by a pass that skips it anyway."""
    import psycopg

    recording(monkeypatch)
    now = timezone.now()
    (in_grace,) = running_battles(1, now + ms(200))  # deadline 200 ms ago, due in 100 ms
    (due,) = running_battles(1, now)
    free = []
    real = bulk._update
    sd = connection.settings_dict

    def other_writer_looks(battles, at):  # runs inside the pass, its locks held
        with psycopg.connect(
            host=sd["HOST"], port=sd["PORT"], user=sd["USER"], dbname=sd["NAME"]
        ) as other:
            free.extend(
                row[0]
                for row in other.execute(
                    "SELECT id FROM games_battle WHERE id = ANY(%s) FOR UPDATE SKIP LOCKED",
                    [[in_grace, due]],
                )
            )
        real(battles, at)

    monkeypatch.setattr(bulk, "_update", other_writer_looks)
    assert sweep.sweep(read_clock=lambda: now) == 1
    assert free == [in_grace]
    assert Battle.objects.get(pk=in_grace).ply == 0
