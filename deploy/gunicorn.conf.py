"""Gunicorn settings for the web container, all overridable from the environment.

Requests are short (a move, a ledger read) apart from the events long-poll; the slow work runs in Celery.
Scale by adding web containers rather than raising the worker count far.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# 2 x cores + 1 processes, capped, each with a few threads: the events endpoint long-polls (up to
# RAMINO_EVENTS_MAX_WAIT_SECONDS), which would pin a sync worker for the whole wait. Every thread may hold a
# database connection (CONN_MAX_AGE), so workers x threads per container must fit PostgreSQL's
# max_connections together with the other containers.
workers = int(os.environ.get("GUNICORN_WORKERS", str(min(2 * multiprocessing.cpu_count() + 1, 5))))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
# (The Django settings read GUNICORN_THREADS too: at most threads - 1 long-polls of a process wait at once, so
# one thread is always free for moves; with one thread a long-poll never waits. tournaments/wakeups.py)
# Longer than the longest long-poll, so that a waiting request is never taken for a stuck worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle workers now and then so that a slow leak cannot grow without bound; jitter avoids all at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "200"))
# Logs go to stdout/stderr, where the container runtime collects them.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
# e.g. "%(m)s %(U)s %(s)s %(B)s %(D)s" logs each request's server time in microseconds (latency analysis).
if "GUNICORN_ACCESS_LOG_FORMAT" in os.environ:
    access_log_format = os.environ["GUNICORN_ACCESS_LOG_FORMAT"]
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Peers whose X-Forwarded-Proto (and other forwarding headers) gunicorn believes: the reverse proxy's
# address or network (e.g. 172.18.0.0/16), never "*" where clients can reach gunicorn directly. The default,
# gunicorn's own, trusts only this host. Django's NUM_PROXIES is the other half (docs/operations.md).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# /dev/shm avoids heartbeat stalls when the container's /tmp is on a slow overlay filesystem.
worker_tmp_dir = "/dev/shm"
# Recent gunicorn opens a control socket under $HOME, which the image's unprivileged user cannot write;
# nothing here uses it. Setting GUNICORN_CONTROL_SOCKET to a writable path turns it on.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "/tmp/gunicorn.ctl")
control_socket_disable = "GUNICORN_CONTROL_SOCKET" not in os.environ
