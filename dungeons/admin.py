"""The dungeon editor, in the admin: rooms inline, each with its ability as steps
(django-nested-admin); each step shows only its operation's fields (swapped in with htmx when the
operation changes); a room's exits are picked from the dungeon's other rooms; a live map preview
with every problem of the unsaved dungeon; every saved version kept and restorable; an edited
official dungeon restored to its printed version in one click, and never deleted; "Try it"
(a practice game, game/views/dungeon_editor.py); duplicate as custom; YAML import and export."""

from __future__ import annotations

import re

import nested_admin
import yaml
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html

from .forms import DungeonCardForm, EffectStepForm, ImportForm, RoomForm, RoomFormSet
from .models import EDITED_SUFFIX, DungeonCard, DungeonRevision, EffectStep, Room, RoomExit
from .preview import editor_preview
from .storage import record_revision, restore_printed, restore_revision, save_dungeon

STEP_PREFIX = re.compile(r"^rooms-\d+-steps-(\d+|__prefix__)$")


class EffectStepInline(nested_admin.NestedStackedInline):
    model = EffectStep
    form = EffectStepForm
    extra = 0
    sortable_field_name = "position"
    # The operation and its parameters are the form's own fields (from the registry), which
    # step_fieldset.html shows; the model keeps them as one value.
    fields = ["position"]
    fieldset_template = "admin/dungeons/step_fieldset.html"
    verbose_name = "step"
    verbose_name_plural = "ability: its steps, in order"


class RoomInline(nested_admin.NestedStackedInline):
    model = Room
    form = RoomForm
    formset = RoomFormSet
    extra = 0
    sortable_field_name = "position"
    inlines = [EffectStepInline]
    fields = ["position", "name", "text", "leads_to"]
    fieldset_template = "admin/dungeons/room_fieldset.html"
    verbose_name_plural = "rooms (the first is the top room)"


class RevisionInline(nested_admin.NestedTabularInline):
    model = DungeonRevision
    extra = 0
    can_delete = False
    fields = ["created", "author", "note", "restore"]
    readonly_fields = ["created", "author", "note", "restore"]
    verbose_name_plural = "saved versions (newest first)"
    classes = ["collapse"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="")
    def restore(self, revision: DungeonRevision) -> str:
        url = reverse("admin:dungeons_dungeoncard_restore", args=[revision.dungeon_id, revision.pk])
        return format_html('<a class="button" href="{}">Restore this version</a>', url)


@admin.register(DungeonCard)
class DungeonCardAdmin(nested_admin.NestedModelAdmin):
    form = DungeonCardForm
    list_display = ["name", "kind", "subtype", "room_count"]
    list_filter = ["official", "subtype"]
    search_fields = ["name"]
    fields = ["name", "subtype", "text"]
    inlines = [RoomInline, RevisionInline]
    actions = ["duplicate_as_custom", "restore_printed_versions"]
    change_form_template = "admin/dungeons/dungeoncard/change_form.html"
    change_list_template = "admin/dungeons/dungeoncard/change_list.html"
    delete_selected_confirmation_template = (
        "admin/dungeons/dungeoncard/delete_selected_confirmation.html"
    )

    @admin.display(description="rooms")
    def room_count(self, card: DungeonCard) -> int:
        return card.rooms.count()

    @admin.display(description="card")
    def kind(self, card: DungeonCard) -> str:
        if not card.official:
            return "Custom"
        if card.is_edited():
            return f"Official, edited (games call it “{card.name}{EDITED_SUFFIX}”)"
        return "Official, as printed"

    def get_readonly_fields(self, request: HttpRequest, obj: DungeonCard | None = None):
        # An official card keeps its printed name: its printed version is found by it, and an
        # edited one is named "… (edited)" in games. Duplicate it to make a new dungeon.
        return ["name"] if obj is not None and obj.official else []

    # official dungeons are never deleted ------------------------------------------------------
    def has_delete_permission(self, request: HttpRequest, obj: DungeonCard | None = None) -> bool:
        if obj is not None and obj.official:
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request: HttpRequest):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        official = [o for o in objs if isinstance(o, DungeonCard) and o.official]
        if official:
            # Refused on the confirmation page and on its POST (Django's delete_selected
            # deletes nothing while anything is protected).
            protected = [o.name for o in official]
            perms_needed = set()
        return deleted, counts, perms_needed, protected

    def delete_queryset(self, request: HttpRequest, queryset) -> None:
        if queryset.filter(official=True).exists():
            raise PermissionDenied("Official dungeons can't be deleted.")
        super().delete_queryset(request, queryset)

    def delete_model(self, request: HttpRequest, obj: DungeonCard) -> None:
        if obj.official:
            raise PermissionDenied("Official dungeons can't be deleted.")
        super().delete_model(request, obj)

    def get_urls(self):
        def view(fn, name: str, route: str):
            return path(route, self.admin_site.admin_view(fn), name=f"dungeons_dungeoncard_{name}")

        extra = [
            view(self.restore_view, "restore", "<int:card_id>/restore/<int:revision_id>/"),
            view(self.restore_printed_view, "restore_printed", "<int:card_id>/restore-printed/"),
            view(self.export_view, "export", "<int:card_id>/export/"),
            view(self.import_view, "import", "import/"),
            view(self.preview_view, "preview", "preview/"),
            view(self.preview_view, "preview_change", "<int:card_id>/preview/"),
            view(self.step_fields_view, "step_fields", "step-fields/"),
        ]
        return extra + super().get_urls()

    # saving -----------------------------------------------------------------------------------
    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            card = form.instance
            # The arrows are picked on each room form, by the rooms' names.
            RoomExit.objects.filter(from_room__dungeon=card).delete()
            rooms = {r.name: r for r in card.rooms.all()}
            for formset in formsets:
                if not isinstance(formset, RoomFormSet):
                    continue
                for room_form in formset.forms:
                    data = getattr(room_form, "cleaned_data", None)
                    if not data or data.get("DELETE") or room_form.instance.pk is None:
                        continue
                    for i, name in enumerate(room_form.leads_to_names()):
                        RoomExit.objects.create(
                            from_room=room_form.instance, to_room=rooms[name], position=i
                        )
            record_revision(card, author=request.user, note="saved in the editor")

    def render_change_form(self, request: HttpRequest, context, *args, **kwargs):
        original = context.get("original")
        if original is not None:
            preview = reverse("admin:dungeons_dungeoncard_preview_change", args=[original.pk])
        else:
            preview = reverse("admin:dungeons_dungeoncard_preview")
        context["preview_url"] = preview
        context["step_fields_url"] = reverse("admin:dungeons_dungeoncard_step_fields")
        context["edited_official"] = original is not None and original.is_edited()
        context["edited_name"] = (original.name + EDITED_SUFFIX) if original else ""
        return super().render_change_form(request, context, *args, **kwargs)

    # the live editor ------------------------------------------------------------------------------
    def preview_view(self, request: HttpRequest, card_id: int | None = None) -> HttpResponse:
        """The map and every problem of the dungeon as the unsaved form describes it (POSTed
        by the editor as it changes); nothing is saved."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        card = get_object_or_404(DungeonCard, pk=card_id) if card_id else None
        allowed = (
            self.has_change_permission(request, card) if card else self.has_add_permission(request)
        )
        if not allowed:
            raise PermissionDenied
        card_form = self.get_form(request, card, change=card is not None)(
            request.POST, request.FILES, instance=card
        )
        card_form.is_valid()
        formsets, _ = self._create_formsets(request, card_form.instance, change=card is not None)
        rooms = next(f for f in formsets if isinstance(f, RoomFormSet))
        return render(request, "dungeons/_editor_preview.html", editor_preview(card_form, rooms))

    def step_fields_view(self, request: HttpRequest) -> HttpResponse:
        """The fields of one operation for the step `prefix` (swapped in when its operation
        changes), required ones first."""
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            raise PermissionDenied
        prefix = request.GET.get("prefix", "")
        if not STEP_PREFIX.match(prefix):
            return HttpResponseBadRequest("prefix: a step's form prefix, rooms-N-steps-M")
        form = EffectStepForm(prefix=prefix, initial={"op": request.GET.get("op", "")})
        return render(request, "admin/dungeons/_step_params.html", {"form": form})

    # extra views -------------------------------------------------------------------------------
    def restore_printed_view(self, request: HttpRequest, card_id: int) -> HttpResponse:
        card = get_object_or_404(DungeonCard, pk=card_id, official=True)
        if not self.has_change_permission(request, card):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        restore_printed(card, author=request.user)
        self.message_user(request, f"{card.name} is the printed card again.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:dungeons_dungeoncard_change", args=[card.pk]))

    @admin.action(description="Restore the printed version (official dungeons)")
    def restore_printed_versions(self, request: HttpRequest, queryset) -> None:
        if not self.has_change_permission(request):
            raise PermissionDenied
        for card in queryset:
            if not card.official:
                self.message_user(
                    request,
                    f"{card.name} is a custom dungeon: it has no printed version.",
                    messages.WARNING,
                )
            elif card.is_edited():
                restore_printed(card, author=request.user)
                self.message_user(request, f"{card.name} is the printed card again.")

    def restore_view(self, request: HttpRequest, card_id: int, revision_id: int) -> HttpResponse:
        card = get_object_or_404(DungeonCard, pk=card_id)
        if not self.has_change_permission(request, card):
            raise PermissionDenied
        revision = get_object_or_404(DungeonRevision, pk=revision_id, dungeon=card)
        if request.method == "POST":
            restore_revision(revision, author=request.user)
            self.message_user(
                request,
                f"{card.name} is back to the version of {revision.created:%Y-%m-%d %H:%M:%S}.",
            )
            return HttpResponseRedirect(
                reverse("admin:dungeons_dungeoncard_change", args=[card.pk])
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "card": card,
            "revision": revision,
            "yaml": yaml.safe_dump(revision.data, sort_keys=False, allow_unicode=True),
            "title": f"Restore {card.name}?",
        }
        return render(request, "admin/dungeons/dungeoncard/restore.html", context)

    def export_view(self, request: HttpRequest, card_id: int) -> HttpResponse:
        card = get_object_or_404(DungeonCard, pk=card_id)
        if not self.has_view_permission(request, card):
            raise PermissionDenied
        text = yaml.safe_dump(card.to_dict(), sort_keys=False, allow_unicode=True)
        response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
        slug = card.name.lower().replace(" ", "_").replace("'", "")
        response["Content-Disposition"] = f'attachment; filename="{slug}.yaml"'
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"]
            existing = DungeonCard.objects.filter(name=data["name"], official=True).exists()
            if existing:
                form.add_error(
                    "file", f"{data['name']} is an official dungeon; import it under another name."
                )
            else:
                card = save_dungeon(data, official=False, author=request.user, note="imported")
                self.message_user(request, f"Imported {card.name}.")
                return HttpResponseRedirect(
                    reverse("admin:dungeons_dungeoncard_change", args=[card.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "title": "Import a dungeon",
        }
        return render(request, "admin/dungeons/dungeoncard/import.html", context)

    @admin.action(description="Duplicate as custom")
    def duplicate_as_custom(self, request: HttpRequest, queryset) -> None:
        if not self.has_add_permission(request):
            raise PermissionDenied
        for card in queryset:
            data = card.to_dict()
            name = f"{card.name} (custom)"
            n = 2
            while DungeonCard.objects.filter(name=name).exists():
                name = f"{card.name} (custom {n})"
                n += 1
            data["name"] = name
            save_dungeon(
                data, official=False, author=request.user, note=f"duplicated from {card.name}"
            )
            self.message_user(request, f"Created {name}.", messages.SUCCESS)
