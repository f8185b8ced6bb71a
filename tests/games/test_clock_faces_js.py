"""static/js/clock.js draws the battle page's two clocks from the server's state: the side
to move counts down on its own face (marked active, its phase named), the other waits;
at 5 s the player whose clock it is gets a warning class, an announcement and, when they
switched the sound on (remembered in localStorage), a beep. The waiting player reads
whose turn it is instead of the opponent's "MOVE NOW".

Node runs the script against a stub of the DOM calls it makes, without Django's catalog.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

CLOCK_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "clock.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node")

STUB = """
const fs = require("fs"), vm = require("vm");
const [data, sound] = [JSON.parse(process.argv[1]), process.argv[3]];
function el() { return { textContent: "", classes: new Set(),
  classList: { toggle(c, on) { on ? this.o.classes.add(c) : this.o.classes.delete(c); },
               remove(c) { this.o.classes.delete(c); } } }; }
function face(side) {
  const f = el(); f.classList.o = f; f.dataset = { clockSide: side };
  f.parts = { time: el(), state: el() };
  f.querySelector = sel => f.parts[sel.match(/data-face=(\\w+)/)[1]];
  return f;
}
const parts = { label: el(), time: null, info: el() };
const faces = [face("b"), face("a")];
const panel = { dataset: data, className: "clock two-clocks", classList: { toggle() {}, remove() {} },
  querySelector(sel) { return parts[sel.match(/data-role=(\\w+)/)[1]]; },
  querySelectorAll() { return faces; } };
const alertRegion = { textContent: "" };
let beeps = 0;
global.window = global;
global.localStorage = { getItem() { return sound; }, setItem() {} };
global.AudioContext = function () { return { currentTime: 0, destination: {},
  createOscillator() { return { frequency: {}, connect() {}, start() { beeps++; }, stop() {} }; },
  createGain() { return { gain: {}, connect() {} }; } }; };
global.setTimeout = fn => fn();
global.document = {
  readyState: "complete", hidden: false,
  getElementById(id) { return id === "clock-panel" ? panel : id === "announcer-alert" ? alertRegion : null; },
  addEventListener() {},
  body: { getAttribute() { return ""; } },
};
global.setInterval = function () {};
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify({
  label: parts.label.textContent, alert: alertRegion.textContent, beeps,
  faces: faces.map(f => ({ side: f.dataset.clockSide, classes: [...f.classes].sort(),
                           time: f.parts.time.textContent, state: f.parts.state.textContent })),
}));
"""


def draw(sound: str = "off", **dataset: str) -> dict:
    base = {
        "version": "3",
        "status": "running",
        "side": "a",
        "mySide": "a",
        "timing": "quickfire",
        "thinkMs": "15000",
        "remainingMs": "12000",
        "thinkRemainingMs": "7000",
        "ply": "0",
    }
    run = subprocess.run(
        [NODE, "-e", STUB, json.dumps(base | dataset), str(CLOCK_JS), sound],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(run.stdout)


def test_the_side_to_move_counts_down_on_its_face_and_the_other_waits():
    out = draw()
    waiting, mine = out["faces"]
    assert mine["classes"] == ["active", "phase-think"] and mine["state"] == "Think"
    assert mine["time"] == "7"  # think seconds left, rounded up
    assert waiting["classes"] == [] and (waiting["time"], waiting["state"]) == ("15", "Waiting")
    assert out["alert"] == "" and out["beeps"] == 0  # 12 s left: no warning yet


def test_at_five_seconds_the_player_is_warned_and_beeped_at_only_with_sound_on():
    quiet = draw(remainingMs="4200", thinkRemainingMs="0")
    assert "warn" in quiet["faces"][1]["classes"] and "phase-move" in quiet["faces"][1]["classes"]
    assert quiet["alert"] == "5 seconds left to move"
    assert quiet["beeps"] == 0  # the sound is off by default
    assert draw("on", remainingMs="4200", thinkRemainingMs="0")["beeps"] == 1


def test_the_waiting_player_reads_whose_turn_it_is_not_move_now():
    out = draw(side="b", remainingMs="3000", thinkRemainingMs="0")
    assert out["label"] == "Your opponent must move now"
    assert out["alert"] == ""  # the opponent's 5 s are not this player's warning
    assert "active" in out["faces"][0]["classes"]
    assert out["faces"][0]["state"] == "MOVE NOW"


def test_a_spectator_sees_the_phase_of_the_side_to_move():
    assert draw(mySide="", side="b")["label"] == "Think"
