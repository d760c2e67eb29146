"""Django settings for Venture.

Embedded default: SQLite (WAL) + InMemoryChannelLayer in one Daphne process.
Scale-out: set DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis) and run any number
of Daphne processes.

Environment:
    DJANGO_DEBUG          "true"/"false" (default true: development)
    DJANGO_SECRET_KEY     required when DEBUG is off
    DJANGO_ALLOWED_HOSTS  comma-separated (default 127.0.0.1,localhost,testserver)
    DATABASE_URL          e.g. postgres://app:app@127.0.0.1:5432/app (default SQLite db.sqlite3)
    REDIS_URL             e.g. redis://127.0.0.1:6379/0 (default: in-memory channel layer)
    REDIS_CHANNEL_LAYER   "pubsub" (default) or "core": which channels-redis layer REDIS_URL uses
    REDIS_PREFIX          channels-redis key prefix (default "asgi"): two deployments, or two
                          test runs, can share one Redis database without hearing each other
    VENTURE_LOG_LEVEL     level of the "game" loggers on stderr (default WARNING; INFO shows
                          every full replay of a game's log, DEBUG every catch-up)
    DJANGO_HTTPS          "true" when the site is served over HTTPS (directly or behind a proxy
                          that sets X-Forwarded-Proto): secure cookies, redirect to HTTPS, HSTS.
                          Production is DEBUG off + SECRET_KEY + ALLOWED_HOSTS + HTTPS; then
                          `manage.py check --deploy` reports nothing (docs/security.md)
    DJANGO_HSTS_SECONDS   HSTS max-age with DJANGO_HTTPS (default one year)
    DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated, e.g. https://venture.example (behind a proxy)
    VENTURE_ABANDON_SECONDS  how long a disconnected player has to come back before the
                          opponent may claim the win (default 120)
    VENTURE_TAKEBACKS_PER_PLAYER  how many times each player may ask to take back an answer in
                          one game (default 3; whatever the answer: docs/rules-coverage.md)
    VENTURE_ABSENCE_GRACE_SECONDS  how long a player may be away before the opponent is shown
                          the countdown (default 5: a reload is not news)
    VENTURE_WS_RATE       websocket messages a connection may send: "per_second/burst"
                          (default "20/40"); more are refused with a message, not applied
    VENTURE_WS_SOCKETS_PER_SESSION, VENTURE_WS_SOCKETS_PER_ADDRESS  websockets one browser
                          session / one client address may hold open on a process at once
                          (default 16 and 64: tabs; a LAN behind one address); more are closed
                          with code 4429 and a sentence on the page
    VENTURE_WS_SESSION_RATE, VENTURE_WS_ADDRESS_RATE  messages all the sockets of one session /
                          one address may send together: "per_second/burst" (default "20/40"
                          and "100/200"), on top of VENTURE_WS_RATE
    VENTURE_WS_SPECTATOR_RATE  a spectator socket's own bucket in place of VENTURE_WS_RATE
                          (default "2/10": a spectator's page has no form to send)
    VENTURE_DB_THREADS    threads per process for the websockets' database work and renders
                          (default 1; each holds its own database connection)
    VENTURE_HTTP_CONCURRENCY  HTTP requests a process works on at once (default 16); the others
                          wait their turn. Each holds a database connection while it works:
                          processes x (this + VENTURE_DB_THREADS + 1) must stay under the
                          database's max_connections (game/runtime/http_slots.py)
    VENTURE_GC_THRESHOLDS the garbage collector's thresholds in a server process (default
                          "3000,10,10"; "" keeps Python's 700,10,10): game/runtime/gc_tuning.py
    VENTURE_COMPUTER      who runs the computer opponent's turns (game/computer_turns.py):
                          "server" (default: each Daphne process, in VENTURE_COMPUTER_PROCESSES
                          child processes) or "worker" (needs REDIS_URL: `manage.py runworker
                          --layer computer venture-computer` processes; the servers only keep
                          watch)
    VENTURE_COMPUTER_PROCESSES  child processes a server thinks in (default 1; 0: in a thread of
                          the server, which then competes with its pages for the interpreter)
    VENTURE_COMPUTER_DELAY_SECONDS  the least time between the computer's turn to decide and its
                          answer, so a person can follow (default 0.6)
    VENTURE_COMPUTER_TIMEOUT_SECONDS  a computer decision not answered this long after it was
                          handed out is handed out again (default 30: a worker died mid-thought)
    VENTURE_COMPUTER_GAMES_PER_PLAYER  games against the computer one player may run at once
                          (default 3; one more is refused with a message): the computer's
                          thinking is shared between players (game/services/computer_limit.py)
    VENTURE_RATE_LIMITS   JSON overriding entries of the HTTP rate limits, e.g.
                          '{"guest": {"address": "100/minute"}}' (docs/security.md, "Rate
                          limits"): each action ("guest", "game", "seek", "chat", "login",
                          "post") has a limit per browser session and one per client address
    VENTURE_TRUSTED_PROXIES  comma-separated addresses or networks of proxies in front of the
                          servers: a request from one of them is counted against the client
                          address its X-Forwarded-For names (default: none, REMOTE_ADDR is the
                          client)
    VENTURE_CHAT_MAX_LENGTH  characters in one free-text chat message (default 140, at most 500)
    VENTURE_SITE_URL      the site's address as players reach it, for the links in mails
                          (default http://127.0.0.1:8000)
    EMAIL_HOST            an SMTP server: mail (the correspondence turn mails players ask for)
                          goes through it; unset, every mail is printed on the server's console
                          while DJANGO_DEBUG is on, and sent to localhost:25 without TLS when off
    EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS  that server's port (default
                          587), login and STARTTLS (default true)
    DEFAULT_FROM_EMAIL    the mails' sender (default "Venture <venture@localhost>")
"""

import ipaddress
import json
import os
from pathlib import Path

import dj_database_url
import limits
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", default=True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "django-insecure-venture-dev-only-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Served over HTTPS: cookies only over TLS, plain HTTP redirected, browsers told to remember
# (HSTS). Off by default because a game on a LAN is plain HTTP (README); docs/security.md.
HTTPS = env_bool("DJANGO_HTTPS", default=False)
if HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (docs/security.md, "Content-Security-Policy"): everything from this
# origin, no inline script (a <script> needs the page's nonce; there is no inline event handler),
# no eval (htmx's is turned off in base.html), websockets to this host ('self' matches ws: and
# wss: of the same host and port, CSP Level 3). Style attributes are allowed: the board draws the
# dungeon maps' geometry with them (server-computed CSS variables, also without JavaScript);
# <style> elements are not, and htmx's own indicator style is turned off.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "style-src-elem": [CSP.SELF, CSP.NONCE],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

INSTALLED_APPS = [
    # daphne before staticfiles so `manage.py runserver` serves ASGI and websockets.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "nested_admin",
    "game",
    "dungeons",
    "learn",  # the Learn section and the puzzles
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything that may answer: every page, a 429 and an error page included, gets it.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Every POST, counted before any view's work (CSRF's check comes later, in process_view):
    # last, so its 429 page gets every other middleware's headers and knows who is asking.
    "game.services.rate_limits.PostRateLimitMiddleware",
]

ROOT_URLCONF = "game.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dungeons.access.dungeon_editor",
            ],
        },
    },
    {
        # The live board only (game/runtime/templating.py says why): its templates live apart, under
        # templates/jinja2/, so neither engine ever finds the other's files.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "game.runtime.templating.environment", "autoescape": True},
    },
]

ASGI_APPLICATION = "game.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections: a new PostgreSQL connection per action costs ~11 ms.
        conn_max_age=600,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE + WAL + busy_timeout: concurrent writers wait instead of "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;"
        ),
    }
    # A file, because the browser tests' live server runs in another (forked) process;
    # VENTURE_TEST_DB lets two test runs on one checkout use different files.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("VENTURE_TEST_DB", str(BASE_DIR / "test_db.sqlite3"))
    }
else:
    # Explicit, or a Channels live server child asks for "test_test_<name>" (django/channels#2176).
    DATABASES["default"]["TEST"] = {"NAME": "test_" + DATABASES["default"]["NAME"]}

# channels-redis offers two layers: "core" (lists and sorted sets, messages wait up to a minute
# for a slow consumer) and "pubsub" (Redis publish/subscribe: a message reaches whoever listens
# now, with fewer Redis round trips). A "game changed" needs no waiting: a consumer that misses
# one renders on its next (re)connect or heartbeat. docs/performance.md compares them.
REDIS_LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_LAYERS[os.environ.get("REDIS_CHANNEL_LAYER", "pubsub")],
            "CONFIG": {
                "hosts": [os.environ["REDIS_URL"]],
                "prefix": os.environ.get("REDIS_PREFIX", "asgi"),
            },
        }
    }
else:
    # One process only: more than one Daphne process needs REDIS_URL. (A variant of this layer
    # that walked its expired messages once a second instead of on every call bought nothing
    # measurable at 50-100 games: docs/performance.md, "Removed".)
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The computer opponent's turns (game/computer_turns.py). At scale they travel on a layer of
# their own, channels-redis's "core" one whatever REDIS_CHANNEL_LAYER says: a turn is a job for
# one worker that waits in Redis until a worker takes it, where publish/subscribe would hand it
# to every worker listening, or to none. Embedded, turns never leave the process (no layer is used).
COMPUTER_CHANNEL = "venture-computer"
VENTURE_COMPUTER = os.environ.get("VENTURE_COMPUTER", "server").strip().lower() or "server"
if VENTURE_COMPUTER not in {"server", "worker"}:
    raise ImproperlyConfigured(f"VENTURE_COMPUTER={VENTURE_COMPUTER!r}: say server or worker")
if VENTURE_COMPUTER == "worker" and not os.environ.get("REDIS_URL"):
    raise ImproperlyConfigured("VENTURE_COMPUTER=worker needs REDIS_URL (the workers' channel)")
if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS["computer"] = {
        "BACKEND": REDIS_LAYERS["core"],
        "CONFIG": {
            # A worker waits for a turn with a 5 s blocking pop (channels-redis), and redis-py's
            # reads give up after 5 s by default: on a busy machine the empty answer came late,
            # the read timed out and the worker died. Reads here wait well past the pop.
            "hosts": [{"address": os.environ["REDIS_URL"], "socket_timeout": 30}],
            "prefix": os.environ.get("REDIS_PREFIX", "asgi") + "-computer",
            # A turn nobody takes within a minute is handed out again by the watchdog anyway.
            "expiry": 60,
            "capacity": 10000,
        },
    }
VENTURE_COMPUTER_PROCESSES = int(os.environ.get("VENTURE_COMPUTER_PROCESSES", "1"))
VENTURE_COMPUTER_DELAY_SECONDS = float(os.environ.get("VENTURE_COMPUTER_DELAY_SECONDS", "0.6"))
VENTURE_COMPUTER_TIMEOUT_SECONDS = float(os.environ.get("VENTURE_COMPUTER_TIMEOUT_SECONDS", "30"))
VENTURE_COMPUTER_GAMES_PER_PLAYER = int(os.environ.get("VENTURE_COMPUTER_GAMES_PER_PLAYER", "3"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed but not manifest-hashed: pages render in tests without collectstatic.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A request's form fields (files aside) are refused past this, as game/bodylimit.py refuses a
# whole body under ASGI: the same figure, for a server that runs the app without that middleware.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Reliability (docs/security.md) -----------------------------------------------------------------
# A seat whose last connection closed this long ago may be claimed against by the opponent.
VENTURE_ABANDON_SECONDS = float(os.environ.get("VENTURE_ABANDON_SECONDS", "120"))
# Asks to take back an answer, per player and game (game/services/takeback.py).
VENTURE_TAKEBACKS_PER_PLAYER = int(os.environ.get("VENTURE_TAKEBACKS_PER_PLAYER", "3"))
# A short absence (a reload, a network blip) is not announced: the countdown shows after this.
VENTURE_ABSENCE_GRACE_SECONDS = float(os.environ.get("VENTURE_ABSENCE_GRACE_SECONDS", "5"))
# Per-connection websocket rate limit (a token bucket) and the largest message accepted.
_rate, _, _burst = os.environ.get("VENTURE_WS_RATE", "20/40").partition("/")
VENTURE_WS_RATE_PER_SECOND = float(_rate)
VENTURE_WS_BURST = float(_burst or _rate)
VENTURE_WS_MAX_MESSAGE_BYTES = 32 * 1024


def _rate_setting(name: str, default: str) -> tuple[float, float]:
    rate, _, burst = os.environ.get(name, default).partition("/")
    return float(rate), float(burst or rate)


# One client's share of a process (docs/security.md, "Per client"): sockets per browser session
# and per client address (a LAN party shares one address, hence the larger figure), and a token
# bucket of messages shared by all the sockets of a session, and one by all those of an address.
VENTURE_WS_SOCKETS_PER_SESSION = int(os.environ.get("VENTURE_WS_SOCKETS_PER_SESSION", "16"))
VENTURE_WS_SOCKETS_PER_ADDRESS = int(os.environ.get("VENTURE_WS_SOCKETS_PER_ADDRESS", "64"))
VENTURE_WS_SESSION_RATE = _rate_setting("VENTURE_WS_SESSION_RATE", "20/40")
VENTURE_WS_ADDRESS_RATE = _rate_setting("VENTURE_WS_ADDRESS_RATE", "100/200")
# A spectator's socket (its page has no form to send) in place of VENTURE_WS_RATE.
VENTURE_WS_SPECTATOR_RATE = _rate_setting("VENTURE_WS_SPECTATOR_RATE", "2/10")

# HTTP rate limits (game/services/rate_limits.py, docs/security.md "Rate limits"): per action, a
# limit per browser session and one per client address (a LAN party or a school shares one
# address, hence the larger figures), in the `limits` library's notation ("5/minute;20/hour":
# both apply). Figures no person at the table meets; a script does. Stored in this process's
# memory, or in Redis with REDIS_URL so that every server of a deployment shares them.
VENTURE_RATE_LIMITS = {
    # Accounts made: "Play as guest" and "Sign up".
    "guest": {"session": "5/minute;20/hour", "address": "30/minute;200/hour"},
    # Games made: a new game (from decks or a position file), against the computer, a rematch,
    # playing on from a replay, a designer's "Try it".
    "game": {"session": "10/minute;120/hour", "address": "60/minute;600/hour"},
    # "Play now" (quick pairing) requests.
    "seek": {"session": "20/minute;300/hour", "address": "120/minute;1500/hour"},
    # Chat messages, counted per player (a burst of talk at the end of a game is fine) and per
    # address (two or three people behind one address talking at once).
    "chat": {"player": "10/10seconds;30/minute", "address": "30/10seconds;120/minute"},
    # Log-in attempts (passwords guessed).
    "login": {"session": "10/minute;60/hour", "address": "30/minute;300/hour"},
    # Every POST of any form (the dungeon editor's live preview posts as a designer types).
    "post": {"session": "240/minute", "address": "1200/minute"},
}
try:
    _rate_overrides = json.loads(os.environ.get("VENTURE_RATE_LIMITS") or "{}")
    for _action, _scopes in _rate_overrides.items():
        VENTURE_RATE_LIMITS[_action] = {**VENTURE_RATE_LIMITS.get(_action, {}), **_scopes}
    for _action, _scopes in VENTURE_RATE_LIMITS.items():
        for _scope, _limit in _scopes.items():
            if _scope not in {"session", "player", "address"}:
                raise ValueError(f"{_action}: {_scope!r} is not session, player or address")
            limits.parse_many(_limit)  # "5/minute;20/hour": refused here, not at a request
except (ValueError, AttributeError, TypeError) as _e:
    raise ImproperlyConfigured(
        f"VENTURE_RATE_LIMITS: give a JSON object such as "
        f'{{"guest": {{"address": "100/minute"}}}} ({_e})'
    ) from _e
VENTURE_RATE_LIMIT_STORAGE = os.environ.get("REDIS_URL") or "memory://"
# The limits' keys in Redis start with this (two deployments, or test runs, on one database).
VENTURE_RATE_LIMIT_PREFIX = os.environ.get("REDIS_PREFIX", "asgi") + "-limits"
# Proxies whose X-Forwarded-For names the client (game/services/rate_limits.client_address).
VENTURE_TRUSTED_PROXIES = env_list("VENTURE_TRUSTED_PROXIES", [])
for _proxy in VENTURE_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _e:
        raise ImproperlyConfigured(
            f"VENTURE_TRUSTED_PROXIES: {_proxy!r} is not an address or a network ({_e})"
        ) from _e

# The chat (docs/security.md, "Chat"): the longest free-text message, in characters (Lichess
# allows 140). The column holds 500.
VENTURE_CHAT_MAX_LENGTH = int(os.environ.get("VENTURE_CHAT_MAX_LENGTH", "140"))
if not 1 <= VENTURE_CHAT_MAX_LENGTH <= 500:
    raise ImproperlyConfigured(
        f"VENTURE_CHAT_MAX_LENGTH={VENTURE_CHAT_MAX_LENGTH}: give 1 to 500 characters"
    )

# Mail (game/services/turn_mail.py), through Django's mailers: in development the console, so a
# developer sees each mail without a server; an SMTP server once EMAIL_HOST names one, and with
# DEBUG off and no EMAIL_HOST the one on localhost:25 (Django's own default: a server's local
# mail transfer agent). The timeout bounds how long the one sending thread waits on a server
# that does not answer.
VENTURE_SITE_URL = os.environ.get("VENTURE_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# How often a page asks whether a game waits for its player (the lobby's "Your turn" list and
# static/js/turns.js): a turn of days need not be known to the second.
VENTURE_TURNS_POLL_SECONDS = 30
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Venture <venture@localhost>")
if os.environ.get("EMAIL_HOST") or not DEBUG:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": int(
                    os.environ.get("EMAIL_PORT", "587" if os.environ.get("EMAIL_HOST") else "25")
                ),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=bool(os.environ.get("EMAIL_HOST"))),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}

# The websockets' database work and renders run on this many threads per process
# (game/runtime/dbpool.py). One: the work is mostly Python, which holds the GIL, so more threads
# only contend for it (PostgreSQL, --scale 100 and 200 games: p99 76 and 259-399 ms with one thread,
# 112 and 529-621 with four; docs/performance.md, "The database pool"). SQLite has one writer at
# a time anyway: a second thread that wants to write sleeps in its busy handler.
VENTURE_DB_THREADS = int(os.environ.get("VENTURE_DB_THREADS", "1"))
# HTTP requests a process works on at once, each on a thread and a connection of its own
# (game/runtime/http_slots.py): a burst beyond waits in the event loop instead of opening more
# connections than PostgreSQL allows (100 by default, shared by every process).
VENTURE_HTTP_CONCURRENCY = int(os.environ.get("VENTURE_HTTP_CONCURRENCY", "16"))
if VENTURE_HTTP_CONCURRENCY < 1:
    raise ImproperlyConfigured("VENTURE_HTTP_CONCURRENCY: at least 1")
# The garbage collector's thresholds in a server process (game/runtime/gc_tuning.py); "" keeps
# Python's.
_gc = os.environ.get("VENTURE_GC_THRESHOLDS", "3000,10,10")
try:
    VENTURE_GC_THRESHOLDS = tuple(int(n) for n in _gc.split(",") if n.strip())
except ValueError:
    VENTURE_GC_THRESHOLDS = (-1,)
if VENTURE_GC_THRESHOLDS and (len(VENTURE_GC_THRESHOLDS) != 3 or min(VENTURE_GC_THRESHOLDS) < 0):
    raise ImproperlyConfigured(
        f"VENTURE_GC_THRESHOLDS={_gc!r}: give three whole numbers, e.g. 3000,10,10 (or nothing "
        "for Python's own)"
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"}
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "game": {
            "handlers": ["stderr"],
            "level": os.environ.get("VENTURE_LOG_LEVEL", "WARNING").strip().upper() or "WARNING",
            "propagate": False,  # daphne gives the root logger a handler too: print once
        },
        # Django prints a server error's traceback only with DEBUG on; a server must say too.
        "django.request": {"handlers": ["stderr"], "level": "ERROR"},
    },
}
