// The few behaviours every page shares (issue 22). Each works without this file too:
// the menu is then always open, a confirmation is the browser's own, tables just scroll.
(function () {
  "use strict";

  // The menu button (phones): one line of header, the links behind it.
  function menu() {
    var button = document.querySelector(".menu-button");
    var nav = document.getElementById("site-nav");
    if (!button || !nav) return;
    function set(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      nav.classList.toggle("open", open);
    }
    // Wider screens: collapse only when the links would not fit on the header's one line.
    var header = button.closest(".site-header");
    function fit() {
      header.classList.remove("collapsed");
      if (window.matchMedia("(max-width: 47.99rem)").matches) return;
      var links = Array.prototype.slice.call(nav.querySelectorAll(":scope > a, .nav-end"));
      var languages = header.querySelector(":scope > .language-switcher");
      if (languages) links.push(languages);
      // A visitor's Log in and Create an account (outside the menu) count for the one line.
      var account = header.querySelector(":scope > .site-account");
      if (account) links.push(account);
      var top = links.length ? links[0].getBoundingClientRect().top : 0;
      var wraps = Array.prototype.some.call(links, function (link) {
        return Math.abs(link.getBoundingClientRect().top - top) > 4;
      }) || nav.getBoundingClientRect().top - header.getBoundingClientRect().top > 16;
      header.classList.toggle("collapsed", wraps);
    }
    fit();
    window.addEventListener("resize", fit);
    button.addEventListener("click", function () {
      set(button.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        set(false);
        button.focus();
      }
    });
  }

  // Tables wider than their box say so: the box gets a class and the hint after it shows.
  // A box that scrolls is a named region in the tab order, so the keyboard can scroll it.
  function overflowing(root) {
    (root || document).querySelectorAll(".table-wrap, .bracket-wrap").forEach(function (box) {
      var over = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("overflowing", over);
      var hint = box.nextElementSibling;
      if (over && !(hint && hint.classList.contains("scroll-hint")) && document.body.dataset.scrollHint) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.setAttribute("aria-hidden", "true");
        hint.textContent = document.body.dataset.scrollHint;
        box.after(hint);
      }
      if (over && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", regionName(box));
        box.dataset.madeFocusable = "1";
      } else if (!over && box.dataset.madeFocusable) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        delete box.dataset.madeFocusable;
      }
    });
  }
  function regionName(box) {
    var caption = box.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    for (var node = box; node && node !== document.body; node = node.parentElement) {
      for (var prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) return prev.textContent.replace(/\s+/g, " ").trim();
      }
    }
    return document.title;
  }

  // The compact view of a table (standings): a pressed/unpressed button, remembered.
  function compact(root) {
    (root || document).querySelectorAll("[data-compact-for]").forEach(function (button) {
      var table = document.getElementById(button.getAttribute("data-compact-for"));
      if (!table) return;
      var stored = window.localStorage && localStorage.getItem("compact-tables");
      var on = stored === null ? window.matchMedia("(max-width: 37.5rem)").matches : stored === "1";
      table.classList.toggle("compact", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.hidden = false;
      if (button.dataset.bound) return;
      button.dataset.bound = "1";
      button.addEventListener("click", function () {
        var now = button.getAttribute("aria-pressed") !== "true";
        if (window.localStorage) localStorage.setItem("compact-tables", now ? "1" : "0");
        compact();
        overflowing();
      });
    });
  }

  // Destructive actions ask first, in a dialog that says what will happen:
  // <button data-confirm="Pause every running battle of this round?">.
  function confirmations() {
    var dialog = document.getElementById("confirm-dialog");
    document.addEventListener("click", function (event) {
      var button = event.target.closest("[data-confirm]");
      if (!button || button.dataset.confirmed === "1") return;
      event.preventDefault();
      if (!dialog || typeof dialog.showModal !== "function") {
        if (window.confirm(button.dataset.confirm)) submit(button);
        return;
      }
      document.getElementById("confirm-dialog-text").textContent = button.dataset.confirm;
      var ok = document.getElementById("confirm-dialog-ok");
      ok.textContent = button.dataset.confirmYes || button.textContent.trim();
      dialog.returnValue = "";
      dialog.onclose = function () {
        if (dialog.returnValue === "confirm") submit(button);
        else button.focus();
      };
      dialog.showModal();
    });
    // The yes goes with the form (confirm=1): the server refuses a destructive action
    // without it, and asks on a page of its own when this script did not run.
    function submit(button) {
      var form = button.form;
      if (form && !form.querySelector("input[name=confirm]")) {
        var field = document.createElement("input");
        field.type = "hidden";
        field.name = "confirm";
        field.value = "1";
        form.appendChild(field);
      }
      button.dataset.confirmed = "1";
      button.click();
      delete button.dataset.confirmed;
    }
  }

  // Filters that swap only the list below them mark the chosen one themselves.
  function filters() {
    document.addEventListener("click", function (event) {
      var link = event.target.closest(".filters a");
      if (!link) return;
      link.parentElement.querySelectorAll("a").forEach(function (a) { a.removeAttribute("aria-current"); });
      link.setAttribute("aria-current", "true");
    });
  }

  // Messages that arrive with an htmx swap are read out by the page's live regions.
  function announce(target) {
    var alert = target.querySelector(".errorlist, .error-box, .conflict, [role=alert]");
    var status = target.querySelector("[role=status], .notice, .messages li");
    if (alert && alert.textContent.trim()) say("announcer-alert", alert.textContent);
    else if (status && status.textContent.trim()) say("announcer", status.textContent);
  }
  function say(id, text) {
    var region = document.getElementById(id);
    if (!region) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text.replace(/\s+/g, " ").trim(); }, 50);
  }

  // A live list waits while a finger or a mouse button is down on it: swapping the
  // rows between the press and the release would drop the tap (the click needs the
  // same button under both). Nor is a refresh dropped while the list's last one is in
  // flight (htmx would queue it on the element that the swap then throws away).
  // hx-trigger="sse:checkin[thudIdle(this)], thud:idle" on an element with an id: a
  // refresh put off is made when the press ends (after the click it carried) or when
  // the list's answer has settled.
  var pressed = null;
  var missed = {};
  function busy(el) {
    return (pressed && el.contains(pressed)) || el.classList.contains("htmx-request");
  }
  function flush() {
    Object.keys(missed).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) { delete missed[id]; return; }
      if (busy(el)) return;
      delete missed[id];
      delete el.dataset.missedRefresh;
      if (window.htmx) window.htmx.trigger(el, "thud:idle");
    });
  }
  function released() {
    pressed = null;
    window.setTimeout(flush, 0);
  }
  document.addEventListener("pointerdown", function (event) { pressed = event.target; }, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  document.addEventListener("htmx:afterSettle", function () { window.setTimeout(flush, 0); });
  window.thudIdle = function (el) {
    if (!busy(el)) return true;
    missed[el.id] = true;
    el.dataset.missedRefresh = "1";
    return false;
  };

  // Words typed in a live region survive its refresh: a field with an id and
  // data-keep-typed gets back what was typed into it when a swap draws it empty (the
  // referee's reason for a decision while the clock's state changes). Sending the form
  // forgets them.
  var typed = {};
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.id && field.hasAttribute && field.hasAttribute("data-keep-typed")) typed[field.id] = field.value;
  });
  document.addEventListener("submit", function (event) {
    event.target.querySelectorAll("[data-keep-typed]").forEach(function (field) { delete typed[field.id]; });
  }, true);
  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(typed).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && field.value === "") field.value = typed[id];
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    menu();
    compact();
    overflowing();
    confirmations();
    filters();
    window.addEventListener("resize", function () { overflowing(); });
    if (window.ResizeObserver) {
      var watcher = new ResizeObserver(function () { overflowing(); });
      document.querySelectorAll(".table-wrap, .bracket-wrap").forEach(function (box) { watcher.observe(box); });
    }
  });
  // After a form's htmx answer: read out what it says, and if the swap took away the
  // element that had the focus, put the focus on the answer (not back at the top).
  // Only for what a person sent (a submit or a click), each answer matched to its own
  // request: a live preview posted while typing must not take the place of the submit.
  var sent = window.WeakMap ? new WeakMap() : null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail || {};
    var config = detail.requestConfig;
    var trigger = config && config.triggeringEvent;
    if (!sent || !config || config.verb === "get" || !detail.xhr) return;
    if (!trigger || (trigger.type !== "submit" && trigger.type !== "click")) return;
    sent.set(detail.xhr, { id: detail.target && detail.target.id, focused: document.activeElement });
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    compact();
    overflowing();
    var xhr = event.detail && event.detail.xhr;
    var done = sent && xhr && sent.get(xhr);
    if (!done) return;
    sent.delete(xhr);
    var answer = done.id && document.getElementById(done.id);
    if (!answer) return;
    announce(answer);
    // The focus is somewhere (kept, put back by id, or moved on by the person): leave it.
    if (document.activeElement && document.activeElement !== document.body) return;
    var to = answer.querySelector("[role=alert], [role=status], .notice, .errorlist, h2") || answer;
    if (!to.hasAttribute("tabindex")) to.setAttribute("tabindex", "-1");
    to.focus();
  });
})();
