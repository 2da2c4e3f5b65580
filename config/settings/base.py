"""Settings shared by every environment, read from the environment with django-environ."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF, UNSAFE_INLINE

from config.queues import PRACTICE_TASKS, role_routes_from

from .notifications import *  # noqa: F403  (e-mail, Web Push, their queue and beat job: docs/operations.md)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
env_file = BASE_DIR / ".env"
if env_file.exists():
    env.read_env(str(env_file))

# The embedded default's data (SQLite file, filesystem broker, static files); the smoke test points it at a
# throwaway directory so that it never touches a developer's var/.
VAR_DIR = Path(env("RAMINO_VAR_DIR", default=str(BASE_DIR / "var")))

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'ramino.sqlite3'}"),
}
# SQLite under a worker, beat and the web process at once: wait up to 20 s for the write lock instead of failing,
# and take it when a transaction begins (BEGIN IMMEDIATE). A transaction begun as a reader that then writes while
# another process holds the write lock is refused at once with "database is locked", whatever the timeout (SQLite
# cannot wait there without risking a deadlock): the tables' jobs of a multi-table tournament did exactly that
# (read the tournament, then write) while moves were being written.
SQLITE_OPTIONS: dict[str, Any] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# PostgreSQL: the move's hand-written statements prepared once per connection (database/rows.py `run`); turn off
# behind a pooler in transaction mode, which would hand one session's prepared statements to another client.
RAMINO_DATABASE_PREPARED_STATEMENTS = env.bool("DATABASE_PREPARED_STATEMENTS", default=True)
# Django's own backend under django-prometheus' wrapper: the same connection and SQL, each query counted and timed
# (django_db_* metrics, docs/operations.md "Metrics").
DATABASES["default"]["ENGINE"] = DATABASES["default"]["ENGINE"].replace(
    "django.db.backends.", "django_prometheus.db.backends.", 1
)
if _replica := env("DATABASE_REPLICA_URL", default=""):  # the lobby's reads' replica: database/replica.py
    DATABASES["replica"] = env.db_url_config(_replica) | {"ENGINE": DATABASES["default"]["ENGINE"]}
DATABASE_ROUTERS = ["database.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # `intcomma`: a chip count on a server page as the page's language writes it (Italian 10.000). Numbers
    # are not grouped by default (USE_THOUSAND_SEPARATOR stays off): ids, data-* attributes and CSV stay plain.
    "django.contrib.humanize",
    # Before staticfiles: `runserver` (make run) serves static files through WhiteNoise too.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "django_prometheus",
    # The project's apps: the HTTP boundary every app's API stands on, the users' accounts and the login
    # lockout, the admin's confirmation page, then the chip ledger, the games and their pages.
    "api",
    "accounts",
    "admin_confirm",
    "ledger",
    "tournaments",
    "play",
    "audit",
    "responsible",
    "security",
    # The running system in numbers (/metrics) and in its logs (request ids, JSON lines).
    "operations",
    "integrity",
    "ratings",
    # The live room: the WebSocket tier (docs/api.md "Live socket", docs/operations.md "The socket tier").
    "live_room",
    # Chat with moderation in the rooms of tables, tournaments and the lobby (docs/rules.md "Chat").
    "chat",
    "notifications",
]

MIDDLEWARE = [
    # First: every answer, a refusal of the middleware below included, carries the request's X-Request-ID, and
    # every log line of the request its id (docs/operations.md, "Logs").
    "operations.middleware.RequestIdMiddleware",
    # Requests, responses and latencies (django-prometheus; its "after" half is the last middleware).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (the admin's, Swagger UI's) from the web process itself, in every environment.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before anything reads the cookie, a header or the query (the session's database lookup first): a request
    # holding NUL characters, or over the URI and header limits, is refused (api/boundary.py). After the
    # three above, so that its answers carry the security headers.
    "api.boundary.RequestGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of every page and of every error message: the language cookie (the switch), else
    # Accept-Language, else LANGUAGE_CODE (docs/web.md, "Languages").
    "django.middleware.locale.LocaleMiddleware",
    # Django's, but a path under /api/ without its slash is the envelope's 404, never a redirect (api/machine.py).
    "api.machine.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "security.middleware.LockoutMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
# A form without its CSRF token: a page of the site in the person's language (the machine endpoints: the envelope).
CSRF_FAILURE_VIEW = "play.views.csrf_failure"
WSGI_APPLICATION = "config.wsgi.application"
# HTTP and the live room's sockets (`/ws/v1/`), served by uvicorn (docs/operations.md "The socket tier").
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Every template lives in the app that renders it (APP_DIRS).
        "DIRS": [],
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

# LockoutBackend first: it refuses locked-out usernames and addresses before a password is checked.
AUTHENTICATION_BACKENDS = [
    "security.lockout.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins (API token and admin alike) within RAMINO_LOCKOUT_SECONDS that lock the username, or the
# client address, for RAMINO_LOCKOUT_SECONDS; 0 turns that lockout off (security/lockout.py).
RAMINO_LOCKOUT_USER_FAILURES = env.int("RAMINO_LOCKOUT_USER_FAILURES", default=5)
RAMINO_LOCKOUT_ADDRESS_FAILURES = env.int("RAMINO_LOCKOUT_ADDRESS_FAILURES", default=20)
RAMINO_LOCKOUT_SECONDS = env.int("RAMINO_LOCKOUT_SECONDS", default=900)

# The integrity signals' thresholds (docs/integrity.md gives each formula and why these defaults).
RAMINO_INTEGRITY_DUMPING_MIN_ROUNDS = env.int("RAMINO_INTEGRITY_DUMPING_MIN_ROUNDS", default=20)
RAMINO_INTEGRITY_DUMPING_MIN_NET_CHIPS = env.int("RAMINO_INTEGRITY_DUMPING_MIN_NET_CHIPS", default=500)
RAMINO_INTEGRITY_DUMPING_MIN_ONE_SIDED = env.float("RAMINO_INTEGRITY_DUMPING_MIN_ONE_SIDED", default=0.8)
RAMINO_INTEGRITY_DUMPING_MIN_Z = env.float("RAMINO_INTEGRITY_DUMPING_MIN_Z", default=3.0)
RAMINO_INTEGRITY_DUMPING_MIN_TIMEOUT_ROUNDS = env.int(
    "RAMINO_INTEGRITY_DUMPING_MIN_TIMEOUT_ROUNDS", default=5
)
RAMINO_INTEGRITY_SOFT_MIN_OFFERS = env.int("RAMINO_INTEGRITY_SOFT_MIN_OFFERS", default=60)
RAMINO_INTEGRITY_SOFT_MIN_RATIO = env.float("RAMINO_INTEGRITY_SOFT_MIN_RATIO", default=1.25)
RAMINO_INTEGRITY_SOFT_MIN_Z = env.float("RAMINO_INTEGRITY_SOFT_MIN_Z", default=4.0)
RAMINO_INTEGRITY_PAIR_MIN_PRIVATE_TABLES = env.int("RAMINO_INTEGRITY_PAIR_MIN_PRIVATE_TABLES", default=5)
RAMINO_INTEGRITY_PAIR_MIN_SHARE = env.float("RAMINO_INTEGRITY_PAIR_MIN_SHARE", default=0.8)
RAMINO_INTEGRITY_ADDRESS_MIN_ACCOUNTS = env.int("RAMINO_INTEGRITY_ADDRESS_MIN_ACCOUNTS", default=2)
RAMINO_INTEGRITY_FARM_NEW_ACCOUNT_DAYS = env.int("RAMINO_INTEGRITY_FARM_NEW_ACCOUNT_DAYS", default=14)
RAMINO_INTEGRITY_FARM_MIN_ACCOUNTS = env.int("RAMINO_INTEGRITY_FARM_MIN_ACCOUNTS", default=3)
RAMINO_INTEGRITY_FARM_MIN_CHIPS = env.int("RAMINO_INTEGRITY_FARM_MIN_CHIPS", default=1000)
RAMINO_INTEGRITY_FARM_MIN_SHARE = env.float("RAMINO_INTEGRITY_FARM_MIN_SHARE", default=0.8)
RAMINO_INTEGRITY_FARM_MIN_GRANT_SHARE = env.float("RAMINO_INTEGRITY_FARM_MIN_GRANT_SHARE", default=0.5)
RAMINO_INTEGRITY_FARM_MAX_ROUNDS = env.int("RAMINO_INTEGRITY_FARM_MAX_ROUNDS", default=5)
# Rounds the job reads per transaction, and how old a settlement must be before it is read (a transfer whose
# transaction commits late has a smaller id than one already read: the lag lets it commit first).
RAMINO_INTEGRITY_BATCH_ROUNDS = env.int("RAMINO_INTEGRITY_BATCH_ROUNDS", default=2000)
RAMINO_INTEGRITY_LAG_SECONDS = env.int("RAMINO_INTEGRITY_LAG_SECONDS", default=60)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "accounts.passwords.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Italian and English; a request that names neither gets English. Catalogs: locale/ (docs/web.md, "Languages").
LANGUAGE_CODE = "en"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "static"))

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.boundary.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.JSONFirstNegotiation",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    # Reverse proxies in front of the web processes that append to X-Forwarded-For. 0 (a bare deployment):
    # the header is ignored and the peer address is the client; with N, the N-th address from the right.
    # More than there are lets any client name its own address (docs/operations.md, Security).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_THROTTLE_RATES": {
        "auth": env("THROTTLE_AUTH", default="30/min"),
        "join_user": env("THROTTLE_JOIN_USER", default="10/min"),
        "join_address": env("THROTTLE_JOIN_ADDRESS", default="30/min"),
        "reconciliation": env("THROTTLE_RECONCILIATION", default="6/hour"),
        "top_up": env("THROTTLE_TOP_UP", default="10/min"),
        "practice": env("THROTTLE_PRACTICE", default="20/min"),
        # Practice and demo starts per client address, whoever is signed in: guests cost nothing to make.
        "practice_address": env("THROTTLE_PRACTICE_ADDRESS", default="30/min"),
        "demo": env("THROTTLE_DEMO", default="10/min"),
        "table_create_user": env("THROTTLE_TABLE_CREATE_USER", default="10/hour"),
        "table_create_address": env("THROTTLE_TABLE_CREATE_ADDRESS", default="30/hour"),
        "replay": env("THROTTLE_REPLAY", default="60/min"),
        "play_now": env("THROTTLE_PLAY_NOW", default="20/min"),
    },
}

# API tokens (django-rest-knox): SHA-512 digests, one per login, each expiring a fixed time after it was issued
# (no sliding renewal: the live-play endpoints read tokens without writing).
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.float("AUTH_TOKEN_TTL_HOURS", default=168)),
    "AUTO_REFRESH": False,
    "AUTH_HEADER_PREFIX": "Token",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Ramino API",
    "DESCRIPTION": "Rummy tables, tournaments and the chip ledger.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from this site's own static files (drf-spectacular-sidecar, never a CDN), no validator badge.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # Several components have a `kind`: name each enum after what it lists.
    "ENUM_NAME_OVERRIDES": {
        "TournamentKindEnum": "tournaments.models.TournamentKind",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "TournamentStageEnum": "tournaments.models.TournamentStage",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "TableStatusEnum": "tournaments.models.TableStatus",
        "SeatStatusEnum": "tournaments.models.SeatStatus",
        "DealMethodEnum": "tournaments.models.DealMethod",
        "DealStatusEnum": "tournaments.models.DealStatus",
        "GameStatusEnum": "tournaments.models.GameStatus",
        "PhaseEnum": "tournaments.engine.state.PHASES",
        "GameEnum": "tournaments.engine.rules.PRESETS",
        "TransferKindEnum": "ledger.models.TransferKind",
        "SettlementRowKindEnum": "tournaments.live.rounds.end.ROW_KINDS",
        "AccountKindEnum": "ledger.models.AccountKind",
        "ReconciliationStatusEnum": "ledger.models.ReconciliationStatus",
        "FlagStatusEnum": "integrity.models.FlagStatus",
        "FlagKindEnum": "integrity.models.FlagKind",
        "ChatReasonEnum": "chat.models.ReportReason",
        "ChatScopeEnum": "chat.models.TimeOutScope",
        "BreakKindEnum": "responsible.breaks.models.BreakKind",
        "VerificationStatusEnum": "responsible.verification.models.VerificationStatus",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.postprocess",
        "config.schema_hooks.error_code_enum",
    ],
}

# Content-Security-Policy on every response (django-csp): scripts only from this origin and never inline
# (the admin and /api/docs/ need none), nothing framed, no plugins. Inline styles are allowed: the admin's
# change list and the Swagger page carry a <style> block, and CSS cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Celery: cookiecutter-django habits, django-environ for the broker.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    for _sub in ("out", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport with each message written whole before a worker can see it (operations/broker.py).
    CELERY_BROKER_TRANSPORT = "operations.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
        "control_folder": str(_broker_dir / "control"),
    }
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Every periodic job, declared here only. At start-up beat's DatabaseScheduler writes each entry into
# django-celery-beat's tables by name (update_or_create): task, schedule and description follow this file, `enabled`
# stays as the admin left it. The names are those of the data migrations that first made the rows (kept as history).
# tests/test_celery_app.py checks each names a registered task and the sync adds no second row. A new job: its task
# in the app's tasks.py, an entry here, no migration (a tournament template's cron job: multi_table/recurring.py).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    **NOTIFICATIONS_BEAT_SCHEDULE,  # noqa: F405
    "tournaments: re-arm lost clocks": {
        "task": "tournaments.sweep_clocks",
        "schedule": timedelta(seconds=30),
        "description": "Re-enqueue overdue turn clocks, claim windows and round starts.",
    },
    "tournaments: open registrations and start scheduled tournaments": {
        "task": "tournaments.run_tournament_schedule",
        "schedule": timedelta(seconds=10),
        "description": "Open the registration of scheduled tournaments and start (or cancel, below "
        "min_entrants) those whose starts_at has come.",
    },
    "tournaments: forget old idempotency keys": {
        "task": "tournaments.forget_idempotency_keys",
        "schedule": timedelta(hours=1),
        "description": "Delete the answers kept under idempotency keys for longer than "
        "RAMINO_IDEMPOTENCY_KEEP_HOURS.",
    },
    "tournaments: close idle private tables": {
        "task": "tournaments.close_idle_tables",
        "schedule": timedelta(minutes=1),
        "description": "Close the private tables nobody has sat at for RAMINO_PRIVATE_TABLE_IDLE_MINUTES.",
    },
    "accounts: purge expired tokens": {
        "task": "accounts.purge_expired_tokens",
        "schedule": timedelta(hours=1),
        "description": "Delete API tokens past their expiry.",
    },
    "tournaments: purge expired guests": {
        "task": "tournaments.purge_guests",
        "schedule": timedelta(hours=1),
        "description": "Close the accounts of the demo's guests whose tokens have expired: their practice "
        "tables end, their tokens and seat addresses go, the user is deactivated (their rounds stay).",
    },
    "integrity: daily checks": {
        "task": "integrity.run_checks",
        "schedule": crontab(minute="15", hour="4", day_of_week="*", day_of_month="*", month_of_year="*"),
        "description": "Read the rounds settled since the last run and flag chip dumping, soft play, "
        "frequent pairs and shared addresses (docs/integrity.md).",
    },
    "ratings: rate final results": {
        "task": "ratings.update",
        "schedule": timedelta(seconds=15),
        "description": "Record the ring-table rounds and tournaments that became final and update the ratings.",
    },
    "responsible: enforce breaks": {
        "task": "responsible.enforce_breaks",
        "schedule": timedelta(minutes=1),
        "description": "Leave the seats and refund the entries of players on a break.",
    },
    "ledger: nightly reconciliation": {
        "task": "ledger.run_reconciliation",
        "schedule": crontab(minute="30", hour="3", day_of_week="*", day_of_month="*", month_of_year="*"),
        "description": "Reconcile the chip ledger and record a ReconciliationRun.",
    },
}

# One handler on stderr for every process: web, worker and beat (config/celery_app.py hands Celery's logging to
# this). Each line carries the request id of the web request it serves, or that enqueued its task
# (operations.request_id). `plain` on a laptop and in the tests, `json` in production (one object per line:
# docs/operations.md, "Logs").
RAMINO_LOG_FORMAT = env("RAMINO_LOG_FORMAT", default="plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "operations.request_id.RequestIdFilter"},
        "as_warning": {"()": "operations.logs.AsWarning"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "operations.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": RAMINO_LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    # A request naming a host the site does not serve (anyone can send one) is a WARNING without traceback,
    # not an ERROR that would set off the error alerts; it is still answered 400 in the envelope.
    "loggers": {"django.security.DisallowedHost": {"filters": ["as_warning"]}},
}

# /metrics (operations/views.py): the networks whose clients may read it without a token, and the token
# (`Authorization: Bearer ...`) that lets anyone else read it; empty: no token is accepted.
RAMINO_METRICS_NETWORKS = env.list("RAMINO_METRICS_NETWORKS", default=["127.0.0.0/8", "::1/128"])
RAMINO_METRICS_TOKEN = env("RAMINO_METRICS_TOKEN", default="")
# django-prometheus would count unapplied migrations with a query at every start: not needed.
PROMETHEUS_EXPORT_MIGRATIONS = False
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Practice tables' bots play on a queue of their own (docs/operations.md "Queues"); by role: config/queues.py.
RAMINO_PRACTICE_BOTS_QUEUE = env("RAMINO_PRACTICE_BOTS_QUEUE", default="practice_bots")
CELERY_TASK_ROUTES: dict[str, dict[str, str]] = {
    **role_routes_from(env),  # RAMINO_QUEUES_BY_ROLE, RAMINO_QUEUE_PREFIX
    **{name: {"queue": RAMINO_PRACTICE_BOTS_QUEUE} for name in PRACTICE_TASKS},
    "notifications.*": {"queue": RAMINO_NOTIFICATIONS_QUEUE},  # noqa: F405
}

# Ramino's own knobs.
# The pause between a round's end and the next deal: the time players have to read the results panel (its
# countdown shows it); 3 s was too short to read them.
RAMINO_NEXT_ROUND_DELAY_SECONDS = env.float("RAMINO_NEXT_ROUND_DELAY_SECONDS", default=10.0)
# Practice tables (docs/tables.md "Practice tables"): a bot "thinks" 0.6 to 1.4 times this long before each
# move (long enough to follow on a phone); the first round is dealt this long after the table is made.
RAMINO_PRACTICE_BOT_DELAY_SECONDS = env.float("RAMINO_PRACTICE_BOT_DELAY_SECONDS", default=1.2)
RAMINO_PRACTICE_FIRST_DEAL_SECONDS = env.float("RAMINO_PRACTICE_FIRST_DEAL_SECONDS", default=1.0)
# Ratings (docs/ratings.md): results before a rating stops being provisional (and joins the leaderboards);
# whether private tables' rounds are rated (off: no boosting between friends); how many game-event ids before the
# last one seen each scan looks again (a round_over event committed after a later-numbered one is still found).
RAMINO_RATINGS_PROVISIONAL_GAMES = env.int("RAMINO_RATINGS_PROVISIONAL_GAMES", default=10)
RAMINO_RATINGS_PRIVATE_TABLES = env.bool("RAMINO_RATINGS_PRIVATE_TABLES", default=False)
RAMINO_RATINGS_EVENT_MARGIN = env.int("RAMINO_RATINGS_EVENT_MARGIN", default=5000)
RAMINO_EVENTS_MAX_WAIT_SECONDS = env.int("RAMINO_EVENTS_MAX_WAIT_SECONDS", default=25)
RAMINO_EVENTS_POLL_SECONDS = env.float("RAMINO_EVENTS_POLL_SECONDS", default=0.2)
# PostgreSQL LISTEN/NOTIFY wakes long-polling requests when their game changes (tournaments/live/messaging/wakeups.py);
# off, or on another database, waiting requests poll every RAMINO_EVENTS_POLL_SECONDS.
RAMINO_EVENTS_WAKEUPS = env.bool("RAMINO_EVENTS_WAKEUPS", default=True)
RAMINO_EVENTS_RECHECK_SECONDS = env.float("RAMINO_EVENTS_RECHECK_SECONDS", default=5.0)
# Long-polls one process lets wait at once: one fewer than its gunicorn threads (deploy/gunicorn.conf.py), so
# that waiting clients never hold every thread while moves queue; more answer at once with Retry-After.
RAMINO_EVENTS_MAX_WAITING = max(0, env.int("GUNICORN_THREADS", default=4) - 1)
# Of those, how many one user's long-polls may take (a client follows a game with one at a time; two allow a
# second table or an overlapping retry), so that one user cannot take every slot and refuse everyone else.
RAMINO_EVENTS_MAX_WAITING_PER_USER = env.int("RAMINO_EVENTS_MAX_WAITING_PER_USER", default=2)
# The live room: the socket tier, presence, the reconnection allowance and flood limits (config/settings/live.py).
from config.settings.live import *  # noqa: E402, F403

if RAMINO_SOCKET_URL:  # noqa: F405
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"] = [SELF, RAMINO_SOCKET_URL]  # noqa: F405
# How long the first answer given under an Idempotency-Key is kept for sit, join, leave and refused moves
# (tournaments/live/moves/idempotency.py); a beat job deletes older ones. Accepted moves keep theirs for good.
RAMINO_IDEMPOTENCY_KEEP_HOURS = env.float("RAMINO_IDEMPOTENCY_KEEP_HOURS", default=24.0)
# A clock this many seconds overdue is re-sent by the beat sweeper (lost in a broker restart or a worker crash).
RAMINO_CLOCK_SWEEP_GRACE_SECONDS = env.float("RAMINO_CLOCK_SWEEP_GRACE_SECONDS", default=5.0)
# A multi-table tournament's scheduled start failing on a transient fault (the database or the broker away) is
# tried again by the next beat run (every 10 s), at most this many attempts in all; then, or at once on any other
# failure, the tournament is cancelled with its reason and every entry refunded (tournament_schedule).
RAMINO_TOURNAMENT_START_ATTEMPTS = max(1, env.int("RAMINO_TOURNAMENT_START_ATTEMPTS", default=30))
from config.settings.multi_table import *  # noqa: E402, F403 (the batched start's size)

# A private table nobody has sat at for this long (nobody seated since it was made or since the last player
# left) is closed by a beat job (docs/tables.md "Private tables").
RAMINO_PRIVATE_TABLE_IDLE_MINUTES = env.float("RAMINO_PRIVATE_TABLE_IDLE_MINUTES", default=30.0)
RAMINO_VERIFY_DAYS = max(0, env.int("RAMINO_VERIFY_DAYS", default=0))  # days to verify an account (0: off)
# How long a finished round's replay is kept in the cache (docs/api.md "Replays"): it never changes.
RAMINO_REPLAY_CACHE_SECONDS = env.int("RAMINO_REPLAY_CACHE_SECONDS", default=24 * 3600)
# The shortest `turn_seconds` a table may have may be lowered below the 5 s floor (tests and demos), never raised.
RAMINO_MIN_TURN_SECONDS = env.int("RAMINO_MIN_TURN_SECONDS", default=5)
CELERY_BEAT_SCHEDULE.update(LIVE_BEAT_SCHEDULE)  # noqa: F405
# Responsible play's settings and beat job (config/settings/responsible.py), after the schedule they join.
from config.settings.responsible import *  # noqa: E402, F403

CELERY_BEAT_SCHEDULE |= RESPONSIBLE_BEAT_SCHEDULE  # noqa: F405
# The tournament formats' settings (config/settings/formats.py).
from config.settings.formats import *  # noqa: E402, F403
