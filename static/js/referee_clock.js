// The referee clock page's news (templates/games/referee_clock.html, games/web/presenters_referee.py):
// the server draws what happened to the clock meanwhile (a turn forfeited on time, a pause
// while this page was away) into the panel, from the battle's history, on every redraw.
// Here: each piece of news is read out once by the page's polite live region (#announcer),
// when a redraw brings it (not on the first load: the page is read then anyway); and the
// pause notice, once dismissed, stays dismissed in this tab (it goes by itself at the next
// press). Without this script the news is shown all the same.
(function () {
  "use strict";
  var told = {};
  var DISMISSED = "thud-away-dismissed";

  function dismissed() {
    try { return JSON.parse(window.sessionStorage.getItem(DISMISSED) || "[]"); } catch (e) { return []; }
  }

  function remember(key) {
    var keys = dismissed();
    keys.push(key);
    try { window.sessionStorage.setItem(DISMISSED, JSON.stringify(keys.slice(-20))); } catch (e) { /* private mode */ }
  }

  function say(text) {
    var region = document.getElementById("announcer");
    if (!region) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text.replace(/\s+/g, " ").trim(); }, 50);
  }

  function look(announce) {
    var panel = document.getElementById("referee-panel");
    if (!panel) return;
    var away = panel.querySelector("[data-away]");
    if (away && dismissed().indexOf(away.dataset.away) !== -1) away.remove();
    var news = [];
    Array.prototype.forEach.call(panel.querySelectorAll("[data-news]"), function (item) {
      if (told[item.dataset.news]) return;
      told[item.dataset.news] = true;
      news.push(item.querySelector("p") ? item.querySelector("p").textContent : item.textContent);
    });
    if (announce && news.length) say(news.join(" "));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-dismiss-away]");
    if (!button) return;
    var notice = button.closest("[data-away]");
    remember(notice.dataset.away);
    notice.remove();
    var clock = document.getElementById("clock-panel");
    if (clock) {
      clock.setAttribute("tabindex", "-1");
      clock.focus();
    }
  });
  document.addEventListener("htmx:afterSettle", function () { look(true); });
  document.addEventListener("DOMContentLoaded", function () { look(false); });
  if (document.readyState !== "loading") look(false);
})();
