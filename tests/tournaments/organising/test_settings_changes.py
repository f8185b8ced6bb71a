"""Pure tests of the settings guards: no database."""

from __future__ import annotations

import doctest

import pytest

from tournaments.organising import settings_changes
from tournaments.organising.settings_changes import (
    CLOCK_FIELDS,
    SettingsError,
    TournamentFacts,
    check_rounds,
    check_tiebreak_order,
    locked_fields,
    min_rounds,
    moved,
    round_robin_rounds_needed,
    warnings,
)
from tournaments.standings.tiebreaks import KEYS as TIEBREAK_KEYS

RULES_OF_PLAY = {"format", "variant", "capture_policy", *CLOCK_FIELDS}
ALWAYS_FREE = {
    "name",
    "venue",
    "start_date",
    "end_date",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "pairing_seed",
}


def facts(**kw) -> TournamentFacts:
    return TournamentFacts(**({"format": "swiss", "rounds": 5} | kw))


def test_the_docstring_examples_hold():
    assert doctest.testmod(settings_changes).failed == 0


def test_nothing_is_locked_before_any_round_exists():
    assert locked_fields(facts()) == {}


def test_a_draft_locks_only_the_format_the_game_and_rated_and_names_the_draft():
    locked = locked_fields(facts(last_round=1, draft_round=1))
    assert set(locked) == {"format", "game", "rated"}
    assert "Round 1 is paired as a draft" in locked["format"]
    assert "Round 1 is already paired for this game" in locked["game"]


def test_a_published_round_locks_the_rules_of_play_and_the_clock_each_with_a_reason():
    locked = locked_fields(facts(last_round=1, published=1))
    assert set(locked) == RULES_OF_PLAY | {"game", "rated"}
    assert all(
        reason.startswith("Rounds have been published")
        for name, reason in locked.items()
        if name not in ("game", "rated")
    )
    assert "clocks run" in locked["think_ms"] and "capture policy" in locked["capture_policy"]


@pytest.mark.parametrize(
    "state",
    [{}, {"last_round": 1, "draft_round": 1}, {"last_round": 3, "published": 3}],
)
def test_points_tiebreaks_labels_and_dates_never_lock(state):
    assert not ALWAYS_FREE & set(locked_fields(facts(**state)))


def test_rounds_cannot_drop_below_the_last_paired_round_drafts_included():
    started = facts(last_round=3, published=2, draft_round=3)
    assert min_rounds(started) == 3
    check_rounds(started, 3)
    check_rounds(started, 9)
    with pytest.raises(SettingsError, match="Rounds 1 to 3 are already paired"):
        check_rounds(started, 2)


def test_any_number_of_rounds_before_pairing():
    assert min_rounds(facts()) == 1
    check_rounds(facts(), 1)


def test_tiebreak_order_accepts_any_order_of_known_keys():
    order = list(reversed(TIEBREAK_KEYS))
    assert check_tiebreak_order(order) == order
    assert check_tiebreak_order(["buchholz"]) == ["buchholz"]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ([], "at least one tiebreak"),
        (["match_points", "coin_toss"], "Unknown tiebreak: coin_toss"),
        (["buchholz", "match_points", "buchholz"], "only once: buchholz repeated"),
    ],
)
def test_tiebreak_order_refuses_empty_unknown_and_repeated_keys(keys, message):
    with pytest.raises(SettingsError, match=message):
        check_tiebreak_order(keys)


def test_moving_a_tiebreak_up_and_down():
    keys = ["a", "b", "c"]
    assert moved(keys, 1, -1) == ["b", "a", "c"]
    assert moved(keys, 1, +1) == ["a", "c", "b"]
    assert moved(keys, 0, -1) is None and moved(keys, 2, +1) is None
    assert keys == ["a", "b", "c"]  # the input is left alone


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (4, 3), (5, 5), (6, 5), (9, 9)])
def test_round_robin_needs_n_minus_1_rounds_for_even_n_and_n_for_odd(players, rounds):
    assert round_robin_rounds_needed(players) == rounds


def test_round_robin_warns_when_short_or_long_and_is_quiet_when_exact():
    short = warnings(facts(format="round_robin", rounds=3, players=6))
    assert short == [
        "A round robin of 6 players needs 5 rounds for everyone to meet everyone; "
        "this tournament has 3."
    ]
    long = warnings(facts(format="round_robin", rounds=6, players=5))
    assert "complete after 5 rounds" in long[0]
    assert warnings(facts(format="round_robin", rounds=5, players=6)) == []
    assert warnings(facts(format="swiss", rounds=3, players=6)) == []


def test_bots_cannot_be_turned_off_while_a_bot_plays_and_the_refusal_says_whom_to_withdraw():
    playing = facts(allow_bots=True, bots_playing=("koom_bot", "bot_2"))
    with pytest.raises(SettingsError, match=r"\(koom_bot, bot_2\): withdraw them first"):
        settings_changes.check_allow_bots(playing, False)
    settings_changes.check_allow_bots(playing, True)
    settings_changes.check_allow_bots(facts(allow_bots=True), False)  # no bot plays
    # Off already (a person entered who became a bot later): saving it off again is no change.
    settings_changes.check_allow_bots(facts(bots_playing=("koom_bot",)), False)
    assert "allow_bots" not in locked_fields(playing)
