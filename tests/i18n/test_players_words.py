"""Words for players in the Italian catalogs (issue 31, defect 19; /work/shared/GLOSSARY-it.md): a round's
payments are not "the rules", entering a tournament is *iscriviti* (not the account's *registrati*), leaving a
table is not signing out, and a sentence says what is missing without doubling it ("te ne mancano 150 punti")."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "it" / "LC_MESSAGES"


@pytest.fixture(scope="module")
def js() -> dict[str, str]:
    return {e.msgid: e.msgstr for e in polib.pofile(str(LOCALE / "djangojs.po")) if not e.msgid_plural}


@pytest.fixture(scope="module")
def py() -> dict[str, str]:
    return {e.msgid: e.msgstr for e in polib.pofile(str(LOCALE / "django.po")) if not e.msgid_plural}


def test_a_rounds_payments_are_not_the_rules(js: dict[str, str]) -> None:
    for msgid in ("Settlement", "The settlement is being posted…"):
        assert "regolament" not in js[msgid].lower(), (msgid, js[msgid])
    assert js["Settlement"] == "Pagamenti"


def test_entering_a_tournament_is_iscriviti_and_registering_an_account_registrati(js: dict[str, str]) -> None:
    assert js["Enter"] == "Iscriviti"
    assert js["Register"] == "Registrati"


def test_leaving_the_table_and_signing_out_are_different_words(
    js: dict[str, str], py: dict[str, str]
) -> None:
    sign_out = py["Sign out"]
    for msgid in ("Leave now", "Leave now and let the server play my hand"):
        assert sign_out.lower() not in js[msgid].lower().split(), (msgid, js[msgid])
        assert "tavolo" in js[msgid]


def test_what_is_missing_is_said_once(js: dict[str, str]) -> None:
    for msgid in (
        "You have %(points)s; %(left)s to reach %(target)s.",
        "You scored %(points)s this round; %(left)s to reach %(target)s.",
    ):
        assert "te ne mancano" not in js[msgid], js[msgid]
        assert "ti mancano %(left)s" in js[msgid]


def test_counted_words_agree_with_one(js: dict[str, str]) -> None:
    plural = {e.msgid: e.msgstr_plural for e in polib.pofile(str(LOCALE / "djangojs.po")) if e.msgid_plural}
    assert plural["after %(n)s rated game"][0] == "dopo %(n)s partita valutata"
