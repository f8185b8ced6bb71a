"""static/js/hall.js counts the hall's running clocks down from the moments they end
(``data-think-ends-ms``, ``data-ends-ms``) against the server's time of the answer
(``X-Server-Now``), whatever this screen's own clock says: what it shows is
``games.rules.clock_face.shown_ms`` at the server's now, in whole seconds rounded up,
marked low from 5 s.

Node runs the script against a stub of the DOM and of fetch, with the screen's clock
set apart from the server's."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from games.rules.clock_face import shown_ms

HALL_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "hall.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node")

STUB = """
const fs = require("fs"), vm = require("vm");
const [clocks, serverNow, screenNow] = JSON.parse(process.argv[1]);
Date.now = () => screenNow;
const faces = clocks.map(c => ({ dataset: c, textContent: "?", classes: new Set(),
  classList: null }));
faces.forEach(f => { f.classList = { toggle(c, on) { on ? f.classes.add(c) : f.classes.delete(c); } }; });
global.window = global;
global.setInterval = function () {};
global.setTimeout = function () {};
global.fetch = () => Promise.resolve({ ok: true,
  headers: { get(name) { return name === "X-Server-Now" ? String(serverNow) : null; } },
  text() { return Promise.resolve("<ul></ul>"); } });
global.document = {
  body: { dataset: { every: "12", battlesUrl: "/battles/hall/t/" } },
  getElementById(id) { return id === "hall-battles" ? {} : null; },
  querySelectorAll(sel) { return sel.includes("data-ends-ms") ? faces : []; },
};
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
setImmediate(() => process.stdout.write(JSON.stringify(
  faces.map(f => ({ text: f.textContent, low: f.classes.has("low") })))));
"""


def shown(clocks: list[dict[str, int]], *, server_now: int, screen_now: int) -> list[dict]:
    data = [{"endsMs": str(c["ends_ms"]), "thinkEndsMs": str(c["think_ends_ms"])} for c in clocks]
    run = subprocess.run(
        [NODE, "-e", STUB, json.dumps([data, server_now, screen_now]), str(HALL_JS)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(run.stdout)


SERVER = 1_767_225_600_000  # epoch ms

CLOCKS = [
    {"ends_ms": SERVER + 20_000, "think_ends_ms": SERVER + 15_000},  # thinking: 15
    {"ends_ms": SERVER + 4_200, "think_ends_ms": SERVER - 800},  # moving, low: 5
    {"ends_ms": SERVER + 9_000, "think_ends_ms": 0},  # touched (no think): 9
    {"ends_ms": SERVER - 300, "think_ends_ms": SERVER - 5_300},  # over, not settled: 0
    {"ends_ms": SERVER + 5_001, "think_ends_ms": SERVER + 1},  # 1 ms of think left
]


@pytest.mark.parametrize("skew_ms", [0, 90_000, -3_600_000])
def test_the_screen_shows_the_servers_time_left_whatever_its_own_clock(skew_ms):
    faces = shown(CLOCKS, server_now=SERVER, screen_now=SERVER + skew_ms)
    expected = []
    for c in CLOCKS:
        clock = c | {"think_ends_ms": c["think_ends_ms"] or None}
        ms = shown_ms(clock, SERVER)
        assert ms is not None
        expected.append({"text": str(math.ceil(ms / 1000)), "low": ms <= 5_000})
    assert faces == expected
    assert [f["text"] for f in faces] == ["15", "5", "9", "0", "1"]


ROTATION = """
const fs = require("fs"), vm = require("vm");
const kinds = JSON.parse(process.argv[1]);
const fetched = [], intervals = [], listeners = {};
const list = kinds.map(kind => {
  const el = { dataset: { kind }, classes: new Set() };
  el.classList = { toggle(c, on) { on ? el.classes.add(c) : el.classes.delete(c); },
                   contains(c) { return el.classes.has(c); } };
  return el;
});
global.window = global;
global.setInterval = (f, ms) => intervals.push([f, ms]);
global.setTimeout = f => { f(); };
global.EventSource = function () { this.addEventListener = (name, f) => { listeners[name] = f; }; };
global.fetch = url => { fetched.push(url); return Promise.resolve({ ok: true,
  headers: { get() { return null; } }, text() { return Promise.resolve(""); } }); };
global.document = {
  body: { dataset: { every: "12", battlesUrl: "/battles/hall/t/?lang=nb", eventsUrl: "/e" } },
  getElementById(id) { return id === "hall-battles" ? {} : null; },
  querySelectorAll(sel) { return sel.includes("hall-slide") ? list : []; },
};
vm.runInThisContext(fs.readFileSync(process.argv[2], "utf8"));
const rotate = intervals.find(([, ms]) => ms === 12000)[0];
const settle = () => new Promise(r => setImmediate(r));
const shown = () => list.findIndex(s => s.classes.has("current"));
(async () => {
  const steps = [];
  for (const step of process.argv[3].split(",")) {
    await settle();
    step === "rotate" ? rotate() : listeners.battle();
    await settle();
    steps.push([step, shown(), fetched.length]);
  }
  process.stdout.write(JSON.stringify({ fetched, steps }));
})();
"""


def test_the_screen_fetches_the_battles_slide_it_shows_before_showing_it_and_no_other():
    """One slide of live battles at a time (issue 44): the screen asks for the Nth
    live-battles slide as it turns to it, refetches it on a battle's change while it is on
    screen, and fetches nothing for a change while another kind of slide is."""
    kinds = ["tables", "battles", "battles", "standings"]
    steps = "battle,rotate,battle,rotate,rotate,battle"
    run = subprocess.run(
        [NODE, "-e", ROTATION, json.dumps(kinds), str(HALL_JS), steps],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    out = json.loads(run.stdout)
    assert [u.rsplit("?", 1)[1] for u in out["fetched"]] == [
        "lang=nb&slide=0",  # on load (the tables on screen)
        "lang=nb&slide=0",  # turning to the first live-battles slide
        "lang=nb&slide=0",  # a battle changed while it is on screen
        "lang=nb&slide=1",  # turning to the second
    ]
    assert out["steps"] == [
        ["battle", 0, 1],  # the tables on screen: nothing fetched
        ["rotate", 1, 2],
        ["battle", 1, 3],
        ["rotate", 2, 4],
        ["rotate", 3, 4],  # the standings: nothing to fetch
        ["battle", 3, 4],
    ]
