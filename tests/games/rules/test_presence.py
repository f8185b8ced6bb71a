"""The pure rules of presence before time (no database): both joined → start; a join
is kept once; the window runs from the first join; who may claim a no-show, and when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.rules import presence
from games.rules.presence import FIRST, SECOND, Presence

T0 = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_presence_module_imports_nothing_from_django():
    import subprocess
    import sys

    code = "import sys, games.rules.presence; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_nobody_joined_is_not_both_joined_and_has_no_window():
    p = Presence(window_ms=60_000)
    assert not presence.both_joined(p)
    assert presence.window_ends_at(p) is None


def test_one_join_is_not_both_joined():
    assert not presence.both_joined(presence.join(Presence(window_ms=60_000), SECOND, T0))


def test_both_joined_in_either_order_starts():
    p = Presence(window_ms=60_000)
    assert presence.both_joined(presence.join(presence.join(p, FIRST, T0), SECOND, at(3)))
    assert presence.both_joined(presence.join(presence.join(p, SECOND, T0), FIRST, at(3)))


def test_joining_twice_keeps_the_first_time():
    once = presence.join(Presence(window_ms=60_000), FIRST, T0)
    assert presence.join(once, FIRST, at(30)) == once


def test_the_window_runs_from_the_first_join():
    p = presence.join(presence.join(Presence(window_ms=60_000), SECOND, at(10)), FIRST, at(40))
    assert presence.window_ends_at(p) == at(70)


def test_no_show_is_refused_before_the_window_ends_and_allowed_at_its_end():
    p = presence.join(Presence(window_ms=60_000), FIRST, T0)
    assert presence.no_show_refusal(p, FIRST, at(59.999)) == presence.TOO_EARLY
    assert presence.no_show_refusal(p, FIRST, at(60)) is None
    assert presence.no_show_refusal(p, FIRST, at(3600 * 24 * 365)) is None


def test_only_the_player_who_joined_may_claim():
    p = presence.join(Presence(window_ms=60_000), FIRST, T0)
    assert presence.no_show_refusal(p, SECOND, at(120)) == presence.NOT_JOINED


def test_nobody_is_missing_once_both_joined():
    p = presence.join(presence.join(Presence(window_ms=60_000), FIRST, T0), SECOND, at(90))
    assert presence.no_show_refusal(p, FIRST, at(120)) == presence.OPPONENT_JOINED


def test_a_battle_not_awaiting_its_players_has_no_no_show():
    p = Presence(window_ms=60_000, first_joined_at=T0, awaiting=False)
    assert presence.no_show_refusal(p, FIRST, at(120)) == presence.NOT_AWAITING


def test_only_timed_online_quickfire_battles_wait_for_their_players():
    assert presence.needs_players(online=True, timed=True, correspondence=False)
    assert not presence.needs_players(online=True, timed=True, correspondence=True)
    assert not presence.needs_players(online=True, timed=False, correspondence=False)
    assert not presence.needs_players(online=False, timed=True, correspondence=False)


# --- a page that is seen; a battle nobody started ------------------------------------


def test_only_a_page_that_is_seen_or_a_ready_press_counts_as_present():
    assert presence.counts_as_present(presence.VISIBLE)
    assert presence.counts_as_present("")  # Ready pressed without JavaScript
    assert not presence.counts_as_present(presence.HIDDEN)
    assert not presence.counts_as_present("prerender")


def test_a_battle_nobody_joined_expires_its_lifetime_after_its_last_change():
    p = Presence(window_ms=60_000)
    life = presence.UNJOINED_LIFETIME.total_seconds()
    assert presence.expires_at(p, T0) == T0 + presence.UNJOINED_LIFETIME
    assert not presence.expired(p, T0, at(life - 1))
    assert presence.expired(p, T0, at(life))
    assert not presence.anyone_joined(p)


def test_a_long_join_window_is_never_cut_short_by_the_expiry():
    p = presence.join(Presence(window_ms=3_600_000), SECOND, T0)
    assert presence.anyone_joined(p)
    assert not presence.expired(p, T0, at(3_599))
    assert presence.expired(p, T0, at(3_600))


def test_a_battle_that_no_longer_waits_never_expires():
    p = Presence(window_ms=60_000, awaiting=False)
    assert presence.expires_at(p, T0) is None
    assert not presence.expired(p, T0, at(10**6))
    both = presence.join(presence.join(Presence(window_ms=60_000), FIRST, T0), SECOND, T0)
    assert presence.both_joined(both)  # started: the battle row says awaiting=False then
