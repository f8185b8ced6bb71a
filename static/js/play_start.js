// The forms of /play/ (play/forms.py), two small helps; without this script both forms work
// as they are.
// 1. Sides by the chosen game: each side's label names the side in every game
//    ("<side> (<game>) · <side> (<other game>)"); here only the checked game's side
//    name shows, and it follows the game when another is checked.
// 2. The opponent's username: a <datalist> of players' names (play:users, JSON), asked for
//    after a pause in typing; the browser's own list, so arrows, Enter and Escape work.
//    A refused or failed look-up leaves the list as it was: the field is a text field.
(function () {
  "use strict";

  function showSides(form) {
    var checked = form.querySelector('input[name="game"]:checked');
    if (!checked) return;
    form.querySelectorAll("[data-side-for]").forEach(function (span) {
      span.hidden = span.getAttribute("data-side-for") !== checked.value;
    });
    form.querySelectorAll("[data-side-extra]").forEach(function (span) { span.hidden = true; });
  }

  function forms() {
    var found = [];
    document.querySelectorAll("input[data-sides]").forEach(function (input) {
      if (input.form && found.indexOf(input.form) < 0) found.push(input.form);
    });
    return found;
  }

  function suggest(input, index) {
    var list = document.createElement("datalist");
    list.id = "username-suggestions-" + index;
    input.insertAdjacentElement("afterend", list);
    input.setAttribute("list", list.id);
    var timer = null;
    var asked = "";

    function fill(names) {
      list.textContent = "";
      names.forEach(function (name) {
        var option = document.createElement("option");
        option.value = name;
        list.appendChild(option);
      });
    }

    function ask() {
      var q = input.value.trim();
      if (q === asked) return;
      asked = q;
      if (!q) { fill([]); return; }
      var url = input.getAttribute("data-suggest-url") + "?q=" + encodeURIComponent(q);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          // An answer to an older text than the field holds now is dropped.
          if (data && Array.isArray(data.users) && input.value.trim() === q) fill(data.users);
        })
        .catch(function () { /* offline or refused: the plain text field */ });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, 200);
    });
  }

  function init() {
    forms().forEach(function (form) {
      showSides(form);
      form.addEventListener("change", function (event) {
        if (event.target.name === "game") showSides(form);
      });
    });
    document.querySelectorAll("input[data-suggest-url]").forEach(suggest);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
