// Result entry that survives the network (issue 25). A form marked data-offline-queue
// that cannot reach the server (the device is offline, or the request fails on the way)
// is kept on this device with its submission key, counted in the "not sent yet" strip
// under the site header, and sent again when the connection returns, when a page loads
// and on "Send now". The server applies each key once (tournaments/results/once.py), so a
// retry, a double tap or two tabs sending the same entry make one version; a Web Lock
// keeps two tabs from sending at the same moment anyway. An entry the server refuses or
// finds overtaken (409: someone else wrote meanwhile) is shown on its own page beside
// what is stored now, and nothing is overwritten.
// A shared device keeps nothing of the last person (issue 40): each entry carries whose it
// is (the page's <body data-offline-user>, thud_site/views_app.py's queue_owner) and is
// sent only by a page of that same person; someone else's is shown as such and can only be
// discarded. A live page with nobody logged in (a log-out by any route, a session that
// ended) and a send answered by the log-in page empty the queue and the saved pages.
// Without this script the forms post as they always did.
(function () {
  "use strict";

  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (_m, name) { return String(obj[name]); });
  };
  var STORE = "thud-offline-queue";
  var LOCK = "thud-offline-send";
  var OWNER = "thud-offline-owner";  // whose the device's data is: the last live page's person

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(STORE) || "[]");
    } catch (e) {
      return [];
    }
  }

  function save(items) {
    window.localStorage.setItem(STORE, JSON.stringify(items));
  }

  // The person this page was made for ("" for nobody), named opaquely by the server.
  function owner() {
    return document.body.dataset.offlineUser || "";
  }

  function ownerOf(html) {
    var found = /data-offline-user="([^"]*)"/.exec(html);
    return found ? found[1] : null;
  }

  // Ours to show and send: queued by this page's person, and no other person's page has
  // been opened on this device since (another tab may have logged someone else in).
  // An entry that names nobody (kept before entries named their person) is no one's.
  function mine(item) {
    var me = owner();
    return !!me && item.user === me && window.localStorage.getItem(OWNER) === me;
  }

  // Nothing of a person who left stays: their entries, and the pages saved for them.
  function forget() {
    window.localStorage.removeItem(STORE);
    window.localStorage.setItem(OWNER, "");
    var pages = document.body.dataset.savedPages;
    if (pages && window.caches) window.caches.delete(pages).catch(function () { /* none */ });
  }

  // A live page (not a saved copy) says who is logged in now. Nobody, after someone:
  // they logged out (this site's log-out, the admin's) or their session ended. Someone
  // else: the entries of the one before stay, shown as someone else's, never sent.
  function notice() {
    if (document.body.dataset.offlineSavedAt) return;
    var now = owner();
    var before = window.localStorage.getItem(OWNER);
    if (!now && (before || load().length)) forget();
    else if (before !== now) window.localStorage.setItem(OWNER, now);
  }

  // A date as the page's language writes it: Django's own format for that language (the
  // JavaScript catalog's get_format: English day-month-year on a 24-hour clock), not the
  // browser's default (en-US). Only the figures' letters are known here; a format with
  // others (month names) falls back to the browser's words in the page's language.
  var FIGURES = {
    d: function (t) { return pad(t.getDate()); }, j: function (t) { return String(t.getDate()); },
    m: function (t) { return pad(t.getMonth() + 1); }, n: function (t) { return String(t.getMonth() + 1); },
    Y: function (t) { return String(t.getFullYear()); }, y: function (t) { return pad(t.getFullYear() % 100); },
    H: function (t) { return pad(t.getHours()); }, G: function (t) { return String(t.getHours()); },
    i: function (t) { return pad(t.getMinutes()); }, s: function (t) { return pad(t.getSeconds()); },
  };
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function written(time, name) {
    var format = window.get_format ? window.get_format(name) : name;
    var letters = (format || "").replace(/\\./g, "").match(/[A-Za-z]/g) || [];
    if (format === name || letters.some(function (c) { return !FIGURES[c]; })) {
      return name === "TIME_FORMAT"
        ? time.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" })
        : time.toLocaleString(document.documentElement.lang || undefined);
    }
    return format.replace(/\\(.)|([A-Za-z])/g, function (_m, escaped, letter) {
      return escaped || FIGURES[letter](time);
    });
  }

  function say(text) {
    var live = document.getElementById("announcer");
    if (live) live.textContent = text;
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  // "Round 2, table 3: 30–2, 12–8": the form's own words and the numbers typed in.
  function labelOf(form) {
    var label = form.dataset.offlineLabel || document.title;
    var numbers = ["battle1_first", "battle1_second", "battle2_first", "battle2_second"].map(
      function (name) {
        var input = form.elements.namedItem(name);
        return input && input.type !== "hidden" ? input.value : "";
      }
    );
    if (numbers.every(function (n) { return n !== ""; })) {
      label += ": " + numbers[0] + "–" + numbers[1] + ", " + numbers[2] + "–" + numbers[3];
    }
    return label;
  }

  function sameFields(a, b) {
    var strip = function (fields) {
      return JSON.stringify(fields.filter(function (f) {
        return f[0] !== "key" && f[0] !== "csrfmiddlewaretoken";
      }));
    };
    return strip(a) === strip(b);
  }

  function keep(form) {
    var keyInput = form.elements.namedItem("key");
    if (keyInput && !keyInput.value) keyInput.value = newKey();
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var url = form.getAttribute("hx-post") || form.action;
    var items = load();
    var twin = items.some(function (item) {
      return item.url === url && sameFields(item.fields, fields);
    });
    if (!twin) {
      items.push({
        key: keyInput ? keyInput.value : newKey(),
        url: url,
        page: window.location.pathname,
        user: owner(),
        fields: fields,
        label: labelOf(form),
        time: Date.now(),
        state: "pending",
      });
      save(items);
    }
    // A later submit of this form is a new submission (new numbers, say): a new key.
    if (keyInput) keyInput.value = newKey();
    render();
    say(gettext("No connection: the result is kept on this device and will be sent when the connection returns."));
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  // The answer's fragment replaces the element with the same id on this page.
  function show(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("[id]");
    var old = fresh && document.getElementById(fresh.id);
    if (!old) return false;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    return true;
  }

  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (f) {
      // The page's current token, not the one saved with the entry (a log-in renews it).
      if (f[0] !== "csrfmiddlewaretoken") body.append(f[0], f[1]);
    });
    return fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      // The server refuses it if the session is no longer this person's (thud_site/offline.py).
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(), "X-Thud-Queued-By": item.user || "" },
    });
  }

  function remove(key) {
    save(load().filter(function (item) { return item.key !== key; }));
  }

  function mark(key, state) {
    save(load().map(function (item) {
      if (item.key === key) item.state = state;
      return item;
    }));
  }

  function withLock(work) {
    if (navigator.locks && navigator.locks.request) return navigator.locks.request(LOCK, work);
    return work();
  }

  var sending = false;

  // Sends what is waiting, one at a time, in the order it was kept. An entry that needs
  // a choice (refused, or overtaken by someone else's write) is sent only from its own
  // page, where the answer is shown.
  function sendAll() {
    if (sending) return Promise.resolve();
    if (!navigator.onLine) {
      render();
      return Promise.resolve();
    }
    sending = true;
    var sent = 0;
    var ended = false;
    return withLock(function () {
      // Read inside the lock: another tab may have sent some meanwhile.
      var here = window.location.pathname;
      var waiting = load().filter(function (item) {
        return mine(item) && (item.state === "pending" || item.page === here);
      });
      return waiting.reduce(function (previous, item) {
        return previous.then(function (go) {
          if (!go) return false;
          return send(item).then(function (response) {
            return response.text().then(function (html) {
              if (response.redirected && ownerOf(html) === "") {
                // Sent to the log-in page: the session ended, as a log-out would have.
                ended = true;
                return false;
              } else if (response.redirected) {
                mark(item.key, "refused");
              } else if (response.ok) {
                remove(item.key);
                sent += 1;
                if (item.page === here) show(html);
              } else if (item.page === here && response.status !== 403 && show(html)) {
                remove(item.key);  // the page now shows it beside what is stored
              } else {
                mark(item.key, response.status === 409 ? "conflict" : "refused");
              }
              return true;
            });
          }, function () {
            return false;  // still no network: keep the rest for later
          });
        });
      }, Promise.resolve(true));
    }).then(function () {
      sending = false;
      if (ended) {
        forget();
        render();
        say(gettext("Your session has ended: the entries kept on this device were discarded."));
        return;
      }
      render();
      if (sent) {
        var text = ngettext("Sent: %(count)s entry that was waiting on this device.", "Sent: %(count)s entries that were waiting on this device.", sent);
        say(interpolate(text, { count: sent }, true));
      }
    }, function () {
      sending = false;
      render();
    });
  }

  function render() {
    var strip = document.getElementById("offline-queue");
    if (!strip) return;
    var items = load();
    var state = document.getElementById("offline-state");
    var saved = document.body.dataset.offlineSavedAt;
    var texts = [];
    // Online again, a saved copy says nothing more: what was waiting is sent meanwhile.
    if (saved && !navigator.onLine) {
      var when = written(new Date(saved), "SHORT_DATETIME_FORMAT");
      texts.push(interpolate(gettext("Offline: this page was saved at %(time)s."), { time: when }, true));
    } else if (!navigator.onLine) {
      texts.push(gettext("Offline: results you enter are kept on this device and sent when the connection returns."));
    }
    state.textContent = texts.join(" ");
    state.hidden = !texts.length;
    document.getElementById("offline-count").textContent = interpolate(
      gettext("Not sent yet (%(count)s)"), { count: items.length }, true);
    document.getElementById("offline-details").hidden = !items.length;
    document.getElementById("offline-send").hidden = !items.some(mine);
    var list = document.getElementById("offline-list");
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.dataset.key = item.key;
      var ours = mine(item);
      // Someone else's entry shows neither its match nor its numbers.
      li.textContent = (ours ? item.label : gettext("Entered by someone else on this device, not sent")) +
        " · " + written(new Date(item.time), "TIME_FORMAT");
      if (!ours || item.state !== "pending") {
        li.append(" · ");
        if (ours) {
          var link = document.createElement("a");
          link.href = item.page;
          link.textContent = item.state === "conflict"
            ? gettext("Someone else entered this match meanwhile: open it to choose")
            : gettext("Not accepted: open the page to see why");
          li.append(link, " ");
        }
        // Asks first (static/js/site.js's data-confirm), then the click comes back here.
        var discard = document.createElement("button");
        discard.type = "button";
        discard.className = "link";
        discard.dataset.discard = item.key;
        discard.dataset.confirm = gettext("Discard this entry? It will not be sent.");
        discard.textContent = gettext("Discard");
        li.append(discard);
      }
      list.append(li);
    });
    strip.hidden = !items.length && !texts.length;
  }

  function previewOf(event) {
    var target = event.detail && event.detail.target;
    return target && target.id === "result-preview" ? target : null;
  }

  function unavailable(output) {
    var text = gettext("Preview unavailable offline; the result will be checked when sent.");
    if (output.textContent.trim() === text) return;
    var line = document.createElement("p");
    line.className = "muted";
    line.dataset.offlinePreview = "";
    line.textContent = text;
    output.replaceChildren(line);
  }

  function init() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-offline-queue")) return;
      if (navigator.onLine) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      keep(form);
    }, true);
    // Online by the browser's account, yet the request never reached the server.
    // Only the form's own submit: a failed live preview from one of its inputs is no entry.
    document.body.addEventListener("htmx:sendError", function (event) {
      var form = event.detail.elt;
      if (form instanceof HTMLFormElement && form.hasAttribute("data-offline-queue")) keep(form);
    });
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-discard]");
      if (!button || event.defaultPrevented) return;  // not yet confirmed
      remove(button.dataset.discard);
      render();
      // The button is gone: the focus goes to what is left of the list, or to the page.
      document.getElementById(load().length ? "offline-count" : "main").focus();
    });
    document.getElementById("offline-send").addEventListener("click", function () {
      if (!navigator.onLine) say(gettext("Still offline: it will be sent when the connection returns."));
      sendAll();
    });
    window.addEventListener("online", function () { render(); sendAll(); });
    window.addEventListener("offline", render);
    // The live score of a result form is the server's (no arithmetic here): offline, it
    // is not asked for (a request bound to fail, and an error), and says why it is not shown.
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (navigator.onLine || !previewOf(event)) return;
      event.preventDefault();
      unavailable(previewOf(event));
    });
    document.body.addEventListener("htmx:sendError", function (event) {
      if (previewOf(event)) unavailable(previewOf(event));
    });
    window.addEventListener("storage", function (event) {
      if (event.key === STORE || event.key === OWNER) render();
    });
    notice();
    render();
    sendAll();
    var worker = document.body.dataset.serviceWorker;
    if (worker && "serviceWorker" in navigator) {
      navigator.serviceWorker.register(worker).catch(function () { /* the site works without */ });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
