"""An archive's identity (``tournaments.archive.identity``): pure, no database."""

from __future__ import annotations

import copy
import doctest
import re
import unicodedata

import pytest

from tournaments.archive import identity
from tournaments.archive.identity import canonical, fingerprint


def version(number: int, result: list[int]) -> dict:
    return {"number": number, "result": result, "entered_at": "2026-05-01T10:00:00+00:00"}


def document() -> dict:
    """The parts of an archive the identity reads, and some it must not."""
    return {
        "format": "thud-tournament-archive",
        "version": 1,
        "exported_at": "2026-05-02T18:00:00+00:00",
        "tournament": {
            "slug": "lancre-open",
            "name": "Lancre Open",
            "game": "thud",
            "start_date": "2026-05-01",
            "end_date": "2026-05-02",
            "created_at": "2026-04-01T09:00:00+00:00",
            "rated": True,
            "organiser": "nanny",
            "venue": "The Castle",
        },
        "entries": [
            {"key": 1, "player": {"name": "Esme Weatherwax", "username": "esme"}, "seed": 1},
            {"key": 2, "player": {"name": "Gytha Ogg", "username": None}, "seed": 2},
            {"key": 3, "player": {"name": "Magrat Garlick", "username": None}, "seed": 3},
        ],
        "rounds": [
            {
                "number": 1,
                "stage": "main",
                "finished_at": "2026-05-01T12:00:00+00:00",
                "matches": [
                    {
                        "table": 1,
                        "a": 1,
                        "b": 2,
                        "confirmed_version": 2,
                        "versions": [version(1, [20, 3, 18, 4]), version(2, [20, 3, 18, 2])],
                    },
                    {"table": 2, "a": 3, "b": None, "confirmed_version": None, "versions": []},
                ],
            },
            {
                "number": 2,
                "stage": "main",
                "matches": [
                    {"table": 1, "a": 3, "b": 1, "confirmed_version": None, "versions": []},
                    {"table": 2, "a": 2, "b": None, "confirmed_version": None, "versions": []},
                ],
            },
        ],
        "sections": {"battles": []},
    }


ORIGINAL = fingerprint(document())


def test_the_identity_is_sha256_hex():
    assert re.fullmatch(r"[0-9a-f]{64}", ORIGINAL)
    assert fingerprint(document()) == ORIGINAL  # deterministic


def test_the_docstring_examples_hold():
    assert doctest.testmod(identity).failed == 0


def edit(change) -> str:
    doc = document()
    change(doc)
    return fingerprint(doc)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda d: d["tournament"].update(slug="elsewhere"), id="another address"),
        pytest.param(lambda d: d.update(exported_at="2027-01-01T00:00:00+00:00"), id="exported"),
        pytest.param(
            lambda d: d["tournament"].update(created_at="2020-01-01T00:00:00+00:00"),
            id="created",
        ),
        pytest.param(lambda d: d["tournament"].update(rated=False), id="the rated flag"),
        pytest.param(lambda d: d["tournament"].update(organiser="someone"), id="the organiser"),
        pytest.param(lambda d: d["tournament"].update(venue="Bad Ass"), id="a setting"),
        pytest.param(lambda d: d["entries"][0]["player"].update(username=None), id="a username"),
        pytest.param(lambda d: d["entries"].reverse(), id="the entries' order"),
        pytest.param(lambda d: d["rounds"].reverse(), id="the rounds' order"),
        pytest.param(lambda d: d["rounds"][0]["matches"].reverse(), id="the matches' order"),
        pytest.param(lambda d: d["rounds"][0]["matches"][0]["versions"].pop(0), id="history"),
        pytest.param(lambda d: d["sections"].update(battles=[{"x": 1}]), id="a section"),
        pytest.param(lambda d: d["rounds"][0].update(finished_at=None), id="a round's time"),
    ],
)
def test_what_an_installation_numbers_or_times_is_not_the_identity(change):
    assert edit(change) == ORIGINAL


def renumbered(d: dict) -> None:
    """The same event with other entry keys and version numbers (another installation)."""
    keys = {1: 7, 2: 5, 3: 9}
    for e in d["entries"]:
        e["key"] = keys[e["key"]]
    for r in d["rounds"]:
        for m in r["matches"]:
            m["a"] = keys[m["a"]]
            m["b"] = None if m["b"] is None else keys[m["b"]]
            for v in m["versions"]:
                v["number"] += 10
            if m["confirmed_version"] is not None:
                m["confirmed_version"] += 10


def test_other_keys_and_version_numbers_are_the_same_tournament():
    assert edit(renumbered) == ORIGINAL


def test_one_name_typed_in_two_unicode_forms_is_one_name():
    def decomposed(d):
        d["tournament"]["name"] = unicodedata.normalize("NFD", "Lancre Åpen")
        d["entries"][0]["player"]["name"] = unicodedata.normalize("NFD", "Esmé")

    def composed(d):
        d["tournament"]["name"] = unicodedata.normalize("NFC", "Lancre Åpen")
        d["entries"][0]["player"]["name"] = unicodedata.normalize("NFC", "Esmé")

    assert edit(decomposed) == edit(composed) != ORIGINAL


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda d: d["tournament"].update(name="Lancre Open 2"), id="renamed"),
        pytest.param(lambda d: d["tournament"].update(game="cavalli"), id="another game"),
        pytest.param(lambda d: d["tournament"].update(start_date="2026-05-03"), id="start"),
        pytest.param(lambda d: d["tournament"].update(end_date=None), id="end"),
        pytest.param(
            lambda d: d["entries"][1]["player"].update(name="Gytha  Ogg"), id="a player renamed"
        ),
        pytest.param(
            lambda d: d["entries"].append({"key": 4, "player": {"name": "Agnes Nitt"}}),
            id="an entry more",
        ),
        pytest.param(lambda d: d["rounds"].pop(), id="a round fewer"),
        pytest.param(lambda d: d["rounds"][1].update(stage="knockout"), id="a round's stage"),
        pytest.param(lambda d: d["rounds"][0]["matches"][0].update(table=3), id="a table"),
        pytest.param(lambda d: d["rounds"][0]["matches"][0].update(a=2, b=1), id="sides swapped"),
        pytest.param(
            lambda d: d["rounds"][0]["matches"][0].update(confirmed_version=1), id="the counted"
        ),
        pytest.param(
            lambda d: d["rounds"][0]["matches"][0]["versions"][1].update(result=[20, 3, 18, 3]),
            id="a result",
        ),
        pytest.param(
            lambda d: d["rounds"][1]["matches"][0].update(
                confirmed_version=1, versions=[version(1, [1, 1, 1, 1])]
            ),
            id="a result more",
        ),
    ],
)
def test_edited_content_is_another_tournament(change):
    assert edit(change) != ORIGINAL


def test_the_canonical_form_names_players_not_keys():
    form = canonical(document())
    assert form["entries"] == ["Esme Weatherwax", "Gytha Ogg", "Magrat Garlick"]
    assert form["rounds"][0][2][0] == [1, "Esme Weatherwax", "Gytha Ogg", [20, 3, 18, 2]]
    assert form["rounds"][0][2][1] == [2, "Magrat Garlick", None, None]
    assert "slug" not in form and "created_at" not in form


def test_the_document_is_not_changed():
    doc = document()
    before = copy.deepcopy(doc)
    fingerprint(doc)
    assert doc == before
