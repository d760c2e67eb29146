// The zoom panel: a click (or a long press on a touch screen) on any card in a hand, permanent,
// stack item or graveyard/exile card shows it in full in a <dialog>: name, cost, type line, the
// whole rules text, and what the table shows of it now (tapped, counters, damage, granted
// keywords, power/toughness). A dungeon on the side opens at full size. The card texts are the
// pool's, public, from /cards.json (game/views/game_page.py, card_texts), read once.
//
// A click that another script consumes (it calls preventDefault: B's click-to-block, say) or
// that lands on a button, link, label or field does not open the panel; a long press always does.
(function () {
  "use strict";
  var ZOOMABLE = ".perm[data-name], #hand .card[data-name], .stack-item[data-name], .pile li";
  var CONTROLS = "button, a, input, label, select, textarea, summary, .pick";
  var LONG_PRESS_MS = 450;
  var pool = null;
  var poolRequest = null;

  function loadPool() {
    if (pool) return Promise.resolve(pool);
    if (!poolRequest) {
      var url = document.documentElement.getAttribute("data-cards-url") || "/cards.json";
      poolRequest = fetch(url, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : {}; })
        .catch(function () { return {}; })
        .then(function (data) { pool = data; return data; });
    }
    return poolRequest;
  }

  var dialog = null;
  function theDialog() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "zoom";
    dialog.id = "zoom";
    dialog.setAttribute("aria-labelledby", "zoom-name");
    dialog.addEventListener("click", function (event) {
      // a click on the backdrop (the dialog itself, outside its card) closes it
      if (event.target === dialog) dialog.close();
    });
    document.body.appendChild(dialog);
    return dialog;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function closeButton() {
    var b = el("button", "btn small zoom-close", "Close");
    b.type = "button";
    b.addEventListener("click", function () { dialog.close(); });
    return b;
  }

  function nameOf(target) {
    if (target.matches(".pile li")) return target.textContent.trim();
    return target.getAttribute("data-card") || target.getAttribute("data-name");
  }

  // What the table shows of this object now, copied from its piece on the table.
  function liveState(target) {
    var parts = [];
    if (!target.matches(".perm")) return parts;
    target.querySelectorAll(".perm-status .st, .perm-keywords .kw, .perm-badges > *").forEach(function (n) {
      parts.push(n.cloneNode(true));
    });
    return parts;
  }

  function fill(target, card) {
    var d = theDialog();
    // an ability on the stack is shown in its own words, not as its source card
    var ability = target.matches(".stack-item") && !target.classList.contains("spell");
    if (ability) card = null;
    d.classList.remove("map");
    d.textContent = "";
    var box = el("div", "zoom-card");
    var colors = card && card.colors ? card.colors : "colorless";
    box.classList.add("color-" + colors);
    var head = el("div", "zoom-head");
    var name = el("h2", "zoom-name", nameOf(target));
    name.id = "zoom-name";
    head.appendChild(name);
    if (card && card.cost && card.cost.length) {
      var cost = el("span", "mana-cost");
      card.cost.forEach(function (s) {
        var pip = el("i", "pip pip-" + s.toLowerCase(), s);
        pip.title = "{" + s + "}";
        cost.appendChild(pip);
      });
      head.appendChild(cost);
    }
    box.appendChild(head);
    box.appendChild(closeButton());
    if (ability) {
      var label = target.querySelector(".stack-label");
      var words = target.querySelector(".stack-text");
      var kind = target.querySelector(".stack-kind");
      var kindText = kind ? kind.textContent.trim() : "ability";
      box.appendChild(el("div", "zoom-type", kindText.charAt(0).toUpperCase() + kindText.slice(1)));
      box.appendChild(el("p", "zoom-text", (label ? label.textContent : "") + (words ? "\n" + words.textContent : "")));
    } else if (card) {
      box.appendChild(el("div", "zoom-type", (target.classList.contains("token") ? "Token " : "") + card.type));
      if (card.text) box.appendChild(el("p", "zoom-text", card.text));
    } else {
      box.appendChild(el("p", "zoom-text muted", "No card text."));
    }
    var targets = target.querySelector(".stack-targets");
    if (targets) box.appendChild(el("p", "zoom-targets", targets.textContent));
    var state = el("div", "zoom-state");
    liveState(target).forEach(function (n) { state.appendChild(n); });
    var pt = target.querySelector(".pt, .loyalty");
    if (pt) state.appendChild(el("span", "zoom-pt", pt.textContent.trim()));
    else if (card && card.pt) state.appendChild(el("span", "zoom-pt", card.pt));
    if (state.childNodes.length) box.appendChild(state);
    d.appendChild(box);
    return d;
  }

  function open(target) {
    loadPool().then(function (cards) {
      var d = fill(target, cards[nameOf(target)]);
      if (!d.open) d.showModal();
      var close = d.querySelector(".zoom-close");
      if (close) close.focus();
    });
  }

  function openMap(figure) {
    var d = theDialog();
    d.textContent = "";
    d.classList.add("map");
    var box = el("div", "zoom-card");
    var name = el("h2", "zoom-name", figure.getAttribute("data-dungeon"));
    name.id = "zoom-name";
    name.className = "zoom-name sr-only";
    box.appendChild(name);
    box.appendChild(closeButton());
    var copy = figure.cloneNode(true);
    copy.querySelectorAll("form").forEach(function (f) { f.remove(); });
    box.appendChild(copy);
    d.appendChild(box);
    if (!d.open) d.showModal();
    d.querySelector(".zoom-close").focus();
  }

  // Long press (touch and pen): open, and swallow the click that follows the release.
  var pressTimer = null, pressStart = null, swallowClick = false;
  function cancelPress() { clearTimeout(pressTimer); pressTimer = null; }
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType === "mouse") return;
    var target = event.target.closest(ZOOMABLE);
    if (!target) return;
    pressStart = { x: event.clientX, y: event.clientY };
    cancelPress();
    pressTimer = setTimeout(function () {
      pressTimer = null;
      swallowClick = true;
      open(target);
    }, LONG_PRESS_MS);
  });
  document.addEventListener("pointermove", function (event) {
    if (!pressTimer || !pressStart) return;
    if (Math.abs(event.clientX - pressStart.x) + Math.abs(event.clientY - pressStart.y) > 12) cancelPress();
  });
  ["pointerup", "pointercancel"].forEach(function (type) { document.addEventListener(type, cancelPress); });
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest(ZOOMABLE) && (pressTimer || swallowClick)) event.preventDefault();
  });
  window.addEventListener("click", function (event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0) return;
    var full = event.target.closest("[data-map-full]");
    if (full) {
      var slot = full.closest(".map-slot");
      var fig = slot && slot.querySelector(".dungeon-map");
      if (fig) openMap(fig);
      return;
    }
    if (event.target.closest(CONTROLS) || event.target.closest("dialog.zoom")) return;
    var map = event.target.closest(".map-slot .dungeon-map");
    if (map) { openMap(map); return; }
    var target = event.target.closest(ZOOMABLE);
    if (target) open(target);
  });

  // Keyboard: every card, permanent, stack item and graveyard or exile card is a stop of the Tab
  // key (a named group: the buttons inside it stay buttons); Enter on it, or "i" / "z" on it or
  // on a button inside it, opens it.
  function markFocusable() {
    document.querySelectorAll(ZOOMABLE).forEach(function (e) {
      if (e.hasAttribute("tabindex")) return;
      e.tabIndex = 0;
      // A list's item keeps its role (a list holds list items only); the others are groups.
      if (e.tagName !== "LI") e.setAttribute("role", "group");
      e.setAttribute("aria-label", nameOf(e) + " (Enter: the whole card)");
    });
  }
  document.addEventListener("DOMContentLoaded", markFocusable);
  document.addEventListener("htmx:wsAfterMessage", markFocusable);
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var active = document.activeElement;
    if (!active || active.matches("input, textarea, select")) return;
    var target = active.closest(ZOOMABLE);
    if (!target) return;
    var onItself = active === target && event.key === "Enter";
    if (onItself || event.key === "i" || event.key === "z") { event.preventDefault(); open(target); }
  });
})();
