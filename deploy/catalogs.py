"""The message catalogs under locale/: compiled to .mo with polib, so no GNU gettext is needed anywhere.

python deploy/catalogs.py compile     # every locale/*/LC_MESSAGES/*.po -> .mo (`make install` runs it)
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def compile_catalogs() -> list[Path]:
    written = []
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def main(argv: list[str]) -> int:
    if argv[1:] == ["compile"]:
        for path in compile_catalogs():
            print(f"compiled {path.relative_to(LOCALE.parent)}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
