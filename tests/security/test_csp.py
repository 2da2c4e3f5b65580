"""The Content-Security-Policy is on the admin and the API docs, and both pages live within it: every script
is a file from this origin (no inline script, no handler attribute, no third-party host), and is served."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


class Page(HTMLParser):
    """What a page loads, and what it would run inline."""

    def __init__(self) -> None:
        super().__init__()
        self.resources: list[str] = []
        self.inline_scripts: list[str] = []
        self.handler_attributes: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.handler_attributes += [name for name, _ in attrs if name.startswith("on")]
        self.handler_attributes += [
            v for v in values.values() if v and v.strip().lower().startswith("javascript:")
        ]
        if tag == "script":
            if values.get("src"):
                self.resources.append(values["src"] or "")
            else:
                self._in_inline_script = values.get("type") not in ("application/json",)
                self.inline_scripts.append("")
        elif tag == "link" and values.get("href"):
            self.resources.append(values["href"] or "")
        elif tag == "img" and values.get("src"):
            self.resources.append(values["src"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_inline_script = False

    def handle_data(self, data: str) -> None:
        if self._in_inline_script:
            self.inline_scripts[-1] += data


def parse(response: Any) -> Page:
    page = Page()
    page.feed(response.content.decode())
    return page


def policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def assert_runs_under_the_policy(client: Client, path: str) -> Page:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    directives = policy(response)
    assert directives["script-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    page = parse(response)
    assert [script for script in page.inline_scripts if script.strip()] == [], path
    assert page.handler_attributes == [], path
    for url in page.resources:
        parts = urlsplit(url)
        assert not parts.scheme and not parts.netloc, f"{path} loads {url} from another origin"
        asset: Any = client.get(url)
        assert asset.status_code == 200, (path, url, asset.status_code)
        # Read to the end: the test client closes a streamed file (WhiteNoise's) only then.
        body = b"".join(asset.streaming_content) if asset.streaming else asset.content
        assert body, (path, url)
    return page


def test_the_docs_page_loads_only_its_own_files() -> None:
    client = Client()
    page = assert_runs_under_the_policy(client, "/api/docs/")
    scripts = [url for url in page.resources if url.endswith(".js") or "script=" in url]
    assert any("swagger-ui-bundle.js" in url for url in scripts)
    start = client.get(next(url for url in scripts if "script=" in url))
    assert start["Content-Type"].startswith("application/javascript")
    assert b"/api/schema/" in start.content and b"https://" not in start.content


@pytest.mark.parametrize(
    "path",
    ["/admin/login/", "/admin/", "/admin/auth/user/", "/admin/auth/user/add/", "/admin/ledger/"],
)
def test_admin_pages_carry_the_policy_and_need_nothing_it_forbids(path: str) -> None:
    client = Client()
    if path != "/admin/login/":
        client.force_login(
            get_user_model().objects.create_superuser(username="root", password="a-long-secret-9")
        )
    assert_runs_under_the_policy(client, path)


def test_the_user_change_page_runs_under_the_policy() -> None:
    client = Client()
    root = get_user_model().objects.create_superuser(username="root", password="a-long-secret-9")
    client.force_login(root)
    assert_runs_under_the_policy(client, f"/admin/auth/user/{root.pk}/change/")
