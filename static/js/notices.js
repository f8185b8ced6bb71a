// Notices to the logged-in user on every page (templates/_notices.html): a battle waits for
// them. Each arrives over the user's own live stream; it shows a toast with a Join link in
// the #notices status region, blinks the page title until the page is looked at, and shows a
// browser notification only if the user granted that before (never asked unprompted: the
// [data-notify-permission] buttons ask). On the challenger's waiting page (/play/, the
// challenge still listed), an accepted challenge turns the page into the battle.
// Each notice is news once: a notice the server sent more than a few minutes ago (``at``,
// read late by a page frozen in a background tab) is not shown, and one already toasted
// on this device (its kind and battle, in localStorage) is not toasted again, by another
// tab or a page brought back from the history. A page in the background keeps its toasts
// until it is looked at, so the tab in front shows them first.
// Without JavaScript or without a stream nothing breaks: the home page and "Your games"
// list the battle. Loaded on every page (the permission buttons and ``thudNotify`` serve
// visitors too); the stream only for a logged-in user.
(function () {
  "use strict";
  var box = document.getElementById("notices");

  function canNotify() {
    return "Notification" in window && window.isSecureContext !== false;
  }

  // Offer to ask for notifications where a button says what they are for.
  document.querySelectorAll("[data-notify-permission]").forEach(function (button) {
    if (!canNotify() || Notification.permission !== "default") return;
    button.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () {
        button.hidden = true;
      });
    });
  });

  // A browser notification, only if the user granted that before (never asked here).
  // Shared with the other pages' scripts (the player's own page: a new round).
  function notify(title, body, url) {
    if (!canNotify() || Notification.permission !== "granted") return;
    var shown = new Notification(title, { body: body, tag: "thud-" + url });
    shown.onclick = function () {
      window.focus();
      window.location.assign(url);
    };
  }
  window.thudNotify = notify;

  if (!box || !window.EventSource) return;

  var blinking = null;
  var title = document.title;

  function stopBlinking() {
    if (blinking === null) return;
    window.clearInterval(blinking);
    blinking = null;
    document.title = title;
  }

  function blink(text) {
    stopBlinking();
    var on = false;
    blinking = window.setInterval(function () {
      on = !on;
      document.title = on ? "(!) " + text : title;
    }, 1000);
  }
  window.addEventListener("focus", stopBlinking);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && document.hasFocus()) stopBlinking();
  });

  // The server's clock as this page reads it (data-now: seconds, when it was rendered).
  var skew = Number(box.dataset.now) * 1000 - Date.now();
  var maxAge = Number(box.dataset.maxAge) * 1000;
  function stale(at) {
    return !at || Date.now() + skew - at > maxAge;
  }

  var SEEN = "thud-notices-seen";
  function seenKeys() {
    try {
      return JSON.parse(window.localStorage.getItem(SEEN) || "[]");
    } catch (e) {
      return [];
    }
  }
  // True the first time this device toasts ``key`` (then remembered: the last 50).
  function firstTime(key) {
    var keys = seenKeys();
    if (keys.indexOf(key) !== -1) return false;
    keys.push(key);
    try {
      window.localStorage.setItem(SEEN, JSON.stringify(keys.slice(-50)));
    } catch (e) {
      // private mode, storage full: this tab still shows it once
    }
    return true;
  }

  function toast(notice, text) {
    var key = notice.battle ? String(notice.battle) : "match-" + notice.match;
    if (!firstTime(notice.kind + "-" + key)) return;
    var old = box.querySelector('[data-battle="' + key + '"]');
    if (old) old.remove(); // one toast per battle: the newest says it
    var item = document.createElement("div");
    item.className = "notice card";
    item.dataset.battle = key;
    item.dataset.at = String(notice.at);
    var p = document.createElement("p");
    p.textContent = text + " ";
    var link = document.createElement("a");
    link.href = notice.url;
    link.textContent = box.dataset.join;
    link.className = "button";
    p.appendChild(link);
    var close = document.createElement("button");
    close.type = "button";
    close.className = "link";
    close.textContent = box.dataset.dismiss;
    close.addEventListener("click", function () {
      item.remove();
    });
    p.appendChild(document.createTextNode(" "));
    p.appendChild(close);
    item.appendChild(p);
    box.appendChild(item);
  }

  function show(notice) {
    var template = box.dataset["text" + notice.kind.charAt(0).toUpperCase() + notice.kind.slice(1)];
    if (!template || !notice.url) return;
    if (notice.kind === "accepted" && notice.challenge) {
      var waiting = document.querySelector('#made [data-challenge="' + notice.challenge + '"]');
      if (waiting) {
        window.location.assign(notice.url); // the waiting page turns into the battle
        return;
      }
    }
    if (stale(notice.at)) return; // read late (a frozen tab): no longer news
    if (window.location.pathname === notice.url) return; // already there: the board says it
    var text = template.replace("{name}", notice.from || "");
    if (document.visibilityState === "visible") toast(notice, text);
    else held.push([notice, text]);
    blink(box.dataset.title);
    notify(box.dataset.title, text, notice.url);
  }

  // Toasts held while the page was in the background: shown when it is looked at, if
  // still news and no other tab of this device showed them meanwhile.
  var held = [];
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    var waiting = held;
    held = [];
    waiting.forEach(function (pair) {
      if (!stale(pair[0].at)) toast(pair[0], pair[1]);
    });
  });
  // A page brought back from the history shows no old news.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    box.querySelectorAll(".notice[data-at]").forEach(function (item) {
      if (stale(Number(item.dataset.at))) item.remove();
    });
  });

  // Offline (a saved copy of the page, a dropped network) the stream is not asked for:
  // every try would fail, and say so in the console. It opens when the network returns.
  var source = null;
  function connect() {
    if (source || navigator.onLine === false) return;
    source = new EventSource(box.dataset.stream);
    source.addEventListener("notice", function (event) {
      try {
        show(JSON.parse(event.data));
      } catch (e) {
        // a malformed notice is dropped; the next one still shows
      }
    });
    source.addEventListener("open", function () {
      box.dataset.connected = "1";
    });
  }
  window.addEventListener("online", connect);
  window.addEventListener("offline", function () {
    if (source) source.close();
    source = null;
  });
  connect();
})();
