// Keyboard play on the battle page's board (any game: squares are [data-square] cells of
// a grid of rows, see templates/games/*/board.html).
// - One Tab stop: a roving tabindex; arrow keys move between the board's squares (off-board
//   cells are skipped), Home/End to the row's ends; Enter/Space press a square's button.
// - Escape cancels a selection where the rules allow (the board form's data-cancel-url),
//   and a pending choice (#cancel-choice).
// - A pending choice (which pieces to capture, which double to strike out) is a step on
//   the board: its options are inputs of #capture-form on the marked squares. The arrow
//   keys reach them like any square, Space marks or unmarks one (a radio: picks it), Enter
//   confirms the choice (a radio: the one under the focus).
// - "Skip to the board" (the page's first link) puts the focus on the board's square.
// - htmx replaces #board-panel after every touch, move or live event: the focus goes
//   back to the same square (after a move: its destination) instead of the page's top.
// - The opponent's moves, and what they captured, are read out by #announcer (a polite
//   live region).
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (m, key) { return String(obj[key]); });
  };
  var remembered = "";   // the square the keyboard was on before a swap
  var hadFocus = false;  // whether the focus was on the board when the swap began
  var known = null;      // moves listed before the swap

  function board() { return document.querySelector("#board-panel [data-board]"); }
  function cells(b) { return Array.prototype.slice.call(b.querySelectorAll("[data-square]")); }
  function say(text) {
    var region = document.getElementById("announcer");
    if (!region || !text) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 60);
  }

  // Row and column of every square (data-r / data-c, its place in the game's grid).
  function layout(b) {
    var map = {};
    cells(b).forEach(function (el) {
      map[el.dataset.square] = { r: Number(el.dataset.r), c: Number(el.dataset.c), el: el };
    });
    return map;
  }

  function rove(b, target, focus) {
    cells(b).forEach(function (el) { el.setAttribute("tabindex", el === target ? "0" : "-1"); });
    if (focus && target) target.focus();
  }

  function start(b) {
    if (!b || b.dataset.ready) return;
    b.dataset.ready = "1";
    var all = cells(b);
    var first = b.querySelector("[data-square].selected") || b.querySelector("button.target")
      || b.querySelector("button[data-square]") || all[0];
    if (remembered && b.querySelector("[data-square='" + remembered + "']")) {
      first = b.querySelector("[data-square='" + remembered + "']");
    }
    // A choice to make: the focus goes to its first option (the next key is about it).
    first = b.querySelector(".option-input:checked") || b.querySelector(".option-input") || first;
    rove(b, first, hadFocus);
    hadFocus = false;
  }

  function step(b, from, dr, dc) {
    var map = layout(b), here = map[from.dataset.square];
    if (!here) return from;
    var byPos = {};
    Object.keys(map).forEach(function (k) { byPos[map[k].r + "," + map[k].c] = map[k].el; });
    for (var i = 1; i < 20; i++) {
      var el = byPos[(here.r + dr * i) + "," + (here.c + dc * i)];
      if (el) return el;
    }
    return from;
  }

  document.addEventListener("keydown", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-board] [data-square]");
    if (!el) return;
    var b = el.closest("[data-board]"), next = null;
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      next = step(b, el, moves[ev.key][0], moves[ev.key][1]);
    } else if (ev.key === "Home" || ev.key === "End") {
      var row = b.querySelectorAll("[data-square][data-r='" + el.dataset.r + "']");
      next = ev.key === "Home" ? row[0] : row[row.length - 1];
    } else if (ev.key === "Enter" && el.classList.contains("option-input") && el.form) {
      ev.preventDefault();
      if (el.type === "radio") el.checked = true;
      remembered = (el.form.elements.to || {}).value || remembered; hadFocus = true;
      el.form.requestSubmit();
      return;
    } else if (ev.key === " " && el.tagName === "INPUT") {
      return;  // the browser marks or unmarks it
    } else if ((ev.key === "Enter" || ev.key === " ") && el.tagName !== "BUTTON") {
      ev.preventDefault();
      say(interpolate(gettext("%(square)s: nothing to do here"), { square: el.dataset.square }, true));
      return;
    } else if (ev.key === "Escape") {
      var form = document.getElementById("board-form");
      var drop = document.getElementById("cancel-choice");
      if (drop && window.htmx) {
        ev.preventDefault();
        remembered = el.dataset.square; hadFocus = true;
        window.history.replaceState(null, "", drop.href);
        window.htmx.ajax("GET", drop.href, { target: "#board-panel", swap: "outerHTML" });
      } else if (form && form.dataset.cancelUrl && window.htmx) {
        ev.preventDefault();
        remembered = el.dataset.square; hadFocus = true;
        window.htmx.ajax("GET", form.dataset.cancelUrl, { target: "#board-panel", swap: "outerHTML" });
      } else if (b.querySelector(".selected")) {
        say(gettext("The touched piece must be moved."));
      }
      return;
    }
    if (next) {
      ev.preventDefault();
      rove(b, next, true);
    }
  });

  document.addEventListener("focusin", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-board] [data-square]");
    if (el) rove(el.closest("[data-board]"), el, false);
  });

  // Phones: a tap that lands on no target (a plain square, a gap, a label) means the
  // nearest legal target if that target's centre is within one square of the tap. A piece
  // is never picked this way (under the touch rule a wrong pick would bind the player),
  // and a tap on the touched piece itself means nothing.
  document.addEventListener("click", function (ev) {
    if (document.documentElement.dataset.noTapHelp) return;  // bench/mistap.py: "before"
    var b = ev.target.closest && ev.target.closest("[data-board]");
    if (!b || ev.target.closest("button") || ev.target.closest(".selected")) return;
    if (ev.target.closest(".option")) return;  // a capture option: its own input
    if (!ev.clientX && !ev.clientY) return;  // a keyboard "click": no point to start from
    var best = null, bestD = Infinity, size = 0;
    Array.prototype.forEach.call(b.querySelectorAll("button.target"), function (t) {
      var r = t.getBoundingClientRect();
      var d = Math.hypot(r.left + r.width / 2 - ev.clientX, r.top + r.height / 2 - ev.clientY);
      size = r.width;
      if (d < bestD) { bestD = d; best = t; }
    });
    if (best && bestD <= size) best.click();
  });

  function listed() {
    return Array.prototype.map.call(document.querySelectorAll("#move-list li"), function (li) {
      return { text: li.textContent.trim(), side: li.dataset.side, sideName: li.dataset.sideName,
               captures: Number(li.dataset.captures || 0) };
    });
  }

  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (!ev.detail.target || ev.detail.target.id !== "board-panel") return;
    var active = document.activeElement;
    var inBoard = active && active.closest && active.closest("#board-panel");
    hadFocus = !!inBoard || active === document.body || hadFocus;
    var sq = active && active.dataset && active.dataset.square;
    // After a move the piece is on its destination: follow it there.
    // A choice's option keeps the destination the Enter that confirmed it remembered.
    if (sq && !active.classList.contains("option-input")) remembered = sq;
    known = listed();
  });

  document.addEventListener("htmx:afterSettle", function () {
    var b = board();
    if (!b || b.dataset.ready) return;
    start(b);
    var now = listed(), mine = (document.getElementById("clock-panel") || {}).dataset;
    if (known && now.length > known.length) {
      now.slice(known.length).forEach(function (m) {
        if (mine && m.side && m.side === mine.mySide) return;  // one's own move: no news
        var text = interpolate(gettext("%(side)s played %(move)s"), { side: m.sideName || m.side, move: m.text }, true);
        if (m.captures) {
          text += ". " + interpolate(ngettext("%(n)s piece captured.", "%(n)s pieces captured.", m.captures), { n: m.captures }, true);
        }
        say(text);
      });
    }
    known = null;
  });

  // The typed-move box sits outside the swapped panel: it plays against the board on screen.
  function syncTypedVersion() {
    var panel = document.getElementById("board-panel");
    var field = document.querySelector("#typed-move [name=version]");
    if (panel && field) field.value = panel.dataset.version;
  }
  document.addEventListener("htmx:afterSettle", syncTypedVersion);

  // A player on this page has joined the battle once its live stream is open and the page
  // is in front of them (the Page Visibility API): the page says so with the Ready form's
  // POST (opening the stream alone changes nothing, so a stream opened from another page
  // never starts a clock). A page opened in a background tab (the challenger's waiting
  // page turned into the battle) joins when it is looked at. Every Ready POST says whether
  // the page is seen: the server does not count a hidden one (games.rules.presence).
  var streamOpen = false;
  function joinIfSeen() {
    if (!streamOpen || document.visibilityState !== "visible") return;
    var button = document.getElementById("ready");
    if (button && button.form && !button.disabled) button.click();
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    if (!event.target || event.target.id !== "live") return;
    streamOpen = true;
    joinIfSeen();
  });
  document.addEventListener("visibilitychange", joinIfSeen);
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("#ready") : null;
    var field = button && button.form ? button.form.elements.visibility : null;
    if (field) field.value = document.visibilityState;
  }, true);

  // The skip link lands on the board's square of the roving tabindex (or the choice's).
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("#skip-to-board");
    var b = board();
    if (!link || !b) return;
    var cell = b.querySelector("[data-square][tabindex='0']") || cells(b)[0];
    if (!cell) return;
    ev.preventDefault();
    cell.focus();
  });

  function ready() { start(board()); syncTypedVersion(); }
  document.addEventListener("DOMContentLoaded", ready);
  if (document.readyState !== "loading") ready();
})();
