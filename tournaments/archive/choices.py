"""An archive schema's enums, filled from the models' choices when the schema is loaded.

Terminology and invariants:
- A schema file never lists a model field's values: where it would, it names the field,
  ``{"x-choices": "games.ClockEvent.kind"}`` (``app_label.Model.field``), and
  ``load_schema`` adds ``"enum"``: the field's choice values, in the model's order. So a
  value added to a model's choices is a value the archive reads the day it is added; a
  hand-kept copy once refused the export of a battle paused for an offline referee page
  (issue 41).
- The one place both schemas are loaded through (the tournament's here, the battles'
  through ``tournaments.for_games``). A name that is not a field with choices raises at
  load: a typo in a schema is a bug, never a looser check.
- Models are looked up by name (``apps.get_model``): this app imports no other app.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured

#: The keyword of a schema node whose enum is a model field's choices.
KEYWORD = "x-choices"


def load_schema(path: Path) -> dict[str, Any]:
    """The JSON schema at ``path``, every ``x-choices`` node given its ``enum``."""
    return with_choices(json.loads(path.read_text(encoding="utf-8")))


def with_choices(node: Any) -> Any:
    """``node`` (a parsed schema or any part of it) with its enums filled (a copy)."""
    if isinstance(node, list):
        return [with_choices(item) for item in node]
    if not isinstance(node, dict):
        return node
    filled = {key: with_choices(value) for key, value in node.items()}
    if KEYWORD in node:
        filled["enum"] = choice_values(node[KEYWORD])
    return filled


def choice_values(name: str) -> list[Any]:
    """The choice values of the field named ``app_label.Model.field``."""
    try:
        app_label, model, field_name = name.split(".")
        field = apps.get_model(app_label, model)._meta.get_field(field_name)
    except (ValueError, LookupError, FieldDoesNotExist) as e:
        raise ImproperlyConfigured(f"{KEYWORD} {name!r}: no such field ({e})") from None
    values = [value for value, _label in field.flatchoices]
    if not values:
        raise ImproperlyConfigured(f"{KEYWORD} {name!r}: the field has no choices")
    return values
