"""The message catalogs under locale/, with no GNU gettext anywhere (docs/web.md, "Languages").

python deploy/catalogs.py extract    # every translatable message of the sources, added to locale/it/ (untranslated)
python deploy/catalogs.py check      # fails listing each message without Italian, fuzzy, mistyped or duplicated
python deploy/catalogs.py compile    # every locale/*/LC_MESSAGES/*.po -> .mo (`make install` and the image run it)

What is a message: in the project's packages (pyproject's packages.find list, migrations left out), the literal
arguments of `_`, `gettext`, `gettext_lazy`, `gettext_noop`, `ngettext`, `pgettext` (and their `_lazy` forms)
in Python and, through Django's `templatize`, in templates (`{% translate %}`, `{% blocktranslate %}`) — the
"django" domain; the literal arguments of `t`, `tn`, `gettext`, `ngettext` in the player client's scripts — the
"djangojs" domain; and every English literal a service error is raised with (the first argument or `message=` of
a `ServiceError` subclass, and a subclass's `default_message`): api.exceptions translates those when it writes
the error envelope, so their raise sites need no `_()`.

`extract` only appends: entries already in a catalog are never rewritten (hand-written translations, their
comments and their order stay as they are, and `*.po merge=union` merges cleanly); new ones go at the end under
a `# -- extracted` comment with an empty msgstr, for a person to translate. Extraction needs Babel (a dev
dependency); `compile` needs polib alone.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGE = "it"
DOMAINS = ("django", "djangojs")

PYTHON_KEYWORDS: dict[str, object] = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "_lazy": None,
    "N_": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
JS_KEYWORDS: dict[str, object] = {
    "t": None,
    "gettext": None,
    "tn": (1, 2),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
# The player client's scripts (third-party code under a vendor/ folder is not ours to translate).
JS_SOURCES = ("play/static",)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")
ERROR_BASE = "ServiceError"


@dataclass(frozen=True, order=True)
class Key:
    """A message's identity in its catalog: context, singular and plural."""

    msgctxt: str | None
    msgid: str
    msgid_plural: str = ""

    def order(self) -> tuple[str, str, str]:
        """A sort key: a message without a context sorts as one with an empty context (None and str do not compare)."""
        return (self.msgctxt or "", self.msgid, self.msgid_plural)

    def label(self) -> str:
        return (f"[{self.msgctxt}] " if self.msgctxt else "") + repr(self.msgid)


@dataclass
class Extracted:
    """Each domain's messages, with where they were found."""

    messages: dict[str, dict[Key, list[str]]] = field(default_factory=lambda: {d: {} for d in DOMAINS})

    def add(self, domain: str, key: Key, where: str) -> None:
        self.messages[domain].setdefault(key, []).append(where)


def packages() -> list[Path]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = [name.rstrip("*") for name in data["tool"]["setuptools"]["packages"]["find"]["include"]]
    return [ROOT / name for name in names if (ROOT / name).is_dir()]


def _python_files() -> list[Path]:
    return sorted(
        path for package in packages() for path in package.rglob("*.py") if "migrations" not in path.parts
    )


def _key(messages: object, context: str | None) -> Key | None:
    """Babel's (singular, plural) or singular answer as a Key; a non-literal first argument gives None."""
    if isinstance(messages, tuple):
        singular, plural = messages[0], messages[1] if len(messages) > 1 else ""
    else:
        singular, plural = messages, ""
    if not isinstance(singular, str) or not singular:
        return None
    return Key(context, singular, plural if isinstance(plural, str) else "")


def _babel(source: str, method: str, keywords: dict[str, object]) -> Iterator[tuple[int, Key]]:
    from babel.messages.extract import extract  # a dev dependency: only `compile` runs in the image

    found = extract(method, io.BytesIO(source.encode()), keywords=keywords, strip_comment_tags=True)  # type: ignore[arg-type]
    for lineno, messages, _comments, context in found:
        key = _key(messages, context)
        if key is not None:
            yield lineno, key


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """The names of ServiceError and of every class deriving from it, by name, across the project."""
    names = {ERROR_BASE}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def _literals(node: ast.expr | None) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _error_messages(trees: dict[Path, ast.Module]) -> Iterator[tuple[Path, int, str]]:
    """The English literals service errors are raised with, and their classes' default messages."""
    names = _error_classes(trees)
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in names:
                for item in node.body:
                    value: ast.expr | None
                    if isinstance(item, ast.Assign):
                        targets, value = item.targets, item.value
                    elif isinstance(item, ast.AnnAssign):
                        targets, value = [item.target], item.value
                    else:
                        continue
                    if any(isinstance(t, ast.Name) and t.id == "default_message" for t in targets):
                        for text in _literals(value):
                            yield path, item.lineno, text
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name not in names:
                    continue
                argument = node.args[0] if node.args else None
                argument = next((k.value for k in node.keywords if k.arg == "message"), argument)
                for text in _literals(argument):
                    yield path, node.lineno, text


def _templates() -> list[Path]:
    return sorted(path for package in packages() for path in package.glob("**/templates/**/*.html"))


def _scripts() -> list[Path]:
    return sorted(
        path
        for folder in JS_SOURCES
        for pattern in ("*.js", "*.mjs")
        for path in (ROOT / folder).rglob(pattern)
        if "vendor" not in path.parts and not path.name.endswith(".min.js")
    )


def extract_messages() -> Extracted:
    from django.utils.translation.template import templatize

    found = Extracted()
    trees: dict[Path, ast.Module] = {}
    for path in _python_files():
        source = path.read_text()
        rel = path.relative_to(ROOT)
        trees[path] = ast.parse(source, filename=str(rel))
        for lineno, key in _babel(source, "python", PYTHON_KEYWORDS):
            found.add("django", key, f"{rel}:{lineno}")
    for path, lineno, text in _error_messages(trees):
        found.add("django", Key(None, text), f"{path.relative_to(ROOT)}:{lineno}")
    for path in _templates():
        rel = path.relative_to(ROOT)
        # templatize keeps the template's lines; their indentation means nothing to Python, and a line that
        # indents less than the one before would stop the tokenizer: every line starts at column 0.
        code = "\n".join(line.lstrip() for line in templatize(path.read_text(), origin=str(path)).split("\n"))
        for lineno, key in _babel(code, "python", PYTHON_KEYWORDS):
            found.add("django", key, f"{rel}:{lineno}")
    for path in _scripts():
        rel = path.relative_to(ROOT)
        for lineno, key in _babel(path.read_text(), "javascript", JS_KEYWORDS):
            found.add("djangojs", key, f"{rel}:{lineno}")
    return found


def catalog_path(domain: str) -> Path:
    return LOCALE / LANGUAGE / "LC_MESSAGES" / f"{domain}.po"


def _entry_key(entry: polib.POEntry) -> Key:
    return Key(entry.msgctxt or None, entry.msgid, entry.msgid_plural or "")


def _new_entry(key: Key, where: list[str]) -> polib.POEntry:
    flags = ["python-format"] if PLACEHOLDER.search(key.msgid + key.msgid_plural) else []
    entry = polib.POEntry(msgctxt=key.msgctxt, msgid=key.msgid, msgstr="", flags=flags)
    if key.msgid_plural:
        entry.msgid_plural = key.msgid_plural
        entry.msgstr_plural = {0: "", 1: ""}
    entry.occurrences = [(w.rsplit(":", 1)[0], w.rsplit(":", 1)[1]) for w in sorted(set(where))[:3]]
    return entry


def extract(found: Extracted | None = None, locale: Path | None = None) -> dict[str, list[Key]]:
    """Append every extracted message a catalog lacks, untranslated; answer what was added per domain."""
    found = found or extract_messages()
    added: dict[str, list[Key]] = {}
    for domain in DOMAINS:
        path = (locale or LOCALE) / LANGUAGE / "LC_MESSAGES" / f"{domain}.po"
        known = {_entry_key(e) for e in polib.pofile(str(path))} if path.exists() else set()
        missing = sorted((k for k in found.messages[domain] if k not in known), key=Key.order)
        added[domain] = missing
        if not missing:
            continue
        blocks = [str(_new_entry(k, found.messages[domain][k])).rstrip("\n") for k in missing]
        text = path.read_text() if path.exists() else ""
        path.write_text(
            text.rstrip("\n") + "\n\n# -- extracted (to translate)\n" + "\n\n".join(blocks) + "\n"
        )
    return added


def _translated(entry: polib.POEntry) -> bool:
    if entry.msgid_plural:
        return bool(entry.msgstr_plural) and all(v.strip() for v in entry.msgstr_plural.values())
    return bool(entry.msgstr.strip())


def problems_in(path: Path, wanted: Iterable[Key]) -> list[str]:
    """Each wanted message the catalog at `path` lacks, leaves empty or marks fuzzy; each duplicate entry; each
    translation whose %(name)s placeholders differ from its message's (a KeyError when it is formatted)."""
    catalog = polib.pofile(str(path))
    name = path.relative_to(path.parents[3]) if len(path.parents) > 3 else path
    entries = [e for e in catalog if not e.obsolete]
    counts = Counter((e.msgctxt or None, e.msgid) for e in entries)
    found: list[str] = [
        f"{name}: duplicate entry for {Key(ctx, msgid).label()}"
        for (ctx, msgid), n in counts.items()
        if n > 1
    ]
    by_key = {(e.msgctxt or None, e.msgid): e for e in entries}
    for key in sorted(set(wanted), key=Key.order):
        entry = by_key.get((key.msgctxt, key.msgid))
        if entry is None:
            found.append(f"{name}: no Italian for {key.label()}")
        elif "fuzzy" in entry.flags:
            found.append(f"{name}: fuzzy (not used) {key.label()}")
        elif not _translated(entry):
            found.append(f"{name}: empty translation for {key.label()}")
    for entry in entries:
        if "fuzzy" in entry.flags or not _translated(entry):
            continue
        expected = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
        strings = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in strings:
            if set(PLACEHOLDER.findall(text)) - expected or (
                not entry.msgid_plural and expected - set(PLACEHOLDER.findall(text))
            ):
                found.append(
                    f"{name}: placeholders of {Key(entry.msgctxt or None, entry.msgid).label()} differ: {text!r}"
                )
    return found


def check(found: Extracted | None = None, locale: Path | None = None) -> list[str]:
    found = found or extract_messages()
    problems: list[str] = []
    for domain in DOMAINS:
        path = (locale or LOCALE) / LANGUAGE / "LC_MESSAGES" / f"{domain}.po"
        if not path.exists():
            problems.append(f"{path}: missing")
            continue
        problems += problems_in(path, found.messages[domain])
    return problems


def compile_catalogs(locale: Path | None = None) -> list[Path]:
    written = []
    for po_path in sorted((locale or LOCALE).glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def main(argv: list[str]) -> int:
    command = argv[1:]
    if command == ["compile"]:
        for path in compile_catalogs():
            print(f"compiled {path.relative_to(ROOT)}")
        return 0
    if command == ["extract"]:
        for domain, keys in extract().items():
            print(f"{domain}: {len(keys)} new message(s) to translate")
            for key in keys:
                print(f"  {key.label()}")
        return 0
    if command == ["check"]:
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s)" if problems else "every message has its Italian translation")
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
