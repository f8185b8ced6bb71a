from __future__ import annotations

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.factories import tournament_with_players
from tournaments.reports import csv_safe
from tournaments.results.final import record_final_result
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.play import publish_round

FORMULAS = ['=HYPERLINK("http://evil","x")', "+1+2", "-3+4", "@SUM(A1:A2)", "\tx", "\rx"]


@pytest.mark.parametrize("text", FORMULAS)
def test_each_formula_prefix_is_neutralised_with_a_quote(text):
    assert csv_safe.safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Vimes", "a=b", "", -5, 0, 2.5, None])
def test_other_cells_and_every_number_are_left_alone(value):
    assert csv_safe.safe_cell(value) == value


def test_writer_and_dict_writer_neutralise_every_row():
    out = StringIO()
    csv_safe.writer(out, lineterminator="\n").writerows([["=1+2", -5], ["@x", "ok"]])
    assert out.getvalue() == "'=1+2,-5\n'@x,ok\n"
    out = StringIO()
    writer = csv_safe.DictWriter(out, fieldnames=["name", "diff"], lineterminator="\n")
    writer.writeheader()
    writer.writerows([{"name": "+1+2", "diff": -5}])
    writer.writerow({"name": "-3", "diff": 3})
    assert out.getvalue() == "name,diff\n'+1+2,-5\n'-3,3\n"


@pytest.mark.django_db
# Not "\rx": with export_standings' "\n" line ends the csv module leaves a CR unquoted,
# so no reader could get that name back (imports and forms refuse CR in names).
@pytest.mark.parametrize("name", FORMULAS[:-1])
def test_export_standings_csv_writes_no_formula_cell_and_keeps_numbers(name):
    t = tournament_with_players(2)
    player = t.entries.get(seed=1).player
    player.name = name
    player.save()
    match = publish_round(
        pair_next_round(t, by=None, now=timezone.now()), now=timezone.now()
    ).matches.get()
    record_final_result(
        match, survivors=(0, 8, 32, 0), by=None, source="import", now=timezone.now()
    )
    out = StringIO()
    call_command("export_standings", t.slug, "--format=csv", stdout=out)
    header, *rows = csv.reader(io.StringIO(out.getvalue(), newline=""))
    names = {row[header.index("name")] for row in rows}
    assert "'" + name in names and name not in names
    differentials = sorted(int(row[header.index("differential")]) for row in rows)
    assert differentials[0] < 0 < differentials[1]
