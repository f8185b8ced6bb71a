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
})();
