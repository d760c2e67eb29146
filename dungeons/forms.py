"""Admin forms for dungeon cards: a form per room, a form per effect step, and a whole-dungeon
check (validate_dungeon_dict) before anything is saved.

The step form's operations and parameter fields are built from the engine's registry
(`game/engine/ops.py`): a parameter's type gives its field (a number, a checkbox, a list of
choices, a text), its declaration the help beside it; tests/dungeons/test_vocabulary_form.py
holds the form to the registry."""

from __future__ import annotations

from typing import Any

import yaml
from django import forms
from django.core.exceptions import ValidationError

from game.engine.dungeon import validate_dungeon_dict
from game.engine.ops import BOOL, INT, TARGET, TEXT, Param, data_ops, data_params

from .models import TARGET_CHOICES, EffectStep, Room
from .steps import ALL_PARAMS, fields_to_step


def _label(value: str) -> str:
    return value.replace("_", " ")


def _help(param: Param) -> str:
    users = [
        name
        for name, entry in data_ops().items()
        if any(p.name == param.name for p in entry.data_params)
    ]
    used_by = "Used by " + ", ".join(_label(u) for u in users) + "."
    return f"{param.help} {used_by}" if param.help else used_by


def param_field(param: Param) -> forms.Field:
    """The form field for one parameter of the registry."""
    common: dict[str, Any] = {"required": False, "help_text": _help(param)}
    if param.type == INT:
        return forms.IntegerField(min_value=param.minimum, **common)
    if param.type == BOOL:
        return forms.BooleanField(**common)
    if param.type == TARGET:
        return forms.ChoiceField(choices=TARGET_CHOICES, **common)
    if param.type == TEXT and param.choices:
        return forms.ChoiceField(
            choices=[("", "—"), *((c, _label(c)) for c in param.choices)], **common
        )
    column = EffectStep._meta.get_field(param.name)
    return forms.CharField(max_length=column.max_length, **common)


def _step_fields() -> dict[str, forms.Field]:
    columns = {f.name for f in EffectStep._meta.get_fields()}
    missing = [name for name in data_params() if name not in columns]
    if missing:
        # A new parameter needs a column to be kept in: add it to EffectStep (and a migration).
        raise LookupError(f"EffectStep has no column for the parameters {', '.join(missing)}")
    op = forms.ChoiceField(
        label="operation",
        choices=[("", "---------"), *((name, _label(name)) for name in data_ops())],
    )
    return {"op": op, **{name: param_field(p) for name, p in data_params().items()}}


class EffectStepForm(forms.ModelForm):
    class Meta:
        model = EffectStep
        fields = ["position", "op", *ALL_PARAMS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(_step_fields())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        entry = data_ops().get(data.get("op") or "")
        if entry is None:
            return data  # no operation, or an unknown one the field has already reported
        name = _label(entry.name)
        allowed = [p.name for p in entry.data_params]
        for key in ALL_PARAMS:
            if data.get(key) in (None, "", False) or key in allowed:
                continue
            accepted = ", ".join(allowed) or "no parameters"
            self.add_error(key, f"{name} takes {accepted}; not {key}.")
        for key in entry.required:
            if data.get(key) in (None, ""):
                self.add_error(key, f"{name} needs {key}.")
        return data

    def to_step(self) -> dict[str, Any]:
        return fields_to_step(self.cleaned_data)


class RoomForm(forms.ModelForm):
    leads_to = forms.CharField(
        required=False,
        help_text="Names of the rooms this room's arrows point to, comma-separated "
        "(empty for a bottommost room).",
    )

    class Meta:
        model = Room
        fields = ["position", "name", "text", "leads_to"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["leads_to"].initial = ", ".join(
                e.to_room.name for e in self.instance.exits.order_by("position")
            )

    def leads_to_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("leads_to", "").split(",") if n.strip()]


def _live_forms(formset: forms.BaseFormSet) -> list[forms.Form]:
    """Forms that describe a kept row: filled in and not marked for deletion."""
    out = []
    for f in formset.forms:
        f.is_valid()
        data = getattr(f, "cleaned_data", None)
        if data and not data.get("DELETE"):
            out.append(f)
    return out


def dungeon_from_forms(card_name: str, subtype: str, text: str, room_formset: Any) -> dict:
    """The dungeon the submitted forms describe, in the dungeons/data format."""
    rooms = []
    for form in sorted(
        _live_forms(room_formset), key=lambda f: f.cleaned_data.get("position") or 0
    ):
        steps: list[dict[str, Any]] = []
        for nested in getattr(form, "nested_formsets", []):
            nested.is_valid()
            for step_form in sorted(
                _live_forms(nested), key=lambda f: f.cleaned_data.get("position") or 0
            ):
                if step_form.cleaned_data.get("op"):
                    steps.append(step_form.to_step())
        rooms.append(
            {
                "name": form.cleaned_data.get("name", ""),
                "text": form.cleaned_data.get("text", ""),
                "leads_to": form.leads_to_names(),
                "effect": steps,
            }
        )
    data: dict[str, Any] = {"name": card_name, "rooms": rooms}
    if subtype:
        data["subtype"] = subtype
    if text:
        data["text"] = text
    return data


class RoomFormSet(forms.BaseInlineFormSet):
    """Validates the whole dungeon the forms describe; nothing is saved when it is invalid."""

    def validate_unique(self) -> None:
        """Duplicate room names are reported by the dungeon check, which names the room."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        card = self.instance
        data = dungeon_from_forms(card.name, card.subtype, card.text, self)
        problems = validate_dungeon_dict(data)
        if problems:
            raise ValidationError(problems)
        self.dungeon_data = data


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A dungeon in the dungeons/data YAML format.")

    def clean_file(self) -> dict[str, Any]:
        raw = self.cleaned_data["file"].read()
        try:
            data = yaml.safe_load(raw)
        except yaml.YAMLError as e:
            raise ValidationError(f"Not valid YAML: {e}") from None
        if not isinstance(data, dict):
            raise ValidationError("A dungeon file holds one mapping (name, rooms, …).")
        problems = validate_dungeon_dict(data)
        if problems:
            raise ValidationError(problems)
        return data
