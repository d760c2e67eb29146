"""The admin's step form is built from the engine's registry (game/engine/ops.py): its
operations, its parameter fields and their kinds, and its errors; bad input is named and
nothing is saved."""

from __future__ import annotations

import copy

import pytest
from django import forms
from django.core.exceptions import ValidationError

from dungeons.forms import EffectStepForm
from dungeons.models import DungeonCard, EffectStep
from dungeons.steps import ALL_PARAMS
from game.engine import ops
from game.engine.ops import BOOL, INT, PAIR, TARGET, TEXT, WORDS, Op, Param
from tests.dungeon_samples import cellar

from .test_admin import ADD_URL, admin_client, post_data  # noqa: F401 - admin_client: fixture

STEP_FORM_OWN = {"position", "id", "room", "DELETE"}


def test_the_form_has_one_field_per_parameter_and_offers_every_data_operation():
    form = EffectStepForm()
    params = ops.data_params()
    assert set(form.fields) - STEP_FORM_OWN == {"op", *params}
    assert set(ALL_PARAMS) == set(params)
    offered = [value for value, _ in form.fields["op"].choices if value]
    assert offered == list(ops.data_ops())


def test_each_field_has_the_kind_its_parameter_declares():
    form = EffectStepForm()
    for name, param in ops.data_params().items():
        field = form.fields[name]
        assert not field.required, name  # required is per operation, checked in clean()
        if param.type == INT:
            assert isinstance(field, forms.IntegerField), name
            assert field.min_value == param.minimum, name
        elif param.type == BOOL:
            assert isinstance(field, forms.BooleanField), name
        elif param.type == WORDS and param.choices:
            assert isinstance(field, forms.MultipleChoiceField), name  # ticked, not typed
            assert [v for v, _ in field.choices] == list(param.choices), name
        elif param.type == TARGET or (param.type == TEXT and param.choices):
            assert isinstance(field, forms.ChoiceField), name
            if param.type == TEXT:
                assert [v for v, _ in field.choices if v] == list(param.choices), name
        else:
            assert isinstance(field, forms.CharField), name


def _sample(param: Param) -> object:
    """A value of the parameter's type the registry accepts."""
    by_type = {
        INT: 2,
        BOOL: True,
        TEXT: param.choices[0] if param.choices else "a Bird",
        WORDS: [param.choices[-1]] if param.choices else ["Bird", "Cat"],
        PAIR: [1, 3],
        TARGET: "creature",
    }
    return by_type[param.type]


@pytest.mark.django_db
def test_every_operation_is_kept_with_every_parameter_it_takes_and_read_back_alike():
    room = DungeonCard.objects.get(name="Undercity").rooms.first()
    for name, entry in ops.data_ops().items():
        step = {"op": name, **{p.name: _sample(p) for p in entry.data_params}}
        kept = EffectStep(room=room, position=0, data=step)
        kept.full_clean()
        kept.save()
        kept.refresh_from_db()
        assert kept.to_step() == step, name
        # and the editor shows it as given: its form, unchanged, gives the same step back
        shown = EffectStepForm(instance=kept)
        assert shown.chosen_op() == name
        posted = EffectStepForm(data={"position": "0", **_posted(shown)}, instance=kept)
        assert posted.is_valid(), (name, posted.errors)
        assert posted.to_step() == step, name
        assert not posted.has_changed(), (name, posted.changed_data)


def _posted(form: EffectStepForm) -> dict:
    out = {}
    for name in ["op", *ALL_PARAMS]:
        value = form.initial.get(name)
        if value is None or value is False:
            continue
        out[name] = "on" if value is True else value if isinstance(value, list) else str(value)
    return out


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"op": "scry", "amount": -1}, "amount", "amount can't be negative"),
        ({"op": "scry"}, "amount", "missing parameter 'amount'"),
        ({"op": "scry", "amount": 1, "who": "you"}, "who", "unknown parameter 'who'"),
        ({"op": "teleport"}, "op", "unknown operation 'teleport'"),
        ({"op": "modify", "set_base": ["x", 1]}, "set_base", "set_base takes two whole numbers"),
        ({"amount": 1}, "__all__", "a step is a mapping with an 'op'"),
        ("scry 1", "__all__", "a step is a mapping with an 'op'"),
    ],
)
def test_a_step_the_registry_refuses_is_refused_by_the_model_on_its_field(data, field, message):
    with pytest.raises(ValidationError) as refused:
        EffectStep(data=data).clean()
    assert any(message in e for e in refused.value.message_dict[field]), refused.value


def _form(**values: str) -> EffectStepForm:
    return EffectStepForm(data={"position": "0", **values})


@pytest.mark.parametrize(
    "values, field, message",
    [
        ({"op": "gain_life"}, "amount", "gain life needs amount."),
        ({"op": "scry", "amount": "two"}, "amount", "Enter a whole number."),
        ({"op": "scry", "amount": "-1"}, "amount", "greater than or equal to 0"),
        ({"op": "scry", "amount": "1", "who": "you"}, "who", "scry takes amount; not who."),
        ({"op": "teleport"}, "op", "Select a valid choice. teleport is not one of"),
        ({"op": "gain_life", "amount": "1", "who": "all"}, "who", "Select a valid choice."),
    ],
)
def test_bad_input_is_named_on_its_field(values, field, message):
    form = _form(**values)
    assert not form.is_valid()
    assert any(message in e for e in form.errors[field]), form.errors


def test_a_newly_declared_operation_is_offered_with_its_parameters(monkeypatch):
    entry = Op(
        "test_echo",
        lambda g, c, s: None,
        (Param("amount", INT, required=True, minimum=0),),
        does="t",
    )
    monkeypatch.setitem(ops.REGISTRY, "test_echo", entry)
    assert "test_echo" in [v for v, _ in EffectStepForm().fields["op"].choices]
    form = _form(op="test_echo")
    assert not form.is_valid() and form.errors["amount"] == ["test echo needs amount."]
    form = _form(op="test_echo", amount="3")
    assert form.is_valid(), form.errors
    assert form.to_step() == {"op": "test_echo", "amount": 3}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.update(amount="two"), "Enter a whole number."),
        (lambda s: s.update(amount=-2), "greater than or equal to 0"),
        (lambda s: s.update(op="teleport"), "teleport is not one of the available choices"),
    ],
)
def test_the_admin_page_names_bad_step_input_and_saves_nothing(admin_client, change, message):  # noqa: F811
    dungeon = copy.deepcopy(cellar())
    change(dungeon["rooms"][0]["effect"][0])
    before = DungeonCard.objects.count()
    resp = admin_client.post(ADD_URL, post_data(dungeon))
    assert resp.status_code == 200
    assert message in resp.content.decode()
    assert DungeonCard.objects.count() == before


@pytest.mark.django_db
def test_a_pair_that_is_not_two_numbers_is_reported_by_the_dungeon_check(admin_client):  # noqa: F811
    dungeon = copy.deepcopy(cellar())
    dungeon["rooms"][1]["effect"] = [{"op": "modify", "target": "creature", "set_base": [1, 1]}]
    data = post_data(dungeon)
    data["rooms-1-steps-0-set_base"] = "x/1"
    resp = admin_client.post(ADD_URL, data)
    assert resp.status_code == 200
    assert "set_base takes two whole numbers" in resp.content.decode()
