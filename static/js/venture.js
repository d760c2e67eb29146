// Venture's small helpers on top of htmx: connection state, copy buttons, dismissable overlays.
// Everything that changes the game goes through htmx's ws-send forms; nothing here does.
(function () {
  "use strict";

  // What the page shows only with JavaScript (the "Attack with all" button, blocks made on the
  // cards) hangs on this class; without it the plain forms do everything.
  document.documentElement.classList.add("js");
  // What static/js/combat.js, loaded next, uses of this file.
  window.Venture = { marked: marked, typing: typing };

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
    // A link to hand on (the invite): one click selects it all. (Here, not in an onclick
    // attribute: the Content-Security-Policy allows no inline script.)
    var selectable = event.target.closest("input[data-select]");
    if (selectable) selectable.select();
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
      // a card with several options (a blocker's, one per attacker) is picked while any is on
      var card = label.closest(".perm, .card");
      if (card) card.classList.toggle("picked", !!card.querySelector(".pick.on"));
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

  // The rematch this player offered, accepted while they watch: they follow it into the new game
  // as the one who accepted did. Once per tab: a page opened again later (Back serves it from the
  // browser's cache, from before the rematch) to look back at the game stays put.
  function followOnce(href) {
    try {
      if (sessionStorage.getItem("followed " + href)) return false;
      sessionStorage.setItem("followed " + href, "1");
    } catch (e) { /* no storage: follow anyway */ }
    return true;
  }
  var rematchShown = !!document.getElementById("rematch-link");
  document.addEventListener("htmx:wsAfterMessage", function () {
    var link = document.getElementById("rematch-link");
    var arrived = link && !rematchShown;
    rematchShown = rematchShown || !!link;
    if (arrived && link.hasAttribute("data-follow") && followOnce(link.href)) {
      location.assign(link.href);
    }
  });

  // ---- the table's interaction: highlighting, the keyboard, a new prompt's focus, blocks ----

  // What an option names on the board ("o12 s40 pbob", game/board/whose.py) and back.
  function marked(token) {
    var kind = token.charAt(0), value = token.slice(1);
    if (kind === "o") return document.querySelectorAll('.perm[data-id="' + value + '"], .card[data-id="' + value + '"]');
    if (kind === "s") return document.querySelectorAll('.stack-item[data-id="' + value + '"]');
    if (kind === "p") return document.querySelectorAll('.plate[data-player="' + value + '"]');
    return [];
  }
  function tokenOf(el) {
    if (el.matches(".perm[data-id], .card[data-id]")) return "o" + el.getAttribute("data-id");
    if (el.matches(".stack-item[data-id]")) return "s" + el.getAttribute("data-id");
    if (el.matches(".plate[data-player]")) return "p" + el.getAttribute("data-player");
    return null;
  }
  function clearHighlight() {
    document.querySelectorAll(".highlight").forEach(function (el) { el.classList.remove("highlight"); });
  }
  function highlightFrom(target) {
    if (!target || !target.closest) return;
    var option = target.closest("[data-marks]");
    if (option) {
      option.getAttribute("data-marks").split(" ").forEach(function (token) {
        marked(token).forEach(function (el) { el.classList.add("highlight"); });
      });
      return;
    }
    var thing = target.closest(".perm[data-id], .card[data-id], .stack-item[data-id], .plate[data-player]");
    var token = thing && tokenOf(thing);
    if (!token) return;
    var options = document.querySelectorAll('#prompt [data-marks~="' + token + '"]');
    if (options.length) thing.classList.add("highlight");
    options.forEach(function (el) { el.classList.add("highlight"); });
  }
  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) { clearHighlight(); highlightFrom(event.target); });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, clearHighlight);
  });

  // The keyboard: Space passes or confirms, wherever the focus is in the prompt (a focused
  // checkbox is ticked, a radio button chosen, with Enter or a click); each option's key (1-9, 0, then letters: the
  // one it shows) chooses it (a checkbox is ticked); A attacks with all (and Escape lets go of
  // a blocker picked on the table: combat.js). Never while typing; outside the prompt Space
  // keeps its own meaning on a focused control (a card's button).
  function typing(el) {
    return el && el.closest && el.closest("input:not([type=checkbox]):not([type=radio]):not([type=hidden]), textarea, select, [contenteditable]");
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var prompt = document.querySelector("#prompt .prompt.mine");
    if (!prompt) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var inPrompt = event.target.closest && prompt.contains(event.target);
    if (key === "Enter" && inPrompt && event.target.matches("input[type=checkbox], input[type=radio]")) {
      event.preventDefault();
      event.target.click();
      return;
    }
    if (key === " " && !inPrompt && event.target.closest && event.target.closest("button, a, summary, input, label")) return;
    if (!/^[0-9a-y ]$/.test(key)) return;
    var el = prompt.querySelector('[data-key="' + key + '"]');
    if (!el) return;
    var form = el.closest("form");
    if (form && form.classList.contains("sent")) return;
    event.preventDefault();
    el.click();
  });

  // A new decision of the viewer's is brought into view and takes the focus (once per
  // decision: the same prompt redrawn keeps whatever has the focus).
  var focusedPrompt = null;
  function focusNewPrompt(event) {
    var area = document.getElementById("prompt");
    var prompt = area && area.querySelector(".prompt.mine");
    if (!prompt) { focusedPrompt = null; return; }
    var id = area.getAttribute("data-version") + ":" + prompt.getAttribute("data-kind");
    if (id === focusedPrompt) {
      // the same decision redrawn (the focused element was swapped out): keep the focus in it
      if (document.activeElement === document.body) prompt.focus({ preventScroll: true });
      markArriving();
      return;
    }
    focusedPrompt = id;
    // One that comes over the websocket replaced another under the pointer (a page just
    // loaded had nothing to click before it).
    if (event && event.type === "htmx:wsAfterMessage") guardArrival();
    if (typing(document.activeElement)) return;
    var box = prompt.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) prompt.scrollIntoView({ block: "nearest" });
    prompt.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:wsAfterMessage", focusNewPrompt);
  document.addEventListener("DOMContentLoaded", focusNewPrompt);

  // A new decision's buttons ignore clicks and keys for a moment. The server can move on by
  // itself (the last mana spent, the main phase passed for the player), and a click or a key
  // meant for the old prompt ("To combat") would land on the new one's button in its place
  // (Confirm: no attackers); so would a double click on a pass button. A person does not
  // react to a new prompt this fast, so a deliberate answer never waits for it. The buttons
  // are marked aria-disabled (and dimmed, venture.css) meanwhile; clicks are dropped, not
  // queued: the one meant for the old prompt must not count.
  var ARRIVAL_GUARD_MS = 350;
  // What answers the decision: the prompt's submit buttons and its options on the cards.
  var ANSWERS = "#prompt .prompt.mine button[type=submit], .option-form button[type=submit]";
  var guardUntil = 0, guardTimer = null;
  function arriving() { return performance.now() < guardUntil; }
  function markArriving() {
    if (!arriving()) return;
    var prompt = document.querySelector("#prompt .prompt.mine");
    if (prompt) prompt.classList.add("arriving");
    document.querySelectorAll(ANSWERS).forEach(function (button) {
      if (button.hasAttribute("aria-disabled")) return;
      button.setAttribute("aria-disabled", "true");
      button.setAttribute("data-arriving", "");
    });
  }
  function endArrival() {
    guardUntil = 0;  // a redraw after this (the timer may fire a hair early) marks nothing again
    document.querySelectorAll(".prompt.arriving").forEach(function (p) { p.classList.remove("arriving"); });
    document.querySelectorAll("[data-arriving]").forEach(function (button) {
      button.removeAttribute("aria-disabled");
      button.removeAttribute("data-arriving");
    });
  }
  function guardArrival() {
    guardUntil = performance.now() + ARRIVAL_GUARD_MS;
    clearTimeout(guardTimer);
    markArriving();
    guardTimer = setTimeout(endArrival, ARRIVAL_GUARD_MS);
  }
  // In the capture phase, before htmx sends the form and before any other handler (the keys
  // above click the button they choose, so they are dropped here too). What is dimmed is what
  // is inert, no more and no less.
  window.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-arriving]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  // On a phone the prompt is docked over the bottom of the screen: its Fold button shrinks it
  // to its first line for as long as the decision lasts (its redraws included); a new decision
  // comes unfolded. A decision made on the cards (blocks, attacks, targets) brings the cards it
  // asks about into view: above the docked prompt (and the stack docked over it) on a narrow
  // screen, anywhere in the window on a wide one (where the prompt stays in view beside them,
  // venture.css). All of them where they fit (for blocks, the attackers too: a blocker is
  // picked, then its attacker; for attacks, the other side's untapped creatures), else the first
  // one's buttons. A stop during a combat brings the
  // fight (its attackers and blockers) into view the same way: on a phone the page was often
  // left on the dungeon maps, the blocks out of sight; so does a division of combat damage (the
  // attacker and the blockers it divides among, else the attacker).
  var docked = window.matchMedia("(max-width: 1100px)");
  // The decisions about the hand itself, which show the whole hand (the same list in table.css).
  var HAND_DECISIONS = ["mulligan", "mulligan_bottom", "discard"];
  var foldedPrompt = null, shownCards = null;
  function promptId() {
    var area = document.getElementById("prompt");
    var prompt = area && area.querySelector(".prompt.mine");
    return prompt ? area.getAttribute("data-version") + ":" + prompt.getAttribute("data-kind") : null;
  }
  function syncFold() {
    var prompt = document.querySelector("#prompt .prompt.mine");
    var button = prompt && prompt.querySelector("[data-fold]");
    if (!button) return;
    var folded = foldedPrompt !== null && foldedPrompt === promptId();
    prompt.classList.toggle("folded", folded);
    button.textContent = folded ? "Unfold" : "Fold";
    button.setAttribute("aria-expanded", folded ? "false" : "true");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-fold]");
    if (!button) return;
    foldedPrompt = foldedPrompt === promptId() ? null : promptId();
    syncFold();
  });
  function showCardsAsked() {
    var id = promptId();
    if (!id || id === shownCards) return;
    shownCards = id;
    var prompt = document.querySelector("#prompt .prompt.mine");
    var kind = prompt.getAttribute("data-kind");
    var first, cards;
    if (kind === "priority") {
      // A stop in the middle of a combat (a trick once blocks are known, an answer to a spell):
      // the fight is what the choice is about, wherever the page was left.
      cards = Array.prototype.slice.call(document.querySelectorAll(".battlefield .perm.attacking, .battlefield .perm.blocking"));
      first = cards[0];
      // Outside a fight, a phone left on the maps or the log (a room just chosen on the map)
      // comes back to the viewer's side of the table when nothing of the table is in view.
      if (!first && docked.matches && !tableInView()) {
        cards = Array.prototype.slice.call(document.querySelectorAll("#me .perm"));
        first = cards[0];
      }
    } else if (kind === "assign_combat_damage") {
      // The amounts' recipients (their marks) and the attacker they block: the division has
      // no buttons on the cards to find.
      cards = [];
      prompt.querySelectorAll(".division-amount[data-marks]").forEach(function (amount) {
        amount.getAttribute("data-marks").split(" ").forEach(function (token) {
          Array.prototype.forEach.call(marked(token), function (el) {
            if (el.matches(".battlefield .perm")) cards.push(el);
          });
        });
      });
      var attacker = cards[0] && document.querySelector('.battlefield .perm[data-id="' + cards[0].getAttribute("data-blocks") + '"]');
      if (attacker) cards.unshift(attacker);
      first = cards[0];
    } else if (HAND_DECISIONS.indexOf(kind) >= 0) {  // the whole hand (table.css shows it all)
      if (!docked.matches) return;  // on a wide screen the hand is docked at the bottom
      cards = Array.prototype.slice.call(document.querySelectorAll("#hand .card"));
      first = cards[0];
    } else {
      // on a wide screen the hand stays docked at the bottom, its cards in view
      var actions = docked.matches ? "#opponent .perm-actions, #me .perm-actions, #hand .card-actions"
                                   : "#opponent .perm-actions, #me .perm-actions";
      first = document.querySelector(actions);
      cards = Array.prototype.map.call(document.querySelectorAll(actions), function (el) {
        return el.closest(".perm, .card") || el;
      });
      if (kind === "declare_blockers") {
        cards = cards.concat(Array.prototype.slice.call(document.querySelectorAll(".battlefield .perm.attacking")));
      } else if (kind === "declare_attackers") {
        // the creatures that may block them, where they fit too (a phone left them above)
        cards = cards.concat(Array.prototype.slice.call(document.querySelectorAll("#opponent .row.creatures .perm:not(.tapped)")));
      }
    }
    if (!first) return;
    var top = Infinity, bottom = -Infinity;
    cards.forEach(function (card) {
      var r = card.getBoundingClientRect();
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    });
    var bar = docked.matches ? barTop() : window.innerHeight;
    if (bottom - top > bar - 16) {  // they do not all fit: the first one's buttons
      var box = first.getBoundingClientRect();
      top = box.top;
      bottom = box.bottom;
    }
    if (top < 8) window.scrollBy(0, top - 8);
    else if (bottom > bar - 8) window.scrollBy(0, Math.min(bottom - bar + 8, top - 8));
  }
  function tableInView() {  // some permanent of either side, between the top and the dock
    var bar = barTop();
    return Array.prototype.some.call(document.querySelectorAll(".battlefield .perm"), function (perm) {
      var r = perm.getBoundingClientRect();
      return r.bottom > 0 && r.top < bar;
    });
  }
  function barTop() {  // the top of the docked prompt, or of the stack docked above it
    var top = window.innerHeight;
    ["prompt", "stack"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.offsetParent !== null) top = Math.min(top, el.getBoundingClientRect().top);
    });
    return top;
  }
  document.addEventListener("htmx:wsAfterMessage", syncFold);
  document.addEventListener("DOMContentLoaded", syncFold);
  document.addEventListener("htmx:wsAfterMessage", showCardsAsked);
  document.addEventListener("DOMContentLoaded", showCardsAsked);

  // A <details data-keep-open="key"> the player opened stays open across its fragment's redraws:
  // the older log lines, a graveyard or exile being read, the mana abilities of a decision, and
  // the concede confirmation, which a redraw pushed by the other player's move closed between
  // two clicks. The state is read just before each message is swapped in (a toggle event comes
  // later, and not at all from an element the swap removed), and put back before the other
  // listeners of the message measure the page (capture: they listen on the way up).
  var keptOpen = {};
  document.addEventListener("htmx:wsBeforeMessage", function () {
    keptOpen = {};
    document.querySelectorAll("details[data-keep-open]").forEach(function (el) {
      if (el.open) keptOpen[el.getAttribute("data-keep-open")] = true;
    });
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll("details[data-keep-open]").forEach(function (el) {
      if (keptOpen[el.getAttribute("data-keep-open")] && !el.open) el.open = true;
    });
  }, true);


  // A button standing in for another one elsewhere on the page (the docked prompt's "To my next
  // turn" for the pace's "Pass until my next turn"): a click presses that one.
  document.addEventListener("click", function (event) {
    var proxy = event.target.closest && event.target.closest("[data-proxy]");
    var target = proxy && document.querySelector(proxy.getAttribute("data-proxy"));
    if (target) target.click();
  });

  // On a narrow screen the strip of steps scrolls sideways: the current step is kept in it,
  // centred where it can be (the strip alone is scrolled, never the page).
  function showCurrentStep() {
    var strip = document.querySelector("#topbar .steps");
    var current = strip && strip.querySelector("li.current");
    if (!current || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
  }
  document.addEventListener("htmx:wsAfterMessage", showCurrentStep);
  document.addEventListener("DOMContentLoaded", showCurrentStep);
  window.addEventListener("resize", showCurrentStep);


  // A scry in one prompt: a card given a place on top goes there and the others on top move
  // up or down to make room (or close the gap one put on the bottom leaves), so the cards on
  // top stay numbered 1, 2, … (the form without JavaScript is refused otherwise). Each card's
  // place is kept on its fieldset (data-place); the line below says the library's new top and
  // bottom.
  function placeCard(form, moved, value) {
    var places = Array.prototype.slice.call(form.querySelectorAll("fieldset.place"));
    var top = places.filter(function (p) { return p !== moved && p.getAttribute("data-place") !== "b"; });
    top.sort(function (a, b) { return Number(a.getAttribute("data-place")) - Number(b.getAttribute("data-place")); });
    if (value !== "b") top.splice(Math.min(Number(value), top.length + 1) - 1, 0, moved);
    places.forEach(function (p) {
      var at = top.indexOf(p);
      var place = at < 0 ? "b" : String(at + 1);
      p.setAttribute("data-place", place);
      var radio = p.querySelector('input[type=radio][value="' + place + '"]');
      if (radio) radio.checked = true;
    });
    showPlacement(form);
  }
  function showPlacement(form) {
    var result = form.querySelector(".place-result");
    if (!result) return;
    var places = Array.prototype.slice.call(form.querySelectorAll("fieldset.place"));
    function names(list) {
      return list.map(function (p) { return p.querySelector("legend").textContent; }).join(", then ");
    }
    var top = places.filter(function (p) { return p.getAttribute("data-place") !== "b"; });
    top.sort(function (a, b) { return Number(a.getAttribute("data-place")) - Number(b.getAttribute("data-place")); });
    var bottom = places.filter(function (p) { return p.getAttribute("data-place") === "b"; });
    result.textContent = "On top: " + (top.length ? names(top) : "none") + ". On the bottom: " + (bottom.length ? names(bottom) : "none") + ".";
    result.hidden = false;
  }
  document.addEventListener("change", function (event) {
    var radio = event.target;
    var form = radio.closest && radio.closest(".placement-form");
    if (!form || !radio.matches("input[type=radio]")) return;
    placeCard(form, radio.closest("fieldset.place"), radio.value);
  });
  function showPlacements() {
    document.querySelectorAll("#prompt .placement-form").forEach(showPlacement);
  }
  document.addEventListener("htmx:wsAfterMessage", showPlacements);
  document.addEventListener("DOMContentLoaded", showPlacements);
})();
