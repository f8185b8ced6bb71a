"""static/js/clock.js redraws the clock panel's line under the time in the battle's words:
Thud's own sentences for its sides, the side's name from the page for any other game.

The script runs in Node against a stub of the few DOM calls it makes (the panel's data
attributes in, the text of ``[data-role=info]`` out), without Django's catalog (English).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

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
process.stdout.write(parts.info.textContent);
"""


def info_line(**dataset: str) -> str:
    """The text clock.js writes under the time for a panel with these ``data-*``."""
    base = {"version": "1", "status": "running", "remainingMs": "", "thinkRemainingMs": ""}
    run = subprocess.run(
        [NODE, "-e", STUB, json.dumps(base | dataset), str(CLOCK_JS)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return run.stdout


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
