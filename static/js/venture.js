// Venture's small helpers on top of htmx: connection state, copy buttons, dismissable overlays.
// Everything that changes the game goes through htmx's ws-send forms; nothing here does.
(function () {
  "use strict";

  function connectionBanner(show) {
    var el = document.getElementById("connection");
    if (el) el.hidden = !show;
    document.documentElement.classList.toggle("ws-open", !show);
  }

  document.addEventListener("htmx:wsOpen", function () { connectionBanner(false); });
  document.addEventListener("htmx:wsClose", function () { connectionBanner(true); });

  // After a lost connection (a server restart, a network change) the ws extension reconnects
  // by itself; its default backoff grows to a minute, so cap it: a game should be back within
  // a few seconds of its server. The server then sends the whole current board.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retryCount) {
      var cap = Math.min(500 * Math.pow(2, retryCount), 4000);
      return cap / 2 + Math.random() * cap / 2;
    };
  }

  // A server that shuts down politely closes with 1001 ("going away"), which the extension does
  // not retry: wait until the server answers again, then reload the page.
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event && event.detail.event.code;
    if (code !== 1001) return;
    var poll = setInterval(function () {
      fetch(location.href, { method: "HEAD", cache: "no-store" }).then(function (r) {
        if (r.ok) { clearInterval(poll); location.reload(); }
      }).catch(function () {});
    }, 1500);
  });

  // Countdowns (a chess clock that runs, the time a disconnected player has to come back)
  // tick here between the server's redraws; the server decides when they end.
  function clockText(ms) {
    if (ms < 10000) return "0:" + (ms / 1000).toFixed(1).padStart(4, "0");
    var s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    var sec = String(s % 60).padStart(2, "0");
    return h ? h + ":" + String(m).padStart(2, "0") + ":" + sec : m + ":" + sec;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      var left = Math.max(0, Number(el.dataset.ms) - (now - Number(el.dataset.t0)));
      el.textContent = clockText(left);
    });
  }
  setInterval(tick, 100);

  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.getAttribute("data-copy"));
      if (input) {
        input.select();
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value);
        } else {
          document.execCommand("copy");
        }
        copy.textContent = "Copied";
      }
    }
    var show = event.target.closest("[data-show]");
    if (show) {
      var shown = document.querySelector(show.getAttribute("data-show"));
      if (shown) shown.classList.add("shown");
    }
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      var target = document.querySelector(dismiss.getAttribute("data-dismiss"));
      if (target) target.classList.remove("shown");
    }
  });

  // The tab's title says when a decision waits for you (the other tab may be in front).
  function markTitle() {
    var board = document.getElementById("board");
    if (!board) return;
    var mine = document.querySelector("#prompt .prompt.mine");
    document.title = (mine ? "● Your move — " : "") + board.getAttribute("data-title");
  }
  document.addEventListener("htmx:wsAfterMessage", markTitle);
  document.addEventListener("DOMContentLoaded", markTitle);

  // In a multi-select, a card whose checkbox is ticked is marked on the table too.
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches(".multi-form input[type=checkbox]")) return;
    document.querySelectorAll('[data-pick="' + box.id + '"]').forEach(function (label) {
      label.classList.toggle("on", box.checked);
      var card = label.closest(".perm, .card");
      if (card) card.classList.toggle("picked", box.checked);
    });
  });

  // A click sends at most once per render: the form's buttons are disabled until the server's
  // answer replaces them (a refused click re-enables them through the new fragments).
  document.addEventListener("htmx:wsConfigSend", function (event) {
    var form = event.target.closest("form");
    if (!form) return;
    form.classList.add("sent");
  });
  // Any answer from the server (new fragments, or a refusal in #flash) re-enables what is left.
  var flashTimer = null;
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll("form.sent").forEach(function (form) { form.classList.remove("sent"); });
    var flash = document.getElementById("flash");
    if (flash && !flash.hidden) {
      clearTimeout(flashTimer);
      flashTimer = setTimeout(function () { flash.hidden = true; }, 9000);
    }
  });
})();
