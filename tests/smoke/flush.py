"""Starting again on the smoke run's SQLite database, once the stack has stopped (docs/operations.md):
`manage.py flush` is refused by the append-only triggers of the ledger and the game logs and changes nothing;
deleting the database file, `migrate` and `load_demo` give a new one whose ledger rows the triggers guard."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from .stack import ROOT, Stack, StackFailed

GUARDED = ("ledger_transfer", "ledger_entry", "tournaments_movelog", "tournaments_gameevent")
EXPECTED_TRIGGERS = {f"{table}_no_{op}" for table in GUARDED for op in ("update", "delete")}


def run(stack: Stack, log: object) -> None:
    _expect_triggers(stack, "after the play")
    moves, entries = _count(stack, "tournaments_movelog"), _count(stack, "ledger_entry")
    _expect(moves > 0, "the play logged no moves")
    refused = _manage(stack, "flush", "--noinput", check=False)
    _expect(refused.returncode != 0, "manage.py flush emptied append-only tables on SQLite")
    _expect(
        (_count(stack, "tournaments_movelog"), _count(stack, "ledger_entry")) == (moves, entries),
        "a refused flush changed the data",
    )
    _expect_triggers(stack, "after the refused flush")
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{stack.database}{suffix}").unlink(missing_ok=True)
    _manage(stack, "migrate", "--noinput")
    _manage(stack, "load_demo")
    _expect(_count(stack, "ledger_entry") > 0, "load_demo posted nothing in the new database")
    _expect(_count(stack, "tournaments_movelog") == 0, "the new database holds the old moves")
    _expect_triggers(stack, "in the new database")
    with closing(sqlite3.connect(stack.database)) as db:
        try:
            db.execute("DELETE FROM ledger_entry")
        except sqlite3.IntegrityError as exc:
            _expect("immutable" in str(exc), f"unexpected refusal: {exc}")
        else:
            raise StackFailed("a ledger entry could be deleted in the new database")


def _manage(stack: Stack, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=stack.env,
        capture_output=True,
        text=True,
        # Migrating a new SQLite file from scratch takes about 30 s on an idle 2-core machine; `make test` runs this
        # beside pytest's processes.
        timeout=600,
        check=False,
    )
    if check and done.returncode != 0:
        raise StackFailed(
            f"manage.py {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return done


def _count(stack: Stack, table: str) -> int:
    with closing(sqlite3.connect(stack.database)) as db:
        return int(db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])


def _expect_triggers(stack: Stack, when: str) -> None:
    with closing(sqlite3.connect(stack.database)) as db:
        found = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    missing = EXPECTED_TRIGGERS - found
    _expect(not missing, f"append-only triggers missing {when}: {sorted(missing)}")


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise StackFailed(message)
