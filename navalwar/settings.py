"""Navalwar settings: one module, configured from the environment (django-environ).

Modes (``DJANGO_ENV``):

- ``development`` (default): DEBUG on, a dev SECRET_KEY, SQLite file ``db.sqlite3`` in WAL mode unless
  ``DATABASE_URL`` is set, e-mail to the console, Celery tasks run in-process unless ``REDIS_URL`` is set.
- ``production``: refuses to start without ``SECRET_KEY`` and ``ALLOWED_HOSTS``; HSTS, secure cookies, SSL
  redirect, hashed static files. ``manage.py check --deploy --fail-level WARNING`` is clean.

Tests use this same module; they take ``DATABASE_URL`` and ``REDIS_URL`` as given (see tests/conftest.py).
The README has the table of every variable read here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

# Only the process environment is read (no .env file), so what a test or a systemd unit sets is what runs.
env = environ.Env()

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}")
PRODUCTION = DJANGO_ENV == "production"

# A Celery worker or beat process (``celery -A navalwar worker|beat``). Decides the database connection style.
_argv0 = Path(sys.argv[0])
IS_CELERY_PROCESS = _argv0.name == "celery" or (
    _argv0.name == "__main__.py" and _argv0.parent.name == "celery"
)

# --- Core ------------------------------------------------------------------------------------------------

if PRODUCTION:
    # No default: a production process without a real secret must not start.
    SECRET_KEY = env.str("SECRET_KEY")
else:
    SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-navalwar-development-only")

DEBUG = env.bool("DEBUG", default=not PRODUCTION)

if PRODUCTION:
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
else:
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "import_export",
    "axes",
    "fleets",
    "battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every view needs a login unless it is marked with @login_not_required (Django 5.1+); htmx requests of
    # logged-out users get HX-Redirect to the login page.
    "battles.middleware.HtmxLoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A NUL character in the path, query string or form data is a 400 (PostgreSQL refuses it; NW-CAMP-18).
    "battles.middleware.RefuseNulMiddleware",
    # Deadlines and times in the user's time zone (battles.UserProfile).
    "battles.middleware.UserTimezoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A bare 405 (a form's address opened in the browser) gets a page that says so.
    "battles.middleware.MethodNotAllowedPageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Axes wants to be last so it sees the outcome of the login view.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "navalwar.urls"
WSGI_APPLICATION = "navalwar.wsgi.application"
ASGI_APPLICATION = "navalwar.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials (in INSTALLED_APPS) replaces APP_DIRS with its partials-aware cached loaders.
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database --------------------------------------------------------------------------------------------

DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
_db = DATABASES["default"]
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the site read while a worker writes; IMMEDIATE avoids "database is locked" on upgrade of a
    # read transaction to a write one.
    _db.setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000",
            "transaction_mode": "IMMEDIATE",
        }
    )
elif _db["ENGINE"] == "django.db.backends.postgresql":
    # Production web processes keep a small psycopg pool. Celery workers and beat use plain connections,
    # which the Celery Django fix-up closes around each task. Development and tests use plain connections
    # too: a pooled connection held by a live-server thread would keep the test database from being dropped.
    if env.bool("DATABASE_POOL", default=PRODUCTION and not IS_CELERY_PROCESS):
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=4),
            "timeout": 10,
        }
        _db["CONN_MAX_AGE"] = 0  # required by Django's pool
    else:
        _db["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
        _db["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache -----------------------------------------------------------------------------------------------

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://navalwar")}

# --- Auth ------------------------------------------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    # Axes first: it refuses locked-out credentials before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "landing"
LOGOUT_REDIRECT_URL = "landing"

# django-axes: lock a username from one address after AXES_FAILURE_LIMIT wrong passwords. The combination
# (not the address alone) because a club's members often share one public address.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429

# --- I18N ------------------------------------------------------------------------------------------------

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ----------------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names need `collectstatic`; development serves the files as they are.
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}

# --- E-mail ----------------------------------------------------------------------------------------------

vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Navalwar <navalwar@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Absolute links in notification e-mails (battles/notifications.py).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

# --- Celery ----------------------------------------------------------------------------------------------

REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"  # (a host: kombu warns of none on every task)
# Without a broker, tasks run in this process; `delay_on_commit` then runs them when the transaction commits,
# so the site works with nothing else installed.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True  # tasks write to the database; nobody waits on a result
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# With acks_late a task that runs longer than this is delivered again: keep it above the longest task.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILENAME", default=str(BASE_DIR / ".celerybeat-schedule")
)
CELERY_BEAT_SCHEDULE = {
    # battles.tasks.sweep_phases closes phases whose deadline passed, re-enqueues phases stuck in resolving
    # (a worker killed mid-resolution) and sends deadline reminders. Exactly one beat process runs per site.
    # Without REDIS_URL there is no beat: `manage.py sweep_phases` (started by `make run`) runs the sweep.
    "sweep-phases": {"task": "battles.tasks.sweep_phases", "schedule": 60.0},
}

# --- Dice ------------------------------------------------------------------------------------------------

# Test and development hook: phase (and set-up) dice seeds derived from this text instead of drawn from
# `secrets` (battles.services.dice_seed), so an end-to-end test replays the same battle. Anyone who knows it
# can compute every seed before its phase resolves (A8), so production refuses it.
NAVALWAR_DICE_SEED_BASE = env.str("NAVALWAR_DICE_SEED_BASE", default="")
if PRODUCTION and NAVALWAR_DICE_SEED_BASE:
    raise ImproperlyConfigured("NAVALWAR_DICE_SEED_BASE (deterministic dice) must not be set in production")

# --- Benchmarks ------------------------------------------------------------------------------------------

# bench/run_all.py sets NAVALWAR_BENCH=1 on its own server to route /bench/bare/ (a view answering "ok").
NAVALWAR_BENCH = env.bool("NAVALWAR_BENCH", default=False)

# --- Logging ---------------------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # a refused request (4xx) is logged on one line, without the traceback Django attaches (navalwar.logs)
    "filters": {"no_refusal_traceback": {"()": "navalwar.logs.NoTracebackForRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Axes logs every log-in and clean-up at INFO; keep its lock-outs and errors (WARNING and up).
        "axes": {"level": env.str("AXES_LOG_LEVEL", default="WARNING")},
        "django.request": {"filters": ["no_refusal_traceback"]},
    },
}

# --- Security --------------------------------------------------------------------------------------------

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

if PRODUCTION:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Behind nginx/caddy that sets X-Forwarded-Proto; turn off when gunicorn faces the internet directly.
    if env.bool("SECURE_PROXY_SSL_HEADER", default=True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production")
