"""A mail when it becomes a player's turn in a correspondence game, for those who asked for one
(`Player.turn_mail`, set on the account page, to the account's address).

`store.commit` calls `mail_turn` once the decision has passed to another seat of a
correspondence game (the game starting counts: the first decision is handed out). Nothing is
sent to a player who is at that game's table now (a live connection: they see it), nor to a
guest (no address of their own, and nobody to log back in as).

The mail is built in the committing thread and handed to one sending thread, so an answer is
never kept waiting on a mail server (the SMTP timeout is in settings.MAILERS). A mail lost with
a process that stops is lost: the lobby's "Your turn" list is where a turn is always found.

Every mail carries a link that turns the mails off without logging in: a signed token naming
the player (django.core.signing, with the site's secret), as a page with one button, and as the
List-Unsubscribe / List-Unsubscribe-Post headers (RFC 8058) so a mail program's own
"unsubscribe" works in one click.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone

from game.models import Game, Player, Seat

from .correspondence import days_text, seconds_left
from .presence import absences

log = logging.getLogger(__name__)

_SALT = "venture.turn-mail.unsubscribe"
# A token is a player's id signed: a few dozen characters. Anything longer is refused before
# the signature is checked.
MAX_TOKEN_LENGTH = 120

_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="turn-mail")


def unsubscribe_token(player: Player) -> str:
    return signing.dumps(player.pk, salt=_SALT)


def player_for_token(token: str) -> Player | None:
    """The player a token names, or None for anything else (too long, forged, unknown)."""
    if len(token) > MAX_TOKEN_LENGTH:
        return None
    try:
        pk = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    return Player.objects.filter(pk=pk).first()


def may_get_mail(player: Player) -> bool:
    return not player.is_guest and not player.is_computer


def mail_turn(game_id: int, seat_id: int, *, at: datetime | None = None) -> bool:
    """Mail the seat's player that it is their turn, if they asked for it and are not at the
    table. Returns whether a mail was handed to the sender (after the commit that handed them
    the decision: it reads what that commit stored)."""
    at = at or timezone.now()
    seat = Seat.objects.select_related("player__user").filter(pk=seat_id).first()
    if seat is None:
        return False
    player = seat.player
    if not player.turn_mail or not may_get_mail(player) or not player.user.email:
        return False
    game = Game.objects.defer(*Game.BULKY).get(pk=game_id)
    if game.status != Game.ACTIVE or game.deciding != seat.engine_name:
        return False  # answered already (or over): no news
    seats = list(game.seats.select_related("player"))
    if absences(game, seats, at).get(seat.pk) is None:
        return False  # at the table: the page shows it
    other = next((s for s in seats if s.pk != seat.pk), None)
    message = _message(game, player, other.player.display_name if other else "", at)
    _sender.submit(_send, message, game.pk, player.pk)
    return True


def _message(game: Game, player: Player, opponent: str, at: datetime) -> EmailMessage:
    site = settings.VENTURE_SITE_URL
    off = site + reverse("turn_mail_off", args=[unsubscribe_token(player)])
    left = seconds_left(game, at)
    body = (
        f"Hello {player.display_name},\n\n"
        f"It is your turn in your correspondence game against {opponent} (turn {game.turn}).\n"
        f"You have {days_text(left or 0.0)} to answer; after that, {opponent} may claim "
        "the win.\n\n"
        f"Play your turn: {site}{game.get_absolute_url()}\n\n"
        "--\n"
        "You get this mail because you asked Venture to tell you when it is your turn.\n"
        f"To stop these mails: {off}\n"
    )
    return EmailMessage(
        subject=f"Venture: your turn against {opponent}",
        body=body,
        to=[player.user.email],
        headers={
            "List-Unsubscribe": f"<{off}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def _send(message: EmailMessage, game_id: int, player_id: int) -> None:
    try:
        message.send()
    except Exception:  # a mail server's failure must not reach the game; it is logged
        log.exception("game %s: the turn mail to player %s was not sent", game_id, player_id)


def flush(timeout: float = 30.0) -> None:
    """Wait until every mail handed to the sender so far is sent (tests, and a process that
    is about to stop)."""
    _sender.submit(lambda: None).result(timeout=timeout)
