"""Django settings for unoclass, read from the environment (12-factor).

DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL come from the environment.
With DEBUG off, SECRET_KEY is required and the production security settings apply.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp import constants as csp_constants
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from unoclass import share

# Typed code subscripts Django's generic classes (ModelForm[Classroom]); make that work at run
# time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
# Templates, static files and translations: the checkout's own folders, or the copies an
# installed wheel carries (unoclass/share.py).
SHARE_DIR = share.SHARE_DIR


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no flag from the environment."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated list from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")
    # Only for a developer's own machine: DEBUG is on, nothing is secret.
    SECRET_KEY = "dev-only-insecure-key-never-used-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "games",
    "lessons",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # REMOTE_ADDR from the proxy's own hop only (TRUSTED_PROXIES below).
    "unoclass.proxy.TrustedProxyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so its process_exception runs first: a database restart answers 503, not 500.
    "unoclass.unavailable.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "unoclass.urls"
ASGI_APPLICATION = "unoclass.asgi.application"
# REFUSE_WEBSOCKETS=1 makes the server refuse every WebSocket handshake, as a filtering proxy
# that does not forward `Upgrade` does: the pages then move to the event stream by themselves
# (docs/protocol.md, "Fallback: SSE and POST"). For the browser tests and for trying a
# deployment's fallback; never needed in production.
REFUSE_WEBSOCKETS = env_bool("REFUSE_WEBSOCKETS")
WSGI_APPLICATION = "unoclass.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SHARE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # Whether the PDF buttons print PDFs or open pages to print.
                "lessons.reporting.context.pdf_printing",
            ],
        },
    },
]

# SQLite by default; PostgreSQL (or any dj-database-url URL) from DATABASE_URL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # A kept connection is checked before each request reuses it: after a PostgreSQL
        # restart the first move goes through at once instead of failing on a dead socket.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_PREPARED_STATEMENTS", default=True
):
    # Server-side binding lets psycopg prepare a statement the fifth time a kept connection
    # runs it, so PostgreSQL stops parsing and planning every move's statements (its CPU a move
    # in bench/load.py: docs/performance.md). A pooler in transaction mode (PgBouncer)
    # cannot keep prepared statements: DB_PREPARED_STATEMENTS=0 behind one.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock when a transaction starts, so actions on one table
    # serialise on SQLite as select_for_update does on PostgreSQL.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    # redis-py connections never retry by default: after a Redis restart the first publish on
    # a stale pooled connection would fail and lose a table's update. The default pool of
    # 100 connections also ran out in the load bench (MaxConnectionsError: docs/performance.md).
    # REDIS_RETRIES: 8 ride out a restart of up to about 5.5 s (the waits double from 0.1 s to
    # 1 s); a test of what follows a publish that gives up sets fewer.
    REDIS_HOST = {
        "address": REDIS_URL,
        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000")),
        "retry": Retry(
            ExponentialBackoff(cap=1.0, base=0.05), int(os.environ.get("REDIS_RETRIES", "8"))
        ),
        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
    }
    # The pub/sub layer delivered more moves than the core layer in bench/load.py (docs/
    # performance.md); CHANNEL_LAYER=core selects the core layer instead (its capacity counts all
    # of a process's pending messages: the default 100 dropped messages silently in the bench).
    if os.environ.get("CHANNEL_LAYER", "pubsub") == "core":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [REDIS_HOST], "capacity": 2000},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "games.realtime.pubsub_layer.PubSubChannelLayer",
                "CONFIG": {"hosts": [REDIS_HOST]},
            }
        }
else:
    # One process: Channels' in-memory layer without its per-message expiry sweep.
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.realtime.process_layer.ProcessChannelLayer"}}

# With several processes the sign-in limits must be counted in one place: Redis. While Redis
# does not answer, each process counts them in its own memory (unoclass/cache_fallback.py).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "unoclass.cache_fallback.RedisCacheWithLocalFallback",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }

AUTH_USER_MODEL = "lessons.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# French first, English second.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("en", _("English"))]
LOCALE_PATHS = [SHARE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files nginx serves (docs/deploy.md).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [SHARE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Production security: on whenever DEBUG is off; each can be relaxed from the environment
# (for example behind a TLS-terminating proxy on a private network, or for local load tests).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# The load balancer may probe each process over plain HTTP: /healthz answers it there too.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = env_bool("CSRF_COOKIE_HTTPONLY", not DEBUG)
# A refused form gets the site's translated page, not Django's English default.
CSRF_FAILURE_VIEW = "unoclass.csrf_failure.csrf_failure"
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The language cookie is read by the server only (pages and sockets): like the session's.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
# Content-Security-Policy: everything from this server only, no inline script or <style>
# without the response's nonce (request.csp_nonce), no plugin, no framing, forms posted here
# only. The one inline style attribute allowed is the body style of the static error pages
# (500.html, 503.html), which must render with no template tag and no stylesheet: its hash,
# kept right by tests/unoclass/test_content_security_policy.py.
ERROR_PAGE_STYLE_HASH = "'sha256-vw6k8i+96b+vScYAu6e6jEx9v5aVqJiRubEMebQ6mn8='"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp_constants.SELF],
        "script-src": [csp_constants.SELF, csp_constants.NONCE],
        "style-src": [
            csp_constants.SELF,
            csp_constants.NONCE,
            csp_constants.UNSAFE_HASHES,
            ERROR_PAGE_STYLE_HASH,
        ],
        "img-src": [csp_constants.SELF, "data:"],
        "font-src": [csp_constants.SELF],
        "connect-src": [csp_constants.SELF],
        "object-src": [csp_constants.NONE],
        "base-uri": [csp_constants.NONE],
        "form-action": [csp_constants.SELF],
        "frame-ancestors": [csp_constants.NONE],
    },
}
if env_bool("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Addresses of the proxies whose X-Forwarded-For is believed (daphne's unix socket always is):
# the client is the right-most address of the header that is not one of them (unoclass/proxy.py).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# Sign-in with the school's ENT (lessons/ent, docs/deploy.md). ENT_SITE_URL is this server's
# public address: the CAS service URL is built from it (else from ALLOWED_HOSTS), never from a
# request's Host header. ENT_ALLOW_HTTP lets a CAS server answer over plain http, for the
# tests' own server on loopback: it is honoured only under DEBUG.
ENT_SITE_URL = os.environ.get("ENT_SITE_URL", "")
ENT_ALLOW_HTTP = DEBUG and env_bool("ENT_ALLOW_HTTP")
# Addresses besides the CAS server's own from which the ENT may post single sign-out
# (comma-separated; lessons.ent.client.logout_sender_allowed).
ENT_LOGOUT_ADDRESSES = [
    a.strip() for a in os.environ.get("ENT_LOGOUT_ADDRESSES", "").split(",") if a.strip()
]

# Logs never carry student data: the request logger prints paths and status codes only.
# A refusal (403, 400) is one line: the filter drops the traceback Django attaches to it, so
# real errors (5xx, logged with their traceback) stand out.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusals": {"()": "unoclass.log_filters.RefusalsWithoutTraceback"},
        # channels_redis logs a traceback each second while Redis is away: one line instead.
        "layer_errors": {"()": "games.realtime.layer_log.LayerErrorsOneLine"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals", "layer_errors"]}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own default sends "django" records to a second console handler under DEBUG
    # (which printed each traceback again, unfiltered): they go through the one above instead.
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "WARNING"),
            "propagate": False,
        }
    },
}

# Game pace: how long a bot waits before moving (so players can follow), and how long a
# finished round stays on screen before the server deals the next one if nobody does.
GAMES_BOT_DELAY = float(os.environ.get("GAMES_BOT_DELAY", "1.2"))
GAMES_ROUND_PAUSE = float(os.environ.get("GAMES_ROUND_PAUSE", "10"))

# PDF reports (WeasyPrint, in the print workers). PDF_PRINTING=0 turns them off, as a server
# without WeasyPrint's libraries (Windows without GTK) has them: the reports then open as
# pages to print from the browser, and the PDF buttons say why (lessons/printing/printing.py).
PDF_PRINTING = env_bool("PDF_PRINTING", True)

# The network check page (/network-check/): how long it keeps each link open (a lesson's link
# must outlive a minute: proxies that cut idle or long connections show up), and how often the
# server sends a heartbeat on it (seconds). The tests shorten both.
NETWORK_CHECK_SECONDS = float(os.environ.get("NETWORK_CHECK_SECONDS", "60"))
NETWORK_CHECK_HEARTBEAT = float(os.environ.get("NETWORK_CHECK_HEARTBEAT", "5"))
# Per-message deflate on the WebSockets (unoclass/ws_deflate.py): a tenth of the bytes on a
# school's slow link (docs/performance.md, "Slow links"). WEBSOCKET_DEFLATE=0 turns it off.
WEBSOCKET_DEFLATE = env_bool("WEBSOCKET_DEFLATE", True)

# School year and pupils' data. Teachers sign up freely ("open") or only with a
# school admin's invitation ("invitation"). A class's pupils' data are erased (or pseudonymised,
# if the school keeps research data) PUPIL_DATA_RETENTION_MONTHS months after the class is
# archived or its school year ends (SCHOOL_YEAR_END, month-day), whichever comes first; the
# school admin may change the months on the school page. `manage.py purge_expired` applies it.
TEACHER_SIGNUP = os.environ.get("TEACHER_SIGNUP", "open")
PUPIL_DATA_RETENTION_MONTHS = int(os.environ.get("PUPIL_DATA_RETENTION_MONTHS", "3"))
SCHOOL_YEAR_END = os.environ.get("SCHOOL_YEAR_END", "07-07")
