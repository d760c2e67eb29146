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

  function refresh(delay) {
    clearTimeout(timer);
    timer = setTimeout(function () {
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
  refresh(0);
})();
