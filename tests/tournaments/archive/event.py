"""A whole event for the archive tests, played through the real workflows.

``build_event(players=10)``: a timed Swiss of 5 rounds with a top 4 cut ("archive-open").
Four players have accounts; referees ``arc-ref1`` and ``arc-ref2``, co-organiser
``arc-co``, organiser ``arc-org``. Round 1, table 1 is played online: both battles with
moves (the engine records the result); the other results are entered by one referee and
confirmed by the other. Round 2, table 1 is corrected (with a reason, confirmed by the
other referee); round 3, table 1 is an organiser's decision. The lowest seed withdraws
after round 3; one entry is edited (its history); two entries are a forbidden pair; one
entry misses round 2. The semi-final at table 1 is drawn and replayed as a playoff.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.battles.play import accept_end, offer_end, submit_move
from games.battles.starting import create_battles, start_battle
from games.models.battle import Battle
from tests.games.records_helpers import greedy_game
from tournaments.models.people import Player
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.checkin import set_not_playing
from tournaments.organising.entries import EntryValues, current_values, edit_entry
from tournaments.results.corrections import correct_result, decide_result
from tournaments.results.entry import confirm_result, enter_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import add_forbidden_pair, toggle_withdrawal
from tournaments.rounds.play import close_tournament, publish_round

DRAW = (8, 2, 8, 2)


def results_for(table: int, number: int) -> tuple[int, int, int, int]:
    """Different, valid numbers for every match (A usually wins, sometimes B)."""
    a = (table * 3 + number * 5) % 30 + 1
    return (a, (table + number) % 8, (number * 7 + table) % 31, (table * number) % 8 + 1)


def play_online(match: Match, plies: int) -> None:
    """Both battles online: ``plies`` greedy plies each, then ended by agreement."""
    for number, battle in enumerate(
        create_battles(match, mode=Battle.Mode.ONLINE, now=timezone.now()), 1
    ):
        battle = start_battle(battle.pk, now=timezone.now())
        moves, _ = greedy_game(plies, battle.capture_policy)
        for text in moves:
            battle = Battle.objects.get(pk=battle.pk)
            assert text is not None
            submit_move(
                battle.pk,
                side=battle.side_to_move,
                version=battle.clock_version,
                notation=text,
                now=timezone.now(),
            )
        battle = Battle.objects.get(pk=battle.pk)
        offer_end(battle.pk, side=battle.side_to_move, now=timezone.now())
        other = "troll" if battle.side_to_move == "dwarf" else "dwarf"
        accept_end(battle.pk, side=other, now=timezone.now())
        assert Battle.objects.get(pk=battle.pk).status == Battle.Status.FINISHED, number


def two_referees(match: Match, survivors, ref1, ref2) -> None:
    version = enter_result(
        match, survivors=survivors, by=ref1, expected_lock_version=None, now=timezone.now()
    )
    match.refresh_from_db()
    confirm_result(
        match,
        version_id=version.pk,
        by=ref2,
        expected_lock_version=match.lock_version,
        now=timezone.now(),
    )


def play_round(t: Tournament, people: SimpleNamespace, results=None, *, online=()) -> Round:
    round_ = publish_round(
        pair_next_round(t, by=people.org, now=timezone.now()), now=timezone.now()
    )
    for m in round_.matches.filter(player_b__isnull=False).order_by("table"):
        if m.table in online:
            play_online(m, 8)
        else:
            two_referees(
                m,
                (results or {}).get(m.table, results_for(m.table, round_.number)),
                people.ref1,
                people.ref2,
            )
    return round_


def build_event(players: int = 10, slug: str = "archive-open") -> SimpleNamespace:
    User = get_user_model()
    names = ("arc-org", "arc-co", "arc-ref1", "arc-ref2")
    org, co, ref1, ref2 = (User.objects.create_user(n, password="pw-archive-123") for n in names)
    people = SimpleNamespace(org=org, co=co, ref1=ref1, ref2=ref2)
    t = Tournament.objects.create(
        name="Archive Open",
        slug=slug,
        owner=org,
        rounds=5,
        top_cut=4,
        variant=Tournament.Variant.TIMED_24,
        venue="Bjørnstjerne Hall",
        pairing_seed=4242,
        time_zone="Europe/Oslo",
        announcement="Velkommen – benvenuti",
        allow_bots=True,  # not the default: the round trip shows it travels
    )
    t.co_organisers.add(co)
    t.referees.add(ref1, ref2)
    entries = []
    for seed in range(1, players + 1):
        user = User.objects.create_user(f"arc-player{seed}") if seed <= 4 else None
        player = Player.objects.create(
            name=f"Player Æ{seed}", club=f"Club {seed % 3}", rating=1500 + 10 * seed, user=user
        )
        entries.append(
            Entry.objects.create(tournament=t, player=player, seed=seed, checked_in=True)
        )
    add_forbidden_pair(t, entries[0], entries[1])
    values = current_values(entries[5])
    edit_entry(
        entries[5],
        values=EntryValues("Player Æ6 (renamed)", values.club, "NO", values.rating, values.seed),
        by=org,
        now=timezone.now(),
    )
    set_not_playing(entries[4], 2, absent=True, now=timezone.now())

    play_round(t, people, online=(1,))
    r2 = play_round(t, people)
    m = r2.matches.get(table=1)
    fix = correct_result(
        m,
        survivors=(3, 3, 3, 3),
        by=ref1,
        reason="Slip misread: the survivors were 3 each",
        expected_lock_version=m.lock_version,
        now=timezone.now() + timedelta(seconds=1),
    )
    m.refresh_from_db()
    confirm_result(
        m, version_id=fix.pk, by=ref2, expected_lock_version=m.lock_version, now=timezone.now()
    )
    r3 = play_round(t, people)
    m = r3.matches.get(table=1)
    decide_result(
        m,
        survivors=(20, 0, 20, 0),
        by=org,
        reason="Organiser's decision after an appeal",
        expected_lock_version=m.lock_version,
        now=timezone.now(),
    )
    toggle_withdrawal(Entry.objects.get(pk=entries[-1].pk))
    play_round(t, people)
    play_round(t, people)
    semis = play_round(t, people, {1: DRAW, 2: (20, 1, 5, 6)})
    assert semis.stage == Round.Stage.KNOCKOUT
    playoff = play_round(t, people, {1: (5, 6, 20, 1)})
    assert playoff.stage == Round.Stage.PLAYOFF
    final = play_round(t, people, {1: (20, 1, 5, 6)})
    assert final.stage == Round.Stage.KNOCKOUT
    close_tournament(t, now=timezone.now())
    return SimpleNamespace(t=Tournament.objects.get(pk=t.pk), entries=entries, **vars(people))
