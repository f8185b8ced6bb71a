// The round timer on a page (templates/tournaments/_round_timer.html): the time left,
// counted down from its end; the last five minutes marked, then "Time is up".
(function () {
  "use strict";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll(".round-timer[data-ends-ms]").forEach(function (box) {
      var left = Math.max(0, Math.ceil((Number(box.dataset.endsMs) - Date.now()) / 1000));
      var out = box.querySelector(".time");
      box.classList.toggle("warning", left > 0 && left <= Number(box.dataset.warningS));
      box.classList.toggle("over", left === 0);
      if (left === 0) { out.textContent = box.dataset.overText; return; }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = (h ? h + ":" + two(m) : m) + ":" + two(s);
    });
  }
  if (window.roundTimerTicking) return;
  window.roundTimerTicking = true;
  tick();
  window.setInterval(tick, 1000);
})();
