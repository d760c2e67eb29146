"""ASGI entry point: HTTP through Django, websockets through Channels.

Run with `daphne game.asgi:application`.
"""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "game.settings")

# Django must be set up before anything that imports models (consumers, auth middleware), as
# django.core.asgi.get_asgi_application does; its handler, with a bound on the requests at work
# at once (game/runtime/http_slots.py).
django.setup(set_prefix=False)

from game.runtime.http_slots import SlottedASGIHandler  # noqa: E402

django_asgi_app = SlottedASGIHandler()

from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from game.bodylimit import BodyLimit  # noqa: E402
from game.computer_turns import ComputerConsumer, StartsComputer, start  # noqa: E402
from game.routing import AllowedHostValidator, websocket_urlpatterns  # noqa: E402
from game.runtime import gc_tuning  # noqa: E402

application = StartsComputer(
    ProtocolTypeRouter(
        {
            # Bodies over the limit are refused before Django reads them (game/bodylimit.py).
            "http": BodyLimit(django_asgi_app),
            # There is no CSRF on websockets: the Origin check is the cross-site defence. The Host
            # is checked as HTTP checks it (the socket's absolute links are made from it). The
            # session is attached here and read by the consumer after the handshake (no
            # AuthMiddleware: it would query the database before answering the handshake).
            "websocket": AllowedHostValidator(
                AllowedHostsOriginValidator(
                    SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
                )
            ),
            # The computer's turns, for `manage.py runworker --layer computer venture-computer`
            # (game/computer_turns.py); a server starts its own part below or at its first
            # request.
            "channel": ChannelNameRouter({settings.COMPUTER_CHANNEL: ComputerConsumer.as_asgi()}),
        }
    )
)

# Daphne has no ASGI lifespan, so under it the computer's part (game/computer_turns.py `start`)
# is started as its reactor starts running: a restarted server resumes the computer's pending turns
# before anyone reconnects. Elsewhere (runworker, tests) the first request or socket starts it.
_reactor = sys.modules.get("twisted.internet.reactor")
if _reactor is not None:
    _reactor.callLater(0, start)

# Everything is imported: freeze it and set the collector's thresholds (game/runtime/gc_tuning.py).
gc_tuning.tune()
