"""Seeding by rating, pure: rating first, ties by entry order, unrated last."""

from __future__ import annotations

from tournaments.pairing.seeding import SeedRecord, order_by_rating


def test_higher_rating_is_the_better_seed():
    records = [SeedRecord(1, 1200, 1), SeedRecord(2, 1800, 2), SeedRecord(3, 1500, 3)]
    assert order_by_rating(records) == [2, 3, 1]


def test_equal_ratings_keep_their_entry_order():
    records = [SeedRecord(7, 1500, 3), SeedRecord(8, 1500, 1), SeedRecord(9, 1500, 2)]
    assert order_by_rating(records) == [8, 9, 7]


def test_unrated_players_come_after_the_rated_in_entry_order():
    records = [
        SeedRecord(1, None, 1),
        SeedRecord(2, 0, 2),
        SeedRecord(3, None, 3),
        SeedRecord(4, 1800, 4),
    ]
    # A rating of 0 is a rating: it comes before every unrated player.
    assert order_by_rating(records) == [4, 2, 1, 3]


def test_no_records_no_seeds():
    assert order_by_rating([]) == []


def test_the_site_rating_counts_before_the_entered_one():
    records = [
        SeedRecord(1, 2000, 1),  # entered only
        SeedRecord(2, 2100, 2, site_rating=1400.0),  # the site's wins, though lower
        SeedRecord(3, None, 3, site_rating=2050.0),
        SeedRecord(4, None, 4),
    ]
    assert order_by_rating(records) == [3, 1, 2, 4]
