"""The archive schemas' enums are the models' choices (issue 41: a hand-kept copy refused a
``referee_offline`` clock event its own export wrote). No database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured

from games.archive.section import SECTION
from tournaments.archive.choices import KEYWORD, with_choices
from tournaments.archive.validation import SCHEMA_PATH, schema

ROOT = Path(__file__).resolve().parents[3]
BATTLES_PATH = ROOT / "games" / "archive" / "archive-battles.schema.json"

#: Each object of the schemas that is a model's row with choices, and the model (a move's
#: kind has none: a game's move names its own, ``MoveInfo.kind``, and the replay checks it).
ROWS = [
    ("tournament", ("tournament",), "tournaments.Tournament"),
    ("tournament", ("round",), "tournaments.Round"),
    ("tournament", ("match",), "tournaments.Match"),
    ("tournament", ("version",), "tournaments.ResultVersion"),
    ("tournament", ("entry", "properties", "changes", "items"), "tournaments.EntryChange"),
    ("battles", ("battle",), "games.Battle"),
    ("battles", ("clock_event",), "games.ClockEvent"),
]
#: Fields with choices the archive checks in code, with a message naming the value: the
#: game (the installation's games) and the time zone (hundreds of names).
CHECKED_IN_CODE = {"game", "time_zone"}


def loaded(name: str) -> dict:
    return schema() if name == "tournament" else dict(SECTION.schema)


def raw(name: str) -> dict:
    path = SCHEMA_PATH if name == "tournament" else BATTLES_PATH
    return json.loads(path.read_text(encoding="utf-8"))


def nodes(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def row(document: dict, path: tuple[str, ...]) -> dict:
    node = document["$defs"]
    for key in path:
        node = node[key]
    return node["properties"]


@pytest.mark.parametrize("name", ["tournament", "battles"])
def test_no_schema_file_lists_a_models_values_by_hand(name):
    # A battle's number (1 or 2: a match is two battles) is no model's choices.
    listed = [node["enum"] for node in nodes(raw(name)) if "enum" in node]
    assert listed == ([[1, 2]] if name == "battles" else [])


@pytest.mark.parametrize(("name", "path", "model"), ROWS)
def test_every_archived_field_with_choices_takes_exactly_the_models_choices(name, path, model):
    properties = row(loaded(name), path)
    fields = apps.get_model(model)._meta.get_fields()
    archived = [
        f
        for f in fields
        if getattr(f, "choices", None) and f.name in properties and f.name not in CHECKED_IN_CODE
    ]
    assert archived, model
    for field in archived:
        assert properties[field.name][KEYWORD] == f"{model}.{field.name}"
        assert properties[field.name]["enum"] == [v for v, _ in field.flatchoices], field


def test_the_clock_event_kinds_include_the_offline_referee_page():
    kinds = row(loaded("battles"), ("clock_event",))["kind"]["enum"]
    assert "referee_offline" in kinds and "outage_pause" in kinds


def test_the_tournament_schema_takes_integer_choices_as_numbers():
    assert row(schema(), ("tournament",))["top_cut"]["enum"] == [0, 2, 4, 8]


@pytest.mark.parametrize(
    "name", ["games.Battle.nothing", "games.Battle.board", "games.Nothing.kind", "kind"]
)
def test_a_name_that_is_no_field_with_choices_fails_at_load(name):
    with pytest.raises(ImproperlyConfigured, match=name):
        with_choices({"properties": {"x": {KEYWORD: name}}})


def test_filling_copies_the_schema_and_keeps_the_rest():
    original = {"type": "object", "items": [{KEYWORD: "games.Battle.mode", "description": "d"}]}
    filled = with_choices(original)
    assert filled["items"][0] == {
        KEYWORD: "games.Battle.mode",
        "description": "d",
        "enum": ["online", "otb"],
    }
    assert "enum" not in original["items"][0]
