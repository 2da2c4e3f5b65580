"""The landing page and the player client's shell: served by Django, linking what they should, and living
within the Content-Security-Policy (every script a static file of this origin, nothing inline)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.security.test_csp import assert_runs_under_the_policy

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "play" / "static" / "play" / "js"


def test_the_landing_page_links_the_client_the_docs_the_admin_and_the_probes() -> None:
    page = assert_runs_under_the_policy(Client(), "/")
    assert page.resources, "the stylesheet"
    html = Client().get("/").content.decode()
    links = set(re.findall(r'href="([^"]+)"', html))
    assert {
        "/play/",
        "/api/docs/",
        "/api/redoc/",
        "/admin/",
        "/audit/",
        "/health/",
        "/ready/",
        "/api/schema/",
    } <= links
    for link in ("/play/", "/api/docs/", "/health/"):
        assert Client().get(link).status_code == 200, link


def test_the_client_shell_loads_only_its_own_script_files() -> None:
    page = assert_runs_under_the_policy(Client(), "/play/")
    scripts = [url for url in page.resources if url.endswith(".js")]
    expected = {f"/static/play/js/{path.name}" for path in STATIC.glob("*.js")}
    assert set(scripts) == expected and scripts[-1] == "/static/play/js/app.js"


def test_the_client_shell_is_the_same_page_for_everyone_and_holds_no_data() -> None:
    """The page is a plain API client: what it shows comes from the API with the player's token, never
    from the server rendering a session's data into it."""
    anonymous = Client().get("/play/").content
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser(username="root", password="a-long-secret-9"))
    assert admin.get("/play/").content == anonymous
    assert b"root" not in anonymous and b"csrfmiddlewaretoken" not in anonymous


def test_the_client_scripts_keep_the_token_out_of_cookies_and_build_no_html_from_strings() -> None:
    # the classic scripts and the pure modules (lib/*.mjs) alike
    sources = {path.name: path.read_text() for path in [*STATIC.glob("*.js"), *STATIC.glob("lib/*.mjs")]}
    joined = "\n".join(sources.values())
    assert "document.cookie" not in joined and "localStorage.setItem(STORE" not in joined
    assert 'credentials: "omit"' in sources["api.js"] and "sessionStorage.setItem(STORE" in sources["api.js"]
    # text from the server goes in as text: no innerHTML, no eval, no inline handlers built at run time
    for forbidden in (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "eval(",
        "new Function",
        'setAttribute("on',
    ):
        assert forbidden not in joined, forbidden
