"""Headless Chromium for the browser tests: Debian's `chromium` and `chromium-driver` driven by Selenium.

Each `browser()` is a browser context of its own (a fresh profile directory: its own sessionStorage,
localStorage and cookies), so two of them are two people. Missing Chromium fails the run, never skips it
(`make test` installs the packages first when it can, deploy/ensure_browser.sh)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from django.core.signals import request_finished, request_started
from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
# axe-core, vendored (tests/browser/vendor/README.md): injected into a page through WebDriver, never served.
AXE_SOURCE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
# The two sizes every player page must fit without horizontal scrolling: a phone and a laptop.
PHONE = (390, 844)
DESKTOP = (1366, 900)
SCREENSHOTS = ROOT / "var" / "screenshots"
# Debian's paths unless told otherwise (deploy/ensure_browser.sh, which `make test` runs first, reads the same).
CHROMIUM = os.environ.get("RAMINO_CHROMIUM") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("RAMINO_CHROMEDRIVER") or "/usr/bin/chromedriver"
# Headless as root on a CI box without a GPU, and quiet: no sync, updates or other calls out of the machine.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
)
# No host name resolves but the live server's: a page that needs anything from the internet shows it.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"


def _detached(exc: WebDriverException) -> bool:
    """Did the element leave the page between its finding and the acting (a redraw, a navigation)? Chromium says
    so as a stale element, or from its inspector as a node that "does not belong to the document"."""
    return isinstance(exc, StaleElementReferenceException) or "does not belong to the document" in str(exc)


class Browser:
    """One browser context driving the site at `base`."""

    def __init__(
        self, base: str, name: str, test_name: str, *, offline: bool = False, lang: str = "en"
    ) -> None:
        self.base = base
        self.name = name
        self.test_name = test_name
        self.profile = tempfile.mkdtemp(prefix=f"ramino-chromium-{name}-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        # The person's language, as their browser sends it (Accept-Language) and reports it (navigator.language).
        options.add_argument(f"--lang={lang}")
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        if offline:
            options.add_argument(OFFLINE)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        self.console: list[dict[str, Any]] = []

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def find(self, css: str, timeout: float = 10) -> WebElement:
        return WebDriverWait(self.driver, timeout).until(lambda d: d.find_element(By.CSS_SELECTOR, css))

    def find_all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait_for(self, condition: Callable[[], Any], timeout: float = 15, message: str = "") -> Any:
        def check(_driver: Any) -> Any:
            try:
                return condition()
            except WebDriverException as exc:
                if not _detached(exc):
                    raise
                return False

        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(check)
        except TimeoutException:
            self.screenshot("timeout")
            raise AssertionError(f"{self.name}: timed out waiting: {message}") from None

    def wait_present(self, css: str, message: str = "", timeout: float = 15) -> WebElement:
        return cast(
            WebElement, self.wait_for(lambda: self.find_all(css) and self.find(css), timeout, message or css)
        )

    def wait_shown(self, css: str, message: str = "", timeout: float = 15) -> WebElement:
        """The element found, displayed and done with its entrance animation. A box that comes in from opacity 0
        (the moments over the felt) reads as hidden, its text as "", until the animation has run."""

        def shown() -> Any:
            found = self.find_all(css)
            if not found or not found[0].is_displayed():
                return None
            running = self.driver.execute_script(
                "return arguments[0].getAnimations({subtree: true}).some(a => a.playState === 'running');",
                found[0],
            )
            return None if running else found[0]

        return cast(WebElement, self.wait_for(shown, timeout, message or css))

    def wait_attribute(self, css: str, name: str, value: str, message: str = "", timeout: float = 15) -> None:
        self.wait_for(
            lambda: self.find(css).get_attribute(name) == value, timeout, message or f"{css} {name}"
        )

    def wait_text(self, css: str, text: str, message: str = "", timeout: float = 15) -> None:
        self.wait_for(lambda: self.reach(css).text == text, timeout, message or f"{css} = {text}")

    def _afresh(self, act: Callable[[], Any], attempts: int = 20) -> Any:
        """`act` on an element found again if the page redrew it between the finding and the acting (the
        client redraws a section on every event: under load a redraw lands between the two more often)."""
        for _ in range(attempts - 1):
            try:
                return act()
            except WebDriverException as exc:
                if not _detached(exc):
                    raise
                time.sleep(0.1)
        return act()

    # Where a seated player's page keeps what is not on its one screen (docs/web.md "The table page"): the table's
    # drawer and, on a phone, the site's navigation in the top bar's menu.
    _PLACE = """
    const el = document.querySelector(arguments[0]);
    if (!el) return "";
    const drawer = document.querySelector("[data-role=drawer]");
    const toggle = document.querySelector("[data-role=drawer-toggle]");
    const narrow = !!toggle && getComputedStyle(toggle).display !== "none";
    const menu = document.querySelector("[data-role=nav-menu]");
    const folded = !!menu && getComputedStyle(menu).display !== "none";
    if (narrow && el.closest("[data-role=drawer]") && drawer.dataset.open !== "true") return "open-drawer";
    if (narrow && !el.closest("[data-role=drawer]") && drawer && drawer.dataset.open === "true") return "close-drawer";
    if (folded && el.closest("#nav") && !document.body.classList.contains("nav-open")) return "open-menu";
    return "";
    """

    def reach(self, css: str) -> WebElement:
        """The element `css`, reached as a person reaches it: on a phone at a table, the drawer (or the navigation's
        menu) is opened first when it holds it, and the drawer closed when it covers it."""
        buttons = {
            "open-drawer": "[data-role=drawer-toggle]",
            "close-drawer": "[data-role=drawer-close]",
            "open-menu": "[data-role=nav-menu]",
        }
        for _ in range(3):
            step = str(self.driver.execute_script(self._PLACE, css) or "") if self.find_all(css) else ""
            if not step:
                break
            button = buttons[step]

            def press(button: str = button) -> None:
                self.find(button).click()

            def done(step: str = step) -> bool:
                return bool(self.driver.execute_script(self._PLACE, css) != step)

            self._afresh(press)
            self.wait_for(done, message=f"{step} for {css}")
        return self.find(css)

    def attribute(self, css: str, name: str) -> str:
        return str(self._afresh(lambda: self.find(css).get_attribute(name) or ""))

    def fill(self, css: str, value: str | int) -> None:
        def fill_it() -> None:
            field = self.reach(css)
            field.clear()
            field.send_keys(str(value))

        self._afresh(fill_it)

    def click(self, css: str) -> None:
        """Click `css` once it can be clicked: a redraw may move it (into the table's drawer when the page becomes
        the seated one-screen table) between the finding and the click; it is reached again then."""

        def attempt() -> bool:
            element = self.reach(css)
            self.driver.execute_script(self._ARM_CLICK, element)
            try:
                element.click()
            except (ElementNotInteractableException, ElementClickInterceptedException):
                return False
            try:
                return bool(self.driver.execute_script(self._CLICK_LANDED, element))
            except StaleElementReferenceException:
                return True  # the click redrew or left the page: it landed

        self.wait_for(attempt, message=f"click {css}")

    # A click lands where the element was when the driver looked: a redraw that moves it in between (the nav rewraps
    # on a phone when the notification bell's badge appears; a page's data arrives) sends the click elsewhere, and
    # the person taps again. A disabled control gets no click event at all, and is not tapped twice.
    _ARM_CLICK = """
    const el = arguments[0];
    el.__rClicked = false;
    el.addEventListener("click", () => { el.__rClicked = true; }, {once: true, capture: true});
    """
    _CLICK_LANDED = """
    const el = arguments[0];
    return el.__rClicked || el.disabled === true || el.getAttribute("aria-disabled") === "true"
      || !!el.closest("fieldset:disabled");
    """

    def fill_birth(self, born: str = "1990-01-01") -> None:
        """The registration form's date of birth (day, month in words, year), `born` as YYYY-MM-DD."""
        from selenium.webdriver.support.select import Select

        year, month, day = (int(part) for part in born.split("-"))
        self.fill("[data-role=register-birth-day]", day)
        self._afresh(
            lambda: Select(self.find("[data-role=register-birth-month]")).select_by_value(str(month))
        )
        self.fill("[data-role=register-birth-year]", year)

    def text(self, css: str) -> str:
        return str(self._afresh(lambda: self.reach(css).text))

    def screenshot(self, label: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{self.test_name}-{self.name}-{label}")
        path = SCREENSHOTS / f"{slug}.png"
        self.driver.save_screenshot(str(path))
        return path

    def resize(self, size: tuple[int, int]) -> None:
        """The viewport (the page's inner size, as a phone's screen is) set to `size`."""
        width, height = size
        self.driver.set_window_size(width, height)
        inner = self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
        self.driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))

    def document_width(self) -> int:
        """How wide the page is laid out: more than the viewport means a horizontal scroll."""
        return int(
            self.driver.execute_script(
                "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
            )
        )

    def assert_fits(self, label: str) -> None:
        """No horizontal scroll at the current viewport (a screenshot either way, for the record)."""
        viewport = int(self.driver.execute_script("return window.innerWidth"))
        self.screenshot(f"{label}-{viewport}")
        width = self.document_width()
        assert width <= viewport, f"{self.name}: {label} is {width} px wide in a {viewport} px viewport"

    def axe_violations(self, *, exclude: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        """axe-core's violations of every rule, any impact, on the page as it stands: [{id, impact, help, nodes}]."""
        if not self.driver.execute_script("return typeof window.axe === 'object'"):
            self.driver.execute_script(AXE_SOURCE)
        result = self.driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            const context = arguments[0].length ? {exclude: arguments[0].map((css) => [css])} : document;
            window.axe.run(context, {resultTypes: ["violations"]})
              .then((r) => done(r.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({target: n.target, summary: n.failureSummary}))}))))
              .catch((e) => done([{id: "axe-error", impact: "critical", help: String(e), nodes: []}]));
            """,
            list(exclude),
        )
        return cast(list[dict[str, Any]], result)

    def assert_accessible(self, label: str) -> None:
        """axe-core finds nothing, of any impact, on the page as it stands."""
        self.driver.set_script_timeout(60)
        violations = self.axe_violations()
        if violations:
            # The client redraws a section on every event (sockets make them come faster): a scan that ran while
            # the page was half drawn (its heading not yet back) is taken again once; what stays is the page's.
            time.sleep(1)
            violations = self.axe_violations()
        if violations:
            self.screenshot(f"axe-{label}")
        assert violations == [], f"{self.name}: axe-core on {label}: {violations}"

    def logs(self) -> list[dict[str, Any]]:
        self.console += self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        return self.console

    def script_errors(self) -> list[str]:
        """Console messages that mean a script failed or the policy refused something."""
        return [
            entry["message"]
            for entry in self.logs()
            if entry["level"] == "SEVERE"
            and ("Content Security Policy" in entry["message"] or "Uncaught" in entry["message"])
        ]

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="session")
def chromium() -> None:
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists()]
    if missing:
        pytest.fail(
            f"Browser tests need Debian's chromium and chromium-driver ({', '.join(missing)} missing): "
            "apt-get install -y chromium chromium-driver (`make test` does it when it can).",
            pytrace=False,
        )
    # this run's screenshots only (CI keeps the folder as an artifact)
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)


# Long-polls the pages leave waiting on the live server when a test ends must end before the test's
# database access does; a short cap on the wait (the pages ask for 25 s) lets them.
LONG_POLL_CAP_SECONDS = 2


class _InFlight:
    """The live server's requests not yet answered (Django's request_started and request_finished signals, sent
    by its handler threads). A test's end waits for them: a page's long-poll outlives the page's browser by up to
    the cap. Waiting for the count instead of the cap each time took 2.5 s off every browser test's end (87
    tests: about 3.5 minutes of the browser tests' one process)."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def started(self, **_kwargs: Any) -> None:
        with self.changed:
            self.count += 1

    def finished(self, **_kwargs: Any) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_answered(self, timeout: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.count <= 0, timeout=timeout)


@pytest.fixture
def browser(
    chromium: None, live_server: Any, settings: Any, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Browser]]:
    """browser("ann") -> a new browser context on the live server (`offline=True`: no other host
    resolves; `lang="it"`: an Italian browser, Accept-Language it); every one is closed after the test, and none may have logged a script error or a policy
    violation."""
    settings.RAMINO_EVENTS_MAX_WAIT_SECONDS = LONG_POLL_CAP_SECONDS
    opened: list[Browser] = []
    in_flight = _InFlight()
    request_started.connect(in_flight.started)
    request_finished.connect(in_flight.finished)

    def make(name: str, *, offline: bool = False, lang: str = "en") -> Browser:
        started = time.monotonic()
        b = Browser(live_server.url, name, request.node.name, offline=offline, lang=lang)
        assert time.monotonic() - started < 60
        opened.append(b)
        return b

    yield make
    try:
        for b in opened:
            assert b.script_errors() == [], (b.name, b.script_errors())
    finally:
        for b in opened:
            b.quit()
        in_flight.wait_answered(LONG_POLL_CAP_SECONDS + 1.5)
        request_started.disconnect(in_flight.started)
        request_finished.disconnect(in_flight.finished)


# ------------------------------------------------------------------------------ a player's hand on the table page


def hand_cards(page: Browser) -> list[str]:
    """The cards of the hand on the table page, as it shows them."""
    return [c.get_attribute("data-card") or "" for c in page.find_all("[data-role=hand-card]")]


def play_selected(page: Browser, cards: list[str], action: str) -> None:
    """Select `cards` in the hand by clicking them, then the action button `action` (meld, lay_off, discard ...);
    waits until they have left the hand."""
    for code in cards:
        page.click(f"[data-role=hand-card][data-card='{code}']")
        page.wait_attribute(f"[data-role=hand-card][data-card='{code}']", "aria-pressed", "true")
    page.click(f"[data-role=act-{action}]")
    page.wait_for(lambda: not any(c in hand_cards(page) for c in cards), message=f"{action} {cards}")
