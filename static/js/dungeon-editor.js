// The dungeon editor (admin change form of a dungeon card): each step's fields follow its
// operation, and the map preview follows the unsaved form. The server renders everything
// (dungeons/admin.py: step_fields_view, preview_view); this only asks it at the right moments.
(function () {
  "use strict";
  const panel = document.getElementById("dungeon-preview");
  const form = document.getElementById("dungeoncard_form");
  if (!panel || !form || !window.htmx) return;
  const previewUrl = panel.dataset.previewUrl;
  const fieldsUrl = panel.dataset.fieldsUrl;
  let timer = null;

  // The preview swaps each room's exits and each step's words in by id, from the form's
  // prefixes; a room or step added in the browser is given its id here.
  function nameTargets() {
    form.querySelectorAll(".room-editor").forEach(function (room) {
      const name = room.querySelector('input[name$="-name"]');
      const exits = room.querySelector(".room-exits");
      if (name && exits) exits.id = "exits-" + name.name.slice(0, -"-name".length);
    });
    form.querySelectorAll(".step-editor").forEach(function (step) {
      const op = step.querySelector('select[name$="-op"]');
      const words = step.querySelector(".step-words");
      if (op && words) words.id = "words-" + op.name.slice(0, -"-op".length);
    });
  }

  // Rooms and steps are kept in the order they stand on the page (the first room is the top
  // room): each form's position is its place among its siblings, after adding or dragging.
  function number() {
    form.querySelectorAll(".djn-items").forEach(function (items) {
      let i = 0;
      items.querySelectorAll(":scope > .djn-inline-form:not(.djn-empty-form)").forEach(function (item) {
        const fieldset = item.querySelector(":scope > fieldset");
        const position = fieldset && fieldset.querySelector(':scope > input[name$="-position"]');
        if (position) position.value = i++;
      });
    });
  }
  form.addEventListener("submit", number);

  function refresh(delay) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      number();
      nameTargets();
      htmx.ajax("POST", previewUrl, {source: form, target: "#dungeon-preview-body", swap: "innerHTML"});
    }, delay === undefined ? 350 : delay);
  }

  // The operation changed: its own fields replace the step's fields.
  function swapFields(select) {
    const prefix = select.name.slice(0, -"-op".length);
    const box = select.closest(".step-editor").querySelector(".step-params");
    const url = fieldsUrl + "?prefix=" + encodeURIComponent(prefix) + "&op=" + encodeURIComponent(select.value);
    htmx.ajax("GET", url, {target: box, swap: "innerHTML"}).then(function () { refresh(0); });
  }

  // A new room's header reads its name, as saved rooms' do.
  function labelRoom(input) {
    if (!/^rooms-\d+-name$/.test(input.name)) return;
    const item = input.closest(".djn-inline-form");
    const label = item && item.querySelector(":scope > h3 .inline_label");
    if (label) label.textContent = input.value.trim() || "(no name yet)";
  }

  form.addEventListener("input", function (e) {
    labelRoom(e.target);
    refresh();
  });
  form.addEventListener("change", function (e) {
    if (e.target.matches('select[name$="-op"]')) swapFields(e.target);
    else refresh();
  });
  // Rooms and steps added, removed or moved (django-nested-admin's buttons and dragging).
  form.addEventListener("click", function (e) {
    if (e.target.closest(".djn-add-handler, .djn-remove-handler, .djn-delete-handler")) refresh(150);
  });
  document.addEventListener("mouseup", function () {
    if (document.querySelector(".djn-dragging, .ui-sortable-helper")) refresh(400);
  });
  // A room's exits come back with the rooms as they are named now, but a box ticked or
  // unticked while the preview was on its way is the designer's latest word: keep it.
  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    const target = e.detail.target;
    if (!target || !target.classList.contains("room-exits")) return;
    const live = {};
    target.querySelectorAll("input[type=checkbox]").forEach(function (box) { live[box.value] = box.checked; });
    e.detail.fragment.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      if (box.value in live) box.toggleAttribute("checked", live[box.value]);
    });
  });
  // A step's header reads the step in words, as saved steps' do.
  document.body.addEventListener("htmx:oobAfterSwap", function (e) {
    const words = e.target;
    if (!words.classList || !words.classList.contains("step-words") || !words.textContent.trim()) return;
    const item = words.closest(".djn-inline-form");
    const label = item && item.querySelector(":scope > h3 .inline_label");
    if (label) label.textContent = words.textContent.trim();
  });
  refresh(0);
})();
