// "Copy link" beside each personal link on the organiser's dashboard (issue 41). The link
// is a read-only field anyone can select and copy by hand; this script shows the button
// and copies with one press (click, Enter or Space), and says so in the row's status
// (role=status, aria-live). Where the clipboard is refused (an insecure origin, an old
// browser) the field's text is selected instead, to copy with the keyboard.
// Delegated from the document: the players table is swapped by htmx.
// Words come from Django's JavaScript catalog (/jsi18n/, loaded by base.html).
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };

  // The whole document each time: after an outerHTML swap the event's element is the
  // table that was replaced, not the new one.
  function show() {
    document.querySelectorAll("button[data-copy-for][hidden]").forEach(function (b) { b.hidden = false; });
  }

  function tell(button, text) {
    var status = button.parentElement.querySelector(".copy-status");
    if (!status) return;
    status.textContent = "";
    // A fresh text after a pause, so that a second copy is read out again.
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function selectText(field) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
  }

  function fallback(button, field) {
    selectText(field);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    tell(button, copied ? gettext("Copied") : gettext("Selected: press Ctrl+C (⌘C) to copy"));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy-for]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy-for"));
    if (!field) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { tell(button, gettext("Copied")); },
        function () { fallback(button, field); }
      );
    } else {
      fallback(button, field);
    }
  });

  document.addEventListener("DOMContentLoaded", function () { show(); });
  document.addEventListener("htmx:afterSettle", show);
})();
