"""The player client's weight and first render on a phone (docs/performance.md "The player client on a phone").

`make page-weight` (or `python -m tests.benchmarks.page_weight [--tree DIR] [--runs N]`) serves a source tree (this
checkout, or `--tree`: e.g. `git archive main | tar -x -C /tmp/before` for "before") with Django's development
server on the embedded default (a throwaway SQLite file and folder: nothing in the tree is written), opens `/play/`
in headless Chromium emulating a mid-range phone through the DevTools protocol — a 390x844 screen at 3x, the CPU
4x slower, "Slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) — with an empty cache, and reports:

- the requests and the bytes transferred (the resource timing's `transferSize`, the document included: what this
  server sends, uncompressed), and what gzip would make of the same bodies (what a production server sends:
  WhiteNoise serves precompressed static files, docs/operations.md);
- first contentful paint (the browser's paint timing), and the moment the sign-in form is on the screen (the client's
  scripts have run: the first thing a player can use), both from the navigation's start;

each the median of `--runs` loads (3 by default). Figures move with the machine's load: compare before and after in
the same run of the same machine.
"""

from __future__ import annotations

import argparse
import gzip
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("RAMINO_CHROMIUM") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("RAMINO_CHROMEDRIVER") or "/usr/bin/chromedriver"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
SLOW_4G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
CPU_SLOWDOWN = 4
READY = "[data-role=sign-in]"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(tree: Path, scratch: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Django's development server on `tree`, its database and broker folder in `scratch`."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "memory://",
        "RAMINO_VAR_DIR": str(scratch),
        "PYTHONPATH": str(tree),
    }
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/play/", timeout=5) as answer:
                if answer.status == 200:
                    return server, base
        except OSError:
            time.sleep(0.5)
    server.kill()
    raise RuntimeError(f"the server on {tree} did not answer /play/")


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='ramino-weight-')}")
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def load(driver: Any, base: str) -> dict[str, float]:
    """One cold load of /play/ on the phone profile."""
    cdp = driver.execute_cdp_cmd
    cdp("Network.enable", {})
    cdp("Network.clearBrowserCache", {})
    cdp("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp("Network.emulateNetworkConditions", SLOW_4G)
    cdp("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp("Emulation.setDeviceMetricsOverride", PHONE)
    driver.get("about:blank")
    driver.get(f"{base}/play/")
    deadline = time.monotonic() + 120
    ready = None
    while time.monotonic() < deadline:
        ready = driver.execute_script(
            "const el = document.querySelector(arguments[0]);"
            "return el && el.getBoundingClientRect().height > 0 ? performance.now() : null;",
            READY,
        )
        if ready is not None:
            break
        time.sleep(0.05)
    if ready is None:
        raise RuntimeError("the sign-in form never appeared")
    time.sleep(0.5)  # late requests (the language catalog's, fonts) are counted too
    entries = driver.execute_script(
        "const nav = performance.getEntriesByType('navigation')[0];"
        "const res = performance.getEntriesByType('resource');"
        "const paint = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');"
        "return {urls: [nav.name, ...res.map((r) => r.name)],"
        " bytes: nav.transferSize + res.reduce((a, r) => a + r.transferSize, 0),"
        " requests: 1 + res.length, fcp: paint ? paint.startTime : null};"
    )
    cdp("Emulation.setCPUThrottlingRate", {"rate": 1})
    return {
        "requests": entries["requests"],
        "bytes": entries["bytes"],
        "gzip": sum(gzipped(url) for url in entries["urls"]),
        "fcp_ms": entries["fcp"] or 0.0,
        "ready_ms": float(ready),
    }


def gzipped(url: str) -> int:
    """What gzip (level 6, as a server compresses) makes of the body at `url`."""
    with urllib.request.urlopen(url, timeout=10) as answer:
        return len(gzip.compress(answer.read(), compresslevel=6))


def measure(tree: Path, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ramino-weight-") as scratch:
        server, base = serve(tree, Path(scratch))
        driver = browser()
        try:
            loads = [load(driver, base) for _ in range(runs)]
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=20)
    return {key: statistics.median(x[key] for x in loads) for key in loads[0]}


def report(label: str, m: dict[str, float]) -> str:
    return (
        f"| {label} | {m['requests']:.0f} | {m['bytes'] / 1024:.1f} KiB | {m['gzip'] / 1024:.1f} KiB"
        f" | {m['fcp_ms']:.0f} ms | {m['ready_ms']:.0f} ms |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, help="a source tree to measure (repeatable)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    trees = args.tree or [ROOT]
    print("| tree | requests | transferred | gzip | first contentful paint | sign-in form shown |")
    print("|---|---|---|---|---|---|")
    for tree in trees:
        print(report(str(tree), measure(tree.resolve(), args.runs)), flush=True)


if __name__ == "__main__":
    main()
