// The quickfire clock display. The server is the authority: every SSE "state" event
// carries remaining_ms / think_remaining_ms and a version; we count down locally from
// performance.now() and never decide an expiry. At 0 we show "0.0 waiting…" and POST a
// nudge once per version; the server settles and the next event redraws us.
// Words and the decimal separator come from Django's JavaScript catalog (/jsi18n/, loaded
// before this file by the page); without it the clock still works, in English.
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (m, key) { return String(obj[key]); });
  };
  function decimal(x) {
    var sep = window.get_format ? window.get_format("DECIMAL_SEPARATOR") : ".";
    return x.toFixed(1).replace(".", sep);
  }
  var st = { version: -1, base: 0, remaining: null, think: null, status: "", side: "",
             ply: 0, maxPlies: null, nudged: -1 };
  var sources = new WeakSet();
  var newest = -1;  // the highest version any "state" event has carried

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  // Correspondence: days, then hh:mm:ss.
  function long(ms) {
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400);
    var hms = pad(Math.floor(s % 86400 / 3600)) + ":" + pad(Math.floor(s % 3600 / 60)) + ":" + pad(s % 60);
    return d ? interpolate(gettext("%(days)s d %(time)s"), { days: d, time: hms }, true) : hms;
  }

  // The figure of the clock, running or stopped alike (games/web/presenters.py's
  // clock_reading draws the same): while think time is left, its whole seconds rounded
  // up; after it, the turn's seconds to the tenth. Correspondence: days and hh:mm:ss.
  function reading(p, left, thinkLeft) {
    if (p.dataset.timing === "correspondence") return { kind: "think", text: long(left) };
    if (thinkLeft > 0) return { kind: "think", text: String(Math.ceil(thinkLeft / 1000)) };
    return { kind: "move", text: decimal(Math.floor(Math.max(0, left) / 100) / 10) };
  }

  function panel() { return document.getElementById("clock-panel"); }
  function num(v) { return v === "" || v === null || v === undefined ? null : Number(v); }

  function apply(d) {
    if (d.version < st.version) return;  // an older message: ignore
    st.version = d.version;
    st.base = performance.now();
    st.remaining = num(d.remaining_ms);
    st.think = num(d.think_remaining_ms);
    st.status = d.status; st.side = d.side; st.ply = d.ply; st.maxPlies = num(d.max_plies);
    render();
  }

  function fromPanel() {
    var p = panel();
    if (!p) return;
    apply({ version: Number(p.dataset.version), remaining_ms: p.dataset.remainingMs,
            think_remaining_ms: p.dataset.thinkRemainingMs, status: p.dataset.status,
            side: p.dataset.side, ply: Number(p.dataset.ply), max_plies: p.dataset.maxPlies });
  }

  function nudge() {
    var live = document.getElementById("live");
    if (!live || st.nudged === st.version) return;
    st.nudged = st.version;
    var token = (document.body.getAttribute("hx-headers") || "").match(/"X-CSRFToken": "([^"]+)"/);
    fetch(live.dataset.nudgeUrl, { method: "POST", credentials: "same-origin",
                                   headers: token ? { "X-CSRFToken": token[1] } : {} });
  }

  // The 5 s warning: once per turn (version), for the player whose clock it is.
  var warned = -1, WARN_MS = 5000;
  function soundOn() {
    try { return window.localStorage.getItem("thud-clock-sound") === "on"; } catch (e) { return false; }
  }
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      var ctx = new Ctx(), osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880; gain.gain.value = 0.15;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.18);
    } catch (e) { /* no sound: the visual warning stays */ }
  }
  function say(text) {
    var region = document.getElementById("announcer-alert");
    if (!region) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }
  function warn(p, left) {
    if (warned === st.version) return;
    warned = st.version;
    if (!p.dataset.mySide || p.dataset.mySide !== st.side) return;
    say(interpolate(gettext("%(seconds)s seconds left to move"),
                    { seconds: Math.ceil(left / 1000) }, true));
    if (soundOn()) beep();
  }

  // Two faces (the battle page): the side to move counts down, the other waits. The
  // active face is marked by a ▶, a thicker frame and its words, not by colour alone.
  function faces(p, phase, shown, phaseWord, left) {
    var list = p.querySelectorAll ? p.querySelectorAll(".clock-face") : [];
    var running = st.status === "running";
    var thinkMs = num(p.dataset.thinkMs);
    Array.prototype.forEach.call(list, function (face) {
      var active = running && face.dataset.clockSide === st.side;
      var time = face.querySelector("[data-face=time]"), state = face.querySelector("[data-face=state]");
      face.classList.toggle("active", active);
      face.classList.toggle("phase-think", active && phase === "think");
      face.classList.toggle("phase-move", active && phase === "move");
      face.classList.toggle("warn", active && left !== null && left <= WARN_MS && p.dataset.timing !== "correspondence");
      if (active) {
        time.textContent = shown;
        state.textContent = phaseWord;
      } else {
        time.textContent = running && st.remaining !== null && thinkMs !== null && p.dataset.timing !== "correspondence"
          ? String(Math.round(thinkMs / 1000)) : "–";
        state.textContent = running ? gettext("Waiting") : "";
      }
    });
  }

  function render() {
    var p = panel();
    if (!p) return;
    var sideNames = p.dataset.sideNames ? JSON.parse(p.dataset.sideNames) : {};
    // The referee's one clock names the player to move too (the faces name them elsewhere).
    var players = p.dataset.sidePlayers ? JSON.parse(p.dataset.sidePlayers) : {};
    var label = p.querySelector("[data-role=label]"),
        time = p.querySelector("[data-role=time]"), info = p.querySelector("[data-role=info]");
    var phase = st.status, shown = "–", phaseWord = "", left = null;
    if (st.status === "running" && st.remaining !== null) {
      var elapsed = performance.now() - st.base;
      left = Math.max(0, st.remaining - elapsed);
      var thinkLeft = st.think === null ? 0 : Math.max(0, st.think - elapsed);
      var current = reading(p, left, thinkLeft);
      phase = current.kind;
      shown = current.text;
      if (p.dataset.timing === "correspondence") {
        phaseWord = gettext("Time left for this move");
        if (left <= 0 && performance.now() - st.base - st.remaining > 300) nudge();
      } else if (phase === "think") {
        phaseWord = gettext("Think");
      } else {
        phaseWord = left > 0 ? gettext("MOVE NOW") : gettext("MOVE NOW") + " · " + gettext("waiting…");
        if (left <= 0 && performance.now() - st.base - st.remaining > 300) nudge();
      }
      if (p.dataset.timing !== "correspondence" && left <= WARN_MS) warn(p, left);
      var mine = p.dataset.mySide;
      // The waiting player reads whose turn it is, not the opponent's "MOVE NOW".
      var theirs = p.dataset.timing === "correspondence" ? gettext("Waiting for your opponent's move")
        : phase === "think" ? gettext("Your opponent is thinking") : gettext("Your opponent must move now");
      label.textContent = mine && mine !== st.side ? theirs : phaseWord;
      p.classList.toggle("urgent", phase === "move" && left < 2000);
    } else {
      var names = { paused: gettext("Paused"), needs_referee: gettext("Waiting for a referee"),
                    finished: gettext("Battle over"), pending: gettext("Not started") };
      phaseWord = names[st.status] || "";
      if (st.remaining !== null) {
        // The figure it will count down from when it runs again, and which one it is.
        var stopped = reading(p, st.remaining, st.think === null ? 0 : st.think);
        shown = stopped.text;
        if (st.status === "paused" && p.dataset.timing !== "correspondence") {
          phaseWord = stopped.kind === "think" ? gettext("Paused (think)") : gettext("Paused (move)");
        }
      }
      label.textContent = phaseWord;
      p.classList.remove("urgent");
    }
    p.className = p.className.replace(/\bphase-\S+/g, "").trim() + " phase-" + phase;
    p.dataset.phase = phase;
    p.dataset.version = st.version;
    if (time) time.textContent = shown;
    faces(p, phase, shown, phaseWord, left);
    if (st.status === "finished") {
      info.textContent = "";  // nobody is to move in a finished battle
    } else {
      // The page names the game's sides (data-side-names, translated).
      var words = { side: sideNames[st.side] || st.side, player: players[st.side] || "" };
      if (st.maxPlies) {
        // Moves per side, as players count them: ply 2 is the first side's second move.
        words.limit = Math.ceil(st.maxPlies / 2);
        words.n = Math.min(Math.floor(st.ply / 2) + 1, words.limit);
        info.textContent = interpolate(words.player ? gettext("Move %(n)s of %(limit)s: %(player)s (%(side)s)")
                                                    : gettext("Move %(n)s of %(limit)s (%(side)s)"), words, true);
      } else {
        info.textContent = interpolate(words.player ? gettext("%(player)s (%(side)s) to move")
                                                    : gettext("%(side)s to move"), words, true);
      }
    }
  }

  // The sound switch (off by default, remembered in this browser).
  function soundSwitch() {
    var box = document.getElementById("clock-sound");
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    box.checked = soundOn();
    box.addEventListener("change", function () {
      try { window.localStorage.setItem("thud-clock-sound", box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (box.checked) beep();
    });
  }

  function listen(source) {
    if (!source || sources.has(source)) return;
    sources.add(source);
    source.addEventListener("state", function (ev) {
      try {
        var d = JSON.parse(ev.data);
        newest = Math.max(newest, d.version);
        apply(d);
      } catch (e) { /* malformed: ignore */ }
    });
  }

  // hx-trigger filter of the swappable panels: refetch a panel only when the event
  // shows a state it does not already show (our own POST response may have drawn it).
  window.thudStale = function (event, panelId) {
    var p = document.getElementById(panelId);
    if (!p) return false;
    try {
      var d = JSON.parse(event.detail.data);
      return d.version > Number(p.dataset.version) || (d.offer || "") !== (p.dataset.offer || "");
    } catch (e) { return true; }
  };

  // htmx drops a panel's trigger while that panel's previous request is in flight, so
  // an event arriving mid-swap (a forfeit, then the last move a moment later) would leave
  // the panel one state behind for good. After every swap, refetch any panel older than
  // the newest event seen. The fetched panel is at least that new, so this stops.
  document.addEventListener("htmx:afterSettle", function () {
    ["board-panel", "referee-panel"].forEach(function (id) {
      var p = document.getElementById(id);
      if (p && window.htmx && newest > Number(p.dataset.version)) window.htmx.trigger(p, "thud:behind");
    });
  });

  document.addEventListener("htmx:sseOpen", function (ev) { listen(ev.detail.source); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) st.version = -1;  // accept the next snapshot/event whatever it is
  });
  document.addEventListener("DOMContentLoaded", function () { fromPanel(); soundSwitch(); });
  if (document.readyState !== "loading") { fromPanel(); soundSwitch(); }
  setInterval(render, 100);
})();
