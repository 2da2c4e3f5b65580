#!/usr/bin/env bash
# The browser tests (tests/browser) drive Debian's Chromium through its chromedriver. `make test` and
# `make test-browser` run this first: it installs both packages when they are missing and installing is
# possible (root, apt-get present), as on a fresh CI box; otherwise it stops the run at once with one line
# saying what to run, instead of letting the suite fail ten tests at the end.
#
# RAMINO_CHROMIUM and RAMINO_CHROMEDRIVER name the binaries (tests/browser/conftest.py reads the same);
# RAMINO_APT_GET the package tool (empty: never install). tests/test_ensure_browser.py runs every path.
set -uo pipefail

chromium=${RAMINO_CHROMIUM:-/usr/bin/chromium}
driver=${RAMINO_CHROMEDRIVER:-/usr/bin/chromedriver}
apt_get=${RAMINO_APT_GET-apt-get}

present() { [ -x "$chromium" ] && [ -x "$driver" ]; }

present && exit 0

if [ -n "$apt_get" ] && command -v "$apt_get" >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "ensure_browser: installing chromium and chromium-driver for the browser tests"
    if "$apt_get" update -qq && DEBIAN_FRONTEND=noninteractive "$apt_get" install -y -qq chromium chromium-driver \
      && present; then
      exit 0
    fi
    echo "make test stopped: installing chromium and chromium-driver failed (above); fix it, then run: apt-get install -y chromium chromium-driver" >&2
    exit 1
  fi
  echo "make test stopped: the browser tests need $chromium and $driver; run: sudo apt-get install -y chromium chromium-driver" >&2
  exit 1
fi
echo "make test stopped: the browser tests need $chromium and $driver; install Chromium and its chromedriver, then run: RAMINO_CHROMIUM=/path/to/chromium RAMINO_CHROMEDRIVER=/path/to/chromedriver make test" >&2
exit 1
