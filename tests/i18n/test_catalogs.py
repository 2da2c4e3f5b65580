"""The Italian catalogs are complete: every message the sources give (Python, templates, the player client's
scripts, the service errors' English) has a non-empty, non-fuzzy Italian translation with the same
placeholders, and no message is there twice (deploy/catalogs.py; docs/web.md, "Languages")."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ramino_catalogs", ROOT / "deploy" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


catalogs = _load()


@pytest.fixture(scope="module")
def extracted() -> object:
    return catalogs.extract_messages()


def test_every_message_has_its_italian_translation(extracted: object) -> None:
    problems = catalogs.check(extracted)
    assert not problems, "\n".join(problems)


def test_the_extractor_finds_each_kind_of_message(extracted: object) -> None:
    django = extracted.messages["django"]  # type: ignore[attr-defined]
    msgids = {key.msgid for key in django}
    # a service error's English literal, a class's default message, a code's sentence, a `%(name)s` template
    assert "No such table." in msgids
    assert "The account does not hold enough chips." in msgids
    assert "It is not your turn." in msgids
    assert "The buy-in must be between %(min_buy_in)s and %(max_buy_in)s chips." in msgids
    # a template's {% translate %} and the player client's t("...")
    assert any("templates" in where for places in django.values() for where in places)
    scripts = extracted.messages["djangojs"]  # type: ignore[attr-defined]
    assert any(
        where.startswith("play/static/play/js/auth.js") for places in scripts.values() for where in places
    )


def _catalog(tmp_path: Path, entries: str) -> Path:
    folder = tmp_path / "locale" / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    (folder / "django.po").write_text(header + entries)
    (folder / "djangojs.po").write_text(header)
    return tmp_path / "locale"


def _found(*msgids: str, plural: tuple[str, str] | None = None) -> object:
    found = catalogs.Extracted()
    for msgid in msgids:
        found.add("django", catalogs.Key(None, msgid), "x.py:1")
    if plural:
        found.add("django", catalogs.Key(None, plural[0], plural[1]), "x.py:2")
    return found


def test_a_complete_catalog_passes(tmp_path: Path) -> None:
    locale = _catalog(
        tmp_path,
        'msgid "The table is full."\nmsgstr "Il tavolo è pieno."\n\n'
        'msgid "%(n)s chip"\nmsgid_plural "%(n)s chips"\nmsgstr[0] "%(n)s fiche"\nmsgstr[1] "%(n)s fiches"\n',
    )
    assert catalogs.check(_found("The table is full.", plural=("%(n)s chip", "%(n)s chips")), locale) == []


def test_a_message_without_italian_fails(tmp_path: Path) -> None:
    locale = _catalog(tmp_path, 'msgid "The table is full."\nmsgstr "Il tavolo è pieno."\n')
    problems = catalogs.check(_found("The table is full.", "The stock is empty."), locale)
    assert problems == ["locale/it/LC_MESSAGES/django.po: no Italian for 'The stock is empty.'"]


def test_an_empty_translation_fails(tmp_path: Path) -> None:
    locale = _catalog(tmp_path, 'msgid "The stock is empty."\nmsgstr ""\n')
    assert catalogs.check(_found("The stock is empty."), locale) == [
        "locale/it/LC_MESSAGES/django.po: empty translation for 'The stock is empty.'"
    ]


def test_a_missing_plural_form_fails(tmp_path: Path) -> None:
    locale = _catalog(
        tmp_path, 'msgid "%(n)s chip"\nmsgid_plural "%(n)s chips"\nmsgstr[0] "%(n)s fiche"\nmsgstr[1] ""\n'
    )
    assert len(catalogs.check(_found(plural=("%(n)s chip", "%(n)s chips")), locale)) == 1


def test_a_fuzzy_translation_fails(tmp_path: Path) -> None:
    locale = _catalog(tmp_path, '#, fuzzy\nmsgid "The stock is empty."\nmsgstr "Il tallone è vuoto."\n')
    assert catalogs.check(_found("The stock is empty."), locale) == [
        "locale/it/LC_MESSAGES/django.po: fuzzy (not used) 'The stock is empty.'"
    ]


def test_a_duplicate_entry_fails(tmp_path: Path) -> None:
    entry = 'msgid "The stock is empty."\nmsgstr "Il tallone è vuoto."\n\n'
    locale = _catalog(tmp_path, entry + entry)
    assert catalogs.check(_found("The stock is empty."), locale) == [
        "locale/it/LC_MESSAGES/django.po: duplicate entry for 'The stock is empty.'"
    ]


def test_a_translation_with_other_placeholders_fails(tmp_path: Path) -> None:
    locale = _catalog(tmp_path, 'msgid "At most %(limit)s chips."\nmsgstr "Al massimo %(limite)s fiches."\n')
    problems = catalogs.check(_found("At most %(limit)s chips."), locale)
    assert len(problems) == 1 and "placeholders" in problems[0]


def test_extract_appends_what_is_missing_and_keeps_translations(tmp_path: Path) -> None:
    locale = _catalog(
        tmp_path, '# -- table (table.js)\nmsgid "The table is full."\nmsgstr "Il tavolo è pieno."\n'
    )
    before = (locale / "it" / "LC_MESSAGES" / "django.po").read_text()
    added = catalogs.extract(_found("The table is full.", "Only %(n)s seats."), locale)
    assert added["django"] == [catalogs.Key(None, "Only %(n)s seats.")]
    after = (locale / "it" / "LC_MESSAGES" / "django.po").read_text()
    assert after.startswith(before.rstrip("\n"))
    entries = {e.msgid: e for e in polib.pofile(str(locale / "it" / "LC_MESSAGES" / "django.po"))}
    assert entries["The table is full."].msgstr == "Il tavolo è pieno."
    assert entries["Only %(n)s seats."].msgstr == "" and "python-format" in entries["Only %(n)s seats."].flags
    # and the check now names it, until someone translates it
    assert catalogs.check(_found("The table is full.", "Only %(n)s seats."), locale) == [
        "locale/it/LC_MESSAGES/django.po: empty translation for 'Only %(n)s seats.'"
    ]
    assert catalogs.extract(_found("The table is full.", "Only %(n)s seats."), locale)["django"] == []


def test_compile_writes_what_gettext_reads(tmp_path: Path) -> None:
    import gettext

    locale = _catalog(tmp_path, 'msgid "The stock is empty."\nmsgstr "Il tallone è vuoto."\n')
    (mo,) = [p for p in catalogs.compile_catalogs(locale) if p.stem == "django"]
    assert gettext.GNUTranslations(mo.open("rb")).gettext("The stock is empty.") == "Il tallone è vuoto."


def test_the_image_copies_and_compiles_the_catalogs(tmp_path: Path) -> None:
    """The Dockerfile copies locale/ and compiles it in the build (its .mo files are not in git)."""
    import gettext
    import subprocess

    from tests.test_deploy import _build_image_files, _dockerfile_instructions

    runs = [" ".join(args) for instruction, args in _dockerfile_instructions() if instruction == "RUN"]
    assert any("python deploy/catalogs.py compile" in run for run in runs)
    app = tmp_path / "app"
    _build_image_files(app)
    for stale in app.glob("locale/*/LC_MESSAGES/*.mo"):
        stale.unlink()
    assert list(app.glob("locale/it/LC_MESSAGES/*.po"))
    subprocess.run(
        [sys.executable, "deploy/catalogs.py", "compile"], cwd=app, check=True, capture_output=True
    )
    with (app / "locale" / "it" / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        assert gettext.GNUTranslations(mo).gettext("The stock is empty.") == "Il tallone è vuoto."
