// The table's layout helpers (static/css/venture.css and table.css): the "js" class for what
// only works with JavaScript, the height of the phone's action bar, the docked hand giving way
// to your creatures where the browser cannot do it by itself, a fanned hand's tags fitted to its
// cards, and the dungeon modal taking and keeping the focus.
// Nothing here sends anything to the server.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // On a phone the prompt sticks to the bottom of the screen and the stack sticks just above it
  // (venture.css, max-width: 1100px): the stack needs the prompt's height, and what is scrolled
  // into view (a focused button, a card asked about) stops above both (scroll-padding). On a
  // wider screen the hand sticks to the bottom: what is scrolled into view stops above it.
  // Each fragment is replaced whole by the server's redraws: the new one is watched.
  var VARIABLES = { prompt: "--action-bar-h", stack: "--stack-h", hand: "--hand-h" };
  var observed = {};
  var sizer = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var h = entry.target.getBoundingClientRect().height;
      document.documentElement.style.setProperty(VARIABLES[entry.target.id], Math.round(h) + "px");
    });
    soonGiveWay();
  }) : null;
  function watchBars() {
    if (!sizer) return;
    Object.keys(VARIABLES).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el || el === observed[id]) return;
      if (observed[id]) sizer.unobserve(observed[id]);
      sizer.observe(el);
      observed[id] = el;
    });
  }

  // On a wide screen the docked hand slides down out of the way of your creature row, its top
  // just under the row, while the row reaches into the bottom of the screen, down to its top
  // strip (venture.css, hand-gives-way, --hand-peek): an animation that the scrolling drives. A browser without scroll-driven
  // animations gets the same slide from here, as --hand-give, on each scroll, resize and
  // redraw.
  var SCROLL_DRIVEN = !!(window.CSS && CSS.supports && CSS.supports("animation-timeline", "view()"));
  var wide = window.matchMedia("(min-width: 1101px)");
  var givingWay = false;
  function giveWay() {
    givingWay = false;
    var row = document.querySelector("#me .row.creatures");
    var hand = document.getElementById("hand");
    var give = 0;
    if (wide.matches && row && hand) {
      var rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      var gap = rem / 2;  // .5rem
      var peek = parseFloat(getComputedStyle(hand).getPropertyValue("--hand-peek")) * rem;  // in rem
      var dockTop = document.documentElement.clientHeight - hand.offsetHeight;
      give = Math.min(Math.max(row.getBoundingClientRect().bottom + gap - dockTop, 0), hand.offsetHeight - peek);
    }
    document.documentElement.style.setProperty("--hand-give", Math.round(give) + "px");
  }
  function soonGiveWay() {
    if (SCROLL_DRIVEN || givingWay) return;
    givingWay = true;
    window.requestAnimationFrame(giveWay);
  }
  window.addEventListener("scroll", soonGiveWay, { passive: true });
  window.addEventListener("resize", soonGiveWay);

  // The dungeon choice (a .modal shown over the table) is a modal dialog: it takes the focus
  // when it opens, Tab stays inside it, Escape closes it like its "Look at the table" button,
  // and closing it gives the focus back to the button that opens it again.
  var FOCUSABLE = "button:not([disabled]), [href], input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])";
  function shownModal() { return document.querySelector(".modal.shown"); }
  function focusables(modal) {
    return Array.prototype.filter.call(modal.querySelectorAll(FOCUSABLE), function (el) {
      return el.offsetParent !== null || el === document.activeElement;
    });
  }
  function syncModal() {
    var modal = shownModal();
    document.querySelectorAll(".modal").forEach(function (m) {
      var head = m.querySelector("h2");
      if (head && !head.id) head.id = (m.id || "modal") + "-title";
      m.setAttribute("role", "dialog");
      m.setAttribute("aria-modal", "true");
      if (head) m.setAttribute("aria-labelledby", head.id);
      if (m !== modal) delete m.dataset.focused;
    });
    if (modal && !modal.dataset.focused && !modal.contains(document.activeElement) &&
        !document.querySelector("dialog.zoom[open]")) {
      modal.dataset.focused = "1";
      var first = modal.querySelector(".map-button") || focusables(modal)[0];
      if (first) first.focus({ preventScroll: false });
    }
  }
  function reopenButton(modal) {
    return modal && modal.id ? document.querySelector('[data-show="#' + modal.id + '"]') : null;
  }
  document.addEventListener("keydown", function (event) {
    var modal = shownModal();
    if (!modal || document.querySelector("dialog.zoom[open]")) return;
    if (event.key === "Escape") {
      modal.classList.remove("shown");
      delete modal.dataset.focused;
      var again = reopenButton(modal);
      if (again) again.focus();
      event.preventDefault();
    } else if (event.key === "Tab") {
      var els = focusables(modal);
      if (!els.length) return;
      var i = els.indexOf(document.activeElement);
      if (event.shiftKey && (i <= 0)) { els[els.length - 1].focus(); event.preventDefault(); }
      else if (!event.shiftKey && (i === -1 || i === els.length - 1)) { els[0].focus(); event.preventDefault(); }
    }
  });
  document.addEventListener("focusin", function (event) {
    var modal = shownModal();
    if (!modal || modal.contains(event.target) || event.target.closest("dialog.zoom")) return;
    var first = modal.querySelector(".map-button") || focusables(modal)[0];
    if (first) first.focus();
  });
  document.addEventListener("click", function (event) {
    // venture.js shows or hides the modal on this same click; look once it has.
    var dismiss = event.target.closest("[data-dismiss]");
    var show = event.target.closest("[data-show]");
    if (!dismiss && !show) return;
    setTimeout(function () {
      syncModal();
      if (dismiss) {
        var modal = document.querySelector(dismiss.getAttribute("data-dismiss"));
        var again = reopenButton(modal);
        if (again && !shownModal()) again.focus();
      }
    }, 0);
  });

  // A hand with more cards than its column holds is fanned (venture.css): each card shows its
  // left strip only, and a "can play" tag wider than the strip was cut by the next card ("CAN
  // PLA"). There the tags say "play" (venture.css, .hand.tight), measured as the page has them.
  function fitTags() {
    document.querySelectorAll(".hand").forEach(function (hand) {
      hand.classList.remove("tight");
      var cards = hand.querySelectorAll(":scope > .card");
      if (cards.length < 2) return;
      var strip = cards[1].getBoundingClientRect().left - cards[0].getBoundingClientRect().left;
      var cut = Array.prototype.some.call(hand.querySelectorAll(":scope > .card.playable"), function (card) {
        var tag = getComputedStyle(card, "::before");
        return parseFloat(tag.left) + parseFloat(tag.width) > strip;
      });
      hand.classList.toggle("tight", cut);
    });
  }
  window.addEventListener("resize", fitTags);

  function refresh() { watchBars(); syncModal(); soonGiveWay(); fitTags(); }
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("htmx:afterSwap", refresh);
})();
