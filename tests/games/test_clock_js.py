"""static/js/clock.js redraws the clock panel's line under the time in the battle's words:
Thud's own sentences for its sides, the side's name from the page for any other game,
and on the referee's one clock the player to move with their side. Its figure is the
server's (``presenters.clock_reading``), running and paused alike.

The script runs in Node against a stub of the few DOM calls it makes (the panel's data
attributes in, the text of ``[data-role=label|time|info]`` out), without Django's catalog
(English).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.web import presenters

CLOCK_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "clock.js"
NODE = shutil.which("node")

STUB = """
const fs = require("fs"), vm = require("vm");
const data = JSON.parse(process.argv[1]);
const parts = {};
for (const role of ["label", "time", "info"]) parts[role] = { textContent: "" };
const panel = {
  dataset: data, className: "clock", classList: { toggle() {}, remove() {} },
  querySelector(sel) { return parts[sel.match(/data-role=(\\w+)/)[1]]; },
};
global.window = global;
global.document = {
  readyState: "complete", hidden: false,
  getElementById(id) { return id === "clock-panel" ? panel : null; },
  addEventListener() {},
  body: { getAttribute() { return ""; } },
};
global.setInterval = function () {};
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify({
  label: parts.label.textContent, time: parts.time.textContent, info: parts.info.textContent,
}));
"""


def drawn(**dataset: str) -> dict[str, str]:
    """The label, time and line under it that clock.js draws for a panel with these ``data-*``."""
    base = {"version": "1", "status": "running", "remainingMs": "", "thinkRemainingMs": ""}
    run = subprocess.run(
        [NODE, "-e", STUB, json.dumps(base | dataset), str(CLOCK_JS)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(run.stdout)


def info_line(**dataset: str) -> str:
    """The text clock.js writes under the time."""
    return drawn(**dataset)["info"]


pytestmark = pytest.mark.skipif(NODE is None, reason="needs node")

CAVALLI_NAMES = json.dumps({"white": "White", "black": "Black"})
THUD_NAMES = json.dumps({"dwarf": "Dwarfs", "troll": "Trolls"})


@pytest.mark.parametrize(("side", "name"), [("white", "White"), ("black", "Black")])
def test_move_limit_names_a_cavalli_side(side, name):
    line = info_line(side=side, ply="3", maxPlies="48", sideNames=CAVALLI_NAMES)
    assert line == f"Move 2 of 24 ({name})"


@pytest.mark.parametrize(("side", "name"), [("dwarf", "Dwarfs"), ("troll", "Trolls")])
def test_move_limit_names_a_thud_side_as_the_page_does(side, name):
    line = info_line(side=side, ply="2", maxPlies="48", sideNames=THUD_NAMES)
    assert line == f"Move 2 of 24 ({name})"


def test_without_a_move_limit_the_side_to_move_is_named():
    assert info_line(side="black", ply="1", sideNames=CAVALLI_NAMES) == "Black to move"


def test_the_referee_clock_names_the_player_to_move_with_the_side():
    players = json.dumps({"dwarf": "Agnes Nitt", "troll": "Nanny Ogg"})
    both = {"sideNames": THUD_NAMES, "sidePlayers": players}
    assert info_line(side="troll", ply="1", maxPlies="48", **both) == (
        "Move 1 of 24: Nanny Ogg (Trolls)"
    )
    assert info_line(side="dwarf", ply="2", **both) == "Agnes Nitt (Dwarfs) to move"
    # A seat nobody has taken: the side alone.
    empty = json.dumps({"dwarf": "", "troll": ""})
    assert info_line(side="dwarf", ply="2", sideNames=THUD_NAMES, sidePlayers=empty) == (
        "Dwarfs to move"
    )


@pytest.mark.parametrize(
    ("remaining", "think", "running_label", "paused_label"),
    [
        (17_400, 12_400, "Think", "Paused (think)"),
        (20_000, 15_000, "Think", "Paused (think)"),
        (3_460, 0, "MOVE NOW", "Paused (move)"),
    ],
)
def test_the_figure_is_the_servers_running_and_paused(
    remaining, think, running_label, paused_label
):
    """The page's first figure (the server's) stays as the script counts down, and a
    paused clock shows the figure it will count down from: never "Think 13" running and
    "Paused 17.4" paused."""
    snap = {"remaining_ms": remaining, "think_remaining_ms": think}
    reading = presenters.clock_reading(snap)
    server = str(reading["seconds"]) if reading["kind"] == "think" else f"{reading['seconds']:.1f}"
    data = {"remainingMs": str(remaining), "thinkRemainingMs": str(think), "side": "dwarf"}
    running = drawn(**data)
    paused = drawn(status="paused", **data)
    assert (running["label"], running["time"]) == (running_label, server)
    assert (paused["label"], paused["time"]) == (paused_label, server)
