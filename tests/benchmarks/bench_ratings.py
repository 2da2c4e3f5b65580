"""The leaderboard read at 100,000 rated players, against a bare indexed query of the same rows, in one run.

    make bench-ratings        # = DATABASE_URL=<test postgres> python -m tests.benchmarks.bench_ratings

Creates (and drops afterwards) a scratch database `<name>_bench_ratings` beside DATABASE_URL's, migrates it,
bulk-loads --players users each with a Rummy 500 rating (about 90 % past the provisional games), then times,
alternating in --rounds rounds, `GET /api/v1/leaderboards/?game=rummy500&page=P` through Django's test client
(the whole stack: middleware, view, selector, serializer, JSON) and, as the floor, a bare endpoint on the same
stack returning the same page's rows read by one hand-written SQL query on the same index
(tests/benchmarks/bench_ratings_urls.py). The same query alone over psycopg (no HTTP stack) is reported beside
them. Pages: the first, the 100th and the 1,000th (deep OFFSET). Goal: the endpoint at >= 0.5x the floor
endpoint's rate. Prints a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import psycopg

from tests.benchmarks import tiny
from tests.benchmarks.scratch_db import recreate_database, scratch_url

GOAL = 0.5
PAGE_SIZE = 50


def load(players: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from ratings.maths import display_rating
    from ratings.models import Rating

    rng = random.Random(1)
    user_model = get_user_model()
    password = make_password(None)
    batch = 10_000
    for start in range(0, players, batch):
        users = user_model.objects.bulk_create(
            [
                user_model(username=f"p{n:06d}", password=password)
                for n in range(start, min(players, start + batch))
            ]
        )
        ratings = []
        for user in users:
            mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
            games = rng.choice([rng.randint(0, 9), *[rng.randint(10, 400)] * 9])
            ratings.append(
                Rating(
                    player=user,
                    family="rummy500",
                    mu=mu,
                    sigma=sigma,
                    rating=display_rating(mu, sigma),
                    games=games,
                )
            )
        Rating.objects.bulk_create(ratings)


def time_endpoint(url: str, repeat: int) -> float:
    from django.test import Client

    client = Client()
    assert client.get(url).status_code == 200
    started = time.perf_counter()
    for _ in range(repeat):
        response = client.get(url)
        assert response.status_code == 200 and len(response.json()["results"]) == PAGE_SIZE
    return repeat / (time.perf_counter() - started)


def time_query(url: str, page: int, repeat: int, provisional: int) -> float:
    from tests.benchmarks.bench_ratings_urls import FLOOR_SQL

    with psycopg.connect(url, prepare_threshold=None) as conn:
        params = ("rummy500", provisional, PAGE_SIZE, (page - 1) * PAGE_SIZE)
        assert len(conn.execute(FLOOR_SQL, params).fetchall()) == PAGE_SIZE
        started = time.perf_counter()
        for _ in range(repeat):
            rows = conn.execute(FLOOR_SQL, params).fetchall()
            assert len(rows) == PAGE_SIZE
        return repeat / (time.perf_counter() - started)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--pages", default="1,100,1000", help="the pages read (50 players a page)")
    args = parser.parse_args(
        tiny.argv(argv, ["--players", "300", "--rounds", "1", "--repeat", "2", "--pages", "1,2"])
    )
    pages = [int(page) for page in args.pages.split(",")]
    if args.players < max(pages) * PAGE_SIZE:
        parser.error(f"--players: at least {max(pages) * PAGE_SIZE} for page {max(pages)}")

    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ramino")
    url, admin_url, name = scratch_url(base_url, "bench_ratings" + os.environ.get("BENCH_DB_SUFFIX", ""))
    recreate_database(admin_url, name)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        settings.ALLOWED_HOSTS = ["*"]
        settings.ROOT_URLCONF = "tests.benchmarks.bench_ratings_urls"
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        load(args.players)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ANALYZE")
        print(
            f"loaded {args.players:,} rated players in {time.perf_counter() - started:.0f} s", file=sys.stderr
        )
        provisional = settings.RAMINO_RATINGS_PROVISIONAL_GAMES
        rows = []
        for page in pages:
            endpoint, floor, query = [], [], []
            # the deep page reads 50,000 index entries a time: fewer repeats
            repeat = args.repeat if page < 1000 else max(min(5, args.repeat), args.repeat // 10)
            for _ in range(args.rounds):
                size = f"page={page}&page_size={PAGE_SIZE}"
                endpoint.append(time_endpoint(f"/api/v1/leaderboards/?game=rummy500&{size}", repeat))
                floor.append(time_endpoint(f"/bench/leaderboard-floor/?{size}", repeat))
                query.append(time_query(url, page, repeat, provisional))
            e, f, q = statistics.median(endpoint), statistics.median(floor), statistics.median(query)
            rows.append((page, e, f, q, e / f))
        print(
            "| page | endpoint (reads/s) | floor: bare endpoint, same rows (reads/s) | ratio | goal "
            "| the query alone, no HTTP stack (reads/s) |"
        )
        print("|---|---|---|---|---|---|")
        for page, e, f, q, ratio in rows:
            print(f"| {page:,} | {e:,.0f} | {f:,.0f} | {ratio:.2f}x | >= {GOAL}x | {q:,.0f} |")
        return 0 if tiny.enabled() or all(r[4] >= GOAL for r in rows) else 1
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            recreate_database(admin_url, name, create=False)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
