"""Admin for players and games: read-mostly views of the stored inputs and answer logs."""

from django.contrib import admin

from .models import ActionReceipt, CompletedDungeon, Game, GameAction, Player, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "is_guest", "created")
    list_filter = ("is_guest",)
    search_fields = ("display_name", "user__username")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "position",
        "player",
        "engine_name",
        "deck_name",
        "full_control",
        "pass_until",
        "clock_ms",
        "offline_since",
    )
    readonly_fields = ("engine_name", "clock_ms", "offline_since")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("code", "status", "created_by", "version", "winner", "created", "finished")
    list_filter = ("status",)
    search_fields = ("code", "seats__player__display_name")
    readonly_fields = (
        "version",
        "setup",
        "started",
        "finished",
        "winner",
        "end_reason",
        "clock_seconds",
        "clock_increment",
        "clock_since",
    )
    inlines = [SeatInline]


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ("game", "index", "seat", "answer", "auto", "note", "created")
    list_filter = ("auto", "note")
    search_fields = ("game__code",)


@admin.register(CompletedDungeon)
class CompletedDungeonAdmin(admin.ModelAdmin):
    list_display = ("player", "dungeon", "turn", "game", "completed_at")
    list_filter = ("dungeon",)


@admin.register(ActionReceipt)
class ActionReceiptAdmin(admin.ModelAdmin):
    """Every action id applied, for looking into a report of a click applied twice (it can't be:
    the id is unique per game) or not at all."""

    list_display = ("game", "kind", "action_id", "version", "seat", "created")
    list_filter = ("kind",)
    search_fields = ("game__code", "action_id")
