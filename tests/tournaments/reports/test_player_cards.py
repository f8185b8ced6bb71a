"""The wrapping rules of the cards and the list of links (``reports.player_cards``): a
name's type size keeps its longest word on one line, a URL breaks after a slash."""

from __future__ import annotations

import doctest

from tournaments.reports import player_cards
from tournaments.reports.player_cards import LINE_CHARS_AT_1PT, NAME_PT, name_size_pt


def test_doctests():
    assert doctest.testmod(player_cards).failed == 0


def test_a_long_word_gets_a_size_at_which_it_fits_a_line_short_names_keep_the_full_size():
    for name in ["Agnes Nitt", "Carrot Ironfoundersson", "Ironfoundersonsonsonson"]:
        assert name_size_pt(name) == NAME_PT
    for longest in range(25, 57):
        size = name_size_pt("Carrot " + "x" * longest)
        assert size < NAME_PT and longest * size <= LINE_CHARS_AT_1PT


def test_a_name_of_many_words_takes_about_two_lines_at_most():
    name = "Lord Havelock Vetinari of Ankh-Morpork and the Sto Plains, Patrician"
    size = name_size_pt(name)
    assert len(name) * size <= 2 * LINE_CHARS_AT_1PT
