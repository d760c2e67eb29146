// The replay page (templates/jinja2/game/replay.html). Every control is a link to its point
// (`?at=N`), which works without JavaScript; this file makes a step fetch only the part of the
// page that changes (the server's `X-Replay-Point` answer) and keeps the address bar on the
// point shown, so the URL can be shared. Keys: ← → one answer, Shift+← → one event, Home, End.
// Play steps event by event at the chosen speed.
(function () {
  "use strict";
  let timer = null;
  let loading = null;

  function point() { return document.getElementById("replay-point"); }

  async function go(url, push) {
    if (loading) loading.abort();
    const controller = new AbortController();
    loading = controller;
    let html;
    try {
      const response = await fetch(url, { headers: { "X-Replay-Point": "1" }, signal: controller.signal });
      if (!response.ok) { window.location.href = url; return; }
      html = await response.text();
    } catch (e) {
      if (e.name !== "AbortError") window.location.href = url;
      return;
    }
    if (loading === controller) loading = null;
    const old = point();
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.firstElementChild;
    if (!old || !fresh) return;
    // The address first (whatever goes wrong in the new fragment, it names the point shown).
    if (push) address(fresh, url, push === "replace");
    // A graveyard or exile the viewer opened stays open from point to point.
    const kept = new Set();
    old.querySelectorAll("details[data-keep-open]").forEach(function (d) {
      if (d.open) kept.add(d.dataset.keepOpen);
    });
    old.replaceWith(fresh);
    fresh.querySelectorAll("details[data-keep-open]").forEach(function (d) {
      if (kept.has(d.dataset.keepOpen)) d.open = true;
    });
    setUp(fresh);
    if (!fresh.querySelector("#replay-play").hidden && timer && fresh.dataset.at === fresh.dataset.last) stop();
  }

  // The address of the point `root` shows, `?at=N` (and the link's #part, if any): a new entry
  // in the browser's history for a jump, the same entry replaced while Play runs.
  function address(root, url, replace) {
    const at = root.dataset.url + "?at=" + root.dataset.at + new URL(url, window.location.href).hash;
    if (replace) history.replaceState({ replay: true }, "", at);
    else history.pushState({ replay: true }, "", at);
  }

  function click(id, how) {
    const link = document.getElementById(id);
    if (link) go(link.href, how || true);
  }

  function play() {
    const button = document.getElementById("replay-play");
    const speed = Number(document.getElementById("replay-speed").value) || 700;
    button.textContent = "Pause";
    button.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      const p = point();
      if (p.dataset.at === p.dataset.last) { stop(); return; }
      if (!loading) click("replay-next-event", "replace");
    }, speed);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    const button = document.getElementById("replay-play");
    if (button) { button.textContent = "Play"; button.setAttribute("aria-pressed", "false"); }
  }

  // The list of turns comes open (one click to a turn); a phone folds it under "Turns", where
  // it would fill the screen (the same width as replay.css's phone layout).
  const phone = window.matchMedia("(max-width: 600px)");

  let scrubWait = null;
  function setUp(root) {
    if (phone.matches) root.querySelector(".replay-turns").open = false;
    const button = root.querySelector("#replay-play");
    button.hidden = false;
    root.querySelector(".replay-speed").hidden = false;
    if (timer) { button.textContent = "Pause"; button.setAttribute("aria-pressed", "true"); }
    button.addEventListener("click", function () { if (timer) stop(); else play(); });
    root.querySelector("#replay-speed").addEventListener("change", function () { if (timer) { stop(); play(); } });
    const scrub = root.querySelector("#replay-scrub");
    scrub.addEventListener("input", function () {
      clearTimeout(scrubWait);
      const url = root.dataset.url + "?at=" + scrub.value;
      scrubWait = setTimeout(function () { go(url, true); }, 120);
    });
    scrub.addEventListener("keydown", function (e) { e.stopPropagation(); });
  }

  document.addEventListener("click", function (e) {
    const link = e.target.closest("a[data-step]");
    if (!link || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    if (link.closest("details") && phone.matches) link.closest("details").open = false;
    go(link.href, true);
  });

  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: e.shiftKey ? "replay-prev-event" : "replay-prev",
                   ArrowRight: e.shiftKey ? "replay-next-event" : "replay-next",
                   Home: "replay-first", End: "replay-last" };
    if (keys[e.key]) { e.preventDefault(); click(keys[e.key]); }
  });

  window.addEventListener("popstate", function () { go(window.location.href, false); });

  document.addEventListener("DOMContentLoaded", function () {
    const root = point();
    if (!root) return;
    // The replay opened without a point shows the last one: the address says which.
    if (!new URLSearchParams(window.location.search).has("at")) address(root, window.location.href, true);
    setUp(root);
  });
})();
