"""Installing on a phone (docs/web.md "Installing on a phone"): the web app manifest, its icons (drawn by
play/icons.py, committed byte for byte as it draws them) and the links every player page carries."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from django.test import Client

from play import icons

pytestmark = pytest.mark.django_db

ICONS = Path(icons.__file__).resolve().parent / "static" / "play" / "icons"


def png_size(data: bytes) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) from a PNG's IHDR."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, colour


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_manifest_names_the_app_its_start_and_its_icons(language: str) -> None:
    answer = Client().get("/play/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/manifest+json")
    body = answer.json()
    assert body["name"] == body["short_name"] == "Ramino"
    assert body["lang"] == language
    assert body["description"]
    assert body["display"] == "standalone" and body["start_url"].startswith("/play/")
    assert body["start_url"].startswith(body["scope"])
    sizes = {(i["sizes"], i["purpose"]) for i in body["icons"]}
    # what Chrome asks of an installable app: a 192 px and a 512 px icon, and one a launcher may mask
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    client = Client()
    for icon in body["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200, icon
        data = b"".join(served.streaming_content) if served.streaming else served.content  # type: ignore[attr-defined]
        w, h, depth, colour = png_size(data)
        assert f"{w}x{h}" == icon["sizes"] and depth == 8 and colour == 6, icon


def test_the_descriptions_follow_the_language() -> None:
    it = Client().get("/play/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="it").json()["description"]
    en = Client().get("/play/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en").json()["description"]
    assert it != en


@pytest.mark.parametrize("path", ["/", "/play/", "/play/learn/basic/"])
def test_every_player_page_links_the_manifest_and_the_home_screen_icon(path: str) -> None:
    html = Client().get(path).content.decode()
    assert '<link rel="manifest" href="/play/manifest.webmanifest">' in html, path
    assert '<meta name="theme-color" content="#0f5132">' in html
    found = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert found, path
    assert png_size(Client().get(found.group(1)).getvalue())[:2] == (180, 180)


@pytest.mark.parametrize("name", ["icon-192.png", "apple-touch-icon.png"])
def test_the_committed_icons_are_what_the_generator_draws(name: str) -> None:
    assert (ICONS / name).read_bytes() == icons.render(name)


def test_the_maskable_icon_keeps_the_spade_inside_the_safe_zone() -> None:
    size = 96
    rgba = icons.draw(size, maskable=True, rounded=False)
    row = size * 4 + 1
    white = [
        (x, y)
        for y in range(size)
        for x in range(size)
        if rgba[y * row + 1 + x * 4] > 200  # red high: the white spade, not the felt
    ]
    assert white
    centre = (size - 1) / 2
    radius = max(((x - centre) ** 2 + (y - centre) ** 2) ** 0.5 for x, y in white)
    assert radius <= 0.4 * size  # the safe zone: a circle of 80 % of the icon
