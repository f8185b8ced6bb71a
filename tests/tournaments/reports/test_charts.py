"""Server-side SVG charts: pure functions of numbers and labels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from thud_site.svg import shorten, text_width
from tournaments.reports.charts import (
    MARKERS,
    Bar,
    Line,
    bar_chart,
    dash,
    rank_chart,
)

SVG = "{http://www.w3.org/2000/svg}"
LONG = "Bartholomew Featherstonehaugh-Worthington"  # 41 characters, W and M among them


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output


def view_box(root: ET.Element) -> tuple[float, float]:
    _x, _y, width, height = map(float, root.get("viewBox").split())
    assert (root.get("width"), root.get("height")) == (f"{width:g}", f"{height:g}")
    return width, height


def text_boxes(root: ET.Element) -> list[tuple[str, float, float, float]]:
    """Each <text>'s content, left and right edge (by ``text_width``) and baseline."""
    boxes = []
    for t in root.iter(f"{SVG}text"):
        x, width = float(t.get("x")), text_width(t.text)
        left = {"end": x - width, "middle": x - width / 2}.get(t.get("text-anchor"), x)
        boxes.append((t.text, left, left + width, float(t.get("y"))))
    return boxes


def test_bar_lengths_are_proportional_to_the_percentages():
    svg = bar_chart(
        [Bar("Dwarfs", 59.92, "59.92 %"), Bar("Trolls", 100.0, "100 %")],
        title="Sides",
        labelled_by="c",
    )
    widths = re.findall(r'<rect class="chart-bar chart-s\d" x="\d+" y="\d+" width="([\d.]+)"', svg)
    assert widths == ["119.8", "200.0"]  # 59.92 % and 100 % of 200


def test_labels_are_escaped():
    svg = bar_chart([Bar("<b>&", 10.0, "10 %")], title='"x"', labelled_by='"c"')
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg and "&quot;x&quot;" in svg
    assert 'aria-labelledby="&quot;c&quot;"' in svg
    svg = rank_chart([Line("<i>", [1])], round_labels=["<R1>"], title="t", labelled_by="c")
    assert "<i>" not in svg and "&lt;R1&gt;" in svg


def test_charts_are_images_named_by_their_caption_with_their_own_background():
    for svg in (
        bar_chart([Bar("A", 1.0, "1 %")], title="Sides", labelled_by="side-caption"),
        rank_chart([Line("Ann", [1])], round_labels=["R1"], title="t", labelled_by="side-caption"),
    ):
        root = parse(svg)
        assert root.get("role") == "img" and root.get("aria-labelledby") == "side-caption"
        background = root.find(f"{SVG}rect")
        assert background.get("class") == "chart-bg"
        assert (background.get("width"), background.get("height")) == (
            root.get("width"),
            root.get("height"),
        )


def test_rank_chart_draws_one_polyline_per_player_rank_one_on_top():
    svg = rank_chart(
        [Line("Ann", [2, 1]), Line("Bo", [1, 2])],
        round_labels=["R1", "R2"],
        title="Ranks",
        labelled_by="c",
    )
    lines = re.findall(r'<polyline class="chart-line chart-s\d" points="([^"]+)"', svg)
    assert len(lines) == 2
    (ann_start, ann_end), (bo_start, bo_end) = (p.split() for p in lines)
    y = lambda point: float(point.split(",")[1])  # noqa: E731
    assert y(ann_start) > y(ann_end)  # Ann climbs from 2nd to 1st: upwards
    assert y(bo_start) < y(bo_end)
    assert "R1" in svg and "R2" in svg


def test_every_text_of_a_chart_with_a_long_name_is_inside_the_view_box():
    ranks = [[1, 1, 2], [2, 3, 1], [3, 2, 3]]
    names = ["Ann", LONG, "WWWWWWWWWWMMMMMMMMMM"]
    svg = rank_chart(
        [Line(n, r) for n, r in zip(names, ranks, strict=True)],
        round_labels=["R1", "R2", "R3"],
        title="t",
        labelled_by="c",
    )
    root = parse(svg)
    width, height = view_box(root)
    boxes = text_boxes(root)
    assert {"Ann", "WWWWWWWWWWMMMMMMMMMM", shorten(LONG)} <= {b[0] for b in boxes}
    for text, left, right, baseline in boxes:
        assert left >= 0 and right <= width, text
        assert 14 <= baseline <= height - 4, text  # room for the ascent and the descent
    # The full long name stays in the line's <title> (hover), though its label is shortened.
    assert LONG in [t.text for t in root.iter(f"{SVG}title")]


def test_the_label_column_grows_with_the_longest_name():
    def width(name: str) -> float:
        root = parse(rank_chart([Line(name, [1])], round_labels=["R1"], title="t", labelled_by="c"))
        return view_box(root)[0]

    assert width("AnnWWWWWWWWWW") - width("Ann") >= text_width("WWWWWWWWWW") - 1
    short = bar_chart([Bar("Won", 1.0, "1 %")], title="t", labelled_by="c")
    long = bar_chart([Bar("Vittorie con i troll", 1.0, "1 %")], title="t", labelled_by="c")
    grown = view_box(parse(long))[0] - view_box(parse(short))[0]
    assert grown >= text_width("Vittorie con i troll") - text_width("Won") - 1
    for text, left, right, _ in text_boxes(parse(long)):
        assert left >= 0 and right <= view_box(parse(long))[0], text


def test_labels_of_tied_players_do_not_overlap():
    lines = [Line(f"Player {n}", [n, 1]) for n in range(1, 6)]  # five tied first at the end
    root = parse(rank_chart(lines, round_labels=["R1", "R2"], title="t", labelled_by="c"))
    labels = sorted(
        float(t.get("y")) for t in root.iter(f"{SVG}text") if t.get("class") == "chart-label"
    )
    assert len(labels) == 5
    assert all(b - a >= 18 for a, b in zip(labels, labels[1:], strict=False))


def test_a_big_field_keeps_every_label_readable_and_inside():
    lines = [Line(f"Entrant {n:03d}", [n, n]) for n in range(1, 17)]
    root = parse(rank_chart(lines, round_labels=["R1", "R2"], title="t", labelled_by="c"))
    width, height = view_box(root)
    for text, left, right, baseline in text_boxes(root):
        assert left >= 0 and right <= width and baseline <= height - 4, text


def test_colour_is_not_the_only_cue_series_differ_in_marker_or_dash():
    cues = {(n % len(MARKERS), dash(n)) for n in range(16)}
    assert len(cues) == 16  # the 16 lines of the report: no two alike without their colour
    svg = rank_chart(
        [Line(f"P{n}", [n + 1]) for n in range(3)], round_labels=["R1"], title="t", labelled_by="c"
    )
    assert "<circle" in svg and "<rect" in svg and "<polygon" in svg  # circle, square, triangle


def test_shortened_labels_keep_their_start_and_say_so():
    assert shorten(LONG) == LONG[:27] + "…" and len(shorten(LONG)) == 28
    assert shorten("Ann") == "Ann"
