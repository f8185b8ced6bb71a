// The player's own page (templates/tournaments/my_page.html): when a refresh of the
// #my-round panel shows a newer round than before, raise a browser notification (only if
// the user granted that: notices.js asks, with the page's [data-notify-permission] button,
// and shows it with window.thudNotify).
(function () {
  "use strict";
  function roundOf(panel) {
    return panel ? parseInt(panel.dataset.round || "0", 10) : 0;
  }
  var seen = roundOf(document.getElementById("my-round"));
  document.body.addEventListener("htmx:afterSettle", function () {
    var panel = document.getElementById("my-round");
    var now = roundOf(panel);
    if (now > seen && window.thudNotify) {
      window.thudNotify(
        panel.dataset.notifyTitle,
        panel.dataset.notifyText.replace("{n}", String(now)),
        window.location.pathname
      );
    }
    if (now > seen) seen = now;
  });

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
