"""Who is asking: the request's player, and the deck they imported last (offered again in
every deck form)."""

from __future__ import annotations

from django.http import HttpRequest

from game import services
from game.forms.new_game import IMPORTED, DeckChoiceForm
from game.models import Player


def current_player(request: HttpRequest) -> Player | None:
    """The request's Player; an account made outside the site (createsuperuser) gets one."""
    user = request.user
    if not user.is_authenticated:
        return None
    player = services.player_for_user(user)
    if player is None:
        player = Player.objects.create(user=user, display_name=user.get_username()[:30])
    return player


def deck_form_initial(player: Player | None) -> dict[str, str]:
    if player is not None and player.last_decklist:
        return {"decklist": player.last_decklist}
    return {}


def remember_import(player: Player, form: DeckChoiceForm) -> None:
    if form.cleaned_data.get("deck") == IMPORTED:
        player.last_decklist = form.cleaned_data.get("decklist", "")
        player.save(update_fields=["last_decklist"])
