"""A game the settings add (``settings.GAMES``): its engine into the registry when the games
app is set up, its presentation into the web room's in ``ready``; no migration follows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils.module_loading import import_string

from games.apps import register_engines
from games.cavalli.game import CavalliGame
from games.engines import registry
from games.web import presentations, presenters_cavalli


class OtherGame(CavalliGame):
    """A game of another key (the rules are Cavalli's: only the registration is tested)."""

    key = "othergame"


#: Drawn as Cavalli is, under its own key.
PRESENTATION = replace(presenters_cavalli.PRESENTATION, game=OtherGame.key)
OTHER = (f"{__name__}.OtherGame", f"{__name__}.PRESENTATION")


@pytest.fixture
def other_game() -> Iterator[None]:
    with override_settings(GAMES=[OTHER]):
        register_engines()
        yield
    registry._FACTORIES.pop(OtherGame.key, None)


def test_the_settings_games_join_the_registry(other_game):
    assert registry.get("othergame").key == "othergame"
    assert [g.key for g in registry.all_games()][-1] == "othergame"


@pytest.mark.django_db
def test_a_registered_game_needs_no_migration(other_game):
    # What makemigrations --check compares: the migrations' state and the models.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_ready_registers_the_settings_presentations(other_game):
    with override_settings(GAMES=[OTHER]):
        apps.get_app_config("games").ready()
    assert presentations.of(registry.get("othergame")) is PRESENTATION
    assert presentations.of(CavalliGame()) is presenters_cavalli.PRESENTATION


def test_the_default_game_is_the_first_of_the_settings():
    # The default of the battle's and the challenge's game field (frozen into migrations).
    engine, _presentation = settings.GAMES[0]
    assert registry.DEFAULT == import_string(engine).key == registry.all_games()[0].key
