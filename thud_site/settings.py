"""Settings for the Thud Tournament Manager: one file, driven by the environment.

Environment variables:
    DJANGO_SECRET_KEY  required unless DJANGO_DEBUG is true
    DJANGO_DEBUG       "1"/"true" for development (default false)
    DATABASE_URL       e.g. postgres://user@127.0.0.1:5432/thud; default SQLite (WAL) in db.sqlite3
    REDIS_URL          broker, pub/sub and cache; default redis://127.0.0.1:6379/0
    ALLOWED_HOSTS      comma-separated; default localhost names
    DJANGO_HTTPS       "1" in production over https (secure cookies, redirect, HSTS);
                       tuned by DJANGO_HSTS_SECONDS / _INCLUDE_SUBDOMAINS / _PRELOAD
    DJANGO_SECURE_PROXY_SSL_HEADER  e.g. HTTP_X_FORWARDED_PROTO behind a TLS proxy
    CSRF_TRUSTED_ORIGINS  comma-separated origins with scheme
    THUD_CLIENT_IP_HEADER, THUD_TRUSTED_PROXY_COUNT  where the login limit finds the
                       client's address behind a reverse proxy (default REMOTE_ADDR)
    EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
    EMAIL_USE_TLS, EMAIL_USE_SSL, EMAIL_TIMEOUT, DEFAULT_FROM_EMAIL  outgoing mail
                       (sent by a Celery worker from the outbox, never by a request)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false "
            "(make run and make test set a development key for you)."
        )
    SECRET_KEY = "insecure-development-key-only-for-debug"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if h.strip()
]

# Production over HTTPS (DJANGO_HTTPS=1): secure cookies, redirect to https and HSTS, so
# `manage.py check --deploy` passes. Off by default because `make run` serves plain http.
# HSTS is sticky in browsers: roll out with a small DJANGO_HSTS_SECONDS first.
HTTPS = env_bool("DJANGO_HTTPS")
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = HTTPS and env_bool("DJANGO_HSTS_PRELOAD", True)
# Behind a TLS-terminating proxy every request reaches Django as http, and the redirect
# above would loop: name the META key of the header the proxy sets (and overwrites), e.g.
# HTTP_X_FORWARDED_PROTO, optionally with its https value as HTTP_X_FORWARDED_SSL=on.
_proxy_ssl_header = os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_ssl_header:
    _header_name, _sep, _header_value = _proxy_ssl_header.partition("=")
    SECURE_PROXY_SSL_HEADER: tuple[str, str] | None = (
        _header_name.strip(),
        _header_value.strip() or "https",
    )
else:
    SECURE_PROXY_SSL_HEADER = None
# Origins (with scheme) allowed to POST besides the site's own host, e.g. when the
# public name differs from what the proxy passes on: https://thud.example.org
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # its templates, for the site's form renderer (thud_site/forms.py)
    "django_htmx",
    "template_partials",
    "django_countries",  # a player's country: ISO codes, names in the site's languages
    "ninja",  # API v1 (front/api_v1.py): its docs page's Swagger UI from its own static files
    "tournaments",
    "games",
    "accounts",
    "play",
    "outbox",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the user: an entry queued offline by someone else is never applied in their name.
    "thud_site.offline.QueuedByMiddleware",
    # After LocaleMiddleware and the user: a logged-in user's saved language wins.
    "accounts.language.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A tournament's pages show its times in its time zone (the venue's).
    "tournaments.web.time_zones.TournamentTimeZoneMiddleware",
]

ROOT_URLCONF = "front.urls"

#: The games played here, one line each: the dotted paths of its engine (a
#: ``games.rules.interface.Game`` class: pure, registered in ``games.engines.registry`` when
#: the games app is set up, before any model) and of its presentation (a
#: ``games.rules.presentation.Presentation``, registered once the models are). The first is
#: the default game. A game kept outside ``games/`` also adds its templates' directory to
#: ``TEMPLATES[0]["DIRS"]`` and its static files' to ``STATICFILES_DIRS`` (ARCHITECTURE.md,
#: "A new game"); the test settings add one (``tests/settings.py``).
GAMES: list[tuple[str, str]] = [
    ("games.thud.game.ThudGame", "games.web.presenters_thud.PRESENTATION"),
    ("games.cavalli.game.CavalliGame", "games.web.presenters_cavalli.PRESENTATION"),
]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "front.context_processors.navigation",
                "front.context_processors.app_shell",
            ],
        },
    },
]

FORM_RENDERER = "thud_site.forms.SiteFormRenderer"

WSGI_APPLICATION = "front.wsgi.application"
ASGI_APPLICATION = "front.asgi.application"

# SQLite is the embedded default. WAL plus IMMEDIATE transactions avoid the
# deferred-transaction lock-upgrade deadlock that bypasses the busy timeout
# (measured in reference/clocks-architecture.md §2.5).
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Persistent connections for long-lived servers (gunicorn sets DB_CONN_MAX_AGE=60
        # in the Procfile); 0 by default so tests and one-off commands hold nothing open.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "timeout": 30,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

# Redis accelerates, it never gates (thud_site/cache.py): with Redis down a cache read is
# a miss and a write is dropped; the rate limits count in each process's memory instead.
_CACHE_PREFIX = os.environ.get("THUD_CACHE_PREFIX", "thud")
CACHES = {
    "default": {
        "BACKEND": "thud_site.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": _CACHE_PREFIX,
    },
    "limits": {
        "BACKEND": "thud_site.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": _CACHE_PREFIX,
        "OPTIONS": {"fallback": "local"},
    },
}
# Sessions live in the database: a Redis outage or flush logs nobody out and breaks no page.
SESSION_ENGINE = "thud_site.sessions"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The login limit keys on the client's address (accounts/forms.py). Behind a
# reverse proxy REMOTE_ADDR is the proxy's, so name the META key of the header it sets
# (e.g. HTTP_X_FORWARDED_FOR or HTTP_X_REAL_IP) and how many proxies append to it. Only
# set this behind a proxy that overwrites or appends to the header: otherwise clients
# choose their own address.
THUD_CLIENT_IP_HEADER = os.environ.get("THUD_CLIENT_IP_HEADER", "REMOTE_ADDR")
THUD_TRUSTED_PROXY_COUNT = max(1, int(os.environ.get("THUD_TRUSTED_PROXY_COUNT", "1")))
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Outgoing mail. Requests only queue it (outbox/); a worker on the default queue talks
# to the server, and EMAIL_TIMEOUT bounds how long one message may hold that worker.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set EMAIL_USE_TLS (STARTTLS, port 587) or EMAIL_USE_SSL (465).")
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# Links in emails (notifications of casual games) point here.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("nb", _("Norwegian Bokmål"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our own .po files live in locale/ (compiled by `make setup`); thud_site/formats/ holds
# only the formats where Django's defaults differ from what readers expect (dates).
FORMAT_MODULE_PATH = ["thud_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Celery (namespace "CELERY"). Clock tasks go to their own queue so a busy pool
# never delays an expiry; acks_late + reject_on_worker_lost make delivery
# at-least-once, and the compare-and-set clock makes duplicates harmless.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 120}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("THUD_CELERY_DEFAULT_QUEUE", "default")
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Serve static files from the app folders too, so `make run` needs no collectstatic.
WHITENOISE_USE_FINDERS = True

# Quickfire clocks (games/): the clock queue, the 1 s sweeper, and a short publish
# retry so a Redis outage never blocks a request for long (settle-on-read and the
# sweeper recover). THUD_EVENTS_PREFIX namespaces the pub/sub channels (tests).
THUD_CLOCK_QUEUE = os.environ.get("THUD_CLOCK_QUEUE", "clock")
# Each web process writes a heartbeat while it reaches the database and Redis; without
# one, timed battles pause instead of forfeiting (games/live/outages.py). Off for a process
# that serves no pages (the Procfile's events process).
THUD_WEB_HEARTBEAT = env_bool("THUD_WEB_HEARTBEAT", True)
THUD_EVENTS_PREFIX = os.environ.get("THUD_EVENTS_PREFIX", "")
# The computer's moves (games/bots/moves.py) and battle analyses (games/analysis/runs.py):
# CPU-bound searches, never in a web or clock process, each on its own queue and worker so
# that a computer's move never waits behind an analysis (bench/bot_lateness.py). Setting
# THUD_ANALYSIS_QUEUE to the bots queue gives the old layout (one worker for both).
THUD_BOTS_QUEUE = os.environ.get("THUD_BOTS_QUEUE", "bots")
THUD_ANALYSIS_QUEUE = os.environ.get("THUD_ANALYSIS_QUEUE", "analysis")
CELERY_TASK_ROUTES = {
    "games.*": {"queue": THUD_CLOCK_QUEUE},
    # An exact name wins over the patterns (Celery's MapRoute): the analysis is "bots.*".
    "bots.analyse": {"queue": THUD_ANALYSIS_QUEUE},
    "bots.*": {"queue": THUD_BOTS_QUEUE},
    # Bookkeeping of the analyses (the beat's resend): a quick query, on the default
    # queue, never behind a minute-long analysis.
    "analysis.*": {"queue": CELERY_TASK_DEFAULT_QUEUE},
    # Everything else belongs on the default queue; named so a wider clock route never
    # captures mail (a slow SMTP server must not delay an expiry).
    "outbox.*": {"queue": CELERY_TASK_DEFAULT_QUEUE},
    "tournaments.*": {"queue": CELERY_TASK_DEFAULT_QUEUE},
}
# The largest tournament archive an upload may hold: what the import job (tournaments/archive/
# jobs.py, on the default worker) does in about a minute on this 2-core machine. Measured by
# bench/archive_imports.py (2026-12-03, load average 8-13 from other test suites): 2.1 to 4.4 MB
# a minute, median 3.7 (5,000 players, 2.0 MB: 57 s; 20,000 players, 8.0 MB: 119 s; 5,000
# players with 5 rounds of results, 10.0 MB: 176 s). 3 MiB is about 50 s at the median rate,
# 90 s at the slowest. Was 50 MB: about 15 minutes of a worker.
MAX_ARCHIVE_BYTES = 3 * 1024 * 1024
CELERY_BEAT_SCHEDULE = {
    "games-sweep": {
        "task": "games.sweep",
        "schedule": 1.0,
        "options": {"expires": 2, "queue": THUD_CLOCK_QUEUE},
    },
    # The computer's moves whose task was lost (or whose battle resumed in bulk after an
    # outage): queued again (games/bots/moves.py; idempotent by the clock version).
    "bots-resend": {
        "task": "bots.resend",
        "schedule": 2.0,
        "options": {"expires": 2, "queue": THUD_BOTS_QUEUE},
    },
    # Analyses whose message was lost (the broker down when it was published, or
    # restarted empty): sent again once their queue is empty and no analysis runs
    # (games/analysis/runs.py; a duplicate runs once).
    "analysis-resend": {
        "task": "analysis.resend",
        "schedule": 30.0,
        "options": {"expires": 25, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # E-mail whose task was lost (broker down at the commit) or failed: sent again.
    "outbox-send-unsent": {
        "task": "outbox.send_unsent",
        "schedule": 60.0,
        "options": {"expires": 50, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # Seeks and challenges past their time get the status "expired" (bookkeeping: every
    # query already ignores them from the second they expire).
    "play-expire-offers": {
        "task": "play.expire_offers",
        "schedule": 60.0,
        "options": {"expires": 50, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
    # Casual battles that waited for their players past their lifetime end with no result
    # (games/battles/joining.py, expire_unjoined; idempotent under each battle's lock).
    "play-expire-unjoined": {
        "task": "play.expire_unjoined",
        "schedule": 60.0,
        "options": {"expires": 50, "queue": CELERY_TASK_DEFAULT_QUEUE},
    },
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
