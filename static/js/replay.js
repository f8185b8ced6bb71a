// Replay keyboard: the arrow keys (and Home / End) follow the page's own first / back /
// forward / last links, so everything also works without JavaScript. Words come from
// Django's JavaScript catalog (/jsi18n/, loaded before this file), else English.
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.querySelector(".replay-nav");
    if (!nav) return;
    var hint = document.createElement("p");
    hint.className = "muted replay-hint";
    hint.textContent = gettext("Use the arrow keys to step through the moves.");
    nav.after(hint);
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      var link = nav.querySelector('a[data-key="' + event.key + '"]');
      if (!link || link.getAttribute("aria-disabled") === "true") return;
      event.preventDefault();
      window.location.href = link.href;
    });
  });
})();
