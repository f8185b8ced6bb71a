"""The rating history chart (pure): one marker per period, the ± RD band, ticks, escaping."""

from __future__ import annotations

import re

from tournaments.reports.rating_chart import PLOT_MIN, WIDTH_MAX, Point, rating_chart


def test_one_marker_per_period_and_a_band_around_the_line():
    points = [Point("1", 1662.3, 290.0), Point("2", 1791.9, 247.5), Point("3", 1750.0, 200.0)]
    svg = rating_chart(points, title="History", labelled_by="cap")
    assert svg.count("<circle") == 3
    assert len(re.findall(r'<polyline[^>]*points="([^"]*)"', svg)[0].split()) == 3
    band = re.findall(r'<polygon[^>]*points="([^"]*)"', svg)[0].split()
    assert len(band) == 6  # upper edge there, lower edge back
    assert 'aria-labelledby="cap"' in svg and "<title>History</title>" in svg
    # The axis spans rating ± RD: from 1350 (1662 - 290, rounded down) up.
    ticks = [int(t) for t in re.findall(r'text-anchor="end">(\d+)</text>', svg)]
    assert ticks[0] <= 1400 and ticks[-1] >= 2000


def test_higher_ratings_are_drawn_higher():
    svg = rating_chart([Point("1", 1500, 100), Point("2", 1700, 100)], title="t", labelled_by="c")
    ys = [float(y) for y in re.findall(r'<circle[^>]*cy="([\d.]+)"', svg)]
    assert ys[1] < ys[0]


def test_text_is_escaped_and_no_points_still_draw_a_chart():
    svg = rating_chart([Point("<b>", 1500, 50)], title="<script>", labelled_by="c")
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&lt;b&gt;" in svg
    empty = rating_chart([], title="t", labelled_by="c")
    assert empty.startswith("<svg") and empty.endswith("</svg>") and "<polyline" not in empty


def _width(svg: str) -> float:
    return float(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))


def test_a_short_history_spans_the_least_plot_width_and_a_long_one_stays_within_the_most():
    two = rating_chart([Point("1", 1600, 250), Point("2", 1580, 200)], title="t", labelled_by="c")
    many = rating_chart(
        [Point(str(i), 1500 + i, 100) for i in range(1, 60)], title="t", labelled_by="c"
    )
    assert _width(two) >= PLOT_MIN
    assert _width(many) <= WIDTH_MAX
