"""The dungeon editor's forms: a form per room (its exits picked from the dungeon's other rooms),
a form per effect step (only its operation's fields), and the whole-dungeon check before
anything is saved.

The step form's operations and parameter fields are built from the engine's registry
(`game/engine/ops.py`): a parameter's type gives its field (a number, a checkbox, a list of
choices, a text), its declaration the help beside it, and the chosen operation which of them the
editor shows (`EffectStepForm.op_fields`, required ones first);
tests/dungeons/test_vocabulary_form.py holds the form to the registry."""

from __future__ import annotations

from typing import Any

import yaml
from django import forms
from django.core.exceptions import ValidationError

from game.engine.dungeon import validate_dungeon_dict
from game.engine.ops import BOOL, INT, TARGET, TEXT, WORDS, Op, Param, data_ops, data_params

from .models import EDITED_SUFFIX, DungeonCard, EffectStep, Room
from .problems import Problem, merge
from .steps import ALL_PARAMS, fields_to_step, step_to_fields
from .wording import TARGET_REFERENCES, TARGET_WORDS, sentence, value_words


def _label(value: str) -> str:
    return value.replace("_", " ")


def op_label(entry: Op) -> str:
    return _label(entry.name)


TARGET_FIELD_CHOICES = [
    ("", "—"),
    ("Choose a new target", [(k, TARGET_WORDS.get(k, _label(k))) for k in TARGET_WORDS]),
    ("Name an earlier one", list(TARGET_REFERENCES.items())),
]


def _help(text: str, param: Param) -> str:
    # The registry words a list for a file ("comma-separated"); here its words are ticked.
    if param.type == WORDS and param.choices:
        return text.replace(", comma-separated", "")
    return text


def param_field(param: Param) -> forms.Field:
    """The form field for one parameter of the registry."""
    common: dict[str, Any] = {
        "required": False,
        "help_text": _help(param.help, param),
        "label": _label(param.name) + (" (required)" if param.required else ""),
    }
    if param.type == INT:
        return forms.IntegerField(min_value=param.minimum, **common)
    if param.type == BOOL:
        return forms.BooleanField(**common)
    if param.type == TARGET:
        return forms.ChoiceField(choices=TARGET_FIELD_CHOICES, **common)
    if param.type == TEXT and param.choices:
        choices = [(c, value_words(param.name, c)) for c in param.choices]
        return forms.ChoiceField(choices=[("", "—"), *choices], **common)
    if param.type == WORDS and param.choices:
        return forms.MultipleChoiceField(
            choices=[(c, c) for c in param.choices],
            widget=forms.CheckboxSelectMultiple(attrs={"class": "word-choices"}),
            **common,
        )
    return forms.CharField(max_length=TYPED_LENGTH.get(param.name, TYPED), **common)


# How long a typed value may be (a name the log gives a token, a list of words, a pair).
TYPED = 120
TYPED_LENGTH = {"set_base": 10, "set_subtypes": 80}


def _step_fields() -> dict[str, forms.Field]:
    op = forms.ChoiceField(
        label="operation",
        choices=[("", "— choose what this step does —")]
        + [(name, op_label(entry)) for name, entry in data_ops().items()],
    )
    return {"op": op, **{name: param_field(p) for name, p in data_params().items()}}


def op_params(name: str) -> list[Param]:
    """The parameters the editor shows for operation `name`: required ones first."""
    entry = data_ops().get(name)
    if entry is None:
        return []
    params = list(entry.data_params)
    return [p for p in params if p.required] + [p for p in params if not p.required]


class EffectStepForm(forms.ModelForm):
    """A step's form: its operation and a field per parameter of the registry, which the form
    turns into the one value the model keeps (`EffectStep.data`)."""

    class Meta:
        model = EffectStep
        fields = ["position"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(_step_fields())
        self.fields["position"].widget = forms.HiddenInput()
        if self.instance.pk and self.instance.data:
            self.initial = {**_initial(self.instance.to_step()), **self.initial}
        for p in op_params(self.chosen_op()):
            field = self.fields[p.name]
            field.label = _label(p.name) + (" (required)" if p.required else "")
            field.help_text = _help(p.help or data_params()[p.name].help, p)

    def chosen_op(self) -> str:
        if self.is_bound:
            return self.data.get(self.add_prefix("op"), "") or ""
        return self.initial.get("op") or ""

    def op_fields(self) -> list[forms.BoundField]:
        """The fields of the chosen operation, required first (what the editor shows), each
        labelled and explained as this operation declares it."""
        return [self[p.name] for p in op_params(self.chosen_op())]

    def stray_errors(self) -> list[str]:
        """Errors of fields the chosen operation doesn't show (a value sent for a parameter it
        doesn't take), so that none is hidden."""
        shown = {"op", "position", *(p.name for p in op_params(self.chosen_op()))}
        return [
            f"{_label(name)}: {e}"
            for name, errors in self.errors.items()
            if name not in shown and name != "__all__"
            for e in errors
        ]

    def op_does(self) -> str:
        entry = data_ops().get(self.chosen_op())
        return entry.does if entry else ""

    def words(self) -> str:
        """This step in words, from what the form holds now."""
        name = self.chosen_op()
        if not name:
            return ""
        if self.is_bound:
            self.is_valid()
            values = {**getattr(self, "cleaned_data", {}), "op": name}
            values = {k: v for k, v in values.items() if k == "op" or k in ALL_PARAMS}
        else:
            values = {"op": name, **{k: self[k].value() for k in ALL_PARAMS}}
        return sentence(fields_to_step(values))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        entry = data_ops().get(data.get("op") or "")
        if entry is None:
            return data  # no operation, or an unknown one the field has already reported
        name = _label(entry.name)
        allowed = [p.name for p in entry.data_params]
        for key in ALL_PARAMS:
            if data.get(key) in (None, "", False, []) or key in allowed:
                continue
            accepted = ", ".join(allowed) or "no parameters"
            self.add_error(key, f"{name} takes {accepted}; not {key}.")
        for key in entry.required:
            if data.get(key) in (None, ""):
                self.add_error(key, f"{name} needs {key}.")
        return data

    def to_step(self) -> dict[str, Any]:
        return fields_to_step(self.cleaned_data)

    def _post_clean(self) -> None:
        # The model keeps the step the fields describe and checks it against the registry
        # (EffectStep.clean). A form that has already named a mistake is not checked again, so
        # the designer never reads one mistake twice in two wordings.
        if self._errors:
            return
        self.instance.data = self.to_step()
        super()._post_clean()


def _initial(step: dict[str, Any]) -> dict[str, Any]:
    """A kept step's field values; a list of words to tick stays a list."""
    initial = step_to_fields(step)
    for name, param in data_params().items():
        if param.type == WORDS and param.choices and name in step:
            initial[name] = list(step[name])
    return initial


class DungeonCardForm(forms.ModelForm):
    class Meta:
        model = DungeonCard
        fields = ["name", "subtype", "text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 2})}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if name.endswith(EDITED_SUFFIX):
            raise ValidationError(
                f"A name ending in “{EDITED_SUFFIX.strip()}” is how games call an edited "
                "official dungeon; choose another."
            )
        return name


class RoomNamesField(forms.MultipleChoiceField):
    """The rooms a room leads to. Any name is accepted here: one that is not a room of the
    dungeon is reported by the dungeon check, with the room it comes from."""

    def valid_value(self, value: str) -> bool:
        return True


class RoomForm(forms.ModelForm):
    leads_to = RoomNamesField(
        required=False,
        label="leads to",
        widget=forms.CheckboxSelectMultiple(attrs={"class": "exit-choices"}),
        help_text="The rooms this room's arrows point to; none for a bottommost room.",
    )

    class Meta:
        model = Room
        fields = ["position", "name", "text", "leads_to"]
        widgets = {
            "text": forms.Textarea(attrs={"rows": 2}),
            "position": forms.HiddenInput(),
        }
        help_texts = {"text": "The room's printed text, as players read it on the map."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["leads_to"].initial = [
                e.to_room.name for e in self.instance.exits.order_by("position")
            ]

    def current_name(self) -> str:
        if self.is_bound:
            return (self.data.get(self.add_prefix("name")) or "").strip()
        return self.instance.name or ""

    def set_other_rooms(self, names: list[str]) -> None:
        own = self.current_name()
        chosen = self["leads_to"].value() or []
        # The other rooms, plus any chosen name that is no longer a room (so it stays visible
        # and the dungeon check can name it).
        others = [n for n in names if n and n != own]
        others += [n for n in chosen if n not in others]
        self.fields["leads_to"].choices = [(n, n) for n in others]

    def leads_to_names(self) -> list[str]:
        return list(self.cleaned_data.get("leads_to") or [])


def live_forms(formset: forms.BaseFormSet) -> list[forms.Form]:
    """Forms that describe a kept row: filled in and not marked for deletion."""
    out = []
    for f in formset.forms:
        f.is_valid()
        data = getattr(f, "cleaned_data", None)
        if data and not data.get("DELETE"):
            out.append(f)
    return out


def ordered(forms_: list[forms.Form]) -> list[forms.Form]:
    return sorted(forms_, key=lambda f: f.cleaned_data.get("position") or 0)


def dungeon_from_forms(card_name: str, subtype: str, text: str, room_formset: Any) -> dict:
    """The dungeon the submitted forms describe, in the dungeons/data format (what is valid of
    it: a field the form refused is left out and reported by the form)."""
    rooms = []
    for form in ordered(live_forms(room_formset)):
        steps: list[dict[str, Any]] = []
        for nested in getattr(form, "nested_formsets", []):
            for step_form in ordered(live_forms(nested)):
                if step_form.cleaned_data.get("op"):
                    steps.append(step_form.to_step())
        rooms.append(
            {
                "name": form.cleaned_data.get("name") or form.current_name(),
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


def form_problems(card_form: forms.Form | None, room_formset: Any) -> list[Problem]:
    """The editor's own problems: every field error of the card, its rooms and their steps."""
    out: list[Problem] = []
    if card_form is not None:
        card_form.is_valid()
        for field, errors in card_form.errors.items():
            for e in errors:
                out.append(Problem(e, None, None, field, card_form[field].auto_id or ""))
    live = ordered(live_forms(room_formset)) + [
        f for f in room_formset.forms if not getattr(f, "cleaned_data", None) and f.errors
    ]
    for room_form in live:
        room = room_form.current_name()
        for field, errors in room_form.errors.items():
            anchor = room_form[field].auto_id if field in room_form.fields else ""
            out += [Problem(e, room, None, field, anchor or "") for e in errors]
        for nested in getattr(room_form, "nested_formsets", []):
            for n, step_form in enumerate(ordered(live_forms(nested)), start=1):
                for field, errors in step_form.errors.items():
                    anchor = step_form[field].auto_id if field in step_form.fields else ""
                    out += [Problem(e, room, n, field, anchor or "") for e in errors]
    return out


def dungeon_problems(card_form: forms.Form | None, room_formset: Any, data: dict) -> list[Problem]:
    """Every problem of the dungeon being edited, each once, each where it belongs."""
    return merge(form_problems(card_form, room_formset), validate_dungeon_dict(data))


class RoomFormSet(forms.BaseInlineFormSet):
    """The rooms: each offered the others as exits; nothing is saved while the dungeon the forms
    describe breaks a rule (every problem listed, not only the first pass of them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [f.current_name() for f in self.forms]
        for f in self.forms:
            f.set_other_rooms(names)

    @property
    def empty_form(self) -> forms.Form:
        form = super().empty_form
        form.set_other_rooms([f.current_name() for f in self.forms])
        return form

    def validate_unique(self) -> None:
        """Duplicate room names are reported by the dungeon check, which names the room."""

    def clean(self) -> None:
        super().clean()
        card = self.instance
        data = dungeon_from_forms(card.name, card.subtype, card.text, self)
        own = form_problems(None, self)
        problems = [p for p in dungeon_problems(None, self, data) if p not in own]
        if problems:
            raise ValidationError(
                [f"{p.where}: {p.message}" if p.where else p.message for p in problems]
            )
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
