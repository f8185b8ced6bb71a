"""Server-side SVG charts: pure functions of numbers and labels."""

from __future__ import annotations

import re

from tournaments.reports.charts import Bar, Line, bar_chart, rank_chart


def test_bar_lengths_are_proportional_to_the_percentages():
    svg = bar_chart(
        [Bar("Dwarfs", 59.92, "59.92 %", "#111"), Bar("Trolls", 100.0, "100 %", "#222")],
        title="Sides",
    )
    widths = re.findall(r'<rect x="120" y="\d+" width="([\d.]+)" height="\d+" fill="#\d+"', svg)
    assert widths == ["119.8", "200.0"]  # 59.92 % and 100 % of 200


def test_labels_are_escaped():
    svg = bar_chart([Bar("<b>&", 10.0, "10 %", "#000")], title='"x"')
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg and "&quot;x&quot;" in svg


def test_rank_chart_draws_one_polyline_per_player_rank_one_on_top():
    svg = rank_chart(
        [Line("Ann", [2, 1]), Line("Bo", [1, 2])],
        players=2,
        round_labels=["R1", "R2"],
        title="Ranks",
    )
    lines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(lines) == 2
    (ann_start, ann_end), (bo_start, bo_end) = (p.split() for p in lines)
    y = lambda point: int(point.split(",")[1])  # noqa: E731
    assert y(ann_start) > y(ann_end)  # Ann climbs from 2nd to 1st: upwards
    assert y(bo_start) < y(bo_end)
    assert "R1" in svg and "R2" in svg
