"""No game is frozen into the migrations: adding a game to the registry needs no migration.

A model field's choices and a constraint are written into the migrations as they
deconstruct; a field holding a game key takes its choices from a callable read at call time
(``games.models.battle.game_choices``, ``tournaments.models.wording.game_choices``) and the
result numbers' check bounds any game alike. So no field's choices, no validator and no
constraint may name a game's key (a field's ``default`` may: a new game does not change it).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.apps import apps
from django.db import models
from django.db.models import Q

from games.engines import registry


def strings_in(value: object) -> Iterator[str]:
    """Every string a deconstructed value holds (Q objects, lists, dicts, tuples)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Q):
        for child in value.children:
            yield from strings_in(child)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings_in(k)
            yield from strings_in(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from strings_in(item)


def deconstructed() -> Iterator[tuple[str, object]]:
    """``(where, what the migrations would write)`` of every field and constraint."""
    for model in apps.get_models():
        label = model._meta.label
        for field in model._meta.local_fields + model._meta.local_many_to_many:
            kwargs = dict(field.deconstruct()[3])
            kwargs.pop("default", None)
            yield f"{label}.{field.name}", kwargs
        for constraint in model._meta.constraints:
            yield f"{label} {constraint.name}", constraint.deconstruct()[1:]


def test_no_field_or_constraint_names_a_game():
    keys = {game.key for game in registry.all_games()}
    named = [where for where, value in deconstructed() if keys & set(strings_in(value))]
    assert named == []


def test_a_game_key_in_a_choice_would_be_seen():
    # The test above reads what a frozen list of choices would hold.
    field = models.CharField(max_length=16, choices=registry.choices())
    assert {"thud", "cavalli"} <= set(strings_in(dict(field.deconstruct()[3])))
