// The hall screen (templates/tournaments/hall.html): nobody touches it.
// - Rotates through the slides (.hall-slide) every data-every seconds.
// - Live: the hall's event stream says "battle" (a battle of the round changed: fetch the
//   live-battles slide on screen again, at most every 700 ms) or "changed" (results,
//   rounds, timer, announcement: fetch the slides again). The slide on screen stays on
//   screen.
// - The live battles come one slide at a time (?slide=N, the Nth live-battles slide, from
//   0): the one on screen, or the one about to be shown, fetched before it is; the
//   others are empty places, so that the rotation knows how many there are.
// - Counts down the running clocks between events (the round timer: round_timer.js): the
//   fragment, the same for every screen, holds the moments the think and the turn end
//   (data-think-ends-ms, data-ends-ms, epoch ms), and every answer, a 304 too, the
//   server's time (X-Server-Now): time left = end - (Date.now() + offset), offset =
//   server's now - Date.now() when it came (games.rules.clock_face.shown_ms in Python).
(function () {
  "use strict";
  var body = document.body;
  var every = Number(body.dataset.every || 12) * 1000;
  var current = { kind: "", index: 0 };
  var offset = 0;  // the server's clock less this screen's

  function slides() { return Array.prototype.slice.call(document.querySelectorAll("#hall-slides .hall-slide")); }

  // A slide by its kind and its place among the slides of that kind: what stays on
  // screen when the slides are fetched again.
  function placeOf(list, s) {
    var sameKind = list.filter(function (x) { return x.dataset.kind === s.dataset.kind; });
    return { kind: s.dataset.kind, index: sameKind.indexOf(s) };
  }

  function show(list, i) {
    list.forEach(function (s, k) { s.classList.toggle("current", k === i); });
    if (list[i]) current = placeOf(list, list[i]);
  }

  // The slide on screen now (the page's, whoever turned it).
  function here() {
    var list = slides();
    var s = list.find(function (x) { return x.classList.contains("current"); });
    return s ? placeOf(list, s) : current;
  }

  function position(list) {
    var sameKind = list.filter(function (x) { return x.dataset.kind === current.kind; });
    var s = sameKind[Math.min(current.index, sameKind.length - 1)];
    return s ? list.indexOf(s) : 0;
  }

  function advance() {
    var list = slides();
    if (!list.length) return;
    var at = list.findIndex(function (s) { return s.classList.contains("current"); });
    var next = list[(at + 1) % list.length];
    if (next.dataset.kind === "battles") {
      // Its battles as they are now, then the slide: never a slide's old lines.
      loadBattles(placeOf(list, next));
      return;
    }
    show(list, (at + 1) % list.length);
  }

  function keep() {
    var list = slides();
    if (list.length) show(list, position(list));
  }

  function get(url) {
    // The browser's cache asks with If-None-Match (the answers say no-cache): a 304 is
    // the fragment held, with this answer's headers.
    return fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        var serverNow = Number(r.headers.get("X-Server-Now"));
        if (serverNow) offset = serverNow - Date.now();
        return r.text();
      });
  }

  var battlesHtml = "";
  // The live-battles slide on screen, or ``target`` (the one the rotation turns to next,
  // shown once it is in); another kind of slide on screen: the first.
  function loadBattles(target) {
    var at = target || here();
    var url = body.dataset.battlesUrl;
    url += (url.indexOf("?") < 0 ? "?" : "&") + "slide=" + (at.kind === "battles" ? at.index : 0);
    return get(url).then(function (html) {
      current = target || here();  // where the screen is now, not when it asked
      battlesHtml = html;
      var box = document.getElementById("hall-battles");
      if (box) box.innerHTML = html;
      tick();  // before it is drawn: the text in the fragment is not the time left now
      keep();
    }).catch(function () {
      // The next event or change tries again; the rotation goes on meanwhile.
      if (target) { current = target; keep(); }
    });
  }

  function loadSlides() {
    return get(body.dataset.slidesUrl).then(function (html) {
      current = here();
      // The round's heading comes with the slides: never "Round 1" above round 2.
      document.getElementById("hall-live").innerHTML = html;
      var box = document.getElementById("hall-battles");
      if (box) box.innerHTML = battlesHtml;  // no flash while they are fetched again
      keep();
      return loadBattles();
    }).catch(function () {});
  }

  var pending = null;
  function battlesSoon() {
    // A battle off screen: its slide is fetched when it is shown.
    if (pending || here().kind !== "battles") return;
    pending = window.setTimeout(function () { pending = null; loadBattles(); }, 700);
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll(".hall-battle .clock[data-ends-ms]").forEach(function (c) {
      // As on the battle page: the think time first, then the time left to move.
      var thinkEnds = Number(c.dataset.thinkEndsMs || 0);
      var think = thinkEnds ? thinkEnds - now : 0;
      var ms = Math.max(0, think > 0 ? think : Number(c.dataset.endsMs) - now);
      c.textContent = String(Math.ceil(ms / 1000));
      c.classList.toggle("low", ms <= 5000);
    });
  }

  keep();
  loadBattles();
  window.setInterval(advance, every);
  window.setInterval(tick, 250);
  tick();

  if (window.EventSource && body.dataset.eventsUrl) {
    var source = new EventSource(body.dataset.eventsUrl);
    source.addEventListener("battle", battlesSoon);
    source.addEventListener("changed", loadSlides);
    source.addEventListener("open", function () { body.dataset.live = "1"; });
  }
})();
