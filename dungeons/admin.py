"""Admin for dungeon cards (a plain registration; the full editor is issue "Dungeon cards are
data")."""

from django.contrib import admin

from .models import DungeonCard, Room, RoomExit


class RoomInline(admin.StackedInline):
    model = Room
    extra = 0
    fields = ("position", "name", "text", "effect")


@admin.register(DungeonCard)
class DungeonCardAdmin(admin.ModelAdmin):
    list_display = ("name", "subtype", "official")
    inlines = [RoomInline]


@admin.register(RoomExit)
class RoomExitAdmin(admin.ModelAdmin):
    list_display = ("from_room", "to_room", "position")
