"""The site's icon (issue 31, defect 21): an SVG among the static files, linked from every page of ours, and
`/favicon.ico` answered for the pages that link none (the Django admin's) and for browsers that ask anyway."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

ICON = "/static/play/favicon.svg"


def test_favicon_ico_answers_the_svg_icon() -> None:
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"] == ICON
    assert "max-age=86400" in answer["Cache-Control"]
    icon = Client().get(answer["Location"])
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")
    svg = icon.getvalue().decode()
    assert svg.startswith("<svg") and "<path" in svg  # a drawn spade: no font needed
    assert Client().post("/favicon.ico").status_code == 405


@pytest.mark.parametrize("path", ["/", "/play/", "/play/learn/board/", "/audit/", "/api/redoc/"])
def test_every_page_links_the_icon(path: str) -> None:
    client = Client()
    client.force_login(StaffFactory.create())
    html = client.get(path, follow=True).content.decode()
    assert re.search(rf'<link rel="icon" href="{re.escape(ICON)}" type="image/svg\+xml">', html), path
