// "Your turn" while a page of the site is open: every so often the page asks /turns.json for the
// games in which this player must decide now (views/lobby.turns_json), shows in the header how
// many wait elsewhere, and, if the player turned notifications on in this browser, shows the
// browser's notification for each turn that is new since the page last looked. A turn is a game
// and the instant its decision was handed out (`since`): the same turn is told once, whichever of
// the site's tabs sees it first (localStorage remembers the turns told). Turns already waiting
// when a page opens are not news: they are listed, not notified. The game on the page in view is
// neither counted nor notified: the player is at that table.
(function () {
  "use strict";
  var url = document.body.getAttribute("data-turns-url");
  if (!url || !window.fetch) return;
  var KEY_ON = "venture-notify";
  var KEY_TOLD = "venture-turns-told";
  var supported = "Notification" in window;
  var first = true;

  function store(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) { /* private mode */ }
  }
  function read(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function wanted() {
    return supported && Notification.permission === "granted" && read(KEY_ON) === "on";
  }
  function told() {
    try { return JSON.parse(read(KEY_TOLD) || "[]"); } catch (e) { return []; }
  }

  function label(button) {
    if (!supported) {
      button.textContent = "This browser cannot notify";
      button.disabled = true;
    } else if (Notification.permission === "denied") {
      button.textContent = "Notifications are blocked in this browser's settings";
      button.disabled = true;
    } else {
      button.textContent = wanted() ? "Notifications on: turn off" : "Notify me when it is my turn";
      button.setAttribute("aria-pressed", wanted() ? "true" : "false");
    }
  }
  function labelAll() {
    document.querySelectorAll("[data-notify-toggle]").forEach(label);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-notify-toggle]");
    if (!button || !supported) return;
    if (wanted()) {
      store(KEY_ON, "off");
      labelAll();
      return;
    }
    Notification.requestPermission().then(function (permission) {
      store(KEY_ON, permission === "granted" ? "on" : "off");
      labelAll();
    });
  });

  // The header counts the games waiting elsewhere: the one on the page in view is being played.
  function badge(turns) {
    var link = document.getElementById("turns-badge");
    if (!link) return;
    var elsewhere = turns.filter(function (t) { return t.url !== location.pathname; });
    link.hidden = elsewhere.length === 0;
    link.querySelector(".count").textContent = elsewhere.length ? "(" + elsewhere.length + ")" : "";
  }

  function tell(turns) {
    var known = told();
    var keys = turns.map(function (t) { return t.url + "@" + t.since; });
    var fresh = turns.filter(function (t, i) { return known.indexOf(keys[i]) < 0; });
    // Keep only the turns still waiting: the list stays as short as the "Your turn" list.
    store(KEY_TOLD, JSON.stringify(keys));
    if (first || !wanted()) return;
    fresh.forEach(function (t) {
      if (t.url === location.pathname && document.visibilityState === "visible") return;
      var body = "Turn " + t.turn + (t.left ? " · " + t.left + " left" : "");
      var note = new Notification("Your turn against " + t.opponent, { body: body, tag: t.url });
      note.onclick = function () { window.focus(); location.href = t.url; };
    });
  }

  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        badge(data.turns);
        tell(data.turns);
        first = false;
        setTimeout(poll, (data.poll_seconds || 30) * 1000);
      })
      .catch(function () { setTimeout(poll, 60000); });
  }

  labelAll();
  poll();
})();
