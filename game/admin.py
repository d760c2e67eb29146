"""Admin for players and games: read-mostly views of the stored inputs and answer logs; the
chat's moderation queue."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from .models import (
    ActionReceipt,
    ChatMessage,
    ChatReport,
    CompletedDungeon,
    Game,
    GameAction,
    Player,
    Seat,
)
from .services import chat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "user", "is_guest", "chat_free_text", "created")
    list_filter = ("is_guest", "chat_free_text")
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
        "days_per_move",
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


# The chat's moderation queue (services/chat.py) ---------------------------------------------------
# Every message is shown as text: the admin escapes what a method returns, and the lines around a
# report go through format_html, which escapes each one.
def _excerpt(message: ChatMessage) -> str:
    words = chat.words(message)
    return words if len(words) <= 80 else words[:79] + "…"


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    """Reported chat messages, the unhandled first: the message, its game (and room) and the
    lines around it; staff mark a report handled (an action, or the tick on its page)."""

    list_display = ("created", "message_text", "author", "reporter", "game_link", "handled")
    list_filter = ("handled", "message__room")
    search_fields = ("message__body", "message__author__display_name", "message__game__code")
    list_select_related = ("message__author", "message__game", "reporter")
    fields = (
        "message_text",
        "author",
        "game_link",
        "room",
        "reporter",
        "created",
        "lines_around",
        "handled",
        "handled_by",
        "handled_at",
    )
    readonly_fields = tuple(f for f in fields if f != "handled")
    actions = ["mark_handled"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a report comes from the table

    @admin.display(description="message")
    def message_text(self, report: ChatReport) -> str:
        return _excerpt(report.message)

    @admin.display(description="written by")
    def author(self, report: ChatReport) -> str:
        return report.message.author.display_name

    @admin.display(description="room")
    def room(self, report: ChatReport) -> str:
        return report.message.get_room_display()

    @admin.display(description="game")
    def game_link(self, report: ChatReport) -> str:
        game = report.message.game
        url = reverse("admin:game_game_change", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, game.code)

    @admin.display(description="the lines around it")
    def lines_around(self, report: ChatReport) -> str:
        """Up to five lines of the room before and after the message, the message marked."""

        def line(m: ChatMessage) -> str:
            said = format_html("{}: {}", m.author.display_name, chat.words(m))
            return format_html("<mark>{}</mark>", said) if m.pk == report.message_id else said

        return format_html(
            '<ol class="chat-context">{}</ol>',
            format_html_join(
                "", "<li>{}</li>", ((line(m),) for m in chat.lines_around(report.message))
            ),
        )

    @admin.action(description="Mark the selected reports handled")
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        done = queryset.filter(handled=False).update(
            handled=True, handled_by=request.user, handled_at=timezone.now()
        )
        self.message_user(request, f"{done} report(s) marked handled.")

    def save_model(self, request: HttpRequest, obj: ChatReport, form: Any, change: bool) -> None:
        if obj.handled and obj.handled_at is None:
            obj.handled_by, obj.handled_at = request.user, timezone.now()
        elif not obj.handled:
            obj.handled_by, obj.handled_at = None, None
        super().save_model(request, obj, form, change)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Every chat message, read-only: to look a game's chat up (search by game code or name)."""

    list_display = ("created", "game", "room", "author", "kind", "text")
    list_filter = ("room", "kind")
    search_fields = ("body", "author__display_name", "game__code")
    list_select_related = ("game", "author")
    readonly_fields = ("game", "room", "author", "kind", "body", "version", "created")
    exclude = ("client_action_id",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="words")
    def text(self, message: ChatMessage) -> str:
        return _excerpt(message)
