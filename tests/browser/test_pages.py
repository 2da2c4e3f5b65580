"""The landing page and the client's sign-in, registration and wallet pages in a real Chromium, under the
site's Content-Security-Policy; the page's own SHA-256 (the stand-in for Web Crypto) against Python's."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.services import postings
from tests.ledger.utils import assert_reconciled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_landing_page_leads_to_the_client_and_a_new_player_registers(browser: Any) -> None:
    ann = browser("ann")
    ann.open("/")
    assert ann.text("h1") == "Ramino"

    def links(css: str) -> dict[str, str]:
        found = {el.get_attribute("data-role"): el.get_attribute("href") for el in ann.find_all(css)}
        return {role: href.removeprefix(ann.base) for role, href in found.items()}

    # Play up front, in the top bar and as the page's big button, and the demo; the games and no open
    # tournament (none is)
    assert links("main a[data-role]:not([data-role=learn-link])") == {
        "link-play": "/play/",
        "link-demo": "/play/#/demo",
    }
    assert links("header a[data-role]") == {"nav-play": "/play/"}
    assert len(ann.find_all("main [data-role=game]")) == 7
    learn = [
        a.get_attribute("href").removeprefix(ann.base) for a in ann.find_all("main [data-role=learn-link]")
    ]
    assert len(learn) == 7 and all(
        href.startswith("/play/learn/") for href in learn
    )  # each game's how to play
    ann.find("main [data-role=no-tournaments]")
    # the developer links in the footer
    assert links("footer a[data-role]") == {
        "link-docs": "/api/docs/",
        "link-redoc": "/api/redoc/",
        "link-schema": "/api/schema/",
        "link-admin": "/admin/",
        "link-audit": "/audit/",
        "link-health": "/health/",
        "link-ready": "/ready/",
    }
    ann.screenshot("landing")
    ann.click("[data-role=link-play]")
    ann.find("[data-role=register-form]")
    ann.screenshot("sign-in")

    # a refused registration says why, and nothing is created
    ann.fill("[data-role=register-username]", "ann")
    ann.fill("[data-role=register-password]", "short")
    ann.fill_birth()
    ann.click("[data-role=register]")
    error = ann.wait_for(
        lambda: ann.find("[data-role=auth-error]").is_displayed() and ann.find("[data-role=auth-error]")
    )
    assert "password" in error.text.lower()
    assert not get_user_model().objects.filter(username="ann").exists()

    ann.fill("[data-role=register-password]", "a-long-secret-9")
    ann.click("[data-role=register]")
    ann.find("[data-role=lobby]")
    ann.wait_for(lambda: ann.text("[data-role=balance]") == "0", message="the wallet balance")
    assert ann.text("[data-role=whoami]") == "ann"
    # the token lives in this tab's sessionStorage, and no cookie carries it
    stored = ann.driver.execute_script("return sessionStorage.getItem('ramino.session')")
    assert '"token"' in stored
    # no cookie holds the token (a CSRF or language cookie may be there, never the session's token)
    token = json.loads(stored)["token"]
    cookies = ann.driver.get_cookies()
    assert {c["name"] for c in cookies} <= {"csrftoken", "django_language"}
    assert all(token not in c["value"] for c in cookies)
    ann.screenshot("lobby-new-player")

    # an admin credits her; the wallet page shows the balance and the history line
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    user = get_user_model().objects.get(username="ann")
    postings.adjust_wallet(
        user=user, amount=5_000, reason="welcome", idempotency_key="welcome:ann", posted_by=boss
    )
    ann.click("[data-role=nav-wallet]")
    ann.wait_for(lambda: ann.text("[data-role=wallet-balance]") == "5,000", message="wallet balance")
    row = ann.find("[data-role=wallet-row]")
    assert row.get_attribute("data-kind") == "adjustment" and row.get_attribute("data-amount") == "5000"
    assert "welcome" in row.text
    ann.screenshot("wallet")

    # signing out revokes the token on the server and forgets it here
    ann.click("[data-role=sign-out]")
    ann.find("[data-role=sign-in-form]")
    assert ann.driver.execute_script("return sessionStorage.getItem('ramino.session')") is None
    from knox.models import AuthToken

    assert not AuthToken.objects.filter(user=user).exists()
    ann.fill("[data-role=sign-in-username]", "ann")
    ann.fill("[data-role=sign-in-password]", "a-long-secret-9")
    ann.click("[data-role=sign-in]")
    ann.find("[data-role=lobby]")
    assert_reconciled()


def test_the_pages_sha256_matches_pythons(browser: Any) -> None:
    page = browser("hasher")
    page.open("/play/")
    page.find("[data-role=auth]")
    samples = ["", "abc", "é|JK,TH,7C" * 40, "x" * 55, "y" * 56, "z" * 64]
    for text in samples:
        expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
        stand_in = page.driver.execute_script("return Ramino.sha256.fallbackHex(arguments[0])", text)
        web_crypto = page.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; Ramino.sha256.hex(arguments[0]).then(done)", text
        )
        assert stand_in == expected == web_crypto, text
