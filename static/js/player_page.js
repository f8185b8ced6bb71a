// The player's own page (templates/tournaments/my_page.html). Its #my-round panel follows
// the tournament's live state through the hall screen's stream (data-events-url, served by
// the events process): "changed" (a round published, a result, the round timer, the close)
// and the states of the player's own battles (data-battles) refetch it; so does each
// (re)connection, for what happened while the stream was not open. When a refresh shows a
// newer round than before, a browser notification is raised (only if the user granted
// that: notices.js asks, with the page's [data-notify-permission] button, and shows it with
// window.thudNotify). Once no round can come, the button goes and the stream is closed.
(function () {
  "use strict";
  function panel() {
    return document.getElementById("my-round");
  }
  function roundOf(box) {
    return box ? parseInt(box.dataset.round || "0", 10) : 0;
  }
  var seen = roundOf(panel());
  var source = null;

  document.body.addEventListener("htmx:afterSettle", function () {
    var box = panel();
    var now = roundOf(box);
    if (now > seen && window.thudNotify) {
      window.thudNotify(
        box.dataset.notifyTitle,
        box.dataset.notifyText.replace("{n}", String(now)),
        window.location.pathname
      );
    }
    if (now > seen) seen = now;
    if (box && box.dataset.roundToCome === "0") {
      document.querySelectorAll("[data-notify-permission]").forEach(function (b) {
        (b.closest("p") || b).remove();
      });
    }
    if (box && box.dataset.follow === "0" && source) {
      source.close();
      source = null;
    }
  });

  var pending = null;
  function refresh() {
    if (pending || !window.htmx) return;
    pending = window.setTimeout(function () {
      pending = null;
      window.htmx.ajax("GET", window.location.pathname, { target: "#my-round", swap: "outerHTML" });
    }, 300);
  }

  var page = document.querySelector(".my-page[data-events-url]");
  var box = panel();
  if (window.EventSource && page && box && box.dataset.follow === "1") {
    source = new EventSource(page.dataset.eventsUrl);
    source.addEventListener("open", function () {
      page.dataset.live = "1";
      refresh();
    });
    source.addEventListener("changed", refresh);
    source.addEventListener("battle", function (event) {
      var mine = (panel().dataset.battles || "").split(" ");
      var state;
      try { state = JSON.parse(event.data); } catch (e) { return; }
      if (mine.indexOf(String(state.battle)) !== -1) refresh();
    });
  }

  // The running clock of a battle counts down between the page's refreshes (each state of
  // the battle refreshes the panel with the server's time left).
  var loadedAt = Date.now();
  document.body.addEventListener("htmx:afterSettle", function () { loadedAt = Date.now(); });
  window.setInterval(function () {
    var since = Date.now() - loadedAt;
    document.querySelectorAll("#my-round .clock[data-remaining-ms]").forEach(function (c) {
      // As on the battle page: the think time first, then the time left to move.
      var think = Number(c.dataset.thinkMs || 0) - since;
      var ms = Math.max(0, think > 0 ? think : Number(c.dataset.remainingMs) - since);
      c.textContent = ms < 10000 ? (Math.ceil(ms / 100) / 10).toFixed(1) : String(Math.ceil(ms / 1000));
    });
  }, 200);
})();
