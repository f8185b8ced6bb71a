"""Dates and numbers follow the page's language; the API and the CSV export do not."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from .support import visible_text

NOV_12 = date(2026, 11, 12)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "12 November 2026"), ("it", "12 nov 2026"), ("nb", "12. nov. 2026")],
)
def test_dates_use_the_languages_medium_format(language, expected):
    template = Template("{{ day|date }}|{{ day }}|{% load l10n %}{{ day|localize }}")
    with translation.override(language):
        assert template.render(Context({"day": NOV_12})) == "|".join([expected] * 3)


def test_norwegian_may_has_no_abbreviation_dot():
    with translation.override("nb"):
        assert Template("{{ day|date }}").render(Context({"day": date(2026, 5, 3)})) == (
            "3. mai 2026"
        )


def sonneborn_berger_cells(html: str) -> list[str]:
    """The Sonneborn–Berger column (the 8th) of the standings table."""
    table = html[html.index('<table class="standings"') :]
    rows = re.findall(r"<tr[^>]*>\s*<td>.*?</tr>", table, flags=re.S)
    return [
        visible_text(re.findall(r"<t[dh][^>]*>.*?</t[dh]>", row, flags=re.S)[7]) for row in rows
    ]


@pytest.mark.parametrize(("language", "half"), [("en", "0.5"), ("it", "0,5"), ("nb", "0,5")])
def test_standings_show_sonneborn_berger_halves_in_the_languages_decimals(
    client, world, language, half
):
    html = client.get(
        reverse("standings", args=[world.tournament.slug]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    # The drawn match: both players score half their opponent's 1 point.
    assert sonneborn_berger_cells(html) == [half, half, "0", "0"]


def test_api_is_the_same_in_every_language(client, world):
    slug = world.tournament.slug
    for name, args in [
        ("api_standings", [slug]),
        ("api_tournament", [slug]),
        ("api_round_pairings", [slug, 1]),
    ]:
        url = reverse(name, args=args)
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
        assert italian.content == english.content, name
    rows = json.loads(
        client.get(reverse("api_standings", args=[slug]), HTTP_ACCEPT_LANGUAGE="it").content
    )
    assert set(rows[0]) == {
        "rank",
        "name",
        "played",
        "match_points",
        "differential",
        "buchholz",
        "sonneborn_berger",
        "battles_won",
    }
    assert rows[0]["sonneborn_berger"] == 0.5
    assert (
        b'"sonneborn_berger": 0.5'
        in client.get(reverse("api_standings", args=[slug]), HTTP_ACCEPT_LANGUAGE="it").content
    )


def test_csv_export_is_language_neutral_while_italian_is_active(world):
    out = io.StringIO()
    with translation.override("it"):
        call_command("export_standings", world.tournament.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(rows[0]) == [
        "rank",
        "name",
        "played",
        "match_points",
        "differential",
        "buchholz",
        "sonneborn_berger",
        "battles_won",
    ]
    assert rows[0]["sonneborn_berger"] == "0.5"
