"""The settings module loads in each mode; each check runs in a fresh interpreter with a clean environment."""

import json
import secrets

import pytest

from tests.utils import clean_env, run_python

DUMP = """
import json, django
django.setup()
from django.conf import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "DEBUG": s.DEBUG,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "DB_OPTIONS": {k: v for k, v in db.get("OPTIONS", {}).items()},
    "SECRET_KEY": s.SECRET_KEY,
    "ALLOWED_HOSTS": s.ALLOWED_HOSTS,
    "EAGER": s.CELERY_TASK_ALWAYS_EAGER,
    "BROKER": s.CELERY_BROKER_URL,
    "EMAIL_BACKEND": s.EMAIL_BACKEND,
    "EMAIL_HOST": getattr(s, "EMAIL_HOST", ""),
    "TIME_ZONE": s.TIME_ZONE,
    "USE_TZ": s.USE_TZ,
    "LOGIN_URL": s.LOGIN_URL,
    "SSL_REDIRECT": s.SECURE_SSL_REDIRECT,
    "HSTS": s.SECURE_HSTS_SECONDS,
    "SESSION_COOKIE_SECURE": s.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": s.CSRF_COOKIE_SECURE,
    "STATIC_BACKEND": s.STORAGES["staticfiles"]["BACKEND"],
}, default=str))
"""


def production_env(**overrides: str) -> dict[str, str]:
    return clean_env(
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="navalwar.example.org",
        **overrides,
    )


def dump(env: dict[str, str], code: str = DUMP) -> dict[str, object]:
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def test_development_defaults_need_nothing_installed() -> None:
    values = dump(clean_env())

    assert values["DEBUG"] is True
    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert str(values["NAME"]).endswith("/db.sqlite3")
    assert values["DB_OPTIONS"] == {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000",
        "transaction_mode": "IMMEDIATE",
    }
    assert str(values["SECRET_KEY"]).startswith("django-insecure-")
    assert values["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    assert values["EAGER"] is True
    assert values["BROKER"] == "memory://localhost/"
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert (values["TIME_ZONE"], values["USE_TZ"], values["LOGIN_URL"]) == ("UTC", True, "login")
    assert values["SSL_REDIRECT"] is False
    assert values["STATIC_BACKEND"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_an_in_process_task_logs_no_broker_warning() -> None:
    """Without REDIS_URL a task runs in this process, past kombu's connection to the in-memory broker: with no
    host in its URL kombu logged "No hostname was supplied" on every task the site ran."""
    code = (
        "import logging, django; django.setup()\n"
        "logging.basicConfig(level=logging.WARNING)\n"
        "from navalwar.celery import app\n"
        "with app.connection_for_write() as c: c._info()\n"
        "print('ok')\n"
    )
    result = run_python(code, clean_env())

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "ok"
    assert "hostname" not in result.stderr


def test_sqlite_database_runs_in_wal_mode(tmp_path: pytest.TempPathFactory) -> None:
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])\n"
    )
    result = run_python(code, clean_env(DATABASE_URL=f"sqlite:///{tmp_path}/wal.sqlite3"))

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_redis_url_switches_celery_to_the_broker() -> None:
    values = dump(clean_env(REDIS_URL="redis://127.0.0.1:6379/7"))

    assert values["EAGER"] is False
    assert values["BROKER"] == "redis://127.0.0.1:6379/7"


def test_email_url_picks_the_smtp_backend() -> None:
    values = dump(clean_env(EMAIL_URL="smtp+tls://club:secret@mail.example.org:587"))

    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert values["EMAIL_HOST"] == "mail.example.org"


@pytest.mark.parametrize(
    ("argv", "mode_env", "pooled"),
    [
        pytest.param(
            "['/venv/bin/gunicorn', 'navalwar.wsgi']", "production", True, id="production-web-pools"
        ),
        pytest.param(
            "['/venv/bin/celery', '-A', 'navalwar', 'worker']", "production", False, id="worker-plain"
        ),
        pytest.param(
            "['/venv/lib/celery/__main__.py', 'beat']", "production", False, id="python-m-celery-plain"
        ),
        pytest.param("['manage.py', 'runserver']", "development", False, id="development-plain"),
        pytest.param("['manage.py', 'runserver']", "development+pool", True, id="development-opt-in"),
        pytest.param(
            "['/venv/bin/gunicorn', 'navalwar.wsgi']", "production-pool", False, id="production-opt-out"
        ),
    ],
)
def test_postgres_pool_only_in_production_web_processes(argv: str, mode_env: str, pooled: bool) -> None:
    code = f"import sys; sys.argv = {argv}\n" + DUMP
    url = "postgres://postgres@127.0.0.1:5432/navalwar"
    env = {
        "production": production_env(DATABASE_URL=url),
        "production-pool": production_env(DATABASE_URL=url, DATABASE_POOL="0"),
        "development": clean_env(DATABASE_URL=url),
        "development+pool": clean_env(DATABASE_URL=url, DATABASE_POOL="1"),
    }[mode_env]

    options = dump(env, code)["DB_OPTIONS"]

    assert isinstance(options, dict)
    assert ("pool" in options) is pooled


def test_production_hardening() -> None:
    values = dump(production_env())

    assert values["DEBUG"] is False
    assert values["SSL_REDIRECT"] is True
    assert values["HSTS"] == 31_536_000
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["ALLOWED_HOSTS"] == ["navalwar.example.org"]
    assert values["STATIC_BACKEND"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.mark.parametrize(
    ("drop", "extra", "message"),
    [
        pytest.param("SECRET_KEY", {}, "SECRET_KEY", id="no-secret-key"),
        pytest.param("ALLOWED_HOSTS", {}, "ALLOWED_HOSTS", id="no-allowed-hosts"),
        pytest.param("", {"DEBUG": "true"}, "DEBUG must be off", id="debug-on"),
        pytest.param(
            "",
            {"NAVALWAR_DICE_SEED_BASE": "e2e"},
            "NAVALWAR_DICE_SEED_BASE (deterministic dice) must not be set in production",
            id="deterministic-dice",
        ),
    ],
)
def test_production_refuses_to_start(drop: str, extra: dict[str, str], message: str) -> None:
    env = production_env(**extra)
    env.pop(drop, None)

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_unknown_mode_is_refused() -> None:
    result = run_python("import django; django.setup()", clean_env(DJANGO_ENV="staging"))

    assert result.returncode != 0
    assert "DJANGO_ENV must be 'development' or 'production'" in result.stderr


def test_check_deploy_is_clean_in_production() -> None:
    code = (
        "import sys; from django.core.management import execute_from_command_line\n"
        "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])\n"
    )
    result = run_python(code, production_env())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
