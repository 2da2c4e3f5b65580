"""Settings of the API benchmark's gunicorn: the test settings plus the floor endpoint's URL."""

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.bench_api_urls"
