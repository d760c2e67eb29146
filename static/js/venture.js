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
