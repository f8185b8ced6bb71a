// The referee clock page's link to the server (over-the-board battles; issue 25). This
// page alone drives its battle's clock, so it proves it is there: a POST ("beat") every
// second, and one just after each deadline it shows, so that an expiry is applied at once
// (the server lets an expiry wait for a beat after its deadline). Without beats for 3 s
// the server pauses the battle; the first beat after that resumes it
// (games/rules/referee_presence.py). The box #referee-link says the state at all times, politely
// (role=status): connected, reconnecting (a beat failed), offline (no beat answered for
// 3 s, or the browser is offline). Offline, the panel's clock buttons are disabled: their
// presses could not arrive. A form the page keeps on the device when offline (the result's
// survivors, data-offline-queue: static/js/offline.js) stays usable.
// Words come from Django's JavaScript catalog (/jsi18n/, loaded before this file).
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var BEAT_MS = 1000, OFFLINE_MS = 3000, TIMEOUT_MS = 2500, AFTER_DEADLINE_MS = 40;
  var box = null, state = "connected", lastOk = performance.now(), inFlight = false;
  var source = null, deadlineTimer = null;

  function words(s) {
    if (s === "offline") {
      return gettext("Offline: the battle pauses when this page is offline, and resumes when it is back.");
    }
    if (s === "reconnecting") return gettext("Reconnecting…");
    return gettext("Connected: the clock runs while this page is open.");
  }

  function csrf() {
    var m = (document.body.getAttribute("hx-headers") || "").match(/"X-CSRFToken": "([^"]+)"/);
    return m ? m[1] : "";
  }

  // Disable what cannot work offline; enable again only what we disabled.
  function buttons(off) {
    var panel = document.getElementById("referee-panel");
    if (!panel) return;
    Array.prototype.forEach.call(panel.querySelectorAll("button, input[type=submit]"), function (b) {
      if (b.closest("form[data-offline-queue]")) return; // kept offline, sent later
      if (off && !b.disabled) {
        b.disabled = true;
        b.dataset.offlineDisabled = "1";
      } else if (!off && b.dataset.offlineDisabled) {
        b.disabled = false;
        delete b.dataset.offlineDisabled;
      }
    });
  }

  function show(next) {
    if (next !== state) {
      state = next;
      box.dataset.state = next;
      box.querySelector("[data-role=link-text]").textContent = words(next);
    }
    buttons(next === "offline");
  }

  function judge(failed) {
    if (navigator.onLine === false || performance.now() - lastOk >= OFFLINE_MS) show("offline");
    else if (failed) show("reconnecting");
  }

  function shownVersion() {
    var p = document.getElementById("referee-panel");
    return p ? Number(p.dataset.version) : -1;
  }

  // A state the beat brought back (the stream may still be reconnecting): handed to the
  // page as if the stream had sent it, so the clock and the panel redraw at once.
  function deliver(d) {
    if (d.state && source) {
      source.dispatchEvent(new MessageEvent("state", { data: JSON.stringify(d.state) }));
    } else if (d.version > shownVersion() && window.htmx) {
      var p = document.getElementById("referee-panel");
      if (p) window.htmx.trigger(p, "thud:behind");
    }
  }

  function beat() {
    if (inFlight || !box) return;
    inFlight = true;
    var ctl = window.AbortController ? new AbortController() : null;
    var timer = window.setTimeout(function () { if (ctl) ctl.abort(); }, TIMEOUT_MS);
    var body = new URLSearchParams({ version: String(shownVersion()) });
    fetch(box.dataset.beatUrl, { method: "POST", credentials: "same-origin", body: body,
                                 headers: { "X-CSRFToken": csrf() }, signal: ctl ? ctl.signal : undefined })
      .then(function (r) {
        if (!r.ok) throw new Error("beat refused: " + r.status);
        return r.json();
      })
      .then(function (d) {
        lastOk = performance.now();
        show("connected");
        deliver(d);
      })
      .catch(function () { judge(true); })
      .finally(function () { window.clearTimeout(timer); inFlight = false; });
  }

  // One more beat just after the deadline the page shows (each "state" the stream sends).
  function onState(ev) {
    var d;
    try { d = JSON.parse(ev.data); } catch (e) { return; }
    if (deadlineTimer !== null) window.clearTimeout(deadlineTimer);
    deadlineTimer = null;
    if (d.status === "running" && d.remaining_ms !== null && d.remaining_ms !== undefined) {
      deadlineTimer = window.setTimeout(beat, Number(d.remaining_ms) + AFTER_DEADLINE_MS);
    }
  }

  function start() {
    box = document.getElementById("referee-link");
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    window.setInterval(function () { judge(false); beat(); }, BEAT_MS);
    window.addEventListener("offline", function () { show("offline"); });
    window.addEventListener("online", function () { show("reconnecting"); beat(); });
    // Back from sleep (a hidden or frozen page): beat at once, not at the next tick. Its
    // answer brings the state, and with it the panel that says the battle was paused.
    document.addEventListener("visibilitychange", function () { if (!document.hidden) beat(); });
    document.addEventListener("resume", beat);
    // A swapped panel comes with its buttons enabled: keep them off while offline.
    document.addEventListener("htmx:afterSwap", function () { buttons(state === "offline"); });
    var clock = document.getElementById("clock-panel");
    if (clock) {
      onState({ data: JSON.stringify({ status: clock.dataset.status,
                                       remaining_ms: clock.dataset.remainingMs === "" ? null : clock.dataset.remainingMs }) });
    }
    beat();
  }

  document.addEventListener("htmx:sseOpen", function (ev) {
    if (ev.detail.source === source) return;
    source = ev.detail.source;
    source.addEventListener("state", onState);
  });
  document.addEventListener("DOMContentLoaded", start);
  if (document.readyState !== "loading") start();
})();
