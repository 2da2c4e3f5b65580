"""The how-to-play pages (/play/learn/<preset>/): every preset's page renders in English and Italian with its rules
and every frame of its stacked round, each caption filled in from the engine's frames; Rummy 500's page links to
the demo; the landing page and the lobby link to every page; an unknown preset is a 404."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from play.learn import SCRIPTS, frames
from play.learn.pages import PRESETS
from play.learn.words import caption, card_name

pytestmark = pytest.mark.django_db


def _get(path: str, lang: str) -> str:
    response = Client(headers={"accept-language": lang}).get(path)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_page_renders_its_rules_and_every_frame(preset: str, lang: str) -> None:
    html = _get(f"/play/learn/{preset}/", lang)
    assert f'<html lang="{lang}"' in html
    assert len(re.findall(r"<h1\b", html)) == 1
    shown = re.findall(r'data-role="frame" data-key="([a-z_]+)"', html)
    built = frames(preset)
    assert shown == [f.key for f in built]
    assert shown[0] == "deal" and shown[-1] == "score"
    captions = [
        re.sub(r"\s+", " ", c) for c in re.findall(r'data-role="caption">(.*?)</figcaption>', html, re.S)
    ]
    with translation.override(lang):
        expected = [caption(preset, f) for f in built]
        names = {code: card_name(code) for f in built for code in f.hand}
    for got, want in zip(captions, expected, strict=True):
        assert want.replace("'", "&#x27;") in got
    assert "%(" not in html  # every placeholder was filled
    for code, name in names.items():  # every card of the hands, with its name for screen readers
        assert f'data-card="{code}"' in html and name.replace("'", "&#x27;") in html
    assert html.count('data-role="scores"') == 1
    assert ('data-role="link-demo"' in html) == (preset == "rummy500")
    others = set(re.findall(r'data-role="learn-link" data-game="(\w+)"', html))
    assert others == set(PRESETS) - {preset}


def test_the_pages_speak_the_language_asked_for() -> None:
    english = _get("/play/learn/rummy500/", "en")
    italian = _get("/play/learn/rummy500/", "it")
    assert (
        "How to play Rummy 500" in english
        and "You lay down a set: 7 of spades, 7 of hearts, 7 of diamonds" in english
    )
    assert "Come si gioca a Ramino 500" in italian and "7 di picche, 7 di cuori, 7 di quadri" in italian
    assert 'href="/play/#/demo"' in italian and "Prova la demo" in italian
    board = _get("/play/learn/board/", "it")
    assert "rosso 13" in board or "13 rosso" in board


def test_an_unknown_preset_is_not_found() -> None:
    assert Client().get("/play/learn/poker/").status_code == 404


def test_every_implemented_preset_has_a_script_and_a_page() -> None:
    from tournaments.engine.rules import implemented_presets

    assert set(implemented_presets()) == set(SCRIPTS) == set(PRESETS)


def test_the_landing_page_links_every_game_to_its_page() -> None:
    for lang in ("en", "it"):
        html = _get("/", lang)
        linked = re.findall(r'href="/play/learn/(\w+)/"', html)
        assert set(linked) == set(PRESETS), lang
