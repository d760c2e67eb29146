// The table's combat on top of the prompt's forms: blocks made by clicking a blocker then its
// attacker, the damage the attackers left unblocked would deal (and the second press asked
// before a lethal Confirm or pass), "Attack with all", the attack and block pairings drawn as
// lines over the table, and a division of combat damage typed as amounts. Without JavaScript
// the plain forms do all of it. Loaded after venture.js, whose `Venture.marked` and
// `Venture.typing` it uses, and before zoom.js, whose click and Enter it consumes first.
(function () {
  "use strict";

  var marked = Venture.marked;

  // Blocks by clicking: a creature of yours that can block, then the attacker it blocks. Only
  // the pairs the engine offers (the options' checkboxes) can be made; a blocker blocks one
  // attacker, so choosing another moves it. Confirm sends them as before.
  //
  // A blocker's card shows one button, "Block", which does what a click anywhere on the card
  // does (it picks the creature, and is the way in by keyboard); its buttons for each attacker
  // ("block alice's Veteran Dungeoneer #2", the labels of the options' checkboxes) show only
  // while it is picked. Shown all the time they filled half the card, so a click meant for the
  // card landed on one of them: a block the player never chose, and the next click, on the
  // attacker, opened its zoom instead of making the block.
  var blocker = null;
  function blockChecks() {
    return Array.prototype.slice.call(document.querySelectorAll('#prompt .prompt.mine[data-kind="declare_blockers"] label.check[data-marks]'));
  }
  function pairOf(label) {
    var ids = label.getAttribute("data-marks").split(" ");
    return { blocker: ids[0], attacker: ids[1], box: label.querySelector("input[type=checkbox]"), label: label };
  }
  function blockerName(pair) {  // "your Yuan-Ti Malison #1", from the option's own words
    var text = pair.label.querySelector(".check-text").textContent;
    return text.split(" blocks ")[0].replace(/ \([^)]*\)$/, "");
  }
  function markBlockers() {
    var pairs = blockChecks().map(pairOf);
    var cards = {};
    pairs.forEach(function (pair) {
      document.querySelectorAll('.perm [data-pick="' + pair.box.id + '"]').forEach(function (label) {
        label.classList.add("block-pair");
        var card = label.closest(".perm");
        card.classList.add("can-block");
        cards[pair.blocker] = card;
      });
    });
    Object.keys(cards).forEach(function (token) {
      var actions = cards[token].querySelector(".perm-actions");
      var button = actions.querySelector(".block-with");
      if (!button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "btn tiny block-with";
        button.setAttribute("data-blocker", token);
        actions.insertBefore(button, actions.firstChild);
      }
      var ticked = pairs.filter(function (p) { return p.blocker === token && p.box.checked; })[0];
      var picked = blocker === token;
      button.setAttribute("aria-pressed", picked ? "true" : "false");
      button.textContent = ticked && !picked
        ? "Blocks " + ticked.label.querySelector(".check-text").textContent.split(" blocks ")[1].replace(/ \([^)]*\)$/, "")
        : "Block";
      button.title = picked ? "Now click the attacker it blocks (Escape lets go)" : "Pick this creature to block, then click the attacker it blocks";
    });
    var chosen = document.querySelector("#prompt .prompt.mine .block-chosen");
    if (!chosen) return;
    var picking = chosen.querySelector(".block-picking");
    if (!picking) {
      picking = document.createElement("p");
      picking.className = "hint block-picking";
      chosen.insertBefore(picking, chosen.firstChild);
    }
    var first = pairs.filter(function (p) { return p.blocker === blocker; })[0];
    picking.hidden = !first;
    var none = chosen.querySelector(".block-none");  // "No blocks yet: click a creature…"
    if (none) none.hidden = !!first || chosen.querySelectorAll(".block-pairs li").length > 0;
    if (first) picking.textContent = "Now click or tap the attacker " + blockerName(first) + " blocks; Block again lets go.";
  }
  function pickBlocker(token) {
    blocker = token;
    if (token) disarmConfirm();
    document.querySelectorAll(".block-source, .block-target").forEach(function (el) {
      el.classList.remove("block-source", "block-target");
    });
    blockChecks().map(pairOf).forEach(function (pair) {
      if (!token || pair.blocker !== token) return;
      marked(pair.blocker).forEach(function (el) { el.classList.add("block-source"); });
      marked(pair.attacker).forEach(function (el) { el.classList.add("block-target"); });
    });
    markBlockers();
  }
  function setBox(box, on) {
    if (box.checked === on) return;
    box.checked = on;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // `from` blocks `to` (or no longer does, if it did): true if the engine offers that pair.
  function chooseBlock(from, to) {
    var pairs = blockChecks().map(pairOf);
    var chosen = pairs.filter(function (p) { return p.blocker === from && p.attacker === to; })[0];
    if (!chosen) return false;
    var was = chosen.box.checked;
    pickBlocker(null);
    pairs.forEach(function (p) { if (p.blocker === from && p !== chosen) setBox(p.box, false); });
    setBox(chosen.box, !was);
    return true;
  }
  document.addEventListener("click", function (event) {
    var pairs = blockChecks().map(pairOf);
    if (!pairs.length) return;
    var button = event.target.closest(".block-with");
    if (button) {
      var own = button.getAttribute("data-blocker");
      pickBlocker(blocker === own ? null : own);
      return;
    }
    if (event.target.closest("button, a, label, input, summary, form")) return;
    var perm = event.target.closest(".perm[data-id]");
    if (!perm) return;
    var token = "o" + perm.getAttribute("data-id");
    if (blocker && blocker !== token && chooseBlock(blocker, token)) {
      event.preventDefault();  // consumed: the zoom panel (zoom.js) stays shut
      return;
    }
    var canBlock = pairs.some(function (p) { return p.blocker === token; });
    if (canBlock) event.preventDefault();
    pickBlocker(canBlock && blocker !== token ? token : null);
  });
  // Escape lets go of a picked blocker (never while typing, as venture.js's keys). With a
  // blocker picked, Enter on a focused attacker (a card is a stop of the Tab key) makes the
  // block, as a click would; elsewhere Enter opens the card (zoom.js, which runs after this and
  // leaves a key it finds consumed).
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && blocker && !event.ctrlKey && !event.metaKey && !event.altKey && !Venture.typing(event.target)) {
      pickBlocker(null);
      return;
    }
    if (event.key !== "Enter" || !blocker || !event.target.matches || !event.target.matches(".perm.block-target[data-id]")) return;
    if (chooseBlock(blocker, "o" + event.target.getAttribute("data-id"))) event.preventDefault();
  });
  // However a block is ticked (on the card, in the list, with a key), a blocker blocks one
  // attacker: ticking a pair unticks that blocker's other pair; and the pick is done with.
  document.addEventListener("change", function (event) {
    var label = event.target.closest && event.target.closest('.prompt.mine[data-kind="declare_blockers"] label.check[data-marks]');
    if (!label) return;
    var ticked = pairOf(label);
    if (event.target.checked) {
      blockChecks().map(pairOf).forEach(function (p) {
        if (p.blocker === ticked.blocker && p.box !== ticked.box) setBox(p.box, false);
      });
    }
    if (blocker) pickBlocker(null); else markBlockers();
  });
  // A redraw replaces the cards: the pick is marked on the new ones (or dropped with the decision).
  document.addEventListener("htmx:wsAfterMessage", function () {
    pickBlocker(blocker && blockChecks().length ? blocker : null);
  });
  document.addEventListener("DOMContentLoaded", markBlockers);

  // What the attackers left unblocked deal (`.coming`: each attacker's damage from the server),
  // kept up to date as blocks are ticked; when it is lethal the first Confirm (a click or Space)
  // only asks again, in the button's own words, and the second declares the blocks. Ticking or
  // picking a block takes the question back. Runs in the capture phase, before htmx sends the
  // form. Without JavaScript the form sends at once, as it always did.
  function comingLine() {
    return document.querySelector('#prompt .prompt.mine[data-kind="declare_blockers"] .coming[data-coming]');
  }
  // An attacker's damage past its blockers, as combat_damage.past_blockers sums it: with
  // trample each strike keeps what is left after lethal damage to them (CR 702.19b).
  function pastBlockers(trampler, blockers) {
    var left = 0;
    blockers.forEach(function (b) { left += trampler.needs[b] || 0; });
    var dealt = 0;
    for (var i = 0; i < trampler.strikes; i++) {
      dealt += Math.max(0, trampler.power - left);
      left = Math.max(0, left - trampler.power);
    }
    return dealt;
  }
  function updateComing() {
    var line = comingLine();
    if (!line) return;
    var blocked = {};
    blockChecks().forEach(function (label) {
      var pair = pairOf(label);
      if (pair.box.checked) (blocked[pair.attacker] = blocked[pair.attacker] || []).push(pair.blocker);
    });
    var unblocked = 0;
    line.getAttribute("data-coming").split(" ").forEach(function (part) {
      var bits = part.split(":");
      if (bits.length === 2 && !blocked[bits[0]]) unblocked += parseInt(bits[1], 10) || 0;
    });
    var tramplers = JSON.parse(line.getAttribute("data-trample") || "{}");
    var trampled = 0;
    Object.keys(tramplers).forEach(function (attacker) {
      if (blocked[attacker]) trampled += pastBlockers(tramplers[attacker], blocked[attacker]);
    });
    var total = unblocked + trampled;
    var life = parseInt(line.getAttribute("data-life"), 10);
    var lethal = total >= life;
    line.textContent = "The attackers left unblocked deal " + unblocked + " damage" + (trampled ? ", trample " + trampled + " more over blockers" : "") + "; you are at " + life + " life" + (lethal ? ": " : ".");
    if (lethal) {
      var strong = document.createElement("strong");
      strong.textContent = "lethal";
      line.appendChild(strong);
      line.appendChild(document.createTextNode("."));
      line.setAttribute("data-lethal", String(total));
    } else {
      line.removeAttribute("data-lethal");
    }
    line.classList.toggle("lethal", lethal);
  }
  function disarmConfirm() {
    var confirm = document.querySelector('.prompt.mine[data-kind="declare_blockers"] #confirm.lethal-armed');
    if (!confirm) return;
    confirm.classList.remove("lethal-armed");
    confirm.firstChild.textContent = "Confirm";
  }
  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest('.prompt.mine[data-kind="declare_blockers"]')) return;
    updateComing();
    var lethal = form.querySelector(".coming[data-lethal]");
    var confirm = form.querySelector("#confirm");
    if (!lethal || !confirm || confirm.classList.contains("lethal-armed")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var none = !blockChecks().some(function (l) { return l.querySelector("input").checked; });
    confirm.classList.add("lethal-armed");
    confirm.firstChild.textContent = (none ? "No blocks" : "These blocks") + ": take " + lethal.getAttribute("data-lethal") + " and lose? Confirm again";
    confirm.focus({ preventScroll: true });
  }, true);
  // A pass once the blocks are declared, into lethal damage, while something is still there to
  // play (a spell or an ability of the prompt's): the first press of the pass button, or of the
  // pace's "until my next turn" or "until something happens", only asks again in the button's
  // own words; the second passes. With nothing to play, a pass is the only answer and goes at once.
  window.addEventListener("submit", function (event) {
    var form = event.target;
    var button = form.querySelector && form.querySelector("#pass, #pass-turn, #pass-something");
    if (!button) return;
    var prompt = document.querySelector('#prompt .prompt.mine[data-kind="priority"]');
    var lethal = prompt && prompt.querySelector(".coming[data-lethal][data-final]");
    if (!lethal || button.classList.contains("lethal-armed")) return;
    if (!prompt.querySelector(".priority-options .option-form button:not(#pass)")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var words = "Take " + lethal.getAttribute("data-lethal") + " and lose? Pass again";
    button.classList.add("lethal-armed");
    (button.firstChild || button).textContent = words;
    // The docked stand-in for the pace's button (a phone's) says it too, where the finger is.
    var docked = document.querySelector('#prompt [data-proxy="#pace #' + button.id + '"]');
    if (docked) { docked.textContent = words; docked.classList.add("lethal-armed"); }
    if (!docked) button.focus({ preventScroll: true });
  }, true);
  document.addEventListener("change", function (event) {
    if (!event.target.closest || !event.target.closest(".prompt.mine")) return;
    updateComing();
    disarmConfirm();
  });
  document.addEventListener("htmx:wsAfterMessage", updateComing);
  document.addEventListener("DOMContentLoaded", updateComing);

  // The blocks chosen so far, in the prompt's words (each creature named with the number its
  // card shows among its namesakes); the list of every possible pair is the form without
  // JavaScript and stays out of sight.
  function showBlocks() {
    var chosen = document.querySelector("#prompt .prompt.mine .block-chosen");
    if (!chosen) return;
    chosen.hidden = false;
    var list = chosen.querySelector(".block-pairs");
    while (list.firstChild) list.removeChild(list.firstChild);
    blockChecks().forEach(function (label) {
      if (!label.querySelector("input").checked) return;
      var li = document.createElement("li");
      li.textContent = label.querySelector(".check-text").textContent;
      li.setAttribute("data-marks", label.getAttribute("data-marks"));
      list.appendChild(li);
    });
    chosen.querySelector(".block-none").hidden = list.children.length > 0;
  }
  document.addEventListener("change", showBlocks);
  document.addEventListener("htmx:wsAfterMessage", showBlocks);
  document.addEventListener("DOMContentLoaded", showBlocks);

  // "Attack with all": ticks every creature able to attack (at the player); once all are
  // ticked it reads "Attack with none" and unticks them. Confirm still sends the attack.
  function attackAllState() {
    var button = document.getElementById("attack-all");
    if (!button) return;
    var boxes = attackBoxes(button);
    button.hidden = boxes.length === 0;  // no creature can attack the player: nothing to tick
    var all = boxes.length > 0 && boxes.every(function (box) { return box.checked; });
    button.setAttribute("data-all-on", all ? "1" : "");
    button.querySelector(".attack-all-text").textContent = all ? "Attack with none" : "Attack with all";
  }
  function attackBoxes(button) {
    var form = button.closest("form");
    return button.getAttribute("data-all").split(" ").map(function (id) {
      return form.querySelector('input[type=checkbox][value="' + id + '"]');
    }).filter(Boolean);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#attack-all");
    if (!button) return;
    var on = !button.getAttribute("data-all-on");
    var form = button.closest("form");
    if (on) {  // an attack at a planeswalker gives way: a creature attacks one player or walker
      form.querySelectorAll("input[type=checkbox]:checked").forEach(function (box) { setBox(box, false); });
    }
    attackBoxes(button).forEach(function (box) { setBox(box, on); });
    attackAllState();
  });
  document.addEventListener("change", attackAllState);
  document.addEventListener("htmx:wsAfterMessage", attackAllState);
  document.addEventListener("DOMContentLoaded", attackAllState);

  // Attack and block pairings drawn as lines over the table, for both players and spectators:
  // the engine's blocks (data-blocks on a blocker) and, while blockers are being declared, the
  // pairs ticked so far.
  var SVG = "http://www.w3.org/2000/svg";
  // The middle of the edge of `el` that faces `other` (a line between two cards starts and ends
  // at their edges, not across their text).
  function edge(el, other) {
    var r = el.getBoundingClientRect(), o = other.getBoundingClientRect();
    var y = o.top > r.bottom ? r.bottom : (o.bottom < r.top ? r.top : r.top + r.height / 2);
    return { x: r.left + r.width / 2 + window.scrollX, y: y + window.scrollY };
  }
  function drawPairings() {
    var layer = document.getElementById("pairings");
    var pairs = [];
    document.querySelectorAll(".perm[data-blocks]").forEach(function (b) {
      var a = document.querySelector('.perm[data-id="' + b.getAttribute("data-blocks") + '"]');
      if (a) pairs.push([b, a, "declared"]);
    });
    document.querySelectorAll(".perm[data-attacks]").forEach(function (a) {
      // an attack on a planeswalker (an attack on a player is written on the attacker)
      var target = document.querySelector('.perm[data-id="' + a.getAttribute("data-attacks") + '"]');
      if (target) pairs.push([a, target, "declared"]);
    });
    blockChecks().map(pairOf).forEach(function (p) {
      if (!p.box.checked) return;
      var b = marked(p.blocker)[0], a = marked(p.attacker)[0];
      if (a && b) pairs.push([b, a, "proposed"]);
    });
    if (!pairs.length) { if (layer) layer.remove(); return; }
    if (!layer) {
      layer = document.createElementNS(SVG, "svg");
      layer.id = "pairings";
      layer.setAttribute("aria-hidden", "true");
      layer.style.cssText = "position:absolute;left:0;top:0;pointer-events:none;overflow:visible";
      document.body.appendChild(layer);
    }
    // The layer's own size counts in the page's: shrunk first, a narrower window (a phone
    // turned, a window resized) gets no sideways scroll from the lines' old width.
    layer.setAttribute("width", 0);
    layer.setAttribute("height", 0);
    layer.setAttribute("width", document.documentElement.scrollWidth);
    layer.setAttribute("height", document.documentElement.scrollHeight);
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    // The lines pass under the players' plates (their life and hand counts stay readable): a
    // mask that hides them where a plate is.
    var mask = document.createElementNS(SVG, "mask"), lines = document.createElementNS(SVG, "g");
    mask.id = "pairings-mask";
    mask.setAttribute("maskUnits", "userSpaceOnUse");
    var rects = [{ x: 0, y: 0, width: layer.getAttribute("width"), height: layer.getAttribute("height"), fill: "white" }];
    document.querySelectorAll(".plate").forEach(function (plate) {
      var r = plate.getBoundingClientRect();
      rects.push({ x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height, fill: "black" });
    });
    rects.forEach(function (r) {
      var rect = document.createElementNS(SVG, "rect");
      Object.keys(r).forEach(function (key) { rect.setAttribute(key, r[key]); });
      mask.appendChild(rect);
    });
    layer.appendChild(mask);
    lines.setAttribute("mask", "url(#pairings-mask)");
    layer.appendChild(lines);
    pairs.forEach(function (pair) {
      var from = edge(pair[0], pair[1]), to = edge(pair[1], pair[0]);
      var color = pair[2] === "declared" ? "#e4572e" : "#f5cf6b";
      var line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", from.x); line.setAttribute("y1", from.y);
      line.setAttribute("x2", to.x); line.setAttribute("y2", to.y);
      line.setAttribute("class", "pairing " + pair[2]);
      line.setAttribute("stroke", color);
      line.setAttribute("stroke-width", "3");
      line.setAttribute("stroke-opacity", "0.8");
      line.setAttribute("stroke-linecap", "round");
      if (pair[2] === "proposed") line.setAttribute("stroke-dasharray", "8 6");
      lines.appendChild(line);
      [from, to].forEach(function (end) {
        var dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("cx", end.x); dot.setAttribute("cy", end.y); dot.setAttribute("r", "5");
        dot.setAttribute("fill", color);
        lines.appendChild(dot);
      });
    });
  }
  // Drawn once the page has settled: after every script's own changes to the new fragments
  // (the next frame), and again when the layout moves (a resize, a panel opened or closed).
  var drawing = false;
  function redrawPairings() {
    if (drawing) return;
    drawing = true;
    requestAnimationFrame(function () { drawing = false; drawPairings(); });
  }
  document.addEventListener("htmx:wsAfterMessage", redrawPairings);
  document.addEventListener("DOMContentLoaded", redrawPairings);
  document.addEventListener("change", redrawPairings);
  document.addEventListener("toggle", redrawPairings, true);
  window.addEventListener("resize", redrawPairings);

  // A division of combat damage: the amounts typed for each recipient pick the option that has
  // them ("cd:2,3"); one the rules don't allow can't be sent, and the page says why, or which
  // blockers it kills (an amount at least the blocker's data-lethal). The list of every division
  // stays below, folded.
  // The rule is board/division.py's `_killed`: a blocker dies of a nonzero amount at least its
  // lethal damage.
  function deaths(inputs) {
    if (!inputs.some(function (i) { return i.hasAttribute("data-lethal"); })) return "";
    var dying = inputs.filter(function (i) {
      var amount = parseInt(i.value, 10) || 0;
      return i.hasAttribute("data-lethal") && amount > 0 && amount >= Number(i.getAttribute("data-lethal"));
    }).map(function (i) { return i.getAttribute("data-who"); });
    if (!dying.length) return "no blocker dies.";
    if (dying.length === 1) return dying[0] + " dies.";
    return dying.slice(0, -1).join(", ") + " and " + dying[dying.length - 1] + " die.";
  }
  function divisionState(form, filled) {
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[type=number]"));
    var amounts = inputs.map(function (i) { return Math.max(0, parseInt(i.value, 10) || 0); });
    var id = "cd:" + amounts.join(",");
    var legal = form.getAttribute("data-legal").split(" ").indexOf(id) >= 0;
    var left = Number(form.getAttribute("data-total")) - amounts.reduce(function (a, b) { return a + b; }, 0);
    form.querySelector("input[name=option]").value = id;
    form.querySelector("button[type=submit]").disabled = !legal;
    var state = form.querySelector(".division-state");
    var words = deaths(inputs);
    if (legal && filled) state.textContent = "Filled in: " + (words || "the usual division.");
    else if (legal) state.textContent = "A legal division" + (words ? ": " + words : ".");
    else if (left > 0) state.textContent = left + " damage still to assign.";
    else if (left < 0) state.textContent = -left + " damage too many.";
    else state.textContent = "Not a legal division: a blocker must have lethal damage before the player gets any.";
  }
  function showDivision() {
    var form = document.querySelector("#prompt .division-form[hidden]");
    if (!form) return;
    form.hidden = false;
    divisionState(form, true);
    var all = form.parentNode.querySelector(".all-divisions");
    if (all) all.open = false;
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest(".division-form");
    if (form) divisionState(form);
  });
  document.addEventListener("htmx:wsAfterMessage", showDivision);
  document.addEventListener("DOMContentLoaded", showDivision);
})();
