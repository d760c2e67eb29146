"""Admin for dungeon cards: rooms inline, each with its ability as a form per effect step
(django-nested-admin), the arrows as room names, a check of the whole dungeon before saving,
every saved version kept and restorable, duplicate as custom, YAML import and export."""

from __future__ import annotations

import nested_admin
import yaml
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html

from .forms import EffectStepForm, ImportForm, RoomForm, RoomFormSet
from .models import DungeonCard, DungeonRevision, EffectStep, Room, RoomExit
from .storage import record_revision, restore_revision, save_dungeon


class EffectStepInline(nested_admin.NestedTabularInline):
    model = EffectStep
    form = EffectStepForm
    extra = 0
    sortable_field_name = "position"
    verbose_name = "effect step"
    verbose_name_plural = "ability (effect steps, in order)"


class RoomInline(nested_admin.NestedStackedInline):
    model = Room
    form = RoomForm
    formset = RoomFormSet
    extra = 0
    sortable_field_name = "position"
    inlines = [EffectStepInline]
    fields = ["position", "name", "text", "leads_to"]


class RevisionInline(nested_admin.NestedTabularInline):
    model = DungeonRevision
    extra = 0
    can_delete = False
    fields = ["created", "author", "note", "restore"]
    readonly_fields = ["created", "author", "note", "restore"]
    verbose_name_plural = "saved versions (newest first)"

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="")
    def restore(self, revision: DungeonRevision) -> str:
        url = reverse("admin:dungeons_dungeoncard_restore", args=[revision.dungeon_id, revision.pk])
        return format_html('<a class="button" href="{}">Restore this version</a>', url)


@admin.register(DungeonCard)
class DungeonCardAdmin(nested_admin.NestedModelAdmin):
    list_display = ["name", "subtype", "official", "room_count"]
    list_filter = ["official", "subtype"]
    search_fields = ["name"]
    fields = ["name", "subtype", "text", "official"]
    readonly_fields = ["official"]
    inlines = [RoomInline, RevisionInline]
    actions = ["duplicate_as_custom"]
    change_form_template = "admin/dungeons/dungeoncard/change_form.html"
    change_list_template = "admin/dungeons/dungeoncard/change_list.html"

    @admin.display(description="rooms")
    def room_count(self, card: DungeonCard) -> int:
        return card.rooms.count()

    def get_urls(self):  # noqa: ANN201
        extra = [
            path(
                "<int:card_id>/restore/<int:revision_id>/",
                self.admin_site.admin_view(self.restore_view),
                name="dungeons_dungeoncard_restore",
            ),
            path(
                "<int:card_id>/export/",
                self.admin_site.admin_view(self.export_view),
                name="dungeons_dungeoncard_export",
            ),
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="dungeons_dungeoncard_import",
            ),
        ]
        return extra + super().get_urls()

    # saving -----------------------------------------------------------------------------------
    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:  # noqa: ANN001
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            card = form.instance
            # The arrows are edited as room names on each room form.
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
            record_revision(card, author=request.user, note="saved in the admin")

    # extra views -------------------------------------------------------------------------------
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
    def duplicate_as_custom(self, request: HttpRequest, queryset) -> None:  # noqa: ANN001
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
