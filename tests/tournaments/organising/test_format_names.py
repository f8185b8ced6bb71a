"""One definition of the format names (``tournaments.pairing.formats``): the model's
choices store them, and the settings guards, which do not import the models, read them."""

from __future__ import annotations

import pytest

from tournaments.models.tournament import Tournament
from tournaments.organising.settings_changes import (
    SettingsError,
    TournamentFacts,
    check_top_cut,
    warnings,
)
from tournaments.pairing import formats


def test_the_model_stores_the_pure_modules_names():
    assert Tournament.Format.values == [
        formats.SWISS,
        formats.ROUND_ROBIN,
        formats.SINGLE_ELIMINATION,
    ]


def test_the_settings_guards_know_the_models_round_robin_and_swiss():
    short = TournamentFacts(format=Tournament.Format.ROUND_ROBIN, rounds=3, players=6)
    assert warnings(short) != []
    swiss = TournamentFacts(format=Tournament.Format.SWISS, rounds=5, players=8)
    check_top_cut(swiss, Tournament.Format.SWISS, 8)
    with pytest.raises(SettingsError):
        check_top_cut(swiss, Tournament.Format.SINGLE_ELIMINATION, 8)
