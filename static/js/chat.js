// The chat at the table (templates/jinja2/game/chat.html): its fold, remembered by the browser
// (open by default beside the table on a wide screen, folded on a phone); new lines counted on
// the fold while it is closed and brought into view while it is open; the focus kept in the
// chat when the server replaces the form that was just sent (a fresh action id, the text field
// emptied). Nothing here sends anything: the forms go over the game's websocket (ws-send) like
// the table's, and without JavaScript they post.
(function () {
  "use strict";
  var KEY = "venture.chat.open";
  var KEEP = 200; // lines kept in a room's list; the older ones are in the next page load's panel
  var wide = window.matchMedia("(min-width: 1101px)");
  var seen = 0; // the highest line id the reader has had in view
  var unread = 0;
  var refocus = null; // how to find again what had the focus in the chat

  function remembered() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function remember(open) {
    try { window.localStorage.setItem(KEY, open ? "1" : "0"); } catch (e) { /* private mode */ }
  }
  function lineIds() {
    return Array.prototype.map.call(document.querySelectorAll("#chat .chat-line"), function (li) {
      return { id: parseInt(li.getAttribute("data-id"), 10) || 0, mine: li.classList.contains("mine") };
    });
  }
  function showUnread() {
    var badge = document.getElementById("chat-unread");
    if (!badge) return;
    badge.hidden = unread === 0;
    badge.textContent = unread ? unread + " new" : "";
  }
  function toBottom() {
    document.querySelectorAll("#chat .chat-lines").forEach(function (list) {
      var items = list.querySelectorAll(".chat-line");
      for (var i = 0; i < items.length - KEEP; i++) items[i].remove();
      list.scrollTop = list.scrollHeight;
    });
  }
  function markSeen() {
    lineIds().forEach(function (l) { if (l.id > seen) seen = l.id; });
    unread = 0;
    showUnread();
    toBottom();
  }

  // The fold: set once per page (the board's #chat is kept across redraws, hx-preserve).
  function setUp() {
    var fold = document.getElementById("chat-fold");
    if (!fold || fold.dataset.ready) return;
    fold.dataset.ready = "1";
    var stored = remembered();
    // Set here, not by the reader: its toggle event (which comes later) is not remembered.
    var scripted = fold.open = stored === null ? wide.matches : stored === "1";
    fold.addEventListener("toggle", function () {
      if (fold.open === scripted) scripted = null;
      else { scripted = null; remember(fold.open); }
      if (fold.open) markSeen();
    });
    markSeen();
  }

  function arrived() {
    setUp();
    var fold = document.getElementById("chat-fold");
    if (!fold) return;
    if (fold.open) { markSeen(); return; }
    lineIds().forEach(function (l) {
      if (l.id > seen) {
        seen = l.id;
        if (!l.mine) unread += 1;
      }
    });
    showUnread();
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var el = document.activeElement;
    refocus = null;
    if (!el || !el.closest || !el.closest("#chat")) return;
    if (el.id) refocus = "#" + el.id;
    else if (el.getAttribute("data-quick")) refocus = '[data-quick="' + el.getAttribute("data-quick") + '"]';
    else if (el.closest(".chat-lines")) refocus = "#" + el.closest(".chat-lines").id; // a report
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    arrived();
    if (refocus && (document.activeElement === document.body || !document.activeElement.closest("#chat"))) {
      var again = document.querySelector("#chat " + refocus);
      if (again) again.focus({ preventScroll: true });
    }
    refocus = null;
  });
  document.addEventListener("DOMContentLoaded", arrived);
})();
