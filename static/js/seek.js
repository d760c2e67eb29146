// The lobby's waiting panel (templates/_seek_status.html): htmx polls it (which keeps the seek
// alive and sends the page to the game once paired). Here: leaving the page takes the seek back
// at once, as Cancel does (a closed tab, another page, a reload), so nobody is paired with a
// player who is gone (not a correspondence seek: a game of days is not waited for at the
// screen); a poll that comes late (a hidden tab's timers slowed down) only delays it.
(function () {
  "use strict";
  window.addEventListener("pagehide", function (event) {
    var status = document.getElementById("seek-status");
    if (!status || event.persisted || !navigator.sendBeacon) return;
    if (status.hasAttribute("data-stays")) return; // a correspondence seek waits for days
    var token = status.querySelector("input[name=csrfmiddlewaretoken]");
    var data = new FormData();
    if (token) data.append("csrfmiddlewaretoken", token.value);
    navigator.sendBeacon(status.getAttribute("data-cancel-url"), data);
  });
})();
